"""Build a game log event by event (for simulators, live tables, tests and sample logs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.logfile import format_line, make_envelope, seal, write_log


class LogRecorder:
    """Accumulates the envelopes of one game, numbering them; `sealed()` adds the hash chain."""

    def __init__(self, game: str, at: str | None = None):
        self.game = game
        self.at = at
        self.envelopes: list[dict] = []

    def add(self, type_: str, actor: str | None = None, **payload: Any) -> dict:
        """Append one event; a payload key `from_` is written as "from"."""
        if "from_" in payload:
            payload = {"from": payload.pop("from_"), **payload}
        env = make_envelope(self.game, len(self.envelopes), type_, actor, payload, at=self.at)
        self.envelopes.append(env)
        return env

    def sealed(self) -> list[dict]:
        return seal(self.envelopes)

    def text(self) -> str:
        return "".join(format_line(e) + "\n" for e in self.sealed())

    def write(self, path: str | Path) -> None:
        write_log(path, self.sealed())
