"""The PostgreSQL store's schema, as numbered migrations: each step is applied once, in order, in
one transaction with its row in `schema_version`, under an advisory lock so that processes
opening the same database at once apply it once. A store opened for writing is brought to the
last step; one opened read-only must be there already.

The generic tables are the ones ledger/store/models.py and ledger/store/campaigns.py declare
(tests/test_store_postgres.py checks that every model column is here, with its type); the
analytics tables follow the registered rulesets' projections and are made when the store opens,
as on DuckDB (a ruleset's own tables are its data, not this schema's).

To change the schema: add a step at the end (never edit one that has shipped), and the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ledger.store.errors import NotAStore, StoreError

# pg_advisory_xact_lock key of the schema: any 64-bit number the ledger keeps for itself
SCHEMA_LOCK = 0x1ED6E4_5C4E3A


@dataclass(frozen=True)
class Migration:
    version: int
    title: str
    statements: Sequence[str]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "the event log: games, players, events, findings, snapshots, rejects, tournaments", (
        """CREATE TABLE tournaments (
            tournament_id VARCHAR PRIMARY KEY,
            name VARCHAR NOT NULL,
            held_on DATE)""",
        """CREATE TABLE games (
            game_id VARCHAR PRIMARY KEY,
            ruleset VARCHAR,
            ruleset_version VARCHAR,
            data_digest VARCHAR,
            players JSON,
            played_on DATE,
            event_count INTEGER NOT NULL,
            head_seq INTEGER NOT NULL,
            head_hash VARCHAR NOT NULL,
            winners JSON,
            result JSON,
            declared_winner VARCHAR,
            rounds INTEGER,
            finding_count INTEGER NOT NULL,
            fatal VARCHAR,
            source VARCHAR NOT NULL,
            tournament_id VARCHAR REFERENCES tournaments (tournament_id),
            ingested_at TIMESTAMP NOT NULL,
            updated_at TIMESTAMP NOT NULL,
            judged_at TIMESTAMP NOT NULL)""",
        "CREATE INDEX games_by_date ON games (played_on, game_id)",
        """CREATE TABLE players (
            game_id VARCHAR NOT NULL REFERENCES games (game_id),
            seat INTEGER NOT NULL,
            player_id VARCHAR NOT NULL,
            name VARCHAR,
            PRIMARY KEY (game_id, seat))""",
        # one row per (game, seq): the database itself refuses a second event at a seq, so
        # writers in any number of processes cannot both append there. No foreign key to games
        # (as on DuckDB: the games row is written first in the same transaction, check-db finds
        # an event without one). payload is derived from the stored line, never written apart.
        """CREATE TABLE events (
            game_id VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            type VARCHAR NOT NULL,
            actor VARCHAR,
            "at" VARCHAR,
            payload JSON GENERATED ALWAYS AS ((raw::json) -> 'payload') STORED,
            prev VARCHAR,
            hash VARCHAR NOT NULL,
            raw VARCHAR NOT NULL,
            PRIMARY KEY (game_id, seq))""",
        """CREATE TABLE findings (
            game_id VARCHAR NOT NULL REFERENCES games (game_id),
            idx INTEGER NOT NULL,
            line INTEGER,
            seq INTEGER,
            event VARCHAR,
            rule VARCHAR NOT NULL,
            kind VARCHAR NOT NULL,
            applied BOOLEAN,
            message VARCHAR NOT NULL,
            section VARCHAR NOT NULL,
            PRIMARY KEY (game_id, idx))""",
        """CREATE TABLE snapshots (
            game_id VARCHAR NOT NULL REFERENCES games (game_id),
            seq INTEGER NOT NULL,
            ruleset_version VARCHAR,
            digest VARCHAR NOT NULL,
            state JSON,
            PRIMARY KEY (game_id, seq))""",
        "CREATE SEQUENCE rejects_id_seq",
        """CREATE TABLE rejects (
            id INTEGER PRIMARY KEY DEFAULT nextval('rejects_id_seq'),
            file VARCHAR NOT NULL,
            line INTEGER,
            seq INTEGER,
            game_id VARCHAR,
            rule VARCHAR NOT NULL,
            message VARCHAR NOT NULL,
            raw VARCHAR,
            rejected_at TIMESTAMP NOT NULL)""",
        "CREATE INDEX rejects_by_file ON rejects (file, line, rule)",
    )),
    Migration(2, "the judge's carry, so that an append judges only its new events", (
        """CREATE TABLE game_states (
            game_id VARCHAR PRIMARY KEY,
            seq INTEGER NOT NULL,
            ruleset_version VARCHAR,
            data_digest VARCHAR,
            carry BYTEA,
            saved_at TIMESTAMP NOT NULL)""",
    )),
    Migration(3, "campaigns: games linked into the campaigns they name", (
        """CREATE TABLE campaigns (
            name VARCHAR PRIMARY KEY,
            ruleset VARCHAR NOT NULL,
            world0 JSON,
            world0_digest VARCHAR,
            setup JSON,
            created_at TIMESTAMP NOT NULL)""",
        """CREATE TABLE campaign_games (
            game_id VARCHAR PRIMARY KEY,
            campaign VARCHAR NOT NULL,
            game_no INTEGER NOT NULL,
            world_before VARCHAR,
            world_after VARCHAR,
            start_world JSON,
            end_world JSON,
            record JSON,
            status VARCHAR NOT NULL,
            waiting_for INTEGER,
            finding_count INTEGER NOT NULL,
            checked_at TIMESTAMP NOT NULL)""",
        "CREATE INDEX campaign_games_by_campaign ON campaign_games (campaign, game_no)",
        """CREATE TABLE campaign_findings (
            game_id VARCHAR NOT NULL,
            idx INTEGER NOT NULL,
            campaign VARCHAR NOT NULL,
            line INTEGER,
            seq INTEGER,
            event VARCHAR,
            rule VARCHAR NOT NULL,
            kind VARCHAR NOT NULL,
            message VARCHAR NOT NULL,
            section VARCHAR NOT NULL,
            PRIMARY KEY (game_id, idx))""",
    )),
)

LATEST = MIGRATIONS[-1].version


def schema_version(con: Any) -> int | None:
    """The last migration applied to the database (None: no ledger schema there)."""
    found = con.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchall()[0][0]
    if not found:
        return None
    return con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall()[0][0]


def migrate(con: Any, name: str, upto: int = LATEST) -> list[int]:
    """Apply the migrations the database lacks, up to `upto`, in the open transaction, holding
    the schema lock; the versions applied. StoreError if the database is at a later version
    than this ledger knows (made by a newer ledger)."""
    con.execute("SELECT pg_advisory_xact_lock(?)", [SCHEMA_LOCK]).fetchall()
    con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "title VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT "
                "(now() AT TIME ZONE 'utc'))").fetchall()
    at = schema_version(con) or 0
    if at > LATEST:
        raise StoreError(f"{name}: the store's schema is at version {at}, made by a newer ledger "
                         f"(this one knows versions up to {LATEST}); upgrade ledger")
    applied = []
    for step in MIGRATIONS:
        if at < step.version <= upto:
            for sql in step.statements:
                con.execute(sql).fetchall()
            con.execute("INSERT INTO schema_version (version, title) VALUES (?, ?)",
                        [step.version, step.title]).fetchall()
            applied.append(step.version)
    return applied


def check_current(con: Any, name: str) -> None:
    """For a read-only open: the schema is the one this ledger writes, else NotAStore or
    StoreError saying what to do."""
    at = schema_version(con)
    if at is None:
        raise NotAStore(f"{name} is not a ledger store (no ledger tables; a command that writes, "
                        f"such as ledger ingest, creates them)")
    if at < LATEST:
        raise NotAStore(f"{name} is a ledger store at schema version {at}, older than this "
                        f"ledger's {LATEST}: a command that writes (ledger recheck --db ...) "
                        f"migrates it")
    if at > LATEST:
        raise StoreError(f"{name}: the store's schema is at version {at}, made by a newer ledger "
                         f"(this one knows versions up to {LATEST}); upgrade ledger")
