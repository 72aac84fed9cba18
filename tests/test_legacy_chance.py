"""Random draws in Risk Legacy (RL-CHANCE-DRAW) and Scar cards dealt face down (RL-SCAR-REVEAL).

Given a position, when a draw comes with dice, then the dice must be the ones the draw rule
(engine.core.chance) takes to draw exactly the recorded cards from the pool the engine names, and
they are dice of the game (RL-DICE-SEED at their own line once the seed is known). A Scar card
dealt as a commitment is checked when it is turned over: by its salt, and against the deal's
secret dice when the seed is known."""

from __future__ import annotations

from dataclasses import replace

import engine.core.chance as core_chance
import engine.risk_europe.chance as europe_chance
from engine.core.canonical import sha256_hex
from engine.core.chance import draw, draw_with
from engine.core.commit import commitment
from engine.core.dice import SeededDice
from engine.risk_legacy import RULESET
from engine.risk_legacy.setup import layout_pool, reveal_pool, scar_pool
from engine.risk_legacy.legal import chance_needed
from engine.risk_legacy.state import FACE_DOWN, Terr
from tests.test_legacy_helpers import (
    SEATS, STARTS, ev, fold, placed, rules_of, start, turn_of, with_board,
)

SEED = "chance-seed-7"
SEEDED = {"mode": "seeded", "seed_hash": sha256_hex(SEED)}
SALTS = {"ann": "s-ann", "bob": "s-bob", "cat": "s-cat"}


def seeded(**extra):
    return start(dice=SEEDED, **extra)


class Stream:
    """The seed's dice in order, as the table draws them."""

    def __init__(self, seed: str = SEED):
        self.dice = SeededDice(seed)

    def die(self) -> int:
        return self.dice.roll(1)[0]

    def draw(self, pool, n):
        return draw(pool, n, self.die)


def other(dice: list[int], i: int = 0) -> list[int]:
    """The same dice with die `i` changed."""
    out = list(dice)
    out[i] = out[i] % 6 + 1
    return out


def deal_face_down(s, table: Stream, salts=SALTS):
    """The face-down deal the seed makes: (the event, the cards each seat got)."""
    cards, used = table.draw(scar_pool(s), len(s.seats))
    got = dict(zip(s.seats, cards))
    e = ev("ScarCardsDealt", None, commitments={p: commitment(got[p], salts[p]) for p in s.seats},
           hidden_dice=len(used))
    return e, got


def up_to_turns(s, table: Stream):
    """From the face-up cards to ann's first turn, every die from the stream."""
    cards, used = table.draw(layout_pool(s), 4)
    s = fold(s, ev("CardsLaidOut", None, cards=cards, dice=used))
    rolls = {p: table.dice.roll(1) for p in s.seats}
    s = fold(s, ev("DiceRolled", None, rolls=rolls))
    while s.flow.phase == "rolloff":
        s = fold(s, ev("DiceRolled", None, rolls={p: table.dice.roll(1) for p in s.flow.tied}))
    for p in s.flow.order:
        f, t = STARTS[p]
        s = fold(s, ev("FactionChosen", p, faction=f, territory=t))
    return s


def attack_on(s, defender: str, territory: str):
    """ann attacks `defender` in `territory` (2 troops there) from Brazil: the scar window."""
    s = with_board(s, {territory: Terr(defender, 2)})
    return fold(turn_of(s, "ann"), ev("AttackDeclared", "ann", from_="brazil", to=territory, troops=3))


# --- one draw rule, shared ----------------------------------------------------------------------

def test_the_draw_rule_lives_in_engine_core_and_risk_europe_uses_it():
    for name in ("uniform", "draw", "draw_with", "DrawError"):
        assert getattr(europe_chance, name) is getattr(core_chance, name)
    cards, used = Stream().draw(["A1", "A2", "A3"], 3)
    assert sorted(cards) == ["A1", "A2", "A3"] and draw_with(["A1", "A2", "A3"], 3, used) == cards


# --- RL-CHANCE-DRAW -------------------------------------------------------------------------------

def test_RL_CHANCE_DRAW_the_pools_are_in_the_data_files_order():
    s = start()
    assert scar_pool(s) == ("bunker",) * 3 + ("ammo_shortage",) * 3
    assert layout_pool(s)[:12] == tuple(f"A{i}" for i in range(1, 13)) and len(layout_pool(s)) == 42
    spec = chance_needed(s)
    assert (spec.kind, spec.pool, spec.draw) == ("scars", scar_pool(s), 3)


def test_RL_CHANCE_DRAW_the_dice_give_the_cards_laid_out():
    s = seeded()
    cards, used = Stream().draw(layout_pool(s), 4)
    assert rules_of(s, ev("CardsLaidOut", None, cards=cards, dice=used)) == []
    after = fold(s, ev("CardsLaidOut", None, cards=cards, dice=used))
    assert after.side.slots == tuple(cards) and after.dice.count == len(used)


def test_RL_CHANCE_DRAW_dice_that_draw_other_cards_are_a_finding():
    s = seeded()
    cards, used = Stream().draw(layout_pool(s), 4)
    vs = RULESET.check(s, ev("CardsLaidOut", None, cards=cards, dice=other(used)))
    assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"] and "the log has" in vs[0].message
    assert rules_of(s, ev("CardsLaidOut", None, cards=cards[::-1], dice=used)) == ["RL-CHANCE-DRAW"]


def test_RL_CHANCE_DRAW_too_few_or_too_many_dice():
    s = seeded()
    cards, used = Stream().draw(layout_pool(s), 4)
    assert rules_of(s, ev("CardsLaidOut", None, cards=cards, dice=used[:-1])) == ["RL-CHANCE-DRAW"]
    vs = RULESET.check(s, ev("CardsLaidOut", None, cards=cards, dice=used + [3]))
    assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"] and f"{len(used) + 1} are recorded" in vs[0].message


def test_RL_CHANCE_DRAW_a_seeded_draw_without_dice_is_a_finding():
    e = ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"])
    assert rules_of(seeded(), e) == ["RL-CHANCE-DRAW"]
    assert rules_of(seeded(), ev("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "bunker",
                                                                 "cat": "ammo_shortage"})) == ["RL-CHANCE-DRAW"]


def test_RL_CHANCE_DRAW_a_table_draw_without_dice_is_taken_as_recorded():
    s = fold(start(), ev("CardsLaidOut", None, cards=["A9", "A2", "A30", "A4"]))
    assert s.side.slots == ("A9", "A2", "A30", "A4") and s.dice.count == 0


def test_RL_CHANCE_DRAW_a_face_up_scar_deal_goes_in_seat_order():
    s = seeded()
    cards, used = Stream().draw(scar_pool(s), 3)
    dealt = dict(zip(SEATS, cards))
    assert rules_of(s, ev("ScarCardsDealt", None, cards=dealt, dice=used)) == []
    backwards = dict(zip(SEATS, cards[::-1]))
    if backwards != dealt:
        assert rules_of(s, ev("ScarCardsDealt", None, cards=backwards, dice=used)) == ["RL-CHANCE-DRAW"]
    assert rules_of(s, ev("ScarCardsDealt", None, cards=dealt, dice=used[:-1])) == ["RL-CHANCE-DRAW"]


def seeded_dice(s):
    """`s` with its dice said to be a seed's stream."""
    return replace(s, dice=replace(s.dice, mode="seeded"))


def test_RL_CHANCE_DRAW_a_reveal_is_drawn_from_the_deck():
    s = seeded_dice(turn_of(placed(), "ann", conquered=1))
    s = fold(s, ev("CardDrawn", "ann", card="coin"))
    pool = reveal_pool(s)
    assert pool == tuple(f"A{i}" for i in range(5, 43))      # the deck: A1-A4 were laid out, A4 is now discarded
    [card], used = Stream("reveal").draw(pool, 1)
    assert rules_of(s, ev("CardRevealed", None, card=card, dice=used)) == []
    wrong = next(c for c in pool if c != card)
    assert rules_of(s, ev("CardRevealed", None, card=wrong, dice=used)) == ["RL-CHANCE-DRAW"]
    assert rules_of(s, ev("CardRevealed", None, card=card)) == ["RL-CHANCE-DRAW"]


def test_RL_CHANCE_DRAW_an_empty_deck_is_the_discard_pile_shuffled():
    s = turn_of(placed(), "ann", conquered=1)
    s = seeded_dice(replace(s, side=s.side._replace(draw=frozenset(), discard=frozenset({"A30", "A7", "A12"}))))
    s = fold(s, ev("CardDrawn", "ann", card="coin"))            # slot 4 (A4) goes to the discard pile
    assert reveal_pool(s) == ("A4", "A7", "A12", "A30")          # the board file's order
    [card], used = Stream("reshuffle").draw(reveal_pool(s), 1)
    after = fold(s, ev("CardRevealed", None, card=card, dice=used))
    assert after.side.slots[0] == card and after.side.discard == frozenset()
    assert after.side.draw == frozenset({"A4", "A7", "A12", "A30"}) - {card}
    # the same dice read against the old deck's order would be another draw
    wrong = next(c for c in reveal_pool(s) if c != card)
    assert rules_of(s, ev("CardRevealed", None, card=wrong, dice=used)) == ["RL-CHANCE-DRAW"]


def test_RL_CHANCE_DRAW_event_and_mission_cards_take_the_dice_of_one_draw_from_their_deck():
    s = start(missions=5)
    s = fold(s, *[ev("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "bunker", "cat": "ammo_shortage"}),
                  ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"])])
    assert chance_needed(s).deck == 5
    [_], used = Stream("missions").draw(range(5), 1)
    assert rules_of(s, ev("MissionRevealed", None, card="M3", dice=used)) == []
    assert fold(s, ev("MissionRevealed", None, card="M3", dice=used)).dice.count == len(used)
    assert rules_of(s, ev("MissionRevealed", None, card="M3", dice=used + used)) == ["RL-CHANCE-DRAW"]
    assert rules_of(s, ev("MissionRevealed", None, card="M3", dice=[])) == ["RL-CHANCE-DRAW"]
    # the deck's cards are not known: without dice the card is a claim, even in a seeded game
    assert rules_of(seeded_dice(s), ev("MissionRevealed", None, card="M3")) == []


def test_RL_CHANCE_DRAW_draw_dice_are_dice_of_the_game():
    s = RULESET.reveal_seed(seeded(), SEED)
    cards, used = Stream().draw(layout_pool(s), 4)
    assert rules_of(s, ev("CardsLaidOut", None, cards=cards, dice=used)) == []
    # dice that draw the same cards but are not the seed's: caught against the stream
    lied, lie_used = Stream("another seed").draw(layout_pool(s), 4)
    assert rules_of(s, ev("CardsLaidOut", None, cards=lied, dice=lie_used)) == ["RL-DICE-SEED"]


def test_RL_CHANCE_DRAW_a_face_down_deal_in_a_seeded_game_says_how_many_dice_it_used():
    s = seeded()
    e, _ = deal_face_down(s, Stream())
    assert rules_of(s, e) == []
    bare = ev("ScarCardsDealt", None, commitments=dict(e.payload.commitments))
    assert rules_of(s, bare) == ["RL-CHANCE-DRAW"]
    # with the seed known, the number is checked against the deal the seed makes
    taped = RULESET.reveal_seed(s, SEED)
    assert rules_of(taped, e) == []
    wrong = ev("ScarCardsDealt", None, commitments=dict(e.payload.commitments),
               hidden_dice=e.payload.hidden_dice + 1)
    vs = RULESET.check(taped, wrong)
    assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"] and "the seed's dice make the deal" in vs[0].message
    after = fold(taped, e)
    assert after.dice.count == e.payload.hidden_dice and after.dice.log is None   # counted, never logged


# --- RL-SCAR-REVEAL -------------------------------------------------------------------------------

def face_down_game(*, taped: bool):
    """A seeded game whose Scar cards were dealt face down, at ann's first turn."""
    table = Stream()
    s = seeded()
    if taped:
        s = RULESET.reveal_seed(s, SEED)
    e, got = deal_face_down(s, table)
    s = fold(s, e)
    assert all(s.players[p].scar == FACE_DOWN for p in SEATS)
    return up_to_turns(s, table), got, table


def test_RL_SCAR_REVEAL_the_right_salt_turns_the_card_over():
    s, got, _ = face_down_game(taped=True)
    s = attack_on(s, "bob", "peru")
    place = ev("ScarPlaced", "bob", scar=got["bob"], territory="peru", salt=SALTS["bob"])
    assert rules_of(s, place) == []
    after = fold(s, place)
    assert after.players["bob"].scar is None
    from engine.risk_legacy import world as W
    assert W.marks(after.world, "peru").scar == got["bob"]


def test_RL_SCAR_REVEAL_a_wrong_salt_is_a_finding():
    s, got, _ = face_down_game(taped=True)
    s = attack_on(s, "bob", "peru")
    vs = RULESET.check(s, ev("ScarPlaced", "bob", scar=got["bob"], territory="peru", salt="guess"))
    assert [v.rule for v in vs] == ["RL-SCAR-REVEAL"] and "'guess'" in vs[0].message
    assert rules_of(s, ev("ScarPlaced", "bob", scar=got["bob"], territory="peru")) == ["RL-SCAR-REVEAL"]


def test_RL_SCAR_REVEAL_a_wrong_card_is_a_finding():
    s, got, _ = face_down_game(taped=False)
    s = attack_on(s, "bob", "peru")
    swap = "bunker" if got["bob"] == "ammo_shortage" else "ammo_shortage"
    assert rules_of(s, ev("ScarPlaced", "bob", scar=swap, territory="peru", salt=SALTS["bob"])) == \
        ["RL-SCAR-REVEAL"]


def test_RL_SCAR_REVEAL_checked_against_the_deal_the_seed_made():
    """A dealer who committed bob to another card than the dice drew: the salt matches, the seed
    does not — at the reveal when the seed is known, else when it is revealed."""
    table = Stream()
    s = RULESET.reveal_seed(seeded(), SEED)
    cards, used = table.draw(scar_pool(s), 3)
    got = dict(zip(SEATS, cards))
    swap = "bunker" if got["bob"] == "ammo_shortage" else "ammo_shortage"
    lies = {**got, "bob": swap}
    e = ev("ScarCardsDealt", None, commitments={p: commitment(lies[p], SALTS[p]) for p in SEATS},
           hidden_dice=len(used))
    s = up_to_turns(fold(s, e), table)
    s = attack_on(s, "bob", "peru")
    vs = RULESET.check(s, ev("ScarPlaced", "bob", scar=swap, territory="peru", salt=SALTS["bob"]))
    assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"] and "gave bob" in vs[0].message


def test_RL_SCAR_REVEAL_an_unplayed_card_is_returned_when_the_game_ends():
    s, got, _ = face_down_game(taped=True)
    back = ev("ScarCardReturned", "cat", scar=got["cat"], salt=SALTS["cat"])
    vs, nxt = RULESET.step(s, back)
    assert [v.rule for v in vs] == ["RL-SCAR-REVEAL"] and nxt is None      # not while the game goes on
    over = replace(s, result=_won(s))
    assert rules_of(over, back) == []
    assert rules_of(over, ev("ScarCardReturned", "cat", scar=got["cat"], salt="nope")) == ["RL-SCAR-REVEAL"]
    done = fold(over, back)
    assert done.players["cat"].scar is None
    assert rules_of(done, back) == ["RL-SCAR-REVEAL"]                     # once


def test_RL_SCAR_REVEAL_a_card_never_turned_over_is_noted_when_the_seed_is_revealed():
    s, got, _ = face_down_game(taped=False)
    over = replace(s, result=_won(s))
    vs = RULESET.check(over, ev("SeedRevealed", None, seed=SEED))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-SCAR-REVEAL", False)]
    for p in SEATS:
        over = fold(over, ev("ScarCardReturned", p, scar=got[p], salt=SALTS[p]))
    assert rules_of(over, ev("SeedRevealed", None, seed=SEED)) == []


def test_RL_SCAR_REVEAL_the_seed_revealed_at_the_end_checks_the_secret_deal():
    """The seed not known before: the deal's dice, never logged, are drawn from it at the end and
    held against the cards turned over; the logged dice around them are checked in place."""
    s, got, _ = face_down_game(taped=False)
    over = replace(s, result=_won(s))
    for p in SEATS:
        over = fold(over, ev("ScarCardReturned", p, scar=got[p], salt=SALTS[p]))
    vs, after = RULESET.step(over, ev("SeedRevealed", None, seed=SEED))
    assert vs == [] and after.scar_deal.drawn == got
    # a dealer who committed cat to another card: the salt matches, the seed does not
    table = Stream()
    s = seeded()
    cards, used = table.draw(scar_pool(s), 3)
    lies = {**dict(zip(SEATS, cards)), "cat": "bunker" if cards[2] == "ammo_shortage" else "ammo_shortage"}
    s = fold(s, ev("ScarCardsDealt", None, commitments={p: commitment(lies[p], SALTS[p]) for p in SEATS},
                   hidden_dice=len(used)))
    s = replace(up_to_turns(s, table), result=_won(s))
    for p in SEATS:
        s = fold(s, ev("ScarCardReturned", p, scar=lies[p], salt=SALTS[p]))
    vs = RULESET.check(s, ev("SeedRevealed", None, seed=SEED))
    assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"] and "cat turned over" in vs[0].message


def _won(s):
    from engine.core.ruleset import GameResult
    return GameResult(("ann",), "4 red stars", 1, {})


def test_RL_CHANCE_DRAW_a_wrong_die_after_the_secret_deal_is_counted_in_the_game():
    """The seed learned at the end: a logged die that is not the seed's is named by its place in
    the game, the deal's secret dice counted."""
    table = Stream()
    s = seeded()
    e, got = deal_face_down(s, table)
    s = fold(s, e)
    cards, used = table.draw(layout_pool(s), 4)
    lied = other(used, len(used) - 1)
    vs, s = RULESET.step(s, ev("CardsLaidOut", None, cards=cards, dice=lied))
    if vs:                                    # the changed die may draw other cards too
        assert [v.rule for v in vs] == ["RL-CHANCE-DRAW"]
    vs = RULESET.check(s, ev("SeedRevealed", None, seed=SEED))
    assert [v.rule for v in vs] == ["RL-DICE-SEED"]
    assert f"die #{e.payload.hidden_dice + len(used)} of the game" in vs[0].message


def test_RL_SETUP_SCARS_no_more_of_a_kind_turned_over_than_the_deal_held():
    from tests.test_legacy_helpers import setup_events, world
    w = world(supply={**world().supply, "scar:bunker": 1, "scar:ammo_shortage": 3})
    lies = {"ann": "bunker", "bob": "bunker", "cat": "ammo_shortage"}
    s = start(w=w)
    assert scar_pool(s) == ("bunker", "ammo_shortage", "ammo_shortage", "ammo_shortage")
    s = fold(s, ev("ScarCardsDealt", None, commitments={p: commitment(lies[p], SALTS[p]) for p in SEATS}),
             *setup_events(scars=False))
    over = replace(s, result=_won(s))
    over = fold(over, ev("ScarCardReturned", "ann", scar="bunker", salt=SALTS["ann"]))
    vs = RULESET.check(over, ev("ScarCardReturned", "bob", scar="bunker", salt=SALTS["bob"]))
    assert [v.rule for v in vs] == ["RL-SETUP-SCARS"] and "second bunker" in vs[0].message


def test_RL_CHANCE_DRAW_a_table_game_has_no_hidden_dice():
    e = ev("ScarCardsDealt", None, commitments={p: commitment("bunker", SALTS[p]) for p in SEATS}, hidden_dice=3)
    assert rules_of(start(), e) == ["RL-CHANCE-DRAW"]
    assert rules_of(start(), ev("ScarCardsDealt", None, commitments=dict(e.payload.commitments))) == []


def test_a_scar_deal_is_face_up_or_face_down_not_both():
    import pytest
    from pydantic import ValidationError
    from engine.risk_legacy.events import ScarCardsDealt
    for bad in ({}, {"cards": {"ann": "bunker"}, "commitments": {"ann": "00"}},
                {"commitments": {"ann": "00"}, "dice": [1]}, {"cards": {"ann": "bunker"}, "hidden_dice": 2}):
        with pytest.raises(ValidationError):
            ScarCardsDealt.model_validate(bad)
