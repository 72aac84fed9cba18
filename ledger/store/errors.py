"""The store's errors: narrow types, messages that say what and where."""

from __future__ import annotations

from engine.core.errors import LedgerError
from ledger import exitcodes


class StoreError(LedgerError):
    """Something the store cannot do; the message says what and where."""

    exit_code = exitcodes.UNREADABLE


class NotAStore(StoreError):
    """The file is not a ledger store: not a DuckDB database, or one without the ledger's tables
    (an empty DuckDB file, another program's database)."""


class StoreBusy(StoreError):
    """Another process holds the database file; retry when it is done (retryable)."""

    def __init__(self, path: str, holder: str | None, waited: float):
        self.path, self.holder, self.waited = path, holder, waited
        who = f"another process ({holder})" if holder else "another process"
        after = f" after waiting {waited:.0f} s" if waited >= 1 else ""
        super().__init__(
            f"the store {path} is in use by {who}{after}; DuckDB lets one process write a "
            f"database file at a time — try again when it is done"
        )


class ConcurrencyConflict(StoreError):
    """An append expected another head: someone else appended first. Re-read, then retry."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int):
        self.game_id, self.expected_seq, self.actual_seq = game_id, expected_seq, actual_seq
        super().__init__(
            f"game {game_id!r}: expected to append at seq {expected_seq}, but the store holds "
            f"{actual_seq} event{'s' if actual_seq != 1 else ''} (next seq {actual_seq}); "
            f"read the game again and retry"
        )


class _WriteRefused(StoreError):
    """The database refused a write: a key that exists, or a write-write conflict."""

    def __init__(self, cause: Exception):
        super().__init__(f"the database refused the write (another writer got there first?): "
                         f"{cause}")


class InvalidAppend(StoreError, ValueError):
    """Appended envelopes that are not valid log events or do not continue the chain."""


class GameNotFound(StoreError, KeyError):
    """No game with this id is stored."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__(f"no game {game_id!r} in the store")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]

