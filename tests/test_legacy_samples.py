"""The Risk Legacy samples (sample_logs/legacy/): a five-game campaign that is clean game by game
and as a campaign; each broken log is caught at the right line with the right rule; and
`ledger audit / verify / replay` read them through the generic judge."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.campaign import audit_campaign, load_campaign
from ledger.cli import app
from replay.logfile import read_log
from replay.judge import judge

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs" / "legacy"
GAMES = sorted(SAMPLES.glob("game-*.jsonl"))
runner = CliRunner()

# file -> (first finding's rule, its line)
BROKEN = {
    "broken-recruit-count.jsonl": ("RL-RECRUIT-COUNT", 158),
    "broken-late-missile.jsonl": ("RL-MISSILE-TIMING", 32),
    "broken-wrong-winner.jsonl": ("RL-CLAIM", 353),
    "broken-edited-die.jsonl": ("LOG-HASH", 34),
    "broken-draw-die.jsonl": ("RL-CHANCE-DRAW", 57),
}


def test_the_campaign_has_five_clean_games_on_one_world():
    assert len(GAMES) >= 5
    c = load_campaign(SAMPLES / "earth.campaign.json")
    assert [g["log"] for g in c.games] == [p.name for p in GAMES]
    audits = audit_campaign(c, SAMPLES)
    assert [a.findings for a in audits] == [[] for _ in GAMES]
    for a, g in zip(audits, c.games):
        assert a.judgement.result.winners == (g["winner"],) and a.judgement.chain_ok


def test_the_wrong_world_game_is_legal_alone_and_caught_by_the_campaign():
    j = judge(read_log(SAMPLES / "broken-wrong-world.jsonl"))
    assert j.findings == [] and j.result is not None
    c = load_campaign(SAMPLES / "earth.campaign.json")
    extra = audit_campaign(c, SAMPLES, [SAMPLES / "broken-wrong-world.jsonl"])[-1]
    assert [f.rule for f in extra.findings] == ["RL-CAMPAIGN-WORLD"]
    assert "scar in Central America: ammo shortage in the campaign, none in the game" in extra.findings[0].message
    assert "scar in Egypt: bunker in the campaign, none in the game" in extra.findings[0].message
    assert "ammo shortage scar placed in Central America" in c.games[1]["changes"]    # placed in game 2


def test_every_broken_sample_is_listed_here():
    assert {p.name for p in SAMPLES.glob("broken-*.jsonl")} == set(BROKEN) | {"broken-wrong-world.jsonl"}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_sample_first_finding(name):
    rule, line = BROKEN[name]
    j = judge(read_log(SAMPLES / name))
    first = min(j.findings, key=lambda f: (f.line or 0))
    assert (first.rule, first.line) == (rule, line)


def test_a_draw_die_changed_and_sealed_again_is_caught_at_its_line():
    """The one die changed draws another card than the log shows, and is not the seed's."""
    j = judge(read_log(SAMPLES / "broken-draw-die.jsonl"))
    assert j.chain_ok and sorted((f.rule, f.line) for f in j.findings) == \
        [("RL-CHANCE-DRAW", 57), ("RL-DICE-SEED", 57)]
    edited = read_log(SAMPLES / "broken-draw-die.jsonl").events[56]
    clean = read_log(GAMES[0]).events[56]
    assert (edited.type, edited.payload["card"]) == (clean.type, clean.payload["card"]) == ("CardRevealed", "A13")
    assert [a != b for a, b in zip(edited.payload["dice"], clean.payload["dice"])] == [True, False, False]


def test_the_games_deal_scar_cards_face_down_and_turn_each_over():
    """Games 1 and 2 deal the Scar cards face down; every card is turned over, placed or returned,
    with its salt; games 3-5 have too few Scar cards left for a deal."""
    for path, placed in zip(GAMES, (2, 3, 0, 0, 0)):
        events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        deals = [e for e in events if e["type"] == "ScarCardsDealt"]
        turned = [e for e in events if e["type"] in ("ScarPlaced", "ScarCardReturned")]
        assert sum(e["type"] == "ScarPlaced" for e in turned) == placed, path.name
        if deals:
            [deal] = deals
            assert set(deal["payload"]) == {"commitments", "hidden_dice"}
            assert sorted(e["actor"] for e in turned) == sorted(deal["payload"]["commitments"])
            assert all(e["payload"]["salt"] for e in turned)
        else:
            assert turned == []


def test_one_mistake_is_one_finding():
    for name in ("broken-recruit-count.jsonl", "broken-late-missile.jsonl"):
        j = judge(read_log(SAMPLES / name))
        assert len(j.findings) == 1, [f.format() for f in j.findings]


def test_samples_are_rebuilt_byte_for_byte():
    spec = importlib.util.spec_from_file_location("legacy_make_samples", SAMPLES / "make_samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, text in mod.build(SAMPLES).items():
        assert text == (SAMPLES / name).read_text("utf-8"), name


def test_cli_verify_audit_replay_on_legacy_logs():
    r = runner.invoke(app, ["verify", str(GAMES[0])])
    assert r.exit_code == 0 and "VERIFIED" in r.output and "risk-legacy" in r.output
    r = runner.invoke(app, ["verify", str(SAMPLES / "broken-wrong-winner.jsonl")])
    assert r.exit_code == 5
    r = runner.invoke(app, ["verify", str(SAMPLES / "broken-recruit-count.jsonl")])
    assert r.exit_code == 1 and "RL-RECRUIT-COUNT" in r.output
    r = runner.invoke(app, ["audit", *map(str, GAMES)])
    assert r.exit_code == 0 and r.output.count("clean") == len(GAMES)
    r = runner.invoke(app, ["audit", str(SAMPLES / "broken-late-missile.jsonl"), "--json"])
    assert r.exit_code == 1 and json.loads(r.output)["findings"][0]["rule"] == "RL-MISSILE-TIMING"
    r = runner.invoke(app, ["replay", str(GAMES[1])])
    assert r.exit_code == 0 and "Game over" in r.output and "signs the victors' section" in r.output
    r = runner.invoke(app, ["replay", str(GAMES[1]), "--round", "2", "--json"])
    steps = json.loads(r.output)["steps"]
    assert steps and all(s["round"] == 2 and s["digest"] for s in steps)
    r = runner.invoke(app, ["rules", "--ruleset", "risk-legacy"])
    assert "RL-MISSILE-TIMING" in r.output
    r = runner.invoke(app, ["schema", "--ruleset", "risk-legacy"])
    assert "MissileFired" in r.output
