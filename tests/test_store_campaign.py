"""Risk Legacy campaigns in the store: each stored game that names a campaign is linked to the
stored game before it. A new user creates a campaign, ingests five game logs in order, replays
any game from the world it started in, and the store catches a game that starts from the wrong
world (RL-CAMPAIGN-WORLD), a second game with a taken number and a game waiting for the one
before it (RL-CAMPAIGN-ORDER), and a first game on a box not customized as the rulebook says
(RL-CUSTOMIZE)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from ledger import exitcodes
from engine.risk_legacy.campaign import CampaignGame, first_world_findings, link_campaign, setup_of
from ledger.campaign import load_campaign, stored_campaign
from ledger.cli import app
from ledger.ingest import in_campaign_order, ingest_paths
from replay.logfile import read_log
from ledger.store import load_log_from_store, open_store
from replay.judge import judge

LEGACY = Path(__file__).resolve().parent.parent / "sample_logs" / "legacy"
GAMES = [LEGACY / f"game-0{n}.jsonl" for n in range(1, 6)]
WRONG_WORLD = LEGACY / "broken-wrong-world.jsonl"        # game 6, ignoring game 2's scars
RECRUIT = LEGACY / "broken-recruit-count.jsonl"          # another game 2, with a finding of its own
FILE = load_campaign(LEGACY / "earth.campaign.json")     # the same campaign, as a file
DATA = default_data()
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def links(store) -> dict[str, tuple[int, str, int | None, list[str]]]:
    """game -> (number, status, waiting for, campaign finding rules)."""
    return {g.game_id: (g.game_no, g.status, g.waiting_for,
                        [f.rule for f in store.campaign_findings(g.game_id)])
            for g in store.campaign_games("earth")}


@pytest.fixture(scope="module")
def five_db(tmp_path_factory) -> Path:
    """A store holding the five sample games, ingested in order (copied by the tests that write)."""
    path = tmp_path_factory.mktemp("five") / "five.duckdb"
    with open_store(path) as store:
        ingest_paths(store, GAMES)
    return path


@pytest.fixture
def db(five_db, tmp_path) -> Path:
    copy = tmp_path / "store.duckdb"
    shutil.copy(five_db, copy)
    return copy


# --- ingest links each game to the one before it ------------------------------------------------

def test_five_games_in_order_link_without_findings(five_db):
    with open_store(five_db, read_only=True) as store:
        assert links(store) == {f"earth-0{n}": (n, "fits", None, []) for n in range(1, 6)}
        rows = store.campaign_games("earth")
        assert [r.world_before for r in rows[1:]] == [r.world_after for r in rows[:-1]]
        # the worlds each game starts from and leaves are the ones the campaign file records
        assert [(r.world_before, r.world_after) for r in rows] == \
            [(g["world_before"], g["world_after"]) for g in FILE.games]
        assert [c.name for c in store.campaigns()] == ["earth"]
        assert store.check().ok


def test_the_outcome_of_an_ingest_tells_the_campaign_link(tmp_path):
    with open_store(tmp_path / "s.duckdb") as store:
        [outcome] = ingest_paths(store, GAMES[:1]).outcomes
    assert outcome.campaign == {"name": "earth", "game": 1, "status": "fits", "waiting_for": None,
                                "findings": []}
    assert outcome.as_dict()["campaign"]["status"] == "fits"


def test_RL_CAMPAIGN_ORDER_games_in_reverse_order_wait_then_fit(tmp_path):
    """Never lose data: a game before its predecessor is stored, waiting; checked on its arrival."""
    with open_store(tmp_path / "s.duckdb") as store:
        for n in (5, 4, 3, 2):
            [outcome] = ingest_paths(store, [GAMES[n - 1]]).outcomes
            assert outcome.status == "new" and outcome.findings == 1
            assert outcome.campaign["status"] == "waiting" and outcome.campaign["waiting_for"] == n - 1
            [finding] = store.campaign_findings(f"earth-0{n}")
            assert finding.rule == "RL-CAMPAIGN-ORDER" and f"waiting for game {n - 1}" in finding.message
            if n < 5:    # its successor was waiting for it: checked again now, and it fits
                assert [(c["game_id"], c["status_before"], c["status"]) for c in outcome.relinked] \
                    == [(f"earth-0{n + 1}", "waiting", "fits")]
        [outcome] = ingest_paths(store, [GAMES[0]]).outcomes
        assert outcome.campaign["status"] == "fits" and outcome.findings == 0
        assert links(store) == {f"earth-0{n}": (n, "fits", None, []) for n in range(1, 6)}
        assert store.check().ok


def test_RL_CAMPAIGN_ORDER_an_unfinished_game_keeps_the_next_one_waiting(tmp_path):
    lines = GAMES[1].read_text("utf-8").splitlines(keepends=True)
    partial = tmp_path / "game-02.jsonl"
    partial.write_text("".join(lines[:120]), encoding="utf-8")      # a chain's prefix is intact
    with open_store(tmp_path / "s.duckdb") as store:
        ingest_paths(store, [GAMES[0], partial, GAMES[2]])
        assert links(store)["earth-03"][1:3] == ("waiting", 2)
        assert "(earth-02) to end" in store.campaign_findings("earth-03")[0].message
        [outcome] = ingest_paths(store, [GAMES[1]]).outcomes         # the whole game 2
        assert outcome.status == "extended"
        assert [c["game_id"] for c in outcome.relinked] == ["earth-03"]
        assert links(store)["earth-03"] == (3, "fits", None, [])


def test_a_campaigns_games_are_ingested_in_game_order_whatever_their_names(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for n, name in zip(range(1, 6), "edcba"):                        # e.jsonl is game 1
        shutil.copy(GAMES[n - 1], folder / f"{name}.jsonl")
    shutil.copy(Path(__file__).resolve().parent.parent / "sample_logs" / "game42.jsonl",
                folder / "c0.jsonl")
    ordered = in_campaign_order(sorted(folder.glob("*.jsonl")))
    assert [p.name for p in ordered] == ["e.jsonl", "d.jsonl", "c.jsonl", "c0.jsonl", "b.jsonl",
                                         "a.jsonl"]
    with open_store(tmp_path / "s.duckdb") as store:
        report = ingest_paths(store, [folder])
    assert [o.game_id for o in report.outcomes] == \
        ["earth-01", "earth-02", "earth-03", "game42", "earth-04", "earth-05"]
    assert all(o.findings == 0 for o in report.outcomes)


# --- a game from the wrong world ----------------------------------------------------------------

def test_RL_CAMPAIGN_WORLD_a_game_that_ignores_the_scars_of_an_earlier_game_is_flagged(db):
    with open_store(db) as store:
        [outcome] = ingest_paths(store, [WRONG_WORLD]).outcomes
        assert outcome.status == "new" and outcome.findings == 1
        assert store.game("earth-06-wrong-world").finding_count == 0     # legal in itself
        [finding] = store.campaign_findings("earth-06-wrong-world")
    assert outcome.campaign["status"] == "wrong-world"
    assert finding.rule == "RL-CAMPAIGN-WORLD" and finding.seq == 0 and finding.kind == "claim"
    assert "not from the world game 5 (earth-05) left" in finding.message
    assert "scar in Central America: ammo shortage in the campaign, none in the game" in finding.message
    assert "scar in Egypt: bunker in the campaign, none in the game" in finding.message

    r = run("audit", "earth-06-wrong-world", "--db", str(db))
    assert r.exit_code == exitcodes.FINDINGS
    assert "earth-06-wrong-world:1 (seq 0): RL-CAMPAIGN-WORLD" in r.output
    assert "scar in Central America" in r.output
    r = run("verify", "earth-06-wrong-world", "--db", str(db), "--json")
    assert r.exit_code == exitcodes.FINDINGS                          # a rule error, like verify's
    assert [f["rule"] for f in json.loads(r.output)["findings"]] == ["RL-CAMPAIGN-WORLD"]
    assert run("verify", "earth-05", "--db", str(db)).exit_code == exitcodes.OK
    r = run("replay", "earth-06-wrong-world", "--db", str(db))
    assert r.exit_code == exitcodes.FINDINGS and "!! WRONG CLAIM RL-CAMPAIGN-WORLD" in r.output
    listed = {g["game"]: g for g in json.loads(run("games", "--db", str(db), "--json").output)}
    assert listed["earth-06-wrong-world"]["findings"] == 1
    assert listed["earth-06-wrong-world"]["campaign"] == {
        "name": "earth", "number": 6, "status": "wrong-world", "waiting_for": None, "findings": 1}
    assert listed["earth-03"]["campaign"]["status"] == "fits"
    r = run("games", "--db", str(db))
    assert "earth #6 (wrong-world)" in r.output
    assert re.search(r"^earth-03 .* earth #3$", r.output, re.M), r.output


def test_the_store_flags_the_wrong_world_whatever_the_order(tmp_path):
    """The wrong-world game 6 stored before games 2-5: waiting, then flagged when game 5 comes."""
    with open_store(tmp_path / "s.duckdb") as store:
        ingest_paths(store, [GAMES[0]])
        ingest_paths(store, [WRONG_WORLD])
        assert links(store)["earth-06-wrong-world"][1:] == ("waiting", 5, ["RL-CAMPAIGN-ORDER"])
        [*_, last] = ingest_paths(store, GAMES[1:]).outcomes
        assert [(c["game_id"], c["status"]) for c in last.relinked] == \
            [("earth-06-wrong-world", "wrong-world")]
        assert links(store)["earth-06-wrong-world"][1:] == ("wrong-world", None, ["RL-CAMPAIGN-WORLD"])


# --- duplicates ---------------------------------------------------------------------------------

def test_RL_CAMPAIGN_ORDER_a_second_game_with_a_taken_number_is_a_duplicate(db):
    with open_store(db) as store:
        [outcome] = ingest_paths(store, [RECRUIT]).outcomes
        assert outcome.campaign["status"] == "duplicate"
        assert outcome.findings == 2                                   # RL-RECRUIT-COUNT + this
        [finding] = store.campaign_findings("earth-02-recruit-count")
        assert finding.rule == "RL-CAMPAIGN-ORDER"
        assert finding.message.startswith("game 2 of 'earth' is earth-02; this is another game 2")
        assert links(store)["earth-02"] == (2, "fits", None, [])
        assert links(store)["earth-03"] == (3, "fits", None, [])
        assert outcome.relinked == []                                  # nothing else moved


def test_RL_CAMPAIGN_ORDER_the_game_that_fits_counts_whichever_came_first(tmp_path):
    """A game 2 with a finding of its own stored first, then the clean game 2: the clean one is
    the campaign's game 2 and the first becomes the duplicate."""
    with open_store(tmp_path / "s.duckdb") as store:
        ingest_paths(store, [GAMES[0], RECRUIT])
        assert links(store)["earth-02-recruit-count"][1] == "fits"
        [outcome] = ingest_paths(store, [GAMES[1]]).outcomes
        assert outcome.campaign["status"] == "fits"
        assert [(c["game_id"], c["status"]) for c in outcome.relinked] == \
            [("earth-02-recruit-count", "duplicate")]
        assert stored_campaign(store, "earth").campaign.games[1]["game_id"] == "earth-02"


# --- idempotence, recheck, integrity --------------------------------------------------------------

def test_reingesting_is_a_no_op_and_keeps_the_links(db):
    with open_store(db) as store:
        before = links(store)
        report = ingest_paths(store, GAMES)
        assert [o.status for o in report.outcomes] == ["present"] * 5
        assert all(o.relinked == [] for o in report.outcomes)
        assert links(store) == before


def test_recheck_links_every_campaign_again(db):
    with open_store(db) as store:
        ingest_paths(store, [WRONG_WORLD])
        assert store.recheck() == []                                   # nothing changed
        # a store made before campaigns were kept: recheck links its games
        store._con.execute("DELETE FROM campaign_findings")
        store._con.execute("DELETE FROM campaign_games")
        changes = store.recheck()
        assert [(c.game_id, c.findings_before, c.findings_after) for c in changes] == \
            [("earth-06-wrong-world", 0, 1)]
        assert links(store)["earth-06-wrong-world"][1:] == ("wrong-world", None, ["RL-CAMPAIGN-WORLD"])
        assert links(store)["earth-05"] == (5, "fits", None, [])
        assert store.check().ok
    r = run("recheck", "--db", str(db))
    assert r.exit_code == 0 and "none changed" in r.output


def test_check_db_counts_campaign_findings(db):
    with open_store(db) as store:
        ingest_paths(store, [WRONG_WORLD])
        store._con.execute("DELETE FROM campaign_findings")
        [problem] = store.check().problems
    assert "earth-06-wrong-world" in problem and "campaign findings" in problem


# --- the first game ----------------------------------------------------------------------------

def _world0() -> dict:
    return read_log(GAMES[0]).events[0].payload["world"]


def test_RL_CAMPAIGN_WORLD_game_1_starts_from_the_customized_box():
    assert first_world_findings("g", "earth", _world0(), DATA) == []
    scarred = W.world_to_dict(W.with_marks(W.world_from_dict(_world0()), "egypt", scar="bunker"))
    [finding] = first_world_findings("g", "earth", scarred, DATA)
    assert finding.rule == "RL-CAMPAIGN-WORLD"
    assert "not from the box customized before the first game" in finding.message
    assert "scar in Egypt: none in the campaign, bunker in the game" in finding.message


def test_RL_CUSTOMIZE_game_1_on_a_box_with_too_many_stickers_on_one_card():
    world = _world0()
    over = dict(world, resources=dict(world["resources"], A1=4))
    rules = [f.rule for f in first_world_findings("g", "earth", over, DATA)]
    assert "RL-CUSTOMIZE" in rules
    assert setup_of(W.world_from_dict(world))["stickers"]["A12"] == 2


def test_campaign_new_in_the_store_fixes_the_world_game_1_must_start_from(tmp_path):
    db = tmp_path / "s.duckdb"
    r = run("campaign", "new", "earth", "--seed", "3", "--db", str(db))
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "earth.campaign.json").exists()
    with open_store(db) as store:
        ingest_paths(store, [GAMES[0]])                                # the samples' other world
        [finding] = store.campaign_findings("earth-01")
        assert finding.rule == "RL-CAMPAIGN-WORLD" and "the campaign's first world" in finding.message
    assert run("campaign", "new", "earth", "--db", str(db)).exit_code == exitcodes.USAGE
    with open_store(tmp_path / "t.duckdb") as store:                   # the samples' own world
        store.create_campaign("earth", "risk-legacy", _world0(),
                              W.world_digest(W.world_from_dict(_world0())),
                              setup_of(W.world_from_dict(_world0())))
        ingest_paths(store, [GAMES[0]])
        assert links(store)["earth-01"] == (1, "fits", None, [])


def test_link_campaign_is_a_function_of_what_is_stored():
    """Pure: the same games give the same links, in any order."""
    def game(gid, n, start, end, stored):
        return CampaignGame(gid, "c", n, start, end, None, _world0() if end else None, 0,
                            (0, stored, gid))
    w1 = W.world_digest(W.world_from_dict(_world0()))
    games = [game("b", 2, "x", "y", "2"), game("a", 1, w1, "x", "1"), game("c", 3, "z", None, "3")]
    got = link_campaign("c", games, _world0(), DATA)
    assert [(link.status, link.waiting_for) for link in got] == \
        [("fits", None), ("fits", None), ("wrong-world", None)]
    again = link_campaign("c", games[::-1], _world0(), DATA)
    assert [link.status for link in again] == ["wrong-world", "fits", "fits"]


# --- replay, show, audit, next -----------------------------------------------------------------

def test_a_stored_game_replays_from_the_world_it_started_in(five_db):
    with open_store(five_db, read_only=True) as store:
        rows = {r.game_id: r for r in store.campaign_games("earth")}
        j = judge(load_log_from_store(store, "earth-04"))
    assert j.final_state.world_start == rows["earth-04"].world_before == rows["earth-03"].world_after
    assert W.world_digest(j.final_state.world) == rows["earth-04"].world_after
    assert W.marks(j.final_state.world, "central_america").scar == "ammo_shortage"   # placed in game 2
    r = run("replay", "earth-03", "--db", str(five_db))
    assert r.exit_code == 0 and "cat wins" in r.output


def test_cli_campaign_show_from_the_store(five_db):
    r = run("campaign", "show", "earth", "--db", str(five_db))
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Campaign 'earth' (Risk Legacy): 5 games played")
    assert "Game 4 (earth-04, 318 events): cat (Khan Industries) won" in r.output
    assert "ammo shortage scar placed in Central America" in r.output and "The world now" in r.output
    assert "Next: game 6" in r.output
    shown = json.loads(run("campaign", "show", "earth", "--db", str(five_db), "--json").output)
    told = json.loads(run("campaign", "show", str(LEGACY / "earth.campaign.json"), "--json").output)
    assert shown["games_played"] == 5 and shown["world_digest"] == told["world_digest"]
    assert [g["changes"] for g in shown["games"]] == [g["changes"] for g in told["games"]]
    assert [g["status"] for g in shown["stored_games"]] == ["fits"] * 5
    r = run("campaign", "show", "mars", "--db", str(five_db))
    assert r.exit_code == exitcodes.UNREADABLE and "no campaign 'mars'" in r.output


def test_cli_campaign_show_tells_the_games_not_in_the_history(db):
    with open_store(db) as store:
        ingest_paths(store, [WRONG_WORLD, RECRUIT])
    out = run("campaign", "show", "earth", "--db", str(db)).output
    # a wrong-world game is stored and shown, but never in the history, and the world stays
    # the one game 5 left (#16: it used to be folded in)
    assert "Game 6 (earth-06-wrong-world" not in out and "5 games played" in out
    assert "game 6: earth-06-wrong-world (it does not start from the world the game before it left)" in out
    assert "! RL-CAMPAIGN-WORLD" in out and "Next: game 6" in out
    assert "game 2: earth-02-recruit-count (a duplicate)" in out


def test_RL_CAMPAIGN_WORLD_a_wrong_world_game_never_advances_the_stored_world(db):
    """#16: after a wrong-world game 6 the next game starts from game 5's world (with game 2's
    scars), and a game 7 that starts from the wrong game's world is not counted either."""
    with open_store(db) as store:
        ingest_paths(store, [WRONG_WORLD])
    five = json.loads(run("campaign", "show", "earth", "--db", str(db), "--json").output)
    assert five["games_played"] == 5 and five["next_game"] == 6
    assert five["world_digest"] == FILE.games[-1]["world_after"]
    scars = {t: x["scar"] for t, x in five["world"]["territories"].items() if "scar" in x}
    assert scars["central_america"] == "ammo_shortage" and scars["egypt"] == "bunker"   # game 2's
    nxt = json.loads(run("campaign", "next", "earth", "--db", str(db), "--players", "ann,bob").output)
    assert nxt["payload"]["campaign"]["game"] == 6
    assert nxt["payload"]["campaign"]["world"] == FILE.games[-1]["world_after"]


def test_cli_campaign_audit_and_next_from_the_store(five_db):
    r = run("campaign", "audit", "earth", "--db", str(five_db))
    assert r.exit_code == 0 and r.output.count(": clean") == 5
    r = run("campaign", "audit", "earth", str(WRONG_WORLD), "--db", str(five_db), "--json")
    assert r.exit_code == exitcodes.FINDINGS
    games = json.loads(r.output)["games"]
    assert [g["game"] for g in games] == [1, 2, 3, 4, 5, 6]
    assert [f["rule"] for f in games[-1]["findings"]] == ["RL-CAMPAIGN-WORLD"]
    r = run("campaign", "next", "earth", "--db", str(five_db), "--players", "ann,bob,cat")
    first = json.loads(r.output)
    assert first["game"] == "earth-06" and first["payload"]["campaign"]["game"] == 6
    assert first["payload"]["campaign"]["world"] == FILE.games[-1]["world_after"]


def test_cli_campaign_files_still_work_with_a_store_about(five_db):
    """A campaign file named on the command line is read as a file, --db or not."""
    r = run("campaign", "show", str(LEGACY / "earth.campaign.json"), "--db", str(five_db))
    assert r.exit_code == 0 and "from the store" not in r.output


def test_cli_ingest_lists_campaign_findings_and_games_checked_again(tmp_path):
    db = str(tmp_path / "s.duckdb")
    r = run("ingest", str(GAMES[1]), "--db", db)
    assert r.exit_code == 0                                            # stored, waiting
    assert "earth-02 (game 2 of 'earth'): RL-CAMPAIGN-ORDER: waiting for game 1" in r.output
    r = run("ingest", str(GAMES[0]), "--db", db, "--json")
    [outcome] = json.loads(r.output)["outcomes"]
    assert outcome["campaign"]["status"] == "fits"
    assert [(c["game_id"], c["status_before"], c["status"]) for c in outcome["relinked"]] == \
        [("earth-02", "waiting", "fits")]
    r = run("ingest", str(GAMES[2]), str(WRONG_WORLD), "--db", db)
    assert "earth-06-wrong-world (game 6 of 'earth'): RL-CAMPAIGN-ORDER: waiting for game 5" in r.output
    r = run("ingest", str(GAMES[3]), str(GAMES[4]), "--db", db)
    assert "stored games checked again against their campaign:" in r.output
    assert "earth-06-wrong-world (game 6 of 'earth'): was waiting, wrong-world: RL-CAMPAIGN-WORLD" \
        in r.output


def test_events_appended_through_the_api_are_linked_too(tmp_path):
    envelopes = [json.loads(line) for line in GAMES[1].read_text("utf-8").splitlines()]
    with open_store(tmp_path / "s.duckdb") as store:
        ingest_paths(store, [GAMES[0]])
        store.append("earth-02", 0, envelopes[:100])
        assert links(store)["earth-02"] == (2, "fits", None, [])
        ingest_paths(store, [GAMES[2]])
        assert links(store)["earth-03"][1:3] == ("waiting", 2)        # game 2 is not over yet
        store.append("earth-02", 100, envelopes[100:])
        assert links(store)["earth-03"] == (3, "fits", None, [])


def test_a_new_user_ingests_the_samples_and_audit_catches_each_broken_game(tmp_path):
    """Issue #7's walk-through on the sample folder: the five games link cleanly, and `ledger
    audit` names the wrong world, the wrong recruit count and the late Missile."""
    db = str(tmp_path / "s.duckdb")
    r = run("ingest", str(LEGACY), "--db", db)
    assert r.exit_code == exitcodes.FINDINGS                           # broken-edited-die refused
    assert run("campaign", "audit", "earth", "--db", db).exit_code == exitcodes.FINDINGS
    for game in ("earth-01", "earth-02", "earth-03", "earth-04", "earth-05"):
        assert run("verify", game, "--db", db).exit_code == exitcodes.OK, game
    for game, rule in (("earth-06-wrong-world", "RL-CAMPAIGN-WORLD"),
                       ("earth-02-recruit-count", "RL-RECRUIT-COUNT"),
                       ("earth-03-late-missile", "RL-MISSILE-TIMING")):
        r = run("audit", game, "--db", db)
        assert r.exit_code == exitcodes.FINDINGS and f": {rule}: " in r.output, (game, r.output)
    shown = json.loads(run("campaign", "show", "earth", "--db", db, "--json").output)
    # the wrong-world game 6 is stored and listed, never counted in the history (#16)
    assert [g["game_id"] for g in shown["games"]] == \
        ["earth-01", "earth-02", "earth-03", "earth-04", "earth-05"]
    assert {g["game_id"]: g["status"] for g in shown["stored_games"]}["earth-06-wrong-world"] == "wrong-world"


def test_auditing_a_file_against_the_store_checks_its_campaign(db, tmp_path):
    wrong = str(LEGACY / "broken-wrong-world.jsonl")
    alone = run("audit", wrong)
    assert alone.exit_code == exitcodes.OK              # on its own the game is legal
    r = run("audit", wrong, "--db", str(db))
    assert r.exit_code == exitcodes.FINDINGS
    assert "RL-CAMPAIGN-WORLD" in r.stdout and "Central America" in r.stdout
    assert run("verify", wrong, "--db", str(db)).exit_code == exitcodes.FINDINGS
    # the file of a game the store holds: its own (clean) campaign link, not "another game 3"
    same = run("audit", str(GAMES[2]), "--db", str(db))
    assert same.exit_code == exitcodes.OK, same.stdout
    # a store that keeps no such campaign: the game stands alone
    with open_store(tmp_path / "other.duckdb"):
        pass
    assert run("audit", wrong, "--db", str(tmp_path / "other.duckdb")).exit_code == exitcodes.OK


def test_a_folder_named_like_the_campaign_never_shadows_the_stored_one(five_db, tmp_path, monkeypatch):
    """#16: `campaign show|audit|next NAME --db DB` read a folder NAME in the working directory
    as a campaign file ("earth: not a campaign file (Is a directory)")."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "earth").mkdir()
    (tmp_path / "earth.campaign.json").mkdir()       # even a folder with the file's name
    r = run("campaign", "show", "earth", "--db", str(five_db))
    assert r.exit_code == 0 and "5 games played" in r.output, r.output
    r = run("campaign", "audit", "earth", "--db", str(five_db))
    assert r.exit_code == 0 and r.output.count(": clean") == 5, r.output
    r = run("campaign", "next", "earth", "--db", str(five_db), "--players", "ann,bob")
    assert r.exit_code == 0 and json.loads(r.output)["payload"]["campaign"]["game"] == 6
    # without --db a folder is named as what it is
    r = run("campaign", "show", "earth")
    assert r.exit_code == exitcodes.UNREADABLE and "is a directory" in r.output, r.output


def test_a_wrong_world_game_never_advances_a_campaign_file_audit(tmp_path):
    """#16's sibling in the file audit: a game recorded as game 6 that starts from the wrong world
    is a finding, and the world the audit carries on with stays the one game 5 left (so the file's
    world, game 5's, is the world its games leave: no second finding)."""
    doc = json.loads((LEGACY / "earth.campaign.json").read_text("utf-8"))
    for g in doc["games"]:
        g["log"] = str(LEGACY / g["log"])
    doc["games"].append({**doc["games"][-1], "game": 6, "log": str(WRONG_WORLD),
                         "head": read_log(WRONG_WORLD).events[-1].hash})
    path = tmp_path / "earth.campaign.json"
    path.write_text(json.dumps(doc), "utf-8")
    r = run("campaign", "audit", str(path), "--json")
    assert r.exit_code == exitcodes.FINDINGS
    games = json.loads(r.output)["games"]
    assert [f["rule"] for f in games[-1]["findings"]] == ["RL-CAMPAIGN-WORLD"]
    assert "Central America" in games[-1]["findings"][0]["message"]
