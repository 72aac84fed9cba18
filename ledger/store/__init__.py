"""The event store: games, their events and what the engine found in them, in DuckDB (one file,
the default) or PostgreSQL (a server many processes share).

One module per concern: `errors`, `models` (the generic tables), `analytics_tables` (the tables
made from the rulesets' projections), `campaigns`, `refusals` (STORE-*), `mapper` (judgement ->
rows), `judging` (judging a whole log, or an append's events with a game's live judge),
`interface` (the `EventStore` contract), `sql` (what every SQL backend shares), the adapters
`duckdb` and `postgres` (with `pg_migrations`, its versioned schema), and `location` (the one
place a --db value or $LEDGER_DB is opened: a postgresql:// URL picks PostgreSQL, anything else
is a DuckDB file). This package re-exports what callers use.

    store = open_store("ledger.duckdb")              # or $LEDGER_DB; created on first use
    store = open_store("postgresql://ledger@127.0.0.1:5432/club")   # schema migrated on open
    outcome = store.ingest_read(read_log(path))      # new | present | extended | rejected
    head = store.append("g7", 12, [envelope, ...])   # optimistic: ConcurrencyConflict if not at 12
    store.events("g7")                               # the stored lines, byte for byte
    store.events("g7", since=12)                     # only those from seq 12 on
    read = load_log_from_store(store, "g7")          # a LogRead, for replay/audit/verify

The contract (`EventStore`; every backend passes tests/test_store_contract.py):

- **Append-only, one chain per game.** A game's events are contiguous from seq 0 and chained by
  their hashes; nothing stored is rewritten. Only sealed logs are stored: the chain head hash is
  what makes re-ingest idempotent and lets an extension be recognised by one comparison.
- **A game is written in one transaction**, whole or not at all. Several games may share a
  transaction (group commit, `batch_events`): a crash loses at most the batch in flight, and every
  game in it is absent as a whole.
- **Re-ingesting a log is a no-op**; a log whose first events are the stored ones *extends* the game
  (only the new events are written, the game is judged again); a log that **contradicts** the
  stored game is refused, naming the first seq that differs, and the stored game is untouched.
- **An append names the seq it expects** (the number of events stored): a writer that is behind
  gets `ConcurrencyConflict`; re-sending events already stored at those seqs is a no-op.
- **The engine judges on write** (`replay.judge.judge`): each game is stored with its findings, the
  rules' result, the final state (a snapshot) and the ruleset version and data digest it was judged
  with. `recheck` judges every game again with the current engine.
- **An append judges only the new events**: a store keeps the judge of each game it appends to
  live in memory (fed up to the head, concluded without being ended: `Judge.peek`), judges the
  new events with it and writes their findings and rows; the rows written at a game's end
  (outcomes, the round in progress) are updated. Such an append reads nothing: its write checks
  the head (seq, hash and the last judgement's time), and if another writer moved the game on it
  is judged from the store instead. The judge's carry is kept in `game_states` (the engine state,
  the analytics fold, the findings so far) at ingest, when an append judged the whole game, every
  `judging.CARRY_EVERY` events and when the store closes; a store opened afresh (a restart, a
  crash) resumes it and feeds it the stored events after it. With no usable carry (none, another
  ruleset version or data, one made by an engine whose records had other fields: `Judge.resume`)
  or an event that reveals the dice seed, the append judges the whole game, as ingest does, and
  saves the carry.
- **Analytics rows are part of a judgement**: the rows each ruleset's fold makes (Risk Europe's
  orders played, battles, dice, per-round holdings and outcomes; `analytics.extract`,
  docs/analytics.md) are written with it and replaced when the game is judged again, like its
  findings. Their tables are made from the registered rulesets' `projections` when the store
  opens (a column a ruleset added is added to a stored table), so a new game brings its own.
- **Rejected input is kept**, never dropped: each refused log and each line that was not stored is
  a row of `rejects` (file, line, seq, rule, message, the line's text when known).
- **Risk Legacy campaigns are linked on write**: a game whose GameStarted names a campaign is
  recorded as game N of it (`campaign_games`: the worlds it starts from and leaves) and the
  campaign is linked again in the game's transaction (`ledger.campaign.link_campaign`): a game
  from the wrong world, a second game N, a game waiting for game N-1 get `campaign_findings`,
  replaced whenever the campaign is linked again (docs/risk-legacy.md, campaigns in the store).

Refusals (`rejects.rule` besides the reader's LOG-* rules):

    STORE-UNREADABLE   the file cannot be read (missing, a directory, binary, not UTF-8)
    STORE-NO-EVENTS    no line of it is a log event (empty, another format)
    STORE-UNSEALED     the log has no hash chain (seal it first: `ledger seal FILE`)
    STORE-CHAIN        the hash chain is broken (an edited, inserted, deleted or reordered line)
    STORE-CONTRADICTS  the store holds a different history for this game id
    STORE-MANY-GAMES   the file holds several games, concatenated (`ledger split FILE` them)

Concurrency. DuckDB lets one process at a time open a database file for writing; any other open
of it, even read-only, fails with "Could not set lock on file" (read-only opens share the file
only while no process writes). So:

- Writer processes take turns. `open_store(wait=s)` retries while the file is held, then raises
  `StoreBusy`: retryable, naming the holder's PID. The CLI waits $LEDGER_DB_WAIT seconds (10) and
  exits 2 with that message. Open, write, close: a process that keeps the store open (a server)
  keeps every other writer out.
- A writer that read a head in one turn and appends in a later one, after another process
  appended, gets `ConcurrencyConflict` from its append (the expected seq is checked inside the
  write transaction) and nothing is written; it reads the head again and retries. No event is
  lost or duplicated (tests/test_store_processes.py, with real processes).
- Inside a process, threads share one connection and the store serialises writes with a lock.
  Every write still re-checks inside its transaction: a compare-and-set on `games.head_seq`, and
  the (game_id, seq) primary key, so the same rules hold on a backend with concurrent writers
  (PostgreSQL, for many writers at once).
- A process killed mid-write (kill -9) loses only its open transaction: DuckDB replays its
  write-ahead log on the next open, and every game is whole or absent.

On PostgreSQL any number of processes write at once (ledger/store/postgres.py): the same
compare-and-set and the (game_id, seq) primary key decide, inside the database, who appended
first; the loser gets ConcurrencyConflict (an append) or has its batch planned again on the new
heads (an ingest: `SqlStore._commit_planned`), so no event is lost or stored twice. A killed
client's open transaction is rolled back by the server. Commits are announced with NOTIFY
(`EventStore.listen`), so the processes of `ledger serve` see each other's appends.
"""

from __future__ import annotations

from ledger.store.analytics_tables import ANALYTICS_TABLES, analytics_projections
from ledger.store.campaigns import CAMPAIGN_MODELS, CampaignFindingRow, CampaignGameRow, CampaignRow
from ledger.store.duckdb import DB_ENV, DEFAULT_DB, MODELS, DuckDBStore
from ledger.store.location import (display_name, is_database_url, location_of, open_store,
                                   store_missing)
from ledger.store.errors import (
    ConcurrencyConflict, GameNotFound, InvalidAppend, NotAStore, StoreBusy, StoreError,
)
from ledger.store.interface import (
    DEFAULT_BATCH_EVENTS, EventStore, Head, IngestOutcome, IntegrityReport, RecheckChange, Reject,
    load_log_from_store, log_text,
)
from ledger.store.judging import judge_for_store
from ledger.store.mapper import event_frame, read_fingerprint
from ledger.store.models import (
    EventRow, FindingRow, GameRow, GameStateRow, PlayerRow, RejectRow, SnapshotRow, TournamentRow,
)
from ledger.store.refusals import STORE_RULES

__all__ = [
    "ANALYTICS_TABLES", "CAMPAIGN_MODELS", "CampaignFindingRow", "CampaignGameRow", "CampaignRow",
    "ConcurrencyConflict", "DB_ENV", "DEFAULT_BATCH_EVENTS", "DEFAULT_DB", "DuckDBStore",
    "EventRow", "EventStore", "FindingRow", "GameNotFound", "GameRow", "GameStateRow", "Head",
    "IngestOutcome", "IntegrityReport", "InvalidAppend", "MODELS", "PlayerRow", "RecheckChange",
    "Reject", "RejectRow", "STORE_RULES", "SnapshotRow", "StoreBusy", "StoreError",
    "TournamentRow", "analytics_projections", "event_frame", "judge_for_store",
    "load_log_from_store", "NotAStore", "log_text", "open_store", "read_fingerprint",
    "display_name", "is_database_url", "location_of", "store_missing",
]
