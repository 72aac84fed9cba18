"""Log envelopes built and sealed in memory (pure: no I/O), for simulators and recorders.

    rec = Recorder("game42"); rec.add("GameStarted", None, ruleset=...); rec.sealed() -> [envelope]

replay.logfile reads, formats and writes them; it uses these same functions.
"""

from __future__ import annotations

from typing import Any

from engine.core.canonical import canonical_json, sha256_hex

FORMAT_VERSION = 1


def event_hash(envelope: dict) -> str:
    """Hex SHA-256 of the canonical JSON of `envelope` without its "hash" key."""
    return sha256_hex(canonical_json({k: v for k, v in envelope.items() if k != "hash"}))


def seal(envelopes: list[dict]) -> list[dict]:
    """Copies of `envelopes` chained in list order: each gets "prev" and "hash" (re)computed.

    seq is kept as is. An "at" of None is dropped first, as the log writer leaves it out and the
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


def make_envelope(
    game: str, seq: int, type: str, actor: str | None, payload: dict, at: str | None = None
) -> dict:
    """An unsealed version-1 envelope; "at" only when given. Seal a list of them with `seal`."""
    envelope: dict[str, Any] = {"v": FORMAT_VERSION, "game": game, "seq": seq, "type": type,
                                "actor": actor}
    if at is not None:
        envelope["at"] = at
    envelope["payload"] = payload
    return envelope


class Recorder:
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
