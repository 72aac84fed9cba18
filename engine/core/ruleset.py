"""The engine contract: a ruleset is a plain record of pure functions (a "decider").

`replay/`, `ledger/` and the simulator call only this record, never a ruleset's internals:

    state = rs.initial_state(start_payload, data)      # from the game's first event
    problems = rs.check(state, event)                  # every violation, [] when legal
    state = rs.apply(state, event)                     # a new state; the old one is untouched
    problems, nxt = rs.step(state, event)              # both at once; nxt None if the event is skipped
    state = rs.conclude(state)                         # the log ended: settle what needs no decision
    rs.result(state)                                   # None while the game goes on
    rs.digest(state)                                   # stable hash of the state, one per step
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from engine.core.events import Event
from engine.core.rules import RuleBook, Violation

State = Any


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winner(s) (several only for a documented shared win), and why."""

    winners: tuple[str, ...]
    reason: str
    round: int
    detail: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "round": self.round,
                "detail": dict(self.detail)}


@dataclass(frozen=True)
class Ruleset:
    """One ruleset's decider record. Every function is pure: same inputs, same outputs."""

    name: str
    version: str
    title: str
    start_event: str
    payload_models: Mapping[str, type]
    rules: RuleBook
    load_data: Callable[..., Any]
    default_data: Callable[[], Any]
    """The shipped data, loaded once per process (`load_data()` reads the files every time)."""
    data_digest: Callable[[Any], str]
    check_start: Callable[[Any, Any], list[Violation]]
    initial_state: Callable[[Any, Any], State]
    step: Callable[[State, Event], tuple[list[Violation], State | None]]
    conclude: Callable[[State], State]
    result: Callable[[State], GameResult | None]
    digest: Callable[[State], str]
    snapshot: Callable[[State], dict]
    notes: Callable[[State], tuple[str, ...]] = lambda s: s.notes
    """What the last event caused, for readers (default: the state's `notes`)."""
    position: Callable[[State], tuple[str, int, int]] = lambda s: s.at
    """(phase, round, turn) in which the last event happened (default: the state's `at`)."""
    reveal_seed: Callable[[State, str], State] | None = None
    legal_moves: Callable[[State], list] | None = None
    describe: Callable[[str, str | None, Any], str] | None = None
    """One line of text for an event (type, actor, payload as logged), for replays."""
    board_lines: Callable[[dict], list[str]] | None = None
    """The compact board (`snapshot`'s view) as lines of text, for replays."""

    def check(self, state: State, event: Event) -> list[Violation]:
        """Every violation `event` commits against `state` ([] when it is legal)."""
        return self.step(state, event)[0]

    def apply(self, state: State, event: Event) -> State:
        """The state after `event`, as recorded (an illegal event the rules cannot carry out
        leaves it unchanged); `state` itself is never changed."""
        after = self.step(state, event)[1]
        return state if after is None else after


_RULESETS = {
    "risk-europe": "engine.risk_europe",
    "risk-legacy": "engine.risk_legacy",
}


def ruleset_names() -> list[str]:
    """The names a log may declare in its first event."""
    return sorted(_RULESETS)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset record registered under `name`; KeyError if there is none."""
    module = importlib.import_module(_RULESETS[name])
    return module.RULESET
