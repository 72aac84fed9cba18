"""`ledger serve`: the live game-log service over the same store the CLI uses (docs/service.md).

    app = create_app("ledger.duckdb")        # a FastAPI app; uvicorn.run(app) serves it

One module per concern: `errors` (the JSON errors and their stable codes), `tables` (games,
seats and token hashes, in the store's DuckDB file beside the log), `live` (a game being played:
its judge kept in memory, who may append what, the dice the server rolls, every read as one
seat may see it) and `app` (the HTTP routes). Like the rest of `ledger/`, it names no game:
what it needs of one comes through the game's Ruleset record.
"""

from ledger.service.app import create_app

__all__ = ["create_app"]
