"""`ledger rule GAME SEQ "TEXT" --decision D` (registered on the main app): an organizer's ruling
on one event, appended as a RulingRecorded event to a log file or to a stored game (ledger.rulings;
docs/log-format.md, "RulingRecorded")."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from engine.core.rulings import DECISIONS, ruling_line
from engine.core.text import plural
from ledger import exitcodes
from ledger.app.db import busy_wait
from ledger.cli_base import DbOpt, Json, _emit_json, app, err, os_reason, write_problem
from ledger.datafiles import DataFileError, DataFiles, data_of_log, with_data_options
from replay.logfile import LogFileError, LogRead, read_log


@app.command()
@with_data_options
def rule(
    source: Annotated[Path, typer.Argument(metavar="GAME_OR_FILE", help="A game log (JSONL), or the id of a game in the store.")],
    seq: Annotated[int, typer.Argument(metavar="SEQ", help="The seq of the event the ruling answers.")],
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The ruling in words.")],
    decision: Annotated[str, typer.Option("--decision", "-d", help="accept (the event stands as recorded: its findings are ruled), void (the event is taken out of the game), replay-from (every event from --from up to the ruling is taken out), or note (a remark).")] = "note",
    from_: Annotated[Optional[int], typer.Option("--from", help="With void: take out every event from this one to SEQ (a whole battle); with replay-from (required): the first event taken out, up to the ruling.")] = None,
    by: Annotated[Optional[str], typer.Option("--by", help="Who rules: the organizer's or judge's name.")] = None,
    at: Annotated[Optional[str], typer.Option("--at", help="When the ruling was made (RFC 3339, e.g. 2026-03-14T21:05:00Z; default: now, UTC).")] = None,
    as_json: Json = False,
    db: DbOpt = None,   # the store holding the game when GAME_OR_FILE is not a file
    data_files: DataFiles = (),
) -> None:
    """Add an organizer's ruling on one event: a RulingRecorded line, hash-chained, at the end of the log.

    A ruling is an event, never an edit: the log keeps the event it answers as it was. accept:
    its findings are answered, and a game whose every finding is accepted is reported as ruled;
    void (with --from: every event from --from to SEQ) and replay-from (every event from --from
    up to the ruling) take events out of the game, and the rest is judged without them; a note
    changes nothing. replay, audit and verify show each ruling beside the event it answers.

    Exit 0: added. 2: the file or store cannot be read or written, or the ruling is not valid
    (a blank text, an unknown decision, --from with accept or note, a ruling on a ruling). 3:
    the log cannot take another line (truncated, several games). 6: SEQ (or --from) is no event
    of the game (the message says which seqs it has).

    Example: ledger rule game42.jsonl 148 "the Siege Weapon was on the board; the recorder missed it" --decision accept --by "J. Smith"
    """
    from ledger.rulings import RulingRefused, append_to_file, ruling_payload
    if decision not in DECISIONS:
        err.print(f"ledger: --decision {decision!r}: one of {', '.join(DECISIONS)}")
        raise typer.Exit(exitcodes.USAGE)
    if at is not None and not _is_timestamp(at):
        err.print(f"ledger: --at {at!r}: an RFC 3339 time such as 2026-03-14T21:05:00Z")
        raise typer.Exit(exitcodes.USAGE)
    try:
        payload = ruling_payload(seq, text, decision, by=by, from_=from_)
        if source.exists() or db is None and not Path("ledger.duckdb").exists():
            problem = write_problem(source) if source.exists() else None
            if problem is not None:
                raise LogFileError(f"cannot write {problem}")
            envelope = append_to_file(source, payload, at)
            where, read = str(source), read_log(source)
        else:
            envelope, read = _append_stored(source, db or Path("ledger.duckdb"), payload, at)
            where = f"{db or 'ledger.duckdb'}:{source}"
        j = _judged(read, data_files, where)
    except RulingRefused as exc:
        err.print(f"ledger: {source}: no ruling added: {exc}")
        raise typer.Exit(exitcodes.NO_SUCH if exc.no_such else
                         exitcodes.MALFORMED if exc.malformed else exitcodes.USAGE)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    except OSError as exc:
        err.print(f"ledger: cannot write {source}: {os_reason(exc)}; it is unchanged")
        raise typer.Exit(exitcodes.UNREADABLE)
    state = _game_state(j)
    if as_json:
        _emit_json({"log": where, "game": envelope["game"], "seq": envelope["seq"],
                    "hash": envelope.get("hash"), "ruling": envelope["payload"],
                    "game_state": state, "open_findings": len(j.open_findings) if j else None,
                    "ruled": bool(j and j.ruled),
                    "rulings": [r.as_dict() for r in j.rulings] if j else []})
        return
    typer.echo(f"appended {envelope['type']} #{envelope['seq']} to {where}: "
               f"{ruling_line(envelope['payload'])}")
    if envelope.get("hash"):
        typer.echo(f"  head {envelope['hash']}")
    else:
        typer.echo(f"  the log is not sealed, so neither is the ruling (ledger seal {source})")
    typer.echo(f"  the game now: {state}")


def _is_timestamp(text: str) -> bool:
    """Is `text` an RFC 3339 date-time with its offset (as a log's "at" must be)?"""
    if len(text) < 20 or text[10] not in "Tt":
        return False
    try:
        return datetime.fromisoformat(text.replace("z", "Z")).tzinfo is not None
    except ValueError:
        return False


def _append_stored(game_id: Path, db: Path, payload: dict, at: str | None) -> tuple[dict, LogRead]:
    """Append to a game in the store at `db`: (the envelope stored, the game read back)."""
    from ledger.rulings import append_to_store
    from ledger.store import GameNotFound, StoreError, load_log_from_store, open_store
    try:
        store = open_store(db, wait=busy_wait())
    except StoreError as exc:
        raise LogFileError(f"{game_id}: no such file, and the store cannot be opened ({exc})") from exc
    try:
        envelope = append_to_store(store, str(game_id), payload, at)
        return envelope, load_log_from_store(store, str(game_id), name=f"{db}:{game_id}")
    except GameNotFound as exc:
        raise LogFileError(f"{game_id}: no such file, nor a game stored in {db}") from exc
    except StoreError as exc:
        raise LogFileError(f"{db}:{game_id}: the ruling cannot be stored: {exc}") from exc
    finally:
        store.close()


def _judged(read: LogRead, data_files: DataFiles, where: str) -> Any:
    """The game judged with its new ruling (None when the data files do not fit it)."""
    from replay.judge import judge
    try:
        data = data_of_log(read.events[0].payload if read.events else None, data_files, where)
    except DataFileError as exc:
        err.print(f"ledger: the ruling is added, but the game cannot be judged with the data given: {exc}")
        return None
    return judge(read, data=data, keep_steps=False)


def _game_state(j: Any) -> str:
    """What the game is now, in a few words."""
    if j is None or j.fatal is not None:
        return "cannot be judged" + (f": {j.fatal}" if j is not None else "")
    if j.ruled:
        answered = len(j.findings)
        return ("ruled: every finding is accepted by a ruling" if answered else
                "ruled: its rulings took events out, and the rest has no finding")
    if j.open_findings:
        n = len(j.open_findings)
        return f"{plural(n, 'open finding')} (ledger audit {j.file})"
    return "clean"
