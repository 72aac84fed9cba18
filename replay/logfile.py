"""The JSONL game log, format version 1: a lenient reader, an atomic writer and the hash chain.

One JSON object per line (UTF-8, '\\n' line ends), in this key order when written:

    {"v":1,"game":"game42","seq":0,"type":"GameStarted","actor":null,"at":"2024-05-01T18:30:00Z",
     "payload":{...},"prev":null,"hash":"9f2c..."}

- "v" is the format version (1); "game" is the same on every line; "seq" counts from 0 by 1;
- "type" is the event type (the reader does not know the set of types: that is the ruleset's job);
- "actor" is a player id or null; "at" is an optional RFC 3339 timestamp;
- "prev" is the previous event's "hash" (null on seq 0), and "hash" is the hex SHA-256 of the
  canonical JSON of the envelope without its "hash" key. A hand-written log may leave out both.

`read_log` never raises for bad content: it hands back every envelope that parsed and every
problem found, each with its line, under a stable rule id (see `LOG_RULES`). Only a file that
cannot be read at all raises `LogFileError`. What to do about the problems is the caller's choice.
"""

from __future__ import annotations

import gc
import hashlib
import json
import json.encoder
import json.scanner
import os
import stat
import tempfile
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator

from engine.core.canonical import canonical_json
from engine.core.envelope import ENVELOPE, ENVELOPE_KEYS, FIELDS, MAX_SEQ, REQUIRED_KEYS  # noqa: F401  (re-exported)
from engine.core.envelope import envelope_struct
from engine.core.errors import LedgerError
from engine.core.text import seq_text
from engine.core.record import FORMAT_VERSION, event_hash, make_envelope, seal  # noqa: F401  (re-exported)

try:  # a dependency; the reader gives the same results without it, only slower
    import orjson
except ImportError:  # pragma: no cover
    orjson = None


# Every problem the reader reports, by rule id.
LOG_RULES: dict[str, str] = {
    "LOG-EMPTY": "the file has no non-blank lines",
    "LOG-NOT-A-LOG": "no line is a JSON object with \"type\" and \"payload\" keys",
    "LOG-JSON": "a line is not valid JSON (or not UTF-8), or not a JSON object",
    "LOG-TRUNCATED": "the last line has no newline and does not parse: a write was cut off",
    "LOG-ENVELOPE": "a key is missing, has the wrong type or is unknown, or the version is not 1",
    "LOG-GAME-ID": "the game id differs from the first event's",
    "LOG-SEQ-GAP": "seq jumps forward: events are missing",
    "LOG-SEQ-ORDER": "seq goes back, or repeats with different content",
    "LOG-SEQ-DUPLICATE": "a line repeats an earlier one exactly; the repeat is dropped",
    "LOG-FIRST-SEQ": "the first event's seq is not 0",
    "LOG-HASH": "a line's content does not match its own hash: it was edited after sealing",
    "LOG-CHAIN": "a line's prev is not the hash of the event before it",
    "LOG-UNSEALED": "some or all events have no prev/hash, so the chain cannot be checked",
    "LOG-START": "the first event is not a GameStarted naming a ruleset this ledger knows",
    "LOG-MANY-GAMES": "the file holds more than one game (another game id starts again at seq 0)",
    "LOG-RULING": "a ruling (RulingRecorded) that cannot stand: it answers no earlier event of the "
                  "game, answers another ruling, takes out the start, or names a player as actor",
}

# A problem under one of these rules means the hash chain does not vouch for the log.
# LOG-FIRST-SEQ counts too: a chain that does not start at seq 0 is not anchored.
CHAIN_BREAKING_RULES = frozenset(
    {"LOG-HASH", "LOG-CHAIN", "LOG-SEQ-GAP", "LOG-SEQ-ORDER", "LOG-SEQ-DUPLICATE", "LOG-FIRST-SEQ"}
)

# The envelope, as engine/core/envelope.py defines it: the keys, the required ones, each value in
# words. The fast check in _check_lines spells the same rules out by hand (tests/test_envelope.py
# checks that it agrees with the definition).
_KNOWN_KEYS = frozenset(ENVELOPE_KEYS)
_REQUIRED_KEYS = REQUIRED_KEYS
_EXPECTED = {f.name: f.expected for f in ENVELOPE}
_EXCERPT_CHARS = 60



class _NotJson(ValueError):
    """A value json reads but JSON does not have (NaN, Infinity), or a number too long to read."""


def _no_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON number")


# json reads NaN, Infinity and -Infinity by default; a log line is standard JSON (RFC 8259).
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_loads = _DECODER.decode
_sha256 = hashlib.sha256


def _make_canonical_encode() -> Callable[[Any], str]:
    """engine.core.canonical.canonical_json, with the encoder built once instead of per call.

    The reader hashes every line, and json.dumps builds a new encoder each time (about a quarter
    of the hashing cost). Falls back to a plain JSONEncoder if CPython's C encoder is missing or
    does not give exactly the canonical text.
    """
    plain = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_make_encoder is None:
        return plain
    try:
        # markers=None: no cycle check (parsed JSON has no cycles); default=None: parsed JSON has
        # nothing that needs it.
        c_encode = c_make_encoder(
            None, None, json.encoder.encode_basestring, None, ":", ",", True, False, True
        )
        sample = {"b": [1, 2.5, None, True], "a": {"z": "\u00e9\n", "y": {}}, "\u2028": "x"}
        if "".join(c_encode(sample, 0)) != canonical_json(sample):
            return plain
    except Exception:
        return plain
    return lambda value: "".join(c_encode(value, 0))


def _make_parse_line() -> Callable[[str], tuple[Any, str | None]]:
    """Parse one line: (its JSON value, its hash when already proven, else None).

    A written line is parsed and its hash checked with orjson, about three times faster than
    json. orjson with sorted keys writes the canonical text of what it parsed (compact, keys in
    code point order, UTF-8 kept, json's string escapes), so when that text hashes to the hash
    the line claims, the values read are the values that were hashed. Every other line (orjson
    refuses it, it claims no hash, or the hashes differ: orjson reads integers beyond 64 bits
    as floats and spells some floats differently) is parsed again by json, so the values read,
    the error messages and the hash verdict are json's in every case.

    json's own path scans from col 0 directly: json.loads wraps the scanner in two whitespace
    regex matches that a written line does not need; anything unusual goes through json.loads.
    """
    scan_once = json.scanner.make_scanner(_DECODER)

    def stdlib_parse_line(raw: str) -> Any:
        try:
            value, end = scan_once(raw, 0)
        except (StopIteration, ValueError):
            return _loads(raw)
        if end != len(raw):
            return _loads(raw)
        return value

    if orjson is None:
        return lambda raw: (stdlib_parse_line(raw), None)
    loads, dumps, sort_keys = orjson.loads, orjson.dumps, orjson.OPT_SORT_KEYS
    refused = (orjson.JSONDecodeError, orjson.JSONEncodeError, TypeError)

    def parse_line(raw: str) -> tuple[Any, str | None]:
        try:
            value = loads(raw)
            if type(value) is dict:
                claimed = value.pop("hash", None)
                if type(claimed) is str and _sha256(dumps(value, option=sort_keys)).hexdigest() == claimed:
                    value["hash"] = claimed
                    return value, claimed
        except refused:
            pass
        return stdlib_parse_line(raw), None

    return parse_line


def _refuse_float(text: str) -> Any:
    raise ValueError("a float: read by the reader's general path")


def _make_decode_written() -> tuple[Callable[[str], Any], Callable[[Any], bytes], Any] | None:
    """(decode, encode, unset) for the one-pass read of a written line, or None without msgspec.

    `decode(raw)` parses a line and checks its envelope in one C call (`envelope_struct()`: the
    keys, types and bounds of engine/core/envelope.py) and raises on anything else: not JSON,
    not a valid envelope, or a float anywhere in it. `encode(struct)` is the canonical JSON of
    what it parsed, as bytes: for JSON without floats (strings, ints of any size, true, false,
    null, arrays, objects) msgspec's sorted encoding is the text `canonical_json` gives, byte for
    byte (the same escapes, keys in code point order; tests/test_logfile.py checks it over every
    code point). Floats are refused because msgspec spells some of them differently (1e16,
    json 1e+16). A struct key left UNSET (absent from the line) is left out of the encoding."""
    struct = envelope_struct()
    if struct is None:  # pragma: no cover
        return None
    import msgspec
    decode = msgspec.json.Decoder(struct, float_hook=_refuse_float).decode
    encode = msgspec.json.Encoder(order="sorted").encode
    return decode, encode, msgspec.UNSET


_canonical_encode = _make_canonical_encode()
_parse_line = _make_parse_line()
_decode_written = _make_decode_written()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while reading.

    The reader keeps a few acyclic objects per line; with 100k+ of them alive, the collector's
    repeated passes over them cost about a quarter of the read time and free nothing.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@dataclass(slots=True)
class RawEvent:
    """One envelope that parsed, as read: where it was, its fields, and the line itself.

    Read-only by convention, not frozen: a frozen dataclass builds each instance through
    object.__setattr__ per field, 5-6x the cost of a plain slotted one (about 3 of the ~6 us
    the reader spent on a line); the reader makes one per line. Use `dataclasses.replace`."""

    line: int  # 1-based line number in the file
    game: str
    seq: int
    type: str
    actor: str | None
    at: str | None
    payload: dict
    prev: str | None
    hash: str | None
    raw: str  # the line exactly as read, without the trailing newline


@dataclass(frozen=True, slots=True)
class LogProblem:
    """One thing wrong with a log: where (line and seq when known), which rule, what exactly."""

    line: int | None  # None for whole-file problems
    seq: int | None
    rule: str  # a key of LOG_RULES
    message: str


@dataclass
class LogRead:
    """What reading a log gave: the events that parsed, every problem found, the chain verdict."""

    name: str  # the file name as given; callers put it in front of every message
    events: list[RawEvent]  # every envelope that parsed, in file order, exact duplicates dropped
    problems: list[LogProblem]  # in line order, whole-file problems first
    sealed: bool  # there are events and every one carries prev and hash
    chain_ok: bool  # sealed, and no problem under CHAIN_BREAKING_RULES
    head: str | None  # the last event's hash when sealed
    # where each game the file holds starts: (line, game id); more than one when games were
    # concatenated (LOG-MANY-GAMES): then `events` are the first game's
    game_starts: tuple[tuple[int, str], ...] = ()

    @property
    def games(self) -> int:
        """How many games the file holds (0 when it has no event)."""
        return len(self.game_starts) or (1 if self.events else 0)


class LogFileError(LedgerError):
    """The file cannot be read at all: missing, a directory, no permission, not UTF-8 text."""


# --- reading ---------------------------------------------------------------------------------


def read_log(path: str | Path) -> LogRead:
    """Read the log at `path`, reporting every problem; raise `LogFileError` only if unreadable.

    Lines that are not valid UTF-8 are LOG-JSON problems and the rest of the file is still read;
    a file that is not UTF-8 text as a whole (UTF-16, binary data with NUL bytes, no line that
    decodes) raises. A leading UTF-8 BOM is ignored.
    """
    name = str(path)
    problem = path_problem(path, "a log file")
    if problem is not None:
        raise LogFileError(problem)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError as exc:
        raise LogFileError(f"{name}: no such file") from exc
    except IsADirectoryError as exc:
        raise LogFileError(f"{name}: is a directory, not a log file") from exc
    except PermissionError as exc:
        raise LogFileError(f"{name}: permission denied") from exc
    except OSError as exc:
        raise LogFileError(f"{name}: cannot be read ({exc.strerror or exc})") from exc

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LogFileError(f"{name}: is UTF-16 text; a ledger log is UTF-8")
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _read_lines_with_bad_bytes(data, name)
    return _read_lines(text.split("\n"), {}, name)


_KINDS = ((stat.S_ISDIR, "is a directory"), (stat.S_ISFIFO, "is a FIFO (named pipe)"),
          (stat.S_ISSOCK, "is a socket"), (stat.S_ISCHR, "is a character device"),
          (stat.S_ISBLK, "is a block device"))


def path_problem(path: str | Path, what: str = "a file") -> str | None:
    """Why `path` cannot be read as `what` ("x: no such file", "x: is a directory, not a log
    file", "x: is a FIFO (named pipe), not a log file"...), or None for a regular file (or a link
    to one). Checked before opening: reading a FIFO with no writer would wait forever."""
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"{name}: no such file"
    except NotADirectoryError:
        return f"{name}: no such file (a part of the path is not a directory)"
    except PermissionError:
        return f"{name}: permission denied"
    except (OSError, ValueError) as exc:
        return f"{name}: cannot be read ({getattr(exc, 'strerror', None) or exc})"
    if stat.S_ISREG(mode):
        return None
    kind = next((kind for test, kind in _KINDS if test(mode)), "is not a regular file")
    return f"{name}: {kind}, not {what}"


def read_log_text(text: str, name: str = "<text>") -> LogRead:
    """Read a log from a string, exactly as `read_log` reads a file's text."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    undecodable: dict[int, str] = {}
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates, e.g. text decoded with errors="surrogateescape"
        for index, line in enumerate(lines):
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as exc:
                undecodable[index] = f"not valid UTF-8 ({exc.reason} at col {exc.start + 1})"
    return _read_lines(lines, undecodable, name)


def _read_lines_with_bad_bytes(data: bytes, name: str) -> LogRead:
    """Decode line by line, so one line of bad bytes is one problem and the rest is still read.

    A file with NUL bytes, or with no line that decodes, is binary data: `LogFileError`.
    """
    if b"\x00" in data:
        raise LogFileError(f"{name}: is not UTF-8 text (it holds binary data)")
    lines: list[str] = []
    undecodable: dict[int, str] = {}
    for index, chunk in enumerate(data.split(b"\n")):
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError as exc:
            undecodable[index] = f"not valid UTF-8 ({exc.reason} at col {exc.start + 1})"
            lines.append(chunk.decode("utf-8", errors="backslashreplace"))
    nonblank = [index for index, line in enumerate(lines) if line and not line.isspace()]
    if nonblank and all(index in undecodable for index in nonblank):
        raise LogFileError(f"{name}: is not UTF-8 text (no line of it decodes)")
    return _read_lines(lines, undecodable, name)


def _read_lines(lines: list[str], undecodable: dict[int, str], name: str) -> LogRead:
    """Check every line of a split text (the last item is what followed the last '\\n')."""
    with _gc_paused():
        return _check_lines(lines, undecodable, name)


def _check_lines(lines: list[str], undecodable: dict[int, str], name: str) -> LogRead:
    problems: list[LogProblem | None] = []
    events: list[RawEvent] = []
    last_index = len(lines) - 1  # the line after the last '\n': only non-empty if cut short
    nonblank = 0
    looks_like_a_log = False
    first_line_seen: str | None = None
    unparsed: list[str] = []  # lines that are not JSON at all

    game: str | None = None
    max_seq = -1
    previous: RawEvent | None = None  # the last passed-on event
    first_by_seq: dict[int, RawEvent] = {}
    repeats_by_seq: dict[int, list[RawEvent]] = {}
    contents: dict[int, tuple[int, dict[str, RawEvent]]] = {}  # seq -> (events indexed, by content)
    dropped_since_previous: int | None = None  # first line dropped after `previous`
    unsealed_count = 0
    first_unsealed: RawEvent | None = None
    # Problems whose message needs the whole file, filled in at the end: (slot, details).
    pending_gaps: list[tuple[int, int, int, int, int]] = []
    pending_links: list[tuple[int, RawEvent, RawEvent | None, int | None]] = []
    game_starts: list[tuple[int, str]] = []
    if _decode_written is not None:
        decode, encode, unset = _decode_written
    else:  # pragma: no cover
        decode = None

    for index, raw in enumerate(lines):
        if not raw or raw.isspace():
            continue
        nonblank += 1
        line = index + 1
        if first_line_seen is None:
            first_line_seen = raw
        cut_short = index == last_index  # no '\n' after it

        # A line must be UTF-8 text holding one JSON object.
        if undecodable and index in undecodable:
            problems.append(_unparsable(line, raw, undecodable[index], cut_short))
            dropped_since_previous = dropped_since_previous or line
            continue

        # The common line in one pass: a valid envelope of this game, the next seq, sealed onto
        # the event before it, its hash proven. It would pass every check below without a
        # problem; any other line (or any doubt: an exception) is read by the general path.
        if decode is not None and previous is not None:
            try:
                fast = decode(raw)
                at = fast.at
                claimed = fast.hash
                if (fast.seq == max_seq + 1 and fast.game == game and type(claimed) is str
                        and previous.hash is not None and fast.prev == previous.hash
                        and (at is unset or at is None or _is_rfc3339(at))):
                    fast.hash = unset
                    if _sha256(encode(fast)).hexdigest() == claimed:
                        seq = fast.seq
                        event = RawEvent(line, game, seq, fast.type, fast.actor,
                                         None if at is unset else at, fast.payload, fast.prev,
                                         claimed, raw)
                        events.append(event)
                        previous = event
                        looks_like_a_log = True
                        dropped_since_previous = None
                        max_seq = seq
                        first_by_seq[seq] = event
                        continue
            except Exception:
                pass

        try:
            envelope, proven_hash = _parse_line(raw)
        except (ValueError, RecursionError) as exc:
            problems.append(_unparsable(line, raw, _json_error(exc), cut_short))
            unparsed.append(raw)
            # JSON past a limit (too deep, a number too long, NaN) may well be an event
            looks_like_a_log = looks_like_a_log or _is_past_a_limit(exc)
            dropped_since_previous = dropped_since_previous or line
            continue
        if type(envelope) is not dict:
            problems.append(LogProblem(
                line, None, "LOG-JSON",
                f"line {line}: is a JSON {_json_kind(envelope)}, expected an object (an event "
                f"envelope): {_excerpt(raw)}",
            ))
            dropped_since_previous = dropped_since_previous or line
            continue
        if "type" in envelope and "payload" in envelope:
            looks_like_a_log = True
        if game is not None and _starts_another_game(envelope, game):
            # games were concatenated: the first one is this log; the rest are only counted
            game_starts = [(events[0].line, game), *_game_starts(lines, index, name)]
            problems.append(_many_games(name, game_starts))
            break

        # The envelope: the required keys with the right types, nothing unknown.
        v = envelope.get("v")
        game_id = envelope.get("game")
        seq = envelope.get("seq")
        event_type = envelope.get("type")
        actor = envelope.get("actor")
        payload = envelope.get("payload")
        prev = envelope.get("prev")
        stored_hash = envelope.get("hash")
        at = envelope.get("at")
        has_prev = "prev" in envelope
        faults: list[str] = []
        if not (
            v == FORMAT_VERSION and type(v) is int
            and type(game_id) is str and game_id
            and type(seq) is int and 0 <= seq <= MAX_SEQ
            and type(event_type) is str and event_type
            and (actor is None and "actor" in envelope or type(actor) is str)
            and type(payload) is dict
            and (prev is None or type(prev) is str)
            and (stored_hash is None or type(stored_hash) is str)
            and envelope.keys() <= _KNOWN_KEYS
        ):
            faults, passable = _envelope_faults(envelope)
            if not passable:
                good_seq = seq if type(seq) is int and 0 <= seq <= MAX_SEQ else None
                where = _where(line, good_seq)
                if at is not None and not (type(at) is str and _is_rfc3339(at)):
                    faults.append(_at_fault(at))
                problems.extend(
                    LogProblem(line, good_seq, "LOG-ENVELOPE", f"{where}: {fault}")
                    for fault in faults
                )
                dropped_since_previous = dropped_since_previous or line
                continue
            if prev is not None and type(prev) is not str:
                prev = None
                has_prev = False
            if type(stored_hash) is not str:
                stored_hash = None
        # A bad "at" is reported and read as absent; the event still counts.
        if at is not None and not (type(at) is str and _is_rfc3339(at)):
            faults.append(_at_fault(at))
            at = None

        # An exact repeat of an earlier line with the same seq is dropped (a re-sent event).
        if seq <= max_seq and seq in first_by_seq:
            earlier = _same_content_as(envelope, seq, first_by_seq, repeats_by_seq, contents)
            if earlier is not None:
                problems.append(LogProblem(
                    line, seq, "LOG-SEQ-DUPLICATE",
                    f"line {line} (seq {seq_text(seq)}): repeats line {earlier.line} exactly; "
                    f"the repeat is ignored",
                ))
                continue

        if faults:
            where = _where(line, seq)
            problems.extend(LogProblem(line, seq, "LOG-ENVELOPE", f"{where}: {f}") for f in faults)

        # The line's own hash must match its content (an edit after sealing breaks it).
        is_sealed = stored_hash is not None and has_prev
        if stored_hash is not None:
            del envelope["hash"]
            try:
                content_hash = proven_hash or _sha256(_canonical_encode(envelope).encode()).hexdigest()
            except UnicodeEncodeError:
                problems.append(_lone_surrogate(line, seq, raw))
                dropped_since_previous = dropped_since_previous or line
                continue
        elif "\\u" in raw and not _is_unicode(envelope):
            problems.append(_lone_surrogate(line, seq, raw))
            dropped_since_previous = dropped_since_previous or line
            continue

        event = RawEvent(line, game_id, seq, event_type, actor, at, payload, prev, stored_hash, raw)

        # Every event belongs to the game of the first one.
        if game is None:
            game = game_id
        elif game_id != game:
            problems.append(LogProblem(
                line, seq, "LOG-GAME-ID",
                f"{_where(line, seq)}: game id {game_id!r} differs from {game!r}, the game of "
                f"the first event",
            ))

        # The first event has seq 0; each next one the seq after the highest so far.
        if previous is None:
            if seq != 0:
                problems.append(LogProblem(
                    line, seq, "LOG-FIRST-SEQ",
                    f"{_where(line, seq)}: the first event has seq {seq_text(seq)}, expected 0 "
                    f"(the start of the log is missing)",
                ))
        elif seq > max_seq + 1:
            pending_gaps.append((len(problems), line, seq, max_seq + 1, seq - 1))
            problems.append(None)
        elif seq <= max_seq:
            problems.append(_out_of_order(event, first_by_seq.get(seq), max_seq, first_by_seq))

        if stored_hash is not None and content_hash != stored_hash:
            problems.append(LogProblem(
                line, seq, "LOG-HASH",
                f"{_where(line, seq)}: content does not match its hash — the line was edited "
                f"after it was sealed",
            ))

        # Each sealed event's prev is the hash of the event before it; seq 0 has none.
        if is_sealed:
            if seq == 0:
                if prev is not None:
                    pending_links.append((len(problems), event, None, dropped_since_previous))
                    problems.append(None)
            elif previous is not None and previous.hash is not None and prev != previous.hash:
                pending_links.append((len(problems), event, previous, dropped_since_previous))
                problems.append(None)
        else:
            unsealed_count += 1
            if first_unsealed is None:
                first_unsealed = event

        events.append(event)
        previous = event
        dropped_since_previous = None
        if seq > max_seq:
            max_seq = seq
        if seq in first_by_seq:
            repeats_by_seq.setdefault(seq, []).append(event)
        else:
            first_by_seq[seq] = event

    # Whole-file verdicts.
    if nonblank == 0:
        problem = LogProblem(None, None, "LOG-EMPTY", "the file has no events (no non-blank lines)")
        return LogRead(name, [], [problem], sealed=False, chain_ok=False, head=None)
    if not looks_like_a_log and not _reads_like_events(unparsed):
        problem = LogProblem(
            None, None, "LOG-NOT-A-LOG",
            f"not a ledger log: none of its {nonblank} non-blank lines is a JSON object with "
            f'"type" and "payload" keys; it begins {_excerpt(first_line_seen or "")}',
        )
        return LogRead(name, [], [problem], sealed=False, chain_ok=False, head=None)

    if pending_gaps:
        present = sorted(first_by_seq)
        for slot, line, seq, low, high in pending_gaps:
            problems[slot] = _gap(line, seq, low, high, present)
    if pending_links:
        by_hash = {event.hash: event for event in events if event.hash is not None}
        for slot, event, before, dropped_line in pending_links:
            problems[slot] = _broken_link(event, before, dropped_line, by_hash)
    if unsealed_count:
        problems.append(_unsealed(unsealed_count, len(events), first_unsealed))

    found = sorted((p for p in problems if p is not None), key=_problem_order)
    sealed = bool(events) and unsealed_count == 0
    chain_ok = sealed and not any(p.rule in CHAIN_BREAKING_RULES for p in found)
    head = events[-1].hash if sealed else None
    return LogRead(name, events, found, sealed=sealed, chain_ok=chain_ok, head=head,
                   game_starts=tuple(game_starts))


def _starts_another_game(envelope: dict, game: str) -> bool:
    """Does this envelope start a game other than `game`: seq 0, no prev, another game id?"""
    return (type(envelope.get("seq")) is int and envelope["seq"] == 0
            and envelope.get("prev") is None
            and type(envelope.get("game")) is str and envelope["game"] != game)


def _game_starts(lines: list[str], start: int, name: str) -> list[tuple[int, str]]:
    """(line, game id) of every game that starts from index `start` on: the lines are only
    parsed, not checked (one pass, so a file of thousands of games is read in linear time)."""
    starts: list[tuple[int, str]] = []
    game = None
    for index in range(start, len(lines)):
        raw = lines[index]
        if '"seq"' not in raw or not raw.strip():
            continue
        try:
            envelope, _ = _parse_line(raw)
        except (ValueError, RecursionError):
            continue
        if type(envelope) is dict and (game is None or _starts_another_game(envelope, game)) \
                and envelope.get("seq") == 0 and type(envelope.get("game")) is str:
            game = envelope["game"]
            starts.append((index + 1, game))
    return starts


def _many_games(name: str, starts: list[tuple[int, str]]) -> LogProblem:
    shown = ", ".join(f"{gid!r} at line {line}" for line, gid in starts[:4])
    more = f" and {len(starts) - 4:,} more" if len(starts) > 4 else ""
    line, gid = starts[1]
    return LogProblem(
        line, 0, "LOG-MANY-GAMES",
        f"this file holds {len(starts):,} games ({shown}{more}), not one: game {gid!r} starts "
        f"again at seq 0 on line {line}; only the first game is read — split the file into "
        f"one log per game: ledger split {name} --out DIR",
    )


def _reads_like_events(lines: list[str]) -> bool:
    """Whether a line that is not JSON still names the keys of an event: then the file is a log
    with unreadable lines, each reported with its reason, not "not a log"."""
    return any('"type"' in raw and '"payload"' in raw for raw in lines)


def _problem_order(problem: LogProblem) -> int:
    return 0 if problem.line is None else problem.line


def _where(line: int, seq: int | None) -> str:
    return f"line {line}" if seq is None else f"line {line} (seq {seq_text(seq)})"



def _excerpt(raw: str) -> str:
    if len(raw) <= _EXCERPT_CHARS:
        return repr(raw)
    return repr(raw[:_EXCERPT_CHARS]) + "..."


def _is_past_a_limit(exc: ValueError | RecursionError) -> bool:
    """Whether a line failed to parse for a limit of the reader (nesting, number length, NaN)
    rather than for its syntax: such a line is JSON, and may be an event."""
    return isinstance(exc, (RecursionError, _NotJson)) or _is_digits_error(exc)


def _is_digits_error(exc: BaseException) -> bool:
    """Python's refusal of an integer of more than sys.get_int_max_str_digits() digits."""
    text = str(exc)
    return "int_max_str_digits" in text or "digits" in text and "integer" in text


def _json_error(exc: ValueError | RecursionError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        # json says "Unterminated string starting at" and then gives the place: one "at"
        return f"not valid JSON ({exc.msg.removesuffix(' at')} at col {exc.colno})"
    if isinstance(exc, RecursionError):
        return "not valid JSON (nested too deeply)"
    if isinstance(exc, _NotJson):
        return f"not valid JSON ({exc})"
    if _is_digits_error(exc):
        return "not valid JSON for a log (a number with more than 4,300 digits)"
    return f"not valid JSON ({exc})"


def _unparsable(line: int, raw: str, reason: str, cut_short: bool) -> LogProblem:
    if cut_short:
        return LogProblem(
            line, None, "LOG-TRUNCATED",
            f"line {line}: the last line has no newline and is {reason} — the write was cut off "
            f"mid-line: {_excerpt(raw)}",
        )
    return LogProblem(line, None, "LOG-JSON", f"line {line}: {reason}: {_excerpt(raw)}")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _is_valid(key: str, value: Any) -> bool:
    """Is `value` a value of envelope key `key` (engine/core/envelope.py)?"""
    return FIELDS[key].accepts(value)


def _envelope_faults(envelope: dict) -> tuple[list[str], bool]:
    """Every fault of an envelope that failed the quick check, and whether it can be passed on.

    A missing or invalid required key stops the event; a bad prev/hash or an unknown key does not.
    """
    faults: list[str] = []
    passable = True
    for key in _REQUIRED_KEYS:
        if key not in envelope:
            faults.append(f'the envelope has no "{key}" key; expected {_EXPECTED[key]}')
            passable = False
            continue
        value = envelope[key]
        if _is_valid(key, value):
            continue
        passable = False
        if key == "v" and type(value) is int:
            faults.append(
                f"unsupported format version {value}; this ledger reads version {FORMAT_VERSION}"
            )
        else:
            faults.append(
                f'"{key}" must be {_EXPECTED[key]}, found {_value_text(value)} ({_json_kind(value)})'
            )
    for key in ("prev", "hash"):
        if key in envelope and envelope[key] is not None and not _is_valid(key, envelope[key]):
            value = envelope[key]
            faults.append(
                f'"{key}" must be {_EXPECTED[key]}, found {_value_text(value)} ({_json_kind(value)}); '
                f"read as absent"
            )
    unknown = [key for key in envelope if key not in _KNOWN_KEYS]
    if unknown:
        names = ", ".join(repr(key) for key in unknown)
        faults.append(
            f"unknown envelope key{'s' if len(unknown) > 1 else ''} {names}; "
            f"expected only {', '.join(ENVELOPE_KEYS)}"
        )
    return faults, passable


def _value_text(value: Any) -> str:
    """A found value for a message, cut short when long (a 500-digit number, a long string)."""
    if type(value) is int:
        return seq_text(value)
    text = repr(value)
    return text if len(text) <= _EXCERPT_CHARS else text[:_EXCERPT_CHARS] + "..."


def _at_fault(at: Any) -> str:
    return (
        f'"at" must be an RFC 3339 timestamp such as \'2024-05-01T18:30:00Z\', found {at!r}; '
        f"read as absent"
    )


def _is_rfc3339(text: str) -> bool:
    """Is `text` an RFC 3339 date-time: 'YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM)'?"""
    if len(text) < 20 or text[4] != "-" or text[7] != "-" or text[10] not in "Tt ":
        return False
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return False
    return moment.tzinfo is not None


def _lone_surrogate(line: int, seq: int, raw: str) -> LogProblem:
    return LogProblem(
        line, seq, "LOG-JSON",
        f"{_where(line, seq)}: holds a \\u escape of a lone surrogate, which is not Unicode "
        f"text: {_excerpt(raw)}",
    )


def _is_unicode(envelope: dict) -> bool:
    try:
        _canonical_encode(envelope).encode()
    except UnicodeEncodeError:
        return False
    return True


def _same_content_as(
    envelope: dict, seq: int, first_by_seq: dict[int, RawEvent],
    repeats_by_seq: dict[int, list[RawEvent]], contents: dict[int, tuple[int, dict[str, RawEvent]]],
) -> RawEvent | None:
    """The earlier event with this seq whose envelope is canonically equal, if any.

    Each earlier event is put in canonical form once, the first time a later line shares its
    seq, and indexed by it: a file of many games (every seq repeated once a game) is read in
    linear time, not by comparing each line with every earlier one."""
    same_seq = [first_by_seq[seq], *repeats_by_seq.get(seq, ())]
    done, by_content = contents.get(seq, (0, {}))
    for earlier in same_seq[done:]:
        by_content.setdefault(canonical_json(_loads(earlier.raw)), earlier)
    contents[seq] = (len(same_seq), by_content)
    return by_content.get(canonical_json(envelope))


def _out_of_order(
    event: RawEvent, same_seq: RawEvent | None, max_seq: int, first_by_seq: dict[int, RawEvent]
) -> LogProblem:
    where = _where(event.line, event.seq)
    if same_seq is not None:
        message = (
            f"{where}: repeats the seq of line {same_seq.line} with different content; "
            f"each seq is one event"
        )
    else:
        highest = first_by_seq[max_seq]
        message = (
            f"{where}: comes after seq {seq_text(max_seq)} (line {highest.line}); "
            f"events must be in seq order"
        )
    return LogProblem(event.line, event.seq, "LOG-SEQ-ORDER", message)


def _gap(line: int, seq: int, low: int, high: int, present: list[int]) -> LogProblem | None:
    """The seqs low..high that no line of the file holds, as a LOG-SEQ-GAP (None if all do).

    Seqs that turn up later in the file are out of order, not missing: reported where they are.
    """
    missing: list[str] = []
    start = low
    for found in present[bisect_left(present, low):bisect_right(present, high)]:
        if found > start:
            missing.append(f"{seq_text(start)}..{seq_text(found - 1)}")
        start = found + 1
    if start <= high:
        missing.append(f"{seq_text(start)}..{seq_text(high)}")
    if not missing:
        return None
    return LogProblem(
        line, seq, "LOG-SEQ-GAP",
        f"line {line} (seq {seq_text(seq)}): events {' and '.join(missing)} are missing",
    )


def _short(digest: str) -> str:
    return repr(digest[:12] + "...") if len(digest) > 12 else repr(digest)


def _broken_link(
    event: RawEvent, before: RawEvent | None, dropped_line: int | None,
    by_hash: dict[str, RawEvent],
) -> LogProblem:
    where = _where(event.line, event.seq)
    if before is None:
        message = (
            f'{where}: seq 0 starts the chain, so its "prev" must be null, found '
            f"{_short(event.prev)}"
        )
        return LogProblem(event.line, event.seq, "LOG-CHAIN", message)
    message = (
        f'{where}: "prev" is not the hash of the event before it (seq {seq_text(before.seq)}, '
        f"line {before.line})"
    )
    target = by_hash.get(event.prev) if event.prev is not None else None
    if target is not None:
        message += (
            f"; it is the hash of seq {seq_text(target.seq)} (line {target.line}) — events were "
            f"reordered or one was inserted"
        )
    elif dropped_line is not None:
        message += f"; line {dropped_line} in between could not be read"
    else:
        message += (
            "; no event in the file has that hash — an event was deleted before this line, "
            "or the line before was re-sealed after an edit"
        )
    return LogProblem(event.line, event.seq, "LOG-CHAIN", message)


def _unsealed(count: int, total: int, first: RawEvent | None) -> LogProblem:
    if count == total or first is None:
        events = "the only event is not" if total == 1 else f"none of the {total} events is"
        return LogProblem(
            None, None, "LOG-UNSEALED",
            f'{events} sealed (no "prev"/"hash"); the hash chain cannot be checked',
        )
    return LogProblem(
        first.line, first.seq, "LOG-UNSEALED",
        f'{count} of {total} events are not sealed (no "prev"/"hash"), the first at '
        f"{_where(first.line, first.seq)}; the hash chain cannot be checked",
    )


# --- sealing and writing ---------------------------------------------------------------------


# event_hash, seal and make_envelope are engine.core.record's (imported above): one hash chain.


def format_line(envelope: dict) -> str:
    """One log line for `envelope`, no newline: keys in ENVELOPE_KEYS order, compact JSON.

    "at" is left out when None or absent; "prev" and "hash" when absent. Keys outside the
    envelope (which the reader will flag) follow, in their given order.
    """
    ordered = {key: envelope[key] for key in ENVELOPE_KEYS if key in envelope}
    if "at" in ordered and ordered["at"] is None:
        del ordered["at"]
    for key, value in envelope.items():
        if key not in _KNOWN_KEYS:
            ordered[key] = value
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_log(path: str | Path, envelopes: list[dict]) -> None:
    """Write `envelopes` to `path`, one line each, atomically (`write_atomically`).

    OSError (no such folder, no permission, the disk is full) is raised as is, and the file
    at `path` is then as it was.
    """
    text = "".join(format_line(envelope) + "\n" for envelope in envelopes)
    write_atomically(path, text.encode("utf-8"))


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` all or nothing: a temporary file beside it, synced, then renamed
    over it, so readers see the old file or the new one, never half of it. A new file gets mode
    0644, an existing one keeps its mode. On any error (the disk is full) the temporary file is
    removed and the error raised: nothing is left behind."""
    path = Path(path)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
