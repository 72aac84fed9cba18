"""The Baron actions (summary, "Actions" 1-6): Levy Taxes, Draft Soldiers, Rally Support, Serve
the Church, Mobilize Forces and the Versatile Action, each resolved by the owner of the revealed
card (or declined), and where the card then goes."""

from __future__ import annotations

from engine.warrior_knights.battles import begin_battle
from engine.warrior_knights.cards import HAND, SPECIAL_AREAS, VERSATILE_OPTIONS
from engine.warrior_knights.common import Ctx, area_of, gain, noble_of, pay, seat_of, set_baron, set_noble
from engine.warrior_knights.moves import path_problem, picked_up, sea_problem
from engine.warrior_knights.state import CASUALTY_TOKEN, State, evolve

ACTION_OF = {"TaxesLevied": "levy_taxes", "SoldiersDrafted": "draft_soldiers",
             "SupportRallied": "rally_support", "ChurchServed": "serve_the_church",
             "ForcesMobilized": "mobilize_forces"}
RALLY_VOTES = 2                # "The Baron gains 2 Votes"


def _card_area(s: State) -> object:
    p = s.flow.pending
    kinds = s.data.cards.baron_actions
    if kinds is not None:
        return kinds[p.card].area if p.card in kinds else None
    return p.printed_area


def _versatile_options(s: State) -> tuple[str, ...]:
    kinds = s.data.cards.baron_actions
    if kinds is not None and "versatile" in kinds:
        return kinds["versatile"].options
    return VERSATILE_OPTIONS


def _acting(s: State, e, c: Ctx) -> bool:
    """Is `e` the owner's resolution of the Baron card being resolved, an action the card lists?"""
    p = s.flow.pending
    if s.flow.phase != "actions" or p is None or p.owner is None or p.stage != "open":
        c.skip("WK-FLOW", f"{e.type} is not expected now: no Baron's card waits to be resolved"
               + (f" (the card being resolved is {p.card}, {p.stage})" if p is not None else ""))
        return False
    if e.actor != p.owner:
        c.skip("WK-ACTOR", f"the revealed card ({p.card}) is {p.owner}'s: only he resolves it, not {e.actor}")
        return False
    action = ACTION_OF.get(e.type)
    if action is None:
        return True
    if p.card == "versatile":
        if action not in _versatile_options(s):
            c.skip("WK-ACTION", f"the Versatile card lists {', '.join(_versatile_options(s))}, not {action}")
            return False
    elif p.card != action:
        c.skip("WK-ACTION", f"{p.owner}'s card is {p.card}: he may not take {action} with it")
        return False
    return True


def _resolved(s: State, area: object, c: Ctx, **detail) -> State:
    """The card resolved: its Special Phase area decided (`area`: an area, HAND, or None for the
    printed one), ready to be allocated (rounds.advance)."""
    p = s.flow.pending
    if p.card == "versatile":
        area = HAND
    if area is None:
        printed = _card_area(s)
        area = printed if isinstance(printed, str) else None
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage="done", area=area, detail={**p.detail, **detail})))


def _chosen_area(s: State, given: str | None, options: tuple, c: Ctx, why: str) -> str:
    if given is None:
        c.bad("WK-ALLOCATE", f"{why}: the Baron chooses the area among {', '.join(options)}; the log names "
              f"none ({options[0]} is used)")
        return options[0]
    if given not in options:
        c.bad("WK-ALLOCATE", f"{why}: the card goes to {' or '.join(options)}, not {given!r}")
        return options[0]
    return given


def action_declined(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    printed = _card_area(s)
    given = e.payload.area
    if isinstance(printed, dict):
        area = _chosen_area(s, given, (printed["move"], printed["battle"]), c, "a declined Mobilize Forces card")
    elif isinstance(printed, tuple):
        area = _chosen_area(s, given, printed, c, "the card lists several areas")
    else:
        if given is not None and given != printed and s.flow.pending.card != "versatile":
            c.bad("WK-ALLOCATE", f"the {s.flow.pending.card} card goes to {printed}, not {given!r}")
        area = printed
    c.note(f"{e.actor} declines the action")
    return _resolved(s, area, c)


def taxes_levied(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    seat = e.actor
    areas = {n.area for n in s.nobles.values() if n.owner == seat and not n.dead and n.area and not n.at_sea}
    got = len(areas)
    if e.payload.crowns is not None and e.payload.crowns != got:
        c.claim("WK-LEVY", f"{seat} levies {e.payload.crowns} crowns; his Nobles occupy {got} areas "
                "(Nobles on a port icon do not count)")
    c.note(f"{seat} levies {got} crowns")
    return _resolved(gain(s, seat, got), None, c)


def soldiers_drafted(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    seat = e.actor
    spot = e.payload.spot
    board = s.data.board
    usable = {t.spot for t in board.usable_spots(len(s.seats))}
    if spot not in usable:
        return c.skip("WK-DRAFT-SPOT", f"space {spot} of the Mercenary Track is not in play with {len(s.seats)} "
                      f"players (in play: {', '.join(map(str, sorted(usable)))})")
    if s.track[spot - 1] == CASUALTY_TOKEN:
        return c.skip("WK-ASSEMBLE-TROOPS", f"space {spot} of the Mercenary Track holds a casualty token (Assemble "
                      "Troops): no Baron marker goes there")
    if s.track[spot - 1] is not None:
        return c.skip("WK-DRAFT-SPOT", f"space {spot} of the Mercenary Track holds {s.track[spot - 1]}'s marker")
    versatile = s.flow.pending.card == "versatile"
    if versatile:
        fee = board.track[spot - 1].fee
        if s.barons[seat].crowns < fee:
            return c.skip("WK-VERSATILE", f"a marker placed with a Versatile card pays the space's fee, {fee} "
                          f"crowns; {seat} has {s.barons[seat].crowns}")
        s = pay(s, seat, fee)
        c.note(f"{seat} pays {fee} crowns for space {spot}")
    track = tuple(seat if i == spot - 1 else x for i, x in enumerate(s.track))
    s = evolve(s, track=track)
    markers = sum(1 for x in track if x is not None)
    c.note(f"{seat}'s marker on space {spot} ({markers} of {len(s.seats) + 1})")
    draft = markers >= len(s.seats) + 1
    if draft:
        c.note("The track is full: a Mercenary Draft follows")
    return _resolved(s, None, c, draft=draft)


def support_rallied(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    seat = e.actor
    votes = s.barons[seat].votes + RALLY_VOTES
    s = set_baron(s, seat, votes=votes)
    if all(votes > b.votes for q, b in s.barons.items() if q != seat) and s.chairman != seat:
        s = evolve(s, chairman=seat)
        c.note(f"{seat} has the most Votes ({votes}) and becomes Chairman of the Assembly")
    else:
        c.note(f"{seat} gains {RALLY_VOTES} Votes ({votes})")
    return _resolved(s, None, c)


def church_served(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    seat = e.actor
    faith = s.barons[seat].faith + 1
    s = set_baron(s, seat, faith=faith)
    if all(faith > b.faith for q, b in s.barons.items() if q != seat) and s.head_of_church != seat:
        s = evolve(s, head_of_church=seat)
        c.note(f"{seat} has the most Faith ({faith}) and becomes Head of the Church")
    else:
        c.note(f"{seat} gains 1 Faith ({faith})")
    return _resolved(s, None, c)


def permission_given(s: State, e, c: Ctx) -> State | None:
    p = s.flow.pending
    if s.flow.phase != "actions" or p is None or p.owner is None or p.stage != "open":
        return c.skip("WK-FLOW", "permission is given for the action being resolved; none is now")
    to = seat_of(s, e.payload.to)
    if to is None or to == e.actor:
        return c.skip("WK-FLOW", f"{e.payload.to!r} is not another Baron")
    area = area_of(s, e.payload.area, c)
    if area is None:
        return None
    permits = p.detail.get("permits", frozenset()) | {(e.actor, area)}
    c.note(f"{e.actor} allows {to} in {area}")
    return evolve(s, flow=s.flow._replace(pending=p._replace(detail={**p.detail, "permits": permits})))


def forces_mobilized(s: State, e, c: Ctx) -> State | None:
    if not _acting(s, e, c):
        return None
    seat = e.actor
    p = e.payload
    area = area_of(s, p.area, c, "WK-MOBILIZE")
    if area is None:
        return None
    if not p.moves and p.attack is None:
        return c.skip("WK-MOBILIZE", "Mobilize Forces moves Nobles, starts a battle, or both (ActionDeclined "
                      "declines it)")
    permits = s.flow.pending.detail.get("permits", frozenset())
    moved = []
    for m in p.moves:
        nid = noble_of(s, m.noble, seat, c, "WK-MOBILIZE")
        if nid is None:
            return None
        n = s.nobles[nid]
        if n.owner != seat or n.dead or n.area is None:
            return c.skip("WK-MOBILIZE", f"{nid} is not one of {seat}'s Nobles on the board")
        if nid in moved:
            return c.skip("WK-MOBILIZE", f"{nid} moves twice")
        if n.exhausted:
            c.bad("WK-MOVE-EXHAUSTED", f"{nid} is exhausted: he may not move")     # applied as recorded
        if n.at_sea:
            return c.skip("WK-MOVE-SEA", f"{nid} is at sea until the Upkeep")
        path = []
        for name in m.path:
            a = area_of(s, name, c, "WK-MOVE")
            if a is None:
                return None
            path.append(a)
        if path[-1] != area:
            return c.skip("WK-MOBILIZE", f"the Nobles move into the one area chosen, {area}; {nid}'s move ends in {path[-1]}")
        if m.sea:
            if m.pickups:
                return c.skip("WK-TRANSFER", "troops are picked up on a land move (before or after a sea move: "
                              "TroopsTransferred)")
            if len(path) != 1:
                return c.skip("WK-MOVE-SEA", "a sea move goes straight to the port (one area in the path)")
            why = sea_problem(s, n.area, area)
            if why:
                c.bad("WK-MOVE-SEA", why)                                     # applied as recorded
            s = set_noble(s, nid, area=area, at_sea=True)
            c.note(f"{nid} sails from {n.area} to {area}'s port")
        else:
            problem = path_problem(s, seat, n.area, path, permits)
            if problem:
                c.bad(*problem)                       # the Noble is where the log puts him: applied as recorded
            if m.pickups:
                s = picked_up(s, seat, nid, [n.area] + path, m.pickups, c)
                if s is None:
                    return None
            s = set_noble(s, nid, area=area)
            c.note(f"{nid} moves {' -> '.join([n.area] + path)}")
        moved.append(nid)
    attackers: tuple = ()
    if p.attack is not None:
        s2 = begin_battle(s, seat, area, p.attack, permits, c)
        if s2 is None:
            return None
        s = s2
        attackers = (s.battle.attacker.armies if s.battle is not None
                     else tuple(noble_of(s, a, seat, Ctx()) for a in p.attack.armies))
    for nid in set(moved) | {a for a in attackers if a}:
        if not s.nobles[nid].dead:
            s = set_noble(s, nid, exhausted=True)
    printed = _card_area(s)
    did_move, did_battle = bool(moved), p.attack is not None
    area_to: str | None
    if s.flow.pending.card == "versatile":
        area_to = HAND
    elif isinstance(printed, dict):
        if did_move and did_battle:
            area_to = _chosen_area(s, p.card_area, (printed["move"], printed["battle"]), c,
                                   "a Mobilize Forces card that moved and fought")
        else:
            area_to = printed["move"] if did_move else printed["battle"]
            if p.card_area is not None and p.card_area != area_to:
                c.bad("WK-ALLOCATE", f"only one action happened: the card goes to {area_to}, not {p.card_area!r}")
    elif isinstance(printed, str) and printed in SPECIAL_AREAS:
        area_to = printed
    else:
        area_to = _chosen_area(s, p.card_area, tuple(printed or SPECIAL_AREAS), c, "the card lists several areas")
    if s.battle is not None:
        pend = s.flow.pending
        return evolve(s, flow=s.flow._replace(pending=pend._replace(stage="battle", area=area_to)))
    return _resolved(s, area_to, c)
