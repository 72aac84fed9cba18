"""`ledger simulate` (registered on the main app)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ledger import exitcodes
from ledger.cli import JsonOpt, _emit_json, app, err


@app.command()
def simulate(
    ruleset: str = typer.Option("risk-europe", "--ruleset", help="Which ruleset the bots play."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to simulate."),
    seed: int = typer.Option(0, "--seed", help="The seed: the same seed writes the same files, byte for byte."),
    out: Path = typer.Option(Path("simulated"), "--out", "-o", help="The folder the logs are written to."),
    variant: str = typer.Option("basic", "--variant", help="The game the bots play: basic, mercenaries-3p, mercenaries-2p or teams, optionally +missions (teams: +long). See docs/variants.md."),
    as_json: bool = JsonOpt,
) -> None:
    """Simulate complete games played by seeded bots and write each as a sealed log.

    Each game is played to its end (or stopped after 60 rounds) with seeded dice and hidden
    bids and cards, and written as game-0001.jsonl, game-0002.jsonl, ... in OUT.

    Example: ledger simulate --games 100 --seed 7 --out simulated/ --variant mercenaries-3p
    """
    from ledger.simulate import MAX_ROUNDS, SimulatedGame, simulate_games

    if ruleset == "risk-legacy":
        _simulate_legacy(games, seed, out, as_json)
        return
    if ruleset != "risk-europe":
        err.print(f"ledger: the bots play risk-europe and risk-legacy, not {ruleset!r}")
        raise typer.Exit(exitcodes.USAGE)
    played: list[tuple[Path, SimulatedGame]] = []
    prog = None
    if games > 1 and err.is_terminal:
        prog = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=err, transient=True)
        prog.start()
        task = prog.add_task("simulate", total=games)

    def progress(done: int, total: int, game: SimulatedGame) -> None:
        played.append((out / f"game-{done:04d}.jsonl", game))
        if prog:
            prog.advance(task)

    try:
        simulate_games(games, seed, out, progress=progress, variant=variant)
    except ValueError as exc:      # an unknown variant, refused before any file is written
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.USAGE)
    except OSError as exc:
        err.print(f"ledger: cannot write to {out}: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        if prog:
            prog.stop()
    rows = [{"file": str(path), "game": g.game_id, "events": g.events, "rounds": g.rounds,
             "winner": g.winner, "reason": g.reason, "finished": g.finished} for path, g in played]
    wins = Counter(g.winner for _, g in played if g.finished)
    unfinished = [g.game_id for _, g in played if not g.finished]
    if as_json:
        _emit_json({"ruleset": ruleset, "variant": variant, "seed": seed, "out": str(out), "games": rows,
                    "events": sum(r["events"] for r in rows), "winners": dict(wins),
                    "unfinished": unfinished})
        return
    total = sum(r["events"] for r in rows)
    rounds = [r["rounds"] for r in rows]
    typer.echo(f"wrote {len(rows)} game{'s' if len(rows) != 1 else ''} to {out}/ "
               f"({total} events, {min(rounds)}-{max(rounds)} rounds)")
    if wins:
        typer.echo("winners: " + ", ".join(f"{p or 'shared'} {n}" for p, n in wins.most_common()))
    if unfinished:
        typer.echo(f"stopped after {MAX_ROUNDS} rounds without a winner: {', '.join(unfinished)}")


def _simulate_legacy(games: int, seed: int, out: Path, as_json: bool) -> None:
    """Independent Risk Legacy games, each on a freshly customized box (for a campaign of games on
    one evolving world, use `ledger campaign simulate`)."""
    from engine.risk_legacy.sim import play_game
    from replay.logfile import write_log

    rows = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for i in range(1, games + 1):
            game_id = f"legacy-{seed}-{i:04d}"
            g = play_game(seed * 100_000 + i, game_id)
            path = out / f"game-{i:04d}.jsonl"
            write_log(path, g.envelopes)
            rows.append({"file": str(path), "game": game_id, "events": g.events, "turns": g.turns,
                         "winner": g.winner, "reason": g.reason, "finished": g.finished})
    except OSError as exc:
        err.print(f"ledger: cannot write to {out}: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if as_json:
        _emit_json({"ruleset": "risk-legacy", "seed": seed, "out": str(out), "games": rows,
                    "events": sum(r["events"] for r in rows)})
        return
    wins = Counter(r["winner"] for r in rows if r["finished"])
    typer.echo(f"wrote {len(rows)} Risk Legacy game{'s' if len(rows) != 1 else ''} to {out}/ "
               f"({sum(r['events'] for r in rows)} events)")
    if wins:
        typer.echo("winners: " + ", ".join(f"{p} {n}" for p, n in wins.most_common()))
