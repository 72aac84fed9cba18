"""The services the `ledger` commands call (issue #11: a thin CLI): one module per noun, each
doing a command's work (reading, judging, checking, storing) and answering with plain values or
raising a LedgerError (engine/core/errors.py) whose `exit_code` the command exits with. The CLI
modules (ledger/cli*.py) parse options, call one of these, and print.

    judging   a log (a file, or a game id in the store) judged, with its campaign's findings
    audit     `ledger audit`: folders to files, files judged (in workers), the reports
    verify    `ledger verify` and `ledger tournament`: the organizer's verdict on a judged log
    replay    `ledger replay`: the game as a seat saw it, the filters, the page, the lines
    db        the store a command names with --db, opened (or a LedgerError)
    ingest    `ledger ingest`: logs into the store
    campaign  `ledger campaign ...`: campaign files or stored campaigns, new worlds, simulations

(Not to be confused with ledger/service/, the HTTP service of `ledger serve`.)"""
