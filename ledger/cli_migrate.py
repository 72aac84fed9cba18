"""`ledger migrate --from DB --to DB`: copy every game from one store into another, of either
backend (a DuckDB file or a postgresql:// URL), verified by head hashes (ledger.migrate)."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import exitcodes
from ledger.cli_base import Json, ProgressBar, _emit_json, app, err
from ledger.cli_store import _open, _shown


@app.command()
def migrate(
    source: Annotated[str, typer.Option("--from", help="The store to copy from: a DuckDB file or a postgresql:// URL (opened read-only).")] = ...,
    target: Annotated[str, typer.Option("--to", help="The store to copy into (created, or its schema migrated, if need be).")] = ...,
    as_json: Json = False,
) -> None:
    """Copy every game of one store into another, between DuckDB and PostgreSQL either way.

    Each game goes over as its stored log and is judged again by the target, as an ingest is
    (findings, analytics rows, campaign links); campaigns created with a first world and the
    kept rejects go over too. Then every game's head (seq and hash) is compared in both stores.
    Running it again copies only what is new (games already there are "present").

    Exit 0: every game copied and verified. 1: some game was refused by the target (it holds
    another history under that id) or a head differs (listed). 2: a store cannot be opened or
    written.

    Example: ledger migrate --from ledger.duckdb --to postgresql://ledger@127.0.0.1:5432/club
    """
    from ledger.migrate import migrate_store
    from ledger.store import StoreError, location_of

    if location_of(source) == location_of(target):
        err.print(f"ledger: --from and --to are the same store ({_shown(source)})")
        raise typer.Exit(exitcodes.USAGE)
    src = _open(source, read_only=True, must_exist=True)
    try:
        dst = _open(target)
    except typer.Exit:
        src.close()
        raise
    try:
        with ProgressBar(len(src.games()), "migrating") as bar:
            report = migrate_store(src, dst, on_game=bar.advance)
    except StoreError as exc:
        err.print(f"ledger: migrate stopped: {exc}. The games committed before this are in "
                  f"{_shown(target)}; run the same migrate again to go on.")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        dst.close()
        src.close()
    if as_json:
        _emit_json(report.as_dict())
    else:
        for game in report.games:
            if game.status == "rejected":
                err.print(f"ledger: {game.game_id}: refused by the target: {game.reason}")
        for problem in report.mismatches:
            err.print(f"ledger: {problem}")
        typer.echo(report.summary())
    raise typer.Exit(exitcodes.OK if report.ok else exitcodes.FINDINGS)
