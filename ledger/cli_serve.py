"""`ledger serve`: the live game-log service (docs/service.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ledger import exitcodes
from ledger.cli_base import app, err


@app.command()
def serve(
    db: Path = typer.Option(None, "--db", help="The store (DuckDB file); default $LEDGER_DB or ledger.duckdb."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on."),
    rate: str = typer.Option("20/s", "--rate", help="Appends one token may make: N/s, N/min or N/h; 'off' for no limit. Over it: 429 with Retry-After."),
    burst: Optional[int] = typer.Option(None, "--burst", min=1, help="Appends one token may make at once before --rate applies (default: twice the rate per second, at least 5)."),
) -> None:
    """Serve games live over HTTP: seats with secret tokens, appends judged on the way in, the
    server's seeded dice, each seat's view, a spectators' stream and live page (docs/service.md).

    Example: ledger serve --db club.duckdb --port 8000 --rate 10/s   (then open http://127.0.0.1:8000/docs)
    """
    import uvicorn

    from ledger.service import create_app
    from ledger.service.guards import Rate
    from ledger.store import StoreBusy

    try:
        limit = Rate.parse(rate, burst)
    except ValueError as exc:
        err.print(f"ledger serve: {exc}")
        raise typer.Exit(exitcodes.USAGE)
    try:
        application = create_app(db, rate=limit)
    except StoreBusy as exc:
        err.print(f"ledger serve: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    err.print(f"ledger serve: appends per token: {limit or 'no limit'}")
    uvicorn.run(application, host=host, port=port, log_level="info")
