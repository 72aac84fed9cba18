"""What the chapters of the Warrior Knights engine share: the verdict context, reading names
(areas, Nobles, troops) and cards (by id, or by printed fields in observed mode) from payloads,
the decks, and derived facts (who controls what, an army's strength, seat orders)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from engine.core.data import DataShapeError, Shape
from engine.core.rules import Verdicts
from engine.warrior_knights.cards import (
    LEADER_KINDS, MERC_KINDS, FateCard, Mercenary, agenda_card, event_card, fate_card,
)
from engine.warrior_knights.rules import RULES
from engine.warrior_knights.state import (
    STRONGHOLD, Army, Deck, Noble, NobleId, PlayerId, State, Troop, evolve,
)

class Ctx(Verdicts):
    book = RULES


# --- seats --------------------------------------------------------------------------------------

def clockwise_from(s: State, first: PlayerId | None) -> tuple[PlayerId, ...]:
    """The seats clockwise (seat order) starting with `first`."""
    if first is None or first not in s.seats:
        return s.seats
    i = s.seats.index(first)
    return s.seats[i:] + s.seats[:i]


def counterclockwise_from(s: State, first: PlayerId) -> tuple[PlayerId, ...]:
    i = s.seats.index(first)
    return tuple(s.seats[(i - k) % len(s.seats)] for k in range(len(s.seats)))


def set_baron(s: State, seat: PlayerId, **changes: Any) -> State:
    barons = dict(s.barons)
    barons[seat] = barons[seat]._replace(**changes)
    return evolve(s, barons=barons)


def set_noble(s: State, noble: NobleId, **changes: Any) -> State:
    nobles = dict(s.nobles)
    nobles[noble] = nobles[noble]._replace(**changes)
    return evolve(s, nobles=nobles)


def set_city(s: State, city: str, **changes: Any) -> State:
    cities = dict(s.cities)
    cities[city] = cities[city]._replace(**changes)
    return evolve(s, cities=cities)


def pay(s: State, seat: PlayerId, crowns: int) -> State:
    """`seat` pays `crowns` to the treasury (the caller has checked he can)."""
    return set_baron(s, seat, crowns=s.barons[seat].crowns - crowns)


def gain(s: State, seat: PlayerId, crowns: int) -> State:
    return set_baron(s, seat, crowns=s.barons[seat].crowns + crowns)


# --- names in payloads ---------------------------------------------------------------------------

def area_of(s: State, name: str, c: Ctx, rule: str = "WK-FLOW") -> str | None:
    """The board's id of an area a payload names; None (skipped with `rule`) for a name the board
    does not have."""
    a = s.data.board.resolve(name)
    if a is None:
        c.skip(rule, f"{name!r} is not an area (or a city) of the board {s.data.board.label}")
    return a


def city_of(s: State, name: str, c: Ctx, rule: str = "WK-FLOW") -> str | None:
    """The city a payload names (by city id or name, or by its area)."""
    b = s.data.board
    if isinstance(name, str) and name in b.cities:
        return name
    a = b.resolve(name)
    if a is None or b.areas[a].city is None:
        c.skip(rule, f"{name!r} is not a city of the board {b.label}")
        return None
    return b.areas[a].city


def noble_of(s: State, name: str, actor: PlayerId | None, c: Ctx, rule: str = "WK-FLOW") -> NobleId | None:
    """A Noble a payload names: "<seat>-<shape>", or a shape alone for the actor's own."""
    if name in s.nobles:
        return name
    if actor is not None and f"{actor}-{name}" in s.nobles:
        return f"{actor}-{name}"
    c.skip(rule, f"{name!r} is not a Noble of this game" + (f" (nor a shape of {actor}'s)" if actor else ""))
    return None


def troop_of(s: State, seat: PlayerId, name: str) -> str | None:
    """A troop of `seat` a payload names: its id, or "r1".."r4" for a regular."""
    troops = s.barons[seat].troops
    if name in troops:
        return name
    if f"{seat}-{name}" in troops:
        return f"{seat}-{name}"
    return None


def troops_named(s: State, seat: PlayerId, names, c: Ctx, rule: str) -> list[str] | None:
    """The troop ids of `seat` that a payload's `names` give (troop_of); None (skipped with
    `rule`) at the first name that is none of his troops."""
    out = []
    for name in names:
        t = troop_of(s, seat, name)
        if t is None:
            c.skip(rule, f"{name!r} is not a troop of {seat}")
            return None
        out.append(t)
    return out


def seat_of(s: State, name: object) -> PlayerId | None:
    """A Baron a payload names: his seat id, or his colour."""
    if name in s.barons:
        return name  # type: ignore[return-value]
    for seat, b in s.barons.items():
        if b.color == name:
            return seat
    return None


# --- cards ---------------------------------------------------------------------------------------

def _printed(card: Any, what: str, c: Ctx, read) -> Any:
    if not isinstance(card, dict):
        c.skip("WK-CARD", f"no cards file lists the {what} deck, so a {what} card is given by its "
               f"printed fields (observed mode), not {card!r}")
        return None
    try:
        return read(Shape(card, f"the {what} card's printed fields"),
                    card.get("id") if isinstance(card.get("id"), str) else None)
    except DataShapeError as exc:
        c.skip("WK-CARD", str(exc))
        return None


def _listed(card: Any, deck: dict, what: str, label: str, c: Ctx) -> Any:
    if not isinstance(card, str):
        c.skip("WK-CARD", f"{label} lists the {what} deck: name the card by its id, not by printed fields")
        return None
    if card not in deck:
        c.skip("WK-CARD", f"{card!r} is not a {what} card of {label}")
        return None
    return deck[card]


def read_fate(s: State, card: Any, c: Ctx) -> FateCard | None:
    deck = s.data.cards.fate
    if deck is None:
        return _printed(card, "Fate", c, fate_card)
    return _listed(card, deck, "Fate", s.data.cards.label, c)


def read_event(s: State, card: Any, c: Ctx) -> Any:
    deck = s.data.cards.events
    if deck is None:
        return _printed(card, "Event", c, event_card)
    return _listed(card, deck, "Event", s.data.cards.label, c)


def read_agenda(s: State, card: Any, c: Ctx) -> Any:
    deck = s.data.cards.agendas
    if deck is None:
        a = _printed(card, "Agenda", c, agenda_card)
        if a is not None and a.id is None:
            c.skip("WK-CARD", "an Agenda in observed mode carries an \"id\" the log names it by")
            return None
        return a
    return _listed(card, deck, "Agenda", s.data.cards.label, c)


def _merc_print(sh: Shape, card_id: str | None) -> Mercenary:
    if card_id is None:
        raise sh["id"].fail("a label (\"id\") the log names the Mercenary by")
    return Mercenary(card_id, sh["nationality"].str(), sh["strength"].int(), sh["wage"].int(),
                     sh.get("kind", "troop").one_of(MERC_KINDS), ability=sh.get("ability").optional_str() or "")


def read_mercenary(s: State, card: Any, c: Ctx) -> Troop | None:
    """A Mercenary drawn: a troop, or (For Glory) a Leader or Herald (`kind`)."""
    deck = s.data.cards.mercenaries
    m = _printed(card, "Mercenary", c, _merc_print) if deck is None else \
        _listed(card, deck, "Mercenary", s.data.cards.label, c)
    if m is None:
        return None
    return Troop(m.id, m.strength, m.wage, True, m.nationality, m.kind if m.kind in LEADER_KINDS else "")


def draw_from(deck: Deck | None, card_id: str | None, what: str, c: Ctx) -> Deck | None:
    """`deck` after drawing `card_id` (observed mode: no deck, nothing checked). A card that is
    not in the deck is WK-DECK (the draw is taken as recorded); an empty deck is its discards
    shuffled first (Setup: "If a deck runs out of cards, shuffle the discard pile")."""
    if deck is None or card_id is None:
        return deck
    if not deck.pile and not deck.bottom:
        deck = Deck(pile=deck.discard)
    if deck.pile:
        if card_id not in deck.pile:
            where = ("in the discards" if card_id in deck.discard else "put at the bottom" if card_id in deck.bottom
                     else "not in the deck (drawn and still out)")
            c.bad("WK-DECK", f"{what} {card_id!r} is drawn, but it is {where} since the last shuffle")
        return Deck(deck.pile - {card_id}, tuple(x for x in deck.bottom if x != card_id), deck.discard - {card_id})
    if deck.bottom[0] != card_id:
        c.bad("WK-DECK", f"{what}: the deck's known cards are at the bottom now, {deck.bottom[0]!r} "
              f"first; the log draws {card_id!r}")
    return Deck(frozenset(), tuple(x for x in deck.bottom if x != card_id), deck.discard - {card_id})


def deal(deck: Deck, n: int, choose: Callable[[list[str]], str],
         keep: Callable[[str], bool] = lambda card: True) -> list[str]:
    """`n` cards drawn from `deck` as `draw_from` takes them: each chosen by `choose` among the
    pile's cards that `keep` allows (sorted), else among the whole pile, else the first of the
    known bottom; an empty deck is its discards shuffled first. Fewer when the deck and its
    discards run out. `choose` is the table's chance: the simulator's random choice, or live
    play's draw with the seed's dice."""
    out: list[str] = []
    d = deck
    for _ in range(n):
        if not d.pile and not d.bottom:
            d = Deck(d.discard)
        if not d.pile and not d.bottom:
            break                      # the deck and its discards are all out
        pool = sorted(x for x in d.pile if keep(x))
        if pool:
            card = choose(pool)
        elif d.pile:
            card = choose(sorted(d.pile))
        else:
            card = d.bottom[0]
        out.append(card)
        d = Deck(d.pile - {card}, tuple(x for x in d.bottom if x != card), d.discard - {card})
    return out


def deal_until(deck: Deck, fits: Callable[[str], bool], choose: Callable[[list[str]], str]) -> list[str]:
    """Cards drawn from `deck` one at a time (`deal`) until one `fits`, that one last: the Fate
    cards drawn until one names a colour in play."""
    out: list[str] = []
    d = deck
    while True:
        card = deal(d, 1, choose)[0]
        out.append(card)
        d = Deck(d.pile - {card}, tuple(x for x in d.bottom if x != card), d.discard - {card})
        if fits(card):
            return out


def discard_to(deck: Deck | None, card_ids: Iterable[str | None]) -> Deck | None:
    if deck is None:
        return None
    ids = frozenset(x for x in card_ids if x is not None)
    return deck._replace(discard=deck.discard | ids)


def bottom_of(deck: Deck | None, card_ids: Iterable[str | None]) -> Deck | None:
    if deck is None:
        return None
    return deck._replace(bottom=deck.bottom + tuple(x for x in card_ids if x is not None))


def shuffle_back(deck: Deck | None, card_ids: Iterable[str | None]) -> Deck | None:
    """Cards shuffled back into the deck (deserters, leftover Mercenaries)."""
    if deck is None:
        return None
    ids = frozenset(x for x in card_ids if x is not None)
    return deck._replace(pile=deck.pile | ids)


def reshuffled(deck: Deck | None, with_discards: bool = True) -> Deck | None:
    """The whole deck shuffled (its bottom cards, and its discards when `with_discards`)."""
    if deck is None:
        return None
    pile = deck.pile | frozenset(deck.bottom) | (deck.discard if with_discards else frozenset())
    return Deck(pile, (), frozenset() if with_discards else deck.discard)


# --- derived facts -------------------------------------------------------------------------------

def cities_of(s: State, seat: PlayerId) -> tuple[str, ...]:
    """The cities `seat` controls, in board order."""
    return tuple(c for c, cs in s.cities.items() if cs.owner == seat and not cs.razed)


def kingdom_cities_of(s: State, seat: PlayerId) -> tuple[str, ...]:
    b = s.data.board
    return tuple(c for c in cities_of(s, seat) if b.areas[b.cities[c].area].is_kingdom)


def nobles_of(s: State, seat: PlayerId, alive: bool = True) -> tuple[Noble, ...]:
    return tuple(n for n in s.nobles.values() if n.owner == seat and not (alive and n.dead))


def on_board(n: Noble) -> bool:
    return n.area is not None and not n.dead


def nobles_in(s: State, area: str, *, landed: bool = True) -> tuple[Noble, ...]:
    """The living Nobles in `area` (without those on its port icon when `landed`)."""
    return tuple(n for n in s.nobles.values()
                 if n.area == area and not n.dead and not (landed and n.at_sea))


def army_strength(s: State, owner: PlayerId, army: Army) -> int:
    troops = s.barons[owner].troops
    return sum(troops[t].strength for t in army.troops)


def army_of(s: State, owner: PlayerId, holder: str) -> Army:
    """The army of a Noble (by id) or of `owner`'s stronghold (STRONGHOLD)."""
    return s.barons[owner].stronghold_army if holder == STRONGHOLD else s.nobles[holder].army


def set_army(s: State, owner: PlayerId, holder: str, army: Army) -> State:
    if holder == STRONGHOLD:
        return set_baron(s, owner, stronghold_army=army)
    return set_noble(s, holder, army=army)


def city_strength(s: State, city: str) -> int:
    """A city's strength left: printed strength less 100 per breach."""
    return max(0, s.data.board.cities[city].strength - 100 * s.cities[city].breaches)


def stronghold_area_owner(s: State, area: str) -> PlayerId | None:
    for seat, b in s.barons.items():
        if b.stronghold == area:
            return seat
    return None


def in_city(s: State, n: Noble) -> bool:
    """Battles: "Any defending Noble in an area with a city his Baron controls is considered to be
    in the city"."""
    city = s.data.board.areas[n.area].city if n.area else None
    return city is not None and s.cities[city].owner == n.owner


def besieged(s: State, city: str | None) -> bool:
    return city is not None and s.cities[city].siege is not None


def total_troops(s: State, seat: PlayerId) -> int:
    """Every troop strength a Baron has (the last tie-break)."""
    return sum(t.strength for t in s.barons[seat].troops.values())


def stronghold_spot_problem(s: State, area: str, seat: str, setup: bool) -> str | None:
    """Why `seat`'s stronghold may not stand in `area` (None: it may)."""
    b = s.data.board
    a = b.areas[area]
    if not a.is_kingdom:
        return f"{area} is not a Kingdom space"
    if a.city is not None and not s.cities[a.city].razed:
        return f"{area} holds the unrazed city {a.city}"
    for other, baron in s.barons.items():
        if other != seat and baron.stronghold == area:
            return f"{area} holds {other}'s stronghold"
    if setup and len(s.seats) <= 3 and not a.central:
        return f"with {len(s.seats)} players strongholds go on the 16 central hexes; {area} is not one"
    if not setup and any(n.area == area and n.owner != seat and not n.dead for n in s.nobles.values()):
        return f"{area} holds an opponent's Noble"
    return None


def lift_sieges(s: State, c: Ctx) -> State:
    """City Siege 3: a siege is lifted when the besieging Nobles are gone from the area."""
    for city, cs in s.cities.items():
        if cs.siege is None:
            continue
        area = s.data.board.cities[city].area
        if not any(n.owner == cs.siege[0] and n.area == area and not n.dead and not n.at_sea for n in s.nobles.values()):
            s = set_city(s, city, siege=None)
            c.note(f"The siege of {city} is lifted")
    return s
