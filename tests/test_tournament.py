"""`ledger tournament check | recheck` (#17): a whole event's results sheet against its game logs.

The sample event (sample_logs/tournament/) reports exactly its three planted problems and exits 1,
its corrected sheet exits 0; a wrong winner on a sheet of games simulated here (not the samples)
is named by table; a malformed sheet gets a clear message and no traceback; a saved report is
recomputed, and a changed log is caught."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.record import seal
from engine.core.ruleset import get_ruleset, rulesets
from ledger.cli import app
from ledger.tournament import check_event
from ledger.tournament_scoring import (
    Played, Points, ScoringError, event_scoring, load_scoring, standings,
)
from ledger.tournament_sheet import read_sheet
from replay.judge import judge
from replay.logfile import format_line, read_log

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "sample_logs" / "tournament"
SHEET = EVENT / "results.csv"
CORRECTED = EVENT / "results-corrected.csv"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def report_of(*args: str) -> tuple[int, dict]:
    r = run("tournament", "check", *args, "--json")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r.exit_code, json.loads(r.stdout)


def errors_of(report: dict) -> list[tuple]:
    return [(p["round"], p["table"], p["check"]) for p in report["problems"]
            if p["severity"] == "error"]


def write_sheet(path: Path, rows: list[dict], columns: list[str] | None = None) -> Path:
    columns = columns or list(rows[0])
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


# --- the sample event ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sample() -> tuple[int, dict]:
    return report_of(SHEET, EVENT)


def test_the_sample_reports_exactly_the_planted_problems_and_exits_1(sample):
    code, report = sample
    assert code == 1 and report["exit_code"] == 1 and not report["stands"]
    assert errors_of(report) == [("1", "2", "result"), ("2", "2", "log"), ("2", "3", "log")]
    assert [p for p in report["problems"] if p["severity"] != "error"] == []
    by = {(p["round"], p["table"]): p for p in report["problems"]}
    assert "the sheet reports fay; the rules give eve" in by[("1", "2")]["message"]
    assert "round 1 table 3's game" in by[("2", "2")]["message"]
    assert "r2-t2-resent.jsonl has this table's players" in by[("2", "2")]["todo"]
    assert "r2-t3.jsonl" in by[("2", "3")]["message"]
    stands = {(t["round"], t["table"]): t["stands"] for t in report["tables"]}
    assert stands == {("1", "1"): True, ("1", "2"): False, ("1", "3"): True,
                      ("2", "1"): True, ("2", "2"): False, ("2", "3"): False}


def test_the_sample_standings_count_the_verified_results_only(sample):
    _, report = sample
    assert report["results_counted"] == 3
    assert [x["table"] for x in report["left_out"]] == ["round 1 table 2", "round 2 table 2",
                                                         "round 2 table 3"]
    table = {s["player"]: s for s in report["standings"]}
    assert (table["dan"]["rank"], table["dan"]["points"], table["dan"]["wins"]) == (1, 2, 2)
    assert (table["kim"]["rank"], table["kim"]["points"]) == (2, 1)
    assert table["eve"]["games"] == 0 and table["eve"]["left_out"] == 2
    assert report["scoring"]["tie_breaks"] == ["crowns", "red_stars"]
    # the tie-breaks are the rules' values summed over the verified games
    assert table["dan"]["tie_breaks"] == {"crowns": 7, "red_stars": 4}
    assert len({s["player"] for s in report["standings"]}) == 12


def test_the_sample_text_names_each_problem_on_one_line():
    r = run("tournament", "check", SHEET, EVENT)
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    problems = lines[lines.index("== Problems: 3 ==") + 1:][:3]
    assert [ln.split("  ")[1] for ln in problems] == ["round 1 table 2", "round 2 table 2",
                                                      "round 2 table 3"]
    assert all(" — " in ln for ln in problems)      # what is wrong — what to do
    assert "3 of 6 results do not stand" in r.stdout


def test_the_corrected_sheet_stands():
    code, report = report_of(CORRECTED, EVENT)
    assert code == 0 and report["stands"] and errors_of(report) == []
    # the copy of round 1 table 3's log is left over: a warning, not a problem
    assert [(p["check"], p["severity"]) for p in report["problems"]] == [("duplicate-log", "warning")]
    assert report["results_counted"] == 5
    assert report["left_out"] == [{"table": "round 2 table 3", "why": "no result reported (and no log)"}]


def test_the_report_has_every_logs_head_and_the_rulesets_and_data_digests(sample):
    _, report = sample
    for log in report["logs"]:
        rs = get_ruleset(log["ruleset"])
        assert len(log["head"]) == 64 and log["ruleset_version"] == rs.version
        assert log["data"] == rs.data_digest(rs.default_data())
    t = report["tables"][0]
    assert t["log"]["head"] == read_log(EVENT / "r1-t1.jsonl").head
    assert t["log"]["found"] == "the log column"
    matched = next(t for t in report["tables"] if (t["round"], t["table"]) == ("2", "1"))
    assert matched["log"]["found"].startswith("its players")
    assert report["sheet"]["sha256"] and report["sheet"]["lines"][0]["players"] == ["ann", "bob", "cat", "dan"]


def test_the_sample_is_rebuilt_byte_for_byte():
    spec = importlib.util.spec_from_file_location("make_tournament", EVENT / "make_tournament.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, text in mod.build().items():
        assert (EVENT / name).read_text(encoding="utf-8") == text, name


# --- games simulated here, not the samples ------------------------------------------------------------

@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> tuple[Path, list[dict]]:
    """Four games the bots play now (two of each ruleset), and a sheet of their true results."""
    folder = tmp_path_factory.mktemp("fresh")
    rows = []
    plan = [("1", "A", "risk-europe", 301), ("1", "B", "risk-legacy", 302),
            ("2", "A", "risk-legacy", 303), ("2", "B", "risk-europe", 304)]
    for rnd, table, ruleset, seed in plan:
        game = get_ruleset(ruleset).simulate(seed, f"cup-{rnd}{table}", {})
        path = folder / f"game-{seed}.jsonl"
        path.write_text("".join(format_line(e) + "\n" for e in game.envelopes), encoding="utf-8")
        j = judge(read_log(path), keep_steps=False)
        assert j.result is not None and not j.findings
        rows.append({"round": rnd, "table": table, "players": ";".join(j.players),
                     "winner": ";".join(j.result.winners), "ruleset": ruleset})
    return folder, rows


def test_fresh_games_with_their_true_results_stand(fresh, tmp_path):
    folder, rows = fresh
    code, report = report_of(write_sheet(tmp_path / "cup.csv", rows), folder)
    assert code == 0 and errors_of(report) == [], report["problems"]
    assert all(t["log"]["found"].startswith("its players") for t in report["tables"])


@pytest.mark.parametrize("wrong", [0, 1, 2, 3])
def test_a_wrong_winner_for_a_clean_log_is_caught_and_named_by_table(fresh, tmp_path, wrong):
    folder, rows = fresh
    rows = [dict(r) for r in rows]
    players = rows[wrong]["players"].split(";")
    truth = rows[wrong]["winner"]
    rows[wrong]["winner"] = next(p for p in players if p != truth)
    code, report = report_of(write_sheet(tmp_path / "cup.csv", rows), folder)
    assert code == 1
    assert errors_of(report) == [(rows[wrong]["round"], rows[wrong]["table"], "result")]
    problem = report["problems"][0]
    assert f"the rules give {truth}" in problem["message"]
    assert f"correct the winner on the sheet to {truth}" in problem["todo"]


def test_a_log_named_by_its_game_id_and_a_wrong_score(fresh, tmp_path):
    folder, rows = fresh
    rows = [dict(r, log="", crowns="", red_stars="") for r in rows]
    rows[0]["log"] = "cup-1A"                                    # a game id, among LOGS
    j = judge(read_log(folder / "game-301.jsonl"), keep_steps=False)
    values = get_ruleset("risk-europe").scoring.scores(j.final_state, j.result)
    crowns = [values[p]["crowns"] for p in j.players]
    rows[0]["crowns"] = ";".join(map(str, crowns))
    rows[3]["crowns"] = "99"                                      # the winner's alone: wrong
    code, report = report_of(write_sheet(tmp_path / "cup.csv", rows), folder)
    assert code == 1 and errors_of(report) == [("2", "B", "scores")]
    assert report["tables"][0]["log"]["found"] == "the log column (a game id)"
    assert "the sheet 99" in report["problems"][0]["message"]


def test_a_player_at_two_tables_of_a_round_and_a_table_missing_from_the_sheet(fresh, tmp_path):
    folder, rows = fresh
    rows = [dict(r) for r in rows]
    round_1_b = rows[1]["players"].split(";")
    del rows[3]                                                  # its log is still among LOGS
    rows.append({"round": "1", "table": "C", "players": f"{round_1_b[0]};zed",
                 "winner": "", "ruleset": ""})
    code, report = report_of(write_sheet(tmp_path / "cup.csv", rows), folder)
    assert code == 1
    errors = errors_of(report)
    assert ("1", "B", "player-twice") in errors and ("1", "C", "player-twice") in errors
    assert (None, None, "missing-table") in errors
    missing = next(p for p in report["problems"] if p["check"] == "missing-table")
    assert "game-304.jsonl" in missing["message"] and missing["game"] == "cup-2B"


def test_rule_errors_a_broken_chain_and_a_shared_win(tmp_path):
    samples = ROOT / "sample_logs"
    rows = [
        {"round": "1", "table": "1", "players": "blue;orange;red;green", "winner": "blue",
         "log": str(samples / "broken-castle-no-siege.jsonl")},
        {"round": "2", "table": "1", "players": "blue;orange;red;green", "winner": "blue",
         "log": str(samples / "broken-edited-line.jsonl")},
        {"round": "3", "table": "1", "players": "blue;orange;red;green", "winner": "red;blue",
         "log": str(samples / "var-teams.jsonl")},
    ]
    code, report = report_of(write_sheet(tmp_path / "s.csv", rows))
    assert code == 1
    errors = errors_of(report)
    assert ("1", "1", "rules") in errors and ("2", "1", "chain") in errors
    rules = next(p for p in report["problems"] if p["round"] == "1")
    assert "RE-EXPAND-CASTLE at line 149" in rules["message"]
    assert [e for e in errors if e[0] == "3"] == []              # the team's shared win stands
    team = {s["player"]: s["points"] for s in report["standings"]}
    assert team["blue"] == team["red"] == 0.5                    # split by default


# --- a malformed sheet --------------------------------------------------------------------------------

@pytest.mark.parametrize("content,words", [
    (b"round,table,winner\n1,1,ann\n", "no 'players' column"),
    (b"round,table,players,winner\n1,1,J\xf6rg;bob,bob\n", "line 2: not UTF-8"),
    (b"", "is empty"),
    (b"\xff\xfer\x00o\x00", "UTF-16"),
    (b"round,table,players,winner\n", "no table"),
    (b'{"tables": 3}', "a JSON sheet is a list"),
    (b'[{"round": 1, "table": 1, "players": ["a", "b"], "winner": "a"},', "not valid JSON"),
    (b'round,table,players,players,winner\n', "the column 'players' is there twice"),
    (b"round;table;players;winner\n1;1;a,b;a\n", "separate them by commas"),
])
def test_an_unreadable_sheet_exits_2_with_a_clear_message(tmp_path, content, words):
    path = tmp_path / ("s.json" if content.startswith((b"[", b"{")) else "s.csv")
    path.write_bytes(content)
    r = run("tournament", "check", path)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, r.output
    assert words in r.stderr and str(path) in r.stderr and "Traceback" not in r.output


def test_a_directory_or_a_missing_sheet_exits_2(tmp_path):
    for given, words in ((tmp_path, "is a directory"), (tmp_path / "none.csv", "no such file")):
        r = run("tournament", "check", given)
        assert r.exit_code == 2 and words in r.stderr


def test_an_unknown_player_and_a_duplicate_table_are_named_and_the_rest_is_checked(tmp_path):
    rows = [{"round": "1", "table": "1", "players": "ann;bob", "winner": "zed"},
            {"round": "1", "table": "2", "players": "cat;dan", "winner": ""},
            {"round": "1", "table": "2", "players": "eve;fay", "winner": ""},
            {"round": "2", "table": "1", "players": "ann;cat", "winner": ""}]
    code, report = report_of(write_sheet(tmp_path / "s.csv", rows))
    assert code == 1
    errors = errors_of(report)
    assert ("1", "1", "sheet") in errors
    assert errors.count(("1", "2", "duplicate-table")) == 2
    unknown = next(p for p in report["problems"] if p["check"] == "sheet")
    assert "'zed' is not one of the table's players (ann, bob)" in unknown["message"]
    assert unknown["where"] == "line 2"
    # round 2: no result and no log: nothing to check, it stands
    assert next(t for t in report["tables"] if t["round"] == "2")["stands"]


def test_a_json_sheet_reads_as_the_csv(sample, tmp_path):
    rows = list(csv.DictReader(SHEET.open(encoding="utf-8")))
    for r in rows:
        r["players"] = r["players"].split(";")
        r["log"] = str(EVENT / r["log"]) if r["log"] else ""       # beside the sheet: absolute
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"tables": rows}), encoding="utf-8")
    code, report = report_of(path, EVENT)
    assert code == 1 and errors_of(report) == errors_of(sample[1])
    assert report["problems"][0]["where"] == "entry 2"


# --- scoring --------------------------------------------------------------------------------------------

def test_every_ruleset_scores_through_its_record():
    for rs in rulesets():
        if rs.scoring is None:
            continue
        assert set(rs.scoring.tie_breaks) <= {v.key for v in rs.scoring.values}
    game42 = judge(read_log(ROOT / "sample_logs" / "game42.jsonl"), keep_steps=False)
    europe = get_ruleset("risk-europe").scoring.scores(game42.final_state, game42.result)
    assert europe["blue"]["crowns"] == game42.result.detail["blue"]["crowns"] == 7
    legacy_game = judge(read_log(ROOT / "sample_logs" / "legacy" / "game-01.jsonl"), keep_steps=False)
    legacy = get_ruleset("risk-legacy").scoring.scores(legacy_game.final_state, legacy_game.result)
    assert {p: v["red_stars"] for p, v in legacy.items()} == \
        {p: d["stars"] for p, d in legacy_game.result.detail.items()}


def test_points_and_tie_breaks_order_the_standings():
    assert Points(win=3).for_player(True, 2, {}) == 1.5
    assert Points(win=3, shared_win=2).for_player(True, 2, {}) == 2
    assert Points(loss=0.5, points_per={"crowns": 0.1}).for_player(False, 1, {"crowns": 5}) == 1.0
    scoring = event_scoring({"tie_breaks": ["wins", "crowns"]})
    games = [Played("t1", "risk-europe", ("a", "b"), ("a",), {"a": {"crowns": 7}, "b": {"crowns": 6}}),
             Played("t2", "risk-europe", ("b", "c"), ("b",), {"b": {"crowns": 7}, "c": {"crowns": 2}}),
             Played("t3", "risk-europe", ("c", "d"), ("c", "d"), {"c": {"crowns": 7}, "d": {"crowns": 7}})]
    table = standings(games, scoring, ["a", "b", "c", "d", "e"], {"e": 1})
    assert [(s.player, s.rank, s.points) for s in table] == [
        ("b", 1, 1), ("a", 2, 1), ("c", 3, 0.5), ("d", 4, 0.5), ("e", 5, 0)]
    assert table[-1].left_out == 1


def test_a_scoring_file_sets_points_and_tie_breaks(tmp_path):
    f = tmp_path / "event.toml"
    f.write_text('win = 3\ntie_breaks = ["wins", "opponents", "crowns"]\n'
                 '[risk-legacy]\nwin = 2\n', encoding="utf-8")
    code, report = report_of(CORRECTED, EVENT, "--scoring", f)
    assert code == 0
    assert report["scoring"]["rulesets"]["risk-legacy"]["win"] == 2
    assert report["scoring"]["tie_breaks"] == ["wins", "opponents", "crowns"]
    points = {s["player"]: s["points"] for s in report["standings"]}
    assert points["dan"] == 3 + 2 and points["kim"] == 3           # one Europe win, one Legacy


@pytest.mark.parametrize("text,words", [
    ('win = "x"', "win is 'x', not a number"),
    ("foo = 1", "unknown key 'foo'"),
    ('tie_breaks = ["luck"]', "unknown 'luck'"),
    ("[risk-legacy]\nbar = 2", "unknown key risk-legacy.bar"),
    ("win = ", "not valid TOML"),
])
def test_a_bad_scoring_file_exits_2(tmp_path, text, words):
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ScoringError, match="bad.toml"):
        load_scoring(f)
    r = run("tournament", "check", CORRECTED, EVENT, "--scoring", f)
    assert r.exit_code == 2 and words in r.stderr


# --- the report, checked again ---------------------------------------------------------------------

def test_recheck_stands_on_the_same_logs_and_catches_a_changed_log(tmp_path):
    r = run("tournament", "check", SHEET, EVENT, "--json")
    saved = tmp_path / "report.json"
    saved.write_text(r.stdout, encoding="utf-8")
    logs = tmp_path / "logs"
    shutil.copytree(EVENT, logs, ignore=shutil.ignore_patterns("*.csv", "*.py", "*.md"))
    same = run("tournament", "recheck", saved, logs)
    assert same.exit_code == 0 and "STILL STANDS" in same.stdout, same.output
    # round 1 table 1's log: its GameEnded claim changed and the log sealed again
    path = logs / "r1-t1.jsonl"
    envs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    ended = next(e for e in envs if e["type"] == "GameEnded")
    ended["payload"] = {**ended["payload"], "winner": "blue"}
    path.write_text("".join(format_line(e) + "\n" for e in seal(
        [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in envs])), encoding="utf-8")
    changed = run("tournament", "recheck", saved, logs)
    assert changed.exit_code == 1
    assert "round 1 table 1: the log" in changed.stdout and "changed: chain head" in changed.stdout
    assert "round 1 table 1: the result stood; now it does not" in changed.stdout
    # a log that is gone
    path.unlink()
    gone = run("tournament", "recheck", saved, logs, "--json")
    assert gone.exit_code == 1
    assert any("is not among the logs given" in d for d in json.loads(gone.stdout)["differences"])


def test_recheck_of_what_is_not_a_report_exits_2(tmp_path):
    for text, words in (("{", "not JSON"), ('{"a": 1}', "not a report")):
        f = tmp_path / "r.json"
        f.write_text(text, encoding="utf-8")
        r = run("tournament", "recheck", f, EVENT)
        assert r.exit_code == 2 and words in r.stderr


# --- the store -------------------------------------------------------------------------------------------

def test_logs_found_in_the_store_by_players(tmp_path):
    from ledger.store import open_store
    db = tmp_path / "event.duckdb"
    with open_store(db) as store:
        for name in ("r1-t1", "r1-t2", "r1-t3", "r2-t1", "r2-t2-resent"):
            store.ingest_reads([read_log(EVENT / f"{name}.jsonl")], tournament="spring")
    rows = list(csv.DictReader(CORRECTED.open(encoding="utf-8")))
    for r in rows:
        r["log"] = ""
    sheet = write_sheet(tmp_path / "s.csv", rows)
    code, report = report_of(sheet, "--db", db, "--tournament", "spring")
    assert code == 0, report["problems"]
    assert report["tables"][0]["log"]["stored"] == "spring-r1-t1"


# --- the page ----------------------------------------------------------------------------------------

def test_the_html_page_is_one_offline_file(tmp_path):
    out = tmp_path / "event.html"
    r = run("tournament", "check", SHEET, EVENT, "--html", out)
    assert r.exit_code == 1 and f"wrote {out}" in r.stderr
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page and "http://" not in page and "https://" not in page
    for words in ("Problems (3)", "Standings", "Left out of the standings (3)", "Round 2",
                  "does not stand", "r2-t2-resent.jsonl has this table"):
        assert words in page
    browser = os.environ.get("LEDGER_CHROMIUM") or shutil.which("chromium")
    if browser is None:
        pytest.skip("no headless Chromium to open the page in")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          "--window-size=390,2000", out.as_uri()], capture_output=True, text=True,
                         timeout=90)
    assert dom.returncode == 0 and dom.stdout.count('<td data-label="Result">') == 6


def test_check_event_from_code():
    report = check_event(read_sheet(CORRECTED), [EVENT])
    assert report.exit_code == 0 and len(report.tables) == 6 and report.standings[0].points == 2


def test_a_data_file_is_used_for_the_logs_of_the_game_that_takes_it(tmp_path):
    samples = ROOT / "sample_logs"
    rows = [{"round": "1", "table": "1", "players": "blue;orange;red;green", "winner": "blue",
             "log": str(samples / "var-basic-missions.jsonl")},
            {"round": "1", "table": "2", "players": "ann;bob;cat;dan", "winner": "bob",
             "log": str(samples / "legacy" / "game-01.jsonl")}]
    sheet = write_sheet(tmp_path / "s.csv", rows)
    code, report = report_of(sheet)
    assert code == 1 and errors_of(report) == [("1", "1", "rules")]
    assert "RE-MISSION-UNVERIFIED" in report["problems"][0]["message"]
    missions = ROOT / "engine" / "risk_europe" / "data" / "kingdom_missions.example.json"
    code, report = report_of(sheet, "--missions", missions)
    assert code == 0, report["problems"]
    assert "missions:" in report["tables"][0]["log"]["data"]


def test_players_at_two_tables_whose_logs_both_have_them_is_a_warning(fresh, tmp_path):
    folder, rows = fresh
    europe = [dict(r, round="1") for r in rows if r["ruleset"] == "risk-europe"]
    assert europe[0]["players"] == europe[1]["players"]          # the bots' colours, both games
    code, report = report_of(write_sheet(tmp_path / "s.csv", europe), folder / "game-301.jsonl",
                             folder / "game-304.jsonl")
    assert code == 0 and errors_of(report) == []
    assert [(p["table"], p["check"], p["severity"]) for p in report["problems"]] == [
        ("A", "player-twice", "warning"), ("B", "player-twice", "warning")]


def test_a_game_without_a_scoring_hook_scores_a_win_as_one(tmp_path):
    """A third ruleset (tests/toy_nim, no `scoring`) goes through the same check: a win is 1."""
    from tests.test_toy_ruleset import nim_log
    from tests.toy_nim import RULESET as NIM
    from engine.core.ruleset import registered
    with registered(NIM):
        good = nim_log(tmp_path / "n1.jsonl", "nim-1", [("ann", 3), ("bob", 1), ("ann", 3)], "ann")
        sheet = write_sheet(tmp_path / "s.csv", [
            {"round": "1", "table": "1", "players": "ann;bob", "winner": "ann", "log": good.name}])
        code, report = report_of(sheet)
        assert code == 0, report["problems"]
        assert [(s["player"], s["points"]) for s in report["standings"]] == [("ann", 1), ("bob", 0)]
        bad = write_sheet(tmp_path / "s.csv", [
            {"round": "1", "table": "1", "players": "ann;bob", "winner": "ann", "log": good.name,
             "crowns": "3"}])
        code, report = report_of(bad)
        assert errors_of(report) == [("1", "1", "scores")]
        assert "'crowns' is not a score of Nim" in report["problems"][0]["message"]
