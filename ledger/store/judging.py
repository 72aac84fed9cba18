"""How the store judges a game: a whole log at once (ingest, recheck, an append with nothing to
resume), or only an append's new events with the game's live judge.

A live game (`LiveGame`) is the default judge fed up to the game's head and not concluded, with
the analytics rows its last conclusion wrote. The store keeps the live games it appended to in
memory, checked against the stored head when it writes, and their carry (`Judge.carry`) in
`game_states`: at ingest, whenever an append judged the whole game, every CARRY_EVERY events and
when the store closes. A store opened afresh resumes a game from its carry and the stored events
after it, so a crash costs at most CARRY_EVERY events judged again, never a wrong row.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Sequence

from engine.core.rulings import takes_back
from ledger.store.mapper import _judgement_rows, _Judged, read_fingerprint
from ledger.store.refusals import _refusal, _stored_form
from replay.logfile import LogRead, RawEvent

# A live game's carry is saved when its head is this many events past the saved one (and at
# ingest, after a whole judgement and on close): what a restart may have to judge again.
CARRY_EVERY = 32
# Live games a store keeps in memory (the least recently appended is dropped first).
LIVE_GAMES = 64


def _default_judge(read: LogRead) -> Any:
    from replay.judge import judge
    return judge(read)


def _default_extract(read: LogRead) -> Any:
    from analytics.extract import extract_rows
    return extract_rows(read)


def _judge_rows(read: LogRead, judge_fn: Callable[[LogRead], Any],
                extract_fn: Callable[[LogRead], Any] | None = None, *,
                carried: bool = False, memo: Any = None) -> _Judged:
    """Judge a log in its stored form and map the judgement to rows (without the timestamps);
    with `extract_fn`, also the game's analytics rows (analytics.extract). With the default
    judge and `carried`, the rows keep the judge's carry at the head (`_Judged.carry`); `memo`
    (engine.core.memo.Memo) is what the analytics fold may recall instead of computing."""
    if judge_fn is _default_judge and extract_fn is _default_extract:
        judged, live = judge_whole(read, memo)
        if carried and live is not None:
            judged.carry = live.judge.carry()
        return judged
    judged = _judgement_rows(read, judge_fn(read))
    if extract_fn is not None:
        judged.analytics = extract_fn(read).tables
    return judged


def judge_for_store(read: LogRead) -> tuple[tuple[int, str | None], _Judged] | None:
    """What the store's default judge makes of a log, computed where the caller likes (a worker
    process, ahead of the write): (the read's fingerprint, its judged rows, the carry included);
    None for a log the store refuses whole. Pass it to `ingest_reads(prejudged=...)`; the store
    uses it only for a read with the same fingerprint (event count and last hash), else it
    judges the read itself."""
    if _refusal(read) is not None:
        return None
    return read_fingerprint(read), _judge_rows(_stored_form(read), _default_judge,
                                               _default_extract, carried=True)


def _tables_taken(tables: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The rows in `tables`, taken out (the lists are emptied, the fold keeps appending to them)."""
    taken = {t: list(rows) for t, rows in tables.items() if rows}
    for rows in tables.values():
        rows.clear()
    return taken


def _merged(*parts: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for part in parts:
        for table, rows in part.items():
            out.setdefault(table, []).extend(rows)
    return out


def _changed(old: dict[str, list[tuple]], new: dict[str, list[tuple]]
             ) -> tuple[dict[str, list[tuple]], dict[str, list[tuple]]]:
    """(the rows of `old` not in `new`, the rows of `new` not in `old`), by table."""
    gone: dict[str, list[tuple]] = {}
    came: dict[str, list[tuple]] = {}
    for table in old.keys() | new.keys():
        before, after = old.get(table, []), new.get(table, [])
        kept, fresh = set(after), set(before)
        if rows := [r for r in before if r not in kept]:
            gone[table] = rows
        if rows := [r for r in after if r not in fresh]:
            came[table] = rows
    return gone, came


@dataclass
class Advanced:
    """What an append's new events make: the rows to write, and the analytics rows the game's
    previous conclusion wrote that are no longer true (to delete first)."""

    events: list[RawEvent]
    judged: _Judged
    retract: dict[str, list[tuple]]


@dataclass
class LiveGame:
    """A stored game's judge, fed up to the game's head (not concluded), with what the store
    holds of it. `advance` changes it: if the write that follows fails, drop it."""

    judge: Any                               # replay.judge.Judge
    first: RawEvent                          # the game's first event (its players and date)
    head: RawEvent                           # the last event judged
    concluded: dict[str, list[tuple]]        # the rows the conclusion at the head wrote
    saved_seq: int | None = None             # the seq of its carry in game_states
    judged_at: datetime | None = None        # the games row's judged_at it was written with
    game_row: dict[str, Any] | None = None   # the games row last written, when known

    @property
    def game_id(self) -> str:
        return self.first.game

    @property
    def count(self) -> int:
        """The events judged (the seq the next append expects)."""
        return self.head.seq + 1

    @property
    def needs_saving(self) -> bool:
        return self.saved_seq is None or self.head.seq - self.saved_seq >= CARRY_EVERY

    def can_continue(self, new: Sequence[RawEvent]) -> bool:
        """Can `new` be judged from here? Not when one reveals the seed: the dice of every event
        are checked against it from the start, so the whole game is judged again; nor when one
        is a ruling that takes events out of the game (void, replay-from): the events after
        them are judged again without them."""
        seed_event = self.judge.rs.seed_event
        return all(e.type != seed_event and not takes_back(e.type, e.payload) for e in new)

    def advance(self, new: Sequence[RawEvent], name: str) -> Advanced:
        """Judge `new`, the events after the head (lines numbered seq + 1, as stored)."""
        judge_ = self.judge
        j = judge_.j
        before = len(j.findings)
        count = new[-1].seq + 1
        j.file, j.events, j.head = name, count, new[-1].hash
        tables = _tables_of(judge_)
        for raw in new:
            judge_.feed(raw)
        settled = _tables_taken(tables)
        concluded_j = judge_.peek()
        concluded = _tables_taken(tables)
        retract, added = _changed(self.concluded, concluded)
        read = LogRead(name, [self.first, *new], [], True, True, new[-1].hash)
        judged = _judgement_rows(read, concluded_j, event_count=count, findings_from=before)
        judged.analytics = _merged(settled, added)
        self.head, self.concluded = new[-1], concluded
        return Advanced(list(new), judged, retract)

    def carry_row(self) -> tuple:
        """The game_states row (without its timestamp) keeping this judge at its head."""
        j = self.judge.j
        return (self.game_id, self.head.seq, j.ruleset_version, j.data_digest, self.judge.carry())


def _tables_of(judge_: Any) -> dict[str, list[tuple]]:
    return judge_.observer.t if judge_.observer is not None else {}


def judge_whole(read: LogRead, memo: Any = None) -> tuple[_Judged, LiveGame | None]:
    """What the default judge makes of a whole stored-form log, as rows (analytics from the same
    fold, which may recall values from `memo`), and the game live at its head (None when its
    start cannot be judged)."""
    from analytics.extract import fold_for
    from replay.judge import Judge

    judge_ = Judge(keep_steps=False, observer=fold_for(read, memo=memo))
    j = judge_.start(read)
    if not judge_.started:
        return _judgement_rows(read, j), None
    tables = _tables_of(judge_)
    for raw in read.events[1:]:
        judge_.feed(raw)
    settled = _tables_taken(tables)
    j = judge_.peek()
    concluded = _tables_taken(tables)
    judged = _judgement_rows(read, j)
    judged.analytics = _merged(settled, concluded)
    return judged, LiveGame(judge_, read.events[0], read.events[-1], concluded)


def resume_live(blob: bytes, first: RawEvent, at: RawEvent,
                since: Sequence[RawEvent]) -> LiveGame | None:
    """The game live at its head from a carry made at event `at` and the stored events after it
    (`since`; lines numbered seq + 1): None when the carry cannot be used (unreadable, another
    ruleset version or data, not made at `at`, or `since` reveals the seed)."""
    from replay.judge import Judge

    try:
        judge_ = Judge.resume(blob)
    except Exception:               # a carry an older engine pickled: judge the whole game
        return None
    rs, j = judge_.rs, judge_.j
    if (j.ruleset_version, j.data_digest) != (rs.version, rs.data_digest(judge_.data)) \
            or judge_.last_seq != at.seq:
        return None
    live = LiveGame(judge_, first, since[-1] if since else at, {}, at.seq)
    if not live.can_continue(since):
        return None
    tables = _tables_of(judge_)
    for raw in since:               # judged already: their rows and findings are stored
        judge_.feed(raw)
    _tables_taken(tables)
    judge_.peek()
    live.concluded = _tables_taken(tables)
    return live


class LiveGames:
    """The live games of one store, least recently used dropped first when there are more
    than `size`. `take` removes a game (an append uses it, then `put`s it back once written)."""

    def __init__(self, size: int = LIVE_GAMES):
        self.size = size
        self._games: OrderedDict[str, LiveGame] = OrderedDict()

    def take(self, game_id: str) -> LiveGame | None:
        return self._games.pop(game_id, None)

    def put(self, live: LiveGame) -> None:
        self._games[live.game_id] = live
        self._games.move_to_end(live.game_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def drop(self, game_ids: Sequence[str] | None = None) -> None:
        """Forget these games (all, without `game_ids`): another judgement replaced them."""
        if game_ids is None:
            self._games.clear()
        for game_id in game_ids or ():
            self._games.pop(game_id, None)

    def unsaved(self) -> list[LiveGame]:
        """The live games whose carry in game_states is behind their head."""
        return [g for g in self._games.values() if g.saved_seq != g.head.seq]
