"""The Special Phases of money and troops (summary, "Special Phases" 1, 2, 4): Taxation, Wages
and the Mercenary Draft. (The Assembly, 3, is engine/warrior_knights/assembly.py.)"""

from __future__ import annotations

from engine.warrior_knights.common import (
    Ctx, army_of, besieged, cities_of, clockwise_from, draw_from, gain, in_city, noble_of, pay,
    read_mercenary, set_army, set_baron, shuffle_back, troops_named,
)
from engine.warrior_knights import glory as G
from engine.warrior_knights.state import CASUALTY_TOKEN, STRONGHOLD, Army, State, evolve


def _done(s: State) -> State:
    return evolve(s, flow=s.flow._replace(step="done"))


# --- 1) Taxation -------------------------------------------------------------------------------------

def income_of(s: State, seat: str) -> int:
    """Taxation: the income of the cities a Baron controls (fortified +1, besieged none) and his
    concessions."""
    b = s.data.board
    total = 0
    for city in cities_of(s, seat):
        if besieged(s, city) or G.rioting(s, city):     # For Glory: a rioting city gives no crowns
            continue
        total += b.cities[city].income + (1 if s.cities[city].fortified else 0)
    for a in s.barons[seat].concessions:
        total += s.agenda_cards[a].income or 0
    return total


def taxation(s: State, c: Ctx) -> State:
    got = {seat: income_of(s, seat) for seat in s.seats}
    for seat, n in got.items():
        s = gain(s, seat, n)
    c.note("Taxation: " + ", ".join(f"{seat} {n}" for seat, n in got.items()))
    return s


# --- 2) Wages ----------------------------------------------------------------------------------------

def begin_wages(s: State, c: Ctx) -> State:
    return evolve(s, flow=s.flow._replace(order=clockwise_from(s, s.chairman), index=0))


def regular_wages(s: State, seat: str, maintained: frozenset = frozenset()) -> tuple[int, int]:
    """(crowns paid, regular troops left unpaid): "Regular troops must be paid first ... as many
    must be paid as possible" (the cheapest first pays the most of them); troops an office
    maintains draw none."""
    crowns = s.barons[seat].crowns
    paid = unpaid = 0
    regulars = (t for t in s.barons[seat].troops.values() if not t.mercenary and t.id not in maintained)
    for t in sorted(regulars, key=lambda t: (t.wage, t.id)):
        if paid + t.wage <= crowns:
            paid += t.wage
        else:
            unpaid += 1
    return paid, unpaid


def remove_troops(s: State, seat: str, troops: set[str]) -> State:
    """Troops leave a Baron (deserted, discarded, lost): out of every army and his troop list;
    Mercenaries are shuffled back into their deck."""
    if not troops:
        return s
    b = s.barons[seat]
    for holder, army in [(STRONGHOLD, b.stronghold_army)] + [(n.id, n.army) for n in s.nobles.values() if n.owner == seat]:
        if set(army.troops) & troops:
            kept = tuple(t for t in army.troops if t not in troops)
            s = set_army(s, seat, holder, Army(kept, army.casualties if kept else 0))
    b = s.barons[seat]
    mercs = [t for t in troops if b.troops[t].mercenary and not G.is_levy(b.troops[t])]
    s = set_baron(s, seat, troops={k: v for k, v in b.troops.items() if k not in troops})
    return evolve(s, mercs=shuffle_back(s.mercs, mercs if s.data.cards.mercenaries is not None else ()))


def wages_paid(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase != "special" or f.step != "wages":
        return c.skip("WK-FLOW", f"wages are paid in a Wages phase, not now ({f.phase}: {f.step})")
    seat = e.actor
    if seat != f.current:
        return c.skip("WK-WAGES", f"starting with the Chairman and going clockwise, it is {f.current}'s "
                      f"turn to pay wages, not {seat}'s")
    b = s.barons[seat]
    unpaid = set()
    for name in e.payload.unpaid:
        t = name if name in b.troops else None
        if t is not None and G.is_levy(b.troops[t]):
            return c.skip("WK-TOWN-LEVY-LOSS", f"{name!r} is a Town Levy: Town Levies are not paid during the "
                          "Wages phase (they never desert for wages)")
        if t is None or not b.troops[t].mercenary:
            return c.skip("WK-WAGES", f"{name!r} is not a Mercenary of {seat} (regular troops are paid first "
                          "and never desert)")
        unpaid.add(t)
    bare = G.unpaid_garrisons(s, seat, e.payload.unpaid_garrisons, c)
    if bare is None:
        return None
    free = maintained_troops(s, seat, e.payload.maintained, unpaid, c)
    if free is None:
        return None
    regular, short = regular_wages(s, seat, free)
    left = b.crowns - regular
    kept = sorted(t.id for t in b.troops.values() if t.mercenary and t.id not in unpaid and t.id not in free)
    owed = sum(b.troops[t].wage for t in kept)
    garrisons = [x for x in G.garrisons_of(s, seat) if x not in bare]
    owed_g = G.garrison_wage(s) * len(garrisons)          # For Glory: each Garrison paid (WK-GARRISON-WAGES)
    if owed + owed_g > left:
        rule = "WK-GARRISON-WAGES" if garrisons and owed <= left else "WK-WAGES"
        return c.skip(rule, f"after {regular} crowns for his regular troops {seat} has {left}; the "
                      f"Mercenaries he pays ({', '.join(kept) or 'none'}) cost {owed}"
                      + (f" and his Garrisons ({', '.join(garrisons)}) {owed_g}" if garrisons else "")
                      + ": the others desert")
    total = regular + owed + owed_g
    if e.payload.crowns is not None and e.payload.crowns != total:
        c.claim("WK-WAGES", f"{seat} pays {e.payload.crowns} crowns; the rules make it {total}")
    s = pay(s, seat, total)
    # For Glory: a Noble whose Mercenary deserts loses all his Town Levies (WK-TOWN-LEVY-LOSS)
    deserted_from = sorted(n.id for n in s.nobles.values() if n.owner == seat and set(n.army.troops) & unpaid)
    s = remove_troops(s, seat, unpaid)
    for noble in deserted_from:
        s = G.drop_levies(s, noble, c, "a Mercenary of his deserted")
    if bare:
        s = G.drop_garrisons(s, bare, c, "not paid")
    c.note(f"{seat} pays {total} crowns of wages" + (f" ({short} regulars unpaid)" if short else "")
           + (f"; {', '.join(sorted(unpaid))} desert" if unpaid else ""))
    s = evolve(s, flow=s.flow._replace(index=f.index + 1))
    return _done(s) if s.flow.index >= len(s.flow.order) else s


def office_strength(s: State, seat: str) -> int:
    """The troop strength the offices held by `seat`'s Nobles maintain (each Agenda's printed
    `maintained_troops`)."""
    return sum(getattr(s.agenda_cards.get(n.office), "maintained_troops", None) or 0
               for n in s.nobles.values() if n.owner == seat and not n.dead and n.office)


def maintained_troops(s: State, seat: str, names, unpaid: set, c: Ctx) -> frozenset | None:
    """The troops `seat` names as maintained by his office: "Maintained troops from an office do
    not need to be paid" (WK-OFFICE-TROOPS: his, not let go, their strength within what his
    offices print). None: refused."""
    if not names:
        return frozenset()
    most = office_strength(s, seat)
    if not most:
        return c.skip("WK-OFFICE-TROOPS", f"no Noble of {seat} holds an office that maintains troops")
    named = troops_named(s, seat, names, c, "WK-OFFICE-TROOPS")
    if named is None:
        return None
    free = set(named)
    if free & unpaid:
        return c.skip("WK-OFFICE-TROOPS", f"{', '.join(sorted(free & unpaid))}: maintained by the office and "
                      "let go unpaid at once")
    strength = sum(s.barons[seat].troops[t].strength for t in free)
    if strength > most:
        return c.skip("WK-OFFICE-TROOPS", f"{seat}'s offices maintain {most} strength of troops; "
                      f"{', '.join(sorted(free))} make {strength}")
    c.note(f"{seat}'s office maintains {', '.join(sorted(free))}: no wages")
    return frozenset(free)


# --- 4) Mercenary Draft --------------------------------------------------------------------------------

def begin_draft(s: State, c: Ctx) -> State:
    """The markers in track order, left to right. For Glory, Assemble Troops: "At the beginning of
    a Mercenary Draft, remove any casualty tokens on the Mercenary track, and skip over these empty
    spaces during the draft" (WK-ASSEMBLE-TROOPS)."""
    if CASUALTY_TOKEN in s.track:
        n = s.track.count(CASUALTY_TOKEN)
        s = evolve(s, track=tuple(None if x == CASUALTY_TOKEN else x for x in s.track))
        c.note(f"{n} casualty token{'s' if n > 1 else ''} leave the Mercenary Track")
    order = tuple(seat for seat in s.track if seat is not None)
    s = evolve(s, flow=s.flow._replace(order=order, index=0))
    return s if order else _end_draft(s, c)


def _end_draft(s: State, c: Ctx) -> State:
    """Every marker has had its turn: "All remaining Mercenaries are shuffled back into the deck,
    Baron markers are removed from the track", and new ones are drawn (MercenariesRevealed)."""
    left = [t.id for t in s.market]
    c.note("The Mercenaries left are shuffled into the deck; the markers leave the track")
    return evolve(s, market=(), track=(None,) * len(s.track),
                  mercs=shuffle_back(s.mercs, left if s.data.cards.mercenaries is not None else ()),
                  flow=s.flow._replace(step="draft_reveal"))


def may_receive(s: State, seat: str, holder: str) -> str | None:
    """Why a hired Mercenary may not go to `holder` (None: it may): "a Noble located at a
    Baron's city or stronghold; a Noble that is currently off the board; or the Baron's stronghold",
    never into a besieged city."""
    if holder == STRONGHOLD:
        return None
    n = s.nobles[holder]
    if n.owner != seat:
        return f"{holder} is not {seat}'s Noble"
    if n.dead:
        return f"{holder} is dead"
    if n.area is None:
        return None
    if n.at_sea:
        return f"{holder} is at sea"
    at_city = in_city(s, n)
    at_stronghold = s.barons[seat].stronghold == n.area
    if not (at_city or at_stronghold):
        return f"{holder} is at neither a city of {seat} nor his stronghold"
    if at_city and besieged(s, s.data.board.areas[n.area].city):
        return f"{holder} is in a besieged city: he receives no troops during the Draft"
    return None


def mercenary_hired(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase != "special" or f.step != "draft":
        markers = sum(1 for x in s.track if x is not None)
        return c.skip("WK-DRAFT-TRIGGER", f"Mercenaries are hired in a Mercenary Draft, which comes when the "
                      f"track holds players + 1 markers ({markers} of {len(s.seats) + 1} now; {f.phase}: {f.step})")
    seat = e.actor
    if seat != f.current:
        return c.skip("WK-MERC-DRAFT", f"in marker order on the track it is {f.current}'s turn, not {seat}'s")
    hires = e.payload.hires
    market = {t.id: t for t in s.market}
    picked = []
    for mid, holder in hires.items():
        if mid not in market:
            return c.skip("WK-MERC-DRAFT", f"{mid!r} is not among the Mercenaries available "
                          f"({', '.join(market) or 'none'})")
        key = STRONGHOLD if holder == STRONGHOLD else noble_of(s, holder, seat, c, "WK-MERC-ASSIGN")
        if key is None:
            return None
        why = may_receive(s, seat, key)
        if why:
            return c.skip("WK-MERC-ASSIGN", why)
        picked.append((market[mid], key))
    markers_left = sum(1 for q in f.order[f.index:] if q == seat)
    if len(picked) > 1:
        nats = {t.nationality for t, _ in picked}
        if len(nats) > 1:
            return c.skip("WK-MERC-DRAFT", f"several Mercenaries are hired at once only of one nationality; "
                          f"these are {', '.join(sorted(str(n) for n in nats))}")
        if len(picked) > markers_left:
            return c.skip("WK-MERC-DRAFT", f"{seat} hires {len(picked)} at once with {markers_left} markers left on the track")
    for key in sorted({k for _, k in picked}):    # For Glory: one Leader and one Herald per Noble
        held = s.barons[seat].troops
        after = [held[x] for x in army_of(s, seat, key).troops] + [t for t, k in picked if k == key]
        why = G.leader_problem(key, after)
        if why:
            return c.skip("WK-LEADER-HERALD", why)
    fee = sum(t.wage for t, _ in picked)
    if fee > s.barons[seat].crowns:
        return c.skip("WK-MERC-DRAFT", f"hiring costs {fee} crowns (the wages); {seat} has {s.barons[seat].crowns}")
    s = pay(s, seat, fee)
    for t, key in picked:
        b = s.barons[seat]
        s = set_baron(s, seat, troops={**b.troops, t.id: t})
        army = s.barons[seat].stronghold_army if key == STRONGHOLD else s.nobles[key].army
        s = set_army(s, seat, key, army._replace(troops=army.troops + (t.id,)))
    s = evolve(s, market=tuple(t for t in s.market if t.id not in hires))
    if picked:
        c.note(f"{seat} hires {', '.join(f'{t.id} ({t.strength}, to {k})' for t, k in picked)} for {fee} crowns")
    # the markers used: this one and, for a batch, his next ones
    order = list(f.order)
    extra = len(picked) - 1
    i = f.index + 1
    while extra > 0 and i < len(order):
        if order[i] == seat:
            del order[i]
            extra -= 1
        else:
            i += 1
    s = evolve(s, flow=s.flow._replace(order=tuple(order), index=f.index + 1))
    if s.flow.index >= len(s.flow.order):
        s = _end_draft(s, c)
    return s


def mercenaries_revealed(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase != "special" or f.step != "draft_reveal":
        return c.skip("WK-FLOW", f"new Mercenaries are drawn at the end of a Mercenary Draft, not now ({f.phase}: {f.step})")
    want = len(s.seats) + 1
    if s.mercs is not None:
        want = min(want, len(s.mercs.pile) + len(s.mercs.bottom) + len(s.mercs.discard))
    if len(e.payload.cards) != want:
        c.bad("WK-MERC-DRAFT", f"players + 1 = {len(s.seats) + 1} new Mercenaries are drawn (as many as the deck "
              f"holds: {want}); the log draws {len(e.payload.cards)}")
    deck = s.mercs
    market = []
    for card in e.payload.cards:
        t = read_mercenary(s, card, c)
        if t is None:
            return None
        deck = draw_from(deck, t.id if s.mercs is not None else None, "Mercenary", c)
        market.append(t)
    return _done(evolve(s, mercs=deck, market=tuple(market)))
