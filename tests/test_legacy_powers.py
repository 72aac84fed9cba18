"""The ten starting powers (Faction cards; texts paraphrased in rules_data.json): each with the
power and without it."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.common import roll_result
from engine.risk_legacy.state import START, Terr
from tests.test_legacy_helpers import (
    board, ev, fold, held, placed, rules_of, turn_of, with_board, with_powers,
)


def attack(frm, to, n, actor="ann"):
    return ev("AttackDeclared", actor, from_=frm, to=to, troops=n)


def roll(att, dfn, attacker="ann", defender="bob"):
    return ev("DiceRolled", None, rolls={attacker: att, defender: dfn})


def removed(a, d):
    return ev("CasualtiesRemoved", None, attacker=a, defender=d)


# --- Die Mechaniker (bob, HQ in China) ------------------------------------------------------------

def mech_hq(power=None):
    s = turn_of(with_board(placed(), {"india": held("ann", 8)}), "ann")
    return with_powers(s, die_mechaniker=power) if power else s


def test_RL_POWER_MECH_FORTIFIED_HQ_their_starting_hq_defends_as_fortified():
    s = fold(mech_hq("mech-fortified-hq"), attack("india", "china", 3), roll([5, 4, 1], [4, 3]))
    assert roll_result(s, s.combat)[1] == [5, 4]
    s = fold(s, removed(2, 0))
    assert board(s, "china").troops == 8


def test_RL_POWER_MECH_FORTIFIED_HQ_without_wear_and_not_without_the_power():
    s = fold(mech_hq("mech-fortified-hq"), attack("india", "china", 3), roll([5, 4, 1], [4, 3]), removed(2, 0))
    assert W.marks(s.world, "china").fortification is None
    plain = fold(mech_hq(), attack("india", "china", 3), roll([5, 4, 1], [4, 3]))
    assert roll_result(plain, plain.combat)[1] == [4, 3]


def test_RL_POWER_MECH_FORTIFIED_HQ_not_when_someone_else_holds_it():
    s = with_board(placed(), {"china": held("ann", 3, "die_mechaniker"), "mongolia": held("bob", 5)})
    s = with_powers(turn_of(s, "bob"), die_mechaniker="mech-fortified-hq")
    s = fold(s, attack("mongolia", "china", 3, actor="bob"), roll([5, 4, 1], [4, 3], attacker="bob", defender="ann"))
    assert roll_result(s, s.combat)[1] == [4, 3]


def test_RL_POWER_MECH_DOUBLE_SIXES_two_natural_sixes_make_the_territory_immune():
    s = fold(mech_hq("mech-double-sixes"), attack("india", "china", 3), roll([1, 1, 1], [6, 6]), removed(2, 0))
    assert "china" in s.flow.immune
    assert rules_of(s, attack("india", "china", 3)) == ["RL-POWER-MECH-DOUBLE-SIXES"]


def test_RL_POWER_MECH_DOUBLE_SIXES_not_without_the_power():
    s = fold(mech_hq(), attack("india", "china", 3), roll([1, 1, 1], [6, 6]), removed(2, 0))
    assert rules_of(s, attack("india", "china", 3)) == []


# --- Enclave of the Bear (ann, HQ in Brazil) ------------------------------------------------------

def bear(power=None):
    s = turn_of(with_board(placed(), {"peru": held("bob", 3), "venezuela": held("bob", 3)}), "ann")
    return with_powers(s, enclave_of_the_bear=power) if power else s


def test_RL_POWER_BEAR_FIRST_STRIKE_the_first_territory_attacked_loses_one_on_the_lower_die():
    s = fold(bear("bear-first-strike"), attack("brazil", "peru", 3), roll([4, 3, 1], [5, 3]))
    assert roll_result(s, s.combat)[1] == [5, 2]
    s = fold(s, removed(1, 1), attack("brazil", "peru", 3), roll([4, 3, 1], [5, 3]))
    assert roll_result(s, s.combat)[1] == [5, 2]                      # still the first territory


def test_RL_POWER_BEAR_FIRST_STRIKE_only_the_first_territory():
    s = fold(bear("bear-first-strike"), attack("brazil", "peru", 1), roll([1], [6]), removed(1, 0),
             attack("brazil", "venezuela", 3), roll([4, 3, 1], [5, 3]))
    assert roll_result(s, s.combat)[1] == [5, 3]
    plain = fold(bear(), attack("brazil", "peru", 3), roll([4, 3, 1], [5, 3]))
    assert roll_result(plain, plain.combat)[1] == [5, 3]


def test_RL_POWER_BEAR_THREE_OF_A_KIND_conquers_outright():
    s = fold(bear("bear-three-of-a-kind"), attack("brazil", "peru", 3), roll([4, 4, 4], [5, 3]), removed(1, 1))
    assert board(s, "peru").troops == 0 and s.combat.stage == "conquered"


def test_RL_POWER_BEAR_THREE_OF_A_KIND_needs_a_defender_defeated_and_the_power():
    s = fold(bear("bear-three-of-a-kind"), attack("brazil", "peru", 3), roll([4, 4, 4], [5, 5]), removed(2, 0))
    assert board(s, "peru").troops == 3
    plain = fold(bear(), attack("brazil", "peru", 3), roll([4, 4, 4], [5, 3]), removed(1, 1))
    assert board(plain, "peru").troops == 2


# --- Imperial Balkania (cat, HQ in Western United States) -----------------------------------------

def balk(power=None, territories=4):
    s = placed()
    extra = ["alberta", "alaska", "ontario", "northwest_territory", "eastern_united_states"][:territories - 1]
    s = with_board(s, {t: held("cat", 1) for t in extra})
    s = turn_of(s, "cat", step=START, recruited=False)
    return with_powers(s, imperial_balkania=power) if power else s


def test_RL_POWER_BALK_ROUND_UP_rounds_up():
    s = balk("balk-round-up", territories=6)       # and 4 more: 10 territories, 10 / 3 rounded up is 4
    s = with_board(s, {t: held("cat", 1) for t in ["greenland", "eastern_canada", "scandinavia", "iceland"]})
    assert rules_of(s, ev("Recruited", "cat", placements={"western_united_states": 4})) == []


def test_RL_POWER_BALK_ROUND_UP_not_without_the_power():
    s = balk(territories=6)
    s = with_board(s, {t: held("cat", 1) for t in ["greenland", "eastern_canada", "scandinavia", "iceland"]})
    assert rules_of(s, ev("Recruited", "cat", placements={"western_united_states": 3})) == []


def expanded4(power=None):
    s = turn_of(placed(), "cat", expanded=4)
    return with_powers(s, imperial_balkania=power) if power else s


def test_RL_POWER_BALK_EXPANSION_CARD_four_expansions_earn_a_card():
    assert rules_of(expanded4("balk-expansion-card"), ev("CardDrawn", "cat", card="coin")) == []


def test_RL_POWER_BALK_EXPANSION_CARD_not_three_and_not_without_the_power():
    s = turn_of(with_powers(placed(), imperial_balkania="balk-expansion-card"), "cat", expanded=3)
    assert rules_of(s, ev("CardDrawn", "cat", card="coin")) == ["RL-DRAW-ELIGIBLE"]
    assert rules_of(expanded4(), ev("CardDrawn", "cat", card="coin")) == ["RL-DRAW-ELIGIBLE"]


# --- Khan Industries -------------------------------------------------------------------------------

def khan_placed(power=None):
    starts = {"ann": ("khan_industries", "brazil"), "bob": ("die_mechaniker", "china"),
              "cat": ("imperial_balkania", "western_united_states")}
    s = placed(starts=starts)
    return with_powers(s, khan_industries=power) if power else s


def test_RL_POWER_KHAN_HQ_REINFORCEMENT_a_troop_on_each_hq_at_the_start_of_the_turn():
    s = khan_placed("khan-hq-reinforcement")
    s = with_board(s, {"china": held("ann", 2, "die_mechaniker")})
    s = turn_of(s, "cat")
    s = fold(s, ev("TurnEnded", "cat"))
    assert s.flow.current == "ann"
    assert board(s, "brazil").troops == 9 and board(s, "china").troops == 3


def test_RL_POWER_KHAN_HQ_REINFORCEMENT_not_without_the_power():
    s = turn_of(khan_placed(), "cat")
    s = fold(s, ev("TurnEnded", "cat"))
    assert board(s, "brazil").troops == 8


def test_RL_POWER_KHAN_CARD_TROOP_a_troop_with_the_card_of_a_territory_they_control():
    s = with_board(khan_placed("khan-card-troop"), {"central_america": held("ann", 1)})
    s = turn_of(s, "ann", conquered=1)
    s = fold(s, ev("CardDrawn", "ann", card="A3", troop=True))
    assert board(s, "central_america").troops == 2


def test_RL_POWER_KHAN_CARD_TROOP_not_without_the_power_nor_with_a_coin():
    s = turn_of(with_board(khan_placed(), {"central_america": held("ann", 1)}), "ann", conquered=1)
    assert rules_of(s, ev("CardDrawn", "ann", card="A3", troop=True)) == ["RL-POWER-KHAN-CARD-TROOP"]
    s = turn_of(khan_placed("khan-card-troop"), "ann", conquered=1)
    vs, nxt = RULESET.step(s, ev("CardDrawn", "ann", card="coin", troop=True))
    assert [v.rule for v in vs] == ["RL-POWER-KHAN-CARD-TROOP"] and nxt is None


# --- The Saharan Republic ------------------------------------------------------------------------

def sahara(power=None, **flow):
    starts = {"ann": ("saharan_republic", "brazil"), "bob": ("die_mechaniker", "china"),
              "cat": ("imperial_balkania", "western_united_states")}
    s = with_board(placed(starts=starts), {"peru": held("ann", 1), "egypt": held("ann", 1),
                                           "argentina": held("bob", 2)})
    s = turn_of(s, "ann", **flow)
    return with_powers(s, saharan_republic=power) if power else s


def test_RL_POWER_SAHARA_MANEUVER_ANYTIME_before_attacking():
    s = fold(sahara("sahara-maneuver-anytime"), ev("Maneuvered", "ann", from_="brazil", to="peru", troops=2))
    assert rules_of(s, attack("brazil", "argentina", 3)) == []


def test_RL_POWER_SAHARA_MANEUVER_ANYTIME_not_without_the_power():
    s = fold(sahara(), ev("Maneuvered", "ann", from_="brazil", to="peru", troops=2))
    assert rules_of(s, attack("brazil", "argentina", 3)) == ["RL-TURN-STEPS"]


def test_RL_POWER_SAHARA_MANEUVER_ANYWHERE_between_unconnected_territories():
    assert rules_of(sahara("sahara-maneuver-anywhere"), ev("Maneuvered", "ann", from_="brazil", to="egypt",
                                                           troops=2)) == []


def test_RL_POWER_SAHARA_MANEUVER_ANYWHERE_not_without_the_power():
    assert rules_of(sahara(), ev("Maneuvered", "ann", from_="brazil", to="egypt", troops=2)) == ["RL-MANEUVER-PATH"]


def test_every_faction_has_its_two_powers():
    from engine.risk_legacy.board import POWER_IDS
    from engine.risk_legacy.rules import RULES
    ids = {r.id for r in RULES}
    for powers in POWER_IDS.values():
        for p in powers:
            assert "RL-POWER-" + p.upper() in ids
    assert sum(len(v) for v in POWER_IDS.values()) == 10
    assert Terr("x", 1).is_occupied
