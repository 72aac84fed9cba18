"""Drive a ruleset over a log: every finding (log format and rules), one record per event, the
result the rules give, and a state digest per step when asked.

How events after an illegal one are judged (docs/rulings.md, "after an illegal event"): an illegal
event that can still be carried out is applied as recorded and marked so; one that cannot is
skipped. Either way it is a finding, and every later event is judged against the state that
follows, so one mistake at the table is one finding, not a cascade.

An organizer's ruling (`RulingRecorded`, engine/core/rulings.py) is read here, for every ruleset,
and never shown to the ruleset: it changes no state. A ruling that takes events out of the game
(void, replay-from) is read ahead, when the judge starts on a whole log, so the events it takes
out are passed over where they stand (status "voided") and the rest is judged without them.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import io
import json
import pickle
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

from pydantic import ValidationError

from engine.core.dice import DiceTape
from engine.core.events import Event
from engine.core.fast_payloads import fast_validators
from engine.core.rules import Finding  # noqa: F401  (re-exported: one problem in a log)
from engine.core.rulings import (
    ACCEPT, REPLAY_FROM, RULING_EVENT, RULING_RULE, TAKES_OUT, Ruling, RulingRecorded, ruling_notes,
    ruling_of, ruling_problem,
)
from engine.core.ruleset import GameResult, Ruleset, get_ruleset, ruleset_names
from replay.logfile import LogRead, RawEvent

LOG_SECTION = "ledger log format v1 (docs/log-format.md)"
# Every log starts with this event, whose payload names the ruleset (docs/log-format.md).
START_EVENT = "GameStarted"


@dataclass(slots=True)
class StepRecord:
    """One event as judged: what it was, its status, its findings, what it caused."""

    line: int
    seq: int
    type: str
    actor: str | None
    payload: dict
    status: str                    # ok | claim | illegal-applied | skipped | unreadable | ruling | voided
    findings: list[Finding]
    notes: tuple[str, ...]
    position: tuple[str, int, int]  # phase, round, turn
    digest: str | None = None
    view: dict | None = None       # compact board after the event (when kept)


@dataclass
class Judgement:
    """Everything a judge learns from one log."""

    file: str
    game_id: str | None
    ruleset: str | None
    ruleset_version: str | None
    data_digest: str | None
    players: list[str]
    steps: list[StepRecord]
    findings: list[Finding]
    result: GameResult | None
    declared_winner: str | None          # for display: "blue", or "blue and red" for a shared win
    has_declared_winner: bool
    sealed: bool
    chain_ok: bool
    head: str | None
    fatal: str | None
    events: int
    declared_winners: tuple[str, ...] = ()
    dice_mode: str | None = None          # "table" or "seeded"
    seed_checked: bool = False            # seeded game whose revealed seed matched its hash
    final_state: Any = field(default=None, repr=False)
    start_view: dict | None = None
    games_in_file: int = 1                # > 1: games were concatenated (LOG-MANY-GAMES)
    data_notes: tuple[str, ...] = ()      # what the data judged with is (an invented example...)
    rulings: list[Ruling] = field(default_factory=list)   # the rulings that stand, in log order

    @property
    def log_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "log"]

    @property
    def rule_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.kind != "log"]

    @property
    def clean(self) -> bool:
        return not self.findings and self.fatal is None

    def result_dict(self) -> dict | None:
        return self.result.as_dict() if self.result else None

    # -- rulings (docs/log-format.md, "RulingRecorded": what each decision does to the verdict)

    def rulings_on(self, seq: int | None) -> list[Ruling]:
        """The rulings that answer the event at `seq`, in log order."""
        return [r for r in self.rulings if r.answers == seq]

    def accepted_by(self, f: Finding) -> Ruling | None:
        """The first ruling that accepts the event a finding is about: the finding is then
        answered. A log problem (format, chain) is never answered: it is about the file."""
        if f.kind == "log" or f.seq is None:
            return None
        return next((r for r in self.rulings if r.answers == f.seq and r.decision == ACCEPT), None)

    @property
    def open_findings(self) -> list[Finding]:
        """The findings no ruling answers."""
        return [f for f in self.findings if self.accepted_by(f) is None]

    @property
    def voided(self) -> dict[int, Ruling]:
        """The events the rulings took out of the game: seq -> the (first) ruling."""
        out: dict[int, Ruling] = {}
        for r in self.rulings:
            for seq in r.voids:
                out.setdefault(seq, r)
        return out

    @property
    def ruled(self) -> bool:
        """A game that is clean only by its rulings: it can be judged, every finding is answered
        by an accepting ruling, and a ruling answered a finding or took an event out."""
        if self.fatal is not None or not self.rulings or self.open_findings:
            return False
        return bool(self.findings) or any(r.voids for r in self.rulings)


def _payload_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "payload"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}" + (f" (got {err['input']!r})" if
                     "input" in err and not isinstance(err["input"], dict) else ""))
    more = f" (+{len(exc.errors()) - 3} more)" if len(exc.errors()) > 3 else ""
    return "; ".join(parts) + more


def judge(read: LogRead, *, data: Any = None, digests: bool = False, views: bool = False,
          strict: bool = False, on_event: Callable[[int, int], None] | None = None,
          keep_steps: bool = True, observer: Any = None) -> Judgement:
    """Judge a read log with the ruleset its first event names.

    `data`: board/card data to judge with (default: the ruleset's shipped data). `digests`: a
    state digest per step; `views`: the compact board after each step; `strict`: stop at the
    first finding; `keep_steps=False`: keep findings and the result only (audit, verify).
    `observer`: an object whose `observe(before, after, seq, type, payload)` is called for every
    event that changed the state and whose `finish(final_state)` is called at the end — so a
    reader of the fold (analytics rows) needs no second pass over the log.
    """
    judge_ = Judge(data=data, digests=digests, views=views, strict=strict,
                   keep_steps=keep_steps, observer=observer)
    j = judge_.start(read)
    if not judge_.started:
        return j
    events = read.events
    total = len(events)
    for i, raw in enumerate(events[1:], start=1):
        if on_event is not None and i % 256 == 0:
            on_event(i, total)
        if judge_.feed(raw) and strict:
            break
    else:
        judge_.conclude()
    j = judge_.finish()
    if on_event is not None:
        on_event(total, total)
    return j


class Judge:
    """A judge fed one event at a time: `start(read)` judges its first event, `feed(raw)` each
    later one, `conclude()` then `finish()` give the Judgement (`peek()` gives it and lets the
    judge go on); `carry()`/`resume()` keep it between feeds.

    `judge(read)` is `start`, `feed` for every later event, `conclude`, `finish`. Between two
    feeds a judge can be saved (`carry()`: bytes) and resumed with more events (`Judge.resume`),
    which is how the store judges only appended events. What it carries: the state, the observer,
    the findings so far and what the log declared (winner, seed); not the steps.
    """

    def __init__(self, *, data: Any = None, digests: bool = False, views: bool = False,
                 strict: bool = False, keep_steps: bool = True, observer: Any = None):
        self.data, self.digests, self.views, self.strict = data, digests, views, strict
        self.record = keep_steps or digests or views
        self.observer = observer
        self.rs: Ruleset | None = None
        self.state: Any = None
        self.j: Judgement | None = None
        self.last_seq: int | None = None
        self.concluded = False
        self.seqs = _Seqs()                      # what a ruling may answer
        self.voided: dict[int, int] = {}         # seq taken out -> the ruling that took it out
        self.ahead: dict[int, tuple[int, ...]] = {}   # a ruling's seq -> the events it takes out
        self._fast: dict | None = None           # the ruleset's fast payload checks, once known

    @property
    def started(self) -> bool:
        """True once the first event started a game that can be judged (feed may be called)."""
        return self.rs is not None

    def start(self, read: LogRead) -> Judgement:
        """Judge the log's reader problems and its first event; the Judgement so far (with
        `fatal` set, and `started` false, when the game cannot be judged)."""
        name = read.name
        findings: list[Finding] = [
            Finding(name, p.line, p.seq, p.rule, p.message, LOG_SECTION, "log") for p in read.problems
        ]
        events = read.events
        j = self.j = Judgement(
            file=name, game_id=events[0].game if events else None, ruleset=None,
            ruleset_version=None, data_digest=None, players=[], steps=[], findings=findings,
            result=None, declared_winner=None, has_declared_winner=False, sealed=read.sealed,
            chain_ok=read.chain_ok, head=read.head, fatal=None, events=len(events),
            games_in_file=read.games)
        if self.strict and findings:
            j.findings = findings[:1]
            return j
        if not events:
            j.fatal = "no events could be read"
            return j
        first = events[0]
        rs, start = _start(first, name, findings)
        if rs is None:
            j.fatal = findings[-1].message if findings else "the log does not start a game"
            return j
        data = self.data = rs.default_data() if self.data is None else self.data
        j.ruleset, j.ruleset_version, j.data_digest = rs.name, rs.version, rs.data_digest(data)
        j.data_notes = tuple(rs.data_notes(data))
        j.players = [p.id for p in start.players]
        start_problems = rs.check_start(start, data)
        for v in start_problems:
            findings.append(Finding(name, first.line, first.seq, v.rule, v.message, v.section,
                                    "illegal" if v.blocking else "claim", None))
        if any(v.blocking for v in start_problems):
            j.fatal = "the game's start cannot be judged: " + "; ".join(
                v.message for v in start_problems if v.blocking)
            return j
        state = rs.initial_state(start, data)
        j.dice_mode = getattr(getattr(start, "dice", None), "mode", None)
        if rs.reveal_seed is not None and rs.seed_event is not None:
            revealed = [e.payload.get("seed") for e in events if e.type == rs.seed_event
                        and isinstance(e.payload, dict) and isinstance(e.payload.get("seed"), str)]
            if revealed:
                seeded = rs.reveal_seed(state, revealed[-1])
                j.seed_checked = seeded is not state
                state = seeded
        if self.views:
            j.start_view = rs.snapshot(state)
        self.voided, self.ahead = read_ahead(events)
        self.seqs.add(first.seq, first.type)
        self.rs, self.state, self.last_seq = rs, state, first.seq
        return j

    def feed(self, raw: RawEvent) -> list[Finding]:
        """Judge the next event against the state so far and fold it in; its findings."""
        type_ = raw.type
        if type_ == RULING_EVENT:
            return self._feed_ruling(raw)
        seq = raw.seq
        if seq in self.voided:
            return self._pass_over(raw)
        seqs = self.seqs
        if seq == seqs.dense + 1 and not seqs.beyond:     # _Seqs.add of a log in order
            seqs.dense = seq
        else:
            seqs.add(seq, type_)
        rs, state, j = self.rs, self.state, self.j
        fast = self._fast
        if fast is None:
            fast = self._fast = fast_validators(rs.payload_models)
        self.last_seq = seq
        # The payload: msgspec first, when it takes it alike (engine/core/fast_payloads.py); else
        # the model, which says what is wrong (LOG-UNKNOWN-TYPE, LOG-PAYLOAD).
        payload = None
        check = fast.get(type_)
        if check is not None:
            try:
                payload = check(raw.payload)
            except Exception:
                payload = None
        if payload is None:
            payload, found = _validated(rs, raw, j.file)
            if payload is None:     # unreadable: not judged, the state unchanged
                if self.record:
                    j.steps.append(StepRecord(raw.line, seq, type_, raw.actor, raw.payload,
                                              "unreadable", found, (), rs.position(state)))
                return self._found(raw, found)
        # The rules: every violation, and the state after (illegal: applied as recorded, or
        # skipped and the state unchanged).
        violations, nxt = rs.step(state, Event(seq, type_, raw.actor, payload))
        applied = nxt is not None
        if violations:
            found = [Finding(j.file, raw.line, seq, v.rule, v.message, v.section,
                             "illegal" if v.blocking else "claim", applied if v.blocking else None,
                             type_)
                     for v in violations]
            if any(v.blocking for v in violations):
                status = "illegal-applied" if applied else "skipped"
            else:
                status = "claim"
        else:
            found, status = [], "ok"
        after = nxt if applied else state
        if self.record:     # audit and verify need only the findings and the state
            rec = StepRecord(raw.line, seq, type_, raw.actor, raw.payload, status, found,
                             rs.notes(after) if applied else (), rs.position(after))
            if self.digests:
                rec.digest = rs.digest(after)
            if self.views:
                rec.view = rs.snapshot(after)
            j.steps.append(rec)
        if self.observer is not None and after is not state:
            self.observer.observe(state, after, seq, type_, payload)
        self.state = after
        if found or type_ == rs.result_event:
            return self._found(raw, found)
        return found

    def _found(self, raw: RawEvent, found: list[Finding]) -> list[Finding]:
        """An event's findings kept (in strict mode: the first stops the judge), and the result
        it declares."""
        j = self.j
        if found:
            j.findings.extend(found)
            if self.strict:
                return found
        if raw.type == self.rs.result_event:
            j.has_declared_winner = True
            j.declared_winners = self.rs.declared_winners(raw.payload)
            j.declared_winner = " and ".join(j.declared_winners) or None
        return found

    def _feed_ruling(self, raw: RawEvent) -> list[Finding]:
        """A ruling: checked (LOG-PAYLOAD, LOG-RULING) and kept in the Judgement; the state is
        not changed, and the ruleset never sees it."""
        j, found, notes = self.j, [], ()
        try:
            p = RulingRecorded.__pydantic_validator__.validate_python(raw.payload)
        except ValidationError as exc:
            p = None
            found.append(Finding(j.file, raw.line, raw.seq, "LOG-PAYLOAD",
                                 f"{raw.type} payload: {_payload_error(exc)}", LOG_SECTION,
                                 "log", None, raw.type))
        if p is None:
            status = "unreadable"
        elif (problem := ruling_problem(p, raw.actor, raw.seq, self.seqs.kind)) is not None:
            found.append(Finding(j.file, raw.line, raw.seq, RULING_RULE, problem, LOG_SECTION,
                                 "log", None, raw.type))
            status = "skipped"
        else:
            ruling = ruling_of(p, raw.seq, raw.line, self.ahead.get(raw.seq, ()))
            j.rulings.append(ruling)
            notes, status = ruling_notes(ruling), "ruling"
        self.seqs.add(raw.seq, raw.type)
        self._unchanged(raw, status, found, notes)
        j.findings.extend(found)
        return found

    def _pass_over(self, raw: RawEvent) -> list[Finding]:
        """An event a ruling took out of the game: not judged, the state unchanged."""
        self.seqs.add(raw.seq, raw.type)
        self._unchanged(raw, "voided", [], (f"taken out of the game by the ruling at #{self.voided[raw.seq]}",))
        return []

    def _unchanged(self, raw: RawEvent, status: str, found: list[Finding], notes: tuple) -> None:
        """The step of an event that leaves the state as it is."""
        rs, state = self.rs, self.state
        self.last_seq = raw.seq
        if self.record:
            rec = StepRecord(raw.line, raw.seq, raw.type, raw.actor, raw.payload, status, found,
                             notes, rs.position(state))
            if self.digests:
                rec.digest = rs.digest(state)
            if self.views:
                rec.view = rs.snapshot(state)
            self.j.steps.append(rec)

    def conclude(self) -> None:
        """The log has no more events: let the rules conclude the game (e.g. a game over on
        time), shown to the observer as an event without a type at the last seq."""
        final = self.rs.conclude(self.state)
        if self.observer is not None and final is not self.state:
            self.observer.observe(self.state, final, self.last_seq, "", None)
        self.state = final
        self.concluded = True

    def finish(self) -> Judgement:
        """The Judgement: the observer finished, the final state and the rules' result."""
        j = self.j
        if self.observer is not None:
            self.observer.finish(self.state)
        j.final_state = self.state
        j.result = self.rs.result(self.state)
        if self.strict and j.findings:
            j.findings = j.findings[:1]
        return j

    def peek(self) -> Judgement:
        """The Judgement as if the log ended after the events fed so far, this judge left as it
        was, to be fed more (the store concludes a live game after every append).

        The observer sees the conclusion and finishes, which a fold allows at any point
        (engine.core.projection.Fold: `finish` only appends rows); when concluding changes the
        state, a copy of the observer sees that step, appending to the same tables `t`."""
        rs, state, observer = self.rs, self.state, self.observer
        final = rs.conclude(state)
        if observer is not None:
            if final is not state:
                observer = _observer_copy(observer, self.data)
                observer.observe(state, final, self.last_seq, "", None)
            observer.finish(final)
        j = replace_judgement(self.j, final_state=final, result=rs.result(final))
        if self.strict and j.findings:
            j.findings = j.findings[:1]
        return j

    # -- keeping a judge between feeds

    def carry(self) -> bytes:
        """This judge, before `conclude`, as bytes (`Judge.resume` continues it): the state, the
        observer, the findings so far; the ruleset's shipped data is named, not copied."""
        if not self.started or self.concluded:
            raise ValueError("only a started judge that has not concluded can be carried")
        j = self.j
        kept = replace_judgement(j, steps=[], final_state=None, start_view=None)
        body = io.BytesIO()
        pickler = _CarryPickler(body, self.data)
        pickler.dump((self.digests, self.views, self.strict, self.record, self.observer, self.state,
                      self.last_seq, kept, (self.seqs, self.voided, self.ahead)))
        # two lines read before the rest: the ruleset, and the fields of the records pickled
        layout = json.dumps(pickler.layout, sort_keys=True, separators=(",", ":"))
        return b"\n".join((self.rs.name.encode(), layout.encode(), body.getvalue()))

    @classmethod
    def resume(cls, carry: bytes) -> "Judge":
        """A judge continued from `carry()` (judged with the ruleset's shipped data), ready to
        `feed` the events after the last one it judged. pickle.UnpicklingError when the carry's
        records had other fields than this engine's have (a carry an older engine made)."""
        name, _, rest = carry.partition(b"\n")
        layout, _, body = rest.partition(b"\n")
        rs = get_ruleset(name.decode())
        _check_layout(layout)
        unpickler = _CarryUnpickler(io.BytesIO(body), rs.default_data())
        digests, views, strict, record, observer, state, last_seq, j, book = unpickler.load()
        judge_ = cls(data=unpickler.data, digests=digests, views=views, strict=strict,
                     observer=observer)
        judge_.record, judge_.rs = record, rs
        judge_.seqs, judge_.voided, judge_.ahead = book
        judge_.state, judge_.last_seq, judge_.j = state, last_seq, j
        return judge_


def replace_judgement(j: Judgement, **changes: Any) -> Judgement:
    """A shallow copy of `j` with `changes` (its findings list copied)."""
    out = copy.copy(j)
    out.findings = list(j.findings)
    out.rulings = list(j.rulings)
    for key, value in changes.items():
        setattr(out, key, value)
    return out


_DATA_ID = "ruleset-default-data"


_TABLES_ID = "observer-tables"


def _observer_copy(observer: Any, data: Any) -> Any:
    """A copy of `observer` that shares its tables `t` (and the ruleset's data) with it."""
    buffer = io.BytesIO()
    _CarryPickler(buffer, data, observer.t).dump(observer)
    buffer.seek(0)
    return _CarryUnpickler(buffer, data, observer.t).load()


class _CarryPickler(pickle.Pickler):
    """Pickles a judge with its ruleset's data object named, not copied (and `shared`, when
    given, named too: a copy made in memory keeps it)."""

    def __init__(self, file: io.BytesIO, data: Any, shared: Any = None):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.data, self.shared = data, shared
        self.layout: dict[str, list[str]] = {}
        """The fields of each record class pickled (dataclasses, NamedTuples), by class."""
        self._seen: set[type] = set()

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.data:
            return _DATA_ID
        if self.shared is not None and obj is self.shared:
            return _TABLES_ID
        return None

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if cls is DiceTape:      # its content is a function of the seed alone
            return DiceTape, (obj.seed,)
        if cls is MappingProxyType:   # a read-only view: pickled as the mapping it shows
            return _mapping_proxy, (dict(obj),)
        if cls not in self._seen:
            self._seen.add(cls)
            names = _record_fields(cls)
            if names is not None:
                self.layout[f"{cls.__module__}:{cls.__qualname__}"] = names
        return NotImplemented


def _record_fields(cls: type) -> list[str] | None:
    """The field names of a record class (a dataclass or a NamedTuple), in order; None for
    any other class."""
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    names = getattr(cls, "_fields", None) if issubclass(cls, tuple) else None
    return list(names) if isinstance(names, tuple) else None


def _check_layout(line: bytes) -> None:
    """pickle.UnpicklingError unless every record class a carry names has the fields it had when the carry
    was made: a state pickled by an older engine would load into today's classes field by
    field, wrongly, or without the fields they have now."""
    try:
        layout = json.loads(line)
    except ValueError:
        raise pickle.UnpicklingError("the carry names no record fields: an older engine made it") from None
    if not isinstance(layout, dict):
        raise pickle.UnpicklingError("the carry names no record fields: an older engine made it")
    for name, fields_then in layout.items():
        module, _, qualname = name.partition(":")
        try:
            cls: Any = importlib.import_module(module)
            for part in qualname.split("."):
                cls = getattr(cls, part)
        except (ImportError, AttributeError):
            raise pickle.UnpicklingError(f"the carry holds a {name} this engine has not") from None
        if not isinstance(cls, type) or _record_fields(cls) != fields_then:
            raise pickle.UnpicklingError(f"the carry's {name} had the fields {fields_then}; this engine's has "
                             f"{_record_fields(cls) if isinstance(cls, type) else None}")


def _mapping_proxy(mapping: dict) -> MappingProxyType:
    """A read-only view of `mapping` (how a carried one is restored)."""
    return MappingProxyType(mapping)


class _CarryUnpickler(pickle.Unpickler):
    """Restores a carried judge, giving it its ruleset's shipped data back."""

    def __init__(self, file: io.BytesIO, data: Any, shared: Any = None):
        super().__init__(file)
        self.data, self.shared = data, shared

    def persistent_load(self, pid: Any) -> Any:
        if pid == _DATA_ID:
            return self.data
        if pid == _TABLES_ID and self.shared is not None:
            return self.shared
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def read_ahead(events: list[RawEvent]) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """The events a log's rulings take out of the game (void, replay-from), known before the
    first of them is judged: (seq taken out -> the seq of the ruling that took it out, a
    ruling's seq -> the events it took out). Empty for a log without such rulings.

    A span runs in log order, from the line of event `from` (or `seq`) to the line of `seq`
    (void) or to the ruling (replay-from); rulings in it stay. An event is taken out once, by the
    first ruling that takes it out, so the work is linear in the log however the spans overlap."""
    voided: dict[int, int] = {}
    ahead: dict[int, tuple[int, ...]] = {}
    if not any(e.type == RULING_EVENT for e in events):
        return voided, ahead
    seqs = _Seqs()
    line_of: dict[int, int] = {}      # seq -> its position in the log (the first with that seq)
    left: list[int] = []              # position -> the nearest position at or before it still in

    def still_in(i: int) -> int:
        root = i
        while root >= 0 and left[root] != root:
            root = left[root]
        while i >= 0 and left[i] != i:
            left[i], i = root, left[i]
        return root

    for pos, e in enumerate(events):
        if e.type == RULING_EVENT:
            p = _ruling_payload(e.payload)
            if p is not None and p.decision in TAKES_OUT and \
                    ruling_problem(p, e.actor, e.seq, seqs.kind) is None:
                first = line_of[p.seq if p.from_ is None else p.from_]
                last = pos - 1 if p.decision == REPLAY_FROM else line_of[p.seq]
                taken: list[int] = []
                i = still_in(last)
                while i >= first:
                    if events[i].type != RULING_EVENT:
                        taken.append(events[i].seq)
                        voided[events[i].seq] = e.seq
                    left[i] = i - 1
                    i = still_in(i - 1)
                ahead[e.seq] = tuple(reversed(taken))
        seqs.add(e.seq, e.type)
        line_of.setdefault(e.seq, pos)
        left.append(pos)
    return voided, ahead


class _Seqs:
    """The seqs of the events read so far, kept small: every seq up to `dense` (a log in order
    needs nothing else), the seqs read beyond it (after a gap, or out of order), and the
    rulings. What a ruling may answer."""

    def __init__(self) -> None:
        self.dense = -1
        self.beyond: set[int] = set()
        self.rulings: set[int] = set()

    def add(self, seq: int, type_: str) -> None:
        if seq == self.dense + 1:
            self.dense = seq
            while self.beyond and self.dense + 1 in self.beyond:
                self.beyond.remove(self.dense + 1)
                self.dense += 1
        elif seq > self.dense:
            self.beyond.add(seq)
        if type_ == RULING_EVENT:
            self.rulings.add(seq)

    def kind(self, seq: int) -> str | None:
        """RULING_EVENT, "event", or None when no event with `seq` has been read."""
        if not (0 <= seq <= self.dense or seq in self.beyond):
            return None
        return RULING_EVENT if seq in self.rulings else "event"


def _ruling_payload(payload: Any) -> RulingRecorded | None:
    """A ruling's payload validated, or None when it is not a valid one."""
    try:
        return RulingRecorded.__pydantic_validator__.validate_python(payload)
    except ValidationError:
        return None


def _start(first: RawEvent, name: str, findings: list[Finding]):
    def fail(message: str):
        findings.append(Finding(name, first.line, first.seq, "LOG-START", message, LOG_SECTION, "log",
                                None, first.type))
        return None, None

    if first.type != START_EVENT:
        return fail(f"a game log starts with a {START_EVENT} event; the first event is {first.type!r}")
    rname = first.payload.get("ruleset") if isinstance(first.payload, dict) else None
    if rname not in ruleset_names():
        return fail(f"unknown ruleset {rname!r}; this ledger judges {', '.join(ruleset_names())}")
    rs = get_ruleset(rname)
    try:
        start = rs.payload_models[rs.start_event].model_validate(first.payload)
    except ValidationError as exc:
        findings.append(Finding(name, first.line, first.seq, "LOG-PAYLOAD",
                                f"{START_EVENT} payload: {_payload_error(exc)}", LOG_SECTION, "log"))
        return None, None
    return rs, start


def _validated(rs: Ruleset, raw: RawEvent, name: str) -> tuple[Any, list[Finding]]:
    """A payload the fast check did not take, validated by its model: (the payload, no
    findings), or (None, [the LOG-UNKNOWN-TYPE or LOG-PAYLOAD finding])."""
    model = rs.payload_models.get(raw.type)
    if model is None:
        return None, [Finding(name, raw.line, raw.seq, "LOG-UNKNOWN-TYPE",
                              f"unknown event type {raw.type!r} for {rs.name}; known: "
                              f"{', '.join(sorted(rs.payload_models))}",
                              LOG_SECTION, "log", None, raw.type)]
    try:
        # what `model.model_validate` calls, without its per-call argument checks; how a
        # payload the fast path refuses is judged and its errors phrased
        return model.__pydantic_validator__.validate_python(raw.payload), []
    except ValidationError as exc:
        return None, [Finding(name, raw.line, raw.seq, "LOG-PAYLOAD",
                              f"{raw.type} payload: {_payload_error(exc)}", LOG_SECTION, "log",
                              None, raw.type)]
