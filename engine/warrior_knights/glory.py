"""Crown & Glory (summary, "CROWN & GLORY EXPANSION"): the three variants a game names in
GameStarted.variants. The King (the King token, the King's Army, the 16-Influence end), Missions
(a secret card per Baron, a commitment revealed at the end), and the For Glory rules judged here:
Riots, Garrisons, Town Levies, 3 Neutral cards per stack, 20 Fate cards per battle. What For Glory
adds that is not judged yet is listed in docs/warrior-knights.md ("What is not judged yet").

The base chapters call the small predicates here (`rioting`, `garrison_strength`, `max_fate`,
`neutral_per_stack`); the engine calls `after_event` once every event is applied, which settles
what follows from the board by itself (a riot token or a Garrison lost with its city, a riot
token removed by a Noble or a Garrison present, an owed King's Army)."""

from __future__ import annotations

from types import MappingProxyType

from engine.core.commit import matches_commitment
from engine.core.data import DataShapeError, Shape
from engine.warrior_knights.common import (
    Ctx, city_of, cities_of, clockwise_from, noble_of, on_board, pay, set_army, set_baron,
)
from engine.warrior_knights.state import (
    STRONGHOLD, Army, Glory, MissionHeld, PlayerId, State, Troop, evolve,
)

FOR_GLORY, MISSIONS, KING = "for_glory", "missions", "king"
VARIANTS = (FOR_GLORY, MISSIONS, KING)

KING_POOL_PER_PLAYER = 8      # The King Variant: "8 Influence per player is placed in the Influence pool"
KING_WINS_AT = 16             # "until a player has accumulated 16 Influence"
KING_BONUS = 1                # "The King receives 1 additional Influence"
MISSION_INFLUENCE = 2         # Missions Variant: "it is worth 2 Influence"
GARRISON_COST = 1             # Upgrade Defenses: "hire a single Garrison ... at a cost of 1 crown"
GARRISONS = 8                 # Garrisons: "Should all 8 Garrisons be hired by Barons"
GARRISON_STRENGTH = 100       # "A Garrison adds 100 strength to a city while defending"
GARRISON_WAGE = 1             # not printed in the summary: the cards file's "garrison.wage" (ruling)
LEVY_COST = 2                 # Muster Forces: "recruit any number of Town Levies for 2 crowns apiece"
FATE_MAX_GLORY = 20           # New Fate Deck: "a maximum of 20 fate cards at the start of a single battle"
FATE_MAX_BASE = 10            # Open Field Battles: "Draw Fate cards (limit 10 per player)"
NEUTRAL_PER_STACK_GLORY = 3   # "3 (instead of 2) random Neutral Action cards are placed in each"
NEUTRAL_PER_STACK_BASE = 2


def has(s: State, variant: str) -> bool:
    return s.glory is not None and s.glory.has(variant)


def set_glory(s: State, **changes) -> State:
    return evolve(s, glory=s.glory._replace(**changes))


def _cg(s: State) -> dict:
    return dict(s.data.cards.crown_and_glory or {})


# --- small rules the base chapters ask -------------------------------------------------------------

def max_fate(s: State) -> int:
    return FATE_MAX_GLORY if has(s, FOR_GLORY) else FATE_MAX_BASE


def neutral_per_stack(s: State) -> int:
    return NEUTRAL_PER_STACK_GLORY if has(s, FOR_GLORY) else NEUTRAL_PER_STACK_BASE


def rioting(s: State, city: str) -> bool:
    return s.glory is not None and city in s.glory.riots


def garrison_strength(s: State, city: str | None) -> int:
    """What a Garrison adds to a city defending (0: none there)."""
    if city is None or s.glory is None or city not in s.glory.garrisons:
        return 0
    g = _cg(s).get("garrison") or {}
    return g.get("strength", GARRISON_STRENGTH)


def garrison_wage(s: State) -> int:
    g = _cg(s).get("garrison") or {}
    return g.get("wage", GARRISON_WAGE)


def garrison_count(s: State) -> int:
    g = _cg(s).get("garrison") or {}
    return g.get("count", GARRISONS)


def garrisons_of(s: State, seat: PlayerId) -> tuple[str, ...]:
    if s.glory is None:
        return ()
    return tuple(sorted(c for c, o in s.glory.garrisons.items() if o == seat))


def is_levy(t: Troop) -> bool:
    return t.kind == "levy"


def initial_glory(variants) -> Glory | None:
    return Glory(tuple(variants)) if variants else None


def influence_pool_per_player(variants) -> int | None:
    return KING_POOL_PER_PLAYER if KING in (variants or ()) else None


def check_variants(variants) -> list[str]:
    """WK-CG-VARIANTS: what is wrong with the variants a game names."""
    seen = list(variants or ())
    twice = sorted({v for v in seen if seen.count(v) > 1})
    return [f"the variant {v!r} is named twice" for v in twice]


# --- The King ----------------------------------------------------------------------------------------

def king_influence(s: State, seat: str) -> int:
    """WK-KING-INFLUENCE: the King's extra Influence in an Upkeep."""
    return KING_BONUS if has(s, KING) and s.glory.king == seat else 0


def crown(s: State, c: Ctx, ranking) -> State:
    """WK-KING-CROWN: the pool has run out and there is no King yet: the leader (ties as normal,
    `ranking` the base tie-breaks) becomes King and owes the assignment of his King's Army."""
    if not has(s, KING) or s.glory.king is not None:
        return s
    ranked = sorted(s.seats, key=lambda q: ranking(s, q), reverse=True)
    top = [q for q in ranked if ranking(s, q) == ranking(s, ranked[0])]
    if len(top) > 1:
        c.note(f"The Influence pool has run out; {' and '.join(top)} tie on every count: no King yet "
               "(WK-RULING-KING-TIE)")
        return s
    king = top[0]
    c.note(f"The Influence pool has run out: {king} becomes King and gains {len(s.seats)} King's Army cards")
    return set_glory(s, king=king, king_army_owed=king)


def usurp(s: State, winner: str, loser: str, c: Ctx) -> State:
    """WK-KING-USURP: the King's stronghold eliminated by `winner`."""
    if not has(s, KING) or s.glory.king != loser or winner == loser:
        return s
    s = _drop_kings_army(s, loser)
    c.note(f"{winner} usurps the King: he takes the King token and the King's Army from {loser}")
    return set_glory(s, king=winner, king_army_owed=winner)


def _drop_kings_army(s: State, seat: str) -> State:
    b = s.barons[seat]
    gone = {k for k, t in b.troops.items() if t.kind == "king"}
    if not gone:
        return s
    for holder, army in [(STRONGHOLD, b.stronghold_army)] + [(n.id, n.army) for n in s.nobles.values() if n.owner == seat]:
        if set(army.troops) & gone:
            kept = tuple(t for t in army.troops if t not in gone)
            s = set_army(s, seat, holder, Army(kept, army.casualties if kept else 0))
    b = s.barons[seat]
    return set_baron(s, seat, troops={k: v for k, v in b.troops.items() if k not in gone})


def _kings_army_cards(s: State, printed, c: Ctx) -> list[tuple[int, int]] | None:
    n = len(s.seats)
    listed = tuple(_cg(s).get("kings_army") or ())
    if len(listed) >= n:
        if printed is not None:
            c.bad("WK-CARD", "the cards file lists the King's Army: the event gives no \"printed\" cards")
        return [tuple(x) for x in listed[:n]]
    if printed is None:
        c.skip("WK-CARD", "no cards file lists the King's Army (\"crown_and_glory.kings_army\"): the event gives "
               "each card's printed (strength, wage) in \"printed\" (observed mode)")
        return None
    if len(printed) != n:
        c.skip("WK-KING-ARMY", f"the King gains as many King's Army cards as there are players ({n}); "
               f"{len(printed)} are printed")
        return None
    return [tuple(x) for x in printed]


def kings_army_assigned(s: State, e, c: Ctx) -> State | None:
    if not has(s, KING):
        return c.skip("WK-CG-VARIANTS", "the King's Army is in play with The King variant only")
    seat = e.actor
    owed = s.glory.king_army_owed
    if owed is None:
        return c.skip("WK-KING-ARMY", "no King's Army is to be assigned now (a new King assigns it when he "
                      "becomes King)")
    if seat != owed:
        return c.skip("WK-KING-ARMY", f"{owed} is King and assigns the King's Army, not {seat}")
    cards = _kings_army_cards(s, e.payload.printed, c)
    if cards is None:
        return None
    total = sum(e.payload.armies.values())
    if total != len(cards):
        return c.skip("WK-KING-ARMY", f"the King assigns all {len(cards)} King's Army cards (one per player); "
                      f"the event assigns {total}")
    homes = set(s.data.board.cities[x].area for x in cities_of(s, seat))
    if s.barons[seat].stronghold is not None:
        homes.add(s.barons[seat].stronghold)
    plan: list[tuple[str, int]] = []
    for holder, n in sorted(e.payload.armies.items()):
        if not n:
            continue
        if holder == STRONGHOLD:          # off the board, it comes back with it (WK-RULING-KING-ARMY)
            plan.append((STRONGHOLD, n))
            continue
        nid = noble_of(s, holder, seat, c, "WK-KING-ARMY")
        if nid is None:
            return None
        nb = s.nobles[nid]
        if nb.owner != seat or not on_board(nb) or nb.at_sea or nb.area not in homes:
            return c.skip("WK-KING-ARMY", f"{nid} is not a Noble of {seat}'s at his stronghold or at a city he "
                          "controls")
        plan.append((nid, n))
    return _give_kings_army(s, seat, cards, plan, c)


def _give_kings_army(s: State, seat: str, cards, plan, c: Ctx) -> State:
    troops = [Troop(f"kings-army-{i}", st, wage, False, None, "king") for i, (st, wage) in enumerate(cards, start=1)]
    b = s.barons[seat]
    s = set_baron(s, seat, troops={**b.troops, **{t.id: t for t in troops}})
    i = 0
    parts = []
    for holder, n in plan:
        ids = tuple(t.id for t in troops[i:i + n])
        i += n
        b = s.barons[seat]
        army = b.stronghold_army if holder == STRONGHOLD else s.nobles[holder].army
        s = set_army(s, seat, holder, army._replace(troops=army.troops + ids))
        parts.append(f"{n} to {holder}")
    c.note(f"The King's Army of {seat}: {', '.join(parts)}")
    return set_glory(s, king_army_owed=None)


def assign_owed_army(s: State, c: Ctx, before: str) -> State:
    """An owed King's Army never assigned before the next event (`before`): a claim, and the cards
    go to the King's stronghold (or, off the board, to his first Noble with troops on the board)."""
    seat = s.glory.king_army_owed
    cards = [tuple(x) for x in (tuple(_cg(s).get("kings_army") or ()))[:len(s.seats)]]
    c.claim("WK-KING-ARMY", f"{seat} became King but the log never assigns his King's Army before {before}: "
            + ("it goes to his stronghold" if cards else "its cards are not known (observed mode): none is given"))
    if len(cards) < len(s.seats):
        return set_glory(s, king_army_owed=None)
    return _give_kings_army(s, seat, cards, [(STRONGHOLD, len(cards))], c)


def king_ends(s: State) -> bool:
    """WK-KING-END: a Baron with 16 Influence or more at the end of the round."""
    return has(s, KING) and any(b.influence >= KING_WINS_AT for b in s.barons.values())


# --- Missions ------------------------------------------------------------------------------------------

def _mission_deck(s: State) -> dict | None:
    cg = s.data.cards.crown_and_glory
    if cg is None or not cg.get("missions"):
        return None
    return dict(cg["missions"])


def mission_dealt(s: State, e, c: Ctx) -> State | None:
    if not has(s, MISSIONS):
        return c.skip("WK-CG-VARIANTS", "Mission cards are dealt with the Missions variant only")
    seat = e.actor
    if s.flow.phase != "setup" or any(b.stronghold for b in s.barons.values()) or s.flow.step in ("nobles", "done"):
        return c.skip("WK-MISSION-DEAL", "Mission cards are dealt before the strongholds are placed (Missions "
                      "Variant: \"Before setting up stronghold locations\")")
    if seat in s.glory.missions:
        return c.skip("WK-MISSION-DEAL", f"{seat} has already been dealt his Mission card (1 per Baron)")
    p = e.payload
    if p.mission is not None:
        deck = _mission_deck(s)
        if deck is not None and p.mission not in deck:
            c.bad("WK-MISSION-DEAL", f"{p.mission!r} is not a Mission card of {s.data.cards.label} "
                  f"({', '.join(sorted(deck))})")
        if any(m.mission == p.mission for m in s.glory.missions.values()):
            c.bad("WK-MISSION-DEAL", f"the Mission {p.mission!r} is already dealt to another Baron")
    held = MissionHeld(p.mission, None if p.commitment is None else p.commitment.lower())
    c.note(f"{seat} is dealt a Mission card, face down")
    return set_glory(s, missions=MappingProxyType({**s.glory.missions, seat: held}))


def missions_undealt(s: State) -> list[str]:
    if not has(s, MISSIONS):
        return []
    return [q for q in s.seats if q not in s.glory.missions]


def begin_missions(s: State, c: Ctx) -> State:
    """The end of the game by Influence with Missions: every Baron reveals, from the Chairman."""
    order = tuple(q for q in clockwise_from(s, s.chairman) if q in s.glory.missions
                  and not s.glory.missions[q].revealed)
    c.note("The game ends: the Barons reveal their Missions, starting with the Chairman")
    return evolve(s, flow=s.flow._replace(phase="upkeep", step="missions", order=order, index=0))


def missions_to_reveal(s: State) -> bool:
    return has(s, MISSIONS) and any(not m.revealed for m in s.glory.missions.values())


def mission_revealed(s: State, e, c: Ctx) -> State | None:
    if not has(s, MISSIONS):
        return c.skip("WK-CG-VARIANTS", "Missions are revealed with the Missions variant only")
    f = s.flow
    if f.phase != "upkeep" or f.step != "missions":
        return c.skip("WK-MISSION-REVEAL", "Missions are revealed at the end of the game, while the final "
                      f"Influence is tallied, not now ({f.phase}: {f.step})")
    seat = e.actor
    if seat != f.current:
        return c.skip("WK-MISSION-REVEAL", f"starting with the Chairman and going clockwise, {f.current} "
                      f"reveals his Mission now, not {seat}")
    held = s.glory.missions[seat]
    p = e.payload
    if held.commitment is not None:
        if not matches_commitment(held.commitment, p.mission, p.salt):
            c.bad("WK-MISSION-REVEAL", f"{seat}'s Mission {p.mission!r} with its salt does not make the "
                  "commitment given when it was dealt")
    elif held.mission != p.mission:
        c.bad("WK-MISSION-REVEAL", f"{seat} was dealt the Mission {held.mission!r}, not {p.mission!r}")
    deck = _mission_deck(s)
    if deck is not None and p.mission not in deck:
        c.bad("WK-MISSION-DEAL", f"{p.mission!r} is not a Mission card of {s.data.cards.label}")
    text = (deck or {}).get(p.mission) or p.text or ""
    missions = {**s.glory.missions, seat: held._replace(mission=p.mission, revealed=True, fulfilled=p.fulfilled)}
    s = set_glory(s, missions=MappingProxyType(missions))
    if p.fulfilled:
        s = set_baron(s, seat, influence=s.barons[seat].influence + MISSION_INFLUENCE)
        c.note(f"{seat} reveals the Mission {p.mission}" + (f" ({text})" if text else "")
               + f": fulfilled, +{MISSION_INFLUENCE} Influence (an adjustment signed by {seat})")
    else:
        c.note(f"{seat} reveals the Mission {p.mission}" + (f" ({text})" if text else "") + ": not fulfilled")
    return evolve(s, flow=s.flow._replace(index=f.index + 1))


# --- Riots ----------------------------------------------------------------------------------------------

def riot_drawn(s: State, city: str, c: Ctx) -> str:
    """WK-RIOT: what a Riot result drawn for `city` is: "riot" (owed), or "revolt" (already rioting)."""
    if city in s.glory.riots:
        c.note(f"{city}: Riot, and the city is already rioting: treated as a Revolt")
        return "revolt"
    return "riot"


def riot_unpaid(s: State, city: str, owner: str, c: Ctx) -> State:
    c.note(f"{owner} does not pay: a riot token is placed on {city}")
    return set_glory(s, riots=MappingProxyType({**s.glory.riots, city: owner}), riot_owed=None)


# --- Garrisons -------------------------------------------------------------------------------------------

def hire_garrison(s: State, seat: str, name: str, c: Ctx) -> State | None:
    """WK-GARRISON: one Garrison hired with Upgrade Defenses."""
    if not has(s, FOR_GLORY):
        return c.skip("WK-CG-VARIANTS", "Garrisons are hired with the For Glory variant only")
    city = city_of(s, name, c, "WK-GARRISON")
    if city is None:
        return None
    if city not in cities_of(s, seat):
        return c.skip("WK-GARRISON", f"{seat} does not control {city}: a Garrison goes on one of his own cities")
    if city in s.glory.garrisons:
        return c.skip("WK-GARRISON", f"{city} is already garrisoned")
    if len(s.glory.garrisons) >= garrison_count(s):
        return c.skip("WK-GARRISON", f"all {garrison_count(s)} Garrisons are hired: none may be hired until one "
                      "is available")
    if s.barons[seat].crowns < GARRISON_COST:
        return c.skip("WK-GARRISON", f"a Garrison costs {GARRISON_COST} crown; {seat} has none")
    c.note(f"{seat} hires a Garrison for {city} ({GARRISON_COST} crown)")
    return set_glory(pay(s, seat, GARRISON_COST), garrisons=MappingProxyType({**s.glory.garrisons, city: seat}))


def unpaid_garrisons(s: State, seat: str, names, c: Ctx) -> tuple[str, ...] | None:
    out = []
    for name in names:
        city = city_of(s, name, c, "WK-GARRISON-WAGES")
        if city is None:
            return None
        if s.glory is None or s.glory.garrisons.get(city) != seat:
            c.skip("WK-GARRISON-WAGES", f"{city} holds no Garrison of {seat}'s")
            return None
        out.append(city)
    return tuple(out)


def drop_garrisons(s: State, cities, c: Ctx, why: str) -> State:
    if not cities:
        return s
    c.note(f"Garrison discarded ({why}): {', '.join(sorted(cities))}")
    return set_glory(s, garrisons=MappingProxyType({k: v for k, v in s.glory.garrisons.items() if k not in cities}))


# --- Town Levies ------------------------------------------------------------------------------------------

def levy_card(s: State, card, c: Ctx) -> dict | None:
    listed = dict(_cg(s).get("town_levies") or {})
    if isinstance(card, str):
        if card not in listed:
            if listed:
                c.skip("WK-DECK", f"{card!r} is not a Town Levy of {s.data.cards.label} ({', '.join(sorted(listed))})")
            else:
                c.skip("WK-CARD", "no cards file lists the Town Levies: a recruited Levy carries its printed "
                       "fields ({\"id\", \"city\", \"strength\"}; observed mode)")
            return None
        return {"id": card, **listed[card]}
    sh = Shape(card, "the Town Levy card")
    try:
        return {"id": sh["id"].str(), "city": sh["city"].str(), "strength": sh["strength"].int(),
                "nationality": sh.get("nationality").optional_str()}
    except DataShapeError as err:                 # a malformed observed card: a finding, not a crash
        c.skip("WK-CARD", f"a Town Levy card given by its printed fields needs \"id\", \"city\" and "
               f"\"strength\": {err}")
        return None


def recruit_levies(s: State, seat: str, recruits, c: Ctx) -> State | None:
    """WK-TOWN-LEVY: Town Levies recruited with Muster Forces."""
    if not has(s, FOR_GLORY):
        return c.skip("WK-CG-VARIANTS", "Town Levies are recruited with the For Glory variant only")
    for r in recruits:
        card = levy_card(s, r.levy, c)
        if card is None:
            return None
        held = [q for q, b in s.barons.items() if card["id"] in b.troops]
        if held:
            return c.skip("WK-TOWN-LEVY", f"the Town Levy {card['id']} is already held by {held[0]}'s Noble")
        nid = noble_of(s, r.noble, seat, c, "WK-TOWN-LEVY")
        if nid is None:
            return None
        city = card["city"]
        if city not in s.data.board.cities:
            return c.skip("WK-CARD", f"the Town Levy {card['id']} names {city!r}, not a city of the board")
        n = s.nobles[nid]
        if s.cities[city].owner != seat:
            return c.skip("WK-TOWN-LEVY", f"{seat} does not control {city}, the city on the Town Levy {card['id']}")
        if n.owner != seat or not on_board(n) or n.at_sea or n.area != s.data.board.cities[city].area:
            return c.skip("WK-TOWN-LEVY", f"{nid} is not a Noble of {seat}'s at {city}: a Town Levy is recruited "
                          "for a Noble present at the city on its card")
        if s.barons[seat].crowns < LEVY_COST:
            return c.skip("WK-TOWN-LEVY", f"a Town Levy costs {LEVY_COST} crowns; {seat} has {s.barons[seat].crowns}")
        t = Troop(card["id"], card["strength"], 0, True, card.get("nationality"), "levy")
        s = pay(s, seat, LEVY_COST)
        b = s.barons[seat]
        s = set_baron(s, seat, troops={**b.troops, t.id: t})
        s = set_army(s, seat, nid, n.army._replace(troops=n.army.troops + (t.id,)))
        c.note(f"{seat} recruits the Town Levy {t.id} ({t.strength}) at {city} for {nid} ({LEVY_COST} crowns)")
    return s


def levies_of(s: State, noble: str) -> set[str]:
    n = s.nobles[noble]
    b = s.barons[n.owner]
    return {t for t in n.army.troops if t in b.troops and is_levy(b.troops[t])}


def drop_levies(s: State, noble: str, c: Ctx, why: str) -> State:
    """WK-TOWN-LEVY-LOSS: every Town Levy of `noble` discarded (back to the Town Levy deck)."""
    gone = levies_of(s, noble)
    if not gone:
        return s
    n = s.nobles[noble]
    kept = tuple(t for t in n.army.troops if t not in gone)
    s = set_army(s, n.owner, noble, Army(kept, n.army.casualties if kept else 0))
    b = s.barons[n.owner]
    s = set_baron(s, n.owner, troops={k: v for k, v in b.troops.items() if k not in gone})
    c.note(f"{noble}'s Town Levies are discarded ({why}): {', '.join(sorted(gone))}")
    return s


# --- after every event --------------------------------------------------------------------------------------

def after_event(s: State, c: Ctx) -> State:
    """What the board settles by itself: a Garrison or a riot token whose city changed hands is
    discarded; a riot token goes when its Baron has a Noble or a Garrison in the city."""
    g = s.glory
    if g is None:
        return s
    lost = [city for city, owner in g.garrisons.items() if s.cities[city].owner != owner]
    if lost:
        s = drop_garrisons(s, lost, c, "its city changed hands")
        g = s.glory
    if g.riots:
        keep = {}
        for city, owner in g.riots.items():
            area = s.data.board.cities[city].area
            if s.cities[city].owner != owner:
                c.note(f"The riot token on {city} is removed: {owner} lost the city")
            elif city in g.garrisons or any(n.owner == owner and on_board(n) and not n.at_sea and n.area == area
                                            for n in s.nobles.values()):
                c.note(f"The riot token on {city} is removed: {owner} has a Noble or a Garrison there")
            else:
                keep[city] = owner
        if len(keep) != len(g.riots):
            s = set_glory(s, riots=MappingProxyType(keep))
    return s


def public(s: State) -> dict | None:
    """The Crown & Glory part of the public board (None in a base game)."""
    g = s.glory
    if g is None:
        return None
    return {"variants": list(g.variants), "king": g.king, "king_army_owed": g.king_army_owed,
            "riots": dict(sorted(g.riots.items())), "garrisons": dict(sorted(g.garrisons.items())),
            "riot_owed": g.riot_owed,
            "missions": {q: {"dealt": True, "commitment": m.commitment,
                             "mission": m.mission if m.revealed else None,
                             "revealed": m.revealed, "fulfilled": m.fulfilled}
                         for q, m in sorted(g.missions.items())}}


def full(s: State) -> dict | None:
    out = public(s)
    if out is not None:
        out["missions_held"] = {q: m.mission for q, m in sorted(s.glory.missions.items())}
    return out


__all__ = ["FOR_GLORY", "KING", "MISSIONS", "VARIANTS"]
