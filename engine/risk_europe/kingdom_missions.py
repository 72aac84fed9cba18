"""Risk Europe, "Kingdom Missions Play Variant" (p.19): a mission kept from the Crown Cards drawn
(openly or as a commitment) and a kept mission revealed as completed. The missions themselves are
data (`engine.risk_europe.missions`).
"""

from __future__ import annotations

from engine.core.commit import matches_commitment
from engine.core.events import Event
from engine.risk_europe.state import State, evolve as replace
from engine.risk_europe.common import _Ctx
from engine.risk_europe.orders import _turn_precheck


def missions_taken(s: State) -> set[str]:
    """Missions whose ids are known to be out of the Crown Card deck: kept openly or completed."""
    return {m for ps in s.players.values() for m in (*ps.kept_missions, *ps.missions_done)}


def _mission_kept(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MISSION-DRAW: one of the Crown Cards drawn with King Me is kept face down."""
    f = s.flow
    if f.phase != "turn" or f.pending is None or f.pending[0] != "mission":
        return c.skip("RE-MISSION-DRAW", "Crown Cards are drawn only when King Me is revealed in a game with "
                      "Kingdom Missions" + ("" if s.missions else f" ({s.variant} has none)"))
    _, drawer, n = f.pending
    if e.actor != drawer:
        return c.skip("RE-MISSION-DRAW", f"{drawer} drew the Crown Cards, not {e.actor}")
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    ps = s.players[e.actor]
    mission = e.payload.mission
    if mission is not None:
        if mission not in s.data.mission_ids:
            return c.skip("RE-NAME", f"no Kingdom Mission {mission!r} (missions: {', '.join(s.data.mission_ids)})")
        if mission in missions_taken(s):
            c.bad("RE-MISSION-DRAW", f"{mission} is not in the Crown Card deck: it was kept or completed before")
        ps = ps._replace(kept_missions=ps.kept_missions + (mission,))
    else:
        ps = ps._replace(kept_commitments=ps.kept_commitments + (e.payload.commitment,))
    players = dict(s.players)
    players[e.actor] = ps
    c.note(f"{e.actor} keeps a mission face down" + (f" ({mission})" if mission else "")
           + (" and returns the other Crown Card to the bottom of the deck" if n > 1 else ""))
    return replace(s, players=players, crown_cards_left=s.crown_cards_left - 1,
                   flow=f._replace(pending=None))


def _mission_completed(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MISSION-REVEAL, RE-MISSION-COMPLETE, RE-MISSION-UNVERIFIED: a kept mission turned over."""
    if not s.missions:
        return c.skip("RE-MISSION-REVEAL", f"{s.variant} is played without Kingdom Missions")
    if not _turn_precheck(s, e, c):
        return None
    actor, mission = e.actor, e.payload.mission
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    if mission not in s.data.mission_ids:
        return c.skip("RE-NAME", f"no Kingdom Mission {mission!r} (missions: {', '.join(s.data.mission_ids)})")
    ps = s.players[actor]
    if mission in ps.kept_missions:
        ps = ps._replace(kept_missions=tuple(m for m in ps.kept_missions if m != mission))
    else:
        hit = next((h for h in ps.kept_commitments if matches_commitment(h, mission, e.payload.salt)), None)
        if hit is None:
            return c.skip("RE-MISSION-REVEAL", f"{actor} kept no mission {mission!r}"
                          + (" (no kept commitment matches it with that salt)" if ps.kept_commitments else ""))
        ps = ps._replace(kept_commitments=tuple(h for h in ps.kept_commitments if h != hit))
    done_by = next((p for p, x in s.players.items() if mission in x.missions_done), None)
    if done_by is not None:
        return c.skip("RE-MISSION-REVEAL", f"{mission} was already completed by {done_by}")
    book = s.data.missions
    info = book.missions.get(mission) if book is not None else None
    if info is None or info.condition is None:
        why = "no mission file was given" if book is None else "the mission file gives no condition for it"
        c.claim("RE-MISSION-UNVERIFIED", f"{actor} declares {mission} completed; {why}, so the completion "
                "is the player's unverified claim")
    else:
        from engine.risk_europe.missions import condition_holds
        if not condition_holds(info.condition, s, actor):
            return c.skip("RE-MISSION-COMPLETE", f"{actor} declares {mission} ({info.title or info.text or mission}) "
                          f"completed, but its condition {dict(info.condition)!r} does not hold on the board")
    players = dict(s.players)
    players[actor] = ps._replace(missions_done=ps.missions_done + (mission,), crown_cards=ps.crown_cards + 1)
    title = f" — {info.title}" if info is not None and info.title else ""
    bonus = f"; bonus from round {s.flow.round + 1}: {info.bonus}" if info is not None and info.bonus else ""
    check = "verified" if info is not None and info.condition is not None else "unverified"
    c.note(f"{actor} completes {mission}{title} ({check}): a permanent crown{bonus}")
    return replace(s, players=players)
