"""Risk Europe, "Battles in Disputed Territories" (p.15-18): the battle chosen, the ranks and their
dice (Rank 1 siege, 2 archers, 3 cavalry, 4 general), the reroll of a City Bonus Tile,
casualties, the end of a battle and the winner it gives (checked against a declared one).
"""

from __future__ import annotations

from engine.core.dice import highest_against_highest
from engine.core.events import Event
from engine.core.judging import bad_faces, seat_ordered
from engine.core.text import plural
from engine.risk_europe.state import Battle, PlayerId, State, Terr, Units, evolve as replace
from engine.risk_europe.common import (
    _Ctx, GENERAL_DICE, GENERAL_RANK, has_tile, _name, RANK_DICE_PER_UNIT, RANK_HITS_ON, RANK_NAME,
    RANK_UNIT, _resolve, _roll, _units,
)
from engine.risk_europe.tables import TABLES
from engine.risk_europe.rounds import _end_round


def _first_rank(att: Units, dfn: Units, start: int) -> int:
    for r in range(start, GENERAL_RANK):
        unit = RANK_UNIT[r]
        if getattr(att, unit) or getattr(dfn, unit):
            return r
    return GENERAL_RANK


def expected_dice(rank: int, att: Units, dfn: Units) -> tuple[int, int]:
    """Dice each side rolls in a rank of the Ranked Attack Order (RE-BATTLE-DICE)."""
    if rank == GENERAL_RANK:
        return min(GENERAL_DICE[0], att.total), min(GENERAL_DICE[1], dfn.total)
    unit = RANK_UNIT[rank]
    k = RANK_DICE_PER_UNIT[rank]
    return k * getattr(att, unit), k * getattr(dfn, unit)


def rank_hits(rank: int, att_dice, def_dice) -> tuple[int, int]:
    """(hits scored by the attacker, hits scored by the defender) in one rank (RE-BATTLE-HITS)."""
    if rank == GENERAL_RANK:
        return highest_against_highest(sorted(att_dice, reverse=True), sorted(def_dice, reverse=True))
    need = RANK_HITS_ON[rank]
    return sum(1 for x in att_dice if x >= need), sum(1 for y in def_dice if y >= need)


def _battle_started(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.phase != "battles":
        return c.skip("RE-FLOW", f"battles are fought after both turns of a round (now: {s.flow.phase})")
    if s.battle is not None:
        return c.skip("RE-FLOW", f"the battle in {s.battle.territory} is not over")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    x = s.terr[t]
    attacker, defender = x.attacker, x.owner
    if attacker is None:                # not disputed
        return c.skip("RE-BATTLE-ORDER", f"{t} is not a disputed territory"
                      + (" (its battle was already fought)" if t in s.fought else ""))
    if e.actor != s.marker:
        c.bad("RE-BATTLE-ORDER", f"{s.marker} holds the First Player Marker and chooses the order of "
              f"battles, not {e.actor}")
    # an army attacks only a territory someone holds (orders._enter): a disputed one has a defender
    assert defender is not None
    rank = _first_rank(x.attacker_units, x.units, 1)
    b = Battle(territory=t, attacker=attacker, defender=defender, castle=x.castle, rank=rank)
    c.note(f"Battle for {t}: {x.attacker} ({x.attacker_units.describe()}) attacks {x.owner} "
           f"({x.units.describe()}){' behind a castle' if x.castle else ''}")
    s = replace(s, battle=b)
    if x.units.total == 0 or x.attacker_units.total == 0:
        return _battle_end(s, c)        # an army already gone (RE-RULING-EMPTY-SIDE): no dice
    return s


def _can_reroll(s: State, b: Battle) -> bool:
    return b.castle and not b.reroll_used and len(b.rolls[1]) > 0 and b.stage == "rolled"


def _battle_owed(s: State, b: Battle, ah: int, dh: int) -> tuple[tuple[PlayerId, int], ...]:
    """The casualties each side owes after a rank with these hits (`rank_hits`)."""
    x = s.terr[b.territory]
    owed = []
    if ah:
        owed.append((b.defender, min(ah, x.units.total)))
    if dh:
        owed.append((b.attacker, min(dh, x.attacker_units.total)))
    return tuple((p, n) for p, n in owed if n > 0)


def _battle_dice(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    assert b is not None                # engine._dice_rolled comes here only during a battle
    if b.stage != "roll":
        if b.owed:
            return c.skip("RE-FLOW", f"casualties of {RANK_NAME[b.rank]} in {b.territory} must be removed "
                          "before the next roll: " + ", ".join(f"{p} {n}" for p, n in b.owed))
        s = _battle_next(s, c)      # the defender did not re-roll
        if s.battle is None:
            return c.skip("RE-FLOW", "the battle is over")
        b = s.battle
    x = s.terr[b.territory]
    rolls = e.payload.rolls
    extra = set(rolls) - {b.attacker, b.defender}
    if extra:
        return c.skip("RE-BATTLE-DICE", f"only {b.attacker} and {b.defender} roll in {b.territory}; got "
                      f"rolls for {', '.join(sorted(extra))}")
    if bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    if e.payload.territory is not None and s.data.resolve(e.payload.territory) != b.territory:
        return c.skip("RE-FLOW", f"the battle being fought is in {b.territory}, not {e.payload.territory!r}")
    if e.payload.rank is not None and e.payload.rank != b.rank:
        c.bad("RE-BATTLE-DICE", f"the next roll in {b.territory} is {RANK_NAME[b.rank]}, the log labels it rank {e.payload.rank}")
    att = list(rolls.get(b.attacker, ()))
    dfn = list(rolls.get(b.defender, ()))
    na, nd = expected_dice(b.rank, x.attacker_units, x.units)
    if len(att) != na or len(dfn) != nd:
        c.bad("RE-BATTLE-DICE", f"{RANK_NAME[b.rank]} in {b.territory}: {b.attacker} rolls {na} and "
              f"{b.defender} rolls {plural(nd, 'die', 'dice')}; the log has {len(att)} and {len(dfn)}")
    s = _roll(s, seat_ordered(s, rolls), c)
    ah, dh = rank_hits(b.rank, att, dfn)
    owed = _battle_owed(s, b, ah, dh)
    c.note(f"{RANK_NAME[b.rank]} in {b.territory} (cycle {b.cycle}): {b.attacker} {att or '-'} "
           f"→ {ah} hit{'s' if ah != 1 else ''}; {b.defender} {dfn or '-'} → {dh} hit{'s' if dh != 1 else ''}")
    b = b._replace(stage="rolled", rolls=(tuple(att), tuple(dfn)), owed=owed)
    s = replace(s, battle=b)
    if not owed and not _can_reroll(s, b):
        return _battle_next(s, c)
    return s


def _dice_rerolled(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    if b is None or s.flow.phase != "battles":
        return c.skip("RE-CASTLE-DEFENSE", "a castle defense re-roll happens in a battle")
    if e.actor != b.defender:
        return c.skip("RE-CASTLE-DEFENSE", f"only the defender ({b.defender}) may re-roll with a castle")
    if not b.castle:
        return c.skip("RE-CASTLE-DEFENSE", f"there is no castle in {b.territory}")
    if b.stage != "rolled":
        return c.skip("RE-CASTLE-DEFENSE", "the re-roll comes right after a rank is rolled, before any casualty is removed")
    if b.reroll_used:
        return c.skip("RE-CASTLE-DEFENSE", f"{b.defender} has already re-rolled in cycle {b.cycle} of this battle")
    rolls = e.payload.rolls
    if set(rolls) != {b.defender}:
        return c.skip("RE-CASTLE-DEFENSE", f"the re-roll is {b.defender}'s alone; got rolls for {', '.join(rolls)}")
    dice = list(rolls[b.defender])
    if bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dice!r}")
    if not b.rolls[1]:
        return c.skip("RE-CASTLE-DEFENSE", f"{b.defender} rolled no dice in {RANK_NAME[b.rank]}")
    if len(dice) != len(b.rolls[1]):
        c.bad("RE-CASTLE-DEFENSE", f"a re-roll is of all {len(b.rolls[1])} dice of the rank; the log has {len(dice)}")
    s = _roll(s, dice, c)
    ah, dh = rank_hits(b.rank, b.rolls[0], dice)
    owed = _battle_owed(s, b, ah, dh)
    c.note(f"Castle defense: {b.defender} re-rolls {list(b.rolls[1])} → {dice}; now {b.attacker} scores "
           f"{ah} and {b.defender} {dh} hit{'s' if dh != 1 else ''}")
    b = b._replace(reroll_used=True, rolls=(b.rolls[0], tuple(dice)), owed=owed, stage="removing")
    s = replace(s, battle=b)
    if not owed:
        return _battle_next(s, c)
    return s


def _reroll_declined(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-CASTLE-DEFENSE: the defender keeps the dice of the rank just rolled (the re-roll of the
    cycle stays theirs for a later rank); the casualties follow, or the next rank."""
    b = s.battle
    if b is None or s.flow.phase != "battles":
        return c.skip("RE-CASTLE-DEFENSE", "a castle defense re-roll is declined in a battle")
    if e.actor != b.defender:
        return c.skip("RE-CASTLE-DEFENSE", f"only the defender ({b.defender}) decides on the castle re-roll")
    if not _can_reroll(s, b):
        why = ("there is no castle in " + b.territory if not b.castle
               else f"{b.defender} has already re-rolled in cycle {b.cycle}" if b.reroll_used
               else "the re-roll is decided right after a rank is rolled, before any casualty is removed")
        return c.skip("RE-CASTLE-DEFENSE", f"no castle re-roll is open: {why}")
    if e.payload.territory is not None and s.data.resolve(e.payload.territory) != b.territory:
        return c.skip("RE-FLOW", f"the battle being fought is in {b.territory}, not {e.payload.territory!r}")
    if e.payload.rank is not None and e.payload.rank != b.rank:
        c.bad("RE-CASTLE-DEFENSE", f"the rank just rolled in {b.territory} is {RANK_NAME[b.rank]}, the log "
              f"labels it rank {e.payload.rank}")
    c.note(f"Castle defense: {b.defender} keeps {list(b.rolls[1])} ({RANK_NAME[b.rank]} in {b.territory})")
    s = replace(s, battle=b._replace(stage="removing"))
    if not b.owed:
        return _battle_next(s, c)
    return s


def _battle_casualties(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    assert b is not None                # engine._casualties_removed comes here only during a battle
    owed = dict(b.owed)
    if b.stage == "roll" or e.actor not in owed:
        return c.skip("RE-CASUALTIES", f"{e.actor} has no hits to take in {b.territory} now"
                      + (f" (owed: {', '.join(f'{p} {n}' for p, n in b.owed)})" if b.owed else ""))
    fought = b.territory
    t = _resolve(s, e.payload.territory, c, expect=fought, wrong_rule="RE-CASUALTIES",
                 wrong=lambda t: f"the battle being fought is in {fought}, not {t}")
    if t is None:
        return None
    x = s.terr[t]
    side = x.units if e.actor == b.defender else x.attacker_units
    units = _units(e.payload.units)
    if not side.covers(units):
        return c.skip("RE-CASUALTIES", f"{e.actor} removes {units.describe()} from {t}, having {side.describe()} there")
    need = owed.pop(e.actor)
    if units.total != need:
        c.bad("RE-CASUALTIES", f"{e.actor} must remove {need} unit{'s' if need != 1 else ''} in {t}; "
              f"the log removes {units.total}")
    terr = dict(s.terr)
    if e.actor == b.defender:
        terr[t] = x._replace(units=x.units.minus(units))
    else:
        terr[t] = x._replace(attacker_units=x.attacker_units.minus(units))
    c.note(f"{e.actor} removes {units.describe()} in {t}")
    b = b._replace(owed=tuple(owed.items()), stage="removing")
    s = replace(s, terr=terr, battle=b)
    if not owed:
        return _battle_next(s, c)
    return s


def _battle_next(s: State, c: _Ctx) -> State:
    """After a rank: end the battle if an army is gone, else go on to the next rank or cycle."""
    b = s.battle
    assert b is not None
    x = s.terr[b.territory]
    if x.units.total == 0 or x.attacker_units.total == 0:
        return _battle_end(s, c)
    if b.rank < GENERAL_RANK:
        rank = _first_rank(x.attacker_units, x.units, b.rank + 1)
        b = b._replace(rank=rank, stage="roll", rolls=((), ()), owed=())
    else:
        rank = _first_rank(x.attacker_units, x.units, 1)
        b = b._replace(rank=rank, cycle=b.cycle + 1, reroll_used=False, stage="roll", rolls=((), ()), owed=())
    return replace(s, battle=b)


def _battle_end(s: State, c: _Ctx) -> State:
    b = s.battle
    assert b is not None
    t = b.territory
    x = s.terr[t]
    terr = dict(s.terr)
    players = dict(s.players)
    city = s.data.cities.get(t)
    if x.units.total == 0 and x.attacker_units.total == 0:
        winner = None
        terr[t] = Terr(castle=x.castle, since=s.step)
        c.note(f"Both armies are eliminated in {t}: it becomes unclaimed"
               + (f"; {city.name}'s crown returns to the reserve" if city else ""))
    elif x.attacker_units.total == 0:
        winner = b.defender
        terr[t] = Terr(owner=x.owner, units=x.units, castle=x.castle, since=x.since)
        c.note(f"{b.defender} holds {t}")
    else:
        winner = b.attacker
        terr[t] = Terr(owner=b.attacker, units=x.attacker_units, castle=x.castle, since=s.step)
        taken = []
        if city:
            taken.append(f"{city.name} ({city.crowns} crown{'s' if city.crowns > 1 else ''}, no tax bonus)")
        if x.castle:
            taken.append("the castle")
        c.note(f"{b.attacker} takes {t} from {b.defender}" + (": " + ", ".join(taken) if taken else ""))
        if has_tile(s, b.attacker, "Stockholm"):
            ps = players[b.attacker]
            players[b.attacker] = ps._replace(coins=ps.coins + TABLES.stockholm_coins)
            c.note(f"Stockholm tile (Raid & Pillage): {b.attacker} collects "
                   f"{TABLES.stockholm_coins} coins")
    f = s.flow
    s = replace(s, terr=terr, players=players, battle=None, fought=s.fought + (t,), last_battle=(t, winner),
                last_battle_at=(f.phase, f.round, f.turn))
    if all(v.attacker is None for v in terr.values()):     # nothing is disputed any more
        return _end_round(s, c)
    return s


def _battle_ended(s: State, e: Event, c: _Ctx) -> State | None:
    t = s.data.resolve(e.payload.territory)
    if s.last_battle is None or s.last_battle[0] != t:
        c.claim("RE-CLAIM", f"the log declares the battle in {e.payload.territory!r} over, but the last battle "
                f"that ended was {s.last_battle[0] if s.last_battle else 'none'}")
    elif s.last_battle[1] != e.payload.winner:
        c.claim("RE-CLAIM", f"the log declares {_name(s, e.payload.winner)} the winner in {t}; the dice give "
                f"{_name(s, s.last_battle[1])}")
    return s
