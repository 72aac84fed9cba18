"""Risk Legacy, "3 Expand and Attack": expanding into unoccupied territories and cities, declaring
an attack, Scar cards placed, the dice ("Modifying Die Rolls", "Fortifications", "Missiles"),
casualties, and the move into a conquered territory ("If the Defender Has No More Troops in the
Territory", "Knocking Out Another Player").
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.text import plural
from engine.core.judging import bad_faces, seat_ordered
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTION_NAMES, Territory
from engine.risk_legacy.combat import is_double_six, is_three_of_a_kind
from engine.risk_legacy.state import Combat, FACE_DOWN, State, Terr, evolve as replace
from engine.risk_legacy.common import (
    _Ctx, defence_modifiers, faction_name, has_power, _name, _open_pack, _resolve, _roll, roll_result,
    _set_terr, stars, _tname, troops_of,
)
from engine.risk_legacy.setup import _reveal_scar
from engine.risk_legacy.turns import _check_win, _main_step, _my_turn


def city_cost(s: State, t: Territory) -> int:
    """Troops lost expanding into unoccupied `t`: its population, two more if fortified."""
    return W.population(s.world, s.data, t) + (2 if W.is_fortified(s.world, t) else 0)


def _move_from_to(s: State, e: Event, c: _Ctx, rule: str, detail: bool = True):
    """The common start of an expansion, attack or maneuver: the acting player's turn, both
    territories on the board, and the source held by the actor (else `rule`). (player,
    payload, from, to, source, destination), or None when the event is skipped."""
    if not _my_turn(s, e, c):
        return None
    p = e.actor
    pay = e.payload
    frm = _resolve(s, pay.from_, c)
    to = frm and _resolve(s, pay.to, c)
    if frm is None or to is None:
        return None
    src, dst = s.terr[frm], s.terr[to]
    if src.owner != p:
        return c.skip(rule, f"{p} does not control {_tname(s, frm)}"
                      + (f" (held by {_name(src.owner)})" if detail else ""))
    return p, pay, frm, to, src, dst


def _expanded(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-EXPAND-FROM")
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if pay.troops > src.troops:
        return c.skip("RL-EXPAND-FROM", f"{p} moves {plural(pay.troops, 'troop')} out of {_tname(s, frm)}, which holds {src.troops}")
    if dst.owner == p:
        return c.skip("RL-EXPAND-TARGET", f"{p} already controls {_tname(s, to)} (moving there is a maneuver)")
    if dst.troops > 0:
        return c.skip("RL-EXPAND-TARGET", f"{_tname(s, to)} is occupied by {_name(dst.owner)}: it is attacked, "
                      "not expanded into")
    s = _main_step(s, e, c, "expanding")
    if pay.troops == src.troops:
        c.bad("RL-EXPAND-FROM", f"{p} must leave at least one troop in {_tname(s, frm)}")
    if not s.data.is_adjacent(frm, to):
        c.bad("RL-EXPAND-ADJACENT", f"{_tname(s, to)} is not adjacent to {_tname(s, frm)}")
    lost = city_cost(s, to)
    if pay.troops - lost < 1:
        return c.skip("RL-EXPAND-CITY", f"expanding into {_tname(s, to)} costs {plural(lost, 'troop')}; {pay.troops} "
                      "moving would not keep control of it")
    if pay.lost is not None and pay.lost != lost:
        c.claim("RL-CLAIM", f"{p} claims {plural(pay.lost, 'troop')} lost entering {_tname(s, to)}; the rules give {lost}")
    terr = _set_terr(s, **{frm: src._replace(troops=src.troops - pay.troops,
                                            owner=p if src.troops > pay.troops else None),
                           to: Terr(p, pay.troops - lost, dst.hq)})
    city = W.marks(s.world, to).city
    extra = f" ({city.name}: {plural(lost, 'troop')} lost to the city)" if city else ""
    c.note(f"{p} expands into {_tname(s, to)} with {pay.troops}{extra}")
    return replace(s, terr=terr, flow=s.flow._replace(expanded=s.flow.expanded + 1))


def _attack_declared(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-ATTACK-FROM")
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if pay.troops > src.troops - 1:
        return c.skip("RL-ATTACK-FROM", f"{p} attacks with {pay.troops} from {_tname(s, frm)}, which holds "
                      f"{src.troops}: one must stay behind")
    if dst.owner is None or dst.troops == 0:
        return c.skip("RL-ATTACK-TARGET", f"{_tname(s, to)} holds no enemy troops: it is expanded into, not attacked")
    if dst.owner == p:
        return c.skip("RL-ATTACK-TARGET", f"{p} cannot attack their own territory {_tname(s, to)}")
    s = _main_step(s, e, c, "attacking")
    if not s.data.is_adjacent(frm, to):
        c.bad("RL-ATTACK-TARGET", f"{_tname(s, to)} is not adjacent to {_tname(s, frm)}")
    if to in s.flow.immune:
        c.bad("RL-POWER-MECH-DOUBLE-SIXES", f"{_tname(s, to)} rolled two natural 6s for Die Mechaniker: "
              "immune to further attacks this turn")
    f = s.flow
    cb = Combat(frm=frm, to=to, attacker=p, defender=dst.owner, dice=pay.troops)
    c.note(f"{faction_name(s, p)} attacks {faction_name(s, dst.owner)} in {_tname(s, to)} ({plural(dst.troops, 'troop')}) "
           f"from {_tname(s, frm)} with {pay.troops}")
    return replace(s, combat=cb, flow=f._replace(first_attack=f.first_attack or to))


def _defence_declared(s: State, e: Event, c: _Ctx) -> State | None:
    """RL-ATTACK-DICE: the defender chooses 1 or 2 defending troops (no more than are there)."""
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "declared":
        return c.skip("RL-FLOW", "the defender chooses its dice once an attack is declared, before it is rolled")
    if e.actor != cb.defender:
        return c.skip("RL-ATTACK-DICE", f"{cb.defender} defends {_tname(s, cb.to)} and chooses its dice, not {e.actor}")
    if cb.defend:
        return c.skip("RL-ATTACK-DICE", f"{cb.defender} has already chosen to defend with {cb.defend}")
    n = e.payload.troops
    most = min(2, s.terr[cb.to].troops)
    if n > most:
        return c.skip("RL-ATTACK-DICE", f"{cb.defender} holds {plural(s.terr[cb.to].troops, 'troop')} in "
                      f"{_tname(s, cb.to)}: at most {most} defend, not {n}")
    c.note(f"{cb.defender} defends {_tname(s, cb.to)} with {n}")
    return replace(s, combat=cb._replace(defend=n))


def _scar_placed(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "declared":
        return c.skip("RL-SCAR-PLACE", "a Scar card is played before an attack roll, onto the defending territory")
    if cb.defend:
        return c.skip("RL-SCAR-PLACE", f"{cb.defender} has declared its dice: a Scar card is played before "
                      "the defender chooses them")
    ps = s.players[e.actor]
    kind = e.payload.scar.casefold().replace(" ", "_")
    if kind not in s.data.scar_cards:
        return c.skip("RL-NAME", f"no scar {e.payload.scar!r} (scars: {', '.join(s.data.scar_cards)})")
    if ps.scar not in (kind, FACE_DOWN):
        return c.skip("RL-SCAR-PLACE", f"{e.actor} holds no {kind.replace('_', ' ')} Scar card"
                      + (f" (they hold {ps.scar.replace('_', ' ')})" if ps.scar else ""))
    t = _resolve(s, e.payload.territory, c, expect=cb.to, wrong_rule="RL-SCAR-PLACE",
                 wrong=lambda t: f"the scar goes onto the defending territory, {_tname(s, cb.to)}, not {_tname(s, t)}")
    if t is None:
        return None
    m = W.marks(s.world, t)
    if m.scar is not None:
        return c.skip("RL-SCAR-PLACE", f"{_tname(s, t)} already has a scar ({m.scar.replace('_', ' ')}); it "
                      "cannot be covered")
    if ps.scar == FACE_DOWN:
        s = _reveal_scar(s, e.actor, kind, e.payload.salt, e, c)
    world = W.with_supply(W.with_marks(s.world, t, scar=kind), f"scar:{kind}", -1)
    players = dict(s.players)
    players[e.actor] = ps._replace(scar=None)
    c.note(f"{e.actor} scars {_tname(s, t)} with a {kind.replace('_', ' ')} (for this and every later game)")
    return replace(s, world=world, players=players)


def _attack_dice(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if cb is None or cb.stage != "declared":
        return c.skip("RL-FLOW", "no attack has been declared: no dice are due now")
    rolls = e.payload.rolls
    if set(rolls) - {cb.attacker, cb.defender} or cb.attacker not in rolls or cb.defender not in rolls:
        return c.skip("RL-ATTACK-DICE", f"{cb.attacker} and {cb.defender} roll in {_tname(s, cb.to)}; got "
                      f"rolls for {', '.join(rolls) or 'nobody'}")
    if bad_faces(rolls):
        return c.skip("RL-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    att, dfn = list(rolls[cb.attacker]), list(rolls[cb.defender])
    if not att or not dfn:
        return c.skip("RL-ATTACK-DICE", f"both sides roll at least one die; got {dict(rolls)!r}")
    if len(att) != cb.dice:
        c.bad("RL-ATTACK-DICE", f"{cb.attacker} attacks with {cb.dice} troops and rolls {len(att)} dice")
    most = min(2, s.terr[cb.to].troops)
    if len(dfn) > most:
        c.bad("RL-ATTACK-DICE", f"{cb.defender} defends {_tname(s, cb.to)} with {len(dfn)} dice; at most {most}")
    elif cb.defend and len(dfn) != cb.defend:
        c.bad("RL-ATTACK-DICE", f"{cb.defender} chose to defend with {cb.defend}; the roll has {len(dfn)} "
              f"defending {'die' if len(dfn) == 1 else 'dice'}")
    s = _roll(s, seat_ordered(s, rolls), c)
    cb = cb._replace(stage="rolled", rolls=(tuple(att), tuple(dfn)))
    s = replace(s, combat=cb)
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    mods = defence_modifiers(s, cb)
    c.note(f"Dice in {_tname(s, cb.to)}: {cb.attacker} {att} against {cb.defender} {dfn}"
           + (f"; defender's dice {' '.join(f'{m.delta:+d} {m.die} ({m.source})' for m in mods)} → {fd}" if mods else "")
           + f": {cb.attacker} would lose {a_lost}, {cb.defender} {d_lost}")
    return s


def _missile_fired(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "rolled":
        return c.skip("RL-MISSILE-TIMING", "a Missile is played after the dice of an attack are rolled and "
                      "before troops are removed; no roll is waiting now")
    ps = s.players[e.actor]
    if ps.missiles < 1:
        return c.skip("RL-MISSILE", f"{e.actor} has no Missile")
    side, i = e.payload.side, e.payload.die
    dice = cb.rolls[0] if side == "attacker" else cb.rolls[1]
    if i >= len(dice):
        return c.skip("RL-MISSILE", f"the {side} rolled {len(dice)} dice; there is no die #{i}")
    if any(m[0] == side and m[1] == i for m in cb.missiles):
        return c.skip("RL-MISSILE", f"the {side}'s die #{i} is already an unmodifiable 6")
    players = dict(s.players)
    players[e.actor] = ps._replace(missiles=ps.missiles - 1)
    cb = cb._replace(missiles=cb.missiles + ((side, i, e.actor),), held=())   # the others may answer it
    s = replace(s, players=players, combat=cb)
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    c.note(f"{e.actor} fires a Missile: the {side}'s {dice[i]} becomes an unmodifiable 6 → {cb.attacker} "
           f"{fa} against {cb.defender} {fd}: {cb.attacker} would lose {a_lost}, {cb.defender} {d_lost}")
    if len(cb.missiles) == 3:
        s = _open_pack(s, "pocket_1", c, " (before the combat is resolved)")
    return s


def _missiles_held(s: State, e: Event, c: _Ctx) -> State | None:
    """RL-MISSILE-TIMING: a player holding Missiles fires none (more) at this roll, until another
    Missile is fired."""
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "rolled":
        return c.skip("RL-MISSILE-TIMING", "Missiles are held or fired after the dice of an attack are rolled "
                      "and before troops are removed; no roll is waiting now")
    if s.players[e.actor].missiles < 1:
        return c.skip("RL-MISSILE", f"{e.actor} has no Missile to hold")
    if e.actor in cb.held:
        return c.skip("RL-MISSILE-TIMING", f"{e.actor} has already passed since the last Missile")
    c.note(f"{e.actor} fires no Missile")
    return replace(s, combat=cb._replace(held=cb.held + (e.actor,)))


def _casualties_removed(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "rolled":
        return c.skip("RL-CASUALTIES", "no attack roll is waiting for its troops to be removed")
    _, _, a_lost, d_lost = roll_result(s, cb)
    pay = e.payload
    if (pay.attacker, pay.defender) != (a_lost, d_lost):
        c.claim("RL-CASUALTIES", f"the log removes {pay.attacker} of {cb.attacker}'s and {pay.defender} of "
                f"{cb.defender}'s troops; the dice give {a_lost} and {d_lost}")
    return _resolve_roll(s, c)


def _resolve_roll(s: State, c: _Ctx) -> State:
    """Remove the troops the roll gives; powers and fortification wear; a conquest if the
    defender has no troops left."""
    cb = s.combat
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    src, dst = s.terr[cb.frm], s.terr[cb.to]
    world = s.world
    flow = s.flow
    att_nat, def_nat = cb.rolls
    left = dst.troops - d_lost
    if has_power(s, cb.attacker, "bear-three-of-a-kind") and is_three_of_a_kind(att_nat) and d_lost >= 1 and left > 0:
        c.note(f"Enclave of the Bear rolled a natural three of a kind {list(att_nat)} and defeated a defender: "
               f"{_tname(s, cb.to)} falls outright ({left} more defender{'s' if left > 1 else ''} removed)")
        left = 0
    if has_power(s, cb.defender, "mech-double-sixes") and is_double_six(def_nat) and left > 0:
        flow = flow._replace(immune=flow.immune | {cb.to})
        c.note(f"Die Mechaniker rolled two natural 6s: {_tname(s, cb.to)} is immune to further attacks this turn")
    if len(att_nat) == 3 and W.is_fortified(world, cb.to):
        boxes = (W.marks(world, cb.to).fortification or 0) + 1
        world = W.with_marks(world, cb.to, fortification=boxes)
        c.note(f"An attack with 3 troops wears the fortification in {_tname(s, cb.to)}: box {boxes} of 10 marked"
               + ("; it is spent" if boxes >= 10 else ""))
    c.note(f"{cb.attacker} loses {a_lost}, {cb.defender} loses {dst.troops - left}")
    terr = _set_terr(s, **{cb.frm: src._replace(troops=src.troops - a_lost),
                           cb.to: dst._replace(troops=left, owner=dst.owner if left else None)})
    s = replace(s, terr=terr, world=world, flow=flow)
    if left == 0:
        survivors = cb.dice - a_lost
        return replace(s, combat=cb._replace(stage="conquered", survivors=survivors))
    return replace(s, combat=None)


def _moved_in(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "conquered":
        return c.skip("RL-CONQUER-MOVE", "troops move in after the defender's last troop is defeated; no "
                      "territory is waiting for them")
    if e.actor != cb.attacker:
        return c.skip("RL-ACTOR", f"the attacker, {cb.attacker}, moves in")
    n = e.payload.troops
    src = s.terr[cb.frm]
    if n > src.troops:
        return c.skip("RL-CONQUER-MOVE", f"{n} troops move in from {_tname(s, cb.frm)}, which holds {src.troops}")
    if n < cb.survivors:
        c.bad("RL-CONQUER-MOVE", f"the {cb.survivors} attacking troops must all move into {_tname(s, cb.to)}; "
              f"the log moves {n}")
    if n == src.troops:
        c.bad("RL-CONQUER-MOVE", f"at least one troop stays in {_tname(s, cb.frm)}")
    return _occupy(s, n, c)


def _occupy(s: State, n: int, c: _Ctx) -> State:
    """The attacker takes the territory with `n` troops: HQ, knock-out, win."""
    cb = s.combat
    src, dst = s.terr[cb.frm], s.terr[cb.to]
    terr = _set_terr(s, **{cb.frm: src._replace(troops=src.troops - n, owner=cb.attacker if src.troops > n else None),
                           cb.to: Terr(cb.attacker, n, dst.hq)})
    s = replace(s, terr=terr, combat=None, flow=s.flow._replace(conquered=s.flow.conquered + 1))
    c.note(f"{cb.attacker} takes {_tname(s, cb.to)} and moves in {n}")
    if dst.hq is not None:
        c.note(f"{cb.attacker} now controls the HQ of {FACTION_NAMES[dst.hq]} and its Red Star "
               f"({stars(s, cb.attacker)} Red Stars)")
    d = cb.defender
    if troops_of(s, d) == 0:
        players = dict(s.players)
        taken = players[d].hand
        players[d] = players[d]._replace(hand=())
        players[cb.attacker] = players[cb.attacker]._replace(hand=tuple(sorted(players[cb.attacker].hand + taken)))
        s = replace(s, players=players)
        c.note(f"{cb.attacker} knocks out {d} and takes their {len(taken)} resource card"
               f"{'s' if len(taken) != 1 else ''}")
    return _check_win(s, c)
