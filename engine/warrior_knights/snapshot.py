"""The Warrior Knights board as plain data: `snapshot` (what everyone at the table sees: the
board view of a replay, the public part of every seat's view) and `digest` (a stable hash of the
whole state, hidden parts included)."""

from __future__ import annotations

from engine.core.canonical import canonical_json, sha256_hex
from engine.warrior_knights.glory import full as glory_full, public as glory_public
from engine.warrior_knights.state import State


def _army(a) -> dict:
    return {"troops": list(a.troops), "casualties": a.casualties}


def snapshot(s: State) -> dict:
    """The public board: what every seat and a spectator may see."""
    f = s.flow
    out = {
        "round": f.round, "phase": f.phase, "step": f.step, "stack": f.stack,
        "chairman": s.chairman, "head_of_church": s.head_of_church, "influence_pool": s.influence_pool,
        "barons": {seat: {
            "color": b.color, "crowns": b.crowns, "influence": b.influence, "faith": b.faith,
            "votes": b.votes, "stronghold": b.stronghold, "stronghold_army": _army(b.stronghold_army),
            "stronghold_breaches": b.stronghold_breaches, "hand": None if b.hand is None else len(b.hand),
            "troops": {t.id: [t.strength, t.wage, t.nationality] for t in sorted(b.troops.values())},
            "charges": list(b.charges), "concessions": list(b.concessions), "banned": b.banned,
        } for seat, b in s.barons.items()},
        "nobles": {n.id: {"area": n.area, "at_sea": n.at_sea, "exhausted": n.exhausted, "dead": n.dead,
                          "army": _army(n.army), "office": n.office} for n in s.nobles.values()},
        "cities": {c: {"owner": cs.owner, "razed": cs.razed, "fortified": cs.fortified,
                       "breaches": cs.breaches, "siege": list(cs.siege) if cs.siege else None}
                   for c, cs in s.cities.items()},
        "track": list(s.track),
        "market": [t.id for t in s.market],
        "agendas": list(s.agendas), "laws": list(s.laws),
        "expeditions": {x: {"spot": e.spot, "stakes": dict(e.stakes), "blessed": e.blessed}
                        for x, e in s.expeditions.items()},
        "areas": {a: n for a, n in sorted(s.areas.items()) if n},
        "planned": {seat: list(p.counts) for seat, p in s.plans.items()},
        "pending": None if f.pending is None else {"owner": f.pending.owner, "card": f.pending.card,
                                                   "stage": f.pending.stage},
        "battle": None if s.battle is None else {
            "area": s.battle.area, "kind": s.battle.kind, "stage": s.battle.stage, "city": s.battle.city,
            "attacker": s.battle.attacker.baron, "defender": s.battle.defender.baron},
        "result": s.result.as_dict() if s.result else None,
    }
    if s.glory is not None:                      # Crown & Glory only: a base game's board is unchanged
        out["glory"] = glory_public(s)
    return out


def _deck(d) -> dict | None:
    if d is None:
        return None
    return {"pile": sorted(d.pile), "bottom": list(d.bottom), "discard": sorted(d.discard)}


def full(s: State) -> dict:
    """Everything the state holds, hidden parts too (hands, plans, decks, votes)."""
    out = snapshot(s)
    out["hands"] = {seat: None if b.hand is None else list(b.hand) for seat, b in s.barons.items()}
    out["plans"] = {seat: {"counts": list(p.counts), "commitment": p.commitment,
                           "stacks": [list(x) for x in p.stacks] if p.stacks else None,
                           "revealed": [list(x) for x in p.revealed], "opened": p.opened}
                    for seat, p in s.plans.items()}
    out["decks"] = {"fate": _deck(s.fate), "events": _deck(s.events), "mercenaries": _deck(s.mercs),
                    "agendas": _deck(s.agenda_deck)}
    out["left"] = [sorted(((k or ""), v) for k, v in x.items()) for x in s.flow.left]
    out["specials"] = list(s.flow.specials)
    out["order"] = [list(s.flow.order), s.flow.index]
    out["revolts"] = [list(s.flow.revolts), s.flow.revolt_owed, s.flow.ends_after_upkeep]
    out["allocated"] = {a: [list(x) for x in v] for a, v in sorted(s.allocated.items())}
    out["agenda_discards"] = list(s.agenda_discards)
    out["abilities"] = dict(sorted(s.abilities.items()))
    out["face_down"] = [list(x) for x in s.face_down]
    out["neutral_used"] = dict(sorted(s.neutral_used.items()))
    if s.glory is not None:
        out["glory"] = glory_full(s)
        out["troop_kinds"] = {seat: {t.id: t.kind for t in sorted(b.troops.values()) if t.kind}
                              for seat, b in s.barons.items()}
    if s.battle is not None:
        b = s.battle
        out["battle"]["sides"] = [[sd.baron, list(sd.armies), sd.commander, [f.id for f in sd.drawn],
                                   [f.id for f in sd.kept], sd.owed_draws, dict(sd.tokens), sd.breaches]
                                  for sd in (b.attacker, b.defender)]
        out["battle"]["after"] = [list(x) for x in b.after]
    if s.assembly is not None:
        a = s.assembly
        out["assembly"] = {"step": a.step, "attending": list(a.attending), "chairman": a.chairman,
                           "agendas": list(a.agendas), "at": a.at,
                           "votes": {k: [v.commitment, v.votes, v.choice] for k, v in sorted(a.votes.items())}}
    if s.flow.pending is not None:
        p = s.flow.pending
        out["pending"]["detail"] = {k: (sorted(map(list, v)) if isinstance(v, frozenset) else
                                        v if isinstance(v, (str, int, bool, type(None), list, tuple)) else repr(v))
                                    for k, v in sorted(p.detail.items())}
        out["pending"]["acted"] = list(p.acted)
        out["pending"]["area"] = p.area
    return out


def digest(s: State) -> str:
    return sha256_hex(canonical_json(full(s)))
