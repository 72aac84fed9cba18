"""The Upkeep (summary, "Game Round" 3) and winning: the victory check, Influence, Revolts, sea
arrivals, refreshing, Nobles returning and strongholds placed again; the two ways to win and the
tie-breaks ("Winning the Game")."""

from __future__ import annotations

from engine.core.ruleset import GameResult
from engine.warrior_knights.common import (
    Ctx, area_of, besieged, cities_of, city_of, clockwise_from, discard_to, draw_from,
    kingdom_cities_of, noble_of, on_board, pay, read_fate, set_baron, set_city, set_noble,
    stronghold_spot_problem, total_troops,
)
from engine.warrior_knights import glory as G
from engine.warrior_knights.state import State, evolve


def cities_to_win(s: State) -> int:
    """More than half of the unrazed Kingdom cities; 5 in a 2-player game (the summary's own
    number for 2 players: docs/warrior-knights.md, WK-RULING-TWO-PLAYER-VICTORY)."""
    if len(s.seats) == 2:
        return 5
    unrazed = sum(1 for c in s.data.board.kingdom_cities if not s.cities[c].razed)
    return unrazed // 2 + 1


def influence_gain(s: State, seat: str) -> int:
    """Upkeep 2: 1 per city he controls that is not besieged; none without his stronghold on the board."""
    if s.barons[seat].stronghold is None:
        return 0
    # For Glory, Riot: "A rioting city does not provide ... any Influence during Upkeep"
    return sum(1 for city in cities_of(s, seat) if not besieged(s, city) and not G.rioting(s, city))


def standing(s: State, seat: str) -> tuple[int, int, int, int]:
    """What ranks the Barons at the end: Influence, then cities, then crowns + Faith + Votes, then troops."""
    b = s.barons[seat]
    return (b.influence, len(cities_of(s, seat)), b.crowns + b.faith + b.votes, total_troops(s, seat))


def influence_result(s: State) -> GameResult:
    ranked = sorted(s.seats, key=lambda q: standing(s, q), reverse=True)
    best = standing(s, ranked[0])
    top = [q for q in ranked if standing(s, q) == best]
    detail = {q: dict(zip(("influence", "cities", "crowns_faith_votes", "troops"), standing(s, q))) for q in s.seats}
    why = ("a Baron has 16 Influence at the end of the round (The King)" if G.has(s, G.KING)
           else "the Influence pool ran out")
    if len(top) > 1:
        return GameResult((), f"{why}: a tie on every count, no winner", s.flow.round, detail)
    return GameResult((top[0],), f"{why}: most Influence", s.flow.round, detail)


def begin_upkeep(s: State, c: Ctx) -> State:
    """Upkeep steps 1-3: the victory check, Influence, and the cities owed a Revolt draw."""
    rnd = s.flow.round
    c.note(f"Upkeep of round {rnd}")
    need = cities_to_win(s)
    for seat in s.seats:
        held = len(kingdom_cities_of(s, seat))
        if held >= need:
            detail = {q: {"kingdom_cities": len(kingdom_cities_of(s, q))} for q in s.seats}
            c.note(f"{seat} controls {held} Kingdom cities ({need} needed) and wins")
            result = GameResult((seat,), f"controls {held} Kingdom cities, more than half", rnd, detail)
            return evolve(s, result=result, flow=s.flow._replace(phase="over", step="over", pending=None))
    gains = {q: influence_gain(s, q) + G.king_influence(s, q) for q in s.seats}
    pool = s.influence_pool
    for seat, n in gains.items():
        if n:
            s = set_baron(s, seat, influence=s.barons[seat].influence + n)
    pool -= sum(gains.values())
    c.note("Influence: " + ", ".join(f"{q} +{n}" for q, n in gains.items())
           + (f"; {pool} left in the pool" if pool > 0 else "; the pool has run out"))
    if G.has(s, G.KING):
        # The King: the pool running out crowns a King and the game goes on (WK-KING-CROWN); it
        # ends at the end of a round with a Baron at 16 Influence (WK-KING-END)
        if pool <= 0:
            s = G.crown(s, c, standing)
        ends = G.king_ends(s)
    else:
        ends = s.flow.ends_after_upkeep or pool <= 0
    owed = tuple(city for seat in s.seats for city in cities_of(s, seat) if not _guarded(s, seat, city))
    s = evolve(s, influence_pool=max(pool, 0),
               flow=s.flow._replace(phase="upkeep", step="revolts", ends_after_upkeep=ends, revolts=owed,
                                    revolt_owed=None, pending=None, order=(), index=0))
    if owed:
        c.note(f"Revolt draws owed: {', '.join(owed)}")
    return s


def _guarded(s: State, seat: str, city: str) -> bool:
    area = s.data.board.cities[city].area
    return any(n.owner == seat and on_board(n) and not n.at_sea and n.area == area for n in s.nobles.values())


def revolt_drawn(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase != "upkeep" or f.step != "revolts" or f.revolt_owed is not None:
        why = f"the Revolt in {f.revolt_owed} is not settled" if f.revolt_owed else f"it is {f.phase} ({f.step})"
        return c.skip("WK-FLOW", f"no Revolt card is drawn now: {why}")
    city = city_of(s, e.payload.city, c, "WK-REVOLT")
    if city is None:
        return None
    if city not in f.revolts:
        return c.skip("WK-REVOLT", f"no Revolt card is owed for {city} (owed: {', '.join(f.revolts) or 'none'}): "
                      "a card is drawn for each city a Baron controls without one of his Nobles in its area")
    card = read_fate(s, e.payload.card, c)
    if card is None:
        return None
    if card.revolt is None:
        return c.skip("WK-CARD", "a Fate card drawn for a Revolt gives its revolt result (\"revolt\")")
    s = evolve(s, fate=discard_to(draw_from(s.fate, card.id, "Fate card", c), [card.id]))
    rest = tuple(x for x in f.revolts if x != city)
    result = card.revolt
    if result == "riot":
        # For Glory's Riot (WK-RIOT); without For Glory it has no rule of its own: a Revolt
        result = G.riot_drawn(s, city, c) if G.has(s, G.FOR_GLORY) else "revolt"
    if result == "riot":
        c.note(f"{city}: Riot! Its owner pays 1 Faith or {2 * s.data.board.cities[city].income} crowns, or it riots")
        s = G.set_glory(s, riot_owed=city)
        return evolve(s, flow=s.flow._replace(revolts=rest, revolt_owed=city))
    if result == "revolt":
        c.note(f"{city}: Revolt! Its owner pays 1 Faith or {2 * s.data.board.cities[city].income} crowns, or loses it")
        return evolve(s, flow=s.flow._replace(revolts=rest, revolt_owed=city))
    c.note(f"{city}: no revolt")
    return evolve(s, flow=s.flow._replace(revolts=rest))


def revolt_settled(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    city = city_of(s, e.payload.city, c, "WK-REVOLT")
    if city is None:
        return None
    if f.revolt_owed != city:
        return c.skip("WK-FLOW", f"no Revolt in {city} is to be settled now")
    owner = s.cities[city].owner
    if e.actor != owner:
        return c.skip("WK-REVOLT", f"{owner} settles the Revolt in his city {city}, not {e.actor}")
    cost = 2 * s.data.board.cities[city].income
    if e.payload.pay == "faith":
        if s.barons[owner].faith < 1:
            return c.skip("WK-REVOLT", f"{owner} has no Faith to pay")
        s = set_baron(s, owner, faith=s.barons[owner].faith - 1)
        c.note(f"{owner} pays 1 Faith: {city} stays his")
    elif e.payload.pay == "crowns":
        if s.barons[owner].crowns < cost:
            return c.skip("WK-REVOLT", f"stopping the Revolt costs {cost} crowns; {owner} has {s.barons[owner].crowns}")
        s = pay(s, owner, cost)
        c.note(f"{owner} pays {cost} crowns: {city} stays his")
    elif s.glory is not None and s.glory.riot_owed == city:
        s = G.riot_unpaid(s, city, owner, c)
    else:
        s = set_city(s, city, owner=None, fortified=False)
        c.note(f"{city} revolts and becomes neutral")
    if s.glory is not None and s.glory.riot_owed is not None:
        s = G.set_glory(s, riot_owed=None)
    return evolve(s, flow=s.flow._replace(revolt_owed=None))


def after_revolts(s: State, c: Ctx) -> State:
    """Upkeep steps 4-5 (sea arrivals, refreshing), the end of the game when the pool ran out,
    else step 6 (Nobles returning) until the next round's Planning."""
    nobles = {k: n._replace(at_sea=False, exhausted=False) if (n.at_sea or n.exhausted) else n
              for k, n in s.nobles.items()}
    arrived = [n.id for n in s.nobles.values() if n.at_sea]
    if arrived:
        c.note(f"Arrive by sea: {', '.join(arrived)}")
    s = G.refresh_advancements(evolve(s, nobles=nobles), c)    # For Glory: "During the Refresh Nobles step"
    if s.flow.ends_after_upkeep:
        if G.missions_to_reveal(s):
            return G.begin_missions(s, c)          # WK-MISSION-REVEAL, then the result (missions_done)
        return end_by_influence(s, c)
    return evolve(s, flow=s.flow._replace(step="return", order=clockwise_from(s, s.chairman), index=0))


def end_by_influence(s: State, c: Ctx) -> State:
    result = influence_result(s)
    why = "A Baron has 16 Influence" if G.has(s, G.KING) else "The Influence pool has run out"
    c.note(f"{why}: {' and '.join(result.winners) or 'no one'} wins")
    return evolve(s, result=result, flow=s.flow._replace(phase="over", step="over"))


def _returning(s: State, seat: str, c: Ctx) -> bool:
    """Step 6 goes from the Chairman clockwise: a Baron acts after those before him."""
    f = s.flow
    if f.phase != "upkeep" or f.step != "return":
        c.skip("WK-FLOW", f"Nobles return to the board in the Upkeep, not now ({f.phase}: {f.step})")
        return False
    order = f.order
    if order.index(seat) < f.index:
        c.skip("WK-RETURN", f"the Chairman returns Nobles first, then the others clockwise ({', '.join(order)}); "
               f"{order[f.index]} has already acted, so {seat} may not now")
        return False
    return True


def _acted(s: State, seat: str) -> State:
    return evolve(s, flow=s.flow._replace(index=s.flow.order.index(seat)))


def noble_returned(s: State, e, c: Ctx) -> State | None:
    seat = e.actor
    if not _returning(s, seat, c):
        return None
    nid = noble_of(s, e.payload.noble, seat, c, "WK-RETURN")
    if nid is None:
        return None
    n = s.nobles[nid]
    if n.owner != seat or (n.area is not None and not n.dead):
        return c.skip("WK-RETURN", f"{nid} is not an off-board Noble of {seat}")
    if not n.army.troops:
        return c.skip("WK-RETURN", f"{nid} has no troops: a Noble without troops is never placed on the board")
    area = area_of(s, e.payload.area, c, "WK-RETURN")
    if area is None:
        return None
    b = s.data.board
    city = b.areas[area].city
    ok = s.barons[seat].stronghold == area or (city is not None and city in cities_of(s, seat) and not besieged(s, city))
    if not ok:
        return c.skip("WK-RETURN", f"{nid} is placed at {seat}'s stronghold or an unbesieged city he controls; "
                      f"{area} is neither")
    s = set_noble(s, nid, area=area, dead=False, at_sea=False, exhausted=False)
    c.note(f"{nid} {'(the heir) ' if n.dead else ''}enters at {area}")
    return _acted(s, seat)


def stronghold_replaced(s: State, e, c: Ctx) -> State | None:
    """Attacking a Stronghold: "In the Upkeep phase he may place the stronghold back on the board
    on any Kingdom area that does not contain a unrazed city or an opponent's Noble or stronghold"."""
    seat = e.actor
    if not _returning(s, seat, c):
        return None
    if s.barons[seat].stronghold is not None:
        return c.skip("WK-STRONGHOLD", f"{seat}'s stronghold is on the board")
    area = area_of(s, e.payload.area, c, "WK-STRONGHOLD")
    if area is None:
        return None
    problem = stronghold_spot_problem(s, area, seat, setup=False)
    if problem:
        return c.skip("WK-STRONGHOLD", problem)
    s = set_baron(s, seat, stronghold=area, stronghold_breaches=0)
    c.note(f"{seat}'s stronghold is placed again at {area}")
    return _acted(s, seat)
