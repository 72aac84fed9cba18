"""`ledger ingest`, `games`, `export`, `recheck`, `check-db`: the store's commands (registered on
the main app). Each opens the store, makes one call into ledger.store / ledger.ingest, and turns
the answer into output and an exit code."""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.core.text import plural
from ledger import exitcodes
from ledger.cli_base import (CsvOpt, JsonOpt, _emit_json, app, emit_csv, err, os_reason,
                             print_table, write_problem)

DbOpt = typer.Option("ledger.duckdb", "--db", envvar="LEDGER_DB",
                     help="The store: a DuckDB file or a postgresql:// URL (env LEDGER_DB).")

# How long a command waits for a database file another process is writing, before it gives up
# (env LEDGER_DB_WAIT, in seconds).
BUSY_WAIT_SECONDS = 10.0

out = Console(highlight=False, soft_wrap=True)


def _shown(db: str) -> str:
    """The store as it may be printed (a database URL without its password)."""
    from ledger.store import display_name
    return display_name(db)


def _open(db: str, *, read_only: bool = False, must_exist: bool = False):
    """The store at `db` (a file, created when a writer opens a missing one unless
    `must_exist`; or a database URL), or a message and exit 2."""
    from ledger.store import StoreError, open_store, store_missing
    if must_exist and store_missing(db):
        err.print(f"ledger: {db}: no such file (no store at this path; ledger ingest creates one)")
        raise typer.Exit(exitcodes.UNREADABLE)
    try:
        wait = float(os.environ.get("LEDGER_DB_WAIT", BUSY_WAIT_SECONDS))
        return open_store(db, read_only=read_only, wait=wait)
    except ValueError:
        err.print(f"ledger: LEDGER_DB_WAIT must be a number of seconds, not "
                  f"{os.environ['LEDGER_DB_WAIT']!r}")
        raise typer.Exit(exitcodes.USAGE)
    except StoreError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)


def _bar(total: int, label: str) -> Progress | None:
    if total < 2 or not err.is_terminal:
        return None
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help="Log files, or folders to search for *.jsonl."),
    db: str = DbOpt,
    tournament: Optional[str] = typer.Option(None, "--tournament", "-T", help="File the new games under this tournament (created if need be); `ledger dashboard --tournament` shows it alone."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes that read and judge logs while the store writes (default: one per core from 4 cores up, else 1: none). The store ends up the same either way."),
    as_json: bool = JsonOpt,
) -> None:
    """Store game logs in the database, judged by the engine: each game whole or not at all.

    A log already stored is left as it is; a longer log of a stored game adds its new events; a
    log that contradicts a stored game, a log without an intact hash chain, and an unreadable
    file are refused and kept, with their reason, in the rejects table.

    Risk Legacy games of a campaign are stored in game-number order and each is checked against
    the campaign's game before it (campaign findings are listed); a game whose predecessor is
    not stored yet waits for it and is checked again when it comes.

    Exit 0: every log stored (or already there). 1: some input was rejected (listed). 2: the
    store cannot be opened or written.

    Example: ledger ingest sample_logs/ --db ledger.duckdb; ledger ingest club-games/ --jobs 4
    """
    from ledger.ingest import ingest_paths, log_paths
    from ledger.parallel import default_ingest_jobs
    from ledger.store import StoreError

    files = log_paths(paths)
    store = _open(db)
    bar = _bar(len(files), "ingesting")
    task = bar.add_task("ingest", total=len(files)) if bar else None
    try:
        if bar:
            bar.start()
        report = ingest_paths(store, files, tournament=tournament, jobs=jobs or default_ingest_jobs(),
                              on_read=(lambda _: bar.advance(task)) if bar else None)
    except StoreError as exc:
        err.print(f"ledger: ingest stopped: {exc}. Games committed before this are stored; "
                  f"run the same ingest again to go on (it is idempotent).")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        if bar:
            bar.stop()
        store.close()
    if as_json:
        _emit_json({"db": _shown(db), **report.as_dict()})
    else:
        _print_ingest(report, db)
    raise typer.Exit(exitcodes.FINDINGS if report.rejects else exitcodes.OK)


def _print_ingest(report: Any, db: str) -> None:
    """The summary line, the counts, then every rejected file and every line not stored: the
    lists are as long as the counts say."""
    out.print(report.summary(_shown(db)), markup=False)
    table = Table(show_header=True, header_style="bold")
    table.add_column("ingest")
    table.add_column("count", justify="right")
    for label, count in report.counts().items():
        table.add_row(label, str(count))
    out.print(table)
    _print_campaigns(report)
    refused = report.of("rejected")
    if refused:
        out.print(f"files rejected ({len(refused)}), kept in the rejects table:")
        for o in refused:
            first, *lines = o.rejects
            out.print(f"  {first.format()}", markup=False)
            for reject in lines:
                out.print(f"      {reject.format()}", markup=False)
    lines = report.line_rejects
    if lines:
        out.print(f"lines not stored ({report.counts()['lines not stored']}), kept in the rejects "
                  f"table:")
        seen: set[tuple[str, int | None]] = set()
        for reject in lines:           # a line's further problems under its first
            where = (reject.file, reject.line)
            out.print(f"{'      ' if where in seen else '  '}{reject.format()}", markup=False)
            seen.add(where)


def _print_campaigns(report: Any) -> None:
    """Campaign findings of the games stored, and stored games whose campaign link changed."""
    found = [o for o in report.outcomes if o.campaign and o.campaign["findings"]]
    if found:
        out.print(f"campaign findings ({len(found)} game{'s' if len(found) != 1 else ''}):")
        for o in found:
            c = o.campaign
            for f in c["findings"]:
                out.print(f"  {o.game_id} (game {c['game']} of {c['name']!r}): {f['rule']}: "
                          f"{f['message']}", markup=False)
    changed = [c for o in report.outcomes for c in o.relinked]
    if changed:
        out.print("stored games checked again against their campaign:")
        for c in changed:
            now = {"fits": "fits now", "duplicate": "a duplicate now"}.get(
                c["status"], f"{c['status']}: " + "; ".join(f["rule"] for f in c["findings"]))
            out.print(f"  {c['game_id']} (game {c['game']} of {c['name']!r}): was "
                      f"{c['status_before']}, {now}", markup=False)


@app.command()
def games(db: str = DbOpt, as_json: bool = JsonOpt, as_csv: bool = CsvOpt) -> None:
    """List the stored games: date, players, the rules' winner, rounds, events, findings, and
    for Risk Legacy games their campaign and game number (and how they link, if not cleanly).
    Piped, the table is plain text with every id whole; --json and --csv are for scripts.

    Example: ledger games --db ledger.duckdb; ledger games --csv > games.csv
    """
    store = _open(db, read_only=True)
    try:
        rows = store.games()
        links = {c.game_id: c for c in store.campaign_games()}
    finally:
        store.close()
    listed = [{"game": g.game_id, "date": g.played_on.isoformat() if g.played_on else None,
               "ruleset": g.ruleset, "players": g.players, "winners": g.winners,
               "declared_winner": g.declared_winner, "rounds": g.rounds, "events": g.event_count,
               "findings": g.finding_count + (links[g.game_id].finding_count
                                              if g.game_id in links else 0),
               "judged_with": g.ruleset_version, "head": g.head_hash,
               "campaign": _campaign_of(links.get(g.game_id))} for g in rows]
    if as_json:
        _emit_json(listed)
        return
    if as_csv:
        emit_csv(["game", "date", "ruleset", "players", "winner", "rounds", "events", "findings",
                  "campaign", "campaign_game", "campaign_status"],
                 [[g["game"], g["date"], g["ruleset"], ", ".join(g["players"]), _winner_text(g),
                   g["rounds"], g["events"], g["findings"],
                   *((g["campaign"]["name"], g["campaign"]["number"], g["campaign"]["status"])
                     if g["campaign"] else (None, None, None))] for g in listed])
        return
    if not rows:
        out.print(f"no games in {_shown(db)}", markup=False)
        return
    in_campaigns = any(g["campaign"] for g in listed)
    columns = [("game", "left"), ("date", "left"), ("players", "left"), ("winner", "left"),
               ("rounds", "right"), ("events", "right"), ("findings", "right")]
    if in_campaigns:
        columns.append(("campaign", "left"))
    cells = []
    for g in listed:
        row = [g["game"], g["date"] or "", ", ".join(g["players"]), _winner_text(g),
               str(g["rounds"] if g["rounds"] is not None else ""), str(g["events"]),
               str(g["findings"])]
        if in_campaigns:
            c = g["campaign"]
            row.append("" if c is None else f"{c['name']} #{c['number']}"
                       + ("" if c["status"] == "fits" else f" ({_link_text(c)})"))
        cells.append(row)
    print_table(out, columns, cells)


def _winner_text(g: dict) -> str:
    return "not over" if g["winners"] is None else " and ".join(g["winners"]) or "none"


def _campaign_of(link: Any) -> dict | None:
    """A stored game's place in its campaign, for `games`: name, number, how it links."""
    if link is None:
        return None
    return {"name": link.campaign, "number": link.game_no, "status": link.status,
            "waiting_for": link.waiting_for, "findings": link.finding_count}


def _link_text(c: dict) -> str:
    return f"waiting for #{c['waiting_for']}" if c["status"] == "waiting" else c["status"]


class ExportFormat(str, Enum):
    jsonl = "jsonl"
    parquet = "parquet"


@app.command()
def export(
    game_id: Optional[str] = typer.Argument(None, help="The game to export (or --all)."),
    all_games: bool = typer.Option(False, "--all", help="Export every stored game."),
    fmt: ExportFormat = typer.Option(ExportFormat.jsonl, "--format", help="jsonl or parquet."),
    out_path: Path = typer.Option(..., "--out", "-o", help="A file (one game as JSONL) or a folder."),
    db: str = DbOpt,
    prune: bool = typer.Option(False, "--prune", help="Parquet lake: also remove the games the "
                               "store no longer has (kept by default: a lake may gather several stores)."),
    as_json: bool = JsonOpt,
) -> None:
    """Export stored games: JSONL exactly as logged (byte for byte), or a Parquet lake for
    `ledger stats --lake`, `ledger dashboard --lake`, DuckDB, Spark or Trino.

    One game as JSONL goes to the file OUT (or OUT/<game>.jsonl when OUT is a folder); --all as
    JSONL writes OUT/<game>.jsonl per game. Exports are idempotent: every game has one file,
    named after it, replaced whole, so exporting the same store twice gives the same files.

    Parquet: OUT is a lake (docs/scale.md): the events, games, players, findings, campaign links
    and analytics rows of the games, one folder per table, partitioned by ruleset and date
    (OUT/events/ruleset=.../date=.../part-*.parquet), and OUT/_manifest.json listing every file.
    The export is incremental: only the games new or changed since the last export into OUT (by
    head hash, and by the judgement their rows come from) are written; a changed game's old rows
    are replaced. New files are written first and the manifest replaced last, so a killed export
    leaves the lake as it was. It reports the games new, changed, unchanged and removed (--prune).

    Exit 2 when the store cannot be read or OUT cannot be written (a full disk leaves each file,
    and the lake, as it was).

    Example: ledger export game42 --format jsonl --out game42.jsonl; ledger export --all --format parquet --out lake/ --prune
    """
    from ledger.store import GameNotFound, StoreError
    from ledger.store.duckdb import export_file_stems

    if (game_id is None) == (not all_games):
        err.print("ledger: name one GAME_ID or pass --all")
        raise typer.Exit(exitcodes.USAGE)
    if fmt is ExportFormat.parquet or all_games or out_path.is_dir():
        problem = (None if out_path.is_dir() or not out_path.exists() and not out_path.is_symlink()
                   else (write_problem(out_path, "a folder")
                         or f"{out_path}: is a file, not a folder"))
    else:
        problem = write_problem(out_path)
    if problem is not None:
        err.print(f"ledger: cannot write {problem}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if prune and (fmt is not ExportFormat.parquet or not all_games):
        err.print("ledger: --prune applies to a Parquet lake of every game (--all --format parquet)")
        raise typer.Exit(exitcodes.USAGE)
    if fmt is ExportFormat.parquet:
        _export_lake(db, out_path, None if all_games else game_id, prune, as_json)
        return
    store = _open(db, read_only=True)
    try:
        if all_games:
            ids = [g.game_id for g in store.games()]
            names = export_file_stems(ids)
            for done, gid in enumerate(ids):
                try:
                    store.export_jsonl(gid, out_path / f"{names[gid]}.jsonl")
                except OSError as exc:
                    err.print(f"ledger: cannot write {out_path / names[gid]}.jsonl: "
                              f"{os_reason(exc)}; {done} of {plural(len(ids), 'game')} written")
                    raise typer.Exit(exitcodes.UNREADABLE)
            if as_json:
                _emit_json({"out": str(out_path), "games": len(ids)})
            else:
                typer.echo(f"wrote {plural(len(ids), 'game')} to {out_path}/")
        else:
            target = (out_path / f"{export_file_stems([game_id])[game_id]}.jsonl"
                      if out_path.is_dir() else out_path)
            store.export_jsonl(game_id, target)
            if as_json:
                _emit_json({"out": str(target), "games": 1})
            else:
                typer.echo(f"wrote {game_id} to {target}")
    except GameNotFound as exc:
        err.print(f"ledger: {exc} ({_shown(db)})")
        raise typer.Exit(exitcodes.UNREADABLE)
    except StoreError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    except OSError as exc:
        err.print(f"ledger: cannot write to {exc.filename or out_path}: {os_reason(exc)}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        store.close()


@app.command()
def recheck(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Judge every stored game again with the current engine; list the games whose findings or
    result changed. Each game keeps the engine version it was last judged with.

    Example: ledger recheck --db ledger.duckdb
    """
    from ledger.store import StoreError

    store = _open(db, must_exist=True)
    try:
        total = store.game_count()
        bar = _bar(total, "rechecking")
        task = bar.add_task("recheck", total=total) if bar else None
        if bar:
            bar.start()
        try:
            changes = store.recheck(on_game=(lambda _: bar.advance(task)) if bar else None)
        finally:
            if bar:
                bar.stop()
    except StoreError as exc:
        err.print(f"ledger: recheck stopped: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        store.close()
    if as_json:
        _emit_json({"db": _shown(db), "games": total, "changed": [c.as_dict() for c in changes]})
        return
    for change in changes:
        out.print(change.format(), markup=False)
    out.print(f"rechecked {total} game{'s' if total != 1 else ''}: "
              f"{len(changes) or 'none'} changed")


@app.command("check-db")
def check_db(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Check the store's integrity: every game's events contiguous from seq 0, each line matching
    its hash, chain links valid, heads and counts matching the games table. Exit 0 or 1.

    Example: ledger check-db --db ledger.duckdb
    """
    store = _open(db, read_only=True)
    try:
        report = store.check()
    finally:
        store.close()
    if as_json:
        _emit_json({"db": _shown(db), "ok": report.ok, "games": report.games,
                    "events": report.events, "problems": report.problems})
    elif report.ok:
        out.print(f"{_shown(db)}: ok — {plural(report.games, 'game')}, {plural(report.events, 'event')}, "
                  f"every chain intact", markup=False)
    else:
        for problem in report.problems:
            out.print(f"{_shown(db)}: {problem}", markup=False)
        out.print(f"{_shown(db)}: {len(report.problems)} problem(s)")
    raise typer.Exit(exitcodes.OK if report.ok else exitcodes.FINDINGS)


def _export_lake(db: str, lake: Path, game_id: Optional[str], prune: bool, as_json: bool) -> None:
    """`ledger export --format parquet`: the lake brought up to date (ledger.lake)."""
    from analytics.lake import LakeError
    from ledger.lake import export_lake
    from ledger.store import GameNotFound, StoreError

    store = _open(db, read_only=True)
    bar: list[Any] = []

    def progress(done: int, total: int) -> None:
        if not bar:
            made = _bar(total, "exporting")
            bar.append(made)
            if made is not None:
                made.start()
                made.add_task("export", total=total)
        if bar[0] is not None:
            bar[0].update(bar[0].task_ids[0], completed=done)

    try:
        report = export_lake(store, lake, game_id=game_id, prune=prune, on_progress=progress)
    except GameNotFound as exc:
        err.print(f"ledger: {exc} ({db})")
        raise typer.Exit(exitcodes.UNREADABLE)
    except (StoreError, LakeError) as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    except OSError as exc:
        err.print(f"ledger: cannot write the lake {lake}: {exc.filename or ''}"
                  f"{': ' if exc.filename else ''}{os_reason(exc)}; the lake is as it was")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        if bar and bar[0] is not None:
            bar[0].stop()
        store.close()
    if as_json:
        _emit_json({"db": str(db), **report.as_dict()})
    else:
        out.print(report.summary(), markup=False)
        if report.rebuilt:
            out.print(f"written afresh: {report.rebuilt}", markup=False)
        if report.repaired:
            out.print(f"{plural(report.repaired, 'game')} written again: files of the lake "
                      f"listed in its manifest were missing", markup=False)
