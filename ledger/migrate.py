"""Copying a store into another, of any backend (DuckDB <-> PostgreSQL): `ledger migrate`.

    report = migrate_store(source, target)       # two open EventStores
    report.ok                                    # every game's head is the same in both

Every game goes over as its stored log, read back line for line (`load_log_from_store`), and is
ingested into the target, which judges it with its own engine as any ingest does: findings,
analytics rows and campaign links are made there, never copied. So the copy is idempotent (a
game the target holds already is `present`, a longer source game `extended`) and cannot smuggle
in a row the logs do not give. Before the games: each campaign created with a first world
(`ledger campaign new --db`), so its game 1 is checked against it; after them: the rejects the
source kept. Then each source game's head (seq and hash) is compared with the target's: equal
heads of sealed logs are equal histories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ledger.store import EventStore, Reject, StoreError, load_log_from_store

BATCH_EVENTS = 20_000


@dataclass
class MigratedGame:
    """One source game in the target: status new | extended | present | rejected."""

    game_id: str
    status: str
    events: int
    head: str | None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game_id, "status": self.status, "events": self.events,
                "head": self.head, "reason": self.reason}


@dataclass
class MigrationReport:
    source: str
    target: str
    games: list[MigratedGame] = field(default_factory=list)
    campaigns: list[str] = field(default_factory=list)       # created in the target
    rejects: int = 0                                          # source rejects handed over
    mismatches: list[str] = field(default_factory=list)       # what the head check found

    @property
    def ok(self) -> bool:
        return not self.mismatches and all(g.status != "rejected" for g in self.games)

    def count(self, status: str) -> int:
        return sum(g.status == status for g in self.games)

    def summary(self) -> str:
        events = sum(g.events for g in self.games)
        problems = len(self.mismatches) + self.count("rejected")
        verdict = ("every head verified" if self.ok else
                   f"{problems} problem{'s' if problems != 1 else ''} (listed above)")
        return (f"{self.source} -> {self.target}: {len(self.games)} games ({self.count('new')} "
                f"copied, {self.count('extended')} extended, {self.count('present')} already "
                f"there, {self.count('rejected')} refused), {events} events; "
                f"{len(self.campaigns)} campaigns created; {self.rejects} rejects kept; {verdict}")

    def as_dict(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "ok": self.ok,
                "games": len(self.games), "new": self.count("new"),
                "extended": self.count("extended"), "present": self.count("present"),
                "refused": self.count("rejected"), "campaigns_created": self.campaigns,
                "rejects": self.rejects, "mismatches": self.mismatches,
                "outcomes": [g.as_dict() for g in self.games]}


def migrate_store(source: EventStore, target: EventStore, *,
                  on_game: Callable[[MigratedGame], None] | None = None,
                  batch_events: int = BATCH_EVENTS) -> MigrationReport:
    """Copy every game of `source` into `target` (see the module doc); what happened to each,
    and the head check. StoreError if the target cannot be written."""
    report = MigrationReport(source.name, target.name)
    report.campaigns = _copy_campaigns(source, target, report.mismatches)
    rows = source.games()
    by_tournament: dict[str | None, list[Any]] = {}
    for row in rows:
        by_tournament.setdefault(row.tournament_id, []).append(row)

    def reads(games: list[Any]) -> Iterator[Any]:
        for row in games:
            yield load_log_from_store(source, row.game_id, name=row.source or row.game_id)

    def told(outcome: Any) -> None:
        head = target.head(outcome.game_id) if outcome.game_id else None
        game = MigratedGame(outcome.game_id, outcome.status, outcome.event_count,
                            head.hash if head else None, outcome.reason)
        report.games.append(game)
        if on_game is not None:
            on_game(game)

    for tournament in sorted(by_tournament, key=lambda t: (t is not None, t or "")):
        target.ingest_reads(reads(by_tournament[tournament]), tournament=tournament,
                            batch_events=batch_events, on_outcome=told)
    kept = source.rejects()
    if kept:
        target.record_rejects([Reject(r.file, r.line, r.seq, r.game_id, r.rule, r.message, r.raw)
                               for r in kept])
    report.rejects = len(kept)
    for row in rows:                               # equal heads of sealed logs: equal histories
        theirs = target.head(row.game_id)
        if theirs is None:
            report.mismatches.append(f"game {row.game_id!r}: not in the target")
        elif (theirs.seq, theirs.hash) != (row.head_seq, row.head_hash):
            report.mismatches.append(
                f"game {row.game_id!r}: the target's head (seq {theirs.seq}, "
                f"{theirs.hash[:12]}...) is not the source's (seq {row.head_seq}, "
                f"{row.head_hash[:12]}...)")
    return report


def _copy_campaigns(source: EventStore, target: EventStore, problems: list[str]) -> list[str]:
    """Create in `target` each campaign `source` was given a first world for; the names
    created (one the target has with the same world is left as it is)."""
    created = []
    theirs = {c.name: c for c in target.campaigns()}
    for c in source.campaigns():
        if c.world0 is None:
            continue                               # made by its games: they make it again
        there = theirs.get(c.name)
        if there is not None and there.world0_digest is not None:
            if there.world0_digest != c.world0_digest:
                problems.append(f"campaign {c.name!r}: the target starts it from another world "
                                f"({there.world0_digest[:12]}..., the source "
                                f"{c.world0_digest[:12]}...)")
            continue
        try:
            target.create_campaign(c.name, c.ruleset, c.world0, c.world0_digest, c.setup or {})
        except StoreError as exc:
            problems.append(f"campaign {c.name!r}: {exc}")
            continue
        created.append(c.name)
    return created
