"""The refusal rules (STORE-*): what the store will not hold, checked before anything is written,
and the sealing of appended envelopes onto a stored head."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ledger.store.errors import InvalidAppend
from ledger.store.interface import log_text
from replay.logfile import FORMAT_VERSION, LogProblem, LogRead, event_hash, read_log_text

STORE_RULES: dict[str, str] = {
    "STORE-UNREADABLE": "the file cannot be read (missing, a directory, binary, not UTF-8)",
    "STORE-NO-EVENTS": "no line of the file is a log event (empty, another format)",
    "STORE-UNSEALED": "the log has no hash chain; seal it first (ledger seal FILE)",
    "STORE-CHAIN": "the hash chain is broken: an edited, inserted, deleted or reordered line",
    "STORE-CONTRADICTS": "the store holds a different history for this game id",
    "STORE-MANY-GAMES": "the file holds several games; split it first (ledger split FILE)",
}

# Reader problems that mean the events do not form one intact chain from seq 0. An exact
# duplicate line (LOG-SEQ-DUPLICATE) is not among them: the reader drops the repeat, and a
# re-sent identical event is a no-op; the dropped line is kept in `rejects`.
_CHAIN_RULES = frozenset(
    {"LOG-HASH", "LOG-CHAIN", "LOG-SEQ-GAP", "LOG-SEQ-ORDER", "LOG-FIRST-SEQ", "LOG-GAME-ID"}
)



@dataclass(frozen=True)
class _Refusal:
    rule: str
    message: str
    line: int | None = None
    seq: int | None = None


def _refusal(read: LogRead) -> _Refusal | None:
    """Why `read` cannot be stored as one intact chain from seq 0, or None if it can."""
    name = read.name
    if not read.events:
        whole = [p for p in read.problems if p.line is None]
        if whole and whole[0].rule.startswith("STORE-"):
            return _Refusal(whole[0].rule, whole[0].message)
        why = "; ".join(p.message for p in whole) or "no line could be read as an event"
        return _Refusal("STORE-NO-EVENTS", f"no event to store: {why}")
    many = next((p for p in read.problems if p.rule == "LOG-MANY-GAMES"), None)
    if many is not None:
        return _Refusal("STORE-MANY-GAMES",
                        f"this file holds {read.games:,} games, not one (another starts at line "
                        f"{many.line}); nothing of it is stored — split it into one log per "
                        f"game first: ledger split {name} --out DIR", many.line, many.seq)
    if not read.sealed:
        unsealed = sum(1 for e in read.events if e.hash is None or
                       (e.prev is None and e.seq != 0))
        return _Refusal("STORE-UNSEALED",
                        f"{unsealed} of {len(read.events)} events have no hash chain; "
                        f"the store keeps only sealed logs — seal it first: ledger seal {name}")
    broken = [p for p in read.problems if p.rule in _CHAIN_RULES]
    if broken:
        first = broken[0]
        more = f" (and {len(broken) - 1} more problem{'s' if len(broken) > 2 else ''})" \
            if len(broken) > 1 else ""
        return _Refusal("STORE-CHAIN", f"the hash chain is broken: {first.rule}: "
                        f"{first.message}{more}")
    # What the reader vouched for, checked once more (as whole lists: this runs per event).
    events = read.events
    hashes = [e.hash for e in events]
    if ([e.seq for e in events] != list(range(len(events)))
            or [e.prev for e in events] != [None, *hashes[:-1]]
            or any(e.game != events[0].game for e in events)):
        return _Refusal("STORE-CHAIN", "the events are not one chain from seq 0 "
                        "(seq, prev or game id out of line)")
    return None


def _stored_form(read: LogRead) -> LogRead:
    """The log as the store will hold it: its events' lines and nothing else.

    Judging this form (not the file) makes findings name the stored lines, so a recheck compares
    like with like; problems with lines that are not stored go to `rejects` instead.
    """
    if not read.problems and [e.line for e in read.events] == list(range(1, len(read.events) + 1)):
        return read
    return read_log_text(log_text(e.raw for e in read.events), read.name)


def _dropped_lines(read: LogRead) -> list[LogProblem]:
    """The reader's problems with lines that are not among the log's events (not stored)."""
    kept = {e.line for e in read.events}
    return [p for p in read.problems if p.line is not None and p.line not in kept]


def _line_text(lines: Sequence[str] | None, line: int | None) -> str | None:
    if lines is None or line is None or not 0 < line <= len(lines):
        return None
    return lines[line - 1]


def _sealed_onto(game_id: str, at: int, prev: str | None,
                 envelopes: Sequence[dict]) -> list[dict]:
    """Envelopes completed and chained from seq `at` after the event whose hash is `prev`.

    Missing "v", "game", "seq" are filled in; given ones must match. Envelopes without "hash"
    are sealed; sealed ones must link to `prev` and match their own content.
    """
    out: list[dict] = []
    for i, given in enumerate(envelopes):
        seq = at + i
        if not isinstance(given, dict):
            raise InvalidAppend(f"game {game_id!r} seq {seq}: an envelope must be a JSON "
                                f"object, found {given!r}")
        env = {"v": FORMAT_VERSION, "game": game_id, "seq": seq, **given}
        for key, want in (("game", game_id), ("seq", seq)):
            if env[key] != want:
                raise InvalidAppend(f"game {game_id!r}: envelope {i} has {key} {env[key]!r}, "
                                    f"expected {want!r}")
        if "at" in env and env["at"] is None:
            del env["at"]
        if env.get("hash") is None:
            env.pop("hash", None)
            env["prev"] = prev
            env["hash"] = event_hash(env)
        elif env.get("prev") != prev or env["hash"] != event_hash(env):
            raise InvalidAppend(f"game {game_id!r} seq {seq}: the sealed envelope does not "
                                f"continue the chain (prev must be {prev!r}, and hash the hash "
                                f"of its content)")
        prev = env["hash"]
        out.append(env)
    return out
