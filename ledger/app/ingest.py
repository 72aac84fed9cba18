"""`ledger ingest`'s work: log files (folders searched for *.jsonl) judged and stored, each game
whole or not at all (ledger/ingest.py does the storing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from ledger.app.db import open_db
from ledger.store import StoreError


def log_files(paths: list[Path]) -> list[Path]:
    """The logs `paths` name: files, and the *.jsonl files under folders."""
    from ledger.ingest import log_paths
    return log_paths(paths)


def ingest_logs(db: str, files: list[Path], *, tournament: Optional[str] = None,
                jobs: Optional[int] = None, on_read: Optional[Callable[[Any], None]] = None) -> Any:
    """Store `files` in the store `db`: the ingest report (ledger.ingest.IngestReport).
    `on_read` is called as each file is read (a progress bar). StoreError (exit 2) when the
    store cannot be opened or written; games committed before that stay stored."""
    from ledger.ingest import ingest_paths
    from ledger.parallel import default_ingest_jobs
    store = open_db(db)
    try:
        return ingest_paths(store, files, tournament=tournament, jobs=jobs or default_ingest_jobs(),
                            on_read=on_read)
    except StoreError as exc:
        raise StoreError(f"ingest stopped: {exc}. Games committed before this are stored; "
                         f"run the same ingest again to go on (it is idempotent).") from exc
    finally:
        store.close()
