"""The errors the services raise themselves (the rest are the store's, the reader's, a
campaign's...): all LedgerErrors, each with the exit code of ledger/exitcodes.py it ends a
command with."""

from __future__ import annotations

from engine.core.errors import LedgerError
from ledger import exitcodes


class UsageError(LedgerError):
    """An option or argument that cannot be used as given (exit 2)."""

    exit_code = exitcodes.USAGE


class NoSuchError(LedgerError):
    """A filter or target that names what the game does not have: no such round, turn, player
    (exit 6)."""

    exit_code = exitcodes.NO_SUCH
