"""`ledger replay`'s work: a game judged step by step (as one seat saw it, with --as), the
filters checked against what the game has, its page drawn, and what the command prints (the
lines, or the --json document)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from engine.core.errors import LedgerError
from ledger.app.errors import NoSuchError, UsageError
from ledger.app.judging import judge_file
from ledger.app.verify import findings_with_rulings
from ledger.datafiles import DataFiles, data_for
from replay.judge import Judgement
from replay.narrate import filter_problem, narrate, steps_json


def judged_for_replay(file: Path, data_files: DataFiles = (), db: Optional[str] = None,
                      seat: Optional[str] = None) -> Judgement:
    """The game in `file` (or stored as `file` in `db`) judged with every step's digest and
    views; with `seat` (a player, or "spectator"), as that seat saw it at the time. LogFileError
    (exit 2) for an unreadable log, UsageError for a seat that is no player of the game."""
    from replay.seat import StateRecorder, as_seen_by
    rec = StateRecorder() if seat is not None else None
    j = judge_file(file, data_files, db, digests=True, views=True, observer=rec)
    if rec is not None and j.players:
        if seat not in j.players and seat != "spectator":
            raise UsageError(f"{file}: --as {seat!r} is not a player of this game "
                             f"(players: {', '.join(j.players) or 'none'}; or 'spectator')")
        j = as_seen_by(j, rec, seat if seat in j.players else None)
    return j


def check_filters(j: Judgement, round_: Optional[int], turn: Optional[int],
                  player: Optional[str]) -> None:
    """NoSuchError (exit 6) when a filter names what the game does not have (the message names
    what it has)."""
    problem = filter_problem(j, round_, turn, player)
    if problem is not None:
        raise NoSuchError(problem)


def draw_page(j: Judgement, file: Path, html: Path, data_files: DataFiles = ()) -> Any:
    """Write the page of the game to `html` (analytics.game_page): what was drawn (its
    `unplaced` places have no map position). LedgerError (exit 2) for a game that cannot be
    drawn; OSError when `html` cannot be written."""
    from analytics.game_page import render_game_page
    from engine import get_ruleset
    data = data_for(get_ruleset(j.ruleset), data_files, str(file)) if data_files and j.ruleset else None
    try:
        return render_game_page(j, html, data=data)
    except ValueError as exc:
        raise LedgerError(f"cannot draw {file}: {exc}") from exc


def replay_dict(j: Judgement, round_: Optional[int], turn: Optional[int],
                player: Optional[str]) -> dict:
    """`ledger replay --json`: the game, its steps (those the filters keep), result, findings
    and rulings."""
    from replay.narrate import step_matches
    steps = [s for s in j.steps if step_matches(s, round_, turn, player)]
    return {"file": j.file, "game": j.game_id, "ruleset": j.ruleset, "version": j.ruleset_version,
            "data": j.data_digest, "data_notes": list(j.data_notes), "players": j.players, "steps": steps_json(j, steps),
            "result": j.result_dict(), "findings": findings_with_rulings(j),
            "rulings": [r.as_dict() for r in j.rulings], "ruled": j.ruled}


def replay_lines(j: Judgement, round_: Optional[int], turn: Optional[int],
                 player: Optional[str]) -> list[str]:
    """`ledger replay`'s text: the narration (replay/narrate.py), and, for the whole game, the
    findings no event's step shows (about the start) before the result."""
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
    return lines
