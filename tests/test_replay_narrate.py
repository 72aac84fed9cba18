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
