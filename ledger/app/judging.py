"""Judging one log for the commands that read logs (`ledger audit`, `verify`, `replay`, `rule`):
the log from a file or from the store, the data files it is judged with, and, for a game played
in a campaign, the campaign's findings. Errors are LedgerErrors (a LogFileError: exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from engine.core.ruleset import get_ruleset, ruleset_names
from ledger.app.db import DEFAULT_DB, busy_wait, db_or_default
from ledger.datafiles import DataFileError, DataFiles, data_of_log
from replay.judge import Finding, Judgement, judge
from replay.logfile import LogFileError, read_log


def data_of(read: Any, data_files: DataFiles, path: Path) -> Any:
    """ledger.datafiles.data_of_log for a read log, its errors as LogFileError (exit 2)."""
    try:
        return data_of_log(read.events[0].payload if read.events else None, data_files, str(path))
    except DataFileError as exc:
        raise LogFileError(str(exc)) from exc


def read_source(source: Path, db: Optional[str]):
    """A log file, or else a game id stored in the store: (the log, the stored game's campaign
    findings — a Risk Legacy game checked against the games of its campaign stored before it)."""
    if source.exists() or db is None and not Path(DEFAULT_DB).exists():
        return read_log(source), []
    from ledger.store import GameNotFound, StoreError, display_name, load_log_from_store, open_store
    path = db_or_default(db)
    try:
        store = open_store(path, read_only=True, wait=busy_wait())
    except StoreError as exc:
        raise LogFileError(f"{source}: no such file, and the store cannot be opened ({exc})") from exc
    try:
        read = load_log_from_store(store, str(source), name=f"{display_name(path)}:{source}")
        return read, [Finding(read.name, f.line, f.seq, f.rule, f.message, f.section, f.kind, None,
                              f.event) for f in store.campaign_findings(str(source))]
    except GameNotFound as exc:
        raise LogFileError(f"{source}: no such file, nor a game stored in {display_name(path)}") from exc
    finally:
        store.close()


def judge_file(path: Path, data_files: DataFiles = (), db: Optional[str] = None,
               **kw: Any) -> Judgement:
    """The Judgement of the log `path` (a file, or a game id in the store `db`; without `db`,
    ./ledger.duckdb when it exists), judged with `data_files` and `kw` (replay.judge.judge's
    options; `strict`: the first finding only), with the campaign findings of a game played in a
    campaign that the store keeps. LogFileError (exit 2) when there is no such log."""
    read, in_campaign = read_source(path, db)
    j = judge(read, data=data_of(read, data_files, path), **kw)
    j.findings.extend(in_campaign)
    if db is not None and path.is_file() and plays_campaigns(j.ruleset) and j.fatal is None:
        j.findings.extend(stored_campaign_findings(path, read, db))
    if kw.get("strict"):
        del j.findings[1:]
    return j


def plays_campaigns(ruleset: Optional[str]) -> bool:
    """Is `ruleset` a registered ruleset whose games are played as campaigns?"""
    return ruleset in ruleset_names() and get_ruleset(ruleset).campaign is not None


def stored_campaign_findings(path: Path, read: Any, db: str) -> list[Finding]:
    """A Risk Legacy game file naming a campaign that the store `db` keeps: its campaign findings
    as if it were stored now, after the campaign's stored games (nothing is written). [] when
    the store keeps no such campaign."""
    campaign = read.events[0].payload.get("campaign") if read.events else None
    name = campaign.get("name") if isinstance(campaign, dict) else None
    if not isinstance(name, str):
        return []
    from ledger.campaign import CampaignError, audit_stored_campaign
    from ledger.store import StoreError, display_name, open_store
    try:
        store = open_store(db, read_only=True, wait=busy_wait())
    except StoreError as exc:
        raise LogFileError(f"{display_name(db)}: the store cannot be opened to check {path}'s campaign ({exc})") from exc
    try:
        stored = store.game(read.events[0].game)
        if stored is not None and stored.head_hash == read.events[-1].hash:
            # the very game the store holds (same chain head): its own campaign findings
            return [Finding(read.name, f.line, f.seq, f.rule, f.message, f.section, f.kind, None,
                            f.event) for f in store.campaign_findings(stored.game_id)]
        audits = audit_stored_campaign(store, name, [path])
    except CampaignError:
        return []                    # the store keeps no such campaign: the game stands alone
    finally:
        store.close()
    for a in audits:
        if a.log == read.name and a.judgement is not None:
            return a.findings[len(a.judgement.findings):]
    return []

