"""The variant sample logs (docs/variants.md): each variant's simulated game is complete and clean
(the +missions ones when judged with the example mission file they were played with), its
table-mode copy judges to the same result, and each broken copy is caught at the right line with
the right rule id."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from engine.risk_europe.variants import parse_variant
from replay.logfile import read_log
from replay.judge import judge
from replay.narrate import narrate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _make_samples():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MS = _make_samples()
EXAMPLE = MS.example_missions()

# file -> (first finding's rule, its line); the mission copies are judged with the example file
VARIANT_BROKEN = {
    "broken-merc-tiles.jsonl": ("RE-MERC-SETUP", 2),
    "broken-merc-draft.jsonl": ("RE-DRAFT", 11),
    "broken-merc-bid-twice.jsonl": ("RE-MERC-BID", 16),
    "broken-merc-tie.jsonl": ("RE-MERC-BID-TIE", 44),
    "broken-merc-deck.jsonl": ("RE-MERC-DECK", 12),
    "broken-merc-crown-card.jsonl": ("RE-MERC-CROWNS", 59),
    "broken-merc-seat.jsonl": ("RE-MERC-SEAT", 326),
    "broken-merc-win.jsonl": ("RE-MERC-WIN", 394),
    "broken-chance-draw.jsonl": ("RE-CHANCE-DRAW", 32),
    "broken-merc-bid-order.jsonl": ("RE-MERC-BID-ORDER", 14),
    "broken-team-territory.jsonl": ("RE-TEAM-TERRITORY", 20),
    "broken-team-crown-card.jsonl": ("RE-TEAM-NO-CROWNS", 29),
    "broken-team-end.jsonl": ("RE-TEAM-END", 465),
    "broken-mission-purchase.jsonl": ("RE-MISSION-NO-PURCHASE", 36),
    "broken-mission-draw.jsonl": ("RE-MISSION-DRAW", 25),
    "broken-mission-reveal.jsonl": ("RE-MISSION-REVEAL", 88),
    "broken-mission-complete.jsonl": ("RE-MISSION-COMPLETE", 52),
    "broken-variant-unknown.jsonl": ("RE-START-VARIANT", 1),
}


def _data(name: str):
    return EXAMPLE if "mission" in name else None


@pytest.mark.parametrize("name", sorted(MS.VARIANT_GAMES))
def test_each_variant_has_a_complete_clean_simulated_game(name):
    j = judge(read_log(SAMPLES / name), data=_data(name))
    assert j.findings == [] and j.chain_ok and j.seed_checked
    assert j.result is not None and j.declared_winners and sorted(j.declared_winners) == sorted(j.result.winners)
    first = json.loads((SAMPLES / name).read_text("utf-8").splitlines()[0])
    assert first["payload"]["variant"] == MS.VARIANT_GAMES[name]


@pytest.mark.parametrize("name", sorted(n for n, v in MS.VARIANT_GAMES.items() if parse_variant(v).missions))
def test_without_the_mission_file_every_completion_is_listed_as_unverified(name):
    j = judge(read_log(SAMPLES / name))
    done = sum(1 for line in (SAMPLES / name).read_text("utf-8").splitlines() if '"MissionCompleted"' in line)
    assert done and [(f.rule, f.kind) for f in j.findings] == [("RE-MISSION-UNVERIFIED", "claim")] * done
    assert not j.clean


@pytest.mark.parametrize("table, seeded", sorted(MS.TABLE_COPIES.items()))
def test_the_table_mode_copy_is_the_same_game(table, seeded):
    a = judge(read_log(SAMPLES / table), data=_data(table))
    b = judge(read_log(SAMPLES / seeded), data=_data(seeded))
    assert a.findings == [] and a.dice_mode == "table" and a.result == b.result


def test_every_variant_broken_sample_is_listed_here():
    assert set(VARIANT_BROKEN) == set(MS.VARIANT_BROKEN)
    assert all((SAMPLES / name).exists() for name in VARIANT_BROKEN)


@pytest.mark.parametrize("name", sorted(VARIANT_BROKEN))
def test_variant_broken_sample_first_finding(name):
    rule, line = VARIANT_BROKEN[name]
    j = judge(read_log(SAMPLES / name), data=_data(name))
    assert j.findings, f"{name} judged clean"
    first = min(j.findings, key=lambda f: f.line or 0)
    assert (first.rule, first.line) == (rule, line)


@pytest.mark.parametrize("name", sorted(n for n in VARIANT_BROKEN if n not in (
    "broken-chance-draw.jsonl", "broken-variant-unknown.jsonl")))
def test_one_mistake_is_one_finding_in_the_variant_samples(name):
    j = judge(read_log(SAMPLES / name), data=_data(name))
    assert [f.rule for f in j.findings] == [VARIANT_BROKEN[name][0]]


def test_a_changed_draw_die_is_also_a_die_off_the_seed():
    j = judge(read_log(SAMPLES / "broken-chance-draw.jsonl"))
    assert [f.rule for f in j.findings] == ["RE-CHANCE-DRAW", "RE-DICE-SEED"]


def test_the_variant_samples_are_rebuilt_byte_for_byte():
    """From the shipped simulated games, make_samples rebuilds exactly the table-mode copies and
    the broken copies (re-simulating the games themselves: python make_samples.py --variants)."""
    games = {n: [json.loads(x) for x in (SAMPLES / n).read_text("utf-8").splitlines()] for n in MS.VARIANT_GAMES}
    for name, text in MS.variant_samples(games).items():
        assert text == (SAMPLES / name).read_text("utf-8"), name


def test_the_simulated_variant_games_are_what_the_simulator_plays():
    from replay.logfile import format_line
    from engine.risk_europe.sim import play_game
    name = "var-mercenaries-2p.jsonl"
    text = (SAMPLES / name).read_text("utf-8")
    seed = next(s for s in range(1, MS.SEEDS_TRIED + 1)
                if "".join(format_line(e) + "\n" for e in play_game(s, "var-mercenaries-2p", variant="mercenaries-2p").envelopes) == text)
    assert seed >= 1


def test_replay_shows_the_mercenary_bids_and_turns():
    j = judge(read_log(SAMPLES / "var-mercenaries-2p.jsonl"), digests=True, views=True)
    text = "\n".join(narrate(j, round_=1))
    assert "variant: mercenaries-2p; Mercenary Armies: green, red" in text
    assert "orders the Mercenary bids" in text and "for control of Mercenary Army" in text
    assert "[Mercenary Army, played by " in text and "flips" in text and "from the Mercenary deck" in text
    assert "(Mercenary Army, played by " in text        # the board lines
