"""The `ledger` command line: a thin shell over replay/ and engine/; errors become a message and an
exit code here and nowhere else."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any, Optional

import typer

from engine.core.ruleset import get_ruleset, ruleset_names
from engine.core.text import plural
from ledger import exitcodes
from ledger.datafiles import DataFileError, DataFiles, data_for, data_of_log, with_data_options
from ledger.verdict import findings_with_rulings, verdict, winners_named  # noqa: F401  (moved there for `ledger tournament`)
from replay.logfile import LogFileError, read_log
from replay.judge import Finding, Judgement, judge
from replay.narrate import filter_problem, narrate, ruled_line, ruling_summary, steps_json

from ledger.cli_base import JsonOpt, _emit_json, _progress, app, err, os_reason, write_problem  # noqa: E402,F401

DbOpt = typer.Option(None, "--db", envvar="LEDGER_DB",
                     help="A store to look up game ids in: a DuckDB file or a postgresql:// URL (env LEDGER_DB; default ledger.duckdb).")


def _data_of(read: Any, data_files: DataFiles, path: Path) -> Any:
    """ledger.datafiles.data_of_log for a read log, its errors as LogFileError (exit 2)."""
    try:
        return data_of_log(read.events[0].payload if read.events else None, data_files, str(path))
    except DataFileError as exc:
        raise LogFileError(str(exc)) from exc


def _read_source(source: Path, db: Optional[str]):
    """A log file, or else a game id stored in the store: (the log, the stored game's campaign
    findings — a Risk Legacy game checked against the games of its campaign stored before it)."""
    if source.exists() or db is None and not Path("ledger.duckdb").exists():
        return read_log(source), []
    from ledger.store import GameNotFound, StoreError, display_name, load_log_from_store, open_store
    path = db or "ledger.duckdb"
    try:
        store = open_store(path, read_only=True, wait=float(os.environ.get("LEDGER_DB_WAIT", 10)))
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


def _judge_file(path: Path, data_files: DataFiles = (), db: Optional[str] = None,
                **kw: Any) -> Judgement:
    read, in_campaign = _read_source(path, db)
    j = judge(read, data=_data_of(read, data_files, path), **kw)
    j.findings.extend(in_campaign)
    if db is not None and path.is_file() and _plays_campaigns(j.ruleset) and j.fatal is None:
        j.findings.extend(_stored_campaign_findings(path, read, db))
    if kw.get("strict"):
        del j.findings[1:]
    return j


def _plays_campaigns(ruleset: Optional[str]) -> bool:
    """Is `ruleset` a registered ruleset whose games are played as campaigns?"""
    return ruleset in ruleset_names() and get_ruleset(ruleset).campaign is not None


def _stored_campaign_findings(path: Path, read: Any, db: str) -> list[Finding]:
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
        store = open_store(db, read_only=True, wait=float(os.environ.get("LEDGER_DB_WAIT", 10)))
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


@app.command()
@with_data_options
def replay(
    file: Path = typer.Argument(..., help="A game log (JSONL), or the id of a game in the store."),
    round_: Optional[int] = typer.Option(None, "--round", "-r", help="Only this round (with the board before and after); a round the game does not have exits 6."),
    turn: Optional[int] = typer.Option(None, "--turn", "-t", help="Only this turn of each round shown (as the headings number them); a turn the game (or --round) does not have exits 6."),
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Only this player's events; a player the game does not have exits 6."),
    as_json: bool = JsonOpt,
    db: Optional[str] = DbOpt,
    html: Optional[Path] = typer.Option(None, "--html", help="Also write a picture of the game (HTML): the board on a map, turn by turn, and the race by round."),
    seat: Optional[str] = typer.Option(None, "--as", metavar="SEAT", help="The game as this player saw it at the time (face-down cards, secret bids, hidden missions and Scar cards of the others hidden until revealed); 'spectator' for a spectator."),
    data_files: DataFiles = (),
) -> None:
    """Replay a game turn by turn: each decision, the dice, what they caused, the board after each turn.

    An organizer's ruling is shown beside the event it answers (⚖), an event a ruling took out
    of the game is marked ⊘. Exit 0: no findings, or every finding accepted by a ruling. 1:
    findings. 2: unreadable. 6: no such round, turn or player (the message names those the game
    has).

    Example: ledger replay sample_logs/game42.jsonl --round 6 --turn 2; ledger replay sample_logs/game42.jsonl --as orange
    """
    from replay.seat import StateRecorder, as_seen_by
    rec = StateRecorder() if seat is not None else None
    try:
        j = _judge_file(file, data_files, db, digests=True, views=True, observer=rec)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if rec is not None and j.players:
        if seat not in j.players and seat != "spectator":
            err.print(f"ledger: {file}: --as {seat!r} is not a player of this game "
                      f"(players: {', '.join(j.players) or 'none'}; or 'spectator')")
            raise typer.Exit(exitcodes.USAGE)
        j = as_seen_by(j, rec, seat if seat in j.players else None)
    problem = filter_problem(j, round_, turn, player)
    if problem is not None:
        err.print(f"ledger: {problem}")
        raise typer.Exit(exitcodes.NO_SUCH)
    if html is not None:
        from analytics.game_page import render_game_page
        from engine import get_ruleset
        data = data_for(get_ruleset(j.ruleset), data_files, str(file)) if data_files and j.ruleset else None
        try:
            drawn = render_game_page(j, html, data=data)
        except ValueError as exc:
            err.print(f"ledger: cannot draw {file}: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
        except OSError as exc:
            err.print(f"ledger: cannot write {html}: {os_reason(exc)}")
            raise typer.Exit(exitcodes.UNREADABLE)
        err.print(f"wrote {html}")
        if drawn.unplaced:
            err.print(f"ledger: warning: the map of {html} leaves out "
                      f"{', '.join(drawn.unplaced)} (no map position; the page says so)")
    if as_json:
        from replay.narrate import step_matches
        steps = [s for s in j.steps if step_matches(s, round_, turn, player)]
        _emit_json({"file": j.file, "game": j.game_id, "ruleset": j.ruleset, "version": j.ruleset_version,
                    "data": j.data_digest, "data_notes": list(j.data_notes), "players": j.players, "steps": steps_json(j, steps),
                    "result": j.result_dict(), "findings": findings_with_rulings(j),
                    "rulings": [r.as_dict() for r in j.rulings], "ruled": j.ruled})
    else:
        lines = narrate(j, round_=round_, turn=turn, player=player)
        if round_ is None and turn is None and player is None:
            # findings no event's step shows: about the start (GameStarted), e.g. a campaign's
            shown = {id(f) for s in j.steps for f in s.findings}
            unseen = [f for f in j.findings if id(f) not in shown and f.seq == 0]
            at = lines.index("== Result ==") if "== Result ==" in lines else len(lines)
            what = {"illegal": "ILLEGAL", "claim": "WRONG CLAIM", "log": "LOG"}
            lines[at:at] = (["  L1 #0 the start"] if unseen else []) + [
                f"      !! {what.get(f.kind, f.kind)} {f.rule}: {f.message} [{f.section}]"
                for f in unseen]
        for line in lines:
            typer.echo(line)
    raise typer.Exit(exitcodes.OK if not j.open_findings else exitcodes.FINDINGS)


@app.command()
@with_data_options
def audit(
    files: list[Path] = typer.Argument(..., help="One or more game logs, or ids of games in the store."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first finding of each file."),
    as_json: bool = JsonOpt,
    db: Optional[str] = DbOpt,
    campaign: Optional[Path] = typer.Option(None, "--campaign", help="A Risk Legacy campaign file: also check that each game starts from the world the campaign stood at before it."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes judging files side by side (default: one per core when there are many files; 1: none). The output is the same either way."),
    data_files: DataFiles = (),
) -> None:
    """Report every finding in the logs: file, line, seq, rule id, message, rulebook section.

    A folder stands for every *.jsonl file under it. Each organizer's ruling is shown beside the
    finding it answers, and a game whose every finding is accepted by a ruling is "ruled". Exit
    0 when clean or ruled, 1 when there are findings no ruling answers, 2 when a file cannot be
    read.

    Example: ledger audit sample_logs/*.jsonl; ledger audit tournament-2026/ --json > audit.json
    """
    if any(p.is_dir() for p in files):
        from ledger.ingest import log_paths
        # a folder with no logs stays, and is reported as unreadable
        files = [f for p in files for f in (log_paths([p]) or [p] if p.is_dir() else [p])]
    worst = exitcodes.OK
    reports = []
    prog = _progress(len(files), "auditing")
    if prog:
        prog.start()
        task = prog.add_task("audit", total=len(files))
    for path, judged in zip(files, _judged_files(files, db, strict, campaign, jobs, data_files)):
        try:
            if isinstance(judged, LogFileError):
                raise judged
            j = judged
            if campaign is not None:
                _check_in_campaign(j, path, campaign)
        except LogFileError as exc:
            why = (f"{path}: is a directory with no *.jsonl log file under it" if path.is_dir()
                   else str(exc))
            err.print(f"ledger: {why}")
            reports.append({"file": str(path), "error": why})
            worst = max(worst, exitcodes.UNREADABLE)
            continue
        finally:
            if prog:
                prog.advance(task)
        if j.open_findings or j.fatal:
            worst = max(worst, exitcodes.FINDINGS)
        reports.append(_audit_dict(j))
        if not as_json:
            for f in j.findings:
                typer.echo(f.format())
                by = j.accepted_by(f)
                if by is not None:
                    typer.echo(f"    {ruled_line(by)}")
            for r in j.rulings:
                typer.echo(f"{j.file}:{r.line} (seq {r.seq}): ruling {ruling_summary(r)}")
            if j.fatal and not j.findings:
                typer.echo(f"{j.file}: cannot be judged: {j.fatal}")
            if j.ruled:
                typer.echo(f"{j.file}: ruled ({plural(j.events, 'event')}; every finding is "
                           f"accepted by a ruling)")
            elif not j.findings and not j.fatal:
                typer.echo(f"{j.file}: clean ({plural(j.events, 'event')})")
            for note in j.data_notes:
                typer.echo(f"{j.file}: note: {note}")
    if prog:
        prog.stop()
    if as_json:
        _emit_json(reports if len(files) > 1 else reports[0])
    elif len(files) > 1:
        for line in _audit_summary(reports):
            typer.echo(line)
    raise typer.Exit(worst)


def _audit_summary(reports: list[dict]) -> list[str]:
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


def _judged_files(files: list[Path], db: Optional[str], strict: bool,
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
            yield _judge_file(path, data_files, db, strict=strict, keep_steps=False)
        except LogFileError as exc:
            yield exc


def _check_in_campaign(j: Judgement, path: Path, campaign_file: Path) -> None:
    """Add the campaign's findings (a game from the wrong world, out of order) to a Legacy game."""
    if not _plays_campaigns(j.ruleset) or j.fatal is not None:
        return
    from ledger.campaign import CampaignError, game_findings_in, load_campaign
    try:
        c = load_campaign(campaign_file)
    except (CampaignError, OSError, ValueError) as exc:
        err.print(f"ledger: cannot use the campaign: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    start = read_log(path).events[0].payload if path.exists() else {}
    j.findings.extend(game_findings_in(c, j, start, campaign_file.parent))


def _audit_dict(j: Judgement) -> dict:
    return {"file": j.file, "game": j.game_id, "games": j.games_in_file if j.events else 0,
            "ruleset": j.ruleset, "version": j.ruleset_version,
            "data": j.data_digest, "data_notes": list(j.data_notes), "events": j.events, "clean": j.clean, "fatal": j.fatal,
            "chain_ok": j.chain_ok, "findings": findings_with_rulings(j),
            "open_findings": len(j.open_findings), "ruled": j.ruled,
            "rulings": [r.as_dict() for r in j.rulings], "result": j.result_dict()}


@app.command()
@with_data_options
def verify(
    file: Path = typer.Argument(..., help="A game log, or the id of a game in the store."),
    winner: Optional[str] = typer.Option(None, "--winner", help="The reported winner to check (default: the log's GameEnded); 'a,b' for a shared win, 'none' for no winner (an empty name is refused, exit 2)."),
    as_json: bool = JsonOpt,
    db: Optional[str] = DbOpt,
    data_files: DataFiles = (),
) -> None:
    """Is this log intact, legal, and does it end with the reported result?

    Exit 0: verified. 1: rule errors. 2: unreadable, or an empty --winner. 3: malformed log. 4:
    hash chain broken or absent. 5: the reported result is not the one the rules give (see
    README, exit codes). The result line says in which round the game ended.

    Example: ledger verify sample_logs/game42.jsonl --winner blue
    """
    if winner is not None:
        try:
            winners_named(winner)
        except ValueError as exc:
            err.print(f"ledger: --winner {winner!r}: {exc}")
            raise typer.Exit(exitcodes.USAGE)
    try:
        j = _judge_file(file, data_files, db, keep_steps=False)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    v = verdict(j, winner)
    if as_json:
        _emit_json(v)
    else:
        typer.echo(f"{j.file}: " + ("RULED (verified under the organizer's rulings)" if v["ruled"]
                                    else "VERIFIED" if v["verified"] else "NOT VERIFIED"))
        for check in v["checks"]:
            typer.echo(f"  [{'ok' if check['ok'] else 'FAIL'}] {check['name']}: {check['detail']}")
        for note in j.data_notes:
            typer.echo(f"  note: {note}")
        shown = j.findings[:10]
        for f in shown:
            typer.echo("    " + f.format())
            by = j.accepted_by(f)
            if by is not None:
                typer.echo(f"      {ruled_line(by)}")
        if len(j.findings) > len(shown):
            typer.echo(f"    ... and {len(j.findings) - len(shown)} more (ledger audit {j.file})")
        if j.rulings:
            typer.echo(f"  rulings ({len(j.rulings)}):")
            for r in j.rulings:
                typer.echo(f"    {ruling_summary(r)}")
    raise typer.Exit(v["exit_code"])


@app.command()
def schema(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="Only this ruleset's events "
                                          "(default: a line of any registered ruleset's log)."),
) -> None:
    """Print the JSON Schema of a log line (envelope and every event payload).

    Example: ledger schema --ruleset risk-legacy > risk-legacy-log.schema.json
    """
    from ledger.schema import log_line_schema
    try:
        _emit_json(log_line_schema(ruleset))
    except KeyError:
        err.print(f"ledger: unknown ruleset {ruleset!r} (registered: {', '.join(ruleset_names())})")
        raise typer.Exit(exitcodes.USAGE)


@app.command()
def seal(
    file: Path = typer.Argument(..., help="A log written by hand or by another app (JSONL)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Where to write the sealed log (default: replace FILE)."),
    renumber: bool = typer.Option(False, "--renumber", help="Also number the events 0, 1, 2, ... in file order."),
) -> None:
    """Add (or recompute) the hash chain of a log, so later edits are detected.

    Example: ledger seal my-game.jsonl -o my-game.sealed.jsonl
    """
    from replay.logfile import seal as seal_envelopes, write_log
    try:
        read = read_log(file)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    blocking = [p for p in read.problems if p.rule not in exitcodes.CHAIN_RULES]
    if blocking or not read.events:
        for p in blocking:
            err.print(f"{file}:{p.line}: {p.rule}: {p.message}")
        err.print(f"ledger: {file} has problems to fix before it can be sealed")
        raise typer.Exit(exitcodes.MALFORMED)
    envs = []
    for i, e in enumerate(read.events):
        env = {"v": 1, "game": e.game, "seq": i if renumber else e.seq, "type": e.type,
               "actor": e.actor, "payload": e.payload}
        if e.at is not None:
            env["at"] = e.at
        envs.append(env)
    sealed = seal_envelopes(envs)
    target = out or file
    problem = write_problem(target)
    if problem is not None:
        err.print(f"ledger: cannot write {problem}")
        raise typer.Exit(exitcodes.UNREADABLE)
    try:
        write_log(target, sealed)
    except OSError as exc:
        err.print(f"ledger: cannot write {target}: {os_reason(exc)}; {target} is unchanged")
        raise typer.Exit(exitcodes.UNREADABLE)
    typer.echo(f"sealed {plural(len(sealed), 'event')} into {target}; head {sealed[-1]['hash']}")


@app.command()
def rules(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="Only this ruleset's rules (by its name, as a log's GameStarted names it); default: every registered ruleset."),
    as_json: bool = JsonOpt,
) -> None:
    """List every rule the engines enforce, ruleset by ruleset: id, rulebook section, the rule in words.

    --json: one object per rule (ruleset, title, id, section, text). Exit 2 for an unknown
    --ruleset (the message names those there are).

    Example: ledger rules | grep CASTLE; ledger rules --ruleset risk-legacy --json
    """
    from engine import get_ruleset
    from engine.core.ruleset import ruleset_names
    names = ruleset_names()
    if ruleset is not None and ruleset not in names:
        err.print(f"ledger: unknown ruleset {ruleset!r}; the rulesets are {', '.join(names)}")
        raise typer.Exit(exitcodes.USAGE)
    chosen = [get_ruleset(n) for n in ([ruleset] if ruleset is not None else names)]
    rows = [{"ruleset": rs.name, "title": rs.title, "id": r.id, "section": r.section, "text": r.text}
            for rs in chosen for r in rs.rules]
    if as_json:
        _emit_json(rows)
        return
    for i, rs in enumerate(chosen):
        mine = [r for r in rows if r["ruleset"] == rs.name]
        typer.echo(("\n" if i else "") + f"== {rs.title} ({rs.name} {rs.version}): {len(mine)} rules ==")
        for r in mine:
            typer.echo(f"{r['id']}  [{r['section']}]\n    {r['text']}")


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()


# Commands that live in their own modules register themselves on `app` when imported.
from ledger import cli_simulate  # noqa: E402,F401
from ledger import cli_odds  # noqa: E402,F401
from ledger import cli_store  # noqa: E402,F401
from ledger import cli_analytics  # noqa: E402,F401
from ledger import cli_campaign  # noqa: E402,F401
from ledger import cli_split  # noqa: E402,F401
from ledger import cli_tournament  # noqa: E402,F401
from ledger import cli_serve  # noqa: E402,F401
from ledger import cli_rule  # noqa: E402,F401
from ledger import cli_migrate  # noqa: E402,F401
from ledger import cli_data  # noqa: E402,F401
