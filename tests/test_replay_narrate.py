"""`ledger replay` as a reader meets it: each event in the round it happened in, the board after
each player's turn, the same text in every process, and a replay that names no game (the
narration comes from each game's Ruleset record; a game without it is shown plainly)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.core.ruleset import registered
from replay.judge import judge
from replay.logfile import make_envelope, read_log, seal, write_log
from replay.narrate import narrate

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
GAME42 = SAMPLES / "game42.jsonl"


def test_a_tax_note_reads_the_same_in_every_process():
    """The cities a tax collects from are named in one order whatever the string hashing of the
    process (the supply line follows set iteration): a replay is the same text everywhere."""
    code = ("from replay.judge import judge; from replay.logfile import read_log; "
            f"j = judge(read_log({str(SAMPLES / 'broken-claim-coins.jsonl')!r})); "
            "print([n for s in j.steps for n in s.notes if ' taxes from ' in n])")
    outs = set()
    for seed in ("1", "2", "3"):
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, timeout=120)
        assert run.returncode == 0, run.stderr
        outs.add(run.stdout)
    assert len(outs) == 1
    assert "blue taxes from Berlin: 11 coins from 5 territories (Berlin, Stockholm, Warsaw and 2 non-city)" in outs.pop()


def _nim_log(path: Path) -> Path:
    envs = [make_envelope("nim-1", 0, "GameStarted", None,
                          {"ruleset": "toy-nim", "players": [{"id": "ann"}, {"id": "bob"}], "stones": 5})]
    for who, n in (("ann", 2), ("bob", 2), ("ann", 1)):
        envs.append(make_envelope("nim-1", len(envs), "StonesTaken", who, {"count": n}))
    write_log(path, seal(envs))
    return path


def test_a_game_without_narration_hooks_replays_plainly(tmp_path):
    """The toy Nim record has no describe, board_lines, section or heading: the replay shows each
    event as logged under a heading per phase of the round, and the board view key by key."""
    from tests.toy_nim import RULESET
    with registered(RULESET):
        j = judge(read_log(_nim_log(tmp_path / "nim.jsonl")), views=True)
        lines = narrate(j)
        filtered = narrate(j, player="bob")
    assert lines[lines.index("== Round 1: play ==") + 1] == "  L2 #1 ann StonesTaken {'count': 2}"
    assert "== Round 1: over ==" in lines and "      → ann takes 1; 0 left: ann wins" in lines
    assert "  board before:" in filtered and "    pile: 3" in filtered and "    pile: 1" in filtered


def _boards_between(lines: list[str], start: str, end: str) -> int:
    part = lines[lines.index(start):lines.index(end)]
    return part.count("    board after the turn:")


def test_the_board_is_shown_after_each_players_turn_and_not_after_the_cards():
    """Risk Europe: a turn opens with the card a player reveals; the board follows each of the
    four turns of round 1's second card, once, and not again after round 2's cards are committed."""
    lines = narrate(judge(read_log(GAME42), views=True))
    assert _boards_between(lines, "== Round 1, turn 2 ==", "== Round 2: cards ==") == 4
    assert _boards_between(lines, "== Round 2: cards ==", "== Round 2, turn 1 ==") == 0
    legacy = narrate(judge(read_log(SAMPLES / "legacy" / "game-02.jsonl"), views=True))
    turns = [i for i, line in enumerate(legacy) if line.startswith("== Round ")]
    # Risk Legacy: each turn of a round is one player's, the board follows every one of them
    assert legacy.count("    board after the turn:") == len(turns)
    assert all(legacy[i - 1].startswith("      ") for i in turns[1:])


def test_a_battle_claim_is_shown_in_the_round_of_its_battle():
    """game42: the last casualty of round 5 ends the round, and the BattleEnded claim that follows
    (Hungary, won by green) belongs to round 5's battles, not to round 6; the digests stay as
    they were (tests/golden)."""
    j = judge(read_log(GAME42), views=True)
    claims = [(s.seq, s.payload["territory"], s.position) for s in j.steps if s.type == "BattleEnded"]
    assert claims == [(56, "Lorraine", ("battles", 2, 2)), (127, "England", ("battles", 5, 2)),
                      (131, "Hungary", ("battles", 5, 2)), (169, "Poland", ("battles", 6, 2)),
                      (193, "Hungary", ("battles", 7, 2))]
    round5 = "\n".join(narrate(j, round_=5))
    round6 = "\n".join(narrate(j, round_=6))
    assert "claim: battle in England won by blue" in round5 and "claim: battle in Hungary won by green" in round5
    assert "claim: battle in Hungary won by green" not in round6
    assert "claim: battle in Poland won by blue" in round6
    whole = narrate(j)
    battles5 = whole.index("== Round 5: battles ==")
    assert whole.index("  L132 #131 claim: battle in Hungary won by green") < whole.index("== Round 6: cards ==")
    assert battles5 < whole.index("  L132 #131 claim: battle in Hungary won by green")
