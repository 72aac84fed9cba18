"""The service shell of ledger: CLI, log files (JSONL with a hash chain), store, ingest, HTTP API.

Everything with I/O lives here; the rules are in `engine`, which imports nothing from here.
"""
