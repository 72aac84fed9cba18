"""The store's contract (`EventStore`), the results its calls give, and reading a stored game back
as a log; every backend passes tests/test_store_contract.py."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterable, Protocol, Sequence

from engine.core.text import and_list, seq_text
from replay.logfile import LogRead, read_log_text

if TYPE_CHECKING:
    from ledger.store.campaigns import CampaignFindingRow, CampaignGameRow, CampaignRow
    from ledger.store.models import FindingRow, GameRow, RejectRow, SnapshotRow

DEFAULT_BATCH_EVENTS = 50_000


def log_text(lines: Iterable[str]) -> str:
    """A log file's text from its stored lines: each line and a newline."""
    return "".join(line + "\n" for line in lines)



@dataclass(frozen=True, slots=True)
class Head:
    """The last stored event of a game: its seq and hash. The next append expects `next_seq`."""

    game_id: str
    seq: int
    hash: str

    @property
    def next_seq(self) -> int:
        return self.seq + 1


@dataclass(frozen=True, slots=True)
class Reject:
    """Input that was not stored: where, under which rule, and why."""

    file: str
    line: int | None
    seq: int | None
    game_id: str | None
    rule: str
    message: str
    raw: str | None = None

    def format(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        where += f" (seq {seq_text(self.seq)})" if self.seq is not None else ""
        return f"{where}: {self.rule}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "seq": self.seq, "game": self.game_id,
                "rule": self.rule, "message": self.message}


@dataclass
class IngestOutcome:
    """What ingesting one log did. status: new | present | extended | rejected."""

    file: str
    game_id: str | None
    status: str
    events_added: int = 0
    event_count: int = 0                        # events stored for the game afterwards
    findings: int = 0
    winners: list[str] | None = None
    reason: str | None = None                   # why it was rejected
    rejects: list[Reject] = field(default_factory=list)
    # A Risk Legacy game naming a campaign: {"name", "game", "status", "waiting_for", "findings"}
    # as linked when its transaction committed (`findings` above counts these too).
    campaign: dict[str, Any] | None = None
    # Other stored games of its campaign whose link this game changed (re-checked), same shape
    # plus "game_id".
    relinked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_stored(self) -> bool:
        return self.status in ("new", "present", "extended")

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game_id, "status": self.status,
                "events_added": self.events_added, "events": self.event_count,
                "findings": self.findings, "winners": self.winners, "reason": self.reason,
                "rejects": [r.as_dict() for r in self.rejects], "campaign": self.campaign,
                "relinked": self.relinked}


@dataclass(frozen=True)
class RecheckChange:
    """A game whose findings or result differ when judged again with the current engine."""

    game_id: str
    version_before: str | None
    version_after: str | None
    findings_before: int
    findings_after: int
    winners_before: list[str] | None
    winners_after: list[str] | None
    findings_changed: bool
    result_changed: bool

    def format(self) -> str:
        parts = []
        if self.findings_changed:
            parts.append(f"findings {self.findings_before} → {self.findings_after}")
        if self.result_changed:
            parts.append(f"winner {_winners_text(self.winners_before)} → "
                         f"{_winners_text(self.winners_after)}")
        return (f"{self.game_id}: {', '.join(parts)} (judged with {self.version_before or '?'}, "
                f"now {self.version_after or '?'})")

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game_id, "version_before": self.version_before,
                "version_after": self.version_after, "findings_before": self.findings_before,
                "findings_after": self.findings_after, "winners_before": self.winners_before,
                "winners_after": self.winners_after, "findings_changed": self.findings_changed,
                "result_changed": self.result_changed}


@dataclass
class IntegrityReport:
    """What `check` found: every broken invariant, one message each."""

    games: int
    events: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _winners_text(winners: list[str] | None) -> str:
    if winners is None:
        return "none (not over)"
    return and_list(winners) or "no winner"


class Statements(Protocol):
    """Statements in one open transaction of a store (`EventStore.transaction`)."""

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        """Run one statement (`?` placeholders); its rows (a write's: its row count)."""


class EventStore(ABC):
    """The store's contract; DuckDB is the embedded backend (one writing process per file),
    PostgreSQL the one shared by many writing processes and servers."""

    backend: str = "?"
    name: str = "?"

    @abstractmethod
    def append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        """Append envelopes to a game at `expected_seq` (the number of events stored; 0 for a
        new game) and judge it again; the new head.

        Envelopes without "prev"/"hash" are sealed onto the stored head; ones with them must
        continue the chain. "v", "game" and "seq" are filled in when absent and checked when
        given. Raises ConcurrencyConflict if the game holds another number of events (unless the
        envelopes repeat, exactly, events already stored there: then nothing is written), and
        InvalidAppend if the envelopes are not valid events continuing the chain.
        """

    @abstractmethod
    def ingest_reads(self, reads: Iterable[LogRead], *,
                     lines_of: Callable[[LogRead], Sequence[str] | None] | None = None,
                     batch_events: int = DEFAULT_BATCH_EVENTS,
                     on_outcome: Callable[[IngestOutcome], None] | None = None,
                     on_read: Callable[[LogRead], None] | None = None,
                     timings: dict[str, float] | None = None,
                     tournament: str | None = None,
                     prejudged: Callable[[LogRead], Any] | None = None) -> list[IngestOutcome]:
        """Store each log (see the module doc for new/present/extended/rejected); outcomes in
        order. `tournament`: new games are filed under it (created if need be). `on_outcome` is
        called once a game's transaction has committed; `on_read` once a log is judged;
        `lines_of(read)` gives the file's lines to keep rejected lines' text. `prejudged(read)`
        may give what `judge_for_store` makes of the read, judged ahead (in a worker process):
        it is used when its fingerprint matches the read, so the result is the same either way.
        """

    def known_heads(self) -> dict[str, tuple[int, str | None]]:
        """Every stored game's fingerprint (events, head hash); a backend that cannot list them
        cheaply returns {} (work judged ahead is then never skipped, only wasted)."""
        return {}

    def ingest_read(self, read: LogRead, *, lines: Sequence[str] | None = None) -> IngestOutcome:
        """Store one log in its own transaction; what happened."""
        return self.ingest_reads([read], lines_of=lambda _: lines, batch_events=0)[0]

    @abstractmethod
    def head(self, game_id: str) -> Head | None:
        """The game's last stored event, or None if the game is not stored."""

    @abstractmethod
    def game(self, game_id: str) -> GameRow | None:
        """The stored game, or None."""

    @abstractmethod
    def games(self) -> list[GameRow]:
        """Every stored game, by date then id."""

    def game_count(self) -> int:
        """How many games are stored (a backend counts them without reading their rows)."""
        return len(self.games())

    @abstractmethod
    def events(self, game_id: str, since: int = 0) -> list[str]:
        """The game's stored lines in seq order, byte for byte, from seq `since` on (only those
        are read: a live reader asks for what was stored after what it has); GameNotFound if
        the game is not stored."""

    @abstractmethod
    def findings(self, game_id: str) -> list[FindingRow]:
        """The findings of the game's last judgement, in order."""

    @abstractmethod
    def snapshot(self, game_id: str) -> SnapshotRow | None:
        """The latest stored state snapshot of the game."""

    @abstractmethod
    def rejects(self) -> list[RejectRow]:
        """Every rejected input kept, oldest first."""

    @abstractmethod
    def record_rejects(self, rejects: Sequence[Reject]) -> None:
        """Keep rejected input (an exact repeat of a kept reject is not kept twice)."""

    @abstractmethod
    def recheck(self, *, on_game: Callable[[str], None] | None = None) -> list[RecheckChange]:
        """Judge every stored game again with the current engine and store the new judgement,
        and link every campaign again; the games whose findings (campaign findings included) or
        result changed."""

    @abstractmethod
    def campaigns(self) -> list[CampaignRow]:
        """Every campaign the store knows, by name."""

    @abstractmethod
    def campaign_games(self, campaign: str | None = None) -> list[CampaignGameRow]:
        """The stored games of a campaign (or of every campaign) with their links, by campaign,
        game number, then the counted game before its duplicates."""

    @abstractmethod
    def campaign_findings(self, game_id: str) -> list[CampaignFindingRow]:
        """The campaign findings of a stored game, as its campaign was last linked."""

    @abstractmethod
    def create_campaign(self, name: str, ruleset: str, world0: dict, world0_digest: str,
                        setup: dict) -> None:
        """Record a campaign of `ruleset` with its first world (the world its game 1 must start
        from: the document and its digest, as the ruleset's campaign hooks make them) and link its
        stored games again. StoreError if the campaign already has a first world."""

    @abstractmethod
    def check(self) -> IntegrityReport:
        """Check every invariant of the stored data (contiguous seqs, chain links, hashes of the
        lines, heads, counts)."""

    @abstractmethod
    def export_jsonl(self, game_id: str, out: str | Path) -> Path:
        """Write the game's log file as stored (byte for byte) to `out`; the path written."""

    @abstractmethod
    def export_parquet(self, out_dir: str | Path, game_id: str | None = None) -> Path:
        """Write events (one game or all) as Parquet under `out_dir`, partitioned by ruleset and
        date (hive style: ruleset=.../date=.../*.parquet)."""

    # -- tables that other parts of ledger keep in the store's database, beside the store's own
    # (ledger serve's games and tokens): the same SQL on every backend, `?` placeholders

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        """Run one statement in a transaction of its own; its rows (a write's: its row count)."""

    @abstractmethod
    def transaction(self) -> ContextManager[Statements]:
        """A transaction for several statements, committed at the end of the `with` block and
        rolled back on any error."""

    @abstractmethod
    def create_tables(self, statements: Sequence[str]) -> None:
        """Run CREATE TABLE IF NOT EXISTS statements in one transaction, serialised against
        other processes doing the same on the same database."""

    def listen(self, on_append: Callable[[str, int], None]) -> Callable[[], None] | None:
        """Call `on_append(game_id, seq)` whenever another process commits events of a game to
        this database (from a thread of the store's), until the function returned is called.
        None where no other process can write the database (DuckDB: one writer per file)."""
        return None

    @abstractmethod
    def close(self) -> None:
        """Release the database."""

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def load_log_from_store(store: EventStore, game_id: str, name: str | None = None) -> LogRead:
    """The stored game as a LogRead, read from its stored lines exactly as a file would be.

    `name` prefixes every finding (default: the game id). GameNotFound if it is not stored.
    """
    return read_log_text(log_text(store.events(game_id)), name or game_id)

