"""The mapper: logs and judgements to rows (events, the games row, findings, snapshot, analytics,
a campaign game), and the batch of rows one transaction writes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Sequence

import polars as pl

from ledger.store.interface import IngestOutcome, Reject
from replay.logfile import LogRead, RawEvent
from engine.core.ruleset import get_ruleset, ruleset_names

_EVENT_SCHEMA = {"game_id": pl.String, "seq": pl.Int32, "type": pl.String, "actor": pl.String,
                 "at": pl.String, "prev": pl.String, "hash": pl.String, "raw": pl.String}


def event_frame(events: Sequence[RawEvent]) -> pl.DataFrame:
    """The rows of `events` for the events table (payload is parsed from `raw` by the database).

    The one mapping from log events to stored rows; `raw` is the line exactly as read, so the
    stored game exports back to the same bytes.
    """
    return pl.DataFrame({
        "game_id": [e.game for e in events], "seq": [e.seq for e in events],
        "type": [e.type for e in events], "actor": [e.actor for e in events],
        "at": [e.at for e in events], "prev": [e.prev for e in events],
        "hash": [e.hash for e in events], "raw": [e.raw for e in events],
    }, schema=_EVENT_SCHEMA)


def _now() -> datetime:
    """The current UTC time, naive (DuckDB TIMESTAMP)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _played_on(read: LogRead) -> date | None:
    at = read.events[0].at if read.events else None
    try:
        return date.fromisoformat(at[:10]) if at else None
    except ValueError:
        return None


def _player_names(first: RawEvent) -> list[tuple[str, str | None]]:
    players = first.payload.get("players") if isinstance(first.payload, dict) else None
    out = []
    for p in players if isinstance(players, list) else []:
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            name = p.get("name")
            out.append((p["id"], name if isinstance(name, str) else None))
    return out


@dataclass
class _Judged:
    """A judgement of a stored game, as rows."""

    game: dict[str, Any]
    players: list[tuple]
    findings: list[tuple]
    snapshot: tuple | None
    analytics: dict[str, list[tuple]] = field(default_factory=dict)  # table -> rows
    campaign: dict[str, Any] | None = None     # its campaign_games row (a Risk Legacy campaign game)
    carry: bytes | None = None                 # the judge at the head (Judge.carry), when kept


def carry_row(judged: _Judged) -> tuple:
    """The game_states row (without its timestamp) keeping the judged game's carry at its head."""
    game = judged.game
    return (game["game_id"], game["head_seq"], game["ruleset_version"], game["data_digest"],
            judged.carry)


def read_fingerprint(read: LogRead) -> tuple[int, str | None]:
    """(events, last event's hash) of a read: equal fingerprints of sealed logs of one game mean
    equal histories (the hash chain)."""
    return len(read.events), read.events[-1].hash if read.events else None


def _judgement_rows(read: LogRead, j: Any, *, event_count: int | None = None,
                    findings_from: int = 0) -> _Judged:
    """A judgement as rows; `read` may hold only the first event and the new ones of a game of
    `event_count` events, whose findings from `findings_from` on are new."""
    from engine.core.ruleset import get_ruleset

    game_id = read.events[0].game
    snapshot = None
    rounds = j.result.round if j.result else None
    if j.ruleset is not None and j.final_state is not None:
        rs = get_ruleset(j.ruleset)
        state = rs.snapshot(j.final_state)
        snapshot = (game_id, read.events[-1].seq, j.ruleset_version, rs.digest(j.final_state),
                    json.dumps(state, ensure_ascii=False, default=str))
        if rounds is None and isinstance(state, dict) and isinstance(state.get("round"), int):
            rounds = state["round"]
    findings = [(game_id, i, f.line, f.seq, f.event, f.rule, f.kind, f.applied, f.message,
                 f.section) for i, f in enumerate(j.findings) if i >= findings_from]
    names = dict(_player_names(read.events[0]))
    players = [(game_id, seat, pid, names.get(pid)) for seat, pid in enumerate(j.players)]
    last = read.events[-1]
    game = {
        "game_id": game_id, "ruleset": j.ruleset, "ruleset_version": j.ruleset_version,
        "data_digest": j.data_digest, "players": json.dumps(list(j.players)),
        "played_on": _played_on(read),
        "event_count": len(read.events) if event_count is None else event_count, "head_seq": last.seq,
        "head_hash": last.hash, "winners": json.dumps(list(j.result.winners)) if j.result else None,
        "result": json.dumps(j.result.as_dict(), default=str) if j.result else None,
        "declared_winner": j.declared_winner if j.has_declared_winner else None,
        "rounds": rounds, "finding_count": len(j.findings), "fatal": j.fatal,
        "source": read.name,
    }
    return _Judged(game, players, findings, snapshot, campaign=_campaign_row(read, j))


def _campaign_row(read: LogRead, j: Any) -> dict[str, Any] | None:
    """The campaign_games row of a judged game that names a campaign of its ruleset (its link
    columns are filled when the campaign is linked), or None."""
    if getattr(j, "final_state", None) is None or not _plays_campaigns(getattr(j, "ruleset", None)):
        return None
    from ledger.campaign import campaign_game

    found = campaign_game(read, j)
    if found is None:
        return None
    g, record = found
    return {"game_id": g.game_id, "ruleset": j.ruleset, "campaign": g.campaign, "game_no": g.game,
            "world_before": g.start_digest, "world_after": g.end_digest,
            "start_world": json.dumps(g.start_world) if g.start_world is not None else None,
            "end_world": json.dumps(g.end_world) if g.end_world is not None else None,
            "record": json.dumps(record, ensure_ascii=False, default=str)}




def _plays_campaigns(ruleset: str | None) -> bool:
    """Does `ruleset` (a registered one) play campaigns?"""
    if ruleset is None or ruleset not in ruleset_names():
        return False
    return get_ruleset(ruleset).campaign is not None


class _ArrowStream:
    """Hands a polars frame to DuckDB through the Arrow C stream interface (no pyarrow needed)."""

    def __init__(self, frame: pl.DataFrame):
        self.frame = frame

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self.frame.__arrow_c_stream__(requested_schema)



@dataclass
class _Batch:
    """Games planned inside the open transaction, written together at commit."""

    games_new: list[dict] = field(default_factory=list)
    games_updated: list[dict] = field(default_factory=list)   # with expected_head_seq
    players: list[tuple] = field(default_factory=list)
    events: list[RawEvent] = field(default_factory=list)
    findings: list[tuple] = field(default_factory=list)
    judged: list[str] = field(default_factory=list)           # games whose findings are replaced
    snapshots: list[tuple] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    outcomes: list[IngestOutcome] = field(default_factory=list)
    game_ids: set[str] = field(default_factory=set)
    analytics: dict[str, list[tuple]] = field(default_factory=dict)   # table -> rows
    rejudged: list[str] = field(default_factory=list)  # stored games whose analytics are replaced
    relink: list[str] = field(default_factory=list)    # stored games whose campaign is linked again
    carries: list[tuple] = field(default_factory=list)  # game_states rows
    tournament: str | None = None                      # new games are filed under this tournament
    campaign_rows: list[dict] = field(default_factory=list)   # campaign_games rows, unlinked
    links: dict[str, dict] = field(default_factory=dict)      # game -> its link, once linked
    relinked: list[dict] = field(default_factory=list)        # other games whose link changed

    def add_judged(self, judged: _Judged, stamp: datetime, expected: int | None,
                   new_events: Sequence[RawEvent]) -> None:
        row = dict(judged.game, updated_at=stamp, judged_at=stamp)
        if expected is None:
            row["ingested_at"] = stamp
            row["tournament_id"] = self.tournament
            self.games_new.append(row)
            self.players.extend(judged.players)
        else:
            row["expected_head_seq"] = expected - 1
            self.games_updated.append(row)
        self.events.extend(new_events)
        self.findings.extend(judged.findings)
        self.judged.append(row["game_id"])
        if judged.snapshot is not None:
            self.snapshots.append(judged.snapshot)
        self.add_analytics(judged, rejudged=expected is not None)
        self.add_campaign(judged)
        if judged.carry is not None:
            self.carries.append(carry_row(judged))
        self.game_ids.add(row["game_id"])

    def add_campaign(self, judged: _Judged) -> None:
        if judged.campaign is not None:
            self.campaign_rows.append(judged.campaign)

    def add_analytics(self, judged: _Judged, rejudged: bool) -> None:
        if rejudged:
            self.rejudged.append(judged.game["game_id"])
            self.relink.append(judged.game["game_id"])
        for table, rows in judged.analytics.items():
            self.analytics.setdefault(table, []).extend(rows)
