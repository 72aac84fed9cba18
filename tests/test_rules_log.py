"""The log as a game record: events at their point of the game, by the right player, naming real
things; nothing after the end; dice faces and seeded dice; the recorder's claims."""

from __future__ import annotations

from engine.core.canonical import sha256_hex
from engine.core.dice import dice_stream
from engine.risk_europe import RULESET
from engine.risk_europe.board import default_data
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.state import Units
from tests.re_helpers import (
    DEFAULT_CARDS, SEATS, TAX_CARD, commit_all, disputed, ev, fold, held, in_battles, placed, play_round,
    rules_of, start, turn_of, with_board, with_player,
)


def seeded_start(seed):
    p = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "risk-europe", "players": [{"id": x} for x in SEATS],
         "dice": {"mode": "seeded", "seed_hash": sha256_hex(seed)}})
    return RULESET.initial_state(p, default_data())


def a_seed_with_a_clear_roll_off():
    for i in range(100):
        seed = f"seed-{i}"
        it = dice_stream(seed)
        a, b = next(it), next(it)
        if a != b:
            return seed, a, b
    raise AssertionError("no seed found")


def won_game():
    return play_round(with_player(placed(), "blue", crown_cards=6))


# --- RE-FLOW ----------------------------------------------------------------------------------

def test_RE_FLOW_events_in_their_phase_are_allowed():
    assert rules_of(start(), ev("BidPlaced", "blue", amount=1)) == []
    assert rules_of(placed(), ev("CardsCommitted", "blue", cards=list(DEFAULT_CARDS["blue"]))) == []


def test_RE_FLOW_an_order_before_the_cards_is_forbidden():
    e = ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"footman": 1})
    assert rules_of(placed(), e) == ["RE-FLOW"]


def test_RE_FLOW_setup_events_after_setup_are_forbidden():
    assert rules_of(placed(), ev("BidPlaced", "blue", amount=1)) == ["RE-FLOW"]
    assert rules_of(placed(), ev("KingdomPlaced", "blue", city="London", footmen={"England": 10})) == ["RE-FLOW"]
    assert rules_of(start(), ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 10})) == ["RE-FLOW"]


def test_RE_FLOW_cards_are_committed_at_the_start_of_a_round_only():
    assert rules_of(turn_of("blue"), ev("CardsCommitted", "blue", cards=["tax-spend-2", "split-maneuver-1"])) \
        == ["RE-FLOW"]


def test_RE_FLOW_battles_come_after_the_turns():
    s = with_board(turn_of("blue"), {"Poland": disputed("orange", Units(1), "blue", Units(2))})
    assert rules_of(s, ev("BattleStarted", "blue", territory="Poland")) == ["RE-FLOW"]


def test_RE_FLOW_one_battle_at_a_time():
    s = in_battles(with_board(placed(), {"Poland": disputed("orange", Units(1), "blue", Units(2)),
                                         "Lorraine": disputed("red", Units(1), "green", Units(2))}))
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"))
    assert rules_of(s, ev("BattleStarted", "blue", territory="Lorraine")) == ["RE-FLOW"]


def test_RE_FLOW_no_dice_when_none_are_due():
    assert rules_of(turn_of("blue"), ev("DiceRolled", None, rolls={"blue": [3]})) == ["RE-FLOW"]


def test_RE_FLOW_a_second_game_start_is_forbidden():
    e = ev("GameStarted", None, ruleset="risk-europe", players=[{"id": p} for p in SEATS])
    assert rules_of(placed(), e) == ["RE-FLOW"]


# --- RE-ACTOR ---------------------------------------------------------------------------------

def test_RE_ACTOR_the_player_whose_decision_it_is():
    assert rules_of(placed(), ev("CardsCommitted", "orange", cards=list(DEFAULT_CARDS["orange"]))) == []


def test_RE_ACTOR_a_stranger_is_forbidden():
    assert rules_of(placed(), ev("CardsCommitted", "purple", cards=list(DEFAULT_CARDS["blue"]))) == ["RE-ACTOR"]


def test_RE_ACTOR_a_decision_must_name_its_player():
    assert rules_of(placed(), ev("CardsCommitted", None, cards=list(DEFAULT_CARDS["blue"]))) == ["RE-ACTOR"]


def test_RE_ACTOR_placement_in_turn_order():
    s = fold(start(), *[ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, (2, 0, 1, 0))])
    assert rules_of(s, ev("KingdomPlaced", "red", city="Paris", footmen={"France": 10})) == ["RE-ACTOR"]


def test_RE_ACTOR_an_eliminated_player_cannot_act():
    s = play_round(with_board(placed(), {"France": held("green", 3, castle=True)}))
    assert s.players["red"].eliminated
    assert rules_of(s, ev("CardsCommitted", "red", cards=["tax-spend-2", "split-maneuver-1"])) == ["RE-ACTOR"]


# --- RE-NAME ----------------------------------------------------------------------------------

def test_RE_NAME_territories_and_cities_by_name_in_any_case():
    s = turn_of("blue")
    assert rules_of(s, ev("Expanded", "blue", from_="bohemia", to="WARSAW", units={"footman": 1})) == []


def test_RE_NAME_an_unknown_territory_is_forbidden():
    e = ev("Expanded", "blue", from_="Bohemia", to="Atlantis", units={"footman": 1})
    assert rules_of(turn_of("blue"), e) == ["RE-NAME"]


def test_RE_NAME_an_unknown_card_is_forbidden():
    assert rules_of(placed(), ev("CardsCommitted", "blue", cards=["tax-spend-1", "joker"])) == ["RE-NAME"]
    s = commit_all(placed(), DEFAULT_CARDS)
    assert rules_of(s, ev("CardRevealed", "blue", card="joker")) == ["RE-NAME"]


def test_RE_NAME_an_unknown_city_is_forbidden():
    assert rules_of(turn_of("blue", TAX_CARD), ev("Taxed", "blue", city="Atlantis")) == ["RE-NAME"]


# --- RE-GAME-OVER -----------------------------------------------------------------------------

def test_RE_GAME_OVER_the_end_may_be_declared():
    s = won_game()
    assert s.flow.phase == "over"
    assert rules_of(s, ev("GameEnded", None, winner="blue")) == []


def test_RE_GAME_OVER_nothing_is_played_after_the_end():
    s = won_game()
    assert rules_of(s, ev("CardsCommitted", "blue", cards=["tax-spend-2", "split-maneuver-1"])) == ["RE-GAME-OVER"]
    assert rules_of(s, ev("BattleStarted", "blue", territory="Poland")) == ["RE-GAME-OVER"]


# --- RE-DICE-FACES ----------------------------------------------------------------------------

def test_RE_DICE_FACES_one_to_six_are_faces():
    s = in_battles(with_board(placed(), {"Poland": disputed("orange", Units(2), "blue", Units(3))}))
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"))
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [1, 6, 3], "orange": [2, 5]})) == []


def test_RE_DICE_FACES_other_numbers_are_forbidden():
    s = in_battles(with_board(placed(), {"Poland": disputed("orange", Units(2), "blue", Units(3))}))
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"))
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [1, 7, 3], "orange": [2, 5]})) == ["RE-DICE-FACES"]
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [1, 0, 3], "orange": [2, 5]})) == ["RE-DICE-FACES"]
    s = fold(start(), *[ev("BidPlaced", p, amount=2) for p in SEATS])
    assert rules_of(s, ev("DiceRolled", None, rolls={p: [9] for p in SEATS})) == ["RE-DICE-FACES"]


# --- RE-DICE-SEED -----------------------------------------------------------------------------

def test_RE_DICE_SEED_dice_from_the_seed_stream_are_allowed():
    seed, a, b = a_seed_with_a_clear_roll_off()
    s = fold(seeded_start(seed), *[ev("BidPlaced", p, amount=x) for p, x in zip(SEATS, (2, 2, 0, 0))],
             ev("DiceRolled", None, rolls={"blue": [a], "orange": [b]}))
    assert s.marker == ("blue" if a > b else "orange")
    assert rules_of(s, ev("SeedRevealed", None, seed=seed)) == []


def test_RE_DICE_SEED_a_die_the_seed_does_not_give_is_forbidden():
    seed, a, b = a_seed_with_a_clear_roll_off()
    wrong = 1 if a != 1 and b != 1 else (2 if a != 2 and b != 2 else 3)
    s = fold(seeded_start(seed), *[ev("BidPlaced", p, amount=x) for p, x in zip(SEATS, (2, 2, 0, 0))],
             ev("DiceRolled", None, rolls={"blue": [wrong], "orange": [b]}))
    assert rules_of(s, ev("SeedRevealed", None, seed=seed)) == ["RE-DICE-SEED"]


def test_RE_DICE_SEED_the_seed_must_match_its_published_hash():
    s = seeded_start("the real seed")
    assert rules_of(s, ev("SeedRevealed", None, seed="another seed")) == ["RE-DICE-SEED"]


def test_RE_DICE_SEED_a_table_game_has_no_seed():
    assert rules_of(start(), ev("SeedRevealed", None, seed="x")) == ["RE-DICE-SEED"]


# --- RE-CLAIM ---------------------------------------------------------------------------------

def test_RE_CLAIM_a_battle_winner_as_the_dice_give_it():
    s = in_battles(with_board(placed(), {"Poland": disputed("orange", Units(1), "blue", Units(2)),
                                         "Lorraine": disputed("red", Units(1), "green", Units(2))}))
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"),
             ev("DiceRolled", None, rolls={"blue": [6, 1], "orange": [2]}),
             ev("CasualtiesRemoved", "orange", territory="Poland", units={"footman": 1}))
    assert rules_of(s, ev("BattleEnded", None, territory="Poland", winner="blue")) == []
    assert rules_of(s, ev("BattleEnded", None, territory="Poland", winner="orange")) == ["RE-CLAIM"]
    assert rules_of(s, ev("BattleEnded", None, territory="Lorraine", winner="green")) == ["RE-CLAIM"]


def test_RE_CLAIM_the_game_winner_as_the_rules_give_it():
    s = won_game()
    assert rules_of(s, ev("GameEnded", None, winner="blue")) == []
    assert rules_of(s, ev("GameEnded", None, winner="orange")) == ["RE-CLAIM"]
    assert rules_of(s, ev("GameEnded", None, winner=None)) == ["RE-CLAIM"]


def test_RE_CLAIM_a_game_declared_over_too_early():
    assert rules_of(placed(), ev("GameEnded", None, winner="blue")) == ["RE-CLAIM"]


def test_RE_CLAIM_footmen_claimed_by_a_fortify():
    s = turn_of("blue")
    assert rules_of(s, ev("Fortified", "blue", territory="Saxony", footmen=4)) == []
    assert rules_of(s, ev("Fortified", "blue", territory="Saxony", footmen=3)) == ["RE-CLAIM"]
