"""Rounds and King's Orders cards (rulebook p.8, p.10, p.13): committing two cards, the hand and
its refill, revealing, turn order, one order per card, and King Me."""

from __future__ import annotations

from engine.core.commit import commitment
from engine.risk_europe.state import Units
from tests.re_helpers import (
    DEFAULT_CARDS, EXPAND_CARD, KING_CARD, ROUND_CARDS, TAX_CARD, commit_all, disputed, ev,
    finish_turns, fold, placed, play_round, reveal_to, rules_of, turn_of, with_board,
)

ALL_CARDS = frozenset({"tax-spend-1", "tax-spend-2", "tax-spend-king", "expand-maneuver-fortify-1",
                       "expand-maneuver-fortify-2", "expand-maneuver-siege", "split-maneuver-1",
                       "split-maneuver-2"})


def commit(actor, top, bottom):
    return ev("CardsCommitted", actor, cards=[top, bottom])


def reveal(actor, card, **salt):
    return ev("CardRevealed", actor, card=card, **salt)


# --- RE-CARDS-COMMIT --------------------------------------------------------------------------

def test_RE_CARDS_COMMIT_two_different_cards_from_the_hand():
    s = fold(placed(), commit("blue", TAX_CARD, EXPAND_CARD))
    assert s.players["blue"].stack == (TAX_CARD, EXPAND_CARD) and s.players["blue"].committed


def test_RE_CARDS_COMMIT_the_same_card_twice_is_forbidden():
    assert rules_of(placed(), commit("blue", TAX_CARD, TAX_CARD)) == ["RE-CARDS-COMMIT"]


def test_RE_CARDS_COMMIT_only_once_a_round():
    s = fold(placed(), commit("blue", TAX_CARD, EXPAND_CARD))
    assert rules_of(s, commit("blue", "tax-spend-2", "split-maneuver-1")) == ["RE-CARDS-COMMIT"]


def test_RE_CARDS_COMMIT_turns_start_when_everyone_has_committed():
    s = fold(placed(), *[commit(p, *DEFAULT_CARDS[p]) for p in ("blue", "orange", "red")])
    assert s.flow.phase == "commit"
    s = fold(s, commit("green", *DEFAULT_CARDS["green"]))
    assert s.flow.phase == "turn" and (s.flow.turn, s.flow.current) == (1, "blue")


# --- RE-CARDS-HAND ----------------------------------------------------------------------------

def test_RE_CARDS_HAND_played_cards_leave_the_hand():
    s = play_round(placed())
    assert s.flow.round == 2
    assert s.players["blue"].hand == ALL_CARDS - set(DEFAULT_CARDS["blue"])


def test_RE_CARDS_HAND_a_played_card_cannot_be_committed_again():
    s = play_round(placed())
    assert rules_of(s, commit("blue", TAX_CARD, "tax-spend-2")) == ["RE-CARDS-HAND"]
    assert rules_of(s, commit("blue", "tax-spend-2", "split-maneuver-1")) == []


def test_RE_CARDS_HAND_hands_refill_at_the_start_of_round_five():
    s = placed()
    for r in range(4):
        s = play_round(s, ROUND_CARDS[r])
        assert s.flow.round == r + 2
        expected = ALL_CARDS if r == 3 else ALL_CARDS - {c for k in range(r + 1) for c in ROUND_CARDS[k]["blue"]}
        assert s.players["blue"].hand == expected
    assert rules_of(s, commit("blue", TAX_CARD, EXPAND_CARD)) == []


def test_RE_CARDS_HAND_round_four_has_the_last_two_cards_only():
    s = placed()
    for r in range(3):
        s = play_round(s, ROUND_CARDS[r])
    assert s.flow.round == 4 and s.players["red"].hand == frozenset(ROUND_CARDS[3]["red"])
    assert rules_of(s, commit("red", TAX_CARD, "split-maneuver-2")) == ["RE-CARDS-HAND"]


def test_RE_CARDS_HAND_a_card_revealed_twice_in_a_round_is_reported():
    s = commit_all(placed(), {**DEFAULT_CARDS, "blue": (TAX_CARD, EXPAND_CARD)})
    s = fold(s, reveal("blue", TAX_CARD))
    s = reveal_to(s, "green")
    e = reveal("blue", TAX_CARD)
    assert rules_of(s, e) == ["RE-CARDS-REVEAL", "RE-CARDS-HAND"]
    assert fold(s, e, allow=("RE-CARDS-REVEAL", "RE-CARDS-HAND")).players["blue"].revealed == (TAX_CARD, TAX_CARD)


# --- RE-CARDS-REVEAL --------------------------------------------------------------------------

def test_RE_CARDS_REVEAL_the_committed_card_of_the_turn():
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, reveal("blue", DEFAULT_CARDS["blue"][0])) == []


def test_RE_CARDS_REVEAL_another_card_is_forbidden():
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, reveal("blue", DEFAULT_CARDS["blue"][1])) == ["RE-CARDS-REVEAL"]
    assert rules_of(s, reveal("blue", "split-maneuver-1")) == ["RE-CARDS-REVEAL"]


def test_RE_CARDS_REVEAL_a_committed_hash_is_opened_with_its_salt():
    s = placed()
    s = fold(s, ev("CardsCommitted", "blue", commitments=[commitment(TAX_CARD, "a"), commitment(EXPAND_CARD, "b")]))
    s = commit_all(s, {p: DEFAULT_CARDS[p] for p in ("orange", "red", "green")})
    assert rules_of(s, reveal("blue", TAX_CARD, salt="a")) == []
    assert rules_of(s, reveal("blue", TAX_CARD, salt="b")) == ["RE-CARDS-REVEAL"]
    assert rules_of(s, reveal("blue", EXPAND_CARD, salt="b")) == ["RE-CARDS-REVEAL"]


def test_RE_CARDS_REVEAL_one_card_per_turn():
    s = turn_of("green", turn=2)
    assert rules_of(s, reveal("green", "split-maneuver-1")) == ["RE-CARDS-REVEAL"]


def test_RE_CARDS_REVEAL_a_second_reveal_is_read_as_the_players_next_turn():
    """Turns end implicitly: blue revealing again means the others' turns passed unrevealed."""
    s = turn_of("blue")
    assert rules_of(s, reveal("blue", TAX_CARD)) == ["RE-TURN-ORDER"] * 3
    assert (fold(s, reveal("blue", TAX_CARD), allow=("RE-TURN-ORDER",)).flow.turn) == 2


# --- RE-TURN-ORDER ----------------------------------------------------------------------------

def test_RE_TURN_ORDER_clockwise_from_the_marker_holder():
    s = placed(bids={"blue": 0, "orange": 0, "red": 3, "green": 1})
    assert s.marker == "red" and s.flow.order == ("red", "green", "blue", "orange")


def test_RE_TURN_ORDER_the_next_player_after_the_turn_is_played():
    s = fold(turn_of("blue"), ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"footman": 1}))
    assert rules_of(s, reveal("orange", DEFAULT_CARDS["orange"][0])) == []
    s = fold(s, reveal("orange", DEFAULT_CARDS["orange"][0]))
    assert (s.flow.turn, s.flow.current) == (1, "orange")


def test_RE_TURN_ORDER_acting_out_of_turn_is_forbidden():
    s = turn_of("blue")
    e = ev("Expanded", "orange", from_="Galicia", to="Poland", units={"footman": 1})
    assert rules_of(s, e) == ["RE-TURN-ORDER"]


def test_RE_TURN_ORDER_a_turn_with_no_card_revealed_is_reported():
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, reveal("orange", DEFAULT_CARDS["orange"][0])) == ["RE-TURN-ORDER"]


def test_RE_TURN_ORDER_turn_two_follows_turn_one_in_the_same_order():
    s = reveal_to(commit_all(placed(), DEFAULT_CARDS), "green")
    s = fold(s, reveal("blue", DEFAULT_CARDS["blue"][1]))
    assert (s.flow.turn, s.flow.current) == (2, "blue")


# --- RE-ORDER-ON-CARD -------------------------------------------------------------------------

def test_RE_ORDER_ON_CARD_an_order_printed_on_the_card():
    assert rules_of(turn_of("blue", TAX_CARD), ev("Taxed", "blue", city="Berlin")) == []


def test_RE_ORDER_ON_CARD_an_order_not_on_the_card_is_forbidden():
    assert rules_of(turn_of("blue", EXPAND_CARD), ev("Taxed", "blue", city="Berlin")) == ["RE-ORDER-ON-CARD"]
    e = ev("SplitExpanded", "blue", from_="Bohemia", moves=[{"to": "Bavaria", "units": {"footman": 1}}])
    assert rules_of(turn_of("blue", EXPAND_CARD), e) == ["RE-ORDER-ON-CARD"]


def test_RE_ORDER_ON_CARD_one_order_per_turn():
    s = fold(turn_of("blue", TAX_CARD), ev("Taxed", "blue", city="Berlin"))
    e = ev("Spent", "blue", purchases=[{"item": "footman", "territory": "Saxony"}])
    assert rules_of(s, e) == ["RE-ORDER-ON-CARD"]


def test_RE_ORDER_ON_CARD_no_order_without_a_revealed_card():
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, ev("Taxed", "blue", city="Berlin")) == ["RE-FLOW"]


# --- RE-KING-ME -------------------------------------------------------------------------------

def test_RE_KING_ME_revealing_it_takes_the_marker_at_once():
    s = turn_of("orange", KING_CARD)
    assert s.marker == "orange" and s.flow.bonus_used


def test_RE_KING_ME_other_cards_leave_the_marker_where_it_is():
    s = turn_of("orange", TAX_CARD)
    assert s.marker == "blue"


def test_RE_KING_ME_the_round_in_progress_keeps_its_turn_order():
    s = turn_of("orange", KING_CARD)
    s = fold(s, reveal("red", DEFAULT_CARDS["red"][0]))
    assert s.flow.current == "red" and s.flow.order == ("blue", "orange", "red", "green")


def test_RE_KING_ME_the_marker_holder_starts_the_next_round():
    s = finish_turns(turn_of("orange", KING_CARD))
    assert s.flow.round == 2 and s.flow.order == ("orange", "red", "green", "blue")


def test_RE_KING_ME_the_last_king_me_of_the_round_holds_the_marker():
    cards = {**DEFAULT_CARDS, "orange": (KING_CARD, TAX_CARD), "green": (TAX_CARD, KING_CARD)}
    s = finish_turns(turn_of("orange", KING_CARD, cards=cards))
    assert s.marker == "green" and s.flow.order[0] == "green"


def test_RE_KING_ME_the_marker_holder_after_the_cards_chooses_the_battle_order():
    board = {"Poland": disputed("orange", Units(2), "blue", Units(3))}
    s = turn_of("red", KING_CARD, with_board(placed(), board))
    s = finish_turns(s)
    assert s.flow.phase == "battles" and s.marker == "red"
    assert rules_of(s, ev("BattleStarted", "red", territory="Poland")) == []
    assert rules_of(s, ev("BattleStarted", "blue", territory="Poland")) == ["RE-BATTLE-ORDER"]


def test_RE_KING_ME_is_a_bonus_action_of_the_card():
    s = turn_of("orange", KING_CARD)
    assert rules_of(s, ev("Fortified", "orange", territory="Kiev")) == ["RE-BONUS-CARD", "RE-BONUS-CARD"]
