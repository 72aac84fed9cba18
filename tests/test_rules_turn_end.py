"""Risk Europe: whose decision the game waits for (RULESET.actors), the end of a turn as an event
(TurnEnded, RE-TURN-END) and the castle re-roll declined (RerollDeclined, RE-CASTLE-DEFENSE).

Given these events, when this event, then these violations (or this state)."""

from __future__ import annotations

from engine.risk_europe import RULESET
from engine.risk_europe.legal import Move, legal_moves
from tests.re_helpers import DEFAULT_CARDS, SEATS, commit_all, ev, fold, placed, rules_of, start
from tests.test_golden_rulebook import after_the_siege_attack, removed, roll, the_battle

actors = RULESET.actors


def blue_revealed():
    """Round 1, turn 1: blue (the first player) has revealed an expand card."""
    return fold(commit_all(placed(), DEFAULT_CARDS), ev("CardRevealed", "blue", card="expand-maneuver-fortify-1"))


# --- RE-TURN-END -----------------------------------------------------------------------------------

def test_RE_TURN_END_the_current_player_ends_the_turn_and_play_passes_left():
    s = blue_revealed()
    assert rules_of(s, ev("TurnEnded", "blue")) == []
    s = fold(s, ev("TurnEnded", "blue"))
    assert (s.flow.turn, s.flow.current, s.flow.card) == (1, "orange", None)
    assert actors(s) == ("orange",)
    assert rules_of(s, ev("Taxed", "blue", city="Berlin")) == ["RE-TURN-ORDER"]


def test_RE_TURN_END_not_before_the_card_is_revealed_nor_by_another_player():
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, ev("TurnEnded", "blue")) == ["RE-TURN-END"]
    assert rules_of(blue_revealed(), ev("TurnEnded", "orange")) == ["RE-TURN-ORDER"]
    assert rules_of(placed(), ev("TurnEnded", "blue")) == ["RE-FLOW"]


def test_RE_TURN_END_not_while_something_is_pending():
    from engine.risk_europe.state import evolve
    s = blue_revealed()
    pending = evolve(s, flow=s.flow._replace(pending=("siege_dice", "Saxony", "Poland", 2)))
    assert rules_of(pending, ev("TurnEnded", "blue")) == ["RE-TURN-END"]
    assert actors(pending) == ()                      # the Siege Assault's dice: chance


def test_RE_TURN_END_the_last_turn_of_the_round_goes_on_to_the_next_round():
    s = commit_all(placed(), DEFAULT_CARDS)
    order = s.flow.order
    for turn, card in ((1, "expand-maneuver-fortify-1"), (2, "tax-spend-1")):
        for p in order:
            s = fold(s, ev("CardRevealed", p, card=card), ev("TurnEnded", p))
    assert (s.flow.phase, s.flow.round) == ("commit", 2)    # no battle: the round is over
    assert actors(s) == order


def test_RE_TURN_END_a_log_without_it_is_judged_as_before():
    """The next player's reveal still ends a turn in a table's log (turns end implicitly)."""
    s = blue_revealed()
    assert rules_of(s, ev("CardRevealed", "orange", card="expand-maneuver-fortify-1")) == []


# --- who the game waits for --------------------------------------------------------------------------

def test_actors_while_a_turn_runs_are_its_player_alone():
    s = blue_revealed()
    assert actors(s) == ("blue",)
    moves = legal_moves(s)
    assert Move("blue", "TurnEnded", {}) in moves and {m.actor for m in moves} == {"blue"}
    # the engine still takes the next player's reveal (a table's log), but the game waits for blue
    assert rules_of(s, ev("CardRevealed", "orange", card="expand-maneuver-fortify-1")) == []


def test_actors_of_the_bids_every_bidder_then_every_commitment_to_reveal():
    s = start()
    assert actors(s) == SEATS
    s = fold(s, ev("BidPlaced", "blue", commitment="c-blue"), ev("BidPlaced", "orange", amount=1))
    assert actors(s) == ("red", "green")          # the reveals wait for the last bid
    s = fold(s, ev("BidPlaced", "red", commitment="c-red"), ev("BidPlaced", "green", amount=0))
    assert actors(s) == ("blue", "red")           # every bid is in: the commitments are revealed


def test_actors_of_placement_cards_and_the_reveal():
    s = placed()
    assert actors(s) == s.flow.order
    s = fold(s, ev("CardsCommitted", "red", cards=list(DEFAULT_CARDS["red"])))
    assert "red" not in actors(s) and len(actors(s)) == 3
    s = commit_all(placed(), DEFAULT_CARDS)
    assert actors(s) == ("blue",)                 # the first player reveals


# --- RE-CASTLE-DEFENSE: the re-roll decided first ----------------------------------------------------

def archers_rolled():
    """The p.17 Archer Volley: orange scores two hits; blue, behind a castle, may re-roll."""
    return fold(after_the_siege_attack(), roll(orange=[5, 6], blue=[1, 2, 3, 4, 4, 2]))


def test_RE_CASTLE_DEFENSE_the_defender_decides_on_the_re_roll_before_any_casualty():
    s = archers_rolled()
    assert actors(s) == ("blue",)                 # not the casualties yet: the castle's decision first
    kinds = {m.type for m in legal_moves(s) if m.actor == "blue"}
    assert {"DiceRerolled", "RerollDeclined", "CasualtiesRemoved"} <= kinds


def test_RE_CASTLE_DEFENSE_declined_the_casualties_follow_and_the_re_roll_is_kept_for_the_cycle():
    s = fold(archers_rolled(), ev("RerollDeclined", "blue", territory="Bohemia", rank=2))
    assert actors(s) == ("blue",) and dict(s.battle.owed) == {"blue": 2}
    assert not s.battle.reroll_used
    assert rules_of(s, ev("DiceRerolled", "blue", rolls={"blue": [6] * 6})) == ["RE-CASTLE-DEFENSE"]
    s = fold(s, removed("blue", "Bohemia", footman=2))
    assert s.battle.stage == "roll" and actors(s) == ()      # the next rank's dice: chance


def test_RE_CASTLE_DEFENSE_declined_with_nothing_owed_goes_to_the_next_rank():
    s = fold(the_battle(), roll(orange=[1, 1, 1, 1]))
    assert actors(s) == ()                   # blue rolled no dice in Rank 1: nothing to re-roll, next rank
    s = fold(after_the_siege_attack(), roll(orange=[1, 1], blue=[1, 1, 1, 1, 1, 1]))
    assert actors(s) == ("blue",) and not s.battle.owed
    s = fold(s, ev("RerollDeclined", "blue"))
    assert s.battle.stage == "roll" and s.battle.rank == 4


def test_RE_CASTLE_DEFENSE_only_the_defender_declines_and_only_when_a_re_roll_is_open():
    s = archers_rolled()
    assert rules_of(s, ev("RerollDeclined", "orange")) == ["RE-CASTLE-DEFENSE"]
    assert rules_of(s, ev("RerollDeclined", "blue", rank=3)) == ["RE-CASTLE-DEFENSE"]
    after = fold(s, removed("blue", "Bohemia", footman=2))
    assert rules_of(after, ev("RerollDeclined", "blue")) == ["RE-CASTLE-DEFENSE"]
    assert rules_of(the_battle(), ev("RerollDeclined", "blue")) == ["RE-CASTLE-DEFENSE"]
