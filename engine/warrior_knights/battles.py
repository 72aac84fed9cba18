"""Battles (summary, "Battles", "Open Field Battles", "City Assault", "City Siege", "Fortified
Cities", "Attacking a Stronghold", "Retreats", "Noble Death"): who may fight whom, commanders,
Fate cards drawn, discarded face down and revealed, casualties and breaches, victories, captures,
sieges, retreats, deserters and dying Nobles."""

from __future__ import annotations

from typing import Any

from engine.warrior_knights.common import (
    Ctx, army_strength, bottom_of, cities_of, city_of, city_strength, discard_to, draw_from, gain,
    in_city, lift_sieges, noble_of, pay, read_fate, seat_of, set_baron, set_city, set_noble,
)
from engine.warrior_knights.glory import FOR_GLORY, drop_levies, garrison_strength, has, is_levy, max_fate
from engine.warrior_knights.moves import holders_of
from engine.warrior_knights.phases import remove_troops
from engine.warrior_knights.state import STRONGHOLD, Army, Battle, Noble, Side, State, evolve

COMMANDER_BONUS = 200          # "whose special ability and +200 strength will be used"
MAX_FATE = 10                  # "Draw Fate cards (limit 10 per player)"
TOKEN = 100                    # "assign 1 casualty token for each 100 casualties"
DRAW_ONE = frozenset({"draw_1", "retreat_draw_1"})
RAZE_TIMES = 3                 # "razed for 3 times its normal income"
NO_DESERTERS = ""              # a voluntary retreat (For Glory): no deserters' card, no nationality


def _ability(s: State, noble: str | None) -> str | None:
    """A Noble's ability, as the cards file prints it (or the start gives it, observed mode)."""
    if noble is None or noble == STRONGHOLD:
        return None
    return s.abilities.get(noble)


def _troops_of(s: State, side: Side) -> int:
    """A side's troop strength less its casualty tokens."""
    if side.baron is None:
        return 0
    total = 0
    for key in side.armies:
        army = s.barons[side.baron].stronghold_army if key == STRONGHOLD else s.nobles[key].army
        total += army_strength(s, side.baron, army) - TOKEN * army.casualties
    return total


def side_strength(s: State, b: Battle, which: str) -> int:
    side = b.attacker if which == "attacker" else b.defender
    total = _troops_of(s, side) + (COMMANDER_BONUS if side.commander else 0)
    if which == "defender" and b.kind in ("assault", "siege"):
        total += target_strength(s, b) + defending_bonus(s, b)
    return max(0, total)


def _nobles(side: Side) -> list[str]:
    return [k for k in side.armies if k != STRONGHOLD]


def target_strength(s: State, b: Battle) -> int:
    """The strength left of the city (or stronghold) under attack."""
    if b.city == STRONGHOLD:
        owner = s.barons[b.defender.baron]
        return max(0, owner.stronghold_strength - TOKEN * owner.stronghold_breaches)
    return city_strength(s, b.city) if b.city else 0


def defending_bonus(s: State, b: Battle) -> int:
    """For Glory: "A Garrison adds 100 strength to a city while defending" (WK-GARRISON); it takes
    no breaches (WK-RULING-GARRISON-BREACHES)."""
    return garrison_strength(s, b.city) if b.city and b.city != STRONGHOLD else 0


def fate_count(s: State, b: Battle, which: str) -> int:
    return min(max_fate(s), side_strength(s, b, which) // TOKEN)


def _set_battle(s: State, b: Battle | None) -> State:
    return evolve(s, battle=b)


def _side(b: Battle, which: str) -> Side:
    return b.attacker if which == "attacker" else b.defender


def _with_side(b: Battle, which: str, side: Side) -> Battle:
    return b._replace(attacker=side) if which == "attacker" else b._replace(defender=side)


# --- starting a battle ---------------------------------------------------------------------------------

def begin_battle(s: State, seat: str, area: str, attack: Any, permits: frozenset, c: Ctx) -> State | None:
    """The battle an action starts (or a siege laid), from the Attack in its payload; None when it
    may not be fought (the finding is in `c`)."""
    board = s.data.board
    armies = []
    for name in attack.armies:
        nid = noble_of(s, name, seat, c, "WK-BATTLE")
        if nid is None:
            return None
        n = s.nobles[nid]
        if n.owner != seat or n.dead:
            return c.skip("WK-BATTLE", f"{nid} is not a living Noble of {seat}")
        if n.area != area or n.at_sea:
            where = "on the port icon (at sea)" if n.at_sea else f"at {n.area}"
            return c.skip("WK-BATTLE", f"{nid} is {where}; the battle is in {area}" +
                          (" (a Noble on a port cannot attack)" if n.at_sea else ""))
        if n.exhausted:
            return c.skip("WK-MOVE-EXHAUSTED", f"{nid} is exhausted: he may not attack")
        armies.append(nid)
    commander = None
    if attack.commander is not None:
        commander = noble_of(s, attack.commander, seat, c, "WK-COMMANDER")
        if commander is None:
            return None
        if commander not in armies:
            return c.skip("WK-COMMANDER", f"the commander {commander} is not among the attacking Nobles")
    elif attack.kind != "siege":
        return c.skip("WK-COMMANDER", "the attacker declares one of his attacking Nobles as commander")
    city = board.areas[area].city
    if city is not None and s.cities[city].razed:
        city = None
    if attack.defender == "neutral":
        if city is None or s.cities[city].owner is not None:
            return c.skip("WK-BATTLE", f"there is no neutral city in {area} to attack")
        if attack.kind == "field":
            return c.skip("WK-BATTLE", "a neutral city is assaulted or besieged, not fought in the open field")
        defender = None
    else:
        defender = seat_of(s, attack.defender)
        if defender is None or defender == seat:
            return c.skip("WK-BATTLE", f"{attack.defender!r} is not an opponent of {seat}")
    target = None
    if attack.kind == "field":
        defending = [n.id for n in s.nobles.values() if n.owner == defender and n.area == area
                     and not n.dead and not n.at_sea and not in_city(s, n)]
        if not defending:
            return c.skip("WK-BATTLE", f"{defender} has no Noble in the open field of {area} (a Noble in an area "
                          "with his own city is in the city; one on a port cannot be attacked)")
    else:
        if defender is None:
            target = city
        elif city is not None and s.cities[city].owner == defender:
            target = city
        elif s.barons[defender].stronghold == area:
            target = STRONGHOLD
        else:
            return c.skip("WK-BATTLE", f"{defender} has no city or stronghold in {area}")
        if target == STRONGHOLD and attack.kind == "siege":
            return c.skip("WK-BATTLE", "a stronghold is assaulted (Attacking a Stronghold); the engine does not "
                          "take a siege of one (docs/warrior-knights.md)")
        defending = [n.id for n in s.nobles.values() if n.owner == defender and n.area == area
                     and not n.dead and not n.at_sea] if defender else []
        if target == STRONGHOLD and s.barons[defender].stronghold_army.troops:
            defending = defending + [STRONGHOLD]
        others = [o for o in holders_of(s, area, seat) if o != defender]
        others += [n.owner for n in s.nobles.values() if n.area == area and not n.dead and n.owner not in
                   (seat, defender) and n.owner not in others]
        for o in sorted(set(others)):
            if (o, area) not in permits and any(n.owner == o and n.area == area and not n.dead for n in s.nobles.values()):
                return c.skip("WK-BATTLE-PERMISSION", f"{o} also has armies in {area}: {seat} may assault or "
                              f"besiege there only with {o}'s permission")
    b = Battle(area=area, kind=attack.kind, attacker=Side(seat, tuple(armies), commander),
               defender=Side(defender, tuple(defending)), city=target)
    if attack.kind == "siege":
        return _siege(s, b, c)
    c.note(f"Battle in {area}: {seat} ({', '.join(armies)}) attacks "
           + (f"the neutral city {target}" if defender is None else
              f"{defender}'s {'stronghold' if target == STRONGHOLD else target or 'Nobles'}")
           + f" ({attack.kind})")
    if _nobles(b.defender):
        return _set_battle(s, b._replace(stage="commanders"))
    return _to_draw(_set_battle(s, b), c)


def _siege(s: State, b: Battle, c: Ctx) -> State | None:
    att = _troops_of(s, b.attacker) + COMMANDER_BONUS
    dfn = _troops_of(s, b.defender) + target_strength(s, b) + defending_bonus(s, b) + (COMMANDER_BONUS if _nobles(b.defender) else 0)
    if att <= dfn:
        return c.skip("WK-SIEGE", f"a siege needs more strength than the defence: {b.attacker.baron} has {att}, "
                      f"{b.city} is defended by {dfn}")
    seat, city, rnd = b.attacker.baron, b.city, s.flow.round
    old = s.cities[city].siege
    if old is not None and old[0] == seat and old[1] < rnd:
        c.note(f"{seat}'s second siege of {city} ({att} against {dfn}): the city is taken and its defenders die")
        after = tuple(("die", k) for k in _nobles(b.defender)) + (("take", city),)
        return _set_battle(s, b._replace(stage="aftermath", after=after))
    c.note(f"{seat} lays siege to {city} ({att} against {dfn})" + (" (again this round)" if old == (seat, rnd) else ""))
    return set_city(s, city, siege=(seat, rnd if old is None or old[0] != seat else old[1]))


def _to_draw(s: State, c: Ctx) -> State:
    b = s.battle
    need = {w: fate_count(s, b, w) for w in ("attacker", "defender")}
    c.note("Fate cards to draw: " + ", ".join(f"{w} {n}" for w, n in need.items()))
    b = b._replace(stage="draw")
    for w, n in need.items():
        if n == 0:
            b = _with_side(b, w, _side(b, w)._replace(discarded=True))
    s = _set_battle(s, b)
    if all(need[w] == 0 or _side(b, w).drawn for w in need):
        return _after_draws(s, c)
    return s


def _expect(s: State, stage: str | tuple, c: Ctx, what: str) -> Battle | None:
    b = s.battle
    stages = (stage,) if isinstance(stage, str) else stage
    if b is None or b.stage not in stages:
        c.skip("WK-FLOW", f"{what} is not expected: " + (f"the battle is at {b.stage}" if b else "no battle is being fought"))
        return None
    return b


def commander_declared(s: State, e, c: Ctx) -> State | None:
    b = _expect(s, "commanders", c, "CommanderDeclared")
    if b is None:
        return None
    d = b.defender
    if e.actor != d.baron:
        return c.skip("WK-COMMANDER", f"the defender ({d.baron}) declares his commander, not {e.actor}")
    nid = noble_of(s, e.payload.noble, e.actor, c, "WK-COMMANDER")
    if nid is None:
        return None
    if nid not in d.armies:
        return c.skip("WK-COMMANDER", f"{nid} is not one of the defending Nobles ({', '.join(_nobles(d))})")
    c.note(f"Commanders: {b.attacker.commander} and {nid}")
    return _to_draw(_set_battle(s, b._replace(defender=d._replace(commander=nid))), c)


# --- Fate cards ---------------------------------------------------------------------------------------

def fate_drawn(s: State, e, c: Ctx) -> State | None:
    b = _expect(s, ("draw", "draw1"), c, "FateDrawn")
    if b is None:
        return None
    which = e.payload.side
    side = _side(b, which)
    cards = []
    deck = s.fate
    for card in e.payload.cards:
        f = read_fate(s, card, c)
        if f is None:
            return None
        if f.battle is None:
            return c.skip("WK-CARD", "a Fate card drawn in battle gives its battle result (\"battle\")")
        deck = draw_from(deck, f.id, "Fate card", c)
        cards.append(f)
    s = evolve(s, fate=deck)
    if b.stage == "draw":
        if side.drawn:
            return c.skip("WK-FATE-COUNT", f"the {which} has already drawn his Fate cards")
        want = fate_count(s, b, which)
        if len(cards) != want:
            c.bad("WK-FATE-COUNT", f"the {which} draws {len(cards)} Fate cards; his strength "
                  f"{side_strength(s, b, which)} gives {want} (one per 100, at most {max_fate(s)})")
        side = side._replace(drawn=tuple(cards))
        if side.commander is None or len(cards) <= 1:
            side = side._replace(kept=tuple(cards), discarded=True)
        b = _with_side(b, which, side)
        s = _set_battle(s, b)
        if all(_side(b, w).drawn or fate_count(s, b, w) == 0 for w in ("attacker", "defender")):
            return _after_draws(s, c)
        return s
    # draw1: the cards owed by Draw 1 Fate results
    if len(cards) > side.owed_draws:
        return c.skip("WK-FATE-DRAW1", f"the {which} is owed {side.owed_draws} more Fate cards, not {len(cards)}")
    owed = side.owed_draws - len(cards) + sum(1 for f in cards if f.battle in DRAW_ONE)
    side = side._replace(kept=side.kept + tuple(cards), owed_draws=owed)
    c.note(f"The {which} draws " + ", ".join(_face(f) for f in cards))
    b = _with_side(b, which, side)
    s = evolve(_set_battle(s, b), fate=discard_to(s.fate, [f.id for f in cards]))
    return _maybe_casualties(s, c)


def _face(f) -> str:
    return f"{f.id or 'a card'} ({f.battle})"


def _after_draws(s: State, c: Ctx) -> State:
    b = s.battle
    if all(_side(b, w).discarded for w in ("attacker", "defender")):
        return _reveal(s, c)
    return _set_battle(s, b._replace(stage="discard"))


def fate_discarded(s: State, e, c: Ctx) -> State | None:
    b = _expect(s, "discard", c, "FateDiscarded")
    if b is None:
        return None
    which = "attacker" if e.actor == b.attacker.baron else "defender" if e.actor == b.defender.baron else None
    if which is None:
        return c.skip("WK-FATE-DISCARD", f"{e.actor} does not fight in this battle")
    side = _side(b, which)
    if side.discarded:
        return c.skip("WK-FATE-DISCARD", f"the {which} has no Fate cards to discard now")
    n = len(side.drawn)
    idx = sorted(set(e.payload.discard))
    if len(idx) != len(e.payload.discard) or any(i >= n for i in idx):
        return c.skip("WK-FATE-DISCARD", f"the discards name the cards drawn by their place, 0 to {n - 1}, once each")
    least = min(2, n - 1)
    if len(idx) < least or len(idx) > n - 1:
        c.bad("WK-FATE-DISCARD", f"with a commander the {which} discards 2 or more of his {n} Fate cards and "
              f"keeps at least one: from {least} to {n - 1}, not {len(idx)}")
        if len(idx) > n - 1:
            idx = idx[:n - 1]
    gone = [side.drawn[i] for i in idx]
    kept = tuple(f for i, f in enumerate(side.drawn) if i not in idx)
    s = evolve(s, fate=bottom_of(s.fate, [f.id for f in gone]),
               face_down=s.face_down + tuple((f.id, e.actor) for f in gone if f.id is not None))
    b = _with_side(b, which, side._replace(kept=kept, discarded=True))
    s = _set_battle(s, b)
    if all(_side(b, w).discarded for w in ("attacker", "defender")):
        return _reveal(s, c)
    return s


def _reveal(s: State, c: Ctx) -> State:
    b = s.battle
    for w in ("attacker", "defender"):
        side = _side(b, w)
        owed = sum(1 for f in side.kept if f.battle in DRAW_ONE)
        if side.kept:
            c.note(f"The {w} reveals " + ", ".join(_face(f) for f in side.kept))
        b = _with_side(b, w, side._replace(owed_draws=owed))
        s = evolve(s, fate=discard_to(s.fate, [f.id for f in side.kept]))
    if _retreat_offered(s, b):
        c.note(f"The defender ({b.defender.baron}) has more Retreat/Draw 1 Fate results: he may retreat")
        return _set_battle(s, b._replace(stage="retreat_offer"))
    return _maybe_casualties(_set_battle(s, b._replace(stage="draw1")), c)


def _retreat_offered(s: State, b: Battle) -> bool:
    """For Glory's Retreat/Draw 1 Fate: the defender (a Baron with Nobles fighting) has more such
    results than the attacker (WK-RETREAT-GLORY)."""
    if not has(s, FOR_GLORY) or b.defender.baron is None or not _nobles(b.defender):
        return False
    count = {w: sum(1 for f in _side(b, w).kept if f.battle == "retreat_draw_1") for w in ("attacker", "defender")}
    return count["defender"] > count["attacker"]


def retreat_chosen(s: State, e, c: Ctx) -> State | None:
    """The defender's choice on more Retreat/Draw 1 Fate results: retreat (no casualties, no
    deserters; his city or stronghold there goes to the attacker as after a won assault), or fight
    on (each such result is a Draw 1 Fate)."""
    b = _expect(s, "retreat_offer", c, "RetreatChosen")
    if b is None:
        return None
    if e.actor != b.defender.baron:
        return c.skip("WK-RETREAT-GLORY", f"the defender, {b.defender.baron}, chooses whether to retreat, not {e.actor}")
    if not e.payload.retreat:
        c.note(f"{e.actor} fights on: each Retreat/Draw 1 Fate result draws 1 Fate card")
        return _maybe_casualties(_set_battle(s, b._replace(stage="draw1")), c)
    nobles = _nobles(b.defender)
    after = [("retreat" if can_retreat(s, s.nobles[k]) else "die", k) for k in nobles]
    if b.city == STRONGHOLD:
        after.append(("stronghold", b.defender.baron))
    elif b.city is not None and s.cities[b.city].owner == b.defender.baron:
        after.append(("take", b.city))
    side = lambda x: x._replace(owed_draws=0, assigned=True)       # noqa: E731 (no casualties are dealt)
    b = b._replace(attacker=side(b.attacker), defender=side(b.defender), stage="aftermath", after=tuple(after),
                   deserters={**b.deserters, **{k: NO_DESERTERS for k in nobles}})
    c.note(f"{e.actor} retreats from the battle: no casualties are dealt and no Mercenary deserts")
    return _set_battle(s, b)


def _maybe_casualties(s: State, c: Ctx) -> State:
    b = s.battle
    if any(_side(b, w).owed_draws for w in ("attacker", "defender")):
        return s
    dealt = {w: casualties_to(s, b, w) for w in ("attacker", "defender")}
    c.note("Casualties: " + ", ".join(f"{w} takes {n} tokens" for w, n in dealt.items()))
    b = b._replace(stage="casualties")
    if not b.defender.armies:
        # a city no army defends (a neutral one, or one whose owner has no Noble there): its
        # casualties are breaches, as far as its strength goes; the rest fall on nobody
        n = min(dealt["defender"], target_strength(s, b) // TOKEN) if b.kind == "assault" else 0
        b = b._replace(defender=b.defender._replace(assigned=True, breaches=n))
    for w in ("attacker", "defender"):
        side = _side(b, w)
        if dealt[w] == 0 and not side.assigned:
            b = _with_side(b, w, side._replace(assigned=True))
    s = _set_battle(s, b)
    if b.attacker.assigned and b.defender.assigned:
        return _outcome(s, c)
    return s


def _hits(s: State, side: Side, kind: str) -> tuple[int, int]:
    """(casualties dealt, casualties prevented) by a side's kept cards and commander."""
    deal = sum(1 for f in side.kept if f.battle == "deal_100")
    prevent = sum(1 for f in side.kept if f.battle == "prevent_100")
    ability = _ability(s, side.commander) if kind != "siege" else None
    deal += 1 if ability == "deal_100" else 0
    prevent += 1 if ability == "prevent_100" else 0
    return deal, prevent


def casualties_to(s: State, b: Battle, which: str) -> int:
    """The casualty tokens a side takes: the other side's hits less its own prevented."""
    other = "defender" if which == "attacker" else "attacker"
    deal, _ = _hits(s, _side(b, other), b.kind)
    _, prevent = _hits(s, _side(b, which), b.kind)
    return max(0, deal - prevent)


def casualties_assigned(s: State, e, c: Ctx) -> State | None:
    b = _expect(s, "casualties", c, "CasualtiesAssigned")
    if b is None:
        return None
    which = "attacker" if e.actor == b.attacker.baron else "defender" if e.actor == b.defender.baron else None
    if which is None:
        return c.skip("WK-CASUALTIES", f"{e.actor} does not fight in this battle")
    side = _side(b, which)
    if side.assigned:
        return c.skip("WK-CASUALTIES", f"the {which} has assigned his casualties")
    owed = casualties_to(s, b, which)
    tokens = {}
    for name, n in e.payload.tokens.items():
        key = STRONGHOLD if name == STRONGHOLD else noble_of(s, name, e.actor, c, "WK-CASUALTIES")
        if key is None:
            return None
        if key not in side.armies:
            return c.skip("WK-CASUALTIES", f"{key} does not fight on the {which}'s side ({', '.join(side.armies)})")
        if n:
            tokens[key] = tokens.get(key, 0) + n
    breaches = e.payload.breaches
    if breaches and (which != "defender" or b.kind != "assault"):
        return c.skip("WK-CASUALTIES", "only a defended city (or stronghold) takes casualties as breaches")
    room = target_strength(s, b) // TOKEN if breaches else 0
    if breaches > room:
        return c.skip("WK-CASUALTIES", f"the city can take {room} more breaches, not {breaches}")
    if sum(tokens.values()) + breaches != owed:
        c.bad("WK-CASUALTIES", f"the {which} takes {owed} casualty tokens; the log assigns "
              f"{sum(tokens.values()) + breaches}")
    b = _with_side(b, which, side._replace(assigned=True, tokens=tokens, breaches=breaches))
    s = _set_battle(s, b)
    if b.attacker.assigned and b.defender.assigned:
        return _outcome(s, c)
    return s


# --- the outcome ---------------------------------------------------------------------------------------

def _army(s: State, owner: str, key: str) -> Army:
    return s.barons[owner].stronghold_army if key == STRONGHOLD else s.nobles[key].army


def _victories(s: State, side: Side, alive: set) -> int:
    v = sum(1 for f in side.kept if f.battle == "victory")
    if side.commander in alive and _ability(s, side.commander) == "victory_1":
        v += 1
    return v


def _retreat_spots(s: State, n: Noble) -> list[str]:
    """Where a retreating Noble may go: an adjacent area (across a passable border) with no city
    and no other Baron's Nobles."""
    b = s.data.board
    out = []
    for a in sorted(b.neighbours.get(n.area, ())):
        border = b.border(n.area, a)
        if not border.is_passable:
            continue
        city = b.areas[a].city
        if city is not None and not s.cities[city].razed:
            continue
        if any(m.area == a and m.owner != n.owner and not m.dead for m in s.nobles.values()):
            continue
        out.append(a)
    return out


def can_retreat(s: State, n: Noble) -> bool:
    if not s.data.board.areas[n.area].is_kingdom:
        return False                    # "a Noble forced to retreat from an overseas area dies"
    if _retreat_spots(s, n):
        return True
    home = s.barons[n.owner].stronghold
    return home is not None


def _outcome(s: State, c: Ctx) -> State:
    b = s.battle
    # casualty tokens and breaches land
    for side in (b.attacker, b.defender):
        for key, n in side.tokens.items():
            army = _army(s, side.baron, key)
            new = army._replace(casualties=army.casualties + n)
            s = set_baron(s, side.baron, stronghold_army=new) if key == STRONGHOLD else set_noble(s, key, army=new)
    if b.defender.breaches:
        if b.city == STRONGHOLD:
            d = b.defender.baron
            s = set_baron(s, d, stronghold_breaches=s.barons[d].stronghold_breaches + b.defender.breaches)
        else:
            cs = s.cities[b.city]
            s = set_city(s, b.city, breaches=cs.breaches + b.defender.breaches)
            if city_strength(s, b.city) == 0 and cs.fortified:
                # Fortified Cities: "reduced to 0 strength via breach tokens, it becomes unfortified
                # and 1 token is removed, so that the city is still at 0 strength"
                s = set_city(s, b.city, fortified=False, breaches=s.cities[b.city].breaches - 1)
    dead: list[str] = []
    lost_stronghold_troops = False
    for side in (b.attacker, b.defender):
        for key in side.armies:
            army = _army(s, side.baron, key)
            if army.casualties * TOKEN >= army_strength(s, side.baron, army) and (army.troops or key != STRONGHOLD):
                if key == STRONGHOLD:
                    s = remove_troops(s, side.baron, set(army.troops))
                    lost_stronghold_troops = True
                    c.note(f"The troops of {side.baron}'s stronghold are killed")
                else:
                    dead.append(key)
    alive = {k for k in _nobles(b.attacker) + _nobles(b.defender) if k not in dead}
    att_alive = [k for k in _nobles(b.attacker) if k in alive]
    def_alive = [k for k in _nobles(b.defender) if k in alive]
    strength_left = target_strength(s, b) if b.kind == "assault" else 0
    def_stands = bool(def_alive) or (b.kind == "assault" and strength_left > 0)
    after: list[tuple[str, str]] = [("die", k) for k in dead]
    winner = None
    if att_alive and def_stands:
        av, dv = _victories(s, b.attacker, alive), _victories(s, b.defender, alive)
        diff = av - dv
        c.note(f"Victories: attacker {av}, defender {dv}")
        if abs(diff) >= 2:
            losers = def_alive if diff > 0 else att_alive
            after += [("die", k) for k in losers]
            winner = "attacker" if diff > 0 else "defender"
            c.note(f"Full victory for the {winner}: the opposing Nobles are killed")
        elif abs(diff) == 1:
            losers = def_alive if diff > 0 else att_alive
            winner = "attacker" if diff > 0 else "defender"
            for k in losers:
                after.append(("retreat" if can_retreat(s, s.nobles[k]) else "die", k))
            c.note(f"Partial victory for the {winner}: the opposing Nobles retreat")
        else:
            c.note("Stalemate")
    if b.kind == "assault":
        fallen = not def_alive and strength_left == 0 and bool(att_alive)
        if b.city == STRONGHOLD:
            fallen = fallen and (lost_stronghold_troops or not _army(s, b.defender.baron, STRONGHOLD).troops)
        if fallen or winner == "attacker":
            after.append(("stronghold", b.defender.baron) if b.city == STRONGHOLD else ("take", b.city))
    seen: set = set()
    ordered = []
    for item in after:
        if item[1] not in seen:
            ordered.append(item)
            seen.add(item[1])
    return _next_after(_set_battle(s, b._replace(stage="aftermath", after=tuple(ordered))), c)


def _next_after(s: State, c: Ctx) -> State:
    """The battle's consequences one by one; the battle ends when none is left."""
    b = s.battle
    if b.after:
        return s
    s = _set_battle(s, None)
    s = lift_sieges(s, c)
    p = s.flow.pending
    if p is not None and p.stage == "battle":
        s = evolve(s, flow=s.flow._replace(pending=p._replace(stage="done")))
    return s


def _current(s: State, kinds: tuple[str, ...], c: Ctx, what: str) -> tuple[str, str] | None:
    b = _expect(s, "aftermath", c, what)
    if b is None:
        return None
    item = b.after[0]
    if item[0] not in kinds:
        c.skip("WK-FLOW", f"{what} is not expected: the battle's next consequence is {item[0]} {item[1]}")
        return None
    return item


def deserters_drawn(s: State, e, c: Ctx) -> State | None:
    item = _current(s, ("die", "retreat"), c, "DesertersDrawn")
    if item is None:
        return None
    nid = noble_of(s, e.payload.noble, None, c, "WK-DESERTERS")
    if nid is None:
        return None
    if nid != item[1]:
        return c.skip("WK-DESERTERS", f"the deserters drawn now are {item[1]}'s, not {nid}'s")
    if nid in s.battle.deserters:
        return c.skip("WK-DESERTERS", f"{nid}'s deserters are already drawn")
    f = read_fate(s, e.payload.card, c)
    if f is None:
        return None
    s = evolve(s, fate=discard_to(draw_from(s.fate, f.id, "Fate card", c), [f.id]))
    c.note(f"Deserters of {nid}: {f.nationality or 'no nationality'}")
    return _set_battle(s, s.battle._replace(deserters={**s.battle.deserters, nid: f.nationality}))


def _deserter(s: State, nid: str, name: str | None, c: Ctx) -> tuple[bool, str | None]:
    """(ok, the deserting troop): one Mercenary of the drawn nationality if the army has one."""
    n = s.nobles[nid]
    nat = s.battle.deserters.get(nid, "?")
    troops = s.barons[n.owner].troops
    matching = [t for t in n.army.troops if troops[t].mercenary and troops[t].nationality == nat]
    if name is None:
        if matching:
            c.skip("WK-DESERTERS", f"the Fate card shows {nat}: one of {nid}'s {nat} Mercenaries "
                   f"({', '.join(matching)}) deserts, as {n.owner} chooses")
            return False, None
        return True, None
    if name not in matching:
        c.skip("WK-DESERTERS", f"{name!r} is not a {nat} Mercenary of {nid}'s army "
               f"({', '.join(matching) or 'there is none'})")
        return False, None
    return True, name


def _owed_noble(s: State, e, c: Ctx, kind: str, event: str, rule: str, now: str,
                acts: str) -> tuple[str, Noble, str | None] | None:
    """The Noble a battle's `kind` step (a death, a retreat) waits for, if `e` is his owner's
    decision for him after his deserters' Fate card: (his id, him, the deserter named)."""
    item = _current(s, (kind,), c, event)
    if item is None:
        return None
    nid = noble_of(s, e.payload.noble, e.actor, c, rule)
    if nid is None:
        return None
    if nid != item[1]:
        c.skip(rule, f"the Noble {now} is {item[1]}, not {nid}")
        return None
    n = s.nobles[nid]
    if e.actor != n.owner:
        c.skip("WK-ACTOR", f"{n.owner} {acts} {nid}, not {e.actor}")
        return None
    if nid not in s.battle.deserters:
        c.skip("WK-DESERTERS", f"the Fate card for {nid}'s deserters is drawn first")
        return None
    ok, deserter = _deserter(s, nid, e.payload.deserter, c)
    return (nid, n, deserter) if ok else None


def _removable(gone: list[str], troops) -> list[str]:
    """The discarded cards that could have been kept: with Town Levies among them (discarded
    first, For Glory), only the Mercenaries after them."""
    mercs = [t for t in gone if not is_levy(troops[t])]
    return mercs or gone


def noble_lost(s: State, e, c: Ctx) -> State | None:
    owed = _owed_noble(s, e, c, "die", "NobleLost", "WK-NOBLE-DEATH", "dying now",
                       "decides for his dying Noble")
    if owed is None:
        return None
    nid, n, deserter = owed
    troops = s.barons[n.owner].troops
    left = [t for t in n.army.troops if t != deserter]
    need = n.army.casualties * TOKEN
    mercs = [t for t in left if troops[t].mercenary]
    gone = []
    for name in e.payload.discarded:
        if name not in mercs:
            return c.skip("WK-NOBLE-DEATH", f"{name!r} is not a Mercenary of {nid}'s army "
                          "(regular troops are never discarded as casualties)")
        gone.append(name)
    total = sum(troops[t].strength for t in gone)
    available = sum(troops[t].strength for t in mercs)
    if total < min(need, available):
        c.bad("WK-NOBLE-DEATH", f"{nid}'s {n.army.casualties} casualty tokens discard {need} strength of Mercenaries "
              f"(or all he has, {available}); the log discards {total}")
    elif gone and total - min(troops[t].strength for t in _removable(gone, troops)) >= need:
        c.bad("WK-NOBLE-DEATH", f"{nid} discards {total} strength of Mercenaries; {need} are owed, and fewer "
              "cards make it")
    levies = [t for t in mercs if is_levy(troops[t])]
    if levies and any(not is_levy(troops[t]) for t in gone) and not set(levies) <= set(gone):
        c.bad("WK-TOWN-LEVY-LOSS", f"{nid}'s Town Levies ({', '.join(sorted(levies))}) are discarded for casualties "
              "before his Mercenaries (Town Levies: \"discard Town Levies for casualties before mercenaries\")")
    lost = set(gone) | ({deserter} if deserter else set())
    s = remove_troops(s, n.owner, lost)
    s = drop_levies(s, nid, c, "he died")      # For Glory (WK-TOWN-LEVY-LOSS)
    n = s.nobles[nid]
    if n.office:
        s = evolve(s, agenda_discards=s.agenda_discards + (n.office,))
    s = set_noble(s, nid, dead=True, area=None, at_sea=False, exhausted=False, office=None,
                  army=n.army._replace(casualties=0))
    c.note(f"{nid} dies" + (f"; {deserter} deserts" if deserter else "") + (f"; {', '.join(gone)} discarded" if gone else "")
           + ("; his heir may enter in the Upkeep" if s.nobles[nid].army.troops else ""))
    return _pop(s, c)


def retreated(s: State, e, c: Ctx) -> State | None:
    owed = _owed_noble(s, e, c, "retreat", "Retreated", "WK-RETREAT", "retreating now",
                       "moves his retreating Noble")
    if owed is None:
        return None
    nid, n, deserter = owed
    spots = _retreat_spots(s, n)
    to = e.payload.to
    if to is None:
        if spots:
            return c.skip("WK-RETREAT", f"{nid} retreats to an adjacent area ({', '.join(spots)}); only when there "
                          "is none does he go to his stronghold")
        dest, exhausted = s.barons[n.owner].stronghold, True
    else:
        dest = s.data.board.resolve(to)
        if dest not in spots:
            return c.skip("WK-RETREAT", f"{nid} retreats to an adjacent area without a city or another Baron's "
                          f"Nobles ({', '.join(spots) or 'there is none'}), not {to!r}")
        exhausted = n.exhausted
    if deserter:
        s = remove_troops(s, n.owner, {deserter})
    s = set_noble(s, nid, area=dest, exhausted=exhausted)
    c.note(f"{nid} retreats to {dest}" + (f"; {deserter} deserts" if deserter else ""))
    return _pop(s, c)


def _pop(s: State, c: Ctx) -> State:
    b = s.battle
    return _next_after(_set_battle(s, b._replace(after=b.after[1:])), c)


def city_taken(s: State, e, c: Ctx) -> State | None:
    item = _current(s, ("take",), c, "CityTaken")
    if item is None:
        return None
    b = s.battle
    seat = b.attacker.baron
    if e.actor != seat:
        return c.skip("WK-ACTOR", f"{seat} took the city and decides, not {e.actor}")
    city = item[1]
    cs = s.cities[city]
    if e.payload.raze:
        income = s.data.board.cities[city].income
        s = gain(s, seat, RAZE_TIMES * income)
        s = set_city(s, city, owner=None, razed=True, fortified=False, breaches=0, siege=None)
        c.note(f"{seat} razes {city} for {RAZE_TIMES * income} crowns")
    else:
        s = set_city(s, city, owner=seat, siege=None, fortified=cs.fortified)
        c.note(f"{seat} takes {city}")
    return _pop(s, c)


def stronghold_city_given(s: State, e, c: Ctx) -> State | None:
    item = _current(s, ("stronghold",), c, "StrongholdCityGiven")
    if item is None:
        return None
    loser = item[1]
    if e.actor != loser:
        return c.skip("WK-ACTOR", f"{loser} chooses the city he gives up, not {e.actor}")
    winner = s.battle.attacker.baron
    held = cities_of(s, loser)
    if e.payload.city is None:
        if held:
            return c.skip("WK-STRONGHOLD", f"{loser} gives one of his cities ({', '.join(held)}) to {winner}")
        city = None
    else:
        city = city_of(s, e.payload.city, c, "WK-STRONGHOLD")
        if city is None:
            return None
        if city not in held:
            return c.skip("WK-STRONGHOLD", f"{city} is not one of {loser}'s cities ({', '.join(held) or 'none'})")
    half = s.barons[loser].crowns // 2
    s = gain(pay(s, loser, half), winner, half)
    b = s.barons[loser]
    s = remove_troops(s, loser, set(b.stronghold_army.troops))
    s = set_baron(s, loser, stronghold=None, stronghold_lost=s.flow.round, stronghold_breaches=0,
                  stronghold_army=Army())
    if city is not None:
        s = set_city(s, city, owner=winner, siege=None)
    c.note(f"{winner} eliminates {loser}'s stronghold: {half} crowns" + (f" and {city}" if city else ""))
    return _pop(s, c)
