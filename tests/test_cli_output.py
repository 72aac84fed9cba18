"""What `ledger` prints, as a new user reads it and a script parses it (#16): summaries whose
numbers agree with the lists under them, tables never cut when piped, CSV for scripts, counts
and nouns that agree, and messages about bad data files that name the file, the key and what is
wrong (never Python's own words)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil

import pytest
from typer.testing import CliRunner

from ledger import exitcodes
from ledger.cli import app
from tests.test_store_support import SAMPLES, game, write_game

runner = CliRunner()
GAME42 = SAMPLES / "game42.jsonl"


def run(*args, env: dict | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


# --- the ingest summary -------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    """Two good games, one with a line appended twice, and two files that are refused."""
    logs = tmp_path / "logs"
    logs.mkdir()
    write_game(logs / "a.jsonl", game("a"))
    write_game(logs / "b.jsonl", game("b"))
    (logs / "c.jsonl").write_text("".join(line + "\n" for line in _twice(game("c"))),
                                  encoding="utf-8")
    shutil.copy(SAMPLES / "broken-edited-line.jsonl", logs / "edited.jsonl")
    shutil.copy(SAMPLES / "broken-empty.jsonl", logs / "empty.jsonl")
    return logs


def _twice(envelopes):
    from replay.logfile import format_line
    lines = [format_line(e) for e in envelopes]
    return lines[:100] + [lines[99]] + lines[100:]        # line 101 repeats line 100 exactly


def _table(output: str) -> dict[str, int]:
    return {m[0]: int(m[1]) for m in re.findall(r"│ ([a-z ]+?) +│ +(\d+) │", output)}


def test_the_ingest_summary_agrees_with_itself_and_with_its_lists(folder, tmp_path):
    db = tmp_path / "s.duckdb"
    r = run("ingest", folder, "--db", db)
    assert r.exit_code == exitcodes.FINDINGS, r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"read 5 files into {db} in ")
    assert first.endswith("3 games stored (3 new, 0 extended, 0 already there), 2 files rejected, "
                          "1 line not stored; 585 events added"
                          + re.search(r" \([\d,]+ events/s\)$", first).group(0))
    counts = _table(r.output)
    assert counts == {"files read": 5, "games new": 3, "games extended": 0,
                      "games already there": 0, "games with findings": 0, "files rejected": 2,
                      "lines not stored": 1}
    listed = r.output.split("files rejected (2), kept in the rejects table:\n")[1]
    refused, lines = listed.split("lines not stored (1), kept in the rejects table:\n")
    assert [l for l in refused.splitlines() if l.startswith("  /")] == [
        l for l in refused.splitlines() if l.startswith(f"  {folder}")]
    assert len([l for l in refused.splitlines() if re.match(r"  \S", l)]) == 2
    assert len(lines.splitlines()) == 1 and "c.jsonl:101 (seq 99): LOG-SEQ-DUPLICATE" in lines
    # the same folder again: nothing added, and no rate
    again = run("ingest", folder, "--db", db)
    assert again.output.splitlines()[0].endswith(
        "3 games stored (0 new, 0 extended, 3 already there), 2 files rejected, 1 line not "
        "stored; no events added")
    assert "events/s" not in again.output


def test_a_rejected_file_alone_is_not_said_to_be_ingested(tmp_path):
    r = run("ingest", SAMPLES / "broken-empty.jsonl", "--db", tmp_path / "s.duckdb")
    assert r.exit_code == exitcodes.FINDINGS
    assert "read 1 file into" in r.output
    assert "no game stored, 1 file rejected; no events added" in r.output
    assert "ingested" not in r.output and "events/s" not in r.output


def test_ingest_json_counts_match_the_text(folder, tmp_path):
    report = json.loads(run("ingest", folder, "--db", tmp_path / "s.duckdb", "--json").output)
    assert {k: report[k] for k in ("files", "games_stored", "new", "extended", "already_present",
                                   "rejected", "rejected_lines")} == {
        "files": 5, "games_stored": 3, "new": 3, "extended": 0, "already_present": 0,
        "rejected": 2, "rejected_lines": 1}


def test_readme_says_ingest_of_the_samples_exits_1():
    readme = (SAMPLES.parent / "README.md").read_text("utf-8")
    assert "`ledger ingest sample_logs/` exits 1" in readme


# --- audit of a folder --------------------------------------------------------------------------


def test_an_audit_of_a_folder_ends_with_a_summary(tmp_path):
    for name in ("game42.jsonl", "broken-castle-no-siege.jsonl", "broken-edited-line.jsonl",
                 "broken-empty.jsonl"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    r = run("audit", tmp_path)
    assert r.exit_code == exitcodes.FINDINGS
    tail = r.output.split("\n\n")[-1].splitlines()
    assert tail[0] == ("audited 4 files: 3 games, 3 of 4 files with findings, 1 without; "
                       "4 findings by rule:")
    assert [line.split() for line in tail[1:]] == [["LOG-EMPTY", "1"], ["LOG-HASH", "1"],
                                                  ["RE-CLAIM", "1"], ["RE-EXPAND-CASTLE", "1"]]


def test_an_audit_of_one_file_has_no_summary():
    r = run("audit", GAME42)
    assert r.output.splitlines() == [f"{GAME42}: clean (195 events)"]


# --- tables piped, and CSV ----------------------------------------------------------------------


LONG_ID = "tournament-2026-round-3-table-12-game-with-a-long-identifier"


@pytest.fixture
def store(tmp_path):
    db = tmp_path / "s.duckdb"
    write_game(tmp_path / "long.jsonl", game(LONG_ID))
    assert run("ingest", tmp_path / "long.jsonl", GAME42, "--db", db).exit_code == 0
    return db


def test_games_piped_is_never_cut(store):
    r = run("games", "--db", store, env={"COLUMNS": "80"})
    lines = r.output.splitlines()
    assert lines[0].split() == ["game", "date", "players", "winner", "rounds", "events",
                                "findings"]
    assert any(line.startswith(LONG_ID + "  ") for line in lines), r.output
    assert "…" not in r.output


def test_games_as_csv(store):
    rows = list(csv.DictReader(io.StringIO(run("games", "--db", store, "--csv").output)))
    assert [(r["game"], r["winner"], r["events"], r["players"]) for r in rows] == [
        ("game42", "blue", "195", "blue, orange, red, green"),
        (LONG_ID, "blue", "195", "blue, orange, red, green")]


def test_stats_piped_is_never_cut_and_shows_every_row(store):
    # the store holds game42 twice (the second under a long id): a copy is counted only with
    # --include-broken (docs/analytics.md, "Which games are counted")
    r = run("stats", "--db", store, "--query", "luckiest_games", "--include-broken", env={"COLUMNS": "60"})
    assert r.exit_code == 0
    assert LONG_ID in r.output and "…" not in r.output
    assert "expected_wins" in r.output            # headers whole


def test_stats_as_csv_needs_one_query(store):
    r = run("stats", "--db", store, "--csv")
    assert r.exit_code == exitcodes.USAGE and "--csv writes one query" in r.output
    rows = list(csv.DictReader(io.StringIO(
        run("stats", "--db", store, "--csv", "--query", "win_rate_by_seat").output)))
    assert {r["seat"] for r in rows} == {"0", "1", "2", "3"}


# --- counts and nouns ---------------------------------------------------------------------------


def test_a_count_of_one_takes_the_singular():
    text = run("replay", GAME42).output
    assert not re.search(r"\b1 (crowns|coins|territories)\b", text)
    assert re.search(r": \d+ coins?, 1 crown, \d+ territor(y|ies) —", text)


def test_the_legacy_board_lines_agree_too():
    text = run("replay", SAMPLES / "legacy" / "game-01.jsonl").output
    assert not re.search(r"\b1 (Red Stars|missiles|cards|resources|territories|troops)\b", text)


# --- bad data files -----------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "content", "says"), [
    ("--cards", {"cards": {"tax-spend-1": ["tax", "spend"]}}, "cards: expected a list, found an object"),
    ("--cards", {"cards": [["tax", "spend"]]}, "cards[0]: expected an object with the key 'id', "
                                               "found a list of 2"),
    ("--cards", {"cards": [{"id": "x", "orders": ["tax"]}]}, "cards[0].orders: expected a list of 2 "
                                                             "order names, found a list of 1"),
    ("--cards", {"cards": []}, "the top level: the key 'supply_per_army' is missing"),
    ("--board", {"territories": [{"name": "A", "city": {"name": "B", "tax": "x"}}]},
     "territories[0].city.tax: expected a whole number, found 'x' (a string)"),
    ("--board", {"territories": [{"name": "A"}], "edges": [{"a": "A", "b": "Atlantis"}]},
     "edges[0].b: expected a territory on the board"),
    ("--missions", {"format": "other"}, "a mission file has \"format\""),
])
def test_a_bad_data_file_names_file_key_and_what_is_wrong(tmp_path, option, content, says):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(content))
    r = run("verify", GAME42, option, path)
    assert r.exit_code == exitcodes.UNREADABLE
    assert f"{option} {path}" in r.output and says in r.output, r.output
    assert "list indices" not in r.output and "Traceback" not in r.output


def test_a_data_file_that_is_not_json_says_where(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text('{"cards": [1,\n')
    r = run("verify", GAME42, "--cards", path)
    assert r.exit_code == exitcodes.UNREADABLE
    assert f"{path}: not valid JSON (Expecting value at line 2, col 1)" in r.output


def test_no_message_gives_pythons_advice_on_long_numbers(tmp_path):
    n = "9" * 5000
    (tmp_path / "big.json").write_text('{"cards": ' + n + "}")
    (tmp_path / "big.campaign.json").write_text('{"format": ' + n + "}")
    for args in (["verify", GAME42, "--cards", tmp_path / "big.json"],
                 ["campaign", "show", tmp_path / "big.campaign.json"],
                 ["odds", f"{n} footmen vs 1 archer"]):
        r = run(*args)
        assert r.exit_code == exitcodes.UNREADABLE, r.output
        assert "set_int_max_str_digits" not in r.output and "Traceback" not in r.output
        assert "digits" in r.output
