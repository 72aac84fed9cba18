"""The analytics rows of one game, taken from the engine's own fold of its log.

    rows = extract_rows(read)            # a LogRead, as the store judges it
    rows.tables["battles"]               # [(game_id, seq, round, territory, ...), ...]
    rows.frame("dice")                   # the same as a polars DataFrame (COLUMNS["dice"])

The log is folded again with the ruleset's decider (`initial_state`, `step`, `conclude`: the same
calls, in the same order, as `replay.judge.judge`), and the ruleset's own analytics fold
(`Ruleset.fold`) reads each row from the states before and after an event. An event the engine
skips (illegal and impossible, or unreadable) changes nothing and makes no row; one applied as
recorded counts as it was played. So the rows describe the game the judge judged.

The tables are every registered ruleset's `projections` (COLUMNS: table -> column -> polars type;
a table several rulesets list, such as engine.core.tables.DICE, must be declared the same by each).
A ruleset without a fold makes no rows. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any, Callable

import polars as pl
from pydantic import ValidationError

from engine.core.events import Event
from engine.core.projection import Projection, Rows
from engine.core.ruleset import Ruleset, get_ruleset, ruleset_names, rulesets
from replay.judge import read_ahead
from replay.logfile import LogRead

# a projection's column type -> its polars type ("json": the JSON text)
POLARS_TYPES: dict[str, Any] = {"str": pl.String, "int": pl.Int32, "float": pl.Float64,
                                "bool": pl.Boolean, "date": pl.Date, "json": pl.String}


def _columns_of(p: Projection) -> dict[str, Any]:
    return {c: POLARS_TYPES[t] for c, t in p.columns.items()}


def projections() -> dict[str, Projection]:
    """Every registered ruleset's projections by table, in ruleset then declaration order.
    ValueError when two rulesets declare one table differently."""
    found: dict[str, Projection] = {}
    for rs in rulesets():
        for p in rs.projections:
            if found.setdefault(p.table, p).columns != p.columns:
                raise ValueError(f"{rs.name} declares the table {p.table!r} with other columns than "
                                 f"an earlier ruleset")
    return found


def _all_columns() -> dict[str, dict[str, Any]]:
    return {table: _columns_of(p) for table, p in projections().items()}


COLUMNS: dict[str, dict[str, Any]] = _all_columns()
TABLES = tuple(COLUMNS)


class GameRows(Rows):
    """The analytics rows of one game, by table (tuples in COLUMNS order); every table present,
    and those of `rs` (a ruleset registered after this module was imported)."""

    def __init__(self, game_id: str | None, tables: dict[str, list[tuple]] | None = None,
                 rs: Ruleset | None = None, memo: Any = None):
        super().__init__(game_id, {t: [] for t in TABLES} if tables is None else tables, memo)
        for p in rs.projections if rs is not None else ():
            self.tables.setdefault(p.table, [])

    def frame(self, table: str) -> pl.DataFrame:
        return rows_frame(table, self.tables[table])


def rows_frame(table: str, rows: list[tuple]) -> pl.DataFrame:
    """Rows of `table` (tuples in COLUMNS order) as a polars DataFrame with its schema."""
    return pl.DataFrame(rows, schema=COLUMNS[table], orient="row")


def _fold_of(rs: Ruleset) -> Callable[[Rows, Any], Any] | None:
    """The ruleset's analytics fold, None when it has none."""
    return rs.fold


def extract_rows(read: LogRead, *, data: Any = None) -> GameRows:
    """The analytics rows of one read log (none when the game cannot be judged from its start).

    `data`: the ruleset's data to fold with (default: its shipped data), as for judge.
    """
    events = read.events
    rs = _ruleset_of(read)
    rows = GameRows(events[0].game if events else None, rs=rs)
    make_fold = _fold_of(rs) if rs is not None else None
    if make_fold is None:
        return rows
    try:
        start = rs.payload_models[rs.start_event].model_validate(events[0].payload)
    except ValidationError:
        return rows
    data = rs.default_data() if data is None else data
    if any(v.blocking for v in rs.check_start(start, data)):
        return rows
    state = rs.initial_state(start, data)
    if rs.reveal_seed is not None and rs.seed_event is not None:
        seeds = [e.payload.get("seed") for e in events if e.type == rs.seed_event
                 and isinstance(e.payload, dict) and isinstance(e.payload.get("seed"), str)]
        if seeds:
            state = rs.reveal_seed(state, seeds[-1])
    fold = make_fold(rows, data)
    models = rs.payload_models
    voided, _ = read_ahead(events)          # events an organizer's ruling took out of the game
    for raw in events[1:]:
        model = models.get(raw.type)
        if model is None or raw.seq in voided:
            continue
        try:
            payload = model.model_validate(raw.payload)
        except ValidationError:
            continue
        _, after = rs.step(state, Event(raw.seq, raw.type, raw.actor, payload))
        if after is None:
            continue
        fold.observe(state, after, raw.seq, raw.type, payload)
        state = after
    final = rs.conclude(state)
    if final is not state:
        fold.observe(state, final, events[-1].seq, "", None)
    fold.finish(final)
    return rows


def judge_with_rows(read: LogRead, *, data: Any = None):
    """Judge a log and take its analytics rows from the same fold (one pass, as ingest wants):
    (Judgement, GameRows); no rows for a ruleset without a fold."""
    from replay.judge import judge

    events = read.events
    rs = _ruleset_of(read)
    rows = GameRows(events[0].game if events else None, rs=rs)
    make_fold = _fold_of(rs) if rs is not None else None
    fold = None
    if make_fold is not None:
        fold = make_fold(rows, rs.default_data() if data is None else data)
    j = judge(read, data=data, keep_steps=False, observer=fold)
    if fold is not None and j.final_state is None:      # the start could not be judged: no rows
        rows = GameRows(rows.game_id, rs=rs)
    return j, rows


def fold_for(read: LogRead, data: Any = None, memo: Any = None) -> Any:
    """A fresh analytics fold for the ruleset the log names (rows in its `t`), None without one.
    `memo` (engine.core.memo.Memo): values the fold may recall instead of computing (the store's)."""
    rs = _ruleset_of(read)
    make_fold = _fold_of(rs) if rs is not None else None
    if make_fold is None:
        return None
    events = read.events
    return make_fold(GameRows(events[0].game if events else None, rs=rs, memo=memo),
                     rs.default_data() if data is None else data)


def _ruleset_of(read: LogRead) -> Ruleset | None:
    """The registered ruleset a log's first event names, if any."""
    events = read.events
    if not events or not isinstance(events[0].payload, dict):
        return None
    name = events[0].payload.get("ruleset")
    if not isinstance(name, str) or name not in ruleset_names():
        return None
    rs = get_ruleset(name)
    return rs if events[0].type == rs.start_event else None
