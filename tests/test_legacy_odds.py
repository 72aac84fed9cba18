"""Exact odds of a Risk Legacy attack (engine/risk_legacy/odds.py): the classic Risk numbers that
are published (the unmodified case is classic Risk), hand-checked small cases of every modifier,
power and the Missile policy, an exact reference written from the rulebook text (not from the odds
code) over a grid of small attacks, the text the CLI reads, and the luck of whole attacks in the
analytics fold of the sample campaign."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analytics.extract import extract_rows
from engine.core.dice_odds import roll_odds
from engine.core.ruleset import get_ruleset, rulesets
from engine.risk_legacy.combat import FIRST_STRIKE, Modifier
from engine.risk_legacy.odds import (
    DEFAULT_POLICY, IMMUNE, NEVER_WEARS, STOPPED, TAKEN, AttackParseError, Battle, Policy,
    attack_odds, fire_missiles, odds_of, parse_attack, roll_luck, roll_outcomes, take_chance,
)
from ledger.cli import app
from replay.logfile import read_log

ROOT = Path(__file__).resolve().parent.parent
LEGACY = ROOT / "sample_logs" / "legacy"
BUNKER = Modifier("higher", +1, "bunker")
AMMO = Modifier("higher", -1, "ammo shortage")
runner = CliRunner()


def p_take(attacker: int, defender: int, **kw) -> Fraction:
    policy = kw.pop("policy", DEFAULT_POLICY)
    return attack_odds(Battle(attacker, defender, **kw), policy, exact=True).attacker_wins


# --- classic Risk: published numbers ------------------------------------------------------------

# J. A. Osborne, "Markov Chains for the RISK Board Game Revisited", Mathematics Magazine 76 (2003),
# Table 3: the probability that the attacker wins, for A attacking armies against D defending
# armies, to three decimals. Osborne counts the armies that may roll (the one left behind is not
# counted), so his A is a territory of A + 1 troops here.
OSBORNE_TABLE_3 = {(1, 1): 0.417, (2, 1): 0.754, (3, 1): 0.916, (1, 2): 0.106, (2, 2): 0.363,
                   (3, 2): 0.656, (5, 5): 0.506}


@pytest.mark.parametrize("armies,defenders", sorted(OSBORNE_TABLE_3))
def test_the_unmodified_attack_is_classic_risk_osborne_2003_table_3(armies, defenders):
    assert round(float(p_take(armies + 1, defenders)), 3) == OSBORNE_TABLE_3[armies, defenders]


def test_the_smallest_attacks_by_hand():
    # 2 troops against 1: one die each, the attacker must roll higher: 15 of the 36 rolls
    assert p_take(2, 1) == Fraction(15, 36)
    # 3 against 1: two dice against one win 125 of 216 rolls (6^3 - sum over d of d^2 ... counted
    # below); a lost roll leaves 2 against 1
    two_beat_one = sum(max(a, b) > d for a, b, d in itertools.product(range(1, 7), repeat=3))
    assert two_beat_one == 125
    assert p_take(3, 1) == Fraction(125, 216) + Fraction(91, 216) * Fraction(15, 36)
    # 2 against 2: one die against two; a win leaves 2 against 1
    one_beats_two = sum(a > max(d, e) for a, d, e in itertools.product(range(1, 7), repeat=3))
    assert p_take(2, 2) == Fraction(one_beats_two, 216) * Fraction(15, 36)


def test_ten_troops_against_ten_is_the_published_calculator_value():
    # 10 troops in the attacking territory (9 may attack) against 10: 0.47993525647768026 from the
    # recreationalmath.com Risk calculator, as quoted on MATLAB Cody Problem 1260 ("RISK Board Game
    # Battle Simulation"), whose convention is the territory's troops, one staying behind.
    assert float(p_take(10, 10)) == pytest.approx(0.47993525647768026, abs=1e-15)
    assert attack_odds(Battle(10, 10)).attacker_wins == pytest.approx(0.47993525647768026, abs=1e-12)


def test_one_roll_three_dice_against_two_is_the_classic_table():
    table = {(a_lost, d_lost): p for p, a_lost, d_lost, *_ in roll_outcomes(3, 2)}
    assert {k: p * 7776 for k, p in table.items()} == {(2, 0): 2275, (1, 1): 2611, (0, 2): 2890}


@pytest.mark.parametrize("att,dfn", list(itertools.product((1, 2, 3), (1, 2))))
def test_every_unmodified_roll_is_the_shared_classic_dice_table(att, dfn):
    ours = {(a, d): p for p, a, d, *_ in roll_outcomes(att, dfn)}
    assert ours == {(a, d): p for a, d, p in roll_odds(att, dfn).losses}


# --- a reference written from the rulebook text -------------------------------------------------

def ref_final(natural, changes):
    """"Modifying Die Rolls": a modifier changes the higher, the lower or each die of the natural
    roll (of equal dice the first recorded), changes add up, then 1..6, then sorted again."""
    order = sorted(range(len(natural)), key=lambda i: (-natural[i], i))
    delta = [0] * len(natural)
    for die, by in changes:
        for i in {"higher": [order[0]], "lower": [order[-1]], "each": range(len(natural))}[die]:
            delta[i] += by
    return sorted((min(6, max(1, v + dv)) for v, dv in zip(natural, delta)), reverse=True)


@lru_cache(maxsize=None)
def ref_take(a, d, att_changes, def_changes, boxes, triple, double):
    """P(take) written from the rules: every natural roll of min(3, a-1) against min(2, d) dice;
    a fortification (+1 each) until `boxes` rolls of 3 dice have marked it (-1: never); the
    Enclave's natural three of a kind that kills a defender takes the territory; Die Mechaniker's
    natural 6-6 with troops left ends the attack."""
    if d == 0:
        return Fraction(1)
    if a <= 1:
        return Fraction(0)
    na, nd = min(3, a - 1), min(2, d)
    changes = def_changes + ((("each", 1),) if boxes else ())
    after = boxes - 1 if boxes > 0 and na == 3 else boxes
    ways: dict = {}
    for att in itertools.product(range(1, 7), repeat=na):
        fa = ref_final(att, att_changes)
        for dfn in itertools.product(range(1, 7), repeat=nd):
            fd = ref_final(dfn, changes)
            lost_a = sum(x <= y for x, y in zip(fa, fd))
            lost_d = min(na, nd) - lost_a
            if triple and na == 3 and len(set(att)) == 1 and lost_d >= 1:
                key = (a - lost_a, 0)
            elif double and dfn == (6, 6) and d - lost_d > 0:
                key = None
            else:
                key = (a - lost_a, d - lost_d)
            ways[key] = ways.get(key, 0) + 1
    total = 6 ** (na + nd)
    return sum((Fraction(n, total) * ref_take(*key, att_changes, def_changes, after, triple, double)
                for key, n in ways.items() if key is not None), Fraction(0))


CASES = [
    dict(),
    dict(defender_modifiers=(BUNKER,)),
    dict(defender_modifiers=(AMMO,)),
    dict(defender_modifiers=(FIRST_STRIKE,)),
    dict(defender_modifiers=(BUNKER, FIRST_STRIKE)),
    dict(fortification=10),
    dict(fortification=1),
    dict(fortification=NEVER_WEARS, defender_modifiers=(AMMO,)),
    dict(attacker_modifiers=(Modifier("higher", +1, "a sealed pack's power"),)),
    dict(three_of_a_kind=True),
    dict(double_sixes=True, fortification=2),
]


@pytest.mark.parametrize("kw", CASES, ids=lambda kw: ",".join(f"{k}" for k in kw) or "plain")
def test_the_odds_agree_exactly_with_the_rulebook_reference(kw):
    for a, d in itertools.product(range(2, 7), range(1, 4)):
        ref = ref_take(a, d, tuple((m.die, m.delta) for m in kw.get("attacker_modifiers", ())),
                       tuple((m.die, m.delta) for m in kw.get("defender_modifiers", ())),
                       kw.get("fortification", 0), kw.get("three_of_a_kind", False),
                       kw.get("double_sixes", False))
        assert p_take(a, d, **kw) == ref, (a, d)


# --- each modifier by hand ----------------------------------------------------------------------

def test_RL_SCAR_BUNKER_two_against_one():
    # the defender's one die is its higher: the attacker must beat min(d + 1, 6): 4+3+2+1+0+0 of 36
    assert p_take(2, 1, defender_modifiers=(BUNKER,)) == Fraction(10, 36)


def test_RL_SCAR_AMMO_SHORTAGE_two_against_one():
    # the attacker must beat max(d - 1, 1): 5+5+4+3+2+1 of 36
    assert p_take(2, 1, defender_modifiers=(AMMO,)) == Fraction(20, 36)


def test_RL_POWER_BEAR_FIRST_STRIKE_a_single_die_is_the_lower():
    # RL-RULING-BEAR-ONE-DIE: one defender die takes the -1, as Ammo Shortage's would
    assert p_take(2, 1, defender_modifiers=(FIRST_STRIKE,)) == Fraction(20, 36)


def test_RL_FORTIFICATION_plus_one_on_both_dice_and_wear_by_three_dice_rolls():
    assert p_take(2, 1, fortification=10) == Fraction(10, 36)
    # 4 troops against 1 with one box left: the first roll (3 dice) still has the +1 and marks
    # the last box; after a lost roll, 3 against 1 is unmodified
    three_beat = Fraction(sum(max(x) > min(d + 1, 6) for *x, d in itertools.product(range(1, 7), repeat=4)), 1296)
    assert p_take(4, 1, fortification=1) == three_beat + (1 - three_beat) * p_take(3, 1)
    # a fortification that never wears (Die Mechaniker's HQ) keeps it: 2 dice, then 1
    two_beat = Fraction(sum(max(x) > min(d + 1, 6) for *x, d in itertools.product(range(1, 7), repeat=3)), 216)
    assert p_take(4, 1, fortification=NEVER_WEARS) == \
        three_beat + (1 - three_beat) * (two_beat + (1 - two_beat) * Fraction(10, 36))
    # rolls of fewer than 3 dice mark nothing
    assert p_take(3, 2, fortification=1) == p_take(3, 2, fortification=NEVER_WEARS)
    assert p_take(4, 1, fortification=10) == p_take(4, 1, fortification=NEVER_WEARS)


def test_the_modifiers_move_the_odds_the_way_they_should():
    for a, d in itertools.product(range(2, 12), range(1, 8)):
        plain = attack_odds(Battle(a, d)).attacker_wins
        assert attack_odds(Battle(a, d, (BUNKER,))).attacker_wins <= plain + 1e-12
        assert attack_odds(Battle(a, d, fortification=10)).attacker_wins <= plain + 1e-12
        assert attack_odds(Battle(a, d, (AMMO,))).attacker_wins >= plain - 1e-12
        assert attack_odds(Battle(a, d, (FIRST_STRIKE,))).attacker_wins >= plain - 1e-12
        assert attack_odds(Battle(a + 1, d)).attacker_wins >= plain - 1e-12


def test_RL_POWER_MECH_DOUBLE_SIXES_ends_the_attack():
    # 3 against 2: two dice against two; a natural 6-6 wins both comparisons anyway (ties), so the
    # power changes how the attack ends (immune) but not who takes it; no later roll has 2
    # defender dice against an attacker who can still attack, but the first
    o = attack_odds(Battle(3, 2, double_sixes=True), exact=True)
    assert o.ended(IMMUNE) == Fraction(1, 36)
    assert o.attacker_wins == p_take(3, 2)
    # with more troops the attack can go on after a 6-6, and the power takes that away
    assert p_take(6, 2, double_sixes=True) < p_take(6, 2)


def test_RL_POWER_BEAR_THREE_OF_A_KIND_takes_the_territory_outright():
    # 4 against 5: a natural three of a kind that kills a defender ends it at once
    o = attack_odds(Battle(4, 5, three_of_a_kind=True), exact=True)
    assert o.attacker_wins > p_take(4, 5)
    # the first roll alone: a triple of x kills a defender unless the defender's higher die is >= x
    first = Fraction(sum(max(d, e) < x for x, d, e in itertools.product(range(1, 7), repeat=3)), 6 ** 5)
    assert first == Fraction(55, 7776)
    taken_at_once = sum(p for a, d, how, p in o.outcomes if how == TAKEN and a == 4)
    assert taken_at_once >= first


# --- the Missile policy -------------------------------------------------------------------------

def test_RL_MISSILE_the_rulebooks_example():
    # "Khan Industries is about to lose two troops ... plays a Missile, changing one attack die to
    # a 6, changing the results of the battle to one casualty each. Imperial Balkania ... plays a
    # Missile, changing one defender die to a six. ... Khan Industries will lose both."
    assert fire_missiles([3, 2], [5, 4], 1, 0) == (1, 1, 1, 0)
    assert fire_missiles([3, 2], [5, 4], 1, 1) == (2, 0, 1, 1)
    # with a second Missile the attacker answers: its 3 becomes a 6 too, one casualty each
    assert fire_missiles([3, 2], [5, 4], 2, 1) == (1, 1, 2, 1)
    # a Missile that saves nothing is kept: 6 against a 6 still loses
    assert fire_missiles([5, 4, 2], [6, 3], 3, 0) == (1, 1, 0, 0)


def test_RL_MISSILE_two_against_one_with_one_missile():
    o = attack_odds(Battle(2, 1), Policy(attacker_missiles=1), exact=True)
    # the attacker's lost die becomes a 6 and wins unless the defender rolled a 6
    assert o.attacker_wins == Fraction(30, 36)
    assert o.missiles_fired == (Fraction(15, 36), 0)      # the rolls lost to a defender's 1-5


def test_RL_MISSILE_the_defender_answers_last():
    # the defender fires whenever the attacker would win; a 6 against the attacker's 6 holds
    o = attack_odds(Battle(2, 1), Policy(attacker_missiles=1, defender_missiles=1), exact=True)
    assert o.attacker_wins == 0
    assert o.missiles_fired == (Fraction(15, 36), Fraction(30, 36))
    assert p_take(2, 1, policy=Policy(defender_missiles=1)) == 0


def test_missiles_only_help_their_side():
    for a, d in itertools.product(range(2, 9), range(1, 6)):
        plain = attack_odds(Battle(a, d)).attacker_wins
        assert attack_odds(Battle(a, d), Policy(attacker_missiles=2)).attacker_wins >= plain - 1e-12
        assert attack_odds(Battle(a, d), Policy(defender_missiles=2)).attacker_wins <= plain + 1e-12


# --- stopping, and the chain's bookkeeping ------------------------------------------------------

def test_the_attacker_may_stop_early():
    # 3 against 1, stopping at 2 troops: only the first roll (2 dice against 1) may take it
    o = attack_odds(Battle(3, 1), Policy(stop_at=2), exact=True)
    assert o.attacker_wins == Fraction(125, 216)
    assert o.ended(STOPPED) == Fraction(91, 216) and o.attacker_left == {2: Fraction(91, 216), 3: Fraction(125, 216)}
    # stopping at 4: a roll of 3 dice loses at most 2, so a stopped attack has 3 or 4 troops left
    big = attack_odds(Battle(12, 6), Policy(stop_at=4))
    assert {a for a, d, how, p in big.outcomes if how == STOPPED} == {3, 4}
    assert big.attacker_wins < attack_odds(Battle(12, 6)).attacker_wins


@pytest.mark.parametrize("battle,policy", [
    (Battle(9, 6, (BUNKER,), fortification=3), Policy(attacker_missiles=2, defender_missiles=1)),
    (Battle(7, 5, (FIRST_STRIKE,), three_of_a_kind=True), Policy(stop_at=3)),
    (Battle(8, 4, double_sixes=True, fortification=NEVER_WEARS), Policy(defender_missiles=2)),
])
def test_outcomes_add_up_and_forward_meets_backward(battle, policy):
    o = attack_odds(battle, policy, exact=True)
    assert sum(p for *_, p in o.outcomes) == 1
    assert o.attacker_wins + o.defender_holds == 1
    assert sum(o.ended(how) for how in (TAKEN, STOPPED, IMMUNE)) == 1
    assert o.expected_attacker_losses == battle.attacker - sum(n * p for n, p in o.attacker_left.items())
    assert o.expected_defender_losses == battle.defender - sum(n * p for n, p in o.defender_left.items())
    assert all(d == 0 for a, d, how, p in o.outcomes if how == TAKEN)
    # the chance computed backwards, state by state, is the forward chain's
    assert take_chance(battle, policy, exact=True) == o.attacker_wins
    assert attack_odds(battle, policy).attacker_wins == pytest.approx(float(o.attacker_wins), abs=1e-12)


def test_bad_battles_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="one stays"):
        Battle(1, 3)
    with pytest.raises(ValueError, match="at least 1 troop"):
        Battle(4, 0)
    with pytest.raises(ValueError, match="boxes"):
        Battle(4, 2, fortification=11)
    with pytest.raises(ValueError, match="higher, lower, each"):
        Battle(4, 2, (Modifier("middle", 1, "?"),))
    with pytest.raises(ValueError):
        Policy(stop_at=0)


# --- the luck of a roll -------------------------------------------------------------------------

def test_a_rolls_luck_averages_to_zero_and_tells_what_the_dice_did():
    battle = Battle(7, 4, (BUNKER,), fortification=2)
    lucks = [roll_luck(battle, att, dfn) for att in itertools.product(range(1, 7), repeat=3)
             for dfn in itertools.product(range(1, 7), repeat=2)]
    assert abs(sum(r.luck for r in lucks)) / len(lucks) < 1e-12
    # rolling all the dice, the mean chance after the roll is the chance before it
    assert all(r.expected == pytest.approx(r.before, abs=1e-12) for r in lucks)
    assert {round(r.before, 12) for r in lucks} == {round(float(take_chance(battle)), 12)}
    best = roll_luck(battle, (6, 6, 5), (1, 1))
    assert best.luck > 0 and best.after == pytest.approx(float(take_chance(Battle(7, 2, (BUNKER,), fortification=1))))
    # fewer dice than allowed: the expectation is that of the dice rolled (rolling fewer lowers
    # it: a choice, not luck); more dice than the rules allow: no luck
    fewer = roll_luck(battle, (6, 6), (1, 1))
    assert fewer.expected < fewer.before and fewer.luck == pytest.approx(fewer.after - fewer.expected)
    assert roll_luck(Battle(3, 2), (6, 6, 6), (1, 1)) is None


# --- the text the CLI reads ---------------------------------------------------------------------

def test_parse_attack_reads_marks_powers_missiles_and_modifiers():
    battle, am, dm = parse_attack("8 with 2 missiles vs 5 fortified (3 boxes left) ammo-shortage")
    assert (battle.attacker, battle.defender, battle.fortification, am, dm) == (8, 5, 3, 2, 0)
    assert [(m.die, m.delta) for m in battle.defender_modifiers] == [("higher", -1)]
    battle, *_ = parse_attack("12 three of a kind first strike vs 6 Bunker double_sixes hq 1 missile")
    assert battle.three_of_a_kind and battle.double_sixes and battle.fortification == NEVER_WEARS
    assert {m.source for m in battle.defender_modifiers} == {"bunker", FIRST_STRIKE.source}
    battle, *_ = parse_attack("5 +1 higher vs 3 -1 each die")
    assert battle.attacker_modifiers[0][:2] == ("higher", 1) and battle.defender_modifiers[0][:2] == ("each", -1)
    assert odds_of("10 vs 6 bunker").attacker_wins == attack_odds(Battle(10, 6, (BUNKER,))).attacker_wins
    assert odds_of("4 vs 2 --stop 3 --exact").attacker_wins == p_take(4, 2, policy=Policy(stop_at=3))


@pytest.mark.parametrize("text,why", [
    ("10 6", "one 'vs'"), ("10 vs", "defender's troops are missing"), ("10 bunker vs 6", "after 'vs'"),
    ("10 vs 6 bunker ammo shortage", "one scar at most"), ("10 vs 6 wizards", "cannot read 'wizards'"),
    ("10 vs 6 3 boxes", "Fortification"), ("10 vs 6 fortified 12 boxes", "1-10 boxes"),
    ("10 vs 6 +1", "names the die"), ("1 vs 3", "one stays behind"), ("10 vs 6 --stop", "--stop needs"),
    ("10 vs 6 --castle", "unknown option"), ("10 vs 6 first strike", "attacker's power"),
    ("10 vs 6 7", "given twice"), ("400 vs 6", "at most"),
    ("300 with 30 missiles vs 300 with 30 missiles", "states"),
])
def test_unreadable_attacks_say_why(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        odds_of(text)


def test_cli_odds_for_risk_legacy_text_and_json():
    r = runner.invoke(app, ["odds", "--ruleset", "risk-legacy", "2 vs 1", "--exact"])
    assert r.exit_code == 0, r.output
    assert "attacker takes the territory  0.4167  (5/12)" in r.output
    assert "policy: both sides roll all the dice they may" in r.output
    r = runner.invoke(app, ["odds", "--ruleset", "risk-legacy", "4 vs 2 bunker", "--json"])
    out = json.loads(r.output)
    assert out["attacker_wins"] == pytest.approx(float(p_take(4, 2, defender_modifiers=(BUNKER,))))
    assert out["defender_modifiers"] == [{"die": "higher", "delta": 1, "source": "bunker"}]
    assert sum(out["attacker_left"].values()) == pytest.approx(1)


def test_cli_odds_exits_2_and_points_to_the_ruleset_that_reads_the_battle():
    r = runner.invoke(app, ["odds", "--ruleset", "risk-legacy", "10 vs 6 wizards"])
    assert r.exit_code == 2 and "cannot read 'wizards'" in r.output
    r = runner.invoke(app, ["odds", "10 vs 6"])          # the default ruleset counts units
    assert r.exit_code == 2 and "--ruleset risk-legacy" in r.output


def test_cli_odds_help_shows_every_rulesets_examples():
    r = runner.invoke(app, ["odds", "--help"])
    assert r.exit_code == 0
    text = " ".join(r.output.split())           # the help is wrapped to the terminal
    with_odds = [rs for rs in rulesets() if rs.odds is not None]
    assert len(with_odds) >= 2
    for rs in with_odds:
        assert rs.odds.examples and rs.title in text
        for example in rs.odds.examples:
            assert example in text
    assert "Example: ledger odds --ruleset risk-legacy" in text


def test_every_cli_example_runs():
    for n, rs in enumerate(rs for rs in rulesets() if rs.odds is not None):
        for example in rs.odds.examples:
            args = ([] if n == 0 else ["--ruleset", rs.name]) + [w.strip('"') for w in re.findall(r'"[^"]*"|\S+', example)]
            r = runner.invoke(app, ["odds", *args])
            assert r.exit_code == 0, (example, r.output)


# --- the docs -----------------------------------------------------------------------------------

def test_the_risk_legacy_worked_examples_in_docs_odds_md_are_what_ledger_odds_computes():
    doc = (ROOT / "docs" / "odds.md").read_text("utf-8")
    section = doc[doc.index("## Risk Legacy"):]
    rows = re.findall(r"^\| `([^`]+)` \| `?([^|`]*)`? \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", section, re.M)
    assert len(rows) >= 8
    for attack, options, *numbers in rows:
        args = ["odds", "--ruleset", "risk-legacy", attack, *("" if options == "default" else options).split(), "--json"]
        r = runner.invoke(app, args)
        assert r.exit_code == 0, r.output
        o = json.loads(r.output)
        assert numbers == [f"{o['attacker_wins']:.4f}", f"{o['expected_losses']['attacker']:.2f}",
                           f"{o['expected_losses']['defender']:.2f}",
                           f"{sum(int(n) * p for n, p in o['attacker_left'].items()):.2f}"], attack


# --- the luck of whole attacks in the analytics fold --------------------------------------------

@pytest.fixture(scope="module")
def games():
    return {n: extract_rows(read_log(LEGACY / f"game-0{n}.jsonl")) for n in range(1, 6)}


SCARS = {None: (), "bunker +1 higher": (BUNKER,), "ammo shortage -1 higher": (AMMO,)}


def test_an_attacks_luck_is_its_outcome_minus_its_odds(games):
    """For every attack fought as the policy fights it (all dice, no Missile, one scar or none all
    along), battle_luck is the chance it ended with minus the chance it started with, computed
    here with the forward chain: (1 if taken, 0 if down to 1 troop) - P(take), or, stopped early,
    P(take) where it stopped - P(take) at the start."""
    checked = fought_out = 0
    total_fold = total_here = 0.0
    for n, g in games.items():
        powers = {r["player"]: r["power"] for r in g.frame("legacy_outcomes").iter_rows(named=True)}
        battles = g.frame("legacy_battles")
        assert battles["battle_luck"].drop_nulls().len() == battles["battle_seq"].n_unique()
        for (seq,), rows in battles.group_by(["battle_seq"], maintain_order=True):
            rows = rows.sort("seq")
            first, last = rows.row(0, named=True), rows.row(-1, named=True)
            assert rows["battle_luck"].null_count() == rows.height - 1 and last["battle_luck"] is not None
            assert last["battle_luck"] == pytest.approx(rows["take_luck"].sum(), abs=1e-12)
            policy_like = (rows["missiles"].sum() == 0 and rows["modifiers"].n_unique() == 1
                           and first["modifiers"] in SCARS and all(
                               r["attacker_dice"] == min(3, r["attacker_troops"] - 1)
                               and r["defender_dice"] == min(2, r["defender_troops"])
                               for r in rows.iter_rows(named=True)))
            if not policy_like:
                continue
            kw = dict(defender_modifiers=SCARS[first["modifiers"]],
                      three_of_a_kind=powers[first["attacker"]] == "bear-three-of-a-kind",
                      double_sixes=powers[first["defender"]] == "mech-double-sixes")
            start = attack_odds(Battle(first["attacker_troops"], first["defender_troops"], **kw)).attacker_wins
            a_end = last["attacker_troops"] - last["attacker_lost"]
            d_end = last["defender_troops"] - last["defender_lost"]
            if last["conquered"]:
                end = 1.0
            elif a_end <= 1 or last["power_effect"]:
                end = 0.0
            else:
                end = attack_odds(Battle(a_end, d_end, **kw)).attacker_wins
            fought_out += end in (0.0, 1.0)
            assert last["battle_luck"] == pytest.approx(end - start, abs=1e-9), (n, seq)
            total_fold += last["battle_luck"]
            total_here += end - start
            checked += 1
    assert checked >= 100 and fought_out >= 60
    assert total_fold == pytest.approx(total_here, abs=1e-9)


def test_the_rows_of_an_attack_share_its_first_declaration_and_its_chances(games):
    for g in games.values():
        b = g.frame("legacy_battles").sort("seq")
        seqs = b["seq"].to_list()
        for battle_seq, rows in b.group_by("battle_seq", maintain_order=True):
            # an attack's rolls are consecutive rows, from one territory on one territory
            idx = [seqs.index(s) for s in rows["seq"]]
            assert idx == list(range(idx[0], idx[0] + len(idx)))
            assert rows["seq"].min() == battle_seq[0]
            assert rows.select("attacker", "from_territory", "territory").unique().height == 1
        # p_take is the chance before each roll; its luck is the chance after minus the mean
        assert b.select(pl.col("p_take").is_between(0, 1).all()).item()
        assert b["take_luck"].null_count() == 0
