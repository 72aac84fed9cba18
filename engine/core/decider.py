"""What the `step` of every ruleset asks before judging an event (Turn Overview of each rulebook:
"only the player whose decision it is may make it"): does the event name a player of the game, a
player at all where one must act, and one still in the game?"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.events import Event
from engine.core.rules import Verdicts


def actor_check(rule: str, table_events: frozenset[str], *, eliminated_may: frozenset[str] = frozenset(),
                seats_when_anonymous: bool = False) -> Callable[[Any, Event, Verdicts], bool]:
    """`refused(state, event, verdicts)` for one ruleset: True (the event skipped as `rule`) when the
    event names someone not a player of the game; or, unless it is one of `table_events` (the
    table's events: chance, claims), names no player, or one eliminated (but for `eliminated_may`).
    `seats_when_anonymous`: the message for a missing actor lists the game's players too."""

    def refused(s: Any, e: Event, c: Verdicts) -> bool:
        actor = e.actor
        if actor is not None and actor not in s.players:
            c.skip(rule, f"{actor!r} is not a player of this game ({', '.join(s.seats)})")
            return True
        if e.type in table_events:
            return False
        if actor is None:
            c.skip(rule, f"{e.type} must name the acting player" + (
                f"; {actor!r} is not a player of this game ({', '.join(s.seats)})" if seats_when_anonymous else ""))
            return True
        if s.players[actor].eliminated and e.type not in eliminated_may:
            c.skip(rule, f"{actor} has been eliminated and no longer plays")
            return True
        return False

    return refused
