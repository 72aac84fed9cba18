"""The end of a turn (rulebook: 5 End of Turn, When the Deck of Coin Cards Runs Out, Event Cards,
Mission Cards): who may draw, which card, the sideboard shift, the coin-deck Red Star, events
triggered by even cards, missions as claims."""

from __future__ import annotations

from dataclasses import replace

from engine.risk_legacy import RULESET
from engine.risk_legacy.state import END, Terr
from tests.test_legacy_helpers import (
    board, ev, fold, held, placed, rules_of, turn_of, with_board, with_player, with_world,
)


def conquered(s=None, **flow):
    """ann's turn after she took a territory (slots: A1 Alberta, A2 Eastern Canada, A3 Central
    America, A4 Greenland)."""
    s = turn_of(s or placed(), "ann", conquered=1, **flow)
    return s


def draw(card, **kw):
    return ev("CardDrawn", "ann", card=card, **kw)


def reveal(card):
    return ev("CardRevealed", None, card=card)


# --- RL-DRAW-ELIGIBLE -----------------------------------------------------------------------------

def test_RL_DRAW_ELIGIBLE_after_a_conquest():
    assert rules_of(conquered(), draw("coin")) == []


def test_RL_DRAW_ELIGIBLE_not_after_expanding_only():
    s = turn_of(placed(), "ann", expanded=3)
    assert rules_of(s, draw("coin")) == ["RL-DRAW-ELIGIBLE"]


def test_RL_DRAW_ELIGIBLE_one_card_per_turn():
    s = fold(conquered(), draw("coin"), reveal("A5"))
    vs, nxt = RULESET.step(s, draw("coin"))
    assert [v.rule for v in vs] == ["RL-DRAW-ELIGIBLE"] and nxt is None


# --- RL-DRAW-CHOICE -------------------------------------------------------------------------------

def test_RL_DRAW_CHOICE_a_face_up_territory_you_control_first():
    s = with_board(conquered(), {"central_america": held("ann", 1)})
    assert rules_of(s, draw("coin")) == ["RL-DRAW-CHOICE"]
    assert rules_of(s, draw("A1")) == ["RL-DRAW-CHOICE"]
    assert rules_of(s, draw("A3")) == []


def test_RL_DRAW_CHOICE_otherwise_a_coin_card():
    s = fold(conquered(), draw("coin"))
    assert s.players["ann"].hand == ("coin",) and s.side.coins == 9


def test_RL_DRAW_CHOICE_no_coin_cards_left_no_card():
    s = replace(conquered(), side=conquered().side._replace(coins=0))
    vs, nxt = RULESET.step(s, draw("coin"))
    assert [v.rule for v in vs] == ["RL-DRAW-CHOICE"] and nxt is None


def test_RL_DRAW_CHOICE_only_face_up_cards():
    vs, nxt = RULESET.step(with_board(conquered(), {"egypt": held("ann", 1)}), draw("A35"))
    assert [v.rule for v in vs] == ["RL-DRAW-CHOICE"] and nxt is None


# --- RL-SIDEBOARD-SHIFT ---------------------------------------------------------------------------

def test_RL_SIDEBOARD_SHIFT_cards_left_of_the_gap_slide_right():
    s = with_board(conquered(), {"central_america": held("ann", 1)})
    s = fold(s, draw("A3"))
    assert s.side.slots == (None, "A1", "A2", "A4") and s.flow.pending == "reveal"
    s = fold(s, reveal("A10"))
    assert s.side.slots == ("A10", "A1", "A2", "A4") and "A10" not in s.side.draw


def test_RL_SIDEBOARD_SHIFT_a_coin_draw_discards_slot_four():
    s = fold(conquered(), draw("coin"), reveal("A10"))
    assert s.side.slots == ("A10", "A1", "A2", "A3") and "A4" in s.side.discard


def test_RL_SIDEBOARD_SHIFT_the_revealed_card_comes_from_the_deck():
    s = fold(conquered(), draw("coin"))
    vs, nxt = RULESET.step(s, reveal("A2"))
    assert [v.rule for v in vs] == ["RL-SIDEBOARD-SHIFT"] and nxt is None
    assert rules_of(fold(conquered(), draw("coin"), reveal("A10")), reveal("A11")) == ["RL-SIDEBOARD-SHIFT"]


def test_RL_SIDEBOARD_SHIFT_an_empty_deck_is_made_from_the_discards():
    s = conquered()
    s = replace(s, side=s.side._replace(draw=frozenset(), discard=frozenset({"A30", "A31"})))
    s = fold(s, draw("coin"), reveal("A30"))
    assert s.side.slots[0] == "A30" and s.side.draw == frozenset({"A31", "A4"}) and s.side.discard == frozenset()


def test_RL_SIDEBOARD_SHIFT_a_missing_reveal_is_one_claim():
    s = fold(conquered(), draw("coin"))
    vs = RULESET.check(s, ev("TurnEnded", "ann"))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-SIDEBOARD-SHIFT", False)]


# --- RL-COIN-DEPLETED -----------------------------------------------------------------------------

def last_coin(s):
    return replace(s, side=s.side._replace(coins=1))


def test_RL_COIN_DEPLETED_a_red_star_for_the_most_territories():
    s = last_coin(with_board(conquered(), {"peru": held("ann", 1)}))
    s = fold(s, draw("coin"))
    assert s.players["ann"].tokens == 2 and s.side.coin_star_given


def test_RL_COIN_DEPLETED_no_one_on_a_tie():
    s = fold(last_coin(conquered()), draw("coin"))
    assert all(s.players[p].tokens == 1 for p in s.seats)


def test_RL_COIN_DEPLETED_only_the_first_time():
    s = last_coin(with_board(conquered(), {"peru": held("ann", 1)}))
    s = replace(s, side=s.side._replace(coin_star_given=True))
    assert fold(s, draw("coin")).players["ann"].tokens == 1


def test_RL_COIN_DEPLETED_the_star_may_win_the_game():
    s = last_coin(with_player(with_board(conquered(), {"peru": held("ann", 1)}), "ann", tokens=3))
    s = fold(s, draw("coin"))
    assert s.result.winners == ("ann",)


# --- RL-EVENT-TRIGGER -----------------------------------------------------------------------------

def with_events(s, n=3):
    return replace(s, side=s.side._replace(events_left=n))


def even_card(s, card="A10"):
    return with_world(s, s.world.model_copy(update={"resources": {**s.world.resources, card: 2}}))


def test_RL_EVENT_TRIGGER_an_even_slot_one_card_draws_an_event():
    s = fold(even_card(with_events(conquered())), draw("coin"), reveal("A10"))
    assert s.flow.pending == "event"
    s = fold(s, ev("EventCardDrawn", None, card="E7", text="Floods", placed="box",
                   effects=[{"kind": "troops", "territory": "brazil", "delta": -2}]))
    assert board(s, "brazil").troops == 6 and s.side.events_left == 2 and s.flow.pending is None


def test_RL_EVENT_TRIGGER_an_odd_card_draws_none():
    s = fold(with_events(conquered()), draw("coin"), reveal("A10"))
    assert s.flow.pending is None
    assert rules_of(s, ev("EventCardDrawn", None, card="E7")) == ["RL-EVENT-TRIGGER"]


def test_RL_EVENT_TRIGGER_not_without_event_cards():
    s = fold(even_card(conquered()), draw("coin"), reveal("A10"))
    assert s.flow.pending is None


def test_RL_EVENT_TRIGGER_not_when_laying_out_the_first_cards():
    from tests.test_legacy_helpers import start, world
    w = world(resources={**world().resources, "A1": 2})
    s = fold(start(w=w, events=5), ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"]))
    assert s.flow.pending is None


def test_RL_EVENT_TRIGGER_claimed_effects_are_applied_as_recorded():
    s = fold(even_card(with_events(conquered())), draw("coin"), reveal("A10"))
    s = fold(s, ev("EventCardDrawn", None, card="E2", placed="deck",
                   effects=[{"kind": "red_stars", "player": "bob", "delta": 1},
                            {"kind": "missiles", "player": "cat", "delta": 2}]))
    assert s.players["bob"].tokens == 2 and s.players["cat"].missiles == 2 and s.side.events_left == 3


# --- RL-MISSION -----------------------------------------------------------------------------------

def with_mission(s, reward=2, left=3):
    return replace(s, side=s.side._replace(mission=("M1", reward), missions_left=left))


def test_RL_MISSION_completed_for_its_red_stars_then_a_new_one():
    s = with_player(with_mission(turn_of(placed(), "ann")), "ann", tokens=0)
    s = fold(s, ev("MissionCompleted", "ann", card="M1", reward=2))
    assert s.players["ann"].tokens == 2 and s.side.mission is None and s.flow.pending == "mission"
    s = fold(s, ev("MissionRevealed", None, card="M2", text="Hold Asia", reward=1))
    assert s.side.mission == ("M2", 1) and s.side.missions_left == 2


def test_RL_MISSION_not_with_a_card_draw():
    s = fold(with_mission(conquered()), draw("coin"), reveal("A10"))
    assert rules_of(s, ev("MissionCompleted", "ann")) == ["RL-MISSION"]


def test_RL_MISSION_one_per_turn_and_only_a_face_up_one():
    s = with_player(with_mission(turn_of(placed(), "ann"), left=0), "ann", tokens=0)
    s = fold(s, ev("MissionCompleted", "ann"))
    vs, nxt = RULESET.step(s, ev("MissionCompleted", "ann"))
    assert [v.rule for v in vs] == ["RL-MISSION"] and nxt is None


def test_RL_MISSION_a_wrong_reward_is_a_claim():
    vs = RULESET.check(with_mission(turn_of(placed(), "ann"), reward=1), ev("MissionCompleted", "ann", reward=2))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CLAIM", False)]


def test_RL_MISSION_face_up_at_the_start_when_missions_are_in_play():
    from tests.test_legacy_helpers import setup_events, start
    s = start(missions=4)
    s = fold(s, *setup_events()[:2])
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [6], "bob": [1], "cat": [2]})) == ["RL-MISSION"]
    s = fold(s, ev("MissionRevealed", None, card="M9", reward=1))
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [6], "bob": [1], "cat": [2]})) == []


def test_the_draw_ends_the_attack_step():
    s = fold(conquered(), draw("coin"), reveal("A10"))
    assert s.flow.step == END and s.terr["brazil"] == Terr("ann", 8, "enclave_of_the_bear")
