"""`ledger serve`: the live game-log service (docs/service.md)."""

from __future__ import annotations

import os
from typing import Optional

import typer

from ledger import exitcodes
from ledger.cli_base import DbOpt, app, err


@app.command()
def serve(
    db: DbOpt = None,
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on."),
    rate: str = typer.Option("20/s", "--rate", help="Appends one token may make: N/s, N/min or N/h; 'off' for no limit. Over it: 429 with Retry-After. With --workers, each worker counts its own."),
    burst: Optional[int] = typer.Option(None, "--burst", min=1, help="Appends one token may make at once before --rate applies (default: twice the rate per second, at least 5)."),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="Worker processes behind the one port (a postgresql:// store only: DuckDB lets one process write a file). A stream on any worker sees the appends made through every other."),
) -> None:
    """Serve games live over HTTP: seats with secret tokens, appends judged on the way in, the
    server's seeded dice, each seat's view, a spectators' stream and live page (docs/service.md).

    Example: ledger serve --db club.duckdb --port 8000 --rate 10/s   (then open http://127.0.0.1:8000/docs);
    ledger serve --db postgresql://ledger@127.0.0.1/club --workers 4
    """
    import uvicorn

    from ledger.service import create_app
    from ledger.service.guards import Rate
    from ledger.store import StoreError, is_database_url, location_of

    try:
        limit = Rate.parse(rate, burst)
    except ValueError as exc:
        err.print(f"ledger serve: {exc}")
        raise typer.Exit(exitcodes.USAGE)
    where = location_of(db)
    if workers > 1:
        if not is_database_url(where):
            err.print(f"ledger serve: --workers {workers} needs a store that several processes "
                      f"can write: a postgresql:// URL (DuckDB lets one process write {where})")
            raise typer.Exit(exitcodes.USAGE)
        try:
            create_app(where).state.store.close()     # opened (and migrated) once, here
        except StoreError as exc:
            err.print(f"ledger serve: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
        os.environ["LEDGER_DB"] = where                # each worker opens it (app_from_env)
        os.environ["LEDGER_SERVE_RATE"] = rate
        if burst is not None:
            os.environ["LEDGER_SERVE_BURST"] = str(burst)
        err.print(f"ledger serve: appends per token, per worker: {limit or 'no limit'}")
        uvicorn.run("ledger.service.app:app_from_env", factory=True, host=host, port=port,
                    workers=workers, log_level="info")
        return
    try:
        application = create_app(where, rate=limit)
    except StoreError as exc:
        err.print(f"ledger serve: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    err.print(f"ledger serve: appends per token: {limit or 'no limit'}")
    uvicorn.run(application, host=host, port=port, log_level="info")
