"""The state as plain data: the full snapshot (what the digest hashes) and a compact board view."""

from __future__ import annotations

from engine.core.canonical import canonical_json, sha256_hex
from engine.risk_europe.common import crowns, territories_of
from engine.risk_europe.state import State


def snapshot(s: State) -> dict:
    """Everything that decides what may happen next, as JSON-able data with a fixed shape (a
    variant's own parts are added only in that variant, so a basic game's digests never change)."""
    out = _basic_snapshot(s)
    if s.mercenaries:
        f = s.flow
        out["mercenaries"] = list(s.mercenaries)
        out["seats"] = list(s.seats)
        out["merc"] = f.merc
        out["queue"] = list(f.queue)
        for p in s.mercenaries:
            out["players"][p]["controller"] = s.players[p].controller
    if s.missions:
        for p, ps in s.players.items():
            out["players"][p].update(kept_missions=list(ps.kept_missions),
                                     kept_commitments=list(ps.kept_commitments),
                                     missions_done=list(ps.missions_done))
    return out


def _basic_snapshot(s: State) -> dict:
    f = s.flow
    b = s.battle
    return {
        "ruleset": "risk-europe",
        "data": [s.data.board_digest, s.data.cards_digest],
        "variant": s.variant,
        "phase": f.phase,
        "round": f.round,
        "turn": f.turn,
        "order": list(f.order),
        "index": f.index,
        "tied": list(f.tied),
        "card": f.card,
        "order_done": f.order_done,
        "bonus_used": f.bonus_used,
        "berlin_used": f.berlin_used,
        "pending": list(f.pending) if f.pending else None,
        "step": s.step,
        "dice_count": s.dice.count,
        "marker": s.marker,
        "castles_left": s.castles_left,
        "crown_cards_left": s.crown_cards_left,
        "players": {
            p: {
                "coins": ps.coins,
                "crowns": crowns(s, p),
                "crown_cards": ps.crown_cards,
                "hand": sorted(ps.hand),
                "stack": list(ps.stack),
                "commitments": list(ps.commitments),
                "committed": ps.committed,
                "revealed": list(ps.revealed),
                "crown_card_round": ps.crown_card_round,
                "bid": ps.bid,
                "bid_commitment": ps.bid_commitment,
                "eliminated": ps.eliminated,
                "saved_until": ps.saved_until,
            }
            for p, ps in s.players.items()
        },
        "territories": {
            t: {
                "owner": x.owner,
                "units": x.units.as_dict(),
                "attacker": x.attacker,
                "attacker_units": x.attacker_units.as_dict(),
                "castle": x.castle,
                "since": x.since,
            }
            for t, x in s.terr.items() if x.owner is not None or x.castle
        },
        "battle": None if b is None else {
            "territory": b.territory, "attacker": b.attacker, "defender": b.defender,
            "castle": b.castle, "cycle": b.cycle, "rank": b.rank, "stage": b.stage,
            "reroll_used": b.reroll_used, "rolls": [list(b.rolls[0]), list(b.rolls[1])],
            "owed": [list(o) for o in b.owed],
        },
        "fought": list(s.fought),
        "last_battle": list(s.last_battle) if s.last_battle else None,
        "result": s.result.as_dict() if s.result else None,
    }


def digest(s: State) -> str:
    """A stable hash of the state: equal states give equal digests on any machine."""
    return sha256_hex(canonical_json(snapshot(s)))


def board_view(s: State) -> dict:
    """The compact board a judge reads after each turn: per player and per occupied territory."""
    players = {}
    for p in s.seats:
        ps = s.players[p]
        terrs = territories_of(s, p)
        players[p] = {"coins": ps.coins, "crowns": crowns(s, p), "territories": len(terrs),
                      "crown_cards": ps.crown_cards, "eliminated": ps.eliminated}
    board = {}
    for t, x in s.terr.items():
        if x.owner is None and not x.castle:
            continue
        entry = {"owner": x.owner, "units": x.units.as_dict()}
        if x.castle:
            entry["castle"] = True
        if t in s.data.cities:
            entry["city"] = s.data.cities[t].name
        if x.attacker:
            entry["attacker"] = x.attacker
            entry["attacker_units"] = x.attacker_units.as_dict()
        board[t] = entry
    view = {"round": s.flow.round, "phase": s.flow.phase, "marker": s.marker,
            "players": players, "board": board}
    if s.variant != "basic" or s.missions:
        view["variant"] = s.variant
    if s.mercenaries:
        for p in s.mercenaries:
            players[p]["mercenary"] = True
            players[p]["controller"] = s.players[p].controller
    if s.variant_rules.teams:
        view["teams"] = [list(s.team_of(p)) for p in s.seats[:2]]
    return view
