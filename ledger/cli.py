"""The `ledger` command line: a thin shell over the services of ledger/app/ (one per noun: audit,
verify, replay, ingest, campaign). A command parses its options, makes one call, and prints the
answer; a LedgerError becomes "ledger: <message>" and its exit code in one place
(ledger/cli_base.py, `LedgerTyper`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.core.ruleset import ruleset_names
from engine.core.text import plural
from ledger import exitcodes
from ledger.app.audit import audit_dict, audit_summary, check_in_campaign, judged_files, log_files
from ledger.app.judging import judge_file
from ledger.app.replay import check_filters, draw_page, judged_for_replay, replay_dict, replay_lines
from ledger.app.verify import verdict, winners_named
from ledger.datafiles import DataFiles, with_data_options
from replay.logfile import LogFileError, read_log
from replay.narrate import ruled_line, ruling_summary

from ledger.cli_base import (DbOpt, Json, JsonOpt, ProgressBar, _emit_json, app, err, os_reason,  # noqa: E402,F401
                             write_problem)


@app.command()
@with_data_options
def replay(
    file: Annotated[Path, typer.Argument(help="A game log (JSONL), or the id of a game in the store.")],
    round_: Annotated[Optional[int], typer.Option("--round", "-r", help="Only this round (with the board before and after); a round the game does not have exits 6.")] = None,
    turn: Annotated[Optional[int], typer.Option("--turn", "-t", help="Only this turn of each round shown (as the headings number them); a turn the game (or --round) does not have exits 6.")] = None,
    player: Annotated[Optional[str], typer.Option("--player", "-p", help="Only this player's events; a player the game does not have exits 6.")] = None,
    as_json: Json = False,
    db: DbOpt = None,
    html: Annotated[Optional[Path], typer.Option("--html", help="Also write a picture of the game (HTML): the board on a map, turn by turn, and the race by round.")] = None,
    seat: Annotated[Optional[str], typer.Option("--as", metavar="SEAT", help="The game as this player saw it at the time (face-down cards, secret bids, hidden missions and Scar cards of the others hidden until revealed); 'spectator' for a spectator.")] = None,
    data_files: DataFiles = (),
) -> None:
    """Replay a game turn by turn: each decision, the dice, what they caused, the board after each turn.

    An organizer's ruling is shown beside the event it answers (⚖), an event a ruling took out
    of the game is marked ⊘. Exit 0: no findings, or every finding accepted by a ruling. 1:
    findings. 2: unreadable. 6: no such round, turn or player (the message names those the game
    has).

    Example: ledger replay sample_logs/game42.jsonl --round 6 --turn 2; ledger replay sample_logs/game42.jsonl --as orange
    """
    j = judged_for_replay(file, data_files, db, seat)
    check_filters(j, round_, turn, player)
    if html is not None:
        try:
            drawn = draw_page(j, file, html, data_files)
        except OSError as exc:
            err.print(f"ledger: cannot write {html}: {os_reason(exc)}")
            raise typer.Exit(exitcodes.UNREADABLE)
        err.print(f"wrote {html}")
        if drawn.unplaced:
            err.print(f"ledger: warning: the map of {html} leaves out "
                      f"{', '.join(drawn.unplaced)} (no map position; the page says so)")
    if as_json:
        _emit_json(replay_dict(j, round_, turn, player))
    else:
        for line in replay_lines(j, round_, turn, player):
            typer.echo(line)
    raise typer.Exit(exitcodes.OK if not j.open_findings else exitcodes.FINDINGS)


@app.command()
@with_data_options
def audit(
    files: Annotated[list[Path], typer.Argument(help="One or more game logs, or ids of games in the store.")],
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first finding of each file.")] = False,
    as_json: Json = False,
    db: DbOpt = None,
    campaign: Annotated[Optional[Path], typer.Option("--campaign", help="A Risk Legacy campaign file: also check that each game starts from the world the campaign stood at before it.")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes judging files side by side (default: one per core when there are many files; 1: none). The output is the same either way.")] = None,
    data_files: DataFiles = (),
) -> None:
    """Report every finding in the logs: file, line, seq, rule id, message, rulebook section.

    A folder stands for every *.jsonl file under it. Each organizer's ruling is shown beside the
    finding it answers, and a game whose every finding is accepted by a ruling is "ruled". Exit
    0 when clean or ruled, 1 when there are findings no ruling answers, 2 when a file cannot be
    read.

    Example: ledger audit sample_logs/*.jsonl; ledger audit tournament-2026/ --json > audit.json
    """
    files = log_files(files)
    worst = exitcodes.OK
    reports = []
    with ProgressBar(len(files), "auditing") as bar:
        for path, judged in zip(files, judged_files(files, db, strict, campaign, jobs, data_files)):
            try:
                if isinstance(judged, LogFileError):
                    raise judged
                j = judged
                if campaign is not None:
                    check_in_campaign(j, path, campaign)
            except LogFileError as exc:
                why = (f"{path}: is a directory with no *.jsonl log file under it" if path.is_dir()
                       else str(exc))
                err.print(f"ledger: {why}")
                reports.append({"file": str(path), "error": why})
                worst = max(worst, exitcodes.UNREADABLE)
                continue
            finally:
                bar.advance()
            if j.open_findings or j.fatal:
                worst = max(worst, exitcodes.FINDINGS)
            reports.append(audit_dict(j))
            if not as_json:
                _print_audit(j)
    if as_json:
        _emit_json(reports if len(files) > 1 else reports[0])
    elif len(files) > 1:
        for line in audit_summary(reports):
            typer.echo(line)
    raise typer.Exit(worst)


def _print_audit(j) -> None:
    """One judged file, as `ledger audit` prints it: its findings (each with the ruling that
    accepts it), its rulings, and clean / ruled / cannot be judged."""
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


@app.command()
@with_data_options
def verify(
    file: Annotated[Path, typer.Argument(help="A game log, or the id of a game in the store.")],
    winner: Annotated[Optional[str], typer.Option("--winner", help="The reported winner to check (default: the log's GameEnded); 'a,b' for a shared win, 'none' for no winner (an empty name is refused, exit 2).")] = None,
    as_json: Json = False,
    db: DbOpt = None,
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
    j = judge_file(file, data_files, db, keep_steps=False)
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
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="Only this ruleset's events "
                                                   "(default: a line of any registered ruleset's log).")] = None,
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
    file: Annotated[Path, typer.Argument(help="A log written by hand or by another app (JSONL).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Where to write the sealed log (default: replace FILE).")] = None,
    renumber: Annotated[bool, typer.Option("--renumber", help="Also number the events 0, 1, 2, ... in file order.")] = False,
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
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="Only this ruleset's rules (by its name, as a log's GameStarted names it); default: every registered ruleset.")] = None,
    as_json: Json = False,
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
