"""The command line as a user meets it: exit codes, messages naming file and line, JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
GAME42 = str(SAMPLES / "game42.jsonl")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_verify_game42_is_verified():
    r = run("verify", GAME42)
    assert r.exit_code == 0, r.output
    assert "VERIFIED" in r.output and "NOT VERIFIED" not in r.output


def test_verify_with_a_wrong_reported_winner_exits_5():
    r = run("verify", GAME42, "--winner", "red")
    assert r.exit_code == 5
    assert "declared red; the rules give blue" in r.output


@pytest.mark.parametrize("name,code", [
    ("broken-castle-no-siege.jsonl", 1),
    ("broken-maneuver-three.jsonl", 1),
    ("broken-card-twice.jsonl", 1),
    ("broken-die-resealed.jsonl", 1),
    ("broken-truncated.jsonl", 3),
    ("broken-malformed-line.jsonl", 3),
    ("broken-unknown-event.jsonl", 3),
    ("broken-not-a-log.jsonl", 3),
    ("broken-empty.jsonl", 3),
    ("broken-edited-line.jsonl", 4),
    ("broken-die-edited.jsonl", 4),
    ("broken-deleted-line.jsonl", 4),
    ("broken-duplicate-line.jsonl", 4),
    ("broken-wrong-winner.jsonl", 5),
])
def test_verify_exit_code_names_the_kind_of_problem(name, code):
    r = run("verify", str(SAMPLES / name))
    assert r.exit_code == code, r.output
    assert "NOT VERIFIED" in r.output


def test_verify_unreadable_file_exits_2(tmp_path):
    r = run("verify", str(tmp_path / "missing.jsonl"))
    assert r.exit_code == 2
    assert "missing.jsonl" in r.output


def test_verify_json_is_machine_readable():
    r = run("verify", GAME42, "--json")
    v = json.loads(r.output)
    assert v["verified"] is True and v["exit_code"] == 0
    assert v["result"]["winners"] == ["blue"]
    assert v["ruleset"] == "risk-europe" and v["data"].startswith("board:")


def test_audit_reports_every_file_and_line():
    files = [str(SAMPLES / "broken-castle-no-siege.jsonl"), str(SAMPLES / "broken-edited-line.jsonl"), GAME42]
    r = run("audit", *files)
    assert r.exit_code == 1
    assert "broken-castle-no-siege.jsonl:149 (seq 148): RE-EXPAND-CASTLE" in r.output
    assert "broken-edited-line.jsonl:71 (seq 70): LOG-HASH" in r.output
    assert "game42.jsonl: clean" in r.output


def test_audit_clean_exits_0_and_unreadable_exits_2(tmp_path):
    assert run("audit", GAME42).exit_code == 0
    r = run("audit", GAME42, str(tmp_path))
    assert r.exit_code == 2


def test_audit_strict_stops_at_the_first_finding():
    r = run("audit", "--strict", "--json", str(SAMPLES / "broken-die-resealed.jsonl"))
    report = json.loads(r.output)
    assert r.exit_code == 1
    assert [f["rule"] for f in report["findings"]] == ["RE-CASUALTIES"]


def test_replay_narrows_to_a_round_and_turn_with_board_before_and_after():
    r = run("replay", GAME42, "--round", "6", "--turn", "1")
    assert r.exit_code == 0
    out = r.output
    assert "board before:" in out and "board after:" in out
    assert "orange EXPAND 2S 2A 8F Rusland → Poland" in out
    assert "Round 5" not in out
    assert "blue wins at the end of round 7" in out


def test_replay_shows_battles_rank_by_rank_with_dice():
    r = run("replay", GAME42, "--round", "6")
    assert "Rank 1 siege attack in Poland (cycle 1): orange [1, 2, 3, 5] → 2 hits" in r.output
    assert "Castle defense: blue re-rolls [1, 2, 3, 4, 4, 2] → [3, 4, 5, 5, 5, 6]" in r.output


def test_replay_json_has_a_digest_per_event_and_is_deterministic():
    a = json.loads(run("replay", GAME42, "--json").output)
    b = json.loads(run("replay", GAME42, "--json").output)
    digests = [s["digest"] for s in a["steps"]]
    assert len(digests) == 194 and all(len(d) == 64 for d in digests)
    assert digests == [s["digest"] for s in b["steps"]]
    assert len(set(digests)) > 150


def test_replay_player_filter():
    r = run("replay", GAME42, "--player", "green", "--json")
    steps = json.loads(r.output)["steps"]
    assert steps and {s["actor"] for s in steps} == {"green"}


def test_schema_lists_every_event_type():
    from engine.risk_europe.events import PAYLOADS
    r = run("schema")
    schema = json.loads(r.output)
    titles = {v.get("title") for v in schema["$defs"].values()} | {
        v.get("title") for v in schema.get("anyOf", []) + schema.get("oneOf", [])}
    for t in PAYLOADS:
        assert t in titles, t


def test_seal_makes_a_hand_written_log_verifiable(tmp_path):
    lines = (SAMPLES / "game42.jsonl").read_text("utf-8").splitlines()
    unsealed = []
    for line in lines:
        env = json.loads(line)
        env.pop("prev"), env.pop("hash")
        unsealed.append(json.dumps(env))
    path = tmp_path / "hand.jsonl"
    path.write_text("\n".join(unsealed) + "\n")
    assert run("verify", str(path)).exit_code == 4
    r = run("seal", str(path))
    assert r.exit_code == 0, r.output
    assert run("verify", str(path)).exit_code == 0


def test_rules_lists_ids_and_sections():
    r = run("rules", "--json")
    rows = json.loads(r.output)
    ids = {x["id"] for x in rows}
    assert {"RE-EXPAND-CASTLE", "RE-MANEUVER-PATH", "RE-CARDS-HAND"} <= ids
    assert all(x["section"] for x in rows)


@pytest.mark.parametrize("command", ["replay", "audit", "verify", "schema", "seal", "rules"])
def test_every_command_has_help_with_an_example(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert "Example: ledger" in r.output


@pytest.mark.parametrize("sample,dice_ok", [
    ("legacy/broken-edited-die.jsonl", False),      # Risk Legacy: RL-DICE-SEED at line 34
    ("broken-chance-draw.jsonl", False),            # Risk Europe: RE-DICE-SEED
    ("legacy/game-01.jsonl", True),
    ("game42.jsonl", None),                          # dice rolled at the table: no dice line
])
def test_verify_dice_line_agrees_with_the_seed_findings_of_every_ruleset(sample, dice_ok):
    r = run("verify", str(SAMPLES / sample), "--json")
    out = json.loads(r.output)
    dice = [c for c in out["checks"] if c["name"] == "dice"]
    seed_findings = [f for f in out["findings"] if f["rule"].endswith("-DICE-SEED")]
    if dice_ok is None:
        assert dice == []
        return
    assert dice[0]["ok"] is dice_ok, dice
    assert bool(seed_findings) is (not dice_ok)
    if not dice_ok:
        assert dice[0]["detail"].startswith(f"{len(seed_findings)} die/dice differ")


def test_data_options_come_from_the_rulesets_and_fit_only_their_game(tmp_path):
    """--board/--cards/--missions are Risk Europe's declared data options: offered by the CLI,
    used on its logs, refused on another game's log, and a broken file is a clear exit 2."""
    board = Path(__file__).resolve().parent.parent / "engine" / "risk_europe" / "data" / "board.json"
    assert "--board" in run("verify", "--help").output
    assert run("verify", GAME42, "--board", str(board)).exit_code == 0
    other = run("verify", str(SAMPLES / "legacy" / "game-01.jsonl"), "--board", str(board))
    assert other.exit_code == 2 and "--board is not a data file of Risk Legacy" in " ".join(other.output.split())
    bad = tmp_path / "board.json"
    bad.write_text("{}")
    r = run("audit", GAME42, "--board", str(bad))
    assert r.exit_code == 2 and "cannot use the data file" in " ".join(r.output.split())
