"""`ledger split FILE --out DIR` (registered on the main app): a file of concatenated games as one
log per game, each game's lines copied byte for byte (so its hash chain still holds)."""

from __future__ import annotations

from itertools import accumulate
from pathlib import Path

from typing import Annotated

import typer

from engine.core.text import plural
from ledger import exitcodes
from ledger.cli_base import Json, _emit_json, app, err, os_reason, write_problem
from replay.logfile import LogFileError, read_log, write_atomically


def split_games(path: Path) -> list[tuple[str, bytes]]:
    """(game id, the file's bytes for that game) for every game `path` holds, in file order: a
    game runs from the line where it starts (another game id at seq 0) to the line before the
    next one; its bytes are the file's, unchanged. LogFileError when the file cannot be read;
    [] when it holds no event."""
    read = read_log(path)
    starts = list(read.game_starts) or ([(1, read.events[0].game)] if read.events else [])
    if not starts:
        return []
    data = Path(path).read_bytes()
    # the byte offset where each line starts
    offsets = [0, *accumulate(len(line) + 1 for line in data.split(b"\n"))]
    bounds = [offsets[line - 1] for line, _ in starts[1:]] + [len(data)]
    begin = 0
    games = []
    for (_, game_id), end in zip(starts, bounds):
        games.append((game_id, data[begin:end]))
        begin = end
    return games


@app.command()
def split(
    file: Annotated[Path, typer.Argument(help="A file holding several games, one after another.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The folder to write one log per game to (created if need be).")] = ...,
    as_json: Json = False,
) -> None:
    """Split a file of concatenated games into one log per game: OUT/<game id>.jsonl, each
    game's lines exactly as they were (a sealed game stays sealed: its hashes still hold). A
    game starts where a line with another game id has seq 0. Files of the same names in OUT
    are replaced.

    Exit 0, 2 when FILE cannot be read or OUT cannot be written, 3 when FILE holds no event.

    Example: ledger split tournament-dump.jsonl --out games/ && ledger audit games/
    """
    from ledger.store.duckdb import export_file_stems

    try:
        games = split_games(file)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if not games:
        err.print(f"ledger: {file}: holds no game to split (no line is a log event; "
                  f"ledger audit {file} says why)")
        raise typer.Exit(exitcodes.MALFORMED)
    problem = (write_problem(out, "a folder") or f"{out}: is a file, not a folder"
               if out.exists() and not out.is_dir() else None)
    if problem is not None:
        err.print(f"ledger: cannot write {problem}")
        raise typer.Exit(exitcodes.UNREADABLE)
    ids = [game_id for game_id, _ in games]
    stems = export_file_stems(ids)
    seen: dict[str, int] = {}
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for game_id, data in games:
            seen[game_id] = seen.get(game_id, 0) + 1
            # the same game id twice in one file: game.jsonl, game-2.jsonl, ...
            name = stems[game_id] + (f"-{seen[game_id]}" if seen[game_id] > 1 else "") + ".jsonl"
            write_atomically(out / name, data)
            written.append({"game": game_id, "file": str(out / name),
                            "lines": data.count(b"\n") + (not data.endswith(b"\n"))})
    except OSError as exc:
        err.print(f"ledger: cannot write to {out}: {os_reason(exc)}; "
                  f"{len(written)} of {plural(len(games), 'game')} written")
        raise typer.Exit(exitcodes.UNREADABLE)
    if as_json:
        _emit_json({"file": str(file), "games": written})
        return
    typer.echo(f"{file} holds {plural(len(games), 'game')}: wrote {len(written)} "
               f"{'log' if len(written) == 1 else 'logs'} to {out}/")
    for w in written:
        typer.echo(f"  {w['file']}  {w['game']} ({plural(w['lines'], 'line')})")
