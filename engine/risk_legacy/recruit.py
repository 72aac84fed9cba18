"""Risk Legacy, "1 Start of Turn" and "2 Join the War or Recruit Troops": buying a Red Star with
cards, joining the war, and recruiting troops (territories, cities, continents, cards traded).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.text import plural
from engine.risk_legacy.board import Territory
from engine.risk_legacy.state import MAIN, START, STEP_NAMES, State, Terr, evolve as replace
from engine.risk_legacy.common import (
    _cards, continents_of, _Ctx, faction_name, is_legal_start, _open_pack, population_of, recruit_base,
    _resolve, resources_of, _set_terr, stars, _take_from_hand, territories_of, _tname, trade_value,
    _turn_in,
)
from engine.risk_legacy.turns import _check_win, _my_turn


def _red_star_bought(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    cards = _cards(s, e.payload.cards, c)
    if cards is None:
        return None
    ps = s.players[e.actor]
    rest = _take_from_hand(ps.hand, cards)
    if rest is None:
        return c.skip("RL-CARDS-HAND", f"{e.actor} turns in {cards!r}; their hand is {list(ps.hand)!r}")
    if s.flow.step != START or s.flow.recruited:
        c.bad("RL-RED-STAR-BUY", "Red Stars are bought at the very start of the turn, before recruiting")
    if len(cards) != 4:
        c.bad("RL-RED-STAR-BUY", f"a Red Star costs 4 Resource cards; {e.actor} turns in {len(cards)}")
    players = dict(s.players)
    players[e.actor] = ps._replace(hand=rest, tokens=ps.tokens + 1)
    c.note(f"{e.actor} turns in {', '.join(cards)} for a Red Star token ({plural(stars(s, e.actor) + 1, 'Red Star')})")
    s = replace(s, players=players, side=_turn_in(s.side, cards))
    return _check_win(s, c)


def _joined_war(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    f = s.flow
    if f.recruited:
        return c.skip("RL-JOIN-WAR", f"{e.actor} has already joined the war or recruited this turn")
    if territories_of(s, e.actor):
        return c.skip("RL-RECRUIT-MUST", f"{e.actor} controls a territory and must recruit, not Join the War")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if s.terr[t].is_occupied:
        return c.skip("RL-JOIN-WAR", f"{_tname(s, t)} is occupied; the war is joined in a legal starting territory")
    if not is_legal_start(s, e.actor, t):
        c.bad("RL-JOIN-WAR", f"{_tname(s, t)} is marked: not a legal starting territory for {e.actor}")
    troops = s.data.starting_troops // 2
    c.note(f"{faction_name(s, e.actor)} joins the war with {plural(troops, 'troop')} in {_tname(s, t)}")
    return replace(s, terr=_set_terr(s, **{t: Terr(e.actor, troops, s.terr[t].hq)}),
                   flow=f._replace(recruited=True, step=MAIN))


def _recruited(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    f = s.flow
    p = e.actor
    if f.recruited:
        return c.skip("RL-RECRUIT-MUST", f"{p} has already recruited this turn")
    if not territories_of(s, p):
        return c.skip("RL-JOIN-WAR", f"{p} controls no territory and must Join the War instead")
    if f.step != START and not f.warned:
        c.bad("RL-TURN-STEPS", f"recruiting comes before expanding and attacking (now: {STEP_NAMES[f.step]})")
    pay = e.payload
    cards = _cards(s, pay.cards, c)
    if cards is None:
        return None
    ps = s.players[p]
    rest = _take_from_hand(ps.hand, cards)
    if rest is None:
        return c.skip("RL-CARDS-HAND", f"{p} turns in {cards!r}; their hand is {list(ps.hand)!r}")
    resources = resources_of(s, cards)
    if cards and not 2 <= resources <= 10:
        c.bad("RL-TRADE", f"cards turned in for troops total 2 to 10 resources; {p}'s total {resources}")
    placements: dict[Territory, int] = {}
    for name, n in pay.placements.items():
        t = _resolve(s, name, c)
        if t is None:
            return None
        if s.terr[t].owner != p:
            return c.skip("RL-RECRUIT-PLACE", f"{p} places troops in {_tname(s, t)}, which they do not control")
        placements[t] = placements.get(t, 0) + n
    base = recruit_base(s, p)
    conts = continents_of(s, p)
    traded = trade_value(s, resources) if cards else 0
    total = base + sum(conts.values()) + traded
    placed = sum(placements.values())
    parts = [f"{plural(len(territories_of(s, p)), 'territory', 'territories')} + "
             f"{population_of(s, p)} population → {base}"]
    parts += [f"{s.data.continent_names[k]} +{v}" for k, v in conts.items()]
    if cards:
        parts.append(f"{len(cards)} card{'s' if len(cards) > 1 else ''} ({resources} resources) +{traded}")
    if placed != total:
        c.bad("RL-RECRUIT-COUNT", f"{p} recruits {total} troops ({'; '.join(parts)}); the log places {placed}")
    if pay.troops is not None and pay.troops != total:
        c.claim("RL-CLAIM", f"{p} claims {plural(pay.troops, 'troop')} recruited; the rules give {total} ({'; '.join(parts)})")
    if placed >= 30 and ps.missiles > 0:
        s = _open_pack(s, "pocket_2", c, f" ({p}: {placed} troops, {ps.missiles} Missile"
                       f"{'s' if ps.missiles > 1 else ''})")
    terr = dict(s.terr)
    for t, n in placements.items():
        terr[t] = terr[t]._replace(troops=terr[t].troops + n)
    players = dict(s.players)
    players[p] = players[p]._replace(hand=rest)
    c.note(f"{p} recruits {total}: {'; '.join(parts)}; places "
           + ", ".join(f"{n} in {_tname(s, t)}" for t, n in placements.items()))
    return replace(s, terr=terr, players=players, side=_turn_in(s.side, cards) if cards else s.side,
                   flow=s.flow._replace(recruited=True, step=MAIN))
