"""A game being played through the service: its judge kept in memory, who may append what, the
dice the server rolls, and every read as one seat (or a spectator) may see it.

    table = LiveTable.load(store, game)            # judges the stored log once
    table.append(role, expected_seq, items)        # authorise, fill dice, judge, store, follow up
    table.events_for(seat), table.state_for(seat), table.legal_for(seat)

Everything game-specific comes through the Ruleset record: `actors` (who may decide now, via
engine.core.views.actors_now), `chance` and `with_dice` (the server's dice), `view`, `redact`,
`secrets` (hidden information), `result_event` and `seed_event`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from pydantic import ValidationError

from engine.core import views as V
from engine.core.dice import DiceTape
from engine.core.events import Event
from engine.core.rulings import RULING_EVENT, RULING_RULE, RulingRecorded, ruling_problem, takes_back
from engine.core.ruleset import Ruleset, get_ruleset
from ledger.service import sealing as S
from ledger.service.errors import ServiceError
from ledger.service.tables import ORGANIZER, ServiceGame
from ledger.store import ConcurrencyConflict, InvalidAppend, load_log_from_store
from replay.judge import Judge
from replay.logfile import RawEvent
from replay.seat import WITHHELD

SERVER = "server"
"""The role of the service's own appends (dice, the seed's reveal)."""


@dataclass
class Step:
    """One stored event as the live table keeps it."""

    raw: RawEvent
    envelope: dict
    before: Any
    after: Any
    findings: list[dict] = field(default_factory=list)


@dataclass
class _SeatReads:
    """What one seat (or a spectator) was last shown of the log, kept so that a read looks at
    the new steps only (engine.core.views.redaction_key says when that is enough).

    `key`: the redaction key it was computed at; `upto`: the steps looked at; `redacted`: the
    payload shown, by seq, of each step shown redacted (every other step is shown as logged)."""

    key: tuple
    upto: int = 0
    redacted: dict[int, Any] = field(default_factory=dict)


@dataclass
class LiveTable:
    rs: Ruleset
    game: ServiceGame
    judge: Judge
    steps: list[Step]
    tape: DiceTape | None
    types: set[str] = field(default_factory=set)
    """The event types stored (the result's claim, the seed's reveal: asked after every append)."""
    reads: dict[str | None, _SeatReads] = field(default_factory=dict)

    # --- loading -----------------------------------------------------------------------------

    @classmethod
    def load(cls, store: Any, game: ServiceGame) -> "LiveTable":
        """The game's stored log judged once; later appends judge only their events."""
        read = load_log_from_store(store, game.game_id)
        judge = Judge(keep_steps=False)
        judge.start(read)
        if not judge.started:
            raise ServiceError(500, "bad-game", f"the stored game {game.game_id!r} cannot be judged")
        rs = judge.rs
        table = cls(rs, game, judge, [], DiceTape(game.seed) if game.seed else None)
        first = read.events[0]
        table.steps.append(Step(first, json.loads(first.raw), judge.state, judge.state))
        table.types.add(first.type)
        for raw in read.events[1:]:
            table._feed(raw)
        return table

    def _feed(self, raw: RawEvent) -> Step:
        before = self.judge.state
        found = self.judge.feed(raw)
        step = Step(raw, json.loads(raw.raw), before, self.judge.state,
                    [{"rule": f.rule, "kind": f.kind, "message": f.message, "seq": f.seq}
                     for f in found])
        self.steps.append(step)
        self.types.add(raw.type)
        return step

    # --- the state of play -------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.judge.state

    @property
    def next_seq(self) -> int:
        return len(self.steps)

    def result(self) -> Any:
        return self.rs.result(self.state)

    @property
    def over(self) -> bool:
        """The game is over (its result is given by the rules), and so public in full."""
        return self.result() is not None

    @property
    def finished(self) -> bool:
        """Over, its result claimed (the ruleset's `result_event` stored) and no decision left
        (a game's own end may ask for some, e.g. rewards chosen after the win): nothing more is
        appended but the seed's reveal."""
        event = self.rs.result_event
        return (self.over and (event is None or event in self.types)
                and not V.actors_now(self.rs, self.state))

    @property
    def seed_shown(self) -> bool:
        """The server's seed is revealed in the log (or the game has none): a stream may end
        once the game is finished (a ruling may still follow the reveal)."""
        return self.game.seed is None or self.rs.seed_event in self.types

    def actors(self) -> tuple[str, ...]:
        return () if self.finished else V.actors_now(self.rs, self.state)

    def seats_for(self, actor: str) -> tuple[str, ...]:
        return V.seats_acting_for(self.rs, self.state, actor, self.game.seats)

    # --- reading, per seat -------------------------------------------------------------------

    def events_for(self, seat: str | None, since: int = 0) -> list[dict]:
        """The envelopes from `since` on as `seat` may read them now: each payload redacted as
        of the current state, `prev`/`hash` withheld from the first event shown redacted on
        (replay.seat.seat_log's rule); all as logged once the game is over. A ruling's text is
        withheld while the event it rules on is shown redacted (its words may name what is
        hidden). Computed from what `seat` was shown before (`_reads`): the cost is that of
        the events asked for, and of the steps appended since."""
        reads = self._reads(seat)
        redacted = reads.redacted
        cut = min(redacted) if redacted else None     # the chain is withheld from here on
        out = []
        for step in self.steps[max(since, 0):]:
            seq = step.raw.seq
            envelope = step.envelope
            payload = envelope.get("payload")
            if seq in redacted:
                envelope = {**envelope, "payload": redacted[seq]}
            elif step.raw.type == RULING_EVENT and isinstance(payload, dict):
                ruled = payload.get("seq")
                if ruled in redacted and ruled < seq:     # as shown when the ruling was read
                    envelope = {**envelope, "payload": {**payload, "text": V.HIDDEN}}
            if cut is not None and seq >= cut:
                envelope = {**envelope, "prev": None, "hash": None}
            out.append(envelope)
        return out

    def _reads(self, seat: str | None) -> _SeatReads:
        """What `seat` is shown now: while the redaction key is the one it was last shown at,
        the steps it saw redacted are looked at again and the new steps once; when the key
        changed (a secret revealed or dealt, the game over), every step."""
        now = self.state
        key = V.redaction_key(self.rs, now, seat)
        reads = self.reads.get(seat)
        if reads is None or reads.key != key:
            reads = self.reads[seat] = _SeatReads(key)
        else:
            for seq in list(reads.redacted):
                self._redact(reads, self.steps[seq], seat, now)
        for step in self.steps[reads.upto:]:
            self._redact(reads, step, seat, now)
        reads.upto = len(self.steps)
        return reads

    def _redact(self, reads: _SeatReads, step: Step, seat: str | None, now: Any) -> None:
        """Note how `seat` sees `step`'s payload at `now` (a ruling is never redacted, nor the
        game's start)."""
        payload = step.envelope.get("payload")
        seq = step.raw.seq
        if step.raw.type != RULING_EVENT and seq > 0 and isinstance(payload, dict):
            shown = V.redact_payload(self.rs, step.raw.type, step.raw.actor, payload, seat,
                                     step.before, step.after, now)
            if shown != payload:
                reads.redacted[seq] = shown
                return
        reads.redacted.pop(seq, None)

    def chain_shown_to(self, seat: str | None) -> bool:
        """May `seat` see the head hash? Not while any event is shown to it redacted."""
        last = self.events_for(seat, since=len(self.steps) - 1)
        return all(e.get("hash") is not None for e in last)

    def head_for(self, seat: str | None) -> dict:
        last = self.events_for(seat, since=len(self.steps) - 1)[-1]
        return {"seq": last["seq"], "next_seq": last["seq"] + 1, "hash": last.get("hash")}

    def state_for(self, seat: str | None) -> dict:
        state = self.state
        res = self.result()
        return {
            "game": self.game.game_id, "ruleset": self.rs.name, "mode": self.game.mode,
            "dice": self.dice_info(), "seat": seat, "next_seq": self.next_seq,
            "over": res is not None, "result": None if res is None else res.as_dict(),
            "actors": list(self.actors()),
            "digest": V.digest_for(self.rs, state, seat),
            "view": V.view_of(self.rs, state, seat),
            "draw": None if self.finished else self.table_drawn(state),
        }

    def legal_for(self, seat: str | None) -> list[dict]:
        if self.finished:
            return []
        return [{"actor": m.actor, "type": m.type, "payload": m.payload}
                for m in V.moves_for(self.rs, self.state, seat)]

    def dice_info(self) -> dict:
        start = self.steps[0].envelope.get("payload") or {}
        dice = start.get("dice") if isinstance(start, dict) else None
        return dict(dice) if isinstance(dice, dict) else {"mode": self.game.dice_mode}

    def findings_for(self, seat: str | None, findings: list[dict], redacted: bool) -> list[dict]:
        """Findings as `seat` may read them: a message naming a value hidden from it, or about
        an event it sees redacted, is withheld (the rule id is always shown)."""
        hidden = V.hidden_from(self.rs, self.state, seat)
        return [{**f, "message": WITHHELD} if redacted or V.withheld(f["message"], hidden) else f
                for f in findings]

    # --- appending ---------------------------------------------------------------------------

    def append(self, store: Any, role: str | None, expected_seq: int,
               items: Sequence[dict]) -> dict:
        """Authorise, judge and store `items` (dicts of type, actor, payload) at `expected_seq`;
        then the server's own follow-ups (dice no one decides, the seed at the end). What was
        stored: {"head", "events" (as the caller may read them), "findings"}."""
        if role is None:
            raise ServiceError(401, "unauthorized", "appending needs a seat's or the organizer's "
                               "token (Authorization: Bearer TOKEN)")
        if expected_seq != self.next_seq:
            raise self._stale(role, expected_seq)
        if self.finished:
            raise ServiceError(409, "game-over", "the game is over: nothing more can be appended",
                               seq=self.next_seq)
        first = self.next_seq
        seat = None if role == ORGANIZER else role
        state = self.state
        envelopes: list[dict] = []
        prev = self.steps[-1].raw.hash          # the chain the items continue (sealing.py)
        chaining = any(item.get("hash") is not None for item in items)
        shown = None                            # may the caller see the chain (sealed items)
        for i, item in enumerate(items):
            seq = first + i
            at, sealed = S.envelope_keys(item, self.game.game_id, seq)
            if sealed and self._server_fills(state, item):
                raise S.server_fills(item.get("type"), seq)
            type_, actor, payload = self._fill(role, item, state, seq)
            before, state = state, self._check(role, seq, type_, actor, payload, state, seat)
            envelope = {"type": type_, "actor": actor, "payload": payload,
                        **({"at": at} if at is not None else {})}
            if chaining:                        # a client-sealed line is among the items
                line = S.chained(self.game.game_id, seq, type_, actor, payload, at, prev)
                if sealed:
                    envelope = line = S.check_sealed(item, line, seq, lambda: shown is not False
                                                     and self.chain_shown_to(seat))
                if V.redact_payload(self.rs, type_, actor, payload, seat, before, state,
                                    state) != payload:
                    shown = False               # an item before the next is hidden from it
                prev = line["hash"]
            envelopes.append(envelope)
        steps = self._store(store, first, envelopes)
        findings = [f for s in steps for f in s.findings]
        self._follow_up(store)
        shown = self.events_for(seat, since=first)[:len(steps)]
        redacted = any(e.get("hash") is None for e in shown)
        return {"head": self.head_for(seat), "events": shown,
                "findings": self.findings_for(seat, findings, redacted)}

    def _stale(self, role: str | None, expected_seq: int) -> ServiceError:
        seat = None if role in (ORGANIZER, SERVER) else role
        return ServiceError(409, "stale-seq", f"expected_seq {expected_seq} is not the next seq "
                            f"({self.next_seq}): another append came first; read the events "
                            f"since {expected_seq} and try again", seq=self.next_seq,
                            head=self.head_for(seat))

    def _server_fills(self, state: Any, item: dict) -> bool:
        """Would the server complete this event with the seed's dice (a roll or draw the game
        waits for, or dice a decision brings)? Said from the event's type and the state, never
        from whether dice a client put in it are right (that would tell the seed's next dice)."""
        type_, actor, payload = item.get("type"), item.get("actor"), item.get("payload")
        if self.tape is None or not isinstance(payload, dict) or type_ not in self.rs.payload_models:
            return False
        due = self.rs.chance(state, self.tape) if self.rs.chance is not None else None
        if due is not None and due[0] == type_ and actor in (None, due[1]):
            return True
        drawn = self.table_drawn(state)          # its fills are public (/state): sealed with them
        if drawn is not None and drawn["type"] == type_:
            return any(payload.get(k) != v for k, v in drawn["fills"].items())
        return self.rs.with_dice is not None and \
            self.rs.with_dice(state, type_, actor, payload, self.tape) is not payload

    def _fill(self, role: str, item: dict, state: Any, seq: int) -> tuple[str, str | None, dict]:
        """The event as it will be judged: with seeded dice, a roll or draw the game waits for
        is made by the server (asked for with an empty payload), and a decision that brings dice
        gets them from the seed; dice sent by a client are refused."""
        type_, actor, payload = item["type"], item.get("actor"), item.get("payload") or {}
        if type_ == RULING_EVENT:
            raise ServiceError(422, "use-rulings", f"a ruling is the organizer's: POST it to "
                               f"/games/{self.game.game_id}/rulings", seq=seq)
        if not isinstance(type_, str) or type_ not in self.rs.payload_models:
            raise ServiceError(422, "unknown-type", f"unknown event type {type_!r} for "
                               f"{self.rs.name}; known: {', '.join(sorted(self.rs.payload_models))}",
                               seq=seq, rule="LOG-UNKNOWN-TYPE")
        if not isinstance(payload, dict):
            raise ServiceError(422, "invalid-payload", "the payload must be a JSON object", seq=seq)
        if self.tape is None:
            return type_, actor, payload
        if type_ == self.rs.seed_event:
            raise ServiceError(422, "dice-by-server", f"the server keeps this game's seed and "
                               f"reveals it ({type_}) when the game is over", seq=seq)
        due = self.rs.chance(state, self.tape) if self.rs.chance is not None else None
        if due is not None and due[0] == type_ and actor in (None, due[1]):
            if payload:
                raise ServiceError(422, "dice-by-server", f"the server rolls this game's dice: "
                                   f"send {type_} with an empty payload to ask for it", seq=seq)
            return due
        drawn = self.table_drawn(state)
        if drawn is not None and drawn["type"] == type_:
            fills = drawn["fills"]
            if any(k in payload and payload[k] != v for k, v in fills.items()):
                raise ServiceError(422, "dice-by-server", f"the server draws this {type_} from the "
                                   f"game's seed: send it without {', '.join(fills)} (the draw "
                                   f"is in /state's draw)", seq=seq)
            return type_, actor, {**payload, **fills}
        if self.rs.with_dice is not None:
            payload = self.rs.with_dice(state, type_, actor, payload, self.tape)
        return type_, actor, payload

    def table_drawn(self, state: Any) -> dict | None:
        """The draw the server has made for an event the table completes (the ruleset's
        `table_chance`: a card only the table can turn over, who won a roll-off), or None."""
        if self.tape is None or self.rs.table_chance is None:
            return None
        return self.rs.table_chance(state, self.tape)

    def _check(self, role: str, seq: int, type_: str, actor: str | None, payload: dict,
               state: Any, seat: str | None) -> Any:
        """Who may append this event now (403 otherwise); in play mode, is it legal (422 with
        its findings otherwise, nothing stored). The state after it."""
        self._authorise(role, seq, type_, actor, state)
        model = self.rs.payload_models[type_]
        try:
            value = model.model_validate(payload)
        except ValidationError as exc:
            if self.game.mode == "record":
                return state
            problems = "; ".join(f"{'.'.join(str(x) for x in e['loc']) or 'payload'}: {e['msg']}"
                                 for e in exc.errors()[:5])
            raise ServiceError(422, "invalid-payload", f"{type_} payload: {problems}", seq=seq,
                               rule="LOG-PAYLOAD") from None
        try:
            violations, nxt = self.rs.step(state, Event(seq, type_, actor, value))
        except Exception as exc:       # the engine must never turn an input into a 500
            raise ServiceError(422, "illegal", f"{type_} cannot be judged here: {exc}", seq=seq) from None
        if self.game.mode == "record":
            return state if nxt is None else nxt
        if violations or nxt is None:
            hidden = V.hidden_from(self.rs, state, seat)
            found = [{"rule": v.rule, "section": v.section, "blocking": v.blocking,
                      "message": WITHHELD if V.withheld(v.message, hidden) else v.message}
                     for v in violations]
            first = found[0] if found else {"rule": None, "message": "the rules cannot carry it out"}
            raise ServiceError(422, "illegal", f"{type_} is refused: {first['message']}", seq=seq,
                               rule=first["rule"], findings=found)
        return nxt

    def _authorise(self, role: str, seq: int, type_: str, actor: str | None, state: Any) -> None:
        if role == SERVER:
            return
        record = self.game.mode == "record"
        if role == ORGANIZER:
            if record or actor is None:
                return
            raise ServiceError(403, "forbidden", f"in play mode {actor}'s decisions are made by "
                               f"{actor}'s seat, not the organizer", seq=seq)
        acting = V.actors_now(self.rs, state)
        if actor is None:
            # a seat that may act now may claim the result (the rules check the claim) or ask
            # the server for the dice it waits for; other unowned events are the organizer's
            if type_ == self.rs.result_event or (self.tape is not None and role in acting):
                if any(role in self.seats_for(a) or a == role for a in acting):
                    return
            raise ServiceError(403, "forbidden", f"{type_} without an actor is the organizer's "
                               f"to append (or the server's)", seq=seq)
        if role not in V.seats_acting_for(self.rs, state, actor, self.game.seats):
            raise ServiceError(403, "forbidden", f"seat {role!r} does not act for {actor!r}",
                               seq=seq)
        if actor not in acting and not (record and actor not in self.game.seats and not acting):
            raise ServiceError(403, "not-your-turn", f"{actor!r} may not act now; waiting for: "
                               f"{', '.join(acting) or 'the dice or the organizer'}", seq=seq)

    def _store(self, store: Any, first: int, envelopes: list[dict]) -> list[Step]:
        try:
            store.append(self.game.game_id, first, envelopes)
        except ConcurrencyConflict:
            self.resync(store)
            raise self._stale(None, first) from None
        except InvalidAppend as exc:
            raise ServiceError(422, "invalid-append", str(exc), seq=first) from None
        lines = store.events(self.game.game_id, since=first)
        return [self._feed(_raw(line)) for line in lines]

    def record_ruling(self, store: Any, role: str | None, payload: dict) -> dict:
        """Store the organizer's ruling on one of the game's events (a RulingRecorded event, at
        any point, the game over or not): 401 without a token, 403 for a seat's, 422 for a
        ruling that cannot stand (unknown-seq: no such event). A ruling that takes events out
        of the game has the game judged again from its start. What was stored: {"head",
        "event", "ruling", "open_findings"}."""
        if role is None:
            raise ServiceError(401, "unauthorized", "recording a ruling needs the organizer's "
                               "token (Authorization: Bearer TOKEN)")
        if role != ORGANIZER:
            raise ServiceError(403, "forbidden", "only the organizer records rulings")
        at = self.next_seq
        p = RulingRecorded.model_validate(payload)
        problem = ruling_problem(p, None, at, self._kind)
        if problem is not None:
            missing = any(s is not None and self._kind(s) is None for s in (p.seq, p.from_))
            raise ServiceError(422, "unknown-seq" if missing else "bad-ruling", problem, seq=p.seq,
                               rule=RULING_RULE)
        if takes_back(RULING_EVENT, payload) and self.tape is not None and \
                self.rs.seed_event in self.types:
            raise ServiceError(409, "seed-revealed", "the seed of this game's dice is revealed: "
                               "no event can be taken out and played again with it", seq=p.seq)
        self._store(store, at, [{"type": RULING_EVENT, "actor": None, "payload": payload}])
        if takes_back(RULING_EVENT, payload):
            fresh = LiveTable.load(store, self.game)
            self.judge, self.steps, self.types = fresh.judge, fresh.steps, fresh.types
            self.reads = {}                 # every step judged again: shown again from scratch
            self._follow_up(store)
        j = self.judge.j
        return {"head": self.head_for(None), "event": self.events_for(None, since=at)[0],
                "ruling": j.rulings[-1].as_dict() if j.rulings else None,
                "open_findings": len(j.open_findings)}

    def _kind(self, seq: int) -> str | None:
        """The type of the stored event at `seq`, None when there is none."""
        return self.steps[seq].raw.type if 0 <= seq < len(self.steps) else None

    def resync(self, store: Any) -> None:
        """Catch up with events another writer stored."""
        for line in store.events(self.game.game_id, since=len(self.steps)):
            self._feed(_raw(line))

    def _follow_up(self, store: Any) -> None:
        """The server's own appends: with seeded dice, the rolls and draws no one decides (the
        game waits for chance and no one may act), and the seed's reveal once the game is over."""
        if self.tape is None:
            return
        for _ in range(10_000):
            if self.finished:
                if self.rs.seed_event is not None and self.steps[-1].raw.type != self.rs.seed_event:
                    self._store(store, self.next_seq, [{"type": self.rs.seed_event, "actor": None,
                                                        "payload": {"seed": self.game.seed}}])
                return
            if self.over or self.rs.chance is None or V.actors_now(self.rs, self.state):
                return
            due = self.rs.chance(self.state, self.tape)
            if due is None:
                return
            type_, actor, payload = due
            self._store(store, self.next_seq, [{"type": type_, "actor": actor, "payload": payload}])


def _raw(line: str) -> RawEvent:
    e = json.loads(line)
    return RawEvent(e["seq"] + 1, e["game"], e["seq"], e["type"], e.get("actor"), e.get("at"),
                    e.get("payload"), e.get("prev"), e.get("hash"), line)


def ruleset_of(name: str) -> Ruleset:
    try:
        return get_ruleset(name)
    except KeyError:
        from engine.core.ruleset import ruleset_names
        raise ServiceError(422, "unknown-ruleset", f"unknown ruleset {name!r}; the rulesets are "
                           f"{', '.join(ruleset_names())}") from None
