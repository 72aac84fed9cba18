"""What a new user found in `replay`, `verify` and `rules` (issue #16): a filter that names nothing
the game has is refused with what there is, an empty --winner is a usage error, verify says in
which round the game ended, and `rules` lists every registered ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.ruleset import registered
from ledger import exitcodes
from ledger.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
GAME42 = str(SAMPLES / "game42.jsonl")
LEGACY = str(SAMPLES / "legacy" / "game-01.jsonl")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def said(r) -> str:
    """The output with the console's line wrapping undone."""
    return " ".join(r.output.split())


@pytest.mark.parametrize("args,message", [
    (("--round", "99"), "game42.jsonl has no round 99: its rounds are 0-7 (0: before round 1)"),
    (("--turn", "3"), "game42.jsonl has no turn 3: its turns are 1-2"),
    (("--round", "0", "--turn", "1"), "round 0 of"),
    (("--player", "nobody"), "has no player 'nobody': its players are blue, orange, red, green"),
    (("--round", "6", "--player", "nobody"), "has no player 'nobody'"),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_replay_refuses_a_filter_the_game_does_not_have(args, message, as_json):
    r = run("replay", GAME42, *args, *(["--json"] if as_json else []))
    assert r.exit_code == exitcodes.NO_SUCH == 6, r.output
    assert message in said(r)
    assert "== Result ==" not in r.output and '"steps"' not in r.output


def test_replay_filters_the_game_has_still_work():
    assert run("replay", GAME42, "--round", "7", "--turn", "2").exit_code == 0
    assert run("replay", GAME42, "--round", "0").exit_code == 0          # the setup
    steps = json.loads(run("replay", GAME42, "--round", "6", "--player", "orange", "--json").output)["steps"]
    assert steps and {(s["round"], s["actor"]) for s in steps} == {(6, "orange")}
    r = run("replay", LEGACY, "--round", "99")
    assert r.exit_code == 6 and "its rounds are 0-" in said(r)


@pytest.mark.parametrize("winner", ["", " ", ",", "blue,", "none,blue"])
def test_verify_refuses_an_empty_or_mixed_winner_as_a_usage_error(winner):
    r = run("verify", GAME42, "--winner", winner)
    assert r.exit_code == exitcodes.USAGE == 2, r.output
    assert f"--winner {winner!r}" in said(r)
    assert "VERIFIED" not in r.output


def test_verify_winner_none_is_the_way_to_report_no_winner():
    r = run("verify", GAME42, "--winner", "none", "--json")
    v = json.loads(r.output)
    assert r.exit_code == 5 and v["declared_winner"] is None
    assert "declared no winner; the rules give blue" in [c for c in v["checks"] if c["name"] == "result"][0]["detail"]
    assert "none" in run("verify", "--help").output


@pytest.mark.parametrize("sample,text", [
    (GAME42, "[ok] result: declared blue; the rules give blue — the game ended in round 7 (crowns)"),
    (LEGACY, "the game ended in round "),
    (str(SAMPLES / "broken-truncated.jsonl"), "the game is not over by the rules (the log stops in round 4)"),
])
def test_verify_says_in_which_round_the_game_ended(sample, text):
    assert text in said(run("verify", sample))


def test_rules_lists_every_ruleset_under_its_title_and_narrows_to_one():
    r = run("rules")
    assert r.exit_code == 0
    europe = r.output.index("== Risk Europe (risk-europe ")
    legacy = r.output.index("== Risk Legacy (risk-legacy ")
    assert europe < r.output.index("RE-EXPAND-CASTLE") < legacy < r.output.index("RL-START-PLAYERS")
    only = run("rules", "--ruleset", "risk-legacy")
    assert "RL-START-PLAYERS" in only.output and "RE-" not in only.output and "Risk Europe" not in only.output
    rows = json.loads(run("rules", "--json").output)
    assert {x["ruleset"] for x in rows} == {"risk-europe", "risk-legacy", "warrior-knights"}
    assert all(x["title"] and x["id"] and x["section"] and x["text"] for x in rows)
    narrowed = json.loads(run("rules", "--ruleset", "risk-europe", "--json").output)
    assert narrowed == [x for x in rows if x["ruleset"] == "risk-europe"]
    bad = run("rules", "--ruleset", "nope")
    assert bad.exit_code == 2 and "the rulesets are risk-europe, risk-legacy, warrior-knights" in said(bad)
    help_ = said(run("rules", "--help"))
    assert "--ruleset" in help_ and "Only this ruleset's rules" in help_ and "Example: ledger rules" in help_


def test_rules_lists_a_ruleset_registered_from_elsewhere():
    from tests.toy_nim import RULESET
    with registered(RULESET):
        out = run("rules").output
    assert "== Nim (a test ruleset) (toy-nim 0.0.1): 3 rules ==" in out and "NIM-TAKE" in out
