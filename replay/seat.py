"""A game as one seat saw it (`ledger replay FILE --as SEAT`), and a log as one seat may read it.

    rec = StateRecorder()
    j = judge(read, digests=True, views=True, observer=rec)   # the referee's judgement
    mine = as_seen_by(j, rec, "blue")                           # the same game, as blue saw it
    envelopes = seat_log(read, "blue")                          # the log as blue may read it now

Everything goes through the ruleset's hidden-information hooks (engine.core.views), so this
module names no game. What `as_seen_by` changes, step by step, "at the time" (each event judged
against the state it left):

- the payload: redacted as the seat could see it when it was appended (a card committed face down
  by another player shows as "hidden"; the seat's own events are shown in full);
- the board after it: the seat's view instead of the public board; the notes as the seat may read
  them; the state digest only while no secret is hidden from the seat (a digest of the full state
  could be checked against every value the secret can take);
- findings: the rule, kind, line and seq are kept; the message is withheld when it is about an
  event the seat sees redacted, or names a value hidden from it; a log problem's message (it may
  quote a raw line) is given as its rule's description until the game is over;
- an organizer's ruling: its words are withheld while the event it answers is one the seat still
  sees redacted (they may name the secret); its decision and the seqs are shown.

The referee's own judgement (verdicts, findings, digests) is never changed: `as_seen_by` builds a
new one. Pure apart from what `seat_log` reads through the judge.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import replace as dc_replace
from typing import Any

from engine.core import views as V
from engine.core.rules import Finding
from engine.core.rulings import RULING_EVENT
from engine.core.ruleset import get_ruleset
from replay.judge import Judgement, StepRecord, judge, replace_judgement
from replay.logfile import LOG_RULES, LogRead

WITHHELD = "(details withheld from this seat until the reveal)"

_APPLIED = frozenset({"ok", "claim", "illegal-applied"})
_OWN_NOTES = frozenset({"ruling", "voided"})     # steps whose notes are the judge's, not the state's


class StateRecorder:
    """A judge observer that keeps every state: (before, after, seq, type) per event that changed
    the state, in order, and the final state."""

    def __init__(self) -> None:
        self.changes: list[tuple[Any, Any, int, str]] = []
        self.final: Any = None

    def observe(self, before: Any, after: Any, seq: int, type_: str, payload: Any) -> None:
        if type_:                        # "" is the judge's conclusion of the log, not an event
            self.changes.append((before, after, seq, type_))

    def finish(self, final: Any) -> None:
        self.final = final

    def states(self, j: Judgement) -> tuple[Any, list[tuple[Any, Any]]]:
        """The initial state and (before, after) for every step of `j`, in order (an event that
        changed nothing, or was skipped, has before is after)."""
        queue = deque(self.changes)
        initial = queue[0][0] if queue else (self.final if self.final is not None else j.final_state)
        state = initial
        out = []
        for step in j.steps:
            if queue and step.status in _APPLIED and queue[0][2] == step.seq and queue[0][3] == step.type:
                before, after, _, _ = queue.popleft()
                state = after
                out.append((before, after))
            else:
                out.append((state, state))
        return initial, out


def as_seen_by(j: Judgement, rec: StateRecorder, seat: str | None) -> Judgement:
    """The judgement `j` (judged with `rec` as its observer, with its steps kept) as `seat` (a
    player id, None for a spectator) saw the game at the time of each event."""
    if j.ruleset is None or (j.fatal is not None and not j.steps):
        return j
    rs = get_ruleset(j.ruleset)
    initial, states = rec.states(j)
    final = rec.final if rec.final is not None else j.final_state
    # a log problem may quote a raw line: its own words wait until the game is over
    quiet_log = final is None or rs.result(final) is None
    mine: dict[int, Finding] = {}
    for f in j.findings:
        if f.kind == "log" and quiet_log:
            mine[id(f)] = dc_replace(f, message=f"{LOG_RULES.get(f.rule, f.rule)} {WITHHELD}")
    steps: list[StepRecord] = []
    at_of: dict[int, tuple[StepRecord, Any, Any]] = {}
    quiet_rulings: set[int] = set()          # the rulings whose words the seat may not read
    for step, (before, after) in zip(j.steps, states):
        at_of.setdefault(step.seq, (step, before, after))
        if step.type == RULING_EVENT:
            payload = step.payload
            if _answers_hidden(rs, payload, seat, at_of, after):
                payload = {**payload, "text": V.HIDDEN}
                quiet_rulings.add(step.seq)
        else:
            payload = V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after)
        redacted = payload != step.payload
        hidden = V.hidden_from(rs, before, seat) + V.hidden_from(rs, after, seat)
        for f in step.findings:
            if f.kind != "log":
                mine[id(f)] = _finding_for(f, redacted, hidden)
        steps.append(StepRecord(
            step.line, step.seq, step.type, step.actor, payload, step.status,
            [mine.get(id(f), f) for f in step.findings],
            _notes_for(rs, step, after, seat), step.position,
            V.digest_for(rs, after, seat) if step.digest is not None else None,
            V.view_of(rs, after, seat) if step.view is not None else None))
    out = replace_judgement(j, steps=steps, findings=[mine.get(id(f), f) for f in j.findings],
                            final_state=None,
                            start_view=V.view_of(rs, initial, seat) if j.start_view is not None else None)
    out.rulings = [r.with_text(V.HIDDEN) if r.seq in quiet_rulings else r for r in j.rulings]
    if final is not None and V.hidden_from(rs, final, seat):
        out.head = None          # the head hash is a hash of lines holding secrets
    return out


def _notes_for(rs: Any, step: StepRecord, after: Any, seat: str | None) -> tuple[str, ...]:
    """A step's notes as `seat` may read them: a ruling's, or those of an event a ruling took
    out, name only seqs; an event's are what it caused, as the seat's view tells it."""
    if step.status in _OWN_NOTES:
        return step.notes
    return V.notes_for(rs, after, seat) if step.notes else ()


def _answers_hidden(rs: Any, payload: Any, seat: str | None,
                    at_of: dict[int, tuple[StepRecord, Any, Any]], now: Any) -> bool:
    """Does a ruling (its payload) answer an event that `seat` sees redacted at `now`?"""
    answered = at_of.get(payload.get("seq")) if isinstance(payload, dict) else None
    if answered is None:
        return False
    step, before, after = answered
    return V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after, now) != step.payload


def _finding_for(f: Finding, redacted: bool, hidden: tuple[V.Secret, ...]) -> Finding:
    """A rule finding as a seat may read it: its message withheld when it is about an event the
    seat sees redacted, or names a value hidden from the seat."""
    if redacted or V.withheld(f.message, hidden):
        return dc_replace(f, message=WITHHELD)
    return f


def seat_log(read: LogRead, seat: str | None, *, data: Any = None) -> list[dict]:
    """The envelopes of a log as `seat` may read them at its end: each payload redacted as of the
    last state (a secret revealed since is shown), and, from the first event still redacted on,
    `prev` and `hash` withheld (None): a hash over a line with a secret in clear, or over the
    hash of one, could be checked against every value the secret can take. Once the game is over
    every envelope is the one logged."""
    rec = StateRecorder()
    j = judge(read, data=data, observer=rec, keep_steps=True)
    events = read.events
    if j.ruleset is None:
        return [json.loads(e.raw) for e in events]
    rs = get_ruleset(j.ruleset)
    _, states = rec.states(j)
    now = rec.final if rec.final is not None else j.final_state
    at_of = {step.line: pair for step, pair in zip(j.steps, states)}
    out = []
    chain_shown = True
    redacted: set = set()
    for e in events:
        envelope = json.loads(e.raw)
        pair = at_of.get(e.line)
        if e.type == RULING_EVENT and isinstance(e.payload, dict):
            if e.payload.get("seq") in redacted:     # its words may name what is hidden
                envelope["payload"] = {**e.payload, "text": V.HIDDEN}
        elif pair is not None and isinstance(e.payload, dict):
            payload = V.redact_payload(rs, e.type, e.actor, e.payload, seat, *pair, now)
            if payload != e.payload:
                envelope["payload"] = payload
                chain_shown = False
                redacted.add(e.seq)
        if not chain_shown:
            envelope["prev"] = envelope["hash"] = None
        out.append(envelope)
    return out
