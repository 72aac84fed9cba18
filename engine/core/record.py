"""A game log built event by event, in memory (for simulators and tests): numbered envelopes and
the hash chain that seals them. Pure: writing the lines out is the caller's business
(replay.logfile.write_log).

    rec = LogRecorder("game42"); rec.add("GameStarted", None, ruleset=...); rec.sealed()
"""

from __future__ import annotations

from typing import Any

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.errors import LedgerError

FORMAT_VERSION = 1


def make_envelope(game: str, seq: int, type: str, actor: str | None, payload: dict,
                  at: str | None = None) -> dict:
    """An unsealed version-1 envelope; "at" only when given. Seal a list of them with `seal`."""
    envelope: dict[str, Any] = {"v": FORMAT_VERSION, "game": game, "seq": seq, "type": type,
                                "actor": actor}
    if at is not None:
        envelope["at"] = at
    envelope["payload"] = payload
    return envelope


def event_hash(envelope: dict) -> str:
    """Hex SHA-256 of the canonical JSON of `envelope` without its "hash" key."""
    return sha256_hex(canonical_json({k: v for k, v in envelope.items() if k != "hash"}))


def seal(envelopes: list[dict]) -> list[dict]:
    """Copies of `envelopes` chained in list order: each gets "prev" and "hash" (re)computed.

    seq is kept as is. An "at" of None is dropped first, as a written line leaves it out and the
    hash must match the line as written. The copies are shallow: payloads are shared.
    """
    sealed: list[dict] = []
    prev: str | None = None
    for envelope in envelopes:
        copy = {k: v for k, v in envelope.items() if k != "hash"}
        if "at" in copy and copy["at"] is None:
            del copy["at"]
        copy["prev"] = prev
        copy["hash"] = prev = event_hash(copy)
        sealed.append(copy)
    return sealed


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
        """The envelopes so far, chained (`seal`)."""
        return seal(self.envelopes)


class SimulationError(LedgerError, RuntimeError):
    """A bot chose a move the rules refuse (a bug in a simulator, never in a log)."""


def judged_next(step: Any, payloads: Any, state: Any, rec: LogRecorder, type_: str,
                actor: str | None, payload: dict) -> Any:
    """The state after a simulator's next event (`type_` by `actor`, its payload as a dict): the
    event is validated with `payloads[type_]` and judged with the ruleset's `step`; a move the
    rules refuse is a SimulationError naming it. Writing the event to `rec` is the caller's (it
    may add claims the new state gives)."""
    from engine.core.events import Event
    event = Event(len(rec.envelopes), type_, actor, payloads[type_].model_validate(payload))
    violations, nxt = step(state, event)
    if nxt is None or violations:
        raise SimulationError(f"{rec.game} seq {event.seq}: {type_} by {actor} {payload!r} is "
                              f"rejected: {[v.as_dict() for v in violations]}")
    return nxt
