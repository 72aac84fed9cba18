"""The one base type of the project's errors (issue #11).

Every error the product raises on purpose, in any layer, derives from `LedgerError`: the store's
(`StoreError`), the log reader's (`LogFileError`), a campaign's, a data file's, a tournament
sheet's, the engine's data and draw errors. It lives here, at the bottom of the layers, so that
every package may import it (the engine imports nothing above itself).

`exit_code` is the code the `ledger` command exits with when such an error ends a command; the
codes are named in ledger/exitcodes.py (which the engine may not import, so a subclass below
`ledger` writes the number and tests/test_errors.py checks it against the name)."""

from __future__ import annotations


class LedgerError(Exception):
    """Something the product cannot do with the input it was given; the message says what and
    where (file, line, key). `exit_code`: 2, unreadable input, unless a subclass says otherwise."""

    exit_code: int = 2
