"""One test per variant ruling in docs/rulings.md ("Variants"): where the rulebook is silent or
ambiguous about the 2- and 3-player games, team play or Kingdom Missions, the ruling pinned."""

from __future__ import annotations

from dataclasses import replace

from engine.risk_europe import RULESET
from tests.re_helpers import (
    MERC3_PLAYERS, SEATS, commit_all, control_bids, ev, finish_turns, fold, held, merc3_placed,
    play_round, rules_of, start_variant, setup_events, teams_placed, with_board, with_player,
)

T1, T2, TK = "tax-spend-1", "tax-spend-2", "tax-spend-king"
E1, E2, ES = "expand-maneuver-fortify-1", "expand-maneuver-fortify-2", "expand-maneuver-siege"


def round3(state, cards=None, bids=None):
    """Commit the players' cards and give control of green to orange."""
    cards = cards or {p: (T1, T2) for p in MERC3_PLAYERS}
    s = commit_all(state, {p: cards[p] for p in state.flow.order if p in cards})
    return control_bids(s, bids or {p: (1 if p == "orange" else 0) for p in s.active_players})


def test_RE_RULING_MERC_SEAT_the_deck_keeps_its_seat_when_the_marker_moves():
    s = finish_turns(round3(merc3_placed(), {"blue": (T1, T2), "orange": (T1, T2), "red": (TK, T2)}))
    assert s.marker == "red" and s.flow.order == ("red", "green", "blue", "orange")


def test_RE_RULING_MERC_KING_ME_the_marker_stays_with_the_player():
    s = round3(merc3_placed())
    for p in MERC3_PLAYERS:
        s = fold(s, ev("CardRevealed", p, card=T1))
    s = fold(s, ev("CardRevealed", "green", card=TK))
    assert s.marker == "blue" and s.flow.bonus_used and s.flow.pending is None


def test_RE_RULING_MERC_FLIP_the_ninth_flip_draws_from_a_reshuffled_deck():
    deck = list(merc3_placed().data.cards)
    s = merc3_placed()
    rounds = [{"blue": (a, b), "orange": (a, b), "red": (a, b)}
              for a, b in ((T1, T2), (E1, E2), (ES, TK), ("split-maneuver-1", "split-maneuver-2"))]
    flips = iter(deck)
    for cards in rounds:
        s = round3(s, cards)
        for t in (1, 2):
            for p in s.flow.order:
                card = next(flips) if p == "green" else cards[p][t - 1]
                s = fold(s, ev("CardRevealed", p, card=card))
        s = RULESET.conclude(s)
    assert s.flow.round == 5 and s.players["green"].hand == frozenset()
    s = round3(s, {"blue": (T1, T2), "orange": (T1, T2), "red": (T1, T2)})
    for p in s.flow.order[:s.flow.order.index("green")]:
        s = fold(s, ev("CardRevealed", p, card=T1))
    s = fold(s, ev("CardRevealed", "green", card=deck[0]))
    assert len(s.players["green"].hand) == 7 and "reshuffled" in " ".join(s.notes)


def test_RE_RULING_MERC_CONTROL_the_army_is_the_actor_and_control_ends_with_the_round():
    s = with_board(merc3_placed(), {"Galicia": held("green", 4), "Poland": held("blue", 1)})
    s = round3(s)
    for p in MERC3_PLAYERS:
        s = fold(s, ev("CardRevealed", p, card=T1))
    s = fold(s, ev("CardRevealed", "green", card=E1))
    assert rules_of(s, ev("Expanded", "orange", from_="Galicia", to="Poland", units={"footman": 3})) == ["RE-TURN-ORDER"]
    s = fold(s, ev("Expanded", "green", from_="Galicia", to="Poland", units={"footman": 3}))
    for p in MERC3_PLAYERS:
        s = fold(s, ev("CardRevealed", p, card=T2))
    s = fold(s, ev("CardRevealed", "green", card=E2))
    s = RULESET.conclude(s)
    assert s.flow.phase == "battles" and s.players["green"].controller == "orange"
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"),
             ev("DiceRolled", None, rolls={"blue": [1], "green": [6, 6, 6]}, rank=4),
             ev("CasualtiesRemoved", "blue", territory="Poland", units={"footman": 1}))
    assert s.terr["Poland"].owner == "green" and s.flow.round == 2 and s.players["green"].controller is None


def test_RE_RULING_CROWN_CARDS_MERCENARIES_players_buy_them_the_mercenary_army_does_not():
    s = with_player(with_player(round3(merc3_placed()), "blue", coins=10), "green", coins=10)
    s = fold(s, ev("CardRevealed", "blue", card=T1))
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "crown_card"}])) == []
    for p in ("orange", "red"):
        s = fold(s, ev("CardRevealed", p, card=T1))
    s = fold(s, ev("CardRevealed", "green", card=T1))
    assert rules_of(s, ev("Spent", "green", purchases=[{"item": "crown_card"}])) == ["RE-MERC-CROWNS"]


def test_RE_RULING_MERC_LAST_PLAYER_the_last_player_wins_over_mercenary_armies():
    s = merc3_placed()
    gone = {t: held("green", 2) for t in ("Saxony", "Sweden", "France", "Leon Castile")}
    s = with_board(s, gone)
    s = replace(s, marker="orange")
    s = finish_turns(round3(s))
    assert s.players["blue"].eliminated and s.players["orange"].eliminated
    assert s.result is not None and s.result.winners == ("red",) and s.result.reason == "last player standing"


def test_RE_RULING_MERC_LAST_PLAYER_the_marker_skips_the_mercenary_seat():
    s = with_board(merc3_placed(), {"Rome": held("green", 2), "Turkey": held("green", 2)})
    s = replace(s, marker="red")
    s = finish_turns(round3(s, bids={"blue": 1, "orange": 0, "red": 0}))
    assert s.players["red"].eliminated and s.marker == "blue"


def test_RE_RULING_DRAFT_TERRITORIES_a_drafted_city_brings_its_own_territory():
    s = start_variant("mercenaries-3p", MERC3_PLAYERS, ("green",))
    s = fold(s, ev("TilesDrawn", None, army="green", tiles=["Kiev", "London"]),
             *[ev("BidPlaced", p, amount=a) for p, a in (("blue", 2), ("orange", 1), ("red", 0))],
             ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 3, "Denmark": 2}),
             ev("KingdomPlaced", "orange", city="Paris", footmen={"France": 5}),
             ev("KingdomPlaced", "red", city="Rome", footmen={"Rome": 5}))
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Stockholm", footmen={"Sweden": 3, "Denmark": 2})) == ["RE-PLACE-FOOTMEN"]
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Stockholm", footmen={"Sweden": 3, "Norway": 2})) == []
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Stockholm", footmen={"Sweden": 5})) == []


def test_RE_RULING_TEAM_TIE_territories_then_coins_decide():
    s = teams_placed()
    s = replace(s, flow=s.flow._replace(round=16), step=16000)
    tied = play_round(s)
    assert tied.result.reason == "crown cities with tie-break"
    coins = {p: tied.players[p].coins + (10 if tied.marker == p else 0) for p in SEATS}
    assert tied.result.winners == (("blue", "red") if coins["blue"] + coins["red"] > coins["orange"] + coins["green"]
                                   else ("orange", "green"))
    more = play_round(with_board(s, {"Bavaria": held("orange", 1)}))
    assert more.result.winners == ("orange", "green")
    even = replace(s, marker=None)
    for p in SEATS:
        even = with_player(even, p, coins=5)
    assert set(play_round(even).result.winners) == set(SEATS)


def test_RE_RULING_TEAM_ELIMINATION_the_last_team_standing_wins():
    s = teams_placed()
    lost = {"Saxony": held("orange", 2), "Sweden": held("orange", 2)}
    s = play_round(with_board(s, lost))
    assert s.players["blue"].eliminated and s.result is None and s.marker == "orange"
    lost = {"France": held("green", 2), "Leon Castile": held("green", 2)}
    s = play_round(with_board(s, lost), {p: (E2, T2) for p in SEATS})
    assert s.result.winners == ("orange", "green") and s.result.reason == "last team standing"


# --- Kingdom Missions ----------------------------------------------------------------------------

def missions_round(variant="basic+missions"):
    s = fold(start_variant(variant), *setup_events())
    return commit_all(s, {p: (TK, T1) for p in SEATS})


def test_RE_RULING_MISSION_TIMING_only_on_the_holders_turn():
    s = fold(missions_round(), ev("CardRevealed", "blue", card=TK), ev("MissionKept", "blue", mission="mission-2"))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == ["RE-MISSION-UNVERIFIED"]
    s = fold(s, ev("CardRevealed", "orange", card=TK), ev("MissionKept", "orange", mission="mission-5"))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == ["RE-TURN-ORDER"]


def test_RE_RULING_MISSION_DECK_the_last_card_is_kept_then_nothing_is_drawn():
    s = replace(missions_round(), crown_cards_left=1)
    s = fold(s, ev("CardRevealed", "blue", card=TK))
    assert s.flow.pending == ("mission", "blue", 1)
    s = fold(s, ev("MissionKept", "blue", mission="mission-1"))
    assert s.crown_cards_left == 0
    s = fold(s, ev("CardRevealed", "orange", card=TK))
    assert s.marker == "orange" and s.flow.pending is None
    assert rules_of(s, ev("MissionKept", "orange", mission="mission-2")) == ["RE-MISSION-DRAW"]


def test_RE_RULING_MISSION_DECK_a_mission_kept_openly_cannot_be_kept_again():
    s = fold(missions_round(), ev("CardRevealed", "blue", card=TK), ev("MissionKept", "blue", mission="mission-2"),
             ev("CardRevealed", "orange", card=TK))
    assert rules_of(s, ev("MissionKept", "orange", mission="mission-2")) == ["RE-MISSION-DRAW"]

