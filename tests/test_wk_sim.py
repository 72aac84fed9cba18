"""Warrior Knights bots (#14): seeded games for 2 to 6 Barons played to the end with no
findings, the same bytes for the same seed, through `ledger simulate`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.warrior_knights.sim import play_game, simulate
from ledger.cli import app
from replay.judge import judge
from replay.logfile import read_log, write_log


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_seeded_games_to_the_end_with_no_findings(tmp_path, players):
    for seed in range(3):
        game = play_game(seed, f"wk-{players}-{seed}", players)
        assert game.finished, (players, seed)
        path = tmp_path / f"{players}-{seed}.jsonl"
        write_log(path, game.envelopes)
        j = judge(read_log(path))
        assert j.findings == [] and j.result is not None and j.result.winners[:1] == (game.winner,)[:len(j.result.winners)]
        assert any("not the published board" in n for n in j.data_notes)


def test_the_same_seed_gives_the_same_bytes():
    a = simulate(7, "g", {"players": "4"})
    b = simulate(7, "g", {"players": "4"})
    assert a.envelopes == b.envelopes
    assert simulate(8, "g", {"players": "4"}).envelopes != a.envelopes


def test_simulate_refuses_a_player_count_the_game_does_not_have():
    with pytest.raises(ValueError, match="2 to 6 Barons"):
        simulate(1, "g", {"players": "7"})
    with pytest.raises(ValueError, match="no --variant option"):
        simulate(1, "g", {"variant": "x"})


def test_ledger_simulate_writes_games_that_verify(tmp_path):
    runner = CliRunner()
    out = tmp_path / "out"
    r = runner.invoke(app, ["simulate", "--ruleset", "warrior-knights", "--players", "3", "--games", "2",
                            "--seed", "11", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["ruleset"] == "warrior-knights" and report["unfinished"] == []
    again = tmp_path / "again"
    runner.invoke(app, ["simulate", "--ruleset", "warrior-knights", "--players", "3", "--games", "2",
                        "--seed", "11", "--out", str(again)])
    assert (out / "game-0002.jsonl").read_bytes() == (again / "game-0002.jsonl").read_bytes()
    v = runner.invoke(app, ["verify", str(out / "game-0001.jsonl")])
    assert v.exit_code == 0 and "VERIFIED" in v.output and "not the published board" in v.output
    bad = runner.invoke(app, ["simulate", "--ruleset", "warrior-knights", "--players", "9", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "2 to 6 Barons" in bad.output


# --- Crown & Glory -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_crown_and_glory_games_to_the_end_with_no_findings(tmp_path, players):
    seen = set()
    for seed in range(3):
        game = simulate(seed, f"cg-{players}-{seed}", {"players": str(players), "variants": "all"})
        assert game.finished, (players, seed)
        path = tmp_path / f"{players}-{seed}.jsonl"
        write_log(path, game.envelopes)
        j = judge(read_log(path))
        assert j.findings == [] and j.result is not None
        seen |= {e["type"] for e in game.envelopes}
        seen |= {e["payload"]["card"] for e in game.envelopes if e["type"] == "CardRevealed"}
    assert {"MissionDealt", "MissionRevealed", "KingsArmyAssigned"} <= seen
    assert {"pressing_agenda", "assemble_troops"} <= seen                 # the For Glory Neutral cards


def test_bots_hire_leaders_and_heralds_and_use_their_abilities():
    hired, used = set(), set()
    for seed in range(3):
        game = simulate(seed, f"cg-4-{seed}", {"players": "4", "variants": "all"})
        kinds = {"m29", "m30", "m31", "m32"}                                # the invented example's
        for e in game.envelopes:
            if e["type"] == "MercenaryHired":
                hired |= set(e["payload"].get("hires", {})) & kinds
            if e["type"] == "Adjusted" and e["payload"]["source"] in kinds:
                used.add(e["payload"]["source"])
    assert len(hired) >= 2 and used


def test_crown_and_glory_games_are_the_same_bytes_per_seed_and_each_variant_alone_plays():
    a = simulate(5, "g", {"players": "3", "variants": "for_glory,missions,king"})
    assert a.envelopes == simulate(5, "g", {"players": "3", "variants": "all"}).envelopes
    assert a.envelopes[0]["payload"]["variants"] == ["for_glory", "missions", "king"]
    for v in ("for_glory", "missions", "king"):
        g = simulate(5, "g", {"players": "3", "variants": v})
        assert g.finished and g.envelopes[0]["payload"]["variants"] == [v]
    assert "variants" not in simulate(5, "g", {"players": "3", "variants": "none"}).envelopes[0]["payload"]


def test_simulate_refuses_an_unknown_variant():
    with pytest.raises(ValueError, match="Crown & Glory variants are"):
        simulate(1, "g", {"players": "2", "variants": "glory"})


def test_ledger_simulate_plays_crown_and_glory(tmp_path):
    runner = CliRunner()
    out = tmp_path / "cg"
    r = runner.invoke(app, ["simulate", "--ruleset", "warrior-knights", "--players", "4", "--variants", "all",
                            "--games", "1", "--seed", "3", "--out", str(out)])
    assert r.exit_code == 0, r.output
    v = runner.invoke(app, ["verify", str(out / "game-0001.jsonl")])
    assert v.exit_code == 0 and "VERIFIED" in v.output
