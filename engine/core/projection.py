"""What a ruleset contributes besides judging: the analytics tables its fold fills, and the record
of one game its bots played. Plain data, no I/O: the store creates and fills the tables, the CLI
writes the logs.

    Projection("battles", {"game_id": "str", "seq": "int", "luck": "float"}, key=("game_id", "seq"))
    rows = Rows("game42", (projection, ...)); fold = rs.fold(rows, data); fold.observe(...)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

# The column types a projection may declare (the store maps them to SQL, analytics to polars).
COLUMN_TYPES = frozenset({"str", "int", "float", "bool", "date", "json"})


@dataclass(frozen=True)
class Projection:
    """One analytics table a ruleset's fold fills: its name, its columns in row order (name ->
    one of COLUMN_TYPES), the columns that identify a row, and what a row is. Every table has a
    `game_id` column first, so the store can replace one game's rows."""

    table: str
    columns: Mapping[str, str]
    key: tuple[str, ...] = ()
    doc: str = ""

    def __post_init__(self) -> None:
        bad = {c: t for c, t in self.columns.items() if t not in COLUMN_TYPES}
        if bad:
            raise ValueError(f"projection {self.table!r}: unknown column types {bad!r}")
        if next(iter(self.columns), None) != "game_id":
            raise ValueError(f"projection {self.table!r}: the first column must be game_id")


@dataclass
class Rows:
    """The rows one fold made for one game, by table (tuples in the projection's column order).
    `memo` (engine.core.memo.Memo, or None): values the fold may recall instead of computing
    them again (the store's, at ingest); the rows are the same either way."""

    game_id: str | None
    tables: dict[str, list[tuple]] = field(default_factory=dict)
    memo: Any = None

    @classmethod
    def for_projections(cls, game_id: str | None, projections: tuple[Projection, ...]) -> "Rows":
        return cls(game_id, {p.table: [] for p in projections})

    @property
    def count(self) -> int:
        return sum(len(rows) for rows in self.tables.values())


class Fold(Protocol):
    """Reads rows off the judge's own fold: called with the states before and after every event
    that changed the state, then with the final state. `t` is the `Rows.tables` it appends to
    (the store takes each append's new rows from it); a fold pickles, so a store can keep it
    between appends.

    `finish` writes the rows of the log's end (an unfinished battle, the round in progress, the
    outcomes) and changes nothing later rows depend on: a live game is finished after every
    append and then observes the next events, and must make the rows one fold of the whole log
    makes (tests/test_store_append.py)."""

    t: dict[str, list[tuple]]

    def observe(self, before: Any, after: Any, seq: int, type_: str, payload: Any) -> None: ...

    def finish(self, final: Any) -> None: ...


@dataclass(frozen=True)
class SimulatedGame:
    """One game played by a ruleset's seeded bots: its sealed log and what happened."""

    game_id: str
    envelopes: list[dict]
    rounds: int              # rounds (or turns) played
    winner: str | None
    reason: str | None
    finished: bool           # False: stopped at the bots' limit without a winner

    @property
    def events(self) -> int:
        return len(self.envelopes)
