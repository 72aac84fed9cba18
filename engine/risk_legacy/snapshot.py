"""The state as plain data: the full snapshot (what the digest hashes) and a compact board view."""

from __future__ import annotations

from engine.core.canonical import canonical_json, sha256_hex
from engine.risk_legacy import world as W
from engine.risk_legacy.common import continents_of, hqs_of, stars, territories_of, troops_of
from engine.risk_legacy.state import State

_WORLD_DIGESTS: dict[int, tuple[W.World, str]] = {}


def world_digest_cached(w: W.World) -> str:
    """world_digest, remembered per world object (worlds change rarely, states often)."""
    hit = _WORLD_DIGESTS.get(id(w))
    if hit is not None and hit[0] is w:
        return hit[1]
    d = W.world_digest(w)
    if len(_WORLD_DIGESTS) > 256:
        _WORLD_DIGESTS.clear()
    _WORLD_DIGESTS[id(w)] = (w, d)
    return d


def snapshot(s: State) -> dict:
    """Everything that decides what may happen next, as JSON-able data with a fixed shape."""
    f = s.flow
    cb = s.combat
    side = s.side
    out = {
        "ruleset": "risk-legacy",
        "data": [s.data.board_digest, s.data.rules_digest],
        "world": world_digest_cached(s.world),
        "world_start": s.world_start,
        "game": s.game_no,
        "campaign": s.campaign,
        "phase": f.phase,
        "round": f.round,
        "order": list(f.order),
        "index": f.index,
        "tied": list(f.tied),
        "turn": {"step": f.step, "recruited": f.recruited, "warned": f.warned, "maneuvered": f.maneuvered,
                 "conquered": f.conquered, "expanded": f.expanded, "drew": f.drew,
                 "mission_done": f.mission_done, "first_attack": f.first_attack,
                 "immune": sorted(f.immune), "pending": f.pending, "turns": f.turns},
        "choosers": list(f.choosers),
        "dice_count": s.dice.count,
        "scars_dealt": s.scars_dealt,
        "laid_out": s.laid_out,
        "players": {
            p: {"faction": ps.faction, "tokens": ps.tokens, "missiles": ps.missiles, "hand": list(ps.hand),
                "scar": ps.scar, "start": ps.start, "eliminated": ps.eliminated}
            for p, ps in s.players.items()
        },
        "territories": {t: {"owner": x.owner, "troops": x.troops, "hq": x.hq}
                        for t, x in s.terr.items() if x.is_occupied},
        "sideboard": {"slots": list(side.slots), "draw": sorted(side.draw), "discard": sorted(side.discard),
                      "coins": side.coins, "coin_star_given": side.coin_star_given,
                      "events_left": side.events_left, "missions_left": side.missions_left,
                      "mission": list(side.mission) if side.mission else None},
        "combat": None if cb is None else {
            "from": cb.frm, "to": cb.to, "attacker": cb.attacker, "defender": cb.defender, "dice": cb.dice,
            "stage": cb.stage, "rolls": [list(cb.rolls[0]), list(cb.rolls[1])],
            "missiles": [list(m) for m in cb.missiles], "survivors": cb.survivors},
        "scar_deal": None if s.scar_deal is None else {
            "pool": list(s.scar_deal.pool), "commitments": dict(s.scar_deal.commitments),
            "start": s.scar_deal.start, "count": s.scar_deal.count,
            "revealed": {p: list(r) for p, r in s.scar_deal.revealed.items()}},
        "outcomes": dict(s.outcomes) if s.outcomes else None,
        "result": s.result.as_dict() if s.result else None,
    }
    if cb is not None and (cb.defend or cb.held):     # live play's decisions (absent before them:
        out["combat"].update(defend=cb.defend, held=list(cb.held))   # the digests of older logs stay)
    return out


def digest(s: State) -> str:
    """A stable hash of the state: equal states give equal digests on any machine."""
    return sha256_hex(canonical_json(snapshot(s)))


def board_view(s: State) -> dict:
    """The compact board a judge reads after each turn: per player and per occupied territory.

    Besides its own keys (`troops`, `red_stars`, `resources`...), the view carries the keys the
    generic replay narration reads (`units`, `coins`, `crowns`), with the Legacy meaning: a
    territory's troops (as `{"footman": n}`, the one unit type the narration knows), the coins on
    a player's resource cards, their Red Stars. `board_lines` is the Legacy reading of it.
    `marks`: the world's stickers on every territory, held or not (city and its kind, scar,
    fortification boxes marked), for the page's map.
    """
    players = {}
    for p in s.seats:
        ps = s.players[p]
        coins = sum(W.card_resources(s.world, card) for card in ps.hand)
        players[p] = {"faction": ps.faction, "red_stars": stars(s, p), "tokens": ps.tokens,
                      "missiles": ps.missiles, "cards": len(ps.hand), "resources": coins,
                      "territories": len(territories_of(s, p)), "troops": troops_of(s, p),
                      "hqs": len(hqs_of(s, p)), "continents": sorted(continents_of(s, p)),
                      "eliminated": ps.eliminated, "coins": coins, "crowns": stars(s, p)}
    marks = {}        # the world's stickers, occupied or not: what the page's map shows
    for t, m in sorted(s.world.territories.items()):
        mark: dict = {}
        if m.city:
            mark.update(city=m.city.name, city_kind=m.city.kind)
        if m.scar:
            mark["scar"] = m.scar
        if m.fortification is not None:
            mark["fortification"] = m.fortification
        if mark:
            marks[t] = mark
    board = {}
    for t, x in s.terr.items():
        if not x.is_occupied:
            continue
        # "units" in the shape analytics.game_page reads every game's army in (the replay asks board_lines)
        entry: dict = {"owner": x.owner, "troops": x.troops, "units": {"footman": x.troops}}
        m = W.marks(s.world, t)
        tags = []
        if x.hq:
            entry["hq"] = x.hq
            tags.append(f"HQ {x.hq}")
        if m.city:
            tags.append(f"{m.city.name} ({m.city.kind})")
        if m.scar:
            tags.append(m.scar.replace("_", " "))
        if tags:
            entry["city"] = ", ".join(tags)
        board[t] = entry
    return {"round": s.flow.round, "phase": s.flow.phase, "marker": None, "game": s.game_no,
            "world": world_digest_cached(s.world), "players": players, "board": board,
            "marks": marks, "sideboard": list(s.side.slots), "coin_cards": s.side.coins}
