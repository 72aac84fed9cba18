"""Where a store is: a DuckDB file (the default) or a PostgreSQL database named by its URL, and
the one place that opens a store from a --db value or $LEDGER_DB, picking the backend by it.

    open_store("ledger.duckdb")                              # DuckDBStore
    open_store("postgresql://ledger@127.0.0.1:5432/club")     # PostgresStore
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ledger.store.duckdb import DB_ENV, DEFAULT_DB, open_duckdb
from ledger.store.urls import URL, display_name, is_database_url, is_postgres

__all__ = ["display_name", "is_database_url", "location_of", "open_store", "store_missing"]


def location_of(db: str | Path | None) -> str:
    """The store named by `db`, else by $LEDGER_DB, else the default file, as text."""
    return str(db or os.environ.get(DB_ENV) or DEFAULT_DB)


def store_missing(db: str | Path | None) -> bool:
    """Is there certainly no store at `db`? A file that does not exist; a database URL is
    never said missing here (its server says, when it is opened)."""
    where = location_of(db)
    return not is_database_url(where) and not Path(where).exists()


def open_store(db: str | Path | None = None, *, read_only: bool = False,
               wait: float = 0.0) -> Any:
    """Open the store at `db` (default: $LEDGER_DB, else ledger.duckdb): a postgresql:// URL
    opens the PostgreSQL backend (its schema migrated to this version unless read_only), any
    other value a DuckDB file (created unless read_only; `wait`: seconds to wait while another
    process holds it, then StoreBusy). StoreError, with what is wrong, otherwise."""
    where = location_of(db)
    if is_postgres(where):
        from ledger.store.postgres import open_postgres
        return open_postgres(where, read_only=read_only, wait=wait)
    if is_database_url(where):
        from ledger.store.errors import StoreError
        scheme = URL.match(where).group(1)
        raise StoreError(f"{display_name(where)}: no store backend for {scheme}:// URLs (a "
                         f"store is a DuckDB file or a postgresql:// URL)")
    return open_duckdb(where, read_only=read_only, wait=wait)
