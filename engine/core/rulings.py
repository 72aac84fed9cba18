"""Rulings: an organizer's (or a judge's) answer to one event of a game, logged as an event of
its own, `RulingRecorded`, and never as an edit (docs/log-format.md, "RulingRecorded").

A ruling belongs to the log format, not to a game: every ruleset's log may hold one at any
point, the game over or not, and the judge (replay.judge) reads it without asking the ruleset.
It names the event it answers (`seq`, an earlier event that is not itself a ruling), a decision,
the words of the ruling and who made it:

    accept       the event stands as recorded: its findings are answered ("ruled")
    void         the event is taken out of the game: it is not judged, and every later event is
                 judged as if it had never been logged; with `from`, every event from `from` to
                 it (a whole battle, say), rulings excepted
    replay-from  the table went back to before event `from` (at or before `seq`) and played on:
                 every event from `from` up to the ruling is taken out (rulings excepted), and the
                 game goes on after the ruling from the state before `from`

An event is taken out once, by the first ruling that takes it out (replay.judge.read_ahead).
    note         a remark beside the event; it changes nothing

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Literal

from pydantic import Field, field_validator, model_validator

from engine.core.envelope import MAX_SEQ
from engine.core.payloads import Payload

RULING_EVENT = "RulingRecorded"
"""The event type of a ruling, the same in every game's log."""
RULING_RULE = "LOG-RULING"
"""The finding of a ruling that cannot stand (no such event, a later one, a player's)."""

ACCEPT, VOID, REPLAY_FROM, NOTE = "accept", "void", "replay-from", "note"
DECISIONS = (ACCEPT, VOID, REPLAY_FROM, NOTE)
TAKES_OUT = frozenset({VOID, REPLAY_FROM})
"""The decisions that take events out of the game (and so change how the rest is judged)."""

MAX_TEXT = 4000


class RulingRecorded(Payload):
    """The payload of a ruling: the event it answers, the decision, its words, who ruled."""

    seq: int = Field(ge=0, le=MAX_SEQ, description="the seq of the event the ruling answers")
    decision: Literal["accept", "void", "replay-from", "note"] = Field(
        description="accept: the event stands as recorded; void: it (with `from`: every event from "
                    "`from` to it) is taken out of the game; replay-from: every event from `from` up "
                    "to the ruling is taken out; note: a remark")
    text: str = Field(min_length=1, max_length=MAX_TEXT, description="the ruling in words")
    by: str | None = Field(None, min_length=1, max_length=200,
                           description="the organizer or judge who made it")
    from_: int | None = Field(None, alias="from", ge=0, le=MAX_SEQ,
                              description="void, replay-from: the first event taken out (at or "
                                          "before seq); required with replay-from")

    @field_validator("text")
    @classmethod
    def _says_something(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("a ruling says something: the text is blank")
        return text

    @model_validator(mode="after")
    def _from_goes_with_replay(self) -> "RulingRecorded":
        if self.decision == REPLAY_FROM and self.from_ is None:
            raise ValueError('the decision "replay-from" needs "from": the first event taken out')
        if self.from_ is not None and self.decision not in TAKES_OUT:
            raise ValueError(f'"from" goes with the decisions void and replay-from, not {self.decision!r}')
        if self.from_ is not None and self.from_ > self.seq:
            raise ValueError(f'"from" ({self.from_}) is after the event the ruling answers '
                             f"({self.seq}): the table goes back to it or to an earlier event")
        return self


@dataclass(frozen=True)
class Ruling:
    """A ruling as the judge read it: where it is, what it answers, and the events it took out."""

    seq: int                         # the ruling's own seq
    line: int
    answers: int                     # the seq of the event it answers
    decision: str
    text: str
    by: str | None = None
    replay_from: int | None = None
    voids: tuple[int, ...] = ()      # the events it took out of the game (void, replay-from)

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "line": self.line, "answers": self.answers,
                "decision": self.decision, "text": self.text, "by": self.by,
                "from": self.replay_from, "voids": list(self.voids)}

    def with_text(self, text: str) -> "Ruling":
        return Ruling(self.seq, self.line, self.answers, self.decision, text, self.by,
                      self.replay_from, self.voids)


def ruling_of(payload: RulingRecorded, seq: int, line: int, voids: Iterable[int] = ()) -> Ruling:
    """The Ruling a validated payload logged at `seq` (line `line`) makes."""
    return Ruling(seq, line, payload.seq, payload.decision, payload.text, payload.by,
                  payload.from_, tuple(voids))


def ruling_problem(payload: RulingRecorded, actor: str | None, at: int,
                   kind: Callable[[int], str | None]) -> str | None:
    """Why a ruling logged at seq `at` cannot stand, or None when it can. `kind(seq)`: the type
    of the event the log holds at `seq` before the ruling (None: there is none)."""
    if actor is not None:
        return f"a ruling is the organizer's and is logged with actor null; this one names {actor!r}"
    if payload.seq >= at:
        return f"a ruling answers an earlier event; seq {payload.seq} is not before the ruling (seq {at})"
    for seq in (payload.seq, payload.from_):
        if seq is None:
            continue
        found = kind(seq)
        if found is None:
            return f"there is no event with seq {seq} in this game to rule on"
        if found == RULING_EVENT:
            return f"seq {seq} is itself a ruling; a ruling answers an event of the game"
    if payload.decision in TAKES_OUT and (payload.from_ if payload.from_ is not None else payload.seq) == 0:
        return "the game's start (seq 0) cannot be taken out of the game"
    return None


def takes_back(type_: str, payload: Any) -> bool:
    """Does an event as logged (a payload dict) take earlier events out of the game? Then a judge
    that has judged them already must judge the game again from its start."""
    return (type_ == RULING_EVENT and isinstance(payload, dict)
            and payload.get("decision") in TAKES_OUT)


def ruling_line(payload: Any) -> str:
    """A ruling (its payload as logged) in words: 'ruling on #57 by J. Smith: accept — "..."'."""
    if not isinstance(payload, dict):
        return f"ruling {payload!r}"
    by = f" by {payload['by']}" if payload.get("by") else ""
    decision = payload.get("decision")
    if decision == REPLAY_FROM:
        decision = f"replay from #{payload.get('from')}"
    return f"ruling on #{payload.get('seq')}{by}: {decision} — {payload.get('text')!r}"


def ruling_notes(r: Ruling) -> tuple[str, ...]:
    """What a ruling does, for a replay's notes."""
    if r.decision == ACCEPT:
        return (f"#{r.answers} stands as recorded: its findings are answered by this ruling",)
    if r.decision == NOTE:
        return (f"a note on #{r.answers}; it changes nothing",)
    if not r.voids:
        return (f"#{r.answers}: takes effect when the game is judged again from its start",)
    span = f"#{r.voids[0]}" if len(r.voids) == 1 else f"#{r.voids[0]}-#{r.voids[-1]} ({len(r.voids)} events)"
    return (f"{span} taken out of the game: judged as if never logged",)
