"""What the service checks of a request before its route does: that a JSON body is JSON; and
of a new game before it is stored, that it can start (`start_problem`).

    app.router.route_class = StrictJsonRoute      # before the routes are declared

Python's `json` reads more than JSON: `NaN`, `Infinity` and `-Infinity`, and `\\ud800`, a lone
surrogate, which is no Unicode text. Either one would be stored in a log line that no JSON
reader elsewhere reads, or fail when the answer or the line is written. A body holding one is
refused like any other body that is not JSON: 422 `bad-request`, saying what and where.
"""

from __future__ import annotations

import json
import re
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
