"""`ledger serve`: the live game-log service (docs/service.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from ledger import exitcodes
from ledger.cli_base import app, err


@app.command()
def serve(
    db: Path = typer.Option(None, "--db", help="The store (DuckDB file); default $LEDGER_DB or ledger.duckdb."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on."),
) -> None:
    """Serve games live over HTTP: seats with secret tokens, appends judged on the way in, the
    server's seeded dice, each seat's view, a spectators' stream (docs/service.md).

    Example: ledger serve --db club.duckdb --port 8000   (then open http://127.0.0.1:8000/docs)
    """
    import uvicorn

    from ledger.service import create_app
    from ledger.store import StoreBusy

    try:
        application = create_app(db)
    except StoreBusy as exc:
        err.print(f"ledger serve: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    uvicorn.run(application, host=host, port=port, log_level="info")
