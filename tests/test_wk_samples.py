"""The Warrior Knights sample logs (sample_logs/warrior_knights/): rebuilt byte for byte by their
script, each complete game verified clean, each broken copy caught as its README says, by one
finding."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli import app
from replay.judge import judge
from replay.logfile import read_log

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs" / "warrior_knights"
runner = CliRunner()


def _script():
    spec = importlib.util.spec_from_file_location("wk_make_samples", SAMPLES / "make_samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MOD = _script()


def test_samples_are_rebuilt_byte_for_byte():
    built = MOD.build(SAMPLES)
    assert set(built) == {p.name for p in SAMPLES.glob("*.jsonl")}
    for name, text in built.items():
        assert text == (SAMPLES / name).read_text("utf-8"), name


@pytest.mark.parametrize("name", [g[0] for g in MOD.GAMES])
def test_each_game_verifies_and_says_its_data_is_invented(name):
    r = runner.invoke(app, ["verify", str(SAMPLES / name)])
    assert r.exit_code == 0, r.output
    assert "an invented example board, not the published board" in r.output


@pytest.mark.parametrize("broken", MOD.BROKEN, ids=lambda b: b[0])
def test_each_broken_copy_gives_its_named_finding(broken):
    name, _, rule = broken[:3]
    j = judge(read_log(SAMPLES / name))
    assert [f.rule for f in j.findings] == [rule], [f.format() for f in j.findings]
    assert f"`{rule}` at line {j.findings[0].line}" in (SAMPLES / "README.md").read_text("utf-8")
    code = runner.invoke(app, ["verify", str(SAMPLES / name)]).exit_code
    assert code == (5 if rule == "WK-RESULT" else 1)


def test_the_edited_line_breaks_the_chain():
    r = runner.invoke(app, ["verify", str(SAMPLES / "broken-edited-line.jsonl")])
    assert r.exit_code == 4 and "LOG-HASH" in r.output


def test_a_replay_names_the_data_and_narrates_the_game():
    r = runner.invoke(app, ["replay", str(SAMPLES / "game-2p.jsonl"), "--round", "2"])
    assert r.exit_code == 0, r.output
    assert "note: the shipped example_board.json is an invented example board" in r.output
    assert "== Round 2: Actions ==" in r.output and "Stack 1:" in r.output


def test_every_sample_has_a_game_id_of_its_own():
    ids = {read_log(p).events[0].game for p in SAMPLES.glob("*.jsonl")}
    assert len(ids) == len(list(SAMPLES.glob("*.jsonl")))
