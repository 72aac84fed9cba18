"""The event as an engine sees it: already parsed, envelope checked, payload validated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PlayerId = str


@dataclass(slots=True)
class Event:
    """One logged event: its sequence number, type, acting player (None for the table) and payload.

    `payload` is the ruleset's validated payload for `type`: its pydantic model, or the msgspec
    struct derived from it (engine/core/fast_payloads.py), read the same way.

    Never changed once made (a decider never changes its input), but not frozen: a frozen
    dataclass builds each instance through object.__setattr__ per field, several times the cost
    of a plain slotted one, and a replay makes one per event.
    """

    seq: int
    type: str
    actor: PlayerId | None
    payload: Any
