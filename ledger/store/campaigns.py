"""Campaigns in the store: the campaign tables, and linking each stored game into the campaign it
names. What a campaign is and how its games link is the ruleset's (`Ruleset.campaign`, the
engine.core.campaign.CampaignHooks reached through ledger.campaign.hooks_of, imported when a
campaign is linked: ledger.campaign never imports the store)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Optional

import polars as pl
from pydantic import NaiveDatetime
from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, select

from ledger.store.errors import StoreError
from ledger.store.mapper import _Batch, _now

# --- campaigns: games linked into the campaigns they name -------------------------------------------
#
# A game of a ruleset with campaign hooks whose first event names a campaign gets a campaign_games
# row when it is judged, and the campaign is linked again in the same transaction
# (the ruleset's `link`): which stored game is game N, whether it starts from the world
# game N-1 left, what it waits for. Rows of campaign_games and campaign_findings are replaced
# whenever the campaign is linked again; campaigns rows are kept.


class CampaignRow(SQLModel, table=True):
    """A campaign the store knows: named by a stored game, or created with `ledger campaign new
    NAME --db` (then with the world before its first game, which game 1 must start from)."""

    __tablename__ = "campaigns"
    name: str = Field(primary_key=True)
    ruleset: str                               # the ruleset whose campaign hooks link its games
    world0: Optional[dict] = Field(default=None, sa_column=Column(JSON))   # None: game 1 shows it
    world0_digest: Optional[str] = None
    setup: Optional[dict] = Field(default=None, sa_column=Column(JSON))    # powers, stickers
    created_at: NaiveDatetime                  # UTC


class CampaignGameRow(SQLModel, table=True):
    """A stored game as game `game_no` of its campaign: the worlds it starts from and leaves, its
    history record, and how it links to the game before it."""

    __tablename__ = "campaign_games"
    game_id: str = Field(primary_key=True)     # a game names one campaign
    campaign: str
    game_no: int
    world_before: Optional[str] = None         # digest of the world it starts from (None: none carried)
    world_after: Optional[str] = None          # digest of the world it leaves (None: not over)
    start_world: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    end_world: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    record: dict = Field(sa_column=Column(JSON))  # players, winner, what it changed (campaign show)
    status: str                                # fits | wrong-world | waiting | duplicate
    waiting_for: Optional[int] = None          # the game number it waits for
    finding_count: int = 0                     # its rows in campaign_findings
    checked_at: NaiveDatetime                  # UTC, last linked


class CampaignFindingRow(SQLModel, table=True):
    """A campaign finding of a stored game (the ruleset's campaign rules), about its first event; reported with the game's own findings by audit and verify."""

    __tablename__ = "campaign_findings"
    game_id: str = Field(primary_key=True)
    idx: int = Field(primary_key=True)
    campaign: str
    line: Optional[int] = None
    seq: Optional[int] = None
    event: Optional[str] = None
    rule: str
    kind: str
    message: str
    section: str


CAMPAIGN_MODELS = (CampaignRow, CampaignGameRow, CampaignFindingRow)

_CAMPAIGN_GAME_SCHEMA = {
    "game_id": pl.String, "campaign": pl.String, "game_no": pl.Int64, "world_before": pl.String,
    "world_after": pl.String, "start_world": pl.String, "end_world": pl.String,
    "record": pl.String, "status": pl.String, "waiting_for": pl.Int64, "finding_count": pl.Int64,
    "checked_at": pl.Datetime("us"),
}
_CAMPAIGN_FINDING_SCHEMA = {"game_id": pl.String, "idx": pl.Int32, "campaign": pl.String,
                            "line": pl.Int32, "seq": pl.Int32, "event": pl.String,
                            "rule": pl.String, "kind": pl.String, "message": pl.String,
                            "section": pl.String}




def _report_links(batch: _Batch) -> None:
    """Tell each stored outcome of the batch its campaign link (its findings count with the
    game's), and give the other games whose link changed to the batch's last game of their
    campaign."""
    last: dict[str, Any] = {}   # campaign -> the batch's IngestOutcome of its last game
    for outcome in batch.outcomes:
        link = batch.links.get(outcome.game_id) if outcome.status in ("new", "extended") else None
        if link is not None:
            outcome.campaign = link
            outcome.findings += len(link["findings"])
            last[link["name"]] = outcome
    for change in batch.relinked:
        if change["name"] in last:
            last[change["name"]].relinked.append(change)




class CampaignLinks:
    """The store's campaign part: reading the campaign tables and linking campaigns again in
    the open transaction (mixed into SqlStore, whose connection and helpers it uses)."""

    def _write_campaigns(self, batch: _Batch) -> None:
        """Replace the campaign_games rows of every game judged in the batch and link each
        campaign they are (or were) in again, in the open transaction (ledger.campaign)."""
        con = self._con
        fresh: dict[str, list[dict]] = {}
        for row in batch.campaign_rows:
            fresh.setdefault(row["campaign"], []).append(row)
        touched = set(fresh)
        if batch.relink:
            touched.update(c for (c,) in con.execute(
                "SELECT DISTINCT campaign FROM campaign_games WHERE game_id IN "
                "(SELECT unnest(?::VARCHAR[]))", [batch.relink]).fetchall())
            for table in ("campaign_games", "campaign_findings"):
                con.execute(f"DELETE FROM {table} WHERE game_id IN "
                            f"(SELECT unnest(?::VARCHAR[]))", [batch.relink]).fetchall()
        if not touched:
            return
        stamp = _now()
        for name in sorted(fresh):
            con.execute("INSERT INTO campaigns (name, ruleset, created_at) VALUES (?, ?, ?) "
                        "ON CONFLICT DO NOTHING", [name, fresh[name][0]["ruleset"], stamp]).fetchall()
        for name in sorted(touched):
            self._link(name, fresh.get(name, []), batch, stamp)

    def _link(self, name: str, fresh: list[dict], batch: _Batch, stamp: datetime) -> None:
        """Link campaign `name` again: the stored games' rows and the `fresh` ones (written
        here, whole); a stored game's row and findings are rewritten only when its link changed,
        and then listed in `batch.relinked`."""
        from ledger.campaign import hooks_of

        con = self._con
        self._lock_campaign(name)
        first = self._one("SELECT world0::VARCHAR, ruleset FROM campaigns WHERE name = ?", [name])
        world0 = json.loads(first[0]) if first and first[0] is not None else None
        hooks = hooks_of(first[1] if first else (fresh[0]["ruleset"] if fresh else None))
        stored = con.execute(
            "SELECT game_id, game_no, world_before, world_after, start_world::VARCHAR, "
            "end_world::VARCHAR, status, waiting_for FROM campaign_games WHERE campaign = ?",
            [name]).fetchall()
        rows = [dict(zip(("game_id", "game_no", "world_before", "world_after", "start_world",
                          "end_world", "status", "waiting_for"), r)) for r in stored] + \
            [{k: v for k, v in r.items() if k != "ruleset"} for r in fresh]
        if not rows:
            return
        judged = {r[0]: (r[1], r[2]) for r in con.execute(
            "SELECT game_id, finding_count, ingested_at FROM games WHERE game_id IN "
            "(SELECT unnest(?::VARCHAR[]))", [[r["game_id"] for r in rows]]).fetchall()}
        before: dict[str, list[tuple[str, str]]] = {}
        for gid, rule, message in con.execute(
                "SELECT game_id, rule, message FROM campaign_findings WHERE campaign = ? "
                "ORDER BY game_id, idx", [name]).fetchall():
            before.setdefault(gid, []).append((rule, message))
        games = []
        for r in rows:
            own, at = judged.get(r["game_id"], (0, None))
            games.append(hooks.game_type(
                r["game_id"], name, r["game_no"], r["world_before"], r["world_after"],
                json.loads(r["start_world"]) if r["start_world"] is not None else None,
                json.loads(r["end_world"]) if r["end_world"] is not None else None,
                own or 0, (0, at.isoformat() if at is not None else "", r["game_id"])))
        links = hooks.link(name, games, world0, None)
        new_rows, findings, changed = [], [], []
        is_fresh = {r["game_id"] for r in fresh}
        for r, link in zip(rows, links):
            gid = r["game_id"]
            said = [(f.rule, f.message) for f in link.findings]
            batch.links[gid] = {"name": name, "game": r["game_no"], "status": link.status,
                                "waiting_for": link.waiting_for,
                                "findings": [{"rule": f.rule, "message": f.message}
                                             for f in link.findings]}
            if gid not in is_fresh:
                if (r["status"], r["waiting_for"], before.get(gid, [])) == \
                        (link.status, link.waiting_for, said):
                    continue
                changed.append(gid)
                batch.relinked.append({"game_id": gid, **batch.links[gid],
                                       "status_before": r["status"],
                                       "findings_before": len(before.get(gid, []))})
            else:
                new_rows.append({**r, "status": link.status, "waiting_for": link.waiting_for,
                                 "finding_count": len(link.findings), "checked_at": stamp})
            findings += [(gid, i, name, f.line, f.seq, f.event, f.rule, f.kind, f.message,
                          f.section) for i, f in enumerate(link.findings)]
        if changed:
            con.execute("DELETE FROM campaign_findings WHERE game_id IN "
                        "(SELECT unnest(?::VARCHAR[]))", [changed]).fetchall()
            for gid in changed:
                link = batch.links[gid]
                con.execute("UPDATE campaign_games SET status = ?, waiting_for = ?, "
                            "finding_count = ?, checked_at = ? WHERE game_id = ?",
                            [link["status"], link["waiting_for"], len(link["findings"]), stamp,
                             gid]).fetchall()
        self._insert("campaign_games", pl.DataFrame(new_rows, schema=_CAMPAIGN_GAME_SCHEMA),
                     ("start_world", "end_world", "record"))
        self._insert("campaign_findings", pl.DataFrame(findings, schema=_CAMPAIGN_FINDING_SCHEMA,
                                                       orient="row"))


    def campaigns(self) -> list[CampaignRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            return list(session.exec(select(CampaignRow).order_by(CampaignRow.name)).all())

    def campaign_games(self, campaign: str | None = None) -> list[CampaignGameRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            query = select(CampaignGameRow)
            if campaign is not None:
                query = query.where(CampaignGameRow.campaign == campaign)
            return list(session.exec(query.order_by(
                CampaignGameRow.campaign, CampaignGameRow.game_no,
                CampaignGameRow.status == "duplicate", CampaignGameRow.game_id)).all())

    def campaign_findings(self, game_id: str) -> list[CampaignFindingRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            return list(session.exec(select(CampaignFindingRow).where(
                CampaignFindingRow.game_id == game_id).order_by(CampaignFindingRow.idx)).all())

    def create_campaign(self, name: str, ruleset: str, world0: dict, world0_digest: str,
                        setup: dict) -> None:
        self._writable()
        digest = world0_digest
        with self._transaction() as con:
            row = self._one("SELECT world0_digest FROM campaigns WHERE name = ?", [name])
            if row is not None and row[0] is not None:
                raise StoreError(f"campaign {name!r} already exists in {self.path} (its first "
                                 f"world is {row[0][:12]}...); a campaign is created once")
            if row is None:
                con.execute("INSERT INTO campaigns (name, ruleset, world0, world0_digest, setup, "
                            "created_at) VALUES (?, ?, ?::JSON, ?, ?::JSON, ?)",
                            [name, ruleset, json.dumps(world0), digest, json.dumps(setup),
                             _now()]).fetchall()
            else:
                con.execute("UPDATE campaigns SET world0 = ?::JSON, world0_digest = ?, "
                            "setup = ?::JSON WHERE name = ?",
                            [json.dumps(world0), digest, json.dumps(setup), name]).fetchall()
            self._link(name, [], _Batch(), _now())


    def _campaign_said(self) -> dict[str, list[tuple[str, str]]]:
        """Every stored game's campaign findings, as (rule, message)."""
        said: dict[str, list[tuple[str, str]]] = {}
        for gid, rule, message in self._con.execute(
                "SELECT game_id, rule, message FROM campaign_findings "
                "ORDER BY game_id, idx").fetchall():
            said.setdefault(gid, []).append((rule, message))
        return said


    def _check_campaigns(self) -> list[str]:
        """Campaign rows: each for a stored game, in a known campaign, counting its findings."""
        if not self._has_campaign_tables():
            return []
        problems = []
        for gid, campaign in self._con.execute(
                "SELECT game_id, campaign FROM campaign_games WHERE game_id NOT IN "
                "(SELECT game_id FROM games) OR campaign NOT IN (SELECT name FROM campaigns) "
                "ORDER BY game_id").fetchall():
            problems.append(f"game {gid!r}: a campaign_games row (campaign {campaign!r}) with no "
                            f"stored game or no campaigns row")
        for gid, stored, counted in self._con.execute("""
                SELECT c.game_id, c.finding_count, count(f.idx) FROM campaign_games c
                LEFT JOIN campaign_findings f USING (game_id)
                GROUP BY c.game_id, c.finding_count HAVING c.finding_count != count(f.idx)
                ORDER BY c.game_id""").fetchall():
            problems.append(f"game {gid!r}: campaign_games counts {stored} campaign findings, "
                            f"campaign_findings holds {counted}")
        return problems

