"""The rulebook's worked examples, played through the engine exactly as printed (the dice the
pictures show are not in the text; the ones used here give the outcomes the text states)."""

from __future__ import annotations

from engine.risk_legacy import world as W
from engine.risk_legacy.combat import Modifier, final_dice
from engine.risk_legacy.common import population_of, recruit_total, roll_result
from engine.risk_legacy.state import START, Terr
from replay.logfile import read_log_text
from ledger.record import LogRecorder
from replay.judge import judge
from tests.test_legacy_helpers import (
    board, ev, fold, held, placed, rules_of, turn_of, with_board, with_world, world,
)

EGYPT = {"ann": ("enclave_of_the_bear", "brazil"), "bob": ("die_mechaniker", "china"),
         "cat": ("imperial_balkania", "western_united_states")}


def egypt_position():
    """Enclave of the Bear (ann) with 4 troops in East Africa; Die Mechaniker (bob) with 3 in Egypt."""
    s = placed(starts=EGYPT)
    s = with_board(s, {"east_africa": held("ann", 4), "egypt": held("bob", 3)})
    return turn_of(s, "ann")


def test_golden_enclave_attacks_egypt_from_east_africa():
    """"Enclave sends in the maximum three troops and Die Mechaniker defends with the maximum two.
    The highest attack die is a 5, as is the highest defense die. The defender wins ties so
    Enclave loses an attacker. The second highest dice are an attacker's 4 and a defender's 3.
    The attacker wins and Die Mechaniker loses a defender.\""""
    s = fold(egypt_position(), ev("AttackDeclared", "ann", from_="east_africa", to="egypt", troops=3),
             ev("DiceRolled", None, rolls={"ann": [5, 4, 2], "bob": [5, 3]}))
    assert roll_result(s, s.combat)[2:] == (1, 1)
    s = fold(s, ev("CasualtiesRemoved", None, attacker=1, defender=1))
    assert board(s, "east_africa").troops == 3 and board(s, "egypt").troops == 2
    # "Enclave of the Bear can only send in two attackers since one must stay behind."
    assert rules_of(s, ev("AttackDeclared", "ann", from_="east_africa", to="egypt", troops=3)) == ["RL-ATTACK-FROM"]
    # "The defender can defend to the last man. Both players roll 2 dice. In this case both the
    # attacker's dice are higher than the defender's dice so Die Mechaniker loses his remaining two."
    s = fold(s, ev("AttackDeclared", "ann", from_="east_africa", to="egypt", troops=2),
             ev("DiceRolled", None, rolls={"ann": [6, 4], "bob": [3, 2]}),
             ev("CasualtiesRemoved", None, attacker=0, defender=2))
    assert board(s, "egypt").troops == 0 and s.combat.stage == "conquered"
    # "Enclave must now move his two attacking troops into the empty territory ... He cannot move
    # in with his last troop as he would be abandoning that territory."
    assert rules_of(s, ev("MovedIn", "ann", troops=1)) == ["RL-CONQUER-MOVE"]
    assert rules_of(s, ev("MovedIn", "ann", troops=3)) == ["RL-CONQUER-MOVE"]
    s = fold(s, ev("MovedIn", "ann", troops=2))
    assert board(s, "egypt") == Terr("ann", 2) and board(s, "east_africa") == Terr("ann", 1)
    assert s.flow.conquered == 1


def siberia_position():
    """Khan Industries (ann) attacks Die Mechaniker (bob) in Siberia; Imperial Balkania (cat) is
    not in the battle. ann and cat have each won a game here: one Missile each."""
    sigs = [W.Signature(game=1, player="ann"), W.Signature(game=2, player="cat")]
    starts = {"ann": ("khan_industries", "brazil"), "bob": ("die_mechaniker", "china"),
              "cat": ("imperial_balkania", "western_united_states")}
    s = placed(w=world(games=2, signatures=sigs), starts=starts)
    s = with_board(s, {"ural": held("ann", 6), "siberia": held("bob", 4)})
    s = turn_of(s, "ann")
    return fold(s, ev("AttackDeclared", "ann", from_="ural", to="siberia", troops=3),
                ev("DiceRolled", None, rolls={"ann": [4, 3, 1], "bob": [5, 4]}))


def test_golden_the_missile_exchange_over_siberia():
    """"While attacking Siberia, Khan Industries is about to lose two troops to Die Mechaniker.
    Desperate for this win, the Khan Industries player plays a Missile, changing one attack die to
    a 6, changing the results of the battle to one casualty each. Imperial Balkania, who is not
    even in the battle, wants the defender to win and plays a Missile, changing one defender die to
    a six. This means that Khan Industries will lose both attacking troops.\""""
    s = siberia_position()
    assert s.players["ann"].missiles == 1 and s.players["cat"].missiles == 1
    assert roll_result(s, s.combat)[2:] == (2, 0)
    s = fold(s, ev("MissileFired", "ann", side="attacker", die=0))
    assert roll_result(s, s.combat)[2:] == (1, 1)
    s = fold(s, ev("MissileFired", "cat", side="defender", die=1))
    assert roll_result(s, s.combat)[:2] == ([6, 3, 1], [6, 5])
    assert roll_result(s, s.combat)[2:] == (2, 0)
    s = fold(s, ev("CasualtiesRemoved", None, attacker=2, defender=0))
    assert board(s, "ural").troops == 4 and board(s, "siberia").troops == 4
    assert s.players["ann"].missiles == 0 and s.players["cat"].missiles == 0


def test_golden_a_missile_after_the_troops_are_removed_is_too_late():
    s = fold(siberia_position(), ev("CasualtiesRemoved", None, attacker=2, defender=0))
    assert rules_of(s, ev("MissileFired", "ann", side="attacker", die=0)) == ["RL-MISSILE-TIMING"]


def test_golden_a_bunker_changes_only_one_of_two_fives():
    """"If you are defending in a territory with a bunker and roll two 5s, only one would change
    to a 6 because of the bunker in your defending territory.\""""
    assert final_dice([5, 5], [Modifier("higher", +1, "bunker")]) == [6, 5]


def test_golden_awesometonia():
    """"You name South America 'Awesometonia'. On this board, Awesometonia gives a bonus of 2 troops
    to anyone who controls it but gives you and you alone a +1 bonus for a total of 3 troops.\""""
    s = placed()
    s = with_board(s, {t: held("ann", 1) for t in ("peru", "venezuela", "argentina")})
    s = with_world(s, W.with_continent(s.world, "south_america", name="Awesometonia", named_by="ann"))
    assert recruit_total(s, "ann") == 3 + 3
    s2 = with_board(s, {t: held("bob", 1) for t in ("peru", "venezuela", "argentina", "brazil")})
    assert recruit_total(s2, "bob") == 3 + 2


def test_golden_three_of_four_in_south_america_is_no_continent():
    """"If you have 3 out of 4 territories in South America and the last one is unoccupied, you do
    not control the continent.\""""
    s = with_board(placed(), {"peru": held("ann", 1), "venezuela": held("ann", 1)})
    assert recruit_total(s, "ann") == 3


def test_golden_one_major_and_two_minor_cities_are_population_four():
    """"If you control 1 Major City and 2 Minor Cities, your population is 4 (2+1+1).\""""
    w = W.with_marks(world(), "peru", city=W.CityMark(kind="major", name="Lima"))
    w = W.with_marks(w, "venezuela", city=W.CityMark(kind="minor", name="Caracas"))
    w = W.with_marks(w, "argentina", city=W.CityMark(kind="minor", name="Rosario"))
    s = with_board(placed(w=w), {t: held("ann", 1) for t in ("peru", "venezuela", "argentina")})
    assert population_of(s, "ann") == 4
    # 4 territories (with Brazil) + 4 population = 8 -> 2, at least 3; South America 2
    assert recruit_total(s, "ann") == 3 + 2


def test_golden_join_the_war_with_half_the_starting_troops():
    """"Take HALF your starting troops and place them in a legal starting territory. You do not get
    another HQ.\""""
    s = with_board(placed(), {"china": held("ann", 2, "die_mechaniker")})
    s = turn_of(s, "bob", step=START, recruited=False)
    s = fold(s, ev("JoinedWar", "bob", territory="madagascar"))
    assert board(s, "madagascar") == Terr("bob", 4)


def test_golden_the_egypt_example_as_a_log_through_the_generic_judge():
    """The same example written as a log: judged clean by replay.judge, with the notes a judge reads."""
    rec = LogRecorder("golden-egypt")
    rec.add("GameStarted", None, ruleset="risk-legacy", players=[{"id": "ann"}, {"id": "bob"}, {"id": "cat"}])
    rec.add("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "bunker", "cat": "ammo_shortage"})
    rec.add("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"])
    rec.add("DiceRolled", None, rolls={"ann": [6], "bob": [2], "cat": [3]})
    rec.add("FactionChosen", "ann", faction="enclave_of_the_bear", territory="East Africa")
    rec.add("FactionChosen", "bob", faction="die_mechaniker", territory="Argentina")
    rec.add("FactionChosen", "cat", faction="imperial_balkania", territory="Alaska")
    rec.add("Recruited", "ann", placements={"East Africa": 3}, troops=3)
    rec.add("Expanded", "ann", from_="East Africa", to="Egypt", troops=4)
    rec.add("TurnEnded", "ann")
    j = judge(read_log_text(rec.text(), "golden-egypt.jsonl"))
    assert j.findings == [] and j.chain_ok
    notes = [n for step in j.steps for n in step.notes]
    assert "ann expands into Egypt with 4" in notes
    assert j.final_state.flow.current == "bob"
