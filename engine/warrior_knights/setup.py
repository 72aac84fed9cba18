"""Setup (summary, "Setup" 1-7): the Barons' troops and their assignment, the razed cities, the
market, the Chairman and the Head of the Church, the strongholds and the Nobles."""

from __future__ import annotations

from engine.core.rules import Violation
from engine.warrior_knights.board import RAZED_AT_SETUP
from engine.warrior_knights.cards import LEADER_KINDS, NOBLE_SHAPES, REGULARS, FateCard
from engine.warrior_knights.common import (
    Ctx, area_of, clockwise_from, stronghold_spot_problem, counterclockwise_from, discard_to, draw_from, noble_of,
    read_agenda, read_fate, read_mercenary, reshuffled, seat_of, set_baron, set_noble, troops_named,
)
from engine.warrior_knights.gamedata import GameData
from engine.warrior_knights.glory import (
    FOR_GLORY, check_variants, has, influence_pool_per_player, initial_glory, leader_problem, levy_card,
)
from engine.warrior_knights.rules import RULES
from engine.warrior_knights.state import (
    STRONGHOLD, Army, Baron, CityState, Deck, Expedition, Flow, Noble, State, Troop, evolve,
)

INFLUENCE_PER_PLAYER = 10          # Setup 2: "Place 10 Influence per player in the Influence area"


def _colours(start) -> list[str]:
    return [p.color or p.id for p in start.players]


def check_start(start, data: GameData) -> list[Violation]:
    """What is wrong with the game's start: colours (WK-START), the data the log names
    (WK-DATA-DIGEST, a claim: the game is judged with the data given)."""
    out: list[Violation] = []
    ids = [p.id for p in start.players]
    colours = _colours(start)
    if len(set(ids)) != len(ids):
        out.append(RULES.violation("WK-START", f"a player id is given twice: {ids}"))
    if len(set(colours)) != len(colours):
        out.append(RULES.violation("WK-START", f"two Barons play one colour: {colours}"))
    known = data.cards.barons
    printed = start.barons or {}
    for col in colours:
        if known is not None and col not in known:
            out.append(RULES.violation("WK-START", f"{col!r} is not a Baron colour of {data.cards.label} "
                                       f"({', '.join(known)})"))
        if known is None and col not in printed:
            out.append(RULES.violation("WK-START", f"no cards file lists the Barons: the start gives each "
                                       f"Baron's printed card in \"barons\" (observed mode); {col!r} has none"))
    if data.cards.nobles is not None and start.nobles:
        out.append(RULES.violation("WK-START", f"{data.cards.label} lists the Nobles: the start gives no "
                                   "\"nobles\" of its own"))
    for col, shapes in (start.nobles or {}).items():
        if col not in colours or set(shapes) != set(NOBLE_SHAPES):
            out.append(RULES.violation("WK-START", f"\"nobles\" gives each playing Baron's 4 Nobles "
                                       f"({', '.join(NOBLE_SHAPES)}) by shape; {col!r}: {', '.join(shapes) or 'none'}"))
    for col, b in printed.items():
        if sorted(x for x, _ in b.regulars) != sorted(REGULARS):
            out.append(RULES.violation("WK-START", f"{col}'s regular troops are 3x50 and 1x100 (Setup 1), "
                                       f"not {[x for x, _ in b.regulars]}"))
    for problem in check_variants(start.variants):
        out.append(RULES.violation("WK-CG-VARIANTS", problem))
    d = start.data
    if d is not None:
        for key, mine in (("board", data.board.digest), ("cards", data.cards.digest)):
            said = getattr(d, key)
            if said is not None and said != mine:
                out.append(RULES.violation("WK-DATA-DIGEST", f"the log was recorded with the {key} file "
                                           f"{said[:16]}…; it is judged with {mine[:16] if mine else 'none'}…",
                                           blocking=False))
    return out


def _deck(cards: dict | None, deck: str = "base") -> Deck | None:
    if cards is None:
        return None
    return Deck(frozenset(k for k, v in cards.items() if getattr(v, "deck", "base") == deck))


def initial_state(start, data: GameData) -> State:
    seats = tuple(p.id for p in start.players)
    colours = dict(zip(seats, _colours(start)))
    barons = {}
    nobles = {}
    abilities: dict[str, str] = {}
    kinds = data.cards.baron_actions
    # Setup 1: "Action cards (12)": the base mix of the cards file; unknown in observed mode
    # For Glory: "Each Baron takes the 3 new Action cards matching his color and adds them to his hand"
    decks = ("base", "for_glory") if FOR_GLORY in start.variants else ("base",)
    hand = None if kinds is None else tuple(sorted(k.type for k in kinds.values() if k.deck in decks
                                                   for _ in range(k.copies)))
    for seat in seats:
        col = colours[seat]
        card = (data.cards.barons or {}).get(col)
        if card is not None:
            strength, regulars = card.stronghold_strength, card.regulars
        else:
            printed = (start.barons or {}).get(col)
            strength = printed.stronghold_strength if printed else 0
            regulars = tuple(tuple(r) for r in printed.regulars) if printed else ()
        troops = {f"{seat}-r{i}": Troop(f"{seat}-r{i}", st, wage, False)
                  for i, (st, wage) in enumerate(regulars, start=1)}
        barons[seat] = Baron(col, troops=troops, stronghold_strength=strength, hand=hand)
        printed_nobles = (start.nobles or {}).get(col, {})
        for shape in NOBLE_SHAPES:
            nid = f"{seat}-{shape}"
            nobles[nid] = Noble(nid, seat, shape)
            card = (data.cards.nobles or {}).get((col, shape))
            ability = card.ability if card is not None else printed_nobles.get(shape)
            if ability is not None:
                abilities[nid] = ability
    cities = {c: CityState() for c in data.board.cities}
    mercs = data.cards.mercenaries
    # For Glory: "Shuffle the new Mercenary cards into the Mercenary deck"
    merc_deck = None if mercs is None else Deck(frozenset(
        m.id for m in mercs.values() if m.deck in decks))
    variants = tuple(dict.fromkeys(start.variants))
    # For Glory: "Replace the original Fate deck with the new one with a blue back" (the cards
    # file's "for_glory" Fate cards; without any, the base deck: WK-RULING-GLORY-FATE-DECK)
    fate_deck = "base"
    if FOR_GLORY in variants and any(f.deck == "for_glory" for f in (data.cards.fate or {}).values()):
        fate_deck = "for_glory"
    return State(
        data=data, seats=seats, names={p.id: p.name or p.id for p in start.players}, barons=barons,
        nobles=nobles, cities=cities, flow=Flow(),
        influence_pool=(influence_pool_per_player(variants) or INFLUENCE_PER_PLAYER) * len(seats),
        glory=initial_glory(variants, data),
        track=(None,) * len(data.board.track), fate=_deck(data.cards.fate, fate_deck),
        events=_deck(data.cards.events), mercs=merc_deck, agenda_deck=_deck(data.cards.agendas),
        expeditions={x: Expedition() for x in data.board.expeditions},
        agenda_cards=dict(data.cards.agendas or {}), abilities=abilities,
    )


def _expect(s: State, step: str, c: Ctx, what: str) -> bool:
    f = s.flow
    if f.phase != "setup" or f.step != step:
        c.skip("WK-FLOW", f"{what} is not expected now ({f.phase}: {f.step})")
        return False
    return True


# --- Setup 1: troops -----------------------------------------------------------------------------

def troops_dealt(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "troops", c, "TroopsDealt"):
        return None
    dealt = e.payload.mercenaries
    if set(dealt) != set(s.seats):
        return c.skip("WK-SETUP-TROOPS", f"each Baron is dealt his Mercenaries: the log deals to "
                      f"{', '.join(dealt) or 'nobody'}, the Barons are {', '.join(s.seats)}")
    deck = s.mercs
    barons = dict(s.barons)
    for seat in s.seats:
        troops = []
        for card in dealt[seat]:
            t = read_mercenary(s, card, c)
            if t is None:
                return None
            deck = draw_from(deck, t.id if s.mercs is not None else None, "Mercenary", c)
            troops.append(t)
        for t in troops:
            if t.kind in LEADER_KINDS:
                c.bad("WK-LEADER-SETUP", f"{t.id!r} dealt to {seat} is a {t.kind.capitalize()}: Leaders and "
                      "Heralds are not given out as 50 strength Mercenaries during the setup")
        strengths = sorted(t.strength for t in troops)
        if strengths != [50, 100]:
            c.bad("WK-SETUP-TROOPS", f"{seat} is dealt Mercenaries of strength {strengths}; each Baron "
                  "gets 1 random 50 and 1 random 100 Mercenary")
        for t in troops:
            if t.id in barons[seat].troops:
                return c.skip("WK-SETUP-TROOPS", f"{t.id!r} is dealt twice")
        barons[seat] = barons[seat]._replace(troops={**barons[seat].troops, **{t.id: t for t in troops}})
    return evolve(s, barons=barons, mercs=deck, flow=s.flow._replace(step="assign"))


def troops_assigned(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "assign", c, "TroopsAssigned"):
        return None
    seat = e.actor
    if s.setup.get(f"assigned:{seat}"):
        return c.skip("WK-SETUP-ASSIGN", f"{seat} has already assigned his troops")
    b = s.barons[seat]
    armies: dict[str, list[str]] = {}
    seen: set[str] = set()
    for holder, names in e.payload.armies.items():
        key = STRONGHOLD if holder == STRONGHOLD else noble_of(s, holder, seat, c, "WK-SETUP-ASSIGN")
        if key is None:
            return None
        if key != STRONGHOLD and s.nobles[key].owner != seat:
            return c.skip("WK-SETUP-ASSIGN", f"{holder!r} is not one of {seat}'s Nobles")
        named = troops_named(s, seat, names, c, "WK-SETUP-ASSIGN")
        if named is None:
            return None
        for name, t in zip(names, named):
            if t in seen:
                return c.skip("WK-SETUP-ASSIGN", f"{name!r} is assigned twice")
            seen.add(t)
            armies.setdefault(key, []).append(t)
    missing = sorted(set(b.troops) - seen)
    if missing:
        c.bad("WK-SETUP-ASSIGN", f"{seat} leaves {', '.join(missing)} unassigned; all troops are assigned "
              "(Setup 1): they are put in his stronghold")
        armies.setdefault(STRONGHOLD, []).extend(missing)
    for holder, troops in armies.items():
        why = leader_problem(holder, [b.troops[x] for x in troops])
        if why:
            return c.skip("WK-LEADER-HERALD", why)
    for holder, troops in armies.items():
        army = Army(tuple(troops))
        if holder == STRONGHOLD:
            s = set_baron(s, seat, stronghold_army=army)
        else:
            s = set_noble(s, holder, army=army)
    s = evolve(s, setup={**s.setup, f"assigned:{seat}": True})
    if all(s.setup.get(f"assigned:{p}") for p in s.seats):
        nxt = "raze" if RAZED_AT_SETUP[len(s.seats)] else "market"
        s = evolve(s, flow=s.flow._replace(step=nxt))
    return s


# --- Setup 3-4: razed cities, the decks shuffled ------------------------------------------------------

def cities_razed(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "raze", c, "CitiesRazed"):
        return None
    want = RAZED_AT_SETUP[len(s.seats)]
    kingdom = set(s.data.board.kingdom_cities)
    deck = s.fate
    razed: list[str] = []
    drawn = []
    levies = has(s, FOR_GLORY)
    for card in e.payload.cards:
        if levies:
            # For Glory: "instead of using the Fate deck ... draw the appropriate number of Town
            # Levy cards and raze their corresponding cities. Then return the drawn cards to the box."
            f = levy_card(s, card, c)
            if f is None:
                return None
            if f["id"] in drawn:
                return c.skip("WK-DECK", f"the Town Levy {f['id']} is drawn twice")
            drawn.append(f["id"])
            f = FateCard(f["id"], city=f["city"])
        else:
            f = read_fate(s, card, c)
            if f is None:
                return None
            deck = draw_from(deck, f.id, "Fate card", c)
            drawn.append(f.id)
        if f.city is None:
            return c.skip("WK-CARD", "a Fate card drawn to raze a city names its city (\"city\")")
        if f.city not in kingdom:
            return c.skip("WK-SETUP-RAZE", f"{f.city!r} is not a Kingdom city of the board")
        if len(razed) == want:
            c.bad("WK-SETUP-RAZE", f"{len(e.payload.cards)} Fate cards are drawn; the {want} cities to "
                  f"raze were chosen by the first {len(drawn) - 1}")
            break
        if f.city not in razed:
            razed.append(f.city)
    if len(razed) < want:
        c.bad("WK-SETUP-RAZE", f"{len(s.seats)} players raze {want} Kingdom cities (Setup 3); the cards "
              f"drawn name {len(razed)}: {', '.join(razed)}")
    cities = dict(s.cities)
    for city in razed:
        cities[city] = cities[city]._replace(razed=True)
    c.note(f"Razed: {', '.join(razed)}")
    # Setup 4: the Fate deck is shuffled (the cards drawn to raze go back into it)
    deck = reshuffled(deck if levies else discard_to(deck, drawn))
    return evolve(s, cities=cities, fate=deck, flow=s.flow._replace(step="market"))


# --- Setup 5: the market ---------------------------------------------------------------------------

def market_revealed(s: State, e, c: Ctx) -> State | None:
    if s.flow.phase == "setup" and s.flow.step == "raze":
        c.bad("WK-SETUP-RAZE", f"{len(s.seats)} players raze {RAZED_AT_SETUP[len(s.seats)]} Kingdom "
              "cities before the market is laid out; the log razes none")
        s = evolve(s, flow=s.flow._replace(step="market"))
    if not _expect(s, "market", c, "MarketRevealed"):
        return None
    p = e.payload
    if len(p.mercenaries) != len(s.seats) + 1:
        c.bad("WK-SETUP-MARKET", f"players + 1 = {len(s.seats) + 1} Mercenaries are placed face up; the "
              f"log places {len(p.mercenaries)}")
    if len(p.agendas) != 3:
        c.bad("WK-SETUP-MARKET", f"3 Agendas are placed face up; the log places {len(p.agendas)}")
    s2 = _revealed_mercs(s, p.mercenaries, c)
    if s2 is None:
        return None
    s3 = reveal_agendas(s2, p.agendas, c)
    if s3 is None:
        return None
    return evolve(s3, flow=s3.flow._replace(step="offices"))


def _revealed_mercs(s: State, cards, c: Ctx) -> State | None:
    deck = s.mercs
    market = []
    for card in cards:
        t = read_mercenary(s, card, c)
        if t is None:
            return None
        deck = draw_from(deck, t.id if s.mercs is not None else None, "Mercenary", c)
        market.append(t)
    return evolve(s, mercs=deck, market=tuple(market))


def reveal_agendas(s: State, cards, c: Ctx, add: bool = False) -> State | None:
    deck = s.agenda_deck
    ids = []
    known = dict(s.agenda_cards)
    for card in cards:
        a = read_agenda(s, card, c)
        if a is None:
            return None
        deck = draw_from(deck, a.id if s.agenda_deck is not None else None, "Agenda", c)
        known[a.id] = a
        ids.append(a.id)
    current = (s.agendas if add else ()) + tuple(ids)
    return evolve(s, agenda_deck=deck, agendas=current, agenda_cards=known)


# --- Setup 6: Chairman and Head of the Church -----------------------------------------------------

def pick_baron(s: State, cards, c: Ctx, what: str) -> tuple[str | None, tuple[str | None, ...]]:
    """A Baron chosen at random by Fate cards ("If instructed to 'randomly choose' a result, draw
    Fate card(s)"): the seat the last card names; earlier cards name colours nobody plays. (None,
    ...) when the cards do not choose one (the finding is in `c`)."""
    ids = []
    chosen = None
    for i, card in enumerate(cards):
        f = read_fate(s, card, c)
        if f is None:
            return None, tuple(ids)
        ids.append(f.id)
        seat = seat_of(s, f.baron)
        if seat is not None:
            chosen = seat
            if i != len(cards) - 1:
                c.bad("WK-SETUP-OFFICES", f"{what}: the card {i + 1} already names {seat}; "
                      f"{len(cards) - i - 1} more are drawn")
            break
    if chosen is None:
        c.skip("WK-SETUP-OFFICES", f"{what}: the Fate cards drawn name no colour in play")
    return chosen, tuple(ids)


def offices_chosen(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "offices", c, "OfficesChosen"):
        return None
    deck = s.fate
    chair, used1 = pick_baron(s, e.payload.chairman, c, "the Chairman")
    if chair is None:
        return None
    for f in used1:
        deck = draw_from(deck, f, "Fate card", c)
    deck = discard_to(deck, used1)
    head, used2 = pick_baron(evolve(s, fate=deck), e.payload.head_of_church, c, "the Head of the Church")
    if head is None:
        return None
    for f in used2:
        deck = draw_from(deck, f, "Fate card", c)
    deck = discard_to(deck, used2)
    c.note(f"Chairman of the Assembly: {chair}; Head of the Church: {head}")
    order = clockwise_from(s, chair)
    return evolve(s, fate=deck, chairman=chair, head_of_church=head,
                  flow=s.flow._replace(step="strongholds", order=order, index=0))


# --- Setup 7: strongholds and Nobles ------------------------------------------------------------------

def stronghold_placed(s: State, e, c: Ctx) -> State | None:
    seat = e.actor
    if not _expect(s, "strongholds", c, "StrongholdPlaced"):
        return None
    f = s.flow
    if seat != f.current:
        return c.skip("WK-SETUP-STRONGHOLD", f"it is {f.current}'s turn to place a stronghold (Chairman "
                      f"first, clockwise), not {seat}'s")
    area = area_of(s, e.payload.area, c, "WK-SETUP-STRONGHOLD")
    if area is None:
        return None
    problem = stronghold_spot_problem(s, area, seat, setup=True)
    if problem:
        c.bad("WK-SETUP-STRONGHOLD", problem)        # it stands where it was put: applied as recorded
    s = set_baron(s, seat, stronghold=area)
    if f.index + 1 < len(f.order):
        return evolve(s, flow=f._replace(index=f.index + 1))
    order = counterclockwise_from(s, seat)
    return _next_noble_placer(evolve(s, flow=f._replace(step="nobles", order=order, index=0)), start=0)


def _placeable(s: State, seat: str) -> list[Noble]:
    return [n for n in s.nobles.values() if n.owner == seat and n.area is None and n.army.troops]


def _next_noble_placer(s: State, start: int) -> State:
    """The next seat (counterclockwise, from `start`) with a Noble with troops to place; the setup
    is done when there is none (round 1 begins: rounds.advance)."""
    f = s.flow
    n = len(f.order)
    for k in range(n):
        i = (start + k) % n
        if _placeable(s, f.order[i]):
            return evolve(s, flow=f._replace(index=i))
    return evolve(s, flow=f._replace(step="done"))


def noble_placed(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "nobles", c, "NoblePlaced"):
        return None
    seat = e.actor
    f = s.flow
    if seat != f.current:
        return c.skip("WK-SETUP-NOBLES", f"it is {f.current}'s turn to place a Noble (from the last "
                      f"stronghold placed, counterclockwise), not {seat}'s")
    nid = noble_of(s, e.payload.noble, seat, c, "WK-SETUP-NOBLES")
    if nid is None:
        return None
    n = s.nobles[nid]
    if n.owner != seat or n.area is not None:
        return c.skip("WK-SETUP-NOBLES", f"{nid} is not an unplaced Noble of {seat}")
    if not n.army.troops:
        return c.skip("WK-SETUP-NOBLES", f"{nid} has no troops; a Noble without troops is never placed")
    area = area_of(s, e.payload.area, c, "WK-SETUP-NOBLES")
    if area is None:
        return None
    a = s.data.board.areas[area]
    problem = None
    if not a.is_kingdom:
        problem = f"{area} is not a Kingdom space"
    for other in s.nobles.values():
        if other.area == area and other.owner != seat:
            problem = f"{area} holds {other.owner}'s Noble {other.id}"
    for other, b in s.barons.items():
        if other != seat and b.stronghold == area:
            problem = f"{area} holds {other}'s stronghold"
    if problem:
        c.bad("WK-SETUP-NOBLES", problem)             # he stands where he was put: applied as recorded
    s = set_noble(s, nid, area=area)
    return _next_noble_placer(s, f.index + 1)
