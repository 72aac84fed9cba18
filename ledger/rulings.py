"""Adding an organizer's ruling to a game (`ledger rule`): a RulingRecorded event checked against
the game's events, then appended, hash-chained, to a log file or through a store's append
(docs/log-format.md, "RulingRecorded").

    payload = ruling_payload(57, "the Siege Weapon was there", "accept", by="J. Smith")
    envelope = append_to_file(Path("game.jsonl"), payload)
    envelope = append_to_store(store, "game42", payload)

A ruling that cannot be added raises RulingRefused (`no_such` when it names an event the game
does not have); nothing is written then."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from engine.core.errors import LedgerError
from engine.core.record import event_hash, make_envelope
from ledger import exitcodes
from engine.core.rulings import RULING_EVENT, RulingRecorded, ruling_problem
from replay.logfile import LogRead, format_line, read_log, write_atomically

# Problems of a log after which a line cannot be appended safely: where it ends is not clear.
_NO_END = ("LOG-TRUNCATED", "LOG-MANY-GAMES", "LOG-NOT-A-LOG", "LOG-EMPTY")
# How often an append to a store is tried again when another writer came first.
STORE_TRIES = 5


class RulingRefused(LedgerError):
    """A ruling that is not added: the message says why. `no_such`: it names an event the game
    does not have; `malformed`: the log cannot take another line."""

    def __init__(self, message: str, *, no_such: bool = False, malformed: bool = False):
        super().__init__(message)
        self.no_such, self.malformed = no_such, malformed
        self.exit_code = (exitcodes.NO_SUCH if no_such else exitcodes.MALFORMED if malformed
                          else exitcodes.USAGE)


def now_text() -> str:
    """The time now, UTC, to the second, as a log's "at" writes it."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ruling_payload(seq: int, text: str, decision: str, *, by: str | None = None,
                   from_: int | None = None) -> dict[str, Any]:
    """The payload of a ruling, validated (RulingRefused naming what is wrong)."""
    payload: dict[str, Any] = {"seq": seq, "decision": decision, "text": text}
    if by is not None:
        payload["by"] = by
    if from_ is not None:
        payload["from"] = from_
    try:
        RulingRecorded.model_validate(payload)
    except ValidationError as exc:
        problems = "; ".join(_error_text(e) for e in exc.errors()[:3])
        raise RulingRefused(f"the ruling is not valid: {problems}") from None
    return payload


def _error_text(error: dict) -> str:
    where = ".".join(str(x) for x in error.get("loc", ()))
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def check_ruling(payload: dict[str, Any], events: Iterable[tuple[int, str]], at: int) -> None:
    """RulingRefused unless the ruling can stand when logged at seq `at` after `events` (the
    (seq, type) of the game's events): `no_such` when it names a seq the game does not have."""
    kinds = {seq: type_ for seq, type_ in events}
    p = RulingRecorded.model_validate(payload)
    for seq in (p.seq, p.from_):
        if seq is not None and seq not in kinds:
            have = f"its events are seq 0-{at - 1}" if at > 0 else "it has no events"
            raise RulingRefused(f"there is no event with seq {seq} in this game ({have})",
                                no_such=True)
    problem = ruling_problem(p, None, at, kinds.get)
    if problem is not None:
        raise RulingRefused(problem)


def _end_of(read: LogRead) -> tuple[int, str | None]:
    """The seq the next line of a log takes, and the hash it chains onto (None: unsealed)."""
    last = max(read.events, key=lambda e: e.seq)
    return last.seq + 1, read.events[-1].hash


def append_to_file(path: Path, payload: dict[str, Any], at: str | None = None) -> dict:
    """Append a ruling to the log file at `path`: the next seq, chained onto the last line when
    the log is sealed, written atomically (the file is whole before and after). The envelope
    written. RulingRefused for a ruling or a log that cannot take it (nothing is written);
    LogFileError for a file that cannot be read; OSError for one that cannot be written."""
    read = read_log(path)
    blocking = [p for p in read.problems if p.rule in _NO_END]
    if blocking or not read.events:
        why = "; ".join(p.message for p in blocking) or "it has no events"
        raise RulingRefused(f"the log cannot take another line: {why}", malformed=True)
    at_seq, prev = _end_of(read)
    check_ruling(payload, ((e.seq, e.type) for e in read.events), at_seq)
    envelope = make_envelope(read.events[0].game, at_seq, RULING_EVENT, None, payload,
                             at=at or now_text())
    if prev is not None:
        envelope["prev"] = prev
        envelope["hash"] = event_hash(envelope)
    data = Path(path).read_bytes()
    if data and not data.endswith(b"\n"):
        data += b"\n"
    write_atomically(path, data + (format_line(envelope) + "\n").encode("utf-8"))
    return envelope


def append_to_store(store: Any, game_id: str, payload: dict[str, Any],
                    at: str | None = None) -> dict:
    """Append a ruling to a stored game through the store's append (which seals it and judges
    it; a ruling that takes events out has the whole game judged again). The envelope stored.
    RulingRefused for a ruling that cannot stand; the store's errors (GameNotFound, ...) as
    they are."""
    from ledger.store import ConcurrencyConflict, load_log_from_store

    stamp = at or now_text()
    for attempt in range(STORE_TRIES):
        read = load_log_from_store(store, game_id)
        if not read.events:
            raise RulingRefused(f"game {game_id!r} has no events", malformed=True)
        at_seq, _ = _end_of(read)
        check_ruling(payload, ((e.seq, e.type) for e in read.events), at_seq)
        try:
            store.append(game_id, at_seq, [{"type": RULING_EVENT, "actor": None, "at": stamp,
                                            "payload": payload}])
        except ConcurrencyConflict:
            if attempt == STORE_TRIES - 1:
                raise
            continue
        return json.loads(store.events(game_id)[at_seq])
    raise AssertionError("unreachable")            # the last try returns or raises
