"""`ledger audit`'s work: the files a folder stands for, each file judged (in worker processes
when that is worth it), checked against a campaign file, and the report of one file and of many.
The command (ledger/cli.py) prints what this returns."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Optional

from engine.core.text import plural
from ledger.app.judging import judge_file, plays_campaigns
from ledger.app.verify import findings_with_rulings
from ledger.datafiles import DataFiles
from replay.judge import Judgement
from replay.logfile import LogFileError, read_log


def log_files(files: list[Path]) -> list[Path]:
    """`files` with each folder replaced by the *.jsonl logs under it (a folder with no logs
    stays, and is reported as unreadable)."""
    if any(p.is_dir() for p in files):
        from ledger.ingest import log_paths
        files = [f for p in files for f in (log_paths([p]) or [p] if p.is_dir() else [p])]
    return files


def audit_summary(reports: list[dict]) -> list[str]:
    """The end of an audit of many files: files (and how many could not be read), games, how
    many have findings, and the findings by rule, most frequent first."""
    judged = [r for r in reports if "error" not in r]
    unreadable = len(reports) - len(judged)
    games = sum(r["games"] for r in judged)
    with_findings = sum(1 for r in judged if r["open_findings"] or r["fatal"])
    ruled = sum(1 for r in judged if r["ruled"])
    by_rule = Counter(f["rule"] for r in judged for f in r["findings"])
    head = (f"audited {plural(len(reports), 'file')}"
            + (f" ({unreadable} could not be read)" if unreadable else "")
            + f": {plural(games, 'game')}, {with_findings} of {plural(len(judged), 'file')} "
              f"with findings, {len(judged) - with_findings} without"
            + (f" ({ruled} of them ruled)" if ruled else "") + "; "
            + (f"{plural(sum(by_rule.values()), 'finding')} by rule:" if by_rule else "no findings"))
    width = max((len(rule) for rule in by_rule), default=0)
    return ["", head] + [f"  {rule.ljust(width)}  {n:>6,}"
                         for rule, n in sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0]))]


def judged_files(files: list[Path], db: Optional[str], strict: bool,
                 campaign: Optional[Path], jobs: Optional[int], data_files: DataFiles) -> Any:
    """Each file's Judgement for audit, or the LogFileError it raised, in the order of `files`:
    judged in worker processes (ledger.parallel) when there are many files on disk and no
    campaign or store to check them against (that needs each game's final state), else here."""
    from ledger import parallel
    n = parallel.default_jobs() if jobs is None else jobs
    if campaign is None and db is None and all(p.is_file() for p in files) and parallel.worth_it(files, n):
        tasks = [(str(p), data_files, strict) for p in files]
        for kind, value in parallel.ordered_map(parallel.audit_file, tasks, n):
            yield value if kind == "ok" else LogFileError(value)
        return
    for path in files:
        try:
            yield judge_file(path, data_files, db, strict=strict, keep_steps=False)
        except LogFileError as exc:
            yield exc


def check_in_campaign(j: Judgement, path: Path, campaign_file: Path) -> None:
    """Add the campaign's findings (a game from the wrong world, out of order) to a game played in
    campaigns. CampaignError (exit 2) when the campaign file cannot be used."""
    if not plays_campaigns(j.ruleset) or j.fatal is not None:
        return
    from ledger.campaign import CampaignError, game_findings_in, load_campaign
    try:
        c = load_campaign(campaign_file)
    except (CampaignError, OSError, ValueError) as exc:
        raise CampaignError(f"cannot use the campaign: {exc}") from exc
    start = read_log(path).events[0].payload if path.exists() else {}
    j.findings.extend(game_findings_in(c, j, start, campaign_file.parent))


def audit_dict(j: Judgement) -> dict:
    """One file's report, as `ledger audit --json` prints it."""
    return {"file": j.file, "game": j.game_id, "games": j.games_in_file if j.events else 0,
            "ruleset": j.ruleset, "version": j.ruleset_version,
            "data": j.data_digest, "data_notes": list(j.data_notes), "events": j.events, "clean": j.clean, "fatal": j.fatal,
            "chain_ok": j.chain_ok, "findings": findings_with_rulings(j),
            "open_findings": len(j.open_findings), "ruled": j.ruled,
            "rulings": [r.as_dict() for r in j.rulings], "result": j.result_dict()}

