"""The start of a game (rulebook p.6-7): the first event, starting supplies, the bid for first
player, and kingdom placement."""

from __future__ import annotations

from engine.core.commit import commitment
from engine.risk_europe import RULESET
from engine.risk_europe.board import default_data
from engine.risk_europe.common import crowns, has_tile
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.state import Units
from replay.logfile import format_line, make_envelope, read_log_text, seal
from replay.judge import judge
from tests.re_helpers import SEATS, ev, fold, placed, rules_of, start


def started(**payload):
    p = {"ruleset": "risk-europe", "players": [{"id": x} for x in SEATS], **payload}
    return PAYLOADS["GameStarted"].model_validate(p)


def start_rules(payload) -> list[str]:
    return [v.rule for v in RULESET.check_start(payload, default_data())]


def bids(*amounts):
    return [ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, amounts)]


def place(actor, city, **footmen):
    return ev("KingdomPlaced", actor, city=city, footmen=footmen)


def bid_won_by_blue():
    return fold(start(), *bids(2, 0, 1, 0))


# --- LOG-START (the log format's rule, the same for every ruleset) ---------------------------------------------------------------------------------

def judge_envelopes(*typed):
    envelopes = [make_envelope("g", i, t, a, p) for i, (t, a, p) in enumerate(typed)]
    return judge(read_log_text("\n".join(format_line(e) for e in seal(envelopes)) + "\n"))


def test_LOG_START_a_log_starts_with_GameStarted():
    j = judge_envelopes(("GameStarted", None, {"ruleset": "risk-europe", "players": [{"id": p} for p in SEATS]}),
                        ("BidPlaced", "blue", {"amount": 1}))
    assert [f.rule for f in j.findings] == [] and j.fatal is None


def test_LOG_START_a_log_starting_with_another_event_is_not_judged():
    j = judge_envelopes(("BidPlaced", "blue", {"amount": 1}))
    assert [f.rule for f in j.findings] == ["LOG-START"] and j.fatal


def test_LOG_START_an_unknown_ruleset_is_not_judged():
    j = judge_envelopes(("GameStarted", None, {"ruleset": "chess", "players": [{"id": "w"}]}))
    assert [f.rule for f in j.findings] == ["LOG-START"]


# --- RE-START-PLAYERS, RE-START-VARIANT, RE-START-DATA ---------------------------------------

def test_RE_START_PLAYERS_four_distinct_players_are_allowed():
    assert start_rules(started()) == []


def test_RE_START_PLAYERS_another_number_is_forbidden():
    p = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "risk-europe", "players": [{"id": x} for x in SEATS[:3]]})
    assert start_rules(p) == ["RE-START-PLAYERS"]


def test_RE_START_PLAYERS_ids_must_be_distinct():
    p = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "risk-europe", "players": [{"id": x} for x in ("blue", "red", "red", "green")]})
    assert start_rules(p) == ["RE-START-PLAYERS"]


def test_RE_START_VARIANT_basic_is_judged():
    assert start_rules(started(variant="basic")) == []


def test_RE_START_VARIANT_other_variants_are_not_judged():
    assert start_rules(started(variant="team")) == ["RE-START-VARIANT"]
    assert start_rules(started(variant="missions")) == ["RE-START-VARIANT"]


def test_RE_START_DATA_the_declared_board_must_be_the_judged_board():
    d = default_data()
    assert start_rules(started(data={"board": d.board_digest, "cards": d.cards_digest})) == []
    assert start_rules(started(data={"board": "0" * 64})) == ["RE-START-DATA"]
    assert start_rules(started(data={"cards": "0" * 64})) == ["RE-START-DATA"]


# --- RE-SETUP-COINS ---------------------------------------------------------------------------

def test_RE_SETUP_COINS_every_player_starts_with_five_coins_and_no_crown_card():
    s = start()
    assert {p: (x.coins, x.crown_cards) for p, x in s.players.items()} == {p: (5, 0) for p in SEATS}
    assert (s.castles_left, s.crown_cards_left) == (8, 8)


def test_RE_SETUP_COINS_one_castle_and_one_crown_each():
    s = placed()
    assert s.castles_left == 8 - 4
    assert {p: crowns(s, p) for p in SEATS} == {"blue": 1, "orange": 1, "red": 1, "green": 2}   # Rome: 2
    assert sum(1 for x in s.terr.values() if x.castle) == 4


# --- RE-BID-AMOUNT ----------------------------------------------------------------------------

def test_RE_BID_AMOUNT_up_to_the_five_coins_held():
    assert rules_of(start(), ev("BidPlaced", "blue", amount=5)) == []
    assert rules_of(start(), ev("BidPlaced", "blue", amount=0)) == []


def test_RE_BID_AMOUNT_more_than_the_coins_held_is_forbidden():
    assert rules_of(start(), ev("BidPlaced", "blue", amount=6)) == ["RE-BID-AMOUNT"]


def test_RE_BID_AMOUNT_a_revealed_bid_is_checked_too():
    s = fold(start(), ev("BidPlaced", "blue", commitment=commitment(6, "salt")))
    assert rules_of(s, ev("BidRevealed", "blue", amount=6, salt="salt")) == ["RE-BID-AMOUNT"]


# --- RE-BID-ONCE ------------------------------------------------------------------------------

def test_RE_BID_ONCE_each_player_bids_once():
    s = fold(start(), ev("BidPlaced", "blue", amount=1))
    assert rules_of(s, ev("BidPlaced", "orange", amount=1)) == []
    assert rules_of(s, ev("BidPlaced", "blue", amount=2)) == ["RE-BID-ONCE"]


# --- RE-BID-REVEAL ----------------------------------------------------------------------------

def test_RE_BID_REVEAL_the_committed_bid_is_revealed():
    s = fold(start(), ev("BidPlaced", "blue", commitment=commitment(3, "pepper")))
    assert rules_of(s, ev("BidRevealed", "blue", amount=3, salt="pepper")) == []


def test_RE_BID_REVEAL_another_amount_is_forbidden():
    s = fold(start(), ev("BidPlaced", "blue", commitment=commitment(3, "pepper")))
    assert rules_of(s, ev("BidRevealed", "blue", amount=1, salt="pepper")) == ["RE-BID-REVEAL"]


def test_RE_BID_REVEAL_without_a_hidden_bid_is_forbidden():
    s = fold(start(), ev("BidPlaced", "blue", amount=3))
    assert rules_of(s, ev("BidRevealed", "blue", amount=3, salt="x")) == ["RE-BID-REVEAL"]


def test_RE_BID_REVEAL_bids_are_settled_only_when_all_are_revealed():
    s = fold(start(), *[ev("BidPlaced", p, commitment=commitment(i, "s")) for i, p in enumerate(SEATS)])
    assert s.flow.phase == "bidding" and s.marker is None
    s = fold(s, *[ev("BidRevealed", p, amount=i, salt="s") for i, p in enumerate(SEATS)])
    assert s.marker == "green" and s.players["green"].coins == 2


# --- RE-BID-WINNER ----------------------------------------------------------------------------

def test_RE_BID_WINNER_the_highest_bidder_pays_and_takes_the_marker():
    s = fold(start(), *bids(1, 3, 2, 0))
    assert s.marker == "orange"
    assert {p: x.coins for p, x in s.players.items()} == {"blue": 5, "orange": 2, "red": 5, "green": 5}
    assert s.flow.phase == "placement" and s.flow.order == ("orange", "red", "green", "blue")


def test_RE_BID_WINNER_places_first_and_others_follow_to_the_left():
    s = fold(start(), *bids(1, 3, 2, 0))
    assert rules_of(s, place("blue", "Berlin", Saxony=10)) == ["RE-ACTOR"]
    assert rules_of(s, place("orange", "Kiev", Rusland=10)) == []


# --- RE-BID-TIE -------------------------------------------------------------------------------

def test_RE_BID_TIE_tied_bids_roll_off_and_the_highest_roll_wins():
    s = fold(start(), *bids(2, 2, 1, 0))
    assert s.flow.phase == "rolloff" and s.flow.tied == ("blue", "orange")
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [3], "orange": [5]}))
    assert s.marker == "orange" and s.players["orange"].coins == 3 and s.players["blue"].coins == 5


def test_RE_BID_TIE_tied_rolls_roll_again():
    s = fold(start(), *bids(2, 2, 2, 0), ev("DiceRolled", None, rolls={"blue": [6], "orange": [6], "red": [2]}))
    assert s.flow.phase == "rolloff" and s.flow.tied == ("blue", "orange")
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [4], "orange": [1]}))
    assert s.marker == "blue"


def test_RE_BID_TIE_only_the_tied_players_roll_one_die_each():
    s = fold(start(), *bids(2, 2, 1, 0))
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [3], "orange": [5], "red": [6]})) == ["RE-BID-TIE"]
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [3, 4], "orange": [5]})) == ["RE-BID-TIE"]


# --- RE-PLACE-CITY ----------------------------------------------------------------------------

def test_RE_PLACE_CITY_a_free_gold_crown_city_with_castle_tile_and_tax_value():
    s = fold(bid_won_by_blue(), place("blue", "Berlin", Saxony=5, Bohemia=5))
    x = s.terr["Saxony"]
    assert x.owner == "blue" and x.castle and x.units == Units(5)
    assert s.players["blue"].coins == 5 - 2 + 4
    assert has_tile(placed(), "blue", "Berlin")          # the tile is held from the first round


def test_RE_PLACE_CITY_a_black_crown_city_is_forbidden():
    assert rules_of(bid_won_by_blue(), place("blue", "Warsaw", Poland=10)) == ["RE-PLACE-CITY"]


def test_RE_PLACE_CITY_a_city_already_taken_is_forbidden():
    s = fold(bid_won_by_blue(), place("blue", "Berlin", Saxony=10))
    assert rules_of(s, place("orange", "Berlin", Saxony=10)) == ["RE-PLACE-CITY"]


def test_RE_PLACE_CITY_a_wrong_coins_claim_is_reported():
    e = ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 10}, coins=5)
    assert rules_of(bid_won_by_blue(), e) == ["RE-CLAIM"]


# --- RE-PLACE-BANNER --------------------------------------------------------------------------

def test_RE_PLACE_BANNER_starts_at_one():
    s = fold(bid_won_by_blue(), place("blue", "Berlin", Saxony=10))
    assert crowns(s, "blue") == 1


def test_RE_PLACE_BANNER_starts_at_two_in_rome():
    s = fold(bid_won_by_blue(), place("blue", "Rome", Rome=10))
    assert crowns(s, "blue") == 2


# --- RE-PLACE-FOOTMEN -------------------------------------------------------------------------

def test_RE_PLACE_FOOTMEN_ten_in_the_city_and_one_adjacent_non_city_territory():
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Saxony=5, Bohemia=5)) == []
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Saxony=10)) == []


def test_RE_PLACE_FOOTMEN_not_ten_is_forbidden():
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Saxony=5, Bohemia=4)) == ["RE-PLACE-FOOTMEN"]
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Saxony=6, Bohemia=5)) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_two_other_territories_is_forbidden():
    e = place("blue", "Berlin", Saxony=4, Bohemia=3, Franconia=3)
    assert rules_of(bid_won_by_blue(), e) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_a_territory_not_adjacent_is_forbidden():
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Saxony=5, Bavaria=5)) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_an_adjacent_city_territory_is_forbidden():
    assert rules_of(bid_won_by_blue(), place("blue", "Kiev", Rusland=5, Poland=5)) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_the_city_territory_itself_must_be_held():
    assert rules_of(bid_won_by_blue(), place("blue", "Berlin", Bohemia=10)) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_a_territory_another_kingdom_holds_is_forbidden():
    s = fold(bid_won_by_blue(), place("blue", "Berlin", Saxony=5, Lorraine=5))
    assert rules_of(s, place("orange", "Paris", France=5, Lorraine=5)) == ["RE-PLACE-FOOTMEN"]


def test_RE_PLACE_FOOTMEN_the_first_round_starts_after_the_last_kingdom():
    s = placed()
    assert s.flow.phase == "commit" and s.flow.round == 1
    assert s.terr["Bohemia"].units == Units(5) and s.terr["Lombardy"].owner == "green"
