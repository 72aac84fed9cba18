"""Risk Legacy, "4 Maneuver Troops": one maneuver between two connected territories.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.text import plural
from engine.risk_legacy.state import END, MANEUVERED, State, evolve as replace
from engine.risk_legacy.attack import _move_from_to
from engine.risk_legacy.common import connected, _Ctx, has_power, _name, _set_terr, _tname


def _maneuvered(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-MANEUVER-PATH", detail=False)
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if dst.owner != p or frm == to:
        return c.skip("RL-MANEUVER-PATH", f"a maneuver goes to another territory {p} controls; {_tname(s, to)} "
                      f"is {'the same territory' if frm == to else 'held by ' + _name(dst.owner)}")
    if pay.troops > src.troops:
        return c.skip("RL-MANEUVER-PATH", f"{p} moves {plural(pay.troops, 'troop')} out of {_tname(s, frm)}, which holds {src.troops}")
    f = s.flow
    anytime = has_power(s, p, "sahara-maneuver-anytime")
    if f.maneuvered:
        c.bad("RL-MANEUVER-ONCE", f"{p} has already maneuvered this turn")
    if not anytime:
        if not f.recruited:
            c.bad("RL-TURN-STEPS", "the maneuver comes after recruiting, expanding and attacking")
        elif f.step == END:
            c.bad("RL-TURN-STEPS", "the maneuver comes before the end of the turn")
    if pay.troops == src.troops:
        c.bad("RL-MANEUVER-PATH", f"at least one troop stays in {_tname(s, frm)}")
    if not connected(s, p, frm, to) and not has_power(s, p, "sahara-maneuver-anywhere"):
        c.bad("RL-MANEUVER-PATH", f"{_tname(s, frm)} and {_tname(s, to)} are not connected through "
              f"territories {p} controls")
    terr = _set_terr(s, **{frm: src._replace(troops=src.troops - pay.troops, owner=p if src.troops > pay.troops else None),
                           to: dst._replace(troops=dst.troops + pay.troops)})
    c.note(f"{p} maneuvers {pay.troops} from {_tname(s, frm)} to {_tname(s, to)}")
    step = f.step if anytime else max(f.step, MANEUVERED)
    return replace(s, terr=terr, flow=f._replace(maneuvered=True, step=step))
