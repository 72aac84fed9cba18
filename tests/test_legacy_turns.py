"""A turn (rulebook: Turn Overview, 1 Start of Turn, 2 Join the War or Recruit Troops, Goal):
the order of turns and of their steps, Red Stars, winning, joining the war, elimination,
recruiting, continents, the trade chart."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.common import stars
from engine.risk_legacy.state import MAIN, START, Terr
from tests.test_legacy_helpers import (
    SEATS, board, ev, fold, held, placed, rules_of, turn_of, with_board, with_player, world,
)


def start_of(player="ann", s=None):
    return turn_of(s or placed(), player, step=START, recruited=False)


def recruit(player, placements, cards=(), troops=None):
    payload = {"placements": placements, "cards": list(cards)}
    if troops is not None:
        payload["troops"] = troops
    return ev("Recruited", player, **payload)


# --- RL-TURN-ORDER, RL-TURN-STEPS, RL-TURN-END ----------------------------------------------------

def test_RL_TURN_ORDER_the_first_chooser_plays_first_then_clockwise():
    s = placed()
    assert s.flow.current == "ann"
    s = fold(s, recruit("ann", {"brazil": 3}), ev("TurnEnded", "ann"))
    assert s.flow.current == "bob"
    s = fold(s, recruit("bob", {"china": 3}), ev("TurnEnded", "bob"), recruit("cat", {"western_united_states": 3}),
             ev("TurnEnded", "cat"))
    assert s.flow.current == "ann" and s.flow.round == 2


def test_RL_TURN_ORDER_only_the_current_player_acts():
    assert rules_of(placed(), recruit("bob", {"china": 3})) == ["RL-TURN-ORDER"]
    s = fold(placed(), recruit("ann", {"brazil": 3}))
    assert rules_of(s, recruit("cat", {"western_united_states": 3})) == ["RL-TURN-ORDER"]


def test_RL_TURN_ORDER_eliminated_players_are_skipped():
    s = with_player(placed(), "bob", eliminated=True)
    s = fold(s, recruit("ann", {"brazil": 3}), ev("TurnEnded", "ann"))
    assert s.flow.current == "cat"


def test_RL_TURN_STEPS_recruit_before_attacking():
    s = start_of()
    s = with_board(s, {"peru": held("bob", 1)})
    assert rules_of(s, ev("AttackDeclared", "ann", from_="brazil", to="peru", troops=3)) == ["RL-RECRUIT-MUST"]


def test_RL_TURN_STEPS_no_expanding_after_the_maneuver():
    s = turn_of(placed(), "ann")
    s = with_board(s, {"venezuela": held("ann", 2)})
    s = fold(s, ev("Maneuvered", "ann", from_="brazil", to="venezuela", troops=2))
    assert rules_of(s, ev("Expanded", "ann", from_="brazil", to="argentina", troops=2)) == ["RL-TURN-STEPS"]


def test_RL_TURN_STEPS_recruiting_after_expanding_is_out_of_order():
    s = start_of()
    s = fold(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=2), allow=("RL-RECRUIT-MUST",))
    assert rules_of(s, recruit("ann", {"brazil": 3})) == []      # reported once, at the expand


def test_RL_TURN_END_ends_the_turn_and_begins_the_next():
    s = fold(placed(), recruit("ann", {"brazil": 3}), ev("TurnEnded", "ann"))
    assert s.flow.current == "bob" and s.flow.step == START and not s.flow.recruited


def test_RL_TURN_END_not_while_an_attack_is_unfinished():
    s = turn_of(with_board(placed(), {"peru": held("bob", 2)}), "ann")
    s = fold(s, ev("AttackDeclared", "ann", from_="brazil", to="peru", troops=3),
             ev("DiceRolled", None, rolls={"ann": [6, 6, 6], "bob": [1, 1]}))
    # the troops removed and the move-in are settled by the rules (one claim each), then the turn ends
    assert rules_of(s, ev("TurnEnded", "ann")) == ["RL-CASUALTIES", "RL-CONQUER-MOVE"]


def test_RL_TURN_END_a_missing_end_is_settled_when_the_next_player_acts():
    s = fold(placed(), recruit("ann", {"brazil": 3}))
    vs, nxt = RULESET.step(s, recruit("bob", {"china": 3}))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-TURN-END", False)]
    assert nxt.flow.current == "bob" and board(nxt, "china").troops == 11


# --- RL-RED-STAR-BUY, RL-STARS, RL-WIN ------------------------------------------------------------

def test_RL_RED_STAR_BUY_four_cards_for_a_red_star():
    s = with_player(start_of(), "ann", hand=("A1", "A2", "A3", "coin"))
    s = fold(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "coin"]))
    assert s.players["ann"].tokens == 2 and s.players["ann"].hand == ()
    assert {"A1", "A2", "A3"} <= s.side.discard and s.side.coins == 11


def test_RL_RED_STAR_BUY_not_three_cards():
    s = with_player(start_of(), "ann", hand=("A1", "A2", "A3"))
    assert rules_of(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3"])) == ["RL-RED-STAR-BUY"]


def test_RL_RED_STAR_BUY_only_at_the_start_of_the_turn():
    s = with_player(turn_of(placed(), "ann"), "ann", hand=("A1", "A2", "A3", "A4"))
    assert rules_of(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"])) == ["RL-RED-STAR-BUY"]


def test_RL_RED_STAR_BUY_twice_with_eight_cards():
    hand = ("A1", "A2", "A3", "A5", "A6", "A7", "A8", "coin")
    s = with_player(start_of(), "ann", hand=hand, tokens=0)
    s = fold(s, ev("RedStarBought", "ann", cards=list(hand[:4])), ev("RedStarBought", "ann", cards=list(hand[4:])))
    assert s.players["ann"].tokens == 2


def test_RL_CARDS_HAND_only_cards_in_hand():
    s = with_player(start_of(), "ann", hand=("A1", "A2", "A3"))
    vs, nxt = RULESET.step(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"]))
    assert [v.rule for v in vs] == ["RL-CARDS-HAND"] and nxt is None
    assert rules_of(s, recruit("ann", {"brazil": 3}, cards=["coin", "coin"])) == ["RL-CARDS-HAND"]


def test_RL_STARS_tokens_plus_hqs_controlled():
    s = placed()
    assert stars(s, "ann") == 2
    s = with_board(s, {"china": held("ann", 3, "die_mechaniker")})
    assert stars(s, "ann") == 3 and stars(s, "bob") == 1


def test_RL_WIN_the_fourth_red_star_wins_at_once():
    s = with_player(start_of(), "ann", hand=("A1", "A2", "A3", "A4"), tokens=2)
    s = fold(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"]))
    assert s.result.winners == ("ann",) and s.result.reason == "4 red stars"
    assert rules_of(s, recruit("ann", {"brazil": 3})) == ["RL-GAME-OVER"]


def test_RL_WIN_the_last_player_not_eliminated_wins():
    s = placed()
    s = with_board(s, {"china": Terr(), "western_united_states": held("ann", 5, "imperial_balkania"),
                       "brazil": held("ann", 40, "enclave_of_the_bear")})
    s = with_player(s, "bob", eliminated=True)
    s = turn_of(s, "ann")
    # every territory is occupied, so cat cannot join the war
    from engine.risk_legacy.state import Terr as T
    terr = {t: (x if x.is_occupied else T("ann", 1)) for t, x in s.terr.items()}
    from dataclasses import replace
    s = fold(replace(s, terr=terr), ev("TurnEnded", "ann"))
    assert s.result.winners == ("ann",) and s.result.reason == "last player standing"


# --- RL-JOIN-WAR, RL-ELIMINATED -------------------------------------------------------------------

def knocked_out(s=None):
    s = s or placed()
    return start_of("bob", with_board(s, {"china": held("ann", 2, "die_mechaniker")}))


def test_RL_JOIN_WAR_four_troops_no_hq():
    s = fold(knocked_out(), ev("JoinedWar", "bob", territory="egypt"))
    assert board(s, "egypt") == Terr("bob", 4, None) and s.flow.step == MAIN


def test_RL_JOIN_WAR_only_a_legal_starting_territory():
    s = with_board(knocked_out(), {"egypt": held("cat", 1)})
    vs, nxt = RULESET.step(s, ev("JoinedWar", "bob", territory="egypt"))
    assert [v.rule for v in vs] == ["RL-JOIN-WAR"] and nxt is None
    s = knocked_out(placed(w=W.with_marks(world(), "egypt", scar="bunker")))
    assert rules_of(s, ev("JoinedWar", "bob", territory="egypt")) == ["RL-JOIN-WAR"]


def test_RL_JOIN_WAR_a_player_without_territory_cannot_recruit():
    assert rules_of(knocked_out(), recruit("bob", {"egypt": 3})) == ["RL-JOIN-WAR"]


def test_RL_JOIN_WAR_must_be_done_before_ending_the_turn():
    assert rules_of(knocked_out(), ev("TurnEnded", "bob")) == ["RL-JOIN-WAR"]


def test_RL_ELIMINATED_no_legal_starting_territory_at_the_start_of_the_turn():
    from dataclasses import replace
    s = turn_of(with_board(placed(), {"china": held("ann", 2, "die_mechaniker")}), "ann")
    terr = {t: (x if x.is_occupied else Terr("cat", 1)) for t, x in s.terr.items()}
    s = fold(replace(s, terr=terr), ev("TurnEnded", "ann"))
    assert s.players["bob"].eliminated and s.flow.current == "cat"
    assert any("eliminated" in n for n in s.notes)
    assert any(p.pack == "pack_2" for p in s.world.packs)


def test_RL_ELIMINATED_players_no_longer_act():
    s = with_player(placed(), "bob", eliminated=True)
    assert rules_of(s, ev("MissileFired", "bob", side="attacker", die=0)) == ["RL-ACTOR"]


# --- RL-RECRUIT-MUST, RL-RECRUIT-COUNT, RL-RECRUIT-PLACE, RL-CONTINENT, RL-TRADE ------------------

def test_RL_RECRUIT_MUST_a_player_with_territory_recruits_not_joins():
    assert rules_of(start_of(), ev("JoinedWar", "ann", territory="egypt")) == ["RL-RECRUIT-MUST"]


def test_RL_RECRUIT_MUST_once_per_turn():
    s = fold(start_of(), recruit("ann", {"brazil": 3}))
    assert rules_of(s, recruit("ann", {"brazil": 3})) == ["RL-RECRUIT-MUST"]


def test_RL_RECRUIT_MUST_not_ending_the_turn_without_it():
    assert rules_of(start_of(), ev("TurnEnded", "ann")) == ["RL-RECRUIT-MUST"]


def test_RL_RECRUIT_COUNT_minimum_three():
    s = fold(start_of(), recruit("ann", {"brazil": 3}, troops=3))
    assert board(s, "brazil").troops == 11


def test_RL_RECRUIT_COUNT_territories_plus_population_over_three_rounded_down():
    ts = ["egypt", "north_africa", "east_africa", "central_africa", "south_africa", "madagascar", "peru",
          "venezuela", "argentina", "central_america", "alaska"]
    s = with_board(start_of(), {t: held("ann", 1) for t in ts})       # 12 territories with brazil
    w = W.with_marks(s.world, "alaska", city=W.CityMark(kind="major", name="Juneau"))
    from tests.test_legacy_helpers import with_world
    s = with_world(s, w)
    # 12 territories + 2 population = 14 -> 4; Africa (3) and South America (2) are held
    assert rules_of(s, recruit("ann", {"brazil": 9}, troops=9)) == []
    assert rules_of(s, recruit("ann", {"brazil": 10})) == ["RL-RECRUIT-COUNT"]


def test_RL_RECRUIT_COUNT_a_wrong_claim_is_a_claim():
    vs = RULESET.check(start_of(), recruit("ann", {"brazil": 3}, troops=5))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CLAIM", False)]


def test_RL_RECRUIT_COUNT_too_many_placed_is_applied_as_recorded():
    s = fold(start_of(), recruit("ann", {"brazil": 5}), allow=("RL-RECRUIT-COUNT",))
    assert board(s, "brazil").troops == 13


def test_RL_RECRUIT_PLACE_only_in_controlled_territories():
    vs, nxt = RULESET.step(start_of(), recruit("ann", {"egypt": 3}))
    assert [v.rule for v in vs] == ["RL-RECRUIT-PLACE"] and nxt is None


def test_RL_CONTINENT_every_territory_of_the_continent():
    s = with_board(start_of(), {"peru": held("ann", 1), "venezuela": held("ann", 1), "argentina": held("ann", 1)})
    assert rules_of(s, recruit("ann", {"brazil": 5})) == []          # 3 + South America 2
    s2 = with_board(s, {"argentina": Terr()})
    assert rules_of(s2, recruit("ann", {"brazil": 3})) == []         # 3 of 4, the last unoccupied: no bonus


def test_RL_CONTINENT_named_continent_and_marks():
    s = with_board(start_of(), {"peru": held("ann", 1), "venezuela": held("ann", 1), "argentina": held("ann", 1)})
    from tests.test_legacy_helpers import with_world
    named = with_world(s, W.with_continent(s.world, "south_america", name="Awesometonia", named_by="ann"))
    assert rules_of(named, recruit("ann", {"brazil": 6})) == []
    other = with_world(s, W.with_continent(s.world, "south_america", name="Awesometonia", named_by="bob"))
    assert rules_of(other, recruit("ann", {"brazil": 5})) == []
    minus = with_world(s, W.with_continent(s.world, "south_america", modifier=-1))
    assert rules_of(minus, recruit("ann", {"brazil": 4})) == []


def test_RL_TRADE_the_chart():
    s = with_player(start_of(), "ann", hand=("A1", "A2", "coin"))
    assert rules_of(s, recruit("ann", {"brazil": 3 + 4}, cards=["A1", "A2", "coin"])) == []   # 3 resources -> 4
    s = fold(s, recruit("ann", {"brazil": 7}, cards=["A1", "A2", "coin"]))
    assert s.players["ann"].hand == () and s.side.coins == 11 and {"A1", "A2"} <= s.side.discard


def test_RL_TRADE_card_resources_count_not_cards():
    from tests.test_legacy_helpers import with_world
    s = with_player(start_of(), "ann", hand=("A1", "A2"))
    s = with_world(s, s.world.model_copy(update={"resources": {**s.world.resources, "A1": 4, "A2": 6}}))
    assert rules_of(s, recruit("ann", {"brazil": 3 + 30}, cards=["A1", "A2"])) == []          # 10 -> 30


def test_RL_TRADE_two_to_ten_resources():
    s = with_player(start_of(), "ann", hand=("coin",))
    assert rules_of(s, recruit("ann", {"brazil": 3}, cards=["coin"])) == ["RL-TRADE"]


def test_RL_TRADE_a_campaigns_own_chart():
    from tests.test_legacy_helpers import with_world
    s = with_player(start_of(), "ann", hand=("coin", "coin"))
    s = with_world(s, s.world.model_copy(update={"trade_chart": {2: 1, 3: 2}}))
    assert rules_of(s, recruit("ann", {"brazil": 4}, cards=["coin", "coin"])) == []


def test_recruit_order_of_players_is_seats():
    assert placed().flow.order == SEATS
