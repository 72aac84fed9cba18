"""The store a command names (`--db`, env LEDGER_DB): where it is, how it is shown, and opened,
or a LedgerError with the exit code the command ends with."""

from __future__ import annotations

import os
from typing import Optional

from ledger.app.errors import UsageError

DEFAULT_DB = "ledger.duckdb"
"""The store a command uses when --db is not given (and LEDGER_DB is not set)."""

# How long a command waits for a database file another process is writing, before it gives up
# (env LEDGER_DB_WAIT, in seconds).
BUSY_WAIT_SECONDS = 10.0


def db_or_default(db: Optional[str]) -> str:
    """The store `db` names, or the default one (./ledger.duckdb)."""
    return db if db is not None else DEFAULT_DB


def shown(db: str) -> str:
    """The store as it may be printed (a database URL without its password)."""
    from ledger.store import display_name
    return display_name(db)


def busy_wait() -> float:
    """Seconds to wait for a store another process is writing (env LEDGER_DB_WAIT); UsageError
    when LEDGER_DB_WAIT is not a number."""
    try:
        return float(os.environ.get("LEDGER_DB_WAIT", BUSY_WAIT_SECONDS))
    except ValueError:
        raise UsageError(f"LEDGER_DB_WAIT must be a number of seconds, not "
                         f"{os.environ['LEDGER_DB_WAIT']!r}") from None


def open_db(db: str, *, read_only: bool = False, must_exist: bool = False):
    """The store at `db` (a file, created when a writer opens a missing one unless
    `must_exist`; or a database URL). StoreError (exit 2) when it cannot be opened, UsageError
    for a LEDGER_DB_WAIT that is not a number."""
    from ledger.store import StoreError, open_store, store_missing
    if must_exist and store_missing(db):
        raise StoreError(f"{db}: no such file (no store at this path; ledger ingest creates one)")
    return open_store(db, read_only=read_only, wait=busy_wait())
