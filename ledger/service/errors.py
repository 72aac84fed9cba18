"""The service's errors: JSON `{"code", "message", "seq"?, "rule"?, ...}` with a stable code.

Codes (docs/service.md): bad-request, body-too-large, not-found, unknown-game, unknown-ruleset,
bad-game, game-exists, unauthorized, forbidden, not-your-turn, stale-seq, invalid-append,
unknown-type, invalid-payload, illegal, dice-by-server, game-over, rate-limited; for lines a
client sealed (ledger/service/sealing.py): bad-seal, bad-seq, bad-game-id, server-fills,
bad-hash, chain-hidden, bad-prev.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """An answer other than success: the HTTP status, a stable code, a message; `seq` and
    `rule` when the error is about an event; `headers` of the answer (Retry-After); `extra`
    keys added to the body."""

    def __init__(self, status: int, code: str, message: str, *, seq: int | None = None,
                 rule: str | None = None, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.seq, self.rule, self.extra = seq, rule, extra
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.seq is not None:
            out["seq"] = self.seq
        if self.rule is not None:
            out["rule"] = self.rule
        out.update(self.extra)
        return out
