"""Exact battle odds (engine/risk_europe/odds.py) against the rules: exact small cases, the rulebook's dice
tables, invariants over a grid of battles, and a Monte Carlo simulation written from the rulebook
text (not from the odds code) that must agree within four standard errors."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.risk_europe import odds
from engine.risk_europe.odds import (
    CHEAPEST_FIRST, BattleParseError, Policy, army_after_losses, armies_left, battle_odds, chain_ends,
    sweep_ends, format_battle, luck,
    next_rank, parse_battle, parse_casualty_order, rank_classes,
)
from engine.risk_europe.battles import _first_rank
from engine.risk_europe.state import Units
from ledger.cli import app

ROOT = Path(__file__).resolve().parent.parent
F, A, C, S = (Units(footman=1), Units(archer=1), Units(cavalry=1), Units(siege=1))


def army(f=0, a=0, c=0, s=0) -> Units:
    return Units(footman=f, archer=a, cavalry=c, siege=s)


# --- exact small cases ---------------------------------------------------------------------------

def test_one_footman_against_one_footman_ties_go_to_the_defender():
    o = battle_odds(F, F, exact=True)
    assert o.attacker_wins == Fraction(15, 36)
    assert o.defender_holds == Fraction(21, 36)
    assert o.both_eliminated == 0


def test_castle_reroll_in_the_general_attack_rerolls_only_the_defenders_die():
    # The defender re-rolls a lost 1-die comparison; the attacker's die x stands:
    # P(attacker wins) = sum over x of P(d < x)^2 / 6 = (0 + 1 + 4 + 9 + 16 + 25) / 216.
    assert battle_odds(F, F, castle=True, exact=True).attacker_wins == Fraction(55, 216)


def test_general_attack_three_dice_against_two_gives_the_classic_risk_table():
    dist: dict = {}
    for pc, hits in rank_classes(4, 3, 2):
        for h, q in hits:
            dist[h] = dist.get(h, 0) + pc * q
    assert {h: p * 7776 for h, p in dist.items()} == {(2, 0): 2890, (1, 1): 2611, (0, 2): 2275}


@pytest.mark.parametrize("rank,unit,per_unit,hits_on", [(1, "siege", 2, 3), (2, "archer", 1, 5), (3, "cavalry", 1, 3)])
def test_ranks_1_to_3_are_binomial_in_the_rulebooks_dice_and_hit_numbers(rank, unit, per_unit, hits_on):
    p = Fraction(7 - hits_on, 6)
    for na, nd in [(0, 1), (2, 0), (per_unit * 2, per_unit * 3)]:
        dist = {}
        for pc, hits in rank_classes(rank, na, nd):
            for h, q in hits:
                dist[h] = dist.get(h, 0) + pc * q
        for (ah, dh), q in dist.items():
            assert q == math.comb(na, ah) * p ** ah * (1 - p) ** (na - ah) \
                * math.comb(nd, dh) * p ** dh * (1 - p) ** (nd - dh)


@pytest.mark.parametrize("att,dfn,castle", [
    (army(f=3, s=1), army(a=2), True),
    (army(f=2, a=1, c=1, s=1), army(f=1, a=1, c=2), False),
    (army(f=2, c=1), army(f=2, a=1), True),
])
def test_probabilities_sum_to_one_exactly(att, dfn, castle):
    o = battle_odds(att, dfn, castle, exact=True)
    assert sum(p for _, _, p in o.outcomes) == 1
    assert o.attacker_wins + o.defender_holds + o.both_eliminated == 1
    assert all(a.total == 0 or d.total == 0 for a, d, _ in o.outcomes)


def test_floats_agree_with_fractions():
    att, dfn = army(f=4, a=1, s=1), army(f=2, a=3)
    exact, fast = battle_odds(att, dfn, True, exact=True), battle_odds(att, dfn, True)
    for name in ("attacker_wins", "defender_holds", "both_eliminated",
                 "expected_attacker_losses", "expected_defender_losses"):
        assert getattr(fast, name) == pytest.approx(float(getattr(exact, name)), abs=1e-12)


def test_only_footmen_skip_ranks_1_to_3():
    assert next_rank(army(f=3), army(f=2), 1) == 4


@pytest.mark.parametrize("att_bits,def_bits", list(itertools.product(range(8), repeat=2)))
def test_next_rank_is_the_engines_ranked_attack_order(att_bits, def_bits):
    att = army(f=1, s=att_bits & 1, a=att_bits >> 1 & 1, c=att_bits >> 2 & 1)
    dfn = army(f=1, s=def_bits & 1, a=def_bits >> 1 & 1, c=def_bits >> 2 & 1)
    for start in (1, 2, 3, 4):
        assert next_rank(att, dfn, start) == _first_rank(att, dfn, start)


def test_cheapest_first_removes_footmen_then_archers_then_cavalry_then_siege():
    assert CHEAPEST_FIRST == ("footman", "archer", "cavalry", "siege")
    assert army_after_losses(army(f=2, a=1, c=1, s=1), 3) == army(c=1, s=1)
    assert army_after_losses(army(f=2, s=1), 9) == army()


@pytest.mark.parametrize("order", [CHEAPEST_FIRST, parse_casualty_order("SCAF"), parse_casualty_order("AFSC")])
def test_armies_left_is_army_after_losses_for_every_loss(order):
    for whole in (army(f=3, a=2, c=1, s=2), army(a=1), army(f=35, a=12, c=12, s=4)):
        left = armies_left(whole, order)
        assert left == [army_after_losses(whole, whole.total - n, order) for n in range(whole.total + 1)]


def test_a_siege_first_casualty_order_loses_more_often():
    att, dfn = army(f=4, s=2), army(f=3, a=3)
    siege_first = Policy(casualty_order=("siege", "cavalry", "archer", "footman"))
    assert battle_odds(att, dfn, policy=siege_first).attacker_wins < battle_odds(att, dfn).attacker_wins


def test_an_empty_army_is_not_a_battle():
    with pytest.raises(ValueError, match="units on both sides"):
        battle_odds(army(f=2), army())


# --- invariants over a grid ----------------------------------------------------------------------

ATTACKERS = [army(f, a, c, s) for f, a, c, s in itertools.product(range(3), range(2), range(2), range(2))
             if f + a + c + s]
DEFENDERS = [army(f=1), army(f=2, a=1), army(a=2, c=1), army(f=1, c=1, s=1)]


@pytest.mark.parametrize("castle", [False, True])
def test_more_attackers_never_lower_p_attacker_wins(castle):
    for att, dfn in itertools.product(ATTACKERS, DEFENDERS):
        base = battle_odds(att, dfn, castle).attacker_wins
        for extra in (F, A, C, S):
            assert battle_odds(att + extra, dfn, castle).attacker_wins >= base - 1e-12, (att, extra, dfn)


@pytest.mark.parametrize("castle", [False, True])
def test_more_defenders_never_lower_p_defender_holds(castle):
    for att, dfn in itertools.product(DEFENDERS, ATTACKERS):
        base = battle_odds(att, dfn, castle).defender_holds
        for extra in (F, A, C, S):
            assert battle_odds(att, dfn + extra, castle).defender_holds >= base - 1e-12, (att, dfn, extra)


def test_a_castle_never_lowers_p_defender_holds():
    for att, dfn in itertools.product(ATTACKERS + DEFENDERS, ATTACKERS + DEFENDERS):
        assert battle_odds(att, dfn, True).defender_holds >= battle_odds(att, dfn, False).defender_holds - 1e-12


def test_never_rerolling_is_the_same_as_no_castle():
    att, dfn = army(f=3, a=2, s=1), army(f=2, a=3)
    assert battle_odds(att, dfn, True, Policy(reroll="never")).outcomes == battle_odds(att, dfn, False).outcomes


# --- the row sweep (floats) against the chain, state by state (issue #15) ------------------------

SWEEP_ARMIES = [army(f, a, c, s) for f, a, c, s in itertools.product((0, 3), range(2), range(3), range(2))
                if f + a + c + s]
SWEEP_POLICIES = [Policy(), Policy(reroll="never"), Policy(casualty_order=parse_casualty_order("SCAF")),
                  Policy(casualty_order=parse_casualty_order("AFSC"))]


def _ends(o) -> dict:
    return {(a.total, d.total): p for a, d, p in o.outcomes}


def _sides(att: Units, dfn: Units, castle: bool, policy: Policy) -> tuple:
    order = policy.casualty_order
    return armies_left(att, order), armies_left(dfn, order), \
        policy.reroll if castle and policy.reroll != "never" else None


def reference_outcomes(att: Units, dfn: Units, castle: bool, policy: Policy, exact: bool = False) -> dict:
    """The battle's ends by the chain, state by state (the computation the row sweep replaced)."""
    att_left, def_left, reroll = _sides(att, dfn, castle, policy)
    return chain_ends(att_left, def_left, castle, reroll, exact=exact)


def swept(att: Units, dfn: Units, castle: bool, policy: Policy) -> dict:
    """The battle's ends by the row sweep, whatever its size."""
    return sweep_ends(*_sides(att, dfn, castle, policy))


@pytest.fixture(params=["stacked", "trip-by-trip"])
def loops(request, monkeypatch):
    """How the sweep solves a row's loop above the defender's quiet counts (those where it rolls
    no dice in ranks 1-3): every row kind at once (few such counts, the default), or trip by trip
    with a solve of what is left after three trips (what larger armies get)."""
    if request.param == "trip-by-trip":
        monkeypatch.setattr(odds, "_HOT_MOST", 0)
    return request.param


@pytest.mark.parametrize("policy", SWEEP_POLICIES, ids=lambda p: "-".join(p.casualty_order) + "-" + p.reroll)
def test_the_row_sweep_gives_the_chains_odds_on_a_grid_of_battles(policy, loops):
    """Every battle of up to 3 footmen, 1 archer, 2 cavalry and 1 siege weapon a side, with and
    without a castle: the same ends with the same probabilities (floats, to 1e-12)."""
    for att, dfn, castle in itertools.product(SWEEP_ARMIES, SWEEP_ARMIES, (False, True)):
        new, old = swept(att, dfn, castle, policy), reference_outcomes(att, dfn, castle, policy)
        assert new.keys() == old.keys(), (att, dfn, castle)
        assert max(abs(new[k] - old[k]) for k in old) < 1e-12, (att, dfn, castle)


@pytest.mark.parametrize("att, dfn", [
    (army(f=2, a=1, s=1), army(a=1, c=1, f=1)), (army(f=5), army(f=4)), (army(a=3), army(a=2, c=1)),
    (army(f=3, c=2), army(f=1, s=1)), (army(c=1, s=1), army(f=6)),
])
@pytest.mark.parametrize("castle", [False, True])
def test_the_row_sweep_gives_the_chains_exact_fractions_to_1e_12(att, dfn, castle):
    for policy in SWEEP_POLICIES[:3]:
        new, exact = swept(att, dfn, castle, policy), reference_outcomes(att, dfn, castle, policy, True)
        assert new.keys() == exact.keys() and sum(exact.values()) == 1
        assert max(abs(new[k] - float(exact[k])) for k in exact) < 1e-12


@pytest.mark.parametrize("text", ["12F 4A 2C 2S vs 10F 6A 2C castle", "20F 2A vs 18F 3C castle",
                                  "10F 3A 3C 2S vs 12F 2A 2C 1S"])
def test_the_row_sweep_gives_the_chains_odds_on_bigger_battles(text, loops):
    """Battles where a row's loop (cycles without a hit for the defender) is solved, not summed."""
    att, dfn, castle = parse_battle(text)
    for policy in (Policy(), Policy(casualty_order=parse_casualty_order("SCAF"))):
        new, old = swept(att, dfn, castle, policy), reference_outcomes(att, dfn, castle, policy)
        assert new.keys() <= old.keys()
        assert max(abs(new.get(k, 0.0) - old[k]) for k in old) < 1e-12, text


@lru_cache(maxsize=None)
def _whole_supply_chain(castle: bool, order: str) -> dict:
    whole = army(f=35, a=12, c=12, s=4)
    return reference_outcomes(whole, whole, castle, Policy(casualty_order=parse_casualty_order(order)))


@pytest.mark.parametrize("castle", [True, False])
@pytest.mark.parametrize("order", ["SCAF", "CSAF"])
def test_the_row_sweep_gives_the_chains_odds_for_the_whole_supply_footmen_lost_last(castle, order, loops):
    """The whole supply a side, footmen lost last: the defender keeps only footmen (no dice in ranks
    1-3) for its last 35 units, where the rows' loops are long (issue #15's slowest case), against
    the chain state by state (about a second)."""
    whole = army(f=35, a=12, c=12, s=4)
    policy = Policy(casualty_order=parse_casualty_order(order))
    new, old = swept(whole, whole, castle, policy), _whole_supply_chain(castle, order)
    assert new.keys() <= old.keys()
    assert max(abs(new.get(k, 0.0) - old[k]) for k in old) < 1e-12


def test_a_defender_with_more_units_above_its_quiet_ones_than_are_stacked_is_swept_trip_by_trip():
    """2 footmen under 33 other units (more than the reserves hold): the loops above the 2 are
    summed trip by trip, and agree with the chain."""
    att, dfn, castle = parse_battle("6F 2A 1C vs 2F 12A 12C 9S castle")
    policy = Policy(casualty_order=parse_casualty_order("SCAF"))
    assert dfn.total - dfn.footman > odds._HOT_MOST
    new, old = swept(att, dfn, castle, policy), reference_outcomes(att, dfn, castle, policy)
    assert new.keys() <= old.keys()
    assert max(abs(new.get(k, 0.0) - old[k]) for k in old) < 1e-12


@pytest.mark.parametrize("ranked, dice, cap, reroll", [
    ((0, 0, 0), 3, 2, "below-average"), ((2, 3, 1), 3, 0, None), ((8, 12, 12), 3, 2, "below-average"),
    ((0, 1, 0), 1, 1, "below-average"), ((4, 0, 2), 2, 0, None), ((0, 0, 5), 2, 2, "below-average"),
])
def test_the_quiet_loop_by_power_series_is_the_inverse_of_its_trip(ranked, dice, cap, reroll):
    """Against a defender without dice in ranks 1-3, one trip round a row's cycle is the
    attacker's hits in ranks 1-3 and a General Attack without a hit for the defender; the power
    series 1 / (1 - g) gives (I - M)^-1 of that trip, as a dense inverse does."""
    import numpy as np
    size, fresh = 70, 1 if reroll else 0
    m = np.eye(size)
    for rank, n in enumerate(ranked, 1):
        m = m @ odds._attacker_hits(rank, n, size)
    m = m @ odds._general_attack(dice, cap, size, reroll)[fresh * size:(fresh + 1) * size, :size]
    assert np.abs(odds._quiet_loop(ranked, dice, cap, size, reroll) - np.linalg.inv(np.eye(size) - m)).max() < 1e-12


def test_the_whole_supply_against_the_whole_supply_sums_to_one():
    """The largest battle the reserves allow (35 footmen, 12 archers, 12 cavalry, 4 siege weapons a
    side, the box's counts) behind a castle, under both orders."""
    whole = army(f=35, a=12, c=12, s=4)
    for policy in (Policy(), Policy(casualty_order=parse_casualty_order("SCAF"))):
        o = battle_odds(whole, whole, True, policy)
        assert sum(p for _, _, p in o.outcomes) == pytest.approx(1, abs=1e-12)
        assert 0 < o.attacker_wins < o.defender_holds


# --- Monte Carlo, written from the rulebook ------------------------------------------------------

RANKS = (("siege", 2, 3), ("archer", 1, 5), ("cavalry", 1, 3))   # unit, dice per unit, hits on


def _general_attack(att_dice, def_dice) -> tuple[int, int]:
    ah = dh = 0
    for x, y in zip(sorted(att_dice, reverse=True), sorted(def_dice, reverse=True)):
        ah, dh = (ah + 1, dh) if x > y else (ah, dh + 1)
    return ah, dh


def _mean_general_attack_defender_hits(na: int, nd: int) -> float:
    faces = range(1, 7)
    rolls = [(a, d) for a in itertools.product(faces, repeat=na) for d in itertools.product(faces, repeat=nd)]
    return sum(_general_attack(a, d)[1] for a, d in rolls) / len(rolls)


MEAN_RANK4 = {(na, nd): _mean_general_attack_defender_hits(na, nd) for na in (1, 2, 3) for nd in (1, 2)}


def simulate(att: Units, dfn: Units, castle: bool, policy: Policy, rng: random.Random) -> tuple[int, int]:
    """Fight one battle with dice; return the units left (attacker, defender)."""
    a, d = att._asdict(), dfn._asdict()

    def remove(side: dict, hits: int) -> None:
        for unit in policy.casualty_order:
            taken = min(hits, side[unit])
            side[unit] -= taken
            hits -= taken

    def roll(n: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(n)]

    while True:
        can_reroll = castle and policy.reroll == "below-average"
        for rank in (1, 2, 3, 4):
            a_total = sum(a.values())
            if rank < 4:
                unit, per_unit, hits_on = RANKS[rank - 1]
                if not a[unit] and not d[unit]:
                    continue
                na, nd = per_unit * a[unit], per_unit * d[unit]
                score = lambda ad, dd: (sum(x >= hits_on for x in ad), sum(y >= hits_on for y in dd))  # noqa: E731
                mean = nd * (7 - hits_on) / 6
            else:
                na, nd = min(3, a_total), min(2, sum(d.values()))
                score, mean = _general_attack, MEAN_RANK4[na, nd]
            att_dice, def_dice = roll(na), roll(nd)
            ah, dh = score(att_dice, def_dice)
            if can_reroll and nd and min(dh, a_total) < min(mean, a_total):
                can_reroll = False
                ah, dh = score(att_dice, roll(nd))
            remove(a, dh)
            remove(d, ah)
            if not sum(a.values()) or not sum(d.values()):
                return sum(a.values()), sum(d.values())


MONTE_CARLO = [
    (army(f=8, a=2, s=2), army(f=4, a=6), True, Policy()),            # the rulebook's battle
    (army(f=3, s=1), army(a=3, f=1), True, Policy()),
    (army(f=2, a=2, c=2), army(f=2, c=3), False, Policy()),
    (army(f=2, c=1, s=1), army(a=2, c=2, f=2), True, Policy(casualty_order=("siege", "cavalry", "archer", "footman"))),
]


@pytest.mark.parametrize("att,dfn,castle,policy", MONTE_CARLO,
                         ids=["rulebook-battle", "siege-vs-castle", "cavalry", "siege-first-casualties"])
def test_monte_carlo_agrees_with_the_exact_odds_within_four_standard_errors(att, dfn, castle, policy):
    n = 20_000
    rng = random.Random(f"{att}{dfn}{castle}")
    ends = [simulate(att, dfn, castle, policy, rng) for _ in range(n)]
    o = battle_odds(att, dfn, castle, policy)

    def close(samples: list[float], exact: float) -> None:
        mean = sum(samples) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
        se = max(sd, math.sqrt(exact * (1 - exact)) if 0 <= exact <= 1 else sd) / math.sqrt(n)
        assert abs(mean - exact) <= 4 * se + 1e-9, (mean, exact, se)

    close([float(a > 0) for a, d in ends], o.attacker_wins)
    close([float(d > 0) for a, d in ends], o.defender_holds)
    close([float(a == d == 0) for a, d in ends], o.both_eliminated)
    close([att.total - a for a, d in ends], o.expected_attacker_losses)
    close([dfn.total - d for a, d in ends], o.expected_defender_losses)


# --- luck -----------------------------------------------------------------------------------------

def test_luck_is_outcome_minus_expectation():
    o = battle_odds(F, F, exact=True)
    won = luck(o, attacker_lost=0, defender_lost=1)
    assert won.outcome == "attacker takes"
    assert won.attacker_won == 1 - Fraction(15, 36)
    assert won.defender_held == -Fraction(21, 36)
    assert won.attacker_losses == -Fraction(21, 36) and won.defender_losses == 1 - Fraction(15, 36)


def test_luck_averages_to_zero_over_the_outcomes():
    o = battle_odds(army(f=2, a=1), army(f=1, a=1), True, exact=True)
    total = sum(p * luck(o, o.attacker.total - a.total, o.defender.total - d.total).attacker_won
                for a, d, p in o.outcomes)
    assert total == 0


def test_luck_of_a_battle_that_has_not_ended_is_an_error():
    with pytest.raises(ValueError, match="do not end the battle"):
        luck(battle_odds(army(f=3), army(f=3)), attacker_lost=1, defender_lost=1)


# --- reading battles ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("3 footmen + 1 siege vs 2 archers in a castle", (army(f=3, s=1), army(a=2), True)),
    ("3F 1S vs 2A castle", (army(f=3, s=1), army(a=2), True)),
    ("1 footman vs 1 footman", (F, F, False)),
    ("8F+2A+2S vs 4F+6A behind a castle", (army(f=8, a=2, s=2), army(f=4, a=6), True)),
    ("2 siege weapons, 1 cavalry and 1 archer versus 3 cavalry", (army(a=1, c=1, s=2), army(c=3), False)),
    ("2f 2F vs 1 Archer with a castle", (army(f=4), A, True)),
])
def test_parse_battle_reads_long_and_short_forms(text, expected):
    assert parse_battle(text) == expected


@pytest.mark.parametrize("text,message", [
    ("3 footmen vs 2 wizards", "unknown unit 'wizards'"),
    ("3 footmen 2 archers", "one 'vs'"),
    ("footmen vs 2 archers", "a number must come before 'footmen'"),
    ("3 footmen in a castle vs 2 archers", "only the defender can hold a castle"),
    ("0F vs 2A", "the attacker has no units"),
    ("3F vs 2A 4", "must follow '4'"),
    ("3F vs 500F", "a player owns at most 63"),
])
def test_parse_battle_reports_what_it_cannot_read(text, message):
    with pytest.raises(BattleParseError, match=re.escape(message)):
        parse_battle(text)


def test_format_battle_round_trips():
    battle = (army(f=8, a=2, s=2), army(f=4, a=6), True)
    assert format_battle(*battle) == "8F 2A 2S vs 4F 6A castle"
    assert parse_battle(format_battle(*battle)) == battle


def test_parse_casualty_order():
    assert parse_casualty_order("cheapest-first") == CHEAPEST_FIRST
    assert parse_casualty_order("SCAF") == ("siege", "cavalry", "archer", "footman")
    assert parse_casualty_order("siege,cavalry,archer,footman") == ("siege", "cavalry", "archer", "footman")
    with pytest.raises(BattleParseError):
        parse_casualty_order("FFAC")


# --- the command line -----------------------------------------------------------------------------

runner = CliRunner()


def test_cli_odds_prints_the_odds_and_the_policy():
    r = runner.invoke(app, ["odds", "1 footman vs 1 footman"])
    assert r.exit_code == 0, r.output
    assert "attacker takes the territory  0.4167" in r.output
    assert "defender holds                0.5833" in r.output
    assert "policy: casualties cheapest first" in r.output


def test_cli_odds_json_and_unquoted_words():
    r = runner.invoke(app, ["odds", "1F", "vs", "1F", "castle", "--json", "--exact"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["attacker_wins"] == "55/216" and out["castle"] is True
    assert out["policy"]["reroll"] == "below-average"


def test_cli_odds_help_has_an_example():
    r = runner.invoke(app, ["odds", "--help"])
    assert r.exit_code == 0 and "Example: ledger odds" in r.output


@pytest.mark.parametrize("args", [["3 footmen vs 2 wizards"], ["1F vs 1F", "--casualties", "XYZ"],
                                  ["1F vs 1F", "--reroll", "always"]])
def test_cli_odds_exits_2_on_input_it_cannot_read(args):
    r = runner.invoke(app, ["odds", *args])
    assert r.exit_code == 2
    assert "ledger odds:" in r.output


# --- the docs -------------------------------------------------------------------------------------

def test_the_worked_examples_in_docs_odds_md_are_what_ledger_odds_computes():
    doc = (ROOT / "docs" / "odds.md").read_text("utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| `?([^|`]*)`? \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$",
                      doc, re.M)
    assert len(rows) >= 10
    for battle, options, *numbers in rows:
        r = runner.invoke(app, ["odds", battle, *("" if options == "default" else options).split(), "--json"])
        assert r.exit_code == 0, r.output
        o = json.loads(r.output)
        assert numbers == [f"{o['attacker_wins']:.4f}", f"{o['defender_holds']:.4f}", f"{o['both_eliminated']:.4f}",
                           f"{o['expected_losses']['attacker']:.2f}", f"{o['expected_losses']['defender']:.2f}"], battle


def test_the_python_example_in_docs_odds_md_holds():
    o = battle_odds(army(f=3, s=1), army(a=2), castle=True)
    assert (round(o.attacker_wins, 4), round(o.defender_holds, 4), o.both_eliminated) == (0.97, 0.03, 0)
    assert round(o.expected_attacker_losses, 2) == 0.70
    assert {u: round(v, 2) for u, v in o.expected_attacker_left.items()} == {"footman": 2.33, "siege": 0.97}
