"""Exit codes of the `ledger` command (README, "Exit codes")."""

OK = 0          # clean / verified
FINDINGS = 1    # rule findings (illegal events, wrong claims); for `audit`, any finding
UNREADABLE = 2  # a file cannot be read at all (missing, a directory, binary), or a bad option
USAGE = 2
MALFORMED = 3   # lines that are not valid log events (JSON, envelope, payload, unknown type, truncation)
CHAIN = 4       # the hash chain is broken or absent (edited, inserted, deleted, reordered events)
RESULT = 5      # the declared result is not the one the rules give (or the game is not over)
NO_SUCH = 6     # `replay`: a filter names what the game does not have (no such round, turn or player);
                # `rule`: a ruling on a seq the game does not have
INVALID_DATA = 7  # `data check`: a data file (board, cards) is readable but wrong (every problem listed)

from replay.logfile import CHAIN_BREAKING_RULES

CHAIN_RULES = CHAIN_BREAKING_RULES | {"LOG-UNSEALED"}
