"""Writing the Parquet lake from a store, incrementally: `ledger export --all --format parquet
--out LAKE` (the layout and the reader: analytics/lake.py; docs/scale.md, "Lake").

    report = export_lake(store, "lake/")              # every stored game new or changed since
    report = export_lake(store, "lake/", prune=True)  # ... and drop games the store no longer has
    report = export_lake(store, "lake/", game_id="g7")  # one game only
    report.counts()                                   # new, changed, unchanged, removed, ...

What an export writes. The lake's index records, per game, the head hash it was exported at and
a fingerprint of the rest of what its rows depend on: the ruleset version and data digest it was
judged with, its result and findings, its tournament, its campaign link and campaign findings. A
stored game is

- **new** when the index does not have it: its rows are written;
- **changed** when its head hash or its fingerprint differ (an extension, a recheck with another
  engine or data, a campaign linked again): its old rows are removed and its new ones written;
- **unchanged** otherwise: nothing of it is read or written;
- **gone** when the lake has it and the store does not: kept (a lake may gather several stores),
  or removed with `prune`.

Rows are written in groups of games (up to GROUP_EVENTS events), one file per table and
partition (ruleset, date played) of the group, all named after the group. Removing a game
rewrites the files of its group without it, under a new name. Nothing is written in place: new
files first (each written whole, synced, renamed), then the new manifest replaces the old one in
one rename, which is the commit; only then are the files it no longer lists deleted. A kill at
any moment leaves the lake as the last finished export left it (a reader by the manifest sees
that one); the next export deletes what a killed one left behind. Two exports into one lake take
turns (a lock file): the second is refused at once, naming the lake.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import polars as pl

from analytics.lake import (FORMAT, INDEX_DIR, MANIFEST, PER_GAME_TABLES,
                            SCHEMA_DIR, WHOLE_TABLES, LakeError, listed_files, partition_value,
                            read_manifest, table_files)
from ledger.store.analytics_tables import analytics_projections, quoted, row_key
from ledger.store.errors import GameNotFound
from replay.logfile import write_atomically

GROUP_EVENTS = 200_000
"""Events per group of games written together (bounds the memory an export holds, and sizes the
files: the groups of a big export hold about this many events each)."""
LOCK = "_lock"

# the columns a table is exported with ("*": all of them) and its key
_SELECT = {"events": 'game_id, seq, type, actor, "at", payload::VARCHAR AS payload, prev, hash, raw'}
_KEYS = {"games": ("game_id",), "players": ("game_id", "seat"), "events": ("game_id", "seq"),
         "findings": ("game_id", "idx"), "campaign_games": ("game_id",),
         "campaign_findings": ("game_id", "idx"), "tournaments": ("tournament_id",),
         "campaigns": ("name",)}

# what a game's rows depend on besides its events (analytics.lake's index: the fingerprint)
_JUDGEMENT = ("ruleset", "ruleset_version", "data_digest", "played_on", "tournament_id",
              "finding_count", "fatal", "winners", "result", "declared_winner", "rounds",
              "players")
_INDEX_SCHEMA = {"game_id": pl.String, "ruleset": pl.String, "played_on": pl.Date,
                 "head_hash": pl.String, "event_count": pl.Int64, "ruleset_version": pl.String,
                 "data_digest": pl.String, "fingerprint": pl.String, "group": pl.String,
                 "run": pl.Int64}


class LakeBusy(LakeError):
    """Another export is writing the lake."""


@dataclass
class LakeExport:
    """What one export did."""

    lake: str
    run: int                      # the export's number in this lake (unchanged: nothing written)
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0              # gone from the store, removed (prune)
    kept: int = 0                 # gone from the store, kept in the lake (no prune)
    repaired: int = 0             # listed in the lake but their files were missing: written again
    games: int = 0                # in the lake afterwards
    events_written: int = 0
    files_written: int = 0
    files_removed: int = 0
    bytes_written: int = 0
    seconds: float = 0.0
    changed_by: dict[str, int] = field(default_factory=lambda: {"events": 0, "judgement": 0})
    rebuilt: str | None = None    # why the whole lake was written afresh, if it was

    def counts(self) -> dict[str, int]:
        return {"new": self.new, "changed": self.changed, "unchanged": self.unchanged,
                "removed": self.removed, "kept": self.kept}

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        """One line: what was written, or that the lake was up to date."""
        head = (f"{self.lake}: {self.new:,} new, {self.changed:,} changed, "
                f"{self.unchanged:,} unchanged")
        if self.removed or self.kept:
            head += (f", {self.removed:,} removed" if self.removed else "") + (
                f", {self.kept:,} no longer in the store kept (--prune removes them)"
                if self.kept else "")
        if not self.files_written and not self.files_removed:
            return head + f"; the lake was up to date ({self.games:,} games)"
        return (head + f"; {self.files_written:,} files written ({self.bytes_written / 1e6:.1f} "
                f"MB, {self.events_written:,} events), {self.files_removed:,} removed; "
                f"{self.games:,} games in the lake (export {self.run})")


# --- what the store holds ---------------------------------------------------------------------


def _fingerprints(store) -> pl.DataFrame:
    """Each stored game with its fingerprint (_INDEX_SCHEMA less group and run)."""
    games = store.query("SELECT game_id, head_hash, event_count, "
                        + ", ".join(quoted(c) for c in _JUDGEMENT) + " FROM games ORDER BY game_id")
    links = store.query("SELECT game_id, campaign, game_no, status, waiting_for, world_before, "
                        "world_after, finding_count FROM campaign_games")
    found = store.query("SELECT game_id, idx, campaign, line, seq, event, rule, kind, message, "
                        "section FROM campaign_findings ORDER BY game_id, idx")
    linked = {r[0]: r[1:] for r in links.iter_rows()}
    said: dict[str, list] = {}
    for r in found.iter_rows():
        said.setdefault(r[0], []).append(r[1:])
    prints = []
    for row in games.select("game_id", *_JUDGEMENT).iter_rows():
        gid = row[0]
        text = json.dumps([row[1:], linked.get(gid), said.get(gid, [])], default=str)
        prints.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:32])
    return games.select(
        pl.col("game_id").cast(pl.String), pl.col("ruleset").cast(pl.String),
        pl.col("played_on").cast(pl.Date), pl.col("head_hash").cast(pl.String),
        pl.col("event_count").cast(pl.Int64), pl.col("ruleset_version").cast(pl.String),
        pl.col("data_digest").cast(pl.String),
        pl.Series("fingerprint", prints, dtype=pl.String))


def _partition(ruleset: str | None, played_on) -> str:
    return (f"ruleset={partition_value(ruleset)}/"
            f"date={partition_value(played_on.isoformat() if played_on else None)}")


def _tables(store) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every table the lake holds: name -> (the select list, the order of its rows)."""
    out = {t: (_SELECT.get(t, "*"), _KEYS[t]) for t in (*PER_GAME_TABLES, *WHOLE_TABLES)}
    for table, p in analytics_projections().items():
        keys = row_key(p)
        out[table] = ("*", ("game_id", *(k for k in keys if k != "game_id")))
    return out


def _rows(store, table: str, select: str, keys: tuple[str, ...],
          ids: list[str] | None = None, limit: int | None = None) -> pl.DataFrame:
    """Rows of `table`: of the games `ids` (in the order the store gives them: sorting wide rows
    would double an export's time, and readers order what they read), or all of them in the
    order of `keys`."""
    if ids is not None:
        return store.query(f"SELECT {select} FROM {quoted(table)} WHERE game_id IN "
                           f"(SELECT unnest($ids::VARCHAR[]))", {"ids": ids})
    return store.query(f"SELECT {select} FROM {quoted(table)} ORDER BY "
                       + ", ".join(quoted(k) for k in keys)
                       + (f" LIMIT {limit}" if limit is not None else ""))


# --- the lake on disk -----------------------------------------------------------------------------


class _Writer:
    """The files one export writes: each whole and synced; removed again if the export fails."""

    def __init__(self, lake: Path, run: int):
        self.lake, self.run = lake, run
        self.written: list[Path] = []
        self.tables: set[str] = set()
        self.bytes = 0
        self._groups = 0

    def group_name(self, partition: str | None) -> str:
        self._groups += 1
        stem = f"part-{self.run:06d}-{self._groups:04d}"
        return f"{partition}/{stem}" if partition else stem

    def write(self, relative: str, frame: pl.DataFrame) -> None:
        path = self.lake / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        frame.write_parquet(buffer, compression="zstd", statistics=True)
        data = buffer.getvalue()
        write_atomically(path, data)
        self.written.append(path)
        self.tables.add(relative.split("/", 1)[0])
        self.bytes += len(data)

    def undo(self) -> None:
        for path in self.written:
            try:
                path.unlink()
            except OSError:
                pass
        _remove_empty_folders(self.lake, self.tables)


def _remove_empty_folders(lake: Path, tables: Iterable[str]) -> None:
    """Remove the empty partition folders under the lake's own folders (never other folders)."""
    for name in (INDEX_DIR, SCHEMA_DIR, *tables):
        root = lake / name
        if not root.is_dir():
            continue
        for folder in sorted((p for p in root.rglob("*") if p.is_dir()),
                             key=lambda p: -len(p.parts)):
            try:
                folder.rmdir()
            except OSError:
                pass


class _Lock:
    """The lake's lock file, held for an export (released by the system if the process dies)."""

    def __init__(self, lake: Path):
        self.path = lake / LOCK
        self.fd: int | None = None

    def __enter__(self) -> "_Lock":
        try:
            import fcntl
        except ImportError:           # no advisory locks on this system: exports must not overlap
            return self
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(self.fd, 64).decode("ascii", "replace").strip()
            os.close(self.fd)
            self.fd = None
            raise LakeBusy(f"{self.path.parent}: another export is writing this lake"
                           + (f" (process {holder})" if holder else "") + "; try again when it "
                           "is done") from None
        os.ftruncate(self.fd, 0)
        os.write(self.fd, str(os.getpid()).encode("ascii"))
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.fd is not None:
            os.close(self.fd)          # closing releases the lock; the file stays


def _sweep(lake: Path, manifest: dict | None, tables: Iterable[str]) -> int:
    """Delete what killed exports left: files in the lake's own folders that the manifest does
    not list, and temporary files. How many were deleted."""
    keep = listed_files(manifest) if manifest is not None else set()
    removed = 0
    for folder in {INDEX_DIR, SCHEMA_DIR, *tables}:
        root = lake / folder
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if not path.is_file():
                continue
            relative = path.relative_to(lake).as_posix()
            ours = path.name.startswith("part-") or folder in (INDEX_DIR, SCHEMA_DIR)
            if (path.name.endswith(".tmp") or ours and path.suffix == ".parquet"
                    and relative not in keep):
                path.unlink()
                removed += 1
    return removed


def _former_layout(lake: Path) -> list[Path]:
    """The files of a lake written before the manifest (events only, one file per game:
    ruleset=R/date=D/<game>.parquet at the top)."""
    return sorted(p for p in lake.glob("ruleset=*/date=*/*.parquet") if p.is_file())


def _commit(lake: Path, manifest: dict) -> None:
    write_atomically(lake / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))
    try:                          # the rename itself reaches the disk
        fd = os.open(lake, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def _ledger_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("ledger")
    except PackageNotFoundError:
        return "unknown"


def _digest(frame: pl.DataFrame) -> str:
    """A digest of a frame's schema and rows (the same rows in the same order: the same digest)."""
    h = hashlib.sha256(str(list(frame.schema.items())).encode("utf-8"))
    for row in frame.iter_rows():
        h.update(json.dumps(row, default=str).encode("utf-8"))
    return h.hexdigest()[:32]


# --- the export -----------------------------------------------------------------------------------


def export_lake(store, out: str | Path, *, game_id: str | None = None, prune: bool = False,
                on_progress: Callable[[int, int], None] | None = None,
                group_events: int = GROUP_EVENTS) -> LakeExport:
    """Bring the lake at `out` up to date with `store` (every game, or `game_id` alone): write
    the games new or changed since the last export, and with `prune` remove the games the store
    no longer has. `on_progress(done, total)` as games are written. GameNotFound for a game the
    store does not have; LakeError (LakeBusy) when the lake cannot be written; OSError from a
    file that cannot be written (the lake is then as it was)."""
    started = time.perf_counter()
    if prune and game_id is not None:
        raise ValueError("prune applies to an export of every game")
    lake = Path(out)
    lake.mkdir(parents=True, exist_ok=True)
    with _Lock(lake):
        old = read_manifest(lake)
        if old is not None and old["format"] > FORMAT:
            raise LakeError(f"{lake}: a lake of layout {old['format']}, written by a newer "
                            f"ledger (this one writes layout {FORMAT}); export into another folder")
        tables = _tables(store)
        ours = old if old is not None and old["format"] == FORMAT else None
        index = _read_index(lake, ours)
        previous = ours if index is not None else None
        rebuilt = (None if old is None or previous is not None else
                   f"the lake had layout {old['format']}" if ours is None else
                   f"its index {old['index']} could not be read")
        # what killed exports left (only when the manifest says what is the lake's)
        swept = _sweep(lake, ours, tables) if ours is not None else 0
        former = _former_layout(lake) if old is None else []
        run = old["run"] + 1 if old is not None and isinstance(old.get("run"), int) else 1
        report = LakeExport(str(lake), run, rebuilt=rebuilt)

        everything = _fingerprints(store)
        if game_id is not None and game_id not in set(everything["game_id"].to_list()):
            raise GameNotFound(game_id)
        scope = everything if game_id is None else everything.filter(pl.col("game_id") == game_id)
        if index is None:
            index = pl.DataFrame(schema=_INDEX_SCHEMA)
        groups: dict[str, dict] = dict(previous["groups"]) if previous else {}
        # a group with a file missing (deleted by hand): its games are written again
        broken = {g for g, info in groups.items()
                  if any(not (lake / t / f"{g}.parquet").is_file() for t in info["tables"])}
        in_broken = index.filter(pl.col("group").is_in(list(broken)))["game_id"].to_list()
        joined = scope.join(index.select("game_id", pl.col("head_hash").alias("was_head"),
                                         pl.col("fingerprint").alias("was_print")),
                            on="game_id", how="left")
        moved = (pl.col("head_hash") != pl.col("was_head")).fill_null(False)
        judged = (pl.col("fingerprint") != pl.col("was_print")).fill_null(False)
        marked = joined.with_columns(
            pl.when(pl.col("was_head").is_null()).then(pl.lit("new"))
            .when(moved | judged).then(pl.lit("changed")).otherwise(pl.lit("unchanged"))
            .alias("state"), moved.alias("moved"))
        repair = set(in_broken)
        counted = marked.filter(~pl.col("game_id").is_in(list(repair)) |
                                (pl.col("state") != "unchanged"))
        state = counted["state"].to_list()
        report.new, report.changed = state.count("new"), state.count("changed")
        report.unchanged = state.count("unchanged")
        report.changed_by = {
            "events": counted.filter((pl.col("state") == "changed") & pl.col("moved")).height,
            "judgement": counted.filter((pl.col("state") == "changed") & ~pl.col("moved")).height}
        stored_ids = everything["game_id"].implode()
        gone = index.filter(~pl.col("game_id").is_in(stored_ids))
        lost = gone.filter(pl.col("group").is_in(list(broken)))      # gone, and its files too
        if game_id is not None:
            gone = gone.head(0)
        gone = gone.filter(~pl.col("game_id").is_in(lost["game_id"].implode()))
        report.removed = (gone.height if prune else 0) + lost.height
        report.kept = 0 if prune else gone.height
        fixed = everything.filter(pl.col("game_id").is_in(list(repair)))
        report.repaired = fixed.filter(~pl.col("game_id").is_in(
            counted.filter(pl.col("state") != "unchanged")["game_id"].implode())).height
        to_write = pl.concat([
            marked.filter(pl.col("state") != "unchanged").select(everything.columns),
            fixed]).unique("game_id", keep="first", maintain_order=True)
        leaving = (set(to_write["game_id"].to_list()) | repair
                   | (set(gone["game_id"].to_list()) if prune else set()))

        writer = _Writer(lake, run)
        try:
            new_tables, schema_changed = _schemas(store, tables, previous, writer)
            new_whole, whole_changed = _whole_tables(store, tables, previous, writer)
            if not (to_write.height or leaving or schema_changed or whole_changed or broken
                    or rebuilt or former or old is None):
                report.run, report.games, report.files_removed = run - 1, index.height, swept
                report.seconds = time.perf_counter() - started
                return report
            # the groups a game leaves are written again without it, under a new name
            regrouped: dict[str, str | None] = {}
            for group in sorted(set(index.filter(pl.col("game_id").is_in(list(leaving)))
                                    ["group"].to_list()) - broken):
                regrouped[group] = _regroup(lake, group, groups[group], leaving, writer, groups)
            for group in broken:
                del groups[group]
            kept_index = index.filter(~pl.col("game_id").is_in(list(leaving)))
            if regrouped:
                kept_index = kept_index.with_columns(
                    pl.col("group").replace({k: v for k, v in regrouped.items() if v}))
            written = _write_games(store, to_write, tables, writer, groups, on_progress,
                                   group_events, report)
            new_index = pl.concat([kept_index.select(list(_INDEX_SCHEMA)),
                                   written.select(list(_INDEX_SCHEMA))]).sort("game_id")
            index_name = f"{INDEX_DIR}/games-{run:06d}.parquet"
            writer.write(index_name, new_index)
            manifest = {
                "format": FORMAT, "written_by": f"ledger {_ledger_version()}", "run": run,
                "exported_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "source": str(getattr(store, "path", getattr(store, "name", "?"))),
                "games": new_index.height, "events": int(new_index["event_count"].sum() or 0),
                "index": index_name, "tables": new_tables, "whole": new_whole,
                "groups": dict(sorted(groups.items())),
            }
            _commit(lake, manifest)
        except BaseException:
            writer.undo()
            raise
        # committed: the files the manifest no longer lists go
        stale = (listed_files(ours) if ours is not None else set()) - listed_files(manifest)
        for relative in sorted(stale):
            try:
                (lake / relative).unlink()
            except FileNotFoundError:
                pass
        for path in former:
            path.unlink()
        if ours is None and old is not None:     # written afresh over another layout
            swept += _sweep(lake, manifest, tables)
        if stale or former or swept:
            _remove_empty_folders(lake, tables)
            for folder in sorted({p.parent for p in former} | {p.parent.parent for p in former},
                                 key=lambda p: -len(p.parts)):
                try:
                    folder.rmdir()
                except OSError:
                    pass
        report.games = new_index.height
        report.files_written = len(writer.written)
        report.files_removed = len(stale) + len(former) + swept
        report.bytes_written = writer.bytes
        report.seconds = time.perf_counter() - started
        return report


def _read_index(lake: Path, manifest: dict | None) -> pl.DataFrame | None:
    """The index of the last export (None: none could be read)."""
    if manifest is None:
        return pl.DataFrame(schema=_INDEX_SCHEMA)
    try:
        frame = pl.read_parquet(lake / manifest["index"])
        return frame.select(pl.col(c).cast(t) for c, t in _INDEX_SCHEMA.items())
    except Exception:            # missing, truncated, not Parquet, other columns: write afresh
        return None


def _schemas(store, tables: dict, previous: dict | None,
             writer: _Writer) -> tuple[dict[str, dict], bool]:
    """Each table's schema file: the last export's when the columns are the same, else a new
    one. (the manifest's tables, whether any changed)"""
    out, changed = {}, False
    before = previous["tables"] if previous else {}
    for table, (select, keys) in tables.items():
        empty = _rows(store, table, select, keys, limit=0)
        digest = hashlib.sha256(str(list(empty.schema.items())).encode("utf-8")).hexdigest()[:16]
        if table in before and before[table].get("digest") == digest:
            out[table] = before[table]
            continue
        name = f"{SCHEMA_DIR}/{table}-{writer.run:06d}.parquet"
        writer.write(name, empty)
        out[table] = {"schema": name, "digest": digest}
        changed = True
    changed |= set(before) != set(out)
    return out, changed


def _whole_tables(store, tables: dict, previous: dict | None,
                  writer: _Writer) -> tuple[dict[str, dict], bool]:
    """The tables that are not per game: written again when their rows changed."""
    out, changed = {}, False
    before = previous["whole"] if previous else {}
    for table in WHOLE_TABLES:
        select, keys = tables[table]
        frame = _rows(store, table, select, keys)
        digest = _digest(frame)
        if table in before and before[table].get("digest") == digest:
            out[table] = before[table]
            continue
        name = None
        if frame.height:
            name = f"{table}/{writer.group_name(None)}.parquet"
            writer.write(name, frame)
        out[table] = {"file": name, "digest": digest, "rows": frame.height}
        changed = True
    return out, changed


def _regroup(lake: Path, group: str, info: dict, leaving: set[str], writer: _Writer,
             groups: dict[str, dict]) -> str | None:
    """Write `group`'s files again without the games `leaving`, under a new name (None when no
    game is left); `groups` (the manifest's) is updated."""
    partition = group.rsplit("/", 1)[0] if "/" in group else None
    name = writer.group_name(partition)
    tables, games = [], 0
    for table in info["tables"]:
        frame = pl.read_parquet(lake / table / f"{group}.parquet")
        frame = frame.filter(~pl.col("game_id").is_in(list(leaving)))
        if frame.height:
            writer.write(f"{table}/{name}.parquet", frame)
            tables.append(table)
            if table == "games":
                games = frame.height
    del groups[group]
    if not games:
        return None
    groups[name] = {"games": games, "tables": tables}
    return name


def _chunks(games: pl.DataFrame, budget: int) -> Iterator[pl.DataFrame]:
    """The games in groups of about `budget` events (a game is never split)."""
    start, size = 0, 0
    counts = games["event_count"].to_list()
    for i, n in enumerate(counts):
        size += n or 0
        if size >= budget:
            yield games.slice(start, i + 1 - start)
            start, size = i + 1, 0
    if start < games.height:
        yield games.slice(start)


def _write_games(store, games: pl.DataFrame, tables: dict, writer: _Writer,
                 groups: dict[str, dict], on_progress, budget: int,
                 report: LakeExport) -> pl.DataFrame:
    """Write the rows of `games` (fingerprinted: _fingerprints) in groups; their index rows."""
    if not games.height:
        return pl.DataFrame(schema=_INDEX_SCHEMA)
    games = games.with_columns(pl.Series("partition", [
        _partition(r, d) for r, d in games.select("ruleset", "played_on").iter_rows()],
        dtype=pl.String)).sort("partition", "game_id")
    per_game = [t for t in tables if t not in WHOLE_TABLES]
    done, out = 0, []
    for chunk in _chunks(games, budget):
        ids = chunk["game_id"].to_list()
        names = {p: writer.group_name(p) for p in chunk["partition"].unique().sort().to_list()}
        where = chunk.select("game_id", pl.col("partition").replace_strict(names).alias("group"))
        members: dict[str, list[str]] = {}
        for table in per_game:
            select, keys = tables[table]
            frame = _rows(store, table, select, keys, ids)
            if not frame.height:
                continue
            tagged = frame.join(where, on="game_id", how="left")
            for (group,), part in tagged.partition_by("group", as_dict=True,
                                                      maintain_order=True).items():
                writer.write(f"{table}/{group}.parquet", part.drop("group"))
                members.setdefault(group, []).append(table)
        counted = where.group_by("group").len()
        for group, n in counted.iter_rows():
            groups[group] = {"games": n, "tables": members.get(group, [])}
        out.append(chunk.join(where, on="game_id").with_columns(
            pl.lit(writer.run, dtype=pl.Int64).alias("run")))
        report.events_written += int(chunk["event_count"].sum() or 0)
        done += chunk.height
        if on_progress is not None:
            on_progress(done, games.height)
    return pl.concat(out)
