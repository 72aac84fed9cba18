"""Risk Europe, "Bonus Actions" (p.13): Fortify, and the Siege Weapon's assault on a castle with its
dice and casualties.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.judging import bad_faces
from engine.risk_europe.state import State, Terr, Units, evolve as replace
from engine.risk_europe.common import _Ctx, _name, reserve, _resolve, _roll, SIEGE_HITS_ON, _units
from engine.risk_europe.tables import TABLES
from engine.risk_europe.orders import _turn_precheck


def _bonus_precheck(s: State, e: Event, c: _Ctx, bonus: str) -> bool:
    if not _turn_precheck(s, e, c):
        return False
    f = s.flow
    assert f.card is not None           # _turn_precheck: a card is revealed
    card = s.data.cards[f.card]
    if card.bonus != bonus:
        c.bad("RE-BONUS-CARD", f"{f.card!r} carries no {bonus.replace('_', ' ')} bonus action")
    if f.bonus_used:
        c.bad("RE-BONUS-CARD", f"{e.actor} has already used the bonus action of {f.card!r}"
              + (" (the Berlin free maneuver comes after all other actions)" if f.berlin_used else ""))
    return True


def _fortified(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bonus_precheck(s, e, c, "fortify"):
        return None
    actor = e.actor
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    x = s.terr[t]
    if x.attacker == actor:
        return c.skip("RE-FORTIFY", f"{actor} attacks {t}; only the defender may fortify a disputed territory")
    if x.owner != actor:
        return c.skip("RE-FORTIFY", f"{actor} does not control {t} (held by {_name(s, x.owner)})")
    if not (t in s.data.cities or x.castle):
        c.bad("RE-FORTIFY", f"{t} is neither a city nor a castle territory")
    want = TABLES.fortify_footmen[1] if x.castle else TABLES.fortify_footmen[0]
    add = min(want, reserve(s, actor).footman)
    if e.payload.footmen is not None and e.payload.footmen != add:
        c.claim("RE-CLAIM", f"{actor} claims {e.payload.footmen} Footmen fortify {t}; the rules give {add}")
    terr = dict(s.terr)
    terr[t] = x._replace(units=x.units + Units(footman=add))
    c.note(f"{actor} fortifies {t}: +{add} Footmen" + (" (castle territory)" if x.castle else ""))
    return replace(s, terr=terr, flow=s.flow._replace(bonus_used=True))


def _siege_assaulted(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bonus_precheck(s, e, c, "siege_assault"):
        return None
    actor = e.actor
    frm = _resolve(s, e.payload.from_, c)
    target = _resolve(s, e.payload.target, c)
    if frm is None or target is None:
        return None
    src, dst = s.terr[frm], s.terr[target]
    if src.owner != actor:
        return c.skip("RE-SIEGE-FROM", f"{actor} does not control {frm}")
    if src.units.siege < 1:
        return c.skip("RE-SIEGE-FROM", f"{frm} holds no Siege Weapon of {actor}'s")
    if src.is_disputed:
        c.bad("RE-SIEGE-FROM", f"{frm} is in dispute; siege assaults may not be made from a disputed territory")
    if dst.owner is None or dst.owner == actor:
        return c.skip("RE-SIEGE-TARGET", f"{target} is not an enemy territory (held by {_name(s, dst.owner)})")
    if s.is_teammate(actor, dst.owner):
        return c.skip("RE-TEAM-TERRITORY", f"{target} is held by {actor}'s teammate {dst.owner}; a Siege "
                      "Assault is never made on a teammate")
    if target not in s.data.land_neighbours[frm]:
        if target in s.data.neighbours[frm]:
            c.bad("RE-SIEGE-TARGET", f"{frm} and {target} are joined by a sea-line; siege assaults cross land borders only")
        else:
            c.bad("RE-SIEGE-TARGET", f"{target} is not adjacent to {frm}")
    if dst.is_disputed:
        c.bad("RE-SIEGE-TARGET", f"{target} is in dispute; siege assaults may not be made into a disputed territory")
    n = TABLES.siege_dice_per_siege * src.units.siege
    c.note(f"{actor} siege-assaults {target} ({dst.owner}) from {frm}: {n} dice, hits on 3+")
    return replace(s, flow=s.flow._replace(bonus_used=True, pending=("siege_dice", frm, target, n)))


def _siege_dice(s: State, e: Event, c: _Ctx) -> State | None:
    assert s.flow.pending is not None   # engine._dice_rolled: a siege assault's dice are pending
    _, frm, target, n = s.flow.pending
    rolls = e.payload.rolls
    roller = s.flow.current
    if set(rolls) != {roller}:
        return c.skip("RE-SIEGE-DICE", f"the siege assault dice are rolled by {roller} alone; got "
                      f"rolls for {', '.join(rolls) or 'nobody'}")
    dice = rolls[roller]
    if bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dice!r}")
    if len(dice) != n:
        c.bad("RE-SIEGE-DICE", f"the siege assault rolls {n} dice (2 per Siege Weapon); the log has {len(dice)}")
    if e.payload.territory is not None and s.data.resolve(e.payload.territory) != target:
        c.claim("RE-CLAIM", f"the dice are labelled for {e.payload.territory!r}; the siege assault is on {target}")
    hits = sum(1 for d in dice if d >= SIEGE_HITS_ON)
    x = s.terr[target]
    owed = min(hits, x.units.total)
    c.note(f"Siege assault dice {dice}: {hits} hit{'s' if hits != 1 else ''} on {x.owner} in {target}")
    s = _roll(s, dice, c)
    pending = ("casualties", target, x.owner, owed) if owed else None
    return replace(s, flow=s.flow._replace(pending=pending))


def _siege_casualties(s: State, e: Event, c: _Ctx) -> State | None:
    assert s.flow.pending is not None   # engine._casualties_removed: a siege assault's hits are pending
    _, target, victim, owed = s.flow.pending
    if e.actor != victim:
        return c.skip("RE-CASUALTIES", f"{victim} chooses the casualties of the siege assault on {target}, not {e.actor}")
    t = _resolve(s, e.payload.territory, c, expect=target, wrong_rule="RE-CASUALTIES",
                 wrong=lambda t: f"the siege assault hit {target}, not {t}")
    if t is None:
        return None
    x = s.terr[t]
    units = _units(e.payload.units)
    if not x.units.covers(units):
        return c.skip("RE-CASUALTIES", f"{victim} removes {units.describe()} from {t}, which holds {x.units.describe()}")
    if units.total != owed:
        c.bad("RE-CASUALTIES", f"{victim} must remove {owed} unit{'s' if owed != 1 else ''} from {t}; "
              f"the log removes {units.total}")
    left = x.units.minus(units)
    terr = dict(s.terr)
    if left.total == 0:
        terr[t] = Terr(castle=x.castle, since=s.step)
        c.note(f"{victim} loses {units.describe()} in {t}; {t} is left empty and becomes unclaimed "
               "(RE-RULING-SIEGE-EMPTIES)")
    else:
        terr[t] = x._replace(units=left)
        c.note(f"{victim} removes {units.describe()} from {t}")
    return replace(s, terr=terr, flow=s.flow._replace(pending=None))
