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
from typing import Any

from engine.core.commit import matches_commitment
from engine.core.data import DataShapeError, Shape
from engine.warrior_knights.cards import LEADER_KINDS
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


# --- For Glory: Leaders and Heralds (New Mercenary Cards) ---------------------------------------------

def leader_problem(holder: str, troops) -> str | None:
    """Why the army of `holder` (a Noble, or STRONGHOLD) may not hold `troops` (Troop records;
    None: it may): "Each Noble may only have a single Leader and a single Herald at any given
    time" (WK-LEADER-HERALD). A stronghold keeps any number: they grant nothing there."""
    if holder == STRONGHOLD:
        return None
    for kind in LEADER_KINDS:
        ids = [t.id for t in troops if t.kind == kind]
        if len(ids) > 1:
            return (f"{holder} would have {len(ids)} {kind.capitalize()}s ({', '.join(ids)}): each Noble may "
                    f"only have a single Leader and a single Herald at any given time")
    return None


def leader_holder(s: State, card: str) -> tuple[str, str | None] | None:
    """(its owner, the living Noble it is assigned to, or None) of a Leader or Herald a Baron holds;
    None when `card` is no Leader or Herald in play."""
    for seat, b in s.barons.items():
        t = b.troops.get(card)
        if t is not None and t.kind in LEADER_KINDS:
            noble = next((n.id for n in s.nobles.values() if n.owner == seat and not n.dead
                          and card in n.army.troops), None)
            return seat, noble
    return None


def leader_ability_used(s: State, e, c: Ctx) -> bool:
    """An adjustment naming a Leader or Herald as its source applies the ability it grants its
    Noble ("treated as if they were printed on the Noble card ... even when exhausted"): its owner
    signs it, and the card is with a living Noble of his (WK-LEADER-ABILITY). False: refused."""
    source = e.payload.source
    held = leader_holder(s, source)
    listed = (s.data.cards.mercenaries or {}).get(source)
    if held is None:
        if listed is not None and listed.kind in LEADER_KINDS:
            c.skip("WK-LEADER-ABILITY", f"{source} ({listed.kind}) is held by no Baron: its ability is nobody's to use")
            return False
        return True
    seat, noble = held
    kind = s.barons[seat].troops[source].kind
    if e.actor != seat:
        c.skip("WK-LEADER-ABILITY", f"{source} is {seat}'s {kind.capitalize()}: only he uses its ability, "
               f"not {e.actor}")
        return False
    if noble is None:
        c.skip("WK-LEADER-ABILITY", f"{source} is with no living Noble of {seat} (in his stronghold): a "
               f"{kind.capitalize()} grants its ability to the Noble it is assigned to")
        return False
    c.note(f"{source} ({kind.capitalize()} of {noble}): its ability is used")
    return True


def initial_glory(variants, data=None) -> Glory | None:
    if not variants:
        return None
    deck = advancement_deck(data) if data is not None and FOR_GLORY in variants else None
    return Glory(tuple(variants), adv_deck=deck)


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
    if g.battle_uses and s.battle is None:
        s = set_glory(s, battle_uses=())
        g = s.glory
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
            "knowledge": dict(sorted(g.knowledge.items())), "scholar": g.scholar,
            "advancements": {q: list(v) for q, v in sorted(g.owned.items())},
            "exhausted": list(g.exhausted), "offer": list(g.offer), "refill_owed": g.refill_owed,
            "missions": {q: {"dealt": True, "commitment": m.commitment,
                             "mission": m.mission if m.revealed else None,
                             "revealed": m.revealed, "fulfilled": m.fulfilled}
                         for q, m in sorted(g.missions.items())}}


def full(s: State) -> dict | None:
    out = public(s)
    if out is not None:
        g = s.glory
        out["missions_held"] = {q: m.mission for q, m in sorted(g.missions.items())}
        out["advancement_deck"] = None if g.adv_deck is None else {
            "pile": sorted(g.adv_deck.pile), "bottom": list(g.adv_deck.bottom), "discard": sorted(g.adv_deck.discard)}
        out["setup"] = [g.offer_laid, g.scholar_drawn, list(g.battle_uses), dict(sorted(g.adv_printed.items())),
                        g.event_seen]
    return out


__all__ = ["FOR_GLORY", "KING", "MISSIONS", "VARIANTS"]


# --- Knowledge, Advancements and the Scholar (For Glory) ----------------------------------------------------

RESEARCH_COST = 2             # Research: "The Scholar may pay 2 crowns to immediately draw the top card"
MAX_ADVANCEMENTS = 3          # "may own a maximum of 3 total cards"
OFFER = 3                     # "Draw the top 3 cards and place them faceup"
MARCH_COST = 2                # Forced March: "any of your other exhausted Nobles at a cost of 2 crowns apiece"
BOUGHT_AFTER = frozenset({"AdvancementBought", "AdvancementsRevealed", "CrownsGiven",
                          "Adjusted", "PlanOpened"})


def advancement_deck(data) -> Any:
    """The Advancement deck of the cards file (None: observed mode, the costs come with the draws)."""
    from engine.warrior_knights.state import Deck
    listed = (data.cards.crown_and_glory or {}).get("advancements") or {}
    return Deck(frozenset(listed)) if listed else None


def _adv_cost(s: State, adv: str) -> int | None:
    listed = _cg(s).get("advancements") or {}
    if adv in listed:
        return listed[adv]["knowledge"]
    return s.glory.adv_printed.get(adv)


def _adv_info(s: State, adv: str) -> dict:
    listed = _cg(s).get("advancements") or {}
    return listed.get(adv) or {"knowledge": s.glory.adv_printed.get(adv, 0), "when": "any", "exhausts": True, "text": ""}


def _read_adv(s: State, card, c: Ctx) -> str | None:
    """An Advancement card drawn: its id (the cards file lists the deck) or, observed mode, its printed
    {"id", "knowledge"} (kept for its purchase)."""
    listed = _cg(s).get("advancements") or {}
    if listed:
        if not isinstance(card, str):
            c.skip("WK-CARD", f"{s.data.cards.label} lists the Advancements: name the card by its id")
            return None
        if card not in listed:
            c.skip("WK-CARD", f"{card!r} is not an Advancement of {s.data.cards.label}")
            return None
        return card
    if not isinstance(card, dict):
        c.skip("WK-CARD", "no cards file lists the Advancements: a drawn Advancement carries its printed "
               "fields ({\"id\", \"knowledge\"}; observed mode)")
        return None
    sh = Shape(card, "the Advancement card")
    try:
        aid, cost = sh["id"].str(), sh["knowledge"].int()
    except DataShapeError as err:
        c.skip("WK-CARD", f"an Advancement given by its printed fields needs \"id\" and \"knowledge\": {err}")
        return None
    return aid if s.glory.adv_printed.get(aid) == cost else (aid, cost)


def _drawn_adv(s: State, card, c: Ctx) -> tuple[State, str] | None:
    from engine.warrior_knights.common import draw_from
    got = _read_adv(s, card, c)
    if got is None:
        return None
    if isinstance(got, tuple):
        aid, cost = got
        s = set_glory(s, adv_printed=MappingProxyType({**s.glory.adv_printed, aid: cost}))
    else:
        aid = got
    deck = s.glory.adv_deck
    if deck is not None:
        s = set_glory(s, adv_deck=draw_from(deck, aid, "Advancement", c))
    return s, aid


def advancements_revealed(s: State, e, c: Ctx) -> State | None:
    """The Advancements laid face up: the 3 of the setup, or the one that replaces each purchase."""
    if not has(s, FOR_GLORY):
        return c.skip("WK-CG-VARIANTS", "Advancements are in play with the For Glory variant only")
    g = s.glory
    if s.flow.phase == "setup" and not g.offer_laid:
        want, what = OFFER, "the setup lays out the top 3 Advancements"
    elif g.refill_owed:
        want, what = g.refill_owed, "each Advancement bought is replaced by the top card of the deck"
    else:
        return c.skip("WK-ADVANCEMENT-BUY", "no Advancement is laid face up now (the setup lays out 3; each "
                      "one bought is replaced at once)")
    cards = list(e.payload.cards)
    if len(cards) != want:
        deck = g.adv_deck
        short = deck is not None and len(deck.pile) + len(deck.bottom) < want and len(cards) == len(deck.pile) + len(deck.bottom)
        if not short:
            c.bad("WK-ADVANCEMENT-BUY", f"{what}: {want} card(s), the log lays out {len(cards)}")
    offer = list(g.offer)
    for card in cards:
        got = _drawn_adv(s, card, c)
        if got is None:
            return None
        s, aid = got
        offer.append(aid)
    c.note("Advancements face up: " + (", ".join(offer) or "none"))
    return set_glory(s, offer=tuple(offer), offer_laid=True, refill_owed=0)


def scholar_chosen(s: State, e, c: Ctx) -> State | None:
    """For Glory setup 8: the Scholar token to a random Baron, not the Head of the Church nor the
    Chairman (Fate cards naming them or a colour not in play are drawn past); none with 2 players."""
    from engine.warrior_knights.common import discard_to, draw_from, read_fate, seat_of
    if not has(s, FOR_GLORY):
        return c.skip("WK-CG-VARIANTS", "the Scholar token is in play with the For Glory variant only")
    if s.flow.phase != "setup" or s.chairman is None or s.glory.scholar_drawn:
        return c.skip("WK-SCHOLAR", "the Scholar is chosen once, in the setup, after the Chairman and the Head "
                      "of the Church")
    if len(s.seats) == 2:
        return c.skip("WK-SCHOLAR", "with 2 players no Scholar is chosen at the setup (\"Skip this step in a 2 "
                      "player game\")")
    deck = s.fate
    chosen, ids = None, []
    cards = list(e.payload.cards)
    for i, card in enumerate(cards):
        f = read_fate(s, card, c)
        if f is None:
            return None
        ids.append(f.id)
        deck = draw_from(deck, f.id, "Fate card", c)
        seat = seat_of(s, f.baron)
        if seat is not None and seat not in (s.chairman, s.head_of_church):
            chosen = seat
            if i != len(cards) - 1:
                c.bad("WK-SCHOLAR", f"the card {i + 1} already names {seat}; {len(cards) - i - 1} more are drawn")
            break
    if chosen is None:
        return c.skip("WK-SCHOLAR", "the Fate cards drawn name no Baron in play who is neither the Chairman nor "
                      "the Head of the Church")
    c.note(f"{chosen} starts with the Scholar token")
    return set_glory(evolve(s, fate=discard_to(deck, ids)), scholar=chosen, scholar_drawn=True)


def _enriching(s: State, e, c: Ctx, stage: str) -> bool:
    p = s.flow.pending
    if s.flow.phase != "actions" or p is None or p.owner is None or p.card != "enrich_mind" or p.stage != stage:
        c.skip("WK-FLOW", f"{e.type} is not expected now: no Enrich Mind card waits"
               + (" to be resolved" if stage == "open" else " for purchases"))
        return False
    if e.actor != p.owner:
        c.skip("WK-ACTOR", f"the Enrich Mind card is {p.owner}'s, not {e.actor}'s")
        return False
    return True


def _scholar_check(s: State, seat: str, c: Ctx) -> State:
    k = s.glory.knowledge
    mine = k.get(seat, 0)
    if s.glory.scholar != seat and all(mine > k.get(q, 0) for q in s.seats if q != seat):
        c.note(f"{seat} has the most Knowledge ({mine}) and takes the Scholar token")
        return set_glory(s, scholar=seat)
    return s


def mind_enriched(s: State, e, c: Ctx) -> State | None:
    """Enrich Mind: 1 Knowledge, the Scholar check, then purchases (AdvancementBought) may follow;
    the card goes to the Taxation or the Assembly stack, as the Baron says."""
    if not _enriching(s, e, c, "open"):
        return None
    seat = e.actor
    p = s.flow.pending
    kinds = s.data.cards.baron_actions
    printed = kinds["enrich_mind"].area if kinds is not None and "enrich_mind" in kinds else p.printed_area
    options = printed if isinstance(printed, tuple) else (printed,) if isinstance(printed, str) else ("taxation", "assembly")
    area = e.payload.area
    if area not in options:
        c.bad("WK-KNOWLEDGE", f"the Enrich Mind card goes to {' or '.join(options)}, not {area!r} "
              f"({options[0]} is used)")
        area = options[0]
    k = s.glory.knowledge.get(seat, 0) + 1
    s = set_glory(s, knowledge=MappingProxyType({**s.glory.knowledge, seat: k}))
    c.note(f"{seat} gains 1 Knowledge ({k})")
    s = _scholar_check(s, seat, c)
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage="enrich", area=area,
                                                              detail={**p.detail, "bought": 0})))


def _own(s: State, seat: str, adv: str, returned, c: Ctx) -> State:
    """`adv` goes in front of `seat`; past 3, the ones he names go to the bottom of the deck."""
    from engine.warrior_knights.common import bottom_of
    owned = s.glory.owned.get(seat, ()) + (adv,)
    back = [x for x in returned if x in owned]
    if len(back) != len(returned):
        c.bad("WK-ADVANCEMENT-BUY", f"{seat} returns {', '.join(returned)}; he owns {', '.join(owned)}")
    if len(owned) - len(back) != min(len(owned), MAX_ADVANCEMENTS):
        want = max(0, len(owned) - MAX_ADVANCEMENTS)
        c.bad("WK-ADVANCEMENT-BUY", f"a Baron owns at most {MAX_ADVANCEMENTS} Advancements: {seat} owns "
              f"{len(owned)} and puts {want} at the bottom of the deck, not {len(back)}")
        back = list(owned[:want])
    owned = tuple(x for x in owned if x not in back)
    s = set_glory(s, owned=MappingProxyType({**s.glory.owned, seat: owned}),
                  exhausted=tuple(x for x in s.glory.exhausted if x not in back))
    if back:
        s = set_glory(s, adv_deck=bottom_of(s.glory.adv_deck, back))
        c.note(f"{seat} puts {', '.join(back)} at the bottom of the Advancement deck")
    return s


def _pay_knowledge(s: State, seat: str, adv: str, cost: int, c: Ctx) -> State | None:
    have = s.glory.knowledge.get(seat, 0)
    if cost > have:
        return c.skip("WK-ADVANCEMENT-BUY", f"{adv} costs {cost} Knowledge; {seat} has {have}")
    if adv in s.glory.owned.get(seat, ()):
        return c.skip("WK-ADVANCEMENT-BUY", f"{seat} already owns {adv}: a Baron owns one copy of each Advancement")
    return set_glory(s, knowledge=MappingProxyType({**s.glory.knowledge, seat: have - cost}))


def advancement_bought(s: State, e, c: Ctx) -> State | None:
    if not _enriching(s, e, c, "enrich"):
        return None
    seat = e.actor
    p = s.flow.pending
    g = s.glory
    if g.refill_owed:
        return c.skip("WK-ADVANCEMENT-BUY", "the Advancement bought is replaced from the deck before the next "
                      "purchase (\"A new card is immediately drawn after each is purchased\")")
    if p.detail.get("bought", 0) >= 1 and g.scholar != seat:
        return c.skip("WK-ADVANCEMENT-BUY", f"{seat} is not the Scholar: he buys one Advancement with Enrich Mind")
    adv = e.payload.advancement
    if adv not in g.offer:
        return c.skip("WK-ADVANCEMENT-BUY", f"{adv!r} is not face up (available: {', '.join(g.offer) or 'none'})")
    cost = _adv_cost(s, adv) or 0
    s = _pay_knowledge(s, seat, adv, cost, c)
    if s is None:
        return None
    offer = list(s.glory.offer)
    offer.remove(adv)
    deck = s.glory.adv_deck
    more = deck is None or bool(deck.pile or deck.bottom or deck.discard)
    s = set_glory(s, offer=tuple(offer), refill_owed=1 if more else 0)
    c.note(f"{seat} buys the Advancement {adv} for {cost} Knowledge")
    s = _own(s, seat, adv, list(e.payload.returned), c)
    p = s.flow.pending
    return evolve(s, flow=s.flow._replace(pending=p._replace(detail={**p.detail, "bought": p.detail.get("bought", 0) + 1})))


def advancement_researched(s: State, e, c: Ctx) -> State | None:
    """Research (For Glory Neutral card): the Scholar pays 2 crowns, draws the top Advancement and
    buys it for 1 Knowledge less (at least 0) or discards it."""
    from engine.warrior_knights.common import discard_to
    pend = s.flow.pending
    if pend is None or pend.owner is not None or pend.card != "research" or pend.stage != "research":
        return c.skip("WK-FLOW", "AdvancementResearched is not expected now: no Research card waits")
    seat = e.actor
    if seat != s.glory.scholar:
        return c.skip("WK-RESEARCH", f"only the Scholar ({s.glory.scholar or 'nobody'}) may research, not {seat}")
    if s.barons[seat].crowns < RESEARCH_COST:
        return c.skip("WK-RESEARCH", f"researching costs {RESEARCH_COST} crowns; {seat} has {s.barons[seat].crowns}")
    got = _drawn_adv(s, e.payload.card, c)
    if got is None:
        return None
    s, adv = got
    s = pay(s, seat, RESEARCH_COST)
    if e.payload.buy:
        cost = max(0, (_adv_cost(s, adv) or 0) - 1)
        s2 = _pay_knowledge(s, seat, adv, cost, c)
        if s2 is None:
            return None
        c.note(f"{seat} pays {RESEARCH_COST} crowns, draws {adv} and buys it for {cost} Knowledge")
        s = _own(s2, seat, adv, list(e.payload.returned), c)
    else:
        c.note(f"{seat} pays {RESEARCH_COST} crowns, draws {adv} and discards it")
        s = set_glory(s, adv_deck=discard_to(s.glory.adv_deck, [adv]))
    return evolve(s, flow=s.flow._replace(pending=s.flow.pending._replace(stage="done")))


def march_forced(s: State, e, c: Ctx) -> State | None:
    """Forced March: one exhausted Noble refreshed free, the others 2 crowns each; the card goes to
    the Wages stack (its printed area)."""
    from engine.warrior_knights.common import set_noble
    p = s.flow.pending
    if s.flow.phase != "actions" or p is None or p.owner is None or p.card != "forced_march" or p.stage != "open":
        return c.skip("WK-FLOW", "MarchForced is not expected now: no Forced March card waits to be resolved")
    seat = e.actor
    if seat != p.owner:
        return c.skip("WK-ACTOR", f"the Forced March card is {p.owner}'s, not {seat}'s")
    ids = []
    for name in e.payload.nobles:
        nid = noble_of(s, name, seat, c, "WK-FORCED-MARCH")
        if nid is None:
            return None
        n = s.nobles[nid]
        if n.owner != seat or not n.exhausted or nid in ids:
            return c.skip("WK-FORCED-MARCH", f"{nid} is not an exhausted Noble of {seat}'s")
        ids.append(nid)
    cost = MARCH_COST * max(0, len(ids) - 1)
    if s.barons[seat].crowns < cost:
        return c.skip("WK-FORCED-MARCH", f"refreshing {len(ids)} Nobles costs {cost} crowns (the first is free); "
                      f"{seat} has {s.barons[seat].crowns}")
    s = pay(s, seat, cost)
    for nid in ids:
        s = set_noble(s, nid, exhausted=False)
    c.note(f"{seat} refreshes {', '.join(ids) or 'no Noble'}" + (f" ({cost} crowns)" if cost else ""))
    kinds = s.data.cards.baron_actions
    printed = kinds["forced_march"].area if kinds is not None and "forced_march" in kinds else p.printed_area
    area = printed if isinstance(printed, str) else "wages"
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage="done", area=area)))


def advancement_used(s: State, e, c: Ctx) -> State | None:
    """An Advancement activated by its owner at the time it prints; exhausted if it says so; in a
    battle one per player, declared after the Fate cards are drawn and before they are discarded.
    Its effect is free text: the owner records it as adjustments (WK-ADJUST)."""
    if not has(s, FOR_GLORY):
        return c.skip("WK-CG-VARIANTS", "Advancements are in play with the For Glory variant only")
    seat = e.actor
    adv = e.payload.advancement
    g = s.glory
    if adv not in g.owned.get(seat, ()):
        return c.skip("WK-ADVANCEMENT-USE", f"{seat} does not own the Advancement {adv!r}")
    if adv in g.exhausted:
        return c.skip("WK-ADVANCEMENT-USE", f"{adv} is exhausted until the Upkeep's refresh")
    info = _adv_info(s, adv)
    when = info.get("when", "any")
    b = s.battle
    if when == "battle" or b is not None:
        sides = {} if b is None else {b.attacker.baron: b.attacker, b.defender.baron: b.defender}
        if b is None or seat not in sides or b.stage != "discard" or sides[seat].discarded:
            return c.skip("WK-ADVANCEMENT-USE", "an Advancement is used in a battle by one of its sides, after the "
                          "Fate cards are drawn and before they are discarded")
        if seat in g.battle_uses:
            return c.skip("WK-ADVANCEMENT-USE", f"{seat} has used an Advancement in this battle: one per battle")
        if seat == b.attacker.baron and b.defender.baron in g.battle_uses:
            c.bad("WK-ADVANCEMENT-USE", f"{seat} attacks: when both sides use an Advancement the attacker "
                  f"declares first, before {b.defender.baron}")
        s = set_glory(s, battle_uses=g.battle_uses + (seat,))
    elif when == "upkeep" and s.flow.phase != "upkeep":
        return c.skip("WK-ADVANCEMENT-USE", f"{adv} is used in the Upkeep, not now ({s.flow.phase})")
    elif when == "action" and s.flow.phase not in ("actions", "special"):
        return c.skip("WK-ADVANCEMENT-USE", f"{adv} is used in the Actions phase, not now ({s.flow.phase})")
    if info.get("exhausts", True):
        s = set_glory(s, exhausted=s.glory.exhausted + (adv,))
    c.note(f"{seat} activates the Advancement {adv}" + (f" ({info['text']})" if info.get("text") else "")
           + ": its effect is recorded as adjustments he signs")
    return s


def refresh_advancements(s: State, c: Ctx) -> State:
    if s.glory is None or not s.glory.exhausted:
        return s
    c.note(f"Advancements refreshed: {', '.join(s.glory.exhausted)}")
    return set_glory(s, exhausted=())


def advancement_swapped(s: State, e, c: Ctx) -> State | None:
    """Uncertain Times (For Glory): the Scholar discards one Advancement face up and replaces it with
    the top card of the deck."""
    from engine.warrior_knights.common import discard_to
    pend = s.flow.pending
    if pend is None or pend.owner is not None or pend.card != "uncertain_times" or pend.stage != "swap":
        return c.skip("WK-FLOW", "AdvancementSwapped is not expected now: no Uncertain Times card waits")
    seat = e.actor
    if seat != s.glory.scholar:
        return c.skip("WK-ADVANCEMENT-SWAP", f"only the Scholar ({s.glory.scholar}) may swap an Advancement, not {seat}")
    gone = e.payload.discard
    if gone not in s.glory.offer:
        return c.skip("WK-ADVANCEMENT-SWAP", f"{gone!r} is not face up (available: {', '.join(s.glory.offer)})")
    s = set_glory(s, adv_deck=discard_to(s.glory.adv_deck, [gone]))
    got = _drawn_adv(s, e.payload.card, c)
    if got is None:
        return None
    s, new = got
    s = set_glory(s, offer=tuple(new if x == gone else x for x in s.glory.offer))
    c.note(f"{seat}, the Scholar, discards {gone} and lays out {new}")
    return evolve(s, flow=s.flow._replace(pending=s.flow.pending._replace(stage="done")))


def red_event_first(s: State, colour: str, c: Ctx) -> None:
    """For Glory, Event Deck Setup: red Events are moved from the top to the bottom until a green or
    blue one is on top, so the game's first Event is not red (WK-EVENT-GLORY)."""
    if has(s, FOR_GLORY) and not s.glory.event_seen and colour == "red":
        events = s.data.cards.events
        if events is None or any(v.color != "red" for v in events.values()):
            c.bad("WK-EVENT-GLORY", "the game's first Event is red; with For Glory red Events are put at the "
                  "bottom of the deck at the setup until a green or blue one is on top")
