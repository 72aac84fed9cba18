"""Movement (summary, "Movement"): land moves along borders and roads, rivers and bridges,
mountains, areas another Baron holds, sea moves between ports; and troops passing between armies
in one area."""

from __future__ import annotations

from engine.warrior_knights.common import (
    Ctx, army_of, besieged, in_city, noble_of, set_army, troop_of,
)
from engine.warrior_knights.state import STRONGHOLD, Army, State
from engine.warrior_knights import glory as G

ROAD_STEPS = 3                 # "or 3 areas if on a road for the entire move"


def holders_of(s: State, area: str, seat: str) -> list[str]:
    """The other Barons whose Noble or city is in `area` (who may bar passage through it)."""
    out = []
    for n in s.nobles.values():
        if n.area == area and not n.dead and not n.at_sea and n.owner != seat and n.owner not in out:
            out.append(n.owner)
    city = s.data.board.areas[area].city
    if city is not None:
        owner = s.cities[city].owner
        if owner is not None and owner != seat and not s.cities[city].razed and owner not in out:
            out.append(owner)
    return out


def path_problem(s: State, seat: str, start: str, path: list[str], permits: frozenset) -> tuple[str, str] | None:
    """(rule, why) a land move from `start` along `path` is not allowed; None when it is."""
    b = s.data.board
    if len(path) > ROAD_STEPS:
        return "WK-MOVE", f"a Noble moves at most {ROAD_STEPS} areas (on a road), not {len(path)}"
    here = start
    for step in path:
        border = b.border(here, step)
        if border is None:
            return "WK-MOVE", f"{here} and {step} do not share a border"
        if border.crossing == "mountain":
            return "WK-MOVE-CROSSING", f"the border {here}-{step} is mountainous: impassable"
        if border.crossing == "river":
            return "WK-MOVE-CROSSING", f"a river runs between {here} and {step}, with no bridge"
        if len(path) > 1 and not border.road:
            return "WK-MOVE", (f"a move of {len(path)} areas follows a road the whole way; {here}-{step} "
                               "has none (without a road a Noble moves one area)")
        here = step
    for through in path[:-1]:
        for other in holders_of(s, through, seat):
            if (other, through) not in permits:
                return "WK-MOVE-BLOCKED", (f"{through} holds {other}'s Noble or city: it cannot be passed "
                                           f"through without {other}'s permission")
    return None


def sea_problem(s: State, start: str, dest: str) -> str | None:
    b = s.data.board
    if not b.areas[start].port:
        return f"a sea move starts in an area with a port; {start} has none"
    if not b.areas[dest].port:
        return f"a sea move ends at a port; {dest} has none"
    if dest == start:
        return "a sea move goes to another port"
    return None


def troops_transferred(s: State, e, c: Ctx) -> State | None:
    """Troops pass between two armies of one Baron in one area: during a Mobilize Forces action
    (from the stronghold or an unexhausted Noble) or in the Upkeep (step 6; off-board Nobles
    among themselves and from the stronghold to them). Troops leaving an army with casualty
    tokens all leave, with the tokens."""
    seat = e.actor
    f = s.flow
    in_upkeep = f.phase == "upkeep" and f.step == "return"
    p = f.pending
    in_action = (f.phase == "actions" and p is not None and p.owner == seat and p.stage == "open"
                 and p.card in ("mobilize_forces", "versatile"))
    if not (in_upkeep or in_action):
        return c.skip("WK-TRANSFER", "troops are transferred while moving (a Mobilize Forces card being "
                      "resolved by their owner) or in the Upkeep, not now")
    ends = []
    for name in (e.payload.from_, e.payload.to):
        key = STRONGHOLD if name == STRONGHOLD else noble_of(s, name, seat, c, "WK-TRANSFER")
        if key is None:
            return None
        if key != STRONGHOLD and s.nobles[key].owner != seat:
            return c.skip("WK-TRANSFER", f"{key} is not {seat}'s Noble")
        ends.append(key)
    src, dst = ends
    if src == dst:
        return c.skip("WK-TRANSFER", "troops pass between two different armies")
    if dst == STRONGHOLD:
        return c.skip("WK-TRANSFER", "troops are transferred to Nobles; a stronghold only gives them")

    def where(key: str) -> str | None:
        return s.barons[seat].stronghold if key == STRONGHOLD else s.nobles[key].area

    d = s.nobles[dst]
    off_board = d.area is None or d.dead
    if in_upkeep and off_board:
        if src != STRONGHOLD and not (s.nobles[src].area is None or s.nobles[src].dead):
            return c.skip("WK-TRANSFER", f"an off-board Noble receives troops from his stronghold or another "
                          f"off-board Noble; {src} is on the board")
    else:
        if off_board:
            return c.skip("WK-TRANSFER", f"{dst} is off the board")
        if where(src) != d.area or d.at_sea or (src != STRONGHOLD and s.nobles[src].at_sea):
            return c.skip("WK-TRANSFER", f"troops pass only within one area: {src} is at {where(src)}, "
                          f"{dst} at {d.area}")
        if in_action and src != STRONGHOLD and s.nobles[src].exhausted:
            return c.skip("WK-TRANSFER", f"{src} is exhausted: troops come from the stronghold or an unexhausted Noble")
        if in_upkeep:
            for key in (src, dst):
                if key != STRONGHOLD and in_city(s, s.nobles[key]) and besieged(s, s.data.board.areas[s.nobles[key].area].city):
                    return c.skip("WK-TRANSFER", f"{key} is in a besieged city: no transfers in the Upkeep")
    return pass_troops(s, seat, src, dst, e.payload.troops, c)


def pass_troops(s: State, seat: str, src: str, dst: str, names, c: Ctx) -> State | None:
    """The troops `names` pass from `src`'s army (a Noble or STRONGHOLD) to the Noble `dst`'s (the
    caller has checked where and when): all of them when `src`'s army has casualty tokens (with
    the tokens), and a Noble keeps one Leader and one Herald at most."""
    give = army_of(s, seat, src)
    moving = []
    for name in names:
        t = troop_of(s, seat, name)
        if t is None or t not in give.troops:
            return c.skip("WK-TRANSFER", f"{name!r} is not in {src}'s army")
        moving.append(t)
    if give.casualties and len(moving) != len(give.troops):
        return c.skip("WK-TRANSFER", f"{src}'s army has {give.casualties} casualty tokens: all of its troops "
                      "move together, or none")
    take = army_of(s, seat, dst)
    held = s.barons[seat].troops
    why = G.leader_problem(dst, [held[x] for x in take.troops + tuple(moving)])   # For Glory: WK-LEADER-HERALD
    if why:
        return c.skip("WK-LEADER-HERALD", why)
    s = set_army(s, seat, src, Army(tuple(t for t in give.troops if t not in moving),
                                    0 if give.casualties else give.casualties))
    s = set_army(s, seat, dst, Army(take.troops + tuple(moving), take.casualties + give.casualties))
    c.note(f"{seat} moves {', '.join(moving)} from {src} to {dst}")
    return s


def picked_up(s: State, seat: str, noble: str, route: list[str], pickups, c: Ctx) -> State | None:
    """A moving Noble receives troops on his way: "At any point during movement, a Noble may
    receive troops from his stronghold, or from an *unexhausted* Noble, in the same area"
    (WK-TRANSFER). Each pickup names an area of his route (where he starts, or one he enters), and
    the stronghold or an unexhausted Noble of his there."""
    for pick in pickups:
        at = s.data.board.resolve(pick.at)
        if at is None or at not in route:
            return c.skip("WK-TRANSFER", f"{noble} picks up troops at {pick.at!r}, which is not on his way "
                          f"({' -> '.join(route)})")
        if pick.from_ == STRONGHOLD:
            if s.barons[seat].stronghold != at:
                return c.skip("WK-TRANSFER", f"{seat}'s stronghold is not in {at}")
            src = STRONGHOLD
        else:
            src = noble_of(s, pick.from_, seat, c, "WK-TRANSFER")
            if src is None:
                return None
            giver = s.nobles[src]
            if giver.owner != seat or giver.dead or giver.area != at or giver.at_sea or src == noble:
                return c.skip("WK-TRANSFER", f"{src} is not another Noble of {seat} in {at}")
            if giver.exhausted:
                return c.skip("WK-TRANSFER", f"{src} is exhausted: troops come from the stronghold or an "
                              "unexhausted Noble")
        s = pass_troops(s, seat, src, noble, pick.troops, c)
        if s is None:
            return None
    return s
