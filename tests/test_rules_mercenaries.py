"""Mercenaries: the 3- and 2-player games (rulebook p.20-21). Given a game after setup, when this
event, then these violations (or this state). Rule ids from engine/risk_europe/rules.py."""

from __future__ import annotations

from dataclasses import replace

from engine.core.canonical import sha256_hex
from engine.core.dice import SeededDice
from engine.risk_europe.chance import draw
from engine.risk_europe.common import crowns
from engine.risk_europe.state import Units
from tests.re_helpers import (
    MERC2_ARMIES, MERC2_PLAYERS, MERC3_ARMY, MERC3_PLAYERS, commit_all, control_bids, ev,
    finish_turns, fold, held, merc2_placed, merc3_placed, merc3_setup_events, rules_of, start_variant, with_board,
    with_player,
)

T1, T2, TK = "tax-spend-1", "tax-spend-2", "tax-spend-king"
E1, E2, ES = "expand-maneuver-fortify-1", "expand-maneuver-fortify-2", "expand-maneuver-siege"
S1, S2 = "split-maneuver-1", "split-maneuver-2"
CARDS3 = {"blue": (T1, T2), "orange": (T1, T2), "red": (T1, T2)}


def merc3_start():
    return start_variant("mercenaries-3p", MERC3_PLAYERS, (MERC3_ARMY,))


def committed3(state=None):
    """Round 1 after the players' cards are down: the bid for green is open."""
    return commit_all(merc3_placed() if state is None else state, CARDS3)


def controlled3(bids=None, state=None):
    """Round 1 with green's control won by orange (3 coins): blue is to reveal."""
    return control_bids(committed3(state), bids or {"blue": 1, "orange": 3, "red": 0})


def to_green(state, turn=1):
    """Every player before green reveals and passes; green is next to flip."""
    for p in ("blue", "orange", "red"):
        state = fold(state, ev("CardRevealed", p, card=state.players[p].stack[turn - 1]))
    return state


# --- RE-MERC-SETUP --------------------------------------------------------------------------------

def test_RE_MERC_SETUP_two_random_tiles_a_starting_city_with_a_castle_and_an_outpost():
    s = fold(merc3_start(), ev("TilesDrawn", None, army="green", tiles=["Kiev", "London"]))
    kiev, london = s.terr["Rusland"], s.terr["England"]
    assert (kiev.owner, kiev.units, kiev.castle) == ("green", Units(10), True)
    assert (london.owner, london.units, london.castle) == ("green", Units(10), False)
    assert s.players["green"].coins == 5 + 2 + 3 and s.castles_left == 7
    assert s.flow.phase == "bidding"


def test_RE_MERC_SETUP_the_two_player_armies_draw_one_tile_each_with_a_castle():
    s = start_variant("mercenaries-2p", MERC2_PLAYERS, MERC2_ARMIES)
    s = fold(s, ev("TilesDrawn", None, army="red", tiles=["Kiev"]))
    assert rules_of(s, ev("TilesDrawn", None, army="green", tiles=["Kiev"])) == ["RE-MERC-SETUP"]
    s = fold(s, ev("TilesDrawn", None, army="green", tiles=["London"]))
    assert s.terr["England"].castle and s.terr["Rusland"].castle and s.castles_left == 6


def test_RE_MERC_SETUP_the_wrong_number_of_tiles_is_forbidden():
    assert rules_of(merc3_start(), ev("TilesDrawn", None, army="green", tiles=["Kiev"])) == ["RE-MERC-SETUP"]


def test_RE_MERC_SETUP_only_gold_crown_city_tiles_for_the_named_army():
    assert rules_of(merc3_start(), ev("TilesDrawn", None, army="green", tiles=["Kiev", "Warsaw"])) == ["RE-MERC-SETUP"]
    assert rules_of(merc3_start(), ev("TilesDrawn", None, army="red", tiles=["Kiev", "London"])) == ["RE-MERC-SETUP"]


def test_RE_MERC_SETUP_tiles_come_before_the_bid():
    assert rules_of(merc3_start(), ev("BidPlaced", "blue", amount=1)) == ["RE-FLOW"]


# --- RE-CHANCE-DRAW -------------------------------------------------------------------------------

SEED = "seed-for-tests"


def seeded3():
    return start_variant("mercenaries-3p", MERC3_PLAYERS, (MERC3_ARMY,), seed_hash=sha256_hex(SEED))


def _tiles_from(seed):
    s = seeded3()
    pool = [s.data.cities[t].name for t in s.data.gold_cities]
    dice = SeededDice(seed)
    return draw(pool, 2, lambda: dice.roll(1)[0])


def test_RE_CHANCE_DRAW_a_seeded_draw_carries_the_dice_that_give_it():
    tiles, dice = _tiles_from(SEED)
    e = ev("TilesDrawn", None, army="green", tiles=tiles, dice=dice)
    assert rules_of(seeded3(), e) == []
    s = fold(seeded3(), e, ev("SeedRevealed", None, seed=SEED))
    assert s.dice.count == len(dice)


def test_RE_CHANCE_DRAW_dice_that_give_another_draw_are_forbidden():
    tiles, dice = _tiles_from(SEED)
    e = ev("TilesDrawn", None, army="green", tiles=list(reversed(tiles)), dice=dice)
    assert rules_of(seeded3(), e) == ["RE-CHANCE-DRAW"]
    assert rules_of(seeded3(), ev("TilesDrawn", None, army="green", tiles=tiles, dice=dice + [1])) == ["RE-CHANCE-DRAW"]


def test_RE_CHANCE_DRAW_a_seeded_draw_without_dice_is_forbidden():
    assert rules_of(seeded3(), ev("TilesDrawn", None, army="green", tiles=["Kiev", "London"])) == ["RE-CHANCE-DRAW"]


def test_RE_CHANCE_DRAW_the_draw_dice_are_checked_against_the_seed():
    tiles, dice = _tiles_from("another seed")
    s = fold(seeded3(), ev("TilesDrawn", None, army="green", tiles=tiles, dice=dice))
    assert "RE-DICE-SEED" in rules_of(s, ev("SeedRevealed", None, seed=SEED))


def test_RE_CHANCE_DRAW_a_players_card_is_chosen_not_drawn():
    s = controlled3()
    assert rules_of(s, ev("CardRevealed", "blue", card=T1, dice=[3, 4])) == ["RE-CHANCE-DRAW"]


def test_RE_CHANCE_DRAW_the_flip_of_a_mercenary_card_by_dice():
    s = to_green(controlled3())
    pool = list(s.data.cards)
    assert draw(pool, 1, iter([1, 2]).__next__)[0] == [pool[1]]      # 6*0+1 = 1
    assert rules_of(s, ev("CardRevealed", "green", card=pool[1], dice=[1, 2])) == []
    assert rules_of(s, ev("CardRevealed", "green", card=pool[2], dice=[1, 2])) == ["RE-CHANCE-DRAW"]


# --- RE-DRAFT -------------------------------------------------------------------------------------

def test_RE_DRAFT_two_cities_each_five_footmen_a_castle_only_on_the_first():
    s = merc3_placed()
    assert s.terr["Saxony"].castle and s.terr["Sweden"].owner == "blue" and not s.terr["Sweden"].castle
    assert s.terr["Sweden"].units == Units(5) and s.terr["Bohemia"].units == Units(2)
    assert s.players["blue"].coins == 5 - 2 + 4 + 3 and crowns(s, "blue") == 2
    assert s.castles_left == 8 - 1 - 3 and s.flow.phase == "commit" and s.flow.round == 1


def test_RE_DRAFT_in_turn_order_one_city_per_pass():
    s = fold(merc3_start(), *merc3_setup_events()[:4])
    assert rules_of(s, ev("KingdomPlaced", "orange", city="Paris", footmen={"France": 5})) == ["RE-ACTOR"]


def test_RE_DRAFT_ten_footmen_with_a_drafted_city_are_forbidden():
    s = fold(merc3_start(), *merc3_setup_events()[:4])
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 10})) == ["RE-DRAFT"]


def test_RE_DRAFT_three_cities_in_the_two_player_game_castles_on_the_first_two():
    s = merc2_placed()
    assert [s.terr[t].castle for t in ("Saxony", "Sweden", "Turkey")] == [True, True, False]
    assert s.castles_left == 8 - 2 - 4 and s.flow.phase == "commit"


def test_RE_DRAFT_a_mercenary_city_cannot_be_drafted():
    s = fold(merc3_start(), *merc3_setup_events()[:4])
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Kiev", footmen={"Rusland": 5})) == ["RE-PLACE-CITY"]


# --- RE-MERC-SEAT ---------------------------------------------------------------------------------

def test_RE_MERC_SEAT_the_mercenary_deck_sits_to_the_right_of_the_first_player():
    s = merc3_placed()
    assert s.seats == ("blue", "orange", "red", "green") and s.flow.order == ("blue", "orange", "red", "green")
    s = fold(merc3_start(), ev("TilesDrawn", None, army="green", tiles=["Kiev", "London"]),
             *[ev("BidPlaced", p, amount=a) for p, a in (("blue", 0), ("orange", 2), ("red", 0))])
    assert s.seats == ("orange", "red", "blue", "green")


def test_RE_MERC_SEAT_two_decks_left_and_right_of_the_first_player():
    assert merc2_placed().seats == ("blue", "red", "orange", "green")


def test_RE_MERC_SEAT_the_seat_is_kept_when_the_marker_moves():
    s = commit_all(merc3_placed(), {"blue": (T1, T2), "orange": (TK, T2), "red": (T1, T2)})
    s = finish_turns(control_bids(s, {"blue": 0, "orange": 1, "red": 0}))
    assert s.marker == "orange" and s.flow.round == 2
    assert s.flow.order == ("orange", "red", "green", "blue")


def test_RE_MERC_SEAT_the_mercenary_plays_in_its_seat():
    s = to_green(controlled3())
    assert rules_of(s, ev("CardRevealed", "green", card=T1)) == []


def test_RE_MERC_SEAT_playing_before_its_seat_skips_the_players_between():
    assert rules_of(controlled3(), ev("CardRevealed", "green", card=T1)) == ["RE-TURN-ORDER"] * 3


# --- RE-MERC-BID ----------------------------------------------------------------------------------

def test_RE_MERC_BID_after_the_cards_every_player_bids_once():
    s = committed3()
    assert s.flow.phase == "control" and s.flow.merc == "green"
    assert rules_of(s, ev("BidPlaced", "blue", amount=3, army="green")) == []
    s = fold(s, ev("BidPlaced", "blue", amount=3))
    assert rules_of(s, ev("BidPlaced", "blue", amount=1)) == ["RE-MERC-BID"]


def test_RE_MERC_BID_no_bid_before_the_cards_are_down():
    s = fold(merc3_placed(), ev("CardsCommitted", "blue", cards=[T1, T2]))
    assert rules_of(s, ev("BidPlaced", "orange", amount=1)) == ["RE-FLOW"]


def test_RE_MERC_BID_more_than_the_coins_held_is_forbidden():
    s = committed3()
    assert rules_of(s, ev("BidPlaced", "red", amount=s.players["red"].coins + 1)) == ["RE-MERC-BID"]


def test_RE_MERC_BID_the_mercenary_army_does_not_bid_and_labels_must_match():
    s = committed3()
    assert rules_of(s, ev("BidPlaced", "green", amount=1)) == ["RE-MERC-BID"]
    assert rules_of(s, ev("BidPlaced", "blue", amount=1, army="red")) == ["RE-MERC-BID"]


def test_RE_MERC_BID_secret_bids_are_committed_and_revealed():
    from engine.core.commit import commitment
    s = fold(committed3(), *[ev("BidPlaced", p, commitment=commitment(a, "s"), army="green")
                             for p, a in (("blue", 1), ("orange", 2), ("red", 0))])
    assert s.flow.phase == "control"
    assert rules_of(s, ev("BidRevealed", "blue", amount=2, salt="s")) == ["RE-BID-REVEAL"]
    s = fold(s, *[ev("BidRevealed", p, amount=a, salt="s") for p, a in (("blue", 1), ("orange", 2), ("red", 0))])
    assert s.players["green"].controller == "orange"


# --- RE-MERC-BID-WINNER ---------------------------------------------------------------------------

def test_RE_MERC_BID_WINNER_the_highest_bidder_pays_the_mercenary_army():
    before = committed3()
    s = control_bids(before, {"blue": 1, "orange": 3, "red": 0})
    assert s.players["green"].controller == "orange"
    assert s.players["orange"].coins == before.players["orange"].coins - 3
    assert s.players["green"].coins == before.players["green"].coins + 3
    assert s.players["blue"].coins == before.players["blue"].coins
    assert s.flow.phase == "turn" and s.flow.current == "blue"


def test_RE_MERC_BID_WINNER_control_lasts_one_round():
    s = to_green(controlled3(), 1)
    s = fold(s, ev("CardRevealed", "green", card=T1))
    s = to_green(s, 2)
    s = fold(s, ev("CardRevealed", "green", card=T2))
    s = finish_turns(s)
    assert s.flow.round == 2 and s.players["green"].controller is None


# --- RE-MERC-BID-TIE ------------------------------------------------------------------------------

def test_RE_MERC_BID_TIE_tied_bids_roll_off():
    s = control_bids(committed3(), {"blue": 2, "orange": 2, "red": 1})
    assert s.flow.phase == "rolloff" and s.flow.tied == ("blue", "orange")
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [2], "orange": [2]}),
             ev("DiceRolled", None, rolls={"blue": [6], "orange": [1]}))
    assert s.players["green"].controller == "blue" and s.players["orange"].coins == committed3().players["orange"].coins


def test_RE_MERC_BID_TIE_only_the_tied_roll():
    s = control_bids(committed3(), {"blue": 2, "orange": 2, "red": 1})
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [2], "orange": [3], "red": [6]})) == ["RE-MERC-BID-TIE"]


# --- RE-MERC-BID-ORDER ----------------------------------------------------------------------------

def test_RE_MERC_BID_ORDER_the_marker_holder_orders_the_two_bids():
    s = commit_all(merc2_placed(), {"blue": (T1, T2), "orange": (T1, T2)})
    assert s.flow.phase == "merc_order"
    assert rules_of(s, ev("MercenaryBidsOrdered", "blue", armies=["green", "red"])) == []
    s = fold(s, ev("MercenaryBidsOrdered", "blue", armies=["green", "red"]))
    assert s.flow.merc == "green"
    s = control_bids(s, {"blue": 2, "orange": 0})
    assert s.flow.merc == "red"
    s = control_bids(s, {"blue": 1, "orange": 0})
    assert {a: s.players[a].controller for a in MERC2_ARMIES} == {"red": "blue", "green": "blue"}
    assert s.flow.order == ("blue", "red", "orange", "green") and s.flow.phase == "turn"


def test_RE_MERC_BID_ORDER_only_the_marker_holder_each_army_once():
    s = commit_all(merc2_placed(), {"blue": (T1, T2), "orange": (T1, T2)})
    assert rules_of(s, ev("MercenaryBidsOrdered", "orange", armies=["green", "red"])) == ["RE-MERC-BID-ORDER"]
    assert rules_of(s, ev("MercenaryBidsOrdered", "blue", armies=["green", "green"])) == ["RE-MERC-BID-ORDER"]
    assert rules_of(s, ev("BidPlaced", "blue", amount=1)) == ["RE-FLOW"]


def test_RE_MERC_BID_ORDER_one_army_left_needs_no_order():
    s = merc2_placed()
    players = dict(s.players)
    players["green"] = players["green"]._replace(eliminated=True)
    s = commit_all(replace(s, players=players), {"blue": (T1, T2), "orange": (T1, T2)})
    assert s.flow.phase == "control" and s.flow.merc == "red"


# --- RE-MERC-DECK ---------------------------------------------------------------------------------

def test_RE_MERC_DECK_the_mercenary_commits_no_cards():
    assert rules_of(merc3_placed(), ev("CardsCommitted", "green", cards=[T1, T2])) == ["RE-MERC-DECK"]


def test_RE_MERC_DECK_each_flip_is_a_card_still_in_the_deck():
    s = to_green(controlled3())
    s = fold(s, ev("CardRevealed", "green", card=ES))
    assert ES not in s.players["green"].hand and len(s.players["green"].hand) == 7
    s = to_green(s, 2)
    assert rules_of(s, ev("CardRevealed", "green", card=ES)) == ["RE-MERC-DECK"]
    assert rules_of(s, ev("CardRevealed", "green", card=E1)) == []


def test_RE_MERC_DECK_the_deck_is_reshuffled_when_it_runs_out():
    s = to_green(controlled3())
    s = with_player(s, "green", hand=frozenset())
    violations = rules_of(s, ev("CardRevealed", "green", card=ES))
    assert violations == []
    s = fold(s, ev("CardRevealed", "green", card=ES))
    assert len(s.players["green"].hand) == 7
    assert any("reshuffled" in n for n in s.notes)


def test_RE_MERC_DECK_the_mercenary_turn_is_played_with_the_armys_units_and_coins():
    s = fold(to_green(controlled3()), ev("CardRevealed", "green", card=T1))
    coins = s.players["green"].coins
    s = fold(s, ev("Taxed", "green", city="Kiev"))
    assert s.players["green"].coins == coins + 2
    assert rules_of(s, ev("Taxed", "orange", city="Paris")) == ["RE-TURN-ORDER"]


# --- RE-MERC-WIN ----------------------------------------------------------------------------------

def _end_round3(state):
    return finish_turns(controlled3(state=state))


def test_RE_MERC_WIN_eight_crowns_win_the_three_player_game():
    s = _end_round3(with_player(merc3_placed(), "blue", crown_cards=6))
    assert s.result is not None and s.result.winners == ("blue",)


def test_RE_MERC_WIN_seven_crowns_are_not_enough():
    s = _end_round3(with_player(merc3_placed(), "blue", crown_cards=5))
    assert s.result is None and s.flow.round == 2


def test_RE_MERC_WIN_the_mercenary_army_never_wins():
    s = with_board(merc3_placed(), {t: held("green", 2) for t in ("Hungary", "Poland", "Greece", "Ireland",
                                                                      "Swabia", "Algeria", "Republic of Novgorod")})
    assert crowns(s, "green") == 9
    s = _end_round3(s)
    assert s.result is None


def test_RE_MERC_WIN_ten_crowns_in_the_two_player_game():
    def round_with(cards):
        s = with_player(merc2_placed(), "blue", crown_cards=cards)
        s = commit_all(s, {"blue": (T1, T2), "orange": (T1, T2)})
        s = fold(s, ev("MercenaryBidsOrdered", "blue", armies=["red", "green"]))
        s = control_bids(control_bids(s, {"blue": 0, "orange": 1}), {"blue": 0, "orange": 1})
        return finish_turns(s)
    assert round_with(6).result is None                 # 3 cities + 6 = 9
    assert round_with(7).result.winners == ("blue",)    # 10


# --- RE-MERC-CROWNS -------------------------------------------------------------------------------

def test_RE_MERC_CROWNS_players_may_buy_crown_cards():
    s = fold(controlled3(), ev("CardRevealed", "blue", card=T1))
    s = with_player(s, "blue", coins=10)
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "crown_card"}])) == []


def test_RE_MERC_CROWNS_the_mercenary_army_buys_no_crown_card():
    s = fold(to_green(controlled3()), ev("CardRevealed", "green", card=T1))
    s = with_player(s, "green", coins=20)
    assert rules_of(s, ev("Spent", "green", purchases=[{"item": "crown_card"}])) == ["RE-MERC-CROWNS"]


def test_RE_MERC_CROWNS_a_mercenary_army_without_a_city_is_eliminated():
    s = with_board(merc3_placed(), {"Rusland": held("red", 3), "England": held("red", 2)})
    s = _end_round3(s)
    assert s.players["green"].eliminated and s.flow.order == ("blue", "orange", "red")
    s = commit_all(s, {p: (E1, E2) for p in MERC3_PLAYERS})
    assert s.flow.phase == "turn"                       # no Mercenary Army left to bid for
