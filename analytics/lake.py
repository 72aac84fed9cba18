"""The Parquet lake: what `ledger export --all --format parquet --out LAKE` writes, and reading it
for the statistics without the store (`ledger stats --lake LAKE`, `ledger dashboard --lake LAKE`).

    lake = open_lake("lake/")               # a LakeReader; LakeError if it is not a lake
    tables = load_tables(lake)              # analytics.load, exactly as over a store
    lake.query("SELECT count(*) FROM games")

The layout (docs/scale.md, "Lake"): one folder per table, partitioned hive-style by the game's
ruleset and the date it was played; the rows of a group of games exported together share a file
name in every table's folder:

    LAKE/_manifest.json                                  the commit point: every live file
    LAKE/_index/games-000003.parquet                     per game: head hash, digests, its group
    LAKE/_schema/events-000001.parquet                   each table's columns (no rows)
    LAKE/events/ruleset=R/date=D/part-000003-0001.parquet
    LAKE/games/ruleset=R/date=D/part-000003-0001.parquet ... and players, findings, the campaign
                                                         links, every ruleset's analytics tables
    LAKE/tournaments/part-000002.parquet                 the tables that are not per game, whole

A file is never changed once written: an export writes new files, then replaces the manifest (one
rename), then deletes the files it no longer lists. So a reader that goes by the manifest (this
one) sees one export or the next, never half of one; a reader that globs the folders (DuckDB,
Spark, Trino: `read_parquet('LAKE/events/**/*.parquet', hive_partitioning = true)`) sees the same
rows once the export has finished. Names starting with "_" are the lake's own, which Spark and
Hive skip. The writer is ledger/lake.py; this module only reads.

A LakeReader answers `query(sql, params)` as the store does: an in-memory DuckDB with one view per
table over the files the manifest lists, named as the store's tables, so analytics.load and
analytics.selection run the same SQL over either and count the same games.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any, Sequence

import duckdb
import polars as pl

from analytics.extract import COLUMNS
from engine.core.errors import LedgerError

MANIFEST = "_manifest.json"
INDEX_DIR = "_index"
SCHEMA_DIR = "_schema"
FORMAT = 1
"""The layout version this ledger writes and reads; an export into a lake of another version
writes it afresh."""

PER_GAME_TABLES = ("games", "players", "events", "findings", "campaign_games", "campaign_findings")
"""The store's tables whose rows belong to one game (besides the rulesets' analytics tables)."""
WHOLE_TABLES = ("tournaments", "campaigns")
"""The store's tables that are not per game: written whole, when they changed."""
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"   # the hive name of a null partition value


class LakeError(LedgerError):
    """The folder is not a lake this ledger can read, or a file of it cannot be read."""


def partition_value(value: Any) -> str:
    """A partition value as a folder name: hive's escaping (%XX for what a path cannot hold),
    NULL_PARTITION for null."""
    if value is None:
        return NULL_PARTITION
    return re.sub(r"[^A-Za-z0-9_. -]|^\.", lambda m: "".join(f"%{b:02X}" for b in
                                                              m.group().encode("utf-8")), str(value))


def read_manifest(lake: Path) -> dict | None:
    """The lake's manifest, None when the folder has none; LakeError when it cannot be read."""
    path = Path(lake) / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LakeError(f"{path}: not a lake manifest ({exc})") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("format"), int):
        raise LakeError(f"{path}: not a lake manifest (no format number)")
    if manifest["format"] == FORMAT:
        try:
            _check_shape(manifest)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise LakeError(f"{path}: not a lake manifest (malformed: {exc!r})") from exc
    return manifest


def _check_shape(m: dict) -> None:
    """TypeError, KeyError or ValueError unless the manifest has the shape the writer gives it,
    and every file it lists lies inside the lake (a relative path, no "..")."""
    int(m["run"]), int(m.get("games", 0))
    for part in ("tables", "groups", "whole"):
        if not isinstance(m[part], dict):
            raise TypeError(f"{part} is not an object")
    for info in m["groups"].values():
        int(info["games"])
        if not isinstance(info["tables"], list):
            raise TypeError("a group's tables are not a list")
    for name in listed_files(m):
        path = PurePosixPath(name)
        if not isinstance(name, str) or path.is_absolute() or ".." in path.parts:
            raise ValueError(f"{name!r} is not a file inside the lake")


def table_files(manifest: dict, table: str) -> list[str]:
    """The files (relative to the lake) that hold `table`'s rows, as the manifest lists them."""
    if table in manifest["whole"]:
        file = manifest["whole"][table].get("file")
        return [file] if file else []
    return [f"{table}/{group}.parquet" for group, info in manifest["groups"].items()
            if table in info["tables"]]


def listed_files(manifest: dict) -> set[str]:
    """Every file the manifest refers to (relative to the lake)."""
    files = {manifest["index"]} | {info["schema"] for info in manifest["tables"].values()}
    for table in manifest["tables"]:
        files.update(table_files(manifest, table))
    return files


_SQL_TYPES = {pl.String: "VARCHAR", pl.Int32: "INTEGER", pl.Int64: "BIGINT",
              pl.Float64: "DOUBLE", pl.Boolean: "BOOLEAN", pl.Date: "DATE"}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_list(paths: Sequence[Path]) -> str:
    return "[" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths) + "]"


class LakeReader:
    """A lake opened for reading: views named as the store's tables over the files its manifest
    lists. `query` as the store's; `path` the lake; `option` how a command names it."""

    backend = "lake"

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.option = "--lake"
        if not self.path.is_dir():
            raise LakeError(f"{self.path}: no such folder (a lake is the folder that `ledger "
                            f"export --all --format parquet --out FOLDER` writes)"
                            if not self.path.exists() else f"{self.path}: not a folder")
        manifest = read_manifest(self.path)
        if manifest is None:
            raise LakeError(f"{self.path} is not a lake (no {MANIFEST}; `ledger export --all "
                            f"--format parquet --out {self.path}` makes one)")
        if manifest["format"] != FORMAT:
            raise LakeError(f"{self.path}: a lake of layout {manifest['format']}, this ledger "
                            f"reads layout {FORMAT} (export it again with this ledger)")
        self.manifest = manifest
        missing = sorted(f for f in listed_files(manifest) if not (self.path / f).is_file())
        if missing:
            raise LakeError(f"{self.path}: {len(missing)} file(s) its manifest lists are missing, "
                            f"first {missing[0]} (changed by hand? `ledger export --all --format "
                            f"parquet --out {self.path}` writes them again)")
        self._con = duckdb.connect(":memory:")
        try:
            for table, info in manifest["tables"].items():
                files = [self.path / info["schema"]] + [self.path / f
                                                        for f in table_files(manifest, table)]
                scan = (f"read_parquet({_sql_list(files)}, union_by_name = true, "
                        f"hive_partitioning = false)")
                have = {r[0] for r in self._con.execute(f"DESCRIBE SELECT * FROM {scan}")
                        .fetchall()}
                # columns a ruleset added after the lake was written: null, as in the store
                added = "".join(f", NULL::{_SQL_TYPES.get(t, 'VARCHAR')} AS {_quoted(c)}"
                                for c, t in COLUMNS.get(table, {}).items() if c not in have)
                self._con.execute(f"CREATE VIEW {_quoted(table)} AS SELECT *{added} FROM {scan}")
            for table, columns in COLUMNS.items():    # a ruleset the lake's writer did not know
                if table not in manifest["tables"]:
                    self._con.register(table, pl.DataFrame(schema=columns))
            absent = [t for t in (*PER_GAME_TABLES, *WHOLE_TABLES) if t not in manifest["tables"]]
            if absent:
                raise LakeError(f"{self.path}: the manifest lists no table {', '.join(absent)}")
        except duckdb.Error as exc:
            self._con.close()
            raise LakeError(f"{self.path}: {_reason(exc)}") from exc
        except LakeError:
            self._con.close()
            raise

    @property
    def games(self) -> int:
        """How many games the lake holds."""
        return int(self.manifest.get("games", 0))

    def query(self, sql: str,
              params: Sequence[Any] | dict[str, Any] | None = None) -> pl.DataFrame:
        """A read query's result as a polars DataFrame, over the lake's tables."""
        try:
            return pl.DataFrame(self._con.sql(sql, params=params))
        except duckdb.Error as exc:
            raise LakeError(f"{self.path}: {_reason(exc)}") from exc

    def _has_campaign_tables(self) -> bool:
        return True

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> "LakeReader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _reason(exc: duckdb.Error) -> str:
    text = str(exc).strip()
    if isinstance(exc, duckdb.IOException) and ("No such file" in text or "not exist" in text):
        return (f"a file went away while reading ({text}); an export replaced it: run the "
                f"command again")
    return text


def open_lake(path: str | Path) -> LakeReader:
    """The lake at `path`, read through its manifest; LakeError when it is not one."""
    return LakeReader(path)
