"""The analytics tables: one per projection a registered ruleset declares (`Ruleset.projections`,
engine.core.projection.Projection), created by the store from the projection itself, so a new
ruleset's tables need no change here.

Each table has the projection's columns in the declared order, typed from the declared column
type, keyed by the projection's key. Its rows (tuples in column order, filled by the ruleset's
fold: analytics.extract) are written whenever a game is judged (ingest, extension, append,
recheck) and replaced with its findings, so they always describe the last judgement; the columns
are explained in docs/analytics.md.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import polars as pl

from analytics.extract import POLARS_TYPES, projections
from engine.core.projection import Projection

# A projection's column type -> its SQL type ("json": the JSON text, as the fold writes it)
SQL_TYPES = {"str": "VARCHAR", "int": "INTEGER", "float": "DOUBLE", "bool": "BOOLEAN",
             "date": "DATE", "json": "VARCHAR"}


def analytics_projections() -> dict[str, Projection]:
    """Every registered ruleset's projections by table (ruleset, then declaration order)."""
    return projections()


# The tables of the rulesets registered when the store was first imported (analytics_projections
# for the ones registered now).
ANALYTICS_TABLES: tuple[str, ...] = tuple(analytics_projections())


def quoted(name: str) -> str:
    """An SQL identifier, quoted (column names such as "round" or "at" are keywords)."""
    return '"' + name.replace('"', '""') + '"'


def create_sql(p: Projection, types: dict[str, str] = SQL_TYPES) -> str:
    """CREATE TABLE for a projection: its columns in order (of `types`, a database's SQL type
    per column type), its key as the primary key."""
    columns = [f"{quoted(c)} {types[t]}" for c, t in p.columns.items()]
    if p.key:
        columns.append(f"PRIMARY KEY ({', '.join(quoted(k) for k in p.key)})")
    return f"CREATE TABLE IF NOT EXISTS {quoted(p.table)} ({', '.join(columns)})"


def add_columns_sql(p: Projection, present: Iterable[str],
                    types: dict[str, str] = SQL_TYPES) -> list[str]:
    """ALTER TABLE for the columns a projection declares that a stored table lacks (a store
    made before the ruleset added them; older rows hold null there)."""
    have = set(present)
    return [f"ALTER TABLE {quoted(p.table)} ADD COLUMN {quoted(c)} {types[t]}"
            for c, t in p.columns.items() if c not in have]


def row_key(p: Projection) -> tuple[str, ...]:
    """The columns that find one row: the projection's key, or every column without one."""
    return p.key or tuple(p.columns)


def rows_frame(p: Projection, rows: Sequence[tuple]) -> pl.DataFrame:
    """Rows of a projection (tuples in its column order) as a typed polars frame."""
    return pl.DataFrame(rows, schema={c: POLARS_TYPES[t] for c, t in p.columns.items()},
                        orient="row")


def insert_sql(p: Projection, rows: int) -> str:
    """INSERT of `rows` rows given as parameters, in the projection's column order."""
    marks = "(" + ", ".join("?" * len(p.columns)) + ")"
    return (f"INSERT INTO {quoted(p.table)} ({', '.join(quoted(c) for c in p.columns)}) "
            f"VALUES {', '.join([marks] * rows)}")


def update_sql(p: Projection, rows: Sequence[tuple],
               cast: dict[str, str] | None = None) -> tuple[str, list[Any]] | None:
    """UPDATE of the stored rows with the keys of `rows` (tuples in the projection's column
    order) to their values, and its parameters; None when every column is in the key. One row
    is updated by its key (in DuckDB, half the cost of an UPDATE ... FROM VALUES). `cast`
    (SQL types by column type): the values of several rows are cast to their columns' types,
    for a database that types a VALUES list by its values (PostgreSQL)."""
    table = quoted(p.table)
    columns = list(p.columns)
    changed = [i for i, c in enumerate(columns) if c not in p.key]
    if not p.key or not changed:
        return None
    if len(rows) == 1:
        keys = [columns.index(k) for k in p.key]
        return (f"UPDATE {table} SET {', '.join(f'{quoted(columns[i])} = ?' for i in changed)} "
                f"WHERE " + " AND ".join(f"{quoted(columns[i])} = ?" for i in keys),
                [rows[0][i] for i in changed] + [rows[0][i] for i in keys])
    marks = "(" + ", ".join("?" if cast is None else f"CAST(? AS {cast[t]})"
                            for t in p.columns.values()) + ")"
    sets = ", ".join(f"{quoted(columns[i])} = v.{quoted(columns[i])}" for i in changed)
    return (f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([marks] * len(rows))}) "
            f"AS v({', '.join(map(quoted, columns))}) WHERE "
            + " AND ".join(f"{table}.{quoted(k)} = v.{quoted(k)}" for k in p.key),
            [v for r in rows for v in r])


def delete_sql(p: Projection, rows: int) -> str:
    """DELETE of `rows` rows found by their key (row_key), given as parameters."""
    keys = row_key(p)
    one = "(" + " AND ".join(f"{quoted(k)} IS NOT DISTINCT FROM ?" for k in keys) + ")"
    return f"DELETE FROM {quoted(p.table)} WHERE " + " OR ".join([one] * rows)


def key_of(p: Projection, row: tuple) -> tuple[Any, ...]:
    """The values of a row's key columns."""
    columns = list(p.columns)
    return tuple(row[columns.index(k)] for k in row_key(p))
