"""The event as an engine sees it: already parsed, envelope checked, payload validated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PlayerId = str


@dataclass(frozen=True, slots=True)
class Event:
    """One logged event: its sequence number, type, acting player (None for the table) and payload.

    `payload` is the ruleset's validated payload model for `type` (a pydantic model).
    """

    seq: int
    type: str
    actor: PlayerId | None
    payload: Any
