"""`ledger simulate` (registered on the main app)."""
