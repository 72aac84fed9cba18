"""A game folded from its log as one seat reads it: what a live player (a bot, a client) knows.

A seat's log shows every other seat's secrets redacted (engine.core.views.HIDDEN in place of a
bid, a face-down card, a Scar card) until they are revealed, and a log read later shows more of
the same events than one read earlier. `SeatFold` keeps the states between calls and, each time
it is given the log as read now, folds only from the first envelope that differs from the one it
folded (a secret revealed since is read again from its own event on).

The engine cannot judge a payload that shows HIDDEN where a card or an amount should be: the game
gives `foldable(type, payload)`, the payload to judge in its place (typically the secret as a
commitment the log does not open, so the state knows a choice was made but not which). An event
the engine still cannot carry out is skipped; violations are ignored (the server judged the log).
Pure: the log is an input.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from engine.core.events import Event
from engine.core.views import HIDDEN


def shows_hidden(value: Any) -> bool:
    """Does a JSON-able value hold HIDDEN anywhere?"""
    if isinstance(value, dict):
        return any(shows_hidden(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(shows_hidden(v) for v in value)
    return value == HIDDEN


class SeatFold:
    """The state after each envelope of a seat's log, kept between calls (see the module)."""

    def __init__(self, rs: Any, foldable: Callable[[str, dict], dict] = lambda _t, p: p):
        self.rs, self.foldable = rs, foldable
        self.envelopes: list[Mapping] = []
        self.states: list[Any] = []

    def state(self, log: Sequence[Mapping]) -> Any:
        """The state after the last envelope of `log` (the game's envelopes from seq 0, as the
        seat reads them now)."""
        k = 0
        while k < min(len(log), len(self.envelopes)) and _same(log[k], self.envelopes[k]):
            k += 1
        del self.envelopes[k:], self.states[k:]
        for env in log[k:]:
            self.states.append(self._next(self.states[-1] if self.states else None, env))
            self.envelopes.append(env)
        return self.states[-1]

    def _next(self, state: Any, env: Mapping) -> Any:
        rs = self.rs
        type_, payload = env["type"], env.get("payload") or {}
        if state is None:
            return rs.initial_state(rs.payload_models[type_].model_validate(payload), rs.default_data())
        if shows_hidden(payload):
            payload = self.foldable(type_, payload)
        model = rs.payload_models.get(type_)
        try:
            value = model.model_validate(payload)
            _, nxt = rs.step(state, Event(env["seq"], type_, env.get("actor"), value))
        except Exception:      # a payload that still cannot be judged: the event is skipped
            return state
        return state if nxt is None else nxt


class SeatBot:
    """A bot for live play (a ruleset's `bot` hook) that decides from the state its seat's log
    folds to. `choose(log, moves)` keeps the moves a service offers its actor, made into the
    game's moves by `move(actor, type, payload)`, and asks `pick(state, moves)` for one: None
    (the moment passes) when none is offered or `pick` lets it pass. A game's bot defines `pick`."""

    def __init__(self, rs: Any, actor: str, foldable: Callable[[str, dict], dict], move: Callable[..., Any]):
        self.actor, self.move = actor, move
        self.fold = SeatFold(rs, foldable)

    def choose(self, log: Sequence[Mapping], moves: Sequence[Mapping]) -> dict | None:
        offered = [self.move(m["actor"], m["type"], m["payload"]) for m in moves if m["actor"] == self.actor]
        if not offered:
            return None
        pick = self.pick(self.fold.state(log), offered)
        return None if pick is None else {"actor": pick.actor, "type": pick.type, "payload": pick.payload}

    def pick(self, state: Any, moves: list) -> Any:
        """One of `moves` (each with actor, type and payload), or None to let the moment pass."""
        raise NotImplementedError


def _same(a: Mapping, b: Mapping) -> bool:
    return (a.get("seq"), a.get("type"), a.get("actor"), a.get("payload")) == \
           (b.get("seq"), b.get("type"), b.get("actor"), b.get("payload"))
