"""What the service checks of a request before its route does: the size of its body
(`BodyLimit`), that a JSON body is JSON (`StrictJsonRoute`), the rate of appends per token
(`AppendRate`); and of a new game before it is stored, that it can start (`start_problem`).

    app.add_middleware(BodyLimit, limit=256 * 1024)
    app.router.route_class = StrictJsonRoute      # before the routes are declared
    rate = AppendRate(Rate.parse("20/s")); rate.check(token)      # 429 when over

Python's `json` reads more than JSON: `NaN`, `Infinity` and `-Infinity`, and `\\ud800`, a lone
surrogate, which is no Unicode text. Either one would be stored in a log line that no JSON
reader elsewhere reads, or fail when the answer or the line is written. A body holding one is
refused like any other body that is not JSON: 422 `bad-request`, saying what and where.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from fastapi import Request
from fastapi.routing import APIRoute
from pydantic import ValidationError

SURROGATE = re.compile("[\ud800-\udfff]")


def strict_json(body: bytes) -> Any:
    """The JSON value of `body`; json.JSONDecodeError (what FastAPI reports as a body that is
    not JSON) for NaN, Infinity, a lone surrogate, or text that is not UTF-8."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError(f"the body is not UTF-8 text ({exc.reason})", "", exc.start) from None

    def constant(name: str) -> Any:
        raise json.JSONDecodeError(f"{name} is not a JSON number", text, max(0, text.find(name)))

    value = json.loads(text, parse_constant=constant)
    bad = _surrogate_in(value)
    if bad is not None:
        raise json.JSONDecodeError(f"{bad!r} holds a lone surrogate, which is not Unicode text",
                                   text, 0)
    return value


def _surrogate_in(value: Any) -> str | None:
    """A string of `value` (a key too) holding a lone surrogate, if any."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if SURROGATE.search(v):
                return v
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


class StrictJsonRequest(Request):
    """A request whose JSON body is read by `strict_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """A route that reads its JSON body with `strict_json`."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Any:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict


def start_problem(rs: Any, start: dict, players: list[str], roles: tuple[str, ...]) -> str | None:
    """Why the start event a ruleset's `new_game` wrote cannot start a game the service runs,
    or None: a player id that is one of the service's own `roles` (a seat named "organizer"
    would be taken for the organizer), a payload its model refuses, or a blocking problem of
    the ruleset's start check. Asked before anything is stored."""
    taken = sorted(set(players) & set(roles))
    if taken:
        return (f"player id {taken[0]!r} is reserved (the service's own roles: "
                f"{', '.join(roles)})")
    try:
        model = rs.payload_models[rs.start_event].model_validate(start)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(x) for x in e['loc']) or 'payload'}: {e['msg']}"
                             for e in exc.errors()[:3])
        return f"the game cannot start: {problems}"
    blocking = [v.message for v in rs.check_start(model, rs.default_data()) if v.blocking]
    return f"the game cannot start: {'; '.join(blocking)}" if blocking else None


# --- the size of a body ----------------------------------------------------------------------------


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes is answered 413 `body-too-large`,
    whether the request says its length (Content-Length: answered before the body is read) or
    not (chunked: the body is read here, up to the limit, and handed to the app whole)."""

    def __init__(self, app: Any, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._too_big(scope, receive, send)
            return
        chunks, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":      # the client left before its body came
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._too_big(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole: dict | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> dict:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()          # after the body: a disconnect, for a stream

        await self.app(scope, replay, send)

    async def _too_big(self, scope: dict, receive: Callable, send: Callable) -> None:
        from fastapi.responses import JSONResponse

        from ledger.service.errors import ServiceError
        error = ServiceError(413, "body-too-large", f"the request body is over {self.limit} bytes")
        await JSONResponse(error.body(), status_code=413)(scope, receive, send)


# --- the rate of appends -----------------------------------------------------------------------------

UNITS = {"s": 1.0, "sec": 1.0, "min": 60.0, "m": 60.0, "h": 3600.0}


@dataclass(frozen=True)
class Rate:
    """How many appends one token may make: `per_second` on average, up to `burst` at once."""

    per_second: float
    burst: int

    @classmethod
    def parse(cls, text: str, burst: int | None = None) -> "Rate | None":
        """ "20/s", "600/min", "5000/h" (None for "off"); `burst` defaults to twice the rate
        per second, at least 5. ValueError, saying what is expected, for anything else."""
        spelled = text.strip().lower()
        if spelled in ("off", "none", "0"):
            return None
        count, _, unit = spelled.partition("/")
        try:
            n = float(count)
        except ValueError:
            n = -1.0
        if unit not in UNITS or not math.isfinite(n) or n <= 0:
            raise ValueError(f"rate {text!r}: give appends per time, e.g. 20/s, 600/min or "
                             "5000/h (or off)")
        per_second = n / UNITS[unit]
        if burst is not None and burst < 1:
            raise ValueError(f"burst {burst}: at least 1")
        return cls(per_second, burst if burst is not None else max(5, math.ceil(2 * per_second)))

    def __str__(self) -> str:
        return f"{self.per_second:g}/s, bursts of {self.burst}"


class AppendRate:
    """A token bucket per token (kept by the token's hash): each append takes one; a bucket
    holds at most `burst` and refills at the rate. `clock` gives seconds (monotonic; tests pass
    their own). At most `keep` buckets are kept, the emptiest (`_prune`)."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic, keep: int = 10_000):
        self.rate, self.clock, self.keep = rate, clock, keep
        self.buckets: dict[str, tuple[float, float]] = {}       # key -> (tokens, when)
        self.lock = threading.Lock()

    def wait(self, token: str) -> float:
        """0 when an append with `token` may go now (it is counted), else the seconds until
        one may."""
        key = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        rate, now = self.rate, self.clock()
        with self.lock:
            tokens, when = self.buckets.get(key, (float(rate.burst), now))
            tokens = min(float(rate.burst), tokens + max(0.0, now - when) * rate.per_second)
            if tokens >= 1:
                self.buckets[key] = (tokens - 1, now)
                if len(self.buckets) > self.keep:
                    self._prune(now)
                return 0.0
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / rate.per_second

    def check(self, token: str) -> None:
        """Count an append with `token`; ServiceError 429 `rate-limited`, with Retry-After,
        when the token has used its rate."""
        from ledger.service.errors import ServiceError
        wait = self.wait(token)
        if wait > 0:
            raise ServiceError(429, "rate-limited", f"too many appends with this token (at most "
                               f"{self.rate}); try again in {wait:.2f} s",
                               retry_after=round(wait, 3),
                               headers={"Retry-After": str(max(1, math.ceil(wait)))})

    def _prune(self, now: float) -> None:
        """Down to `keep` buckets: the fullest go first (a full one is the same as none; a
        token that has used its rate keeps its empty bucket, or a flood of other tokens would
        give it a fresh burst)."""
        rate = self.rate

        def fill(key: str) -> float:
            tokens, when = self.buckets[key]
            return tokens + (now - when) * rate.per_second

        for key in [k for k in self.buckets if fill(k) >= rate.burst]:
            del self.buckets[key]
        if len(self.buckets) > self.keep:
            for key in sorted(self.buckets, key=fill, reverse=True)[:len(self.buckets) - self.keep]:
                del self.buckets[key]
