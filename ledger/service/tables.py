"""The service's own tables, in the store's database beside the event log (not in it): the
games it runs (mode, dice, the seed it keeps until the end) and a hash per seat token. They are
reached through the store's public SQL (`EventStore.execute`, `transaction`, `create_tables`),
the same on DuckDB and PostgreSQL, so several server processes share them on PostgreSQL.

Tokens are 32 random bytes (url-safe base64), shown once when the game is created; only their
SHA-256 is kept, and a presented token is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

DDL = (
    "CREATE TABLE IF NOT EXISTS service_games (game_id VARCHAR PRIMARY KEY, ruleset VARCHAR "
    "NOT NULL, mode VARCHAR NOT NULL, dice_mode VARCHAR NOT NULL, seed VARCHAR, organizer_hash "
    "VARCHAR NOT NULL, seats VARCHAR NOT NULL, created_at VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS service_seats (game_id VARCHAR NOT NULL, seat VARCHAR NOT NULL, "
    "token_hash VARCHAR NOT NULL, PRIMARY KEY (game_id, seat))",
)

ORGANIZER = "organizer"
"""The role of the organizer's token (a seat's role is its player id)."""


def new_token() -> str:
    """A fresh secret token: 32 random bytes, url-safe base64."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is kept of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ServiceGame:
    """A game the service runs."""

    game_id: str
    ruleset: str
    mode: str                  # play | record
    dice_mode: str             # seeded | table
    seed: str | None           # kept until the end (seeded dice)
    organizer_hash: str
    seats: tuple[str, ...]     # the players, in seat order
    created_at: str


class ServiceTables:
    """The service tables in a store's database (created when missing). Not thread-safe: the
    caller serialises (the app holds one lock around the store)."""

    def __init__(self, store: Any):
        self.store = store
        store.create_tables(DDL)

    def add_game(self, game: ServiceGame, seat_tokens: dict[str, str]) -> None:
        with self.store.transaction() as tx:
            tx.execute("INSERT INTO service_games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [game.game_id, game.ruleset, game.mode, game.dice_mode, game.seed,
                        game.organizer_hash, json.dumps(list(game.seats)), game.created_at])
            for seat, token in seat_tokens.items():
                tx.execute("INSERT INTO service_seats VALUES (?, ?, ?)",
                           [game.game_id, seat, token_hash(token)])

    def game(self, game_id: str) -> ServiceGame | None:
        rows = self.store.execute("SELECT * FROM service_games WHERE game_id = ?", [game_id])
        return _game(rows[0]) if rows else None

    def games_of(self, organizer_token: str) -> list[ServiceGame]:
        rows = self.store.execute("SELECT * FROM service_games WHERE organizer_hash = ? "
                                  "ORDER BY created_at, game_id", [token_hash(organizer_token)])
        return [_game(r) for r in rows]

    def is_organizer_token(self, token: str) -> bool:
        return self.store.execute("SELECT count(*) FROM service_games WHERE organizer_hash = ?",
                                  [token_hash(token)])[0][0] > 0

    def role_of(self, game: ServiceGame, token: str) -> str | None:
        """ORGANIZER, a seat, or None for a token of no role in this game (constant-time
        comparison against every hash of the game)."""
        digest = token_hash(token)
        role = None
        if hmac.compare_digest(digest, game.organizer_hash):
            role = ORGANIZER
        for seat, kept in self.store.execute("SELECT seat, token_hash FROM service_seats "
                                             "WHERE game_id = ? ORDER BY seat", [game.game_id]):
            if hmac.compare_digest(digest, kept) and role is None:
                role = seat
        return role


def _game(row: tuple) -> ServiceGame:
    gid, rs, mode, dice, seed, org, seats, created = row
    return ServiceGame(gid, rs, mode, dice, seed, org, tuple(json.loads(seats)), created)


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
