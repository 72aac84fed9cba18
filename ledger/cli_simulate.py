"""`ledger simulate` (registered on the main app): any ruleset whose record has a `simulate` hook;
its `simulate_options` become options of the command."""

from __future__ import annotations

import inspect
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from engine.core.projection import SimulatedGame
from engine.core.ruleset import DataOption, get_ruleset, rulesets
from engine.core.text import plural
from ledger import exitcodes
from ledger.cli_base import JsonOpt, ProgressBar, _emit_json, app, err, os_reason
from replay.logfile import write_log

Simulator = Callable[[int, int], SimulatedGame]
"""One game of a run: (seed of the run, 1-based index) -> the game."""


def simulators() -> list[str]:
    """The names of the rulesets that can be simulated, the default first."""
    return [rs.name for rs in rulesets() if rs.simulate is not None]


def game_id_for(seed: int, index: int) -> str:
    """The id of the `index`-th (1-based) game simulated from `seed`."""
    return f"sim-{seed}-{index:04d}"


def simulator(ruleset: str | None = None, **options: str) -> Simulator:
    """The games `ruleset` (default: the first that has bots) plays with `options`; KeyError for a
    ruleset without bots."""
    name = ruleset or simulators()[0]
    rs = get_ruleset(name)
    if rs.simulate is None:
        raise KeyError(name)
    return lambda seed, i: rs.simulate(seed, game_id_for(seed, i), options)


def simulate_games(games: int, seed: int, out_dir: Path,
                   progress: Callable[[int, int, SimulatedGame], None] | None = None,
                   ruleset: str | None = None, **options: str) -> list[Path]:
    """Simulate `games` games from `seed` into `out_dir` (game-0001.jsonl, ...); their paths.
    ValueError (from the ruleset) for an option its bots do not know, before any file is written.

    `progress(done, total, game)` is called after each game is written.
    """
    play = simulator(ruleset, **options)
    out_dir = Path(out_dir)
    paths = []
    for i in range(1, games + 1):
        game = play(seed, i)
        if i == 1:
            out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"game-{i:04d}.jsonl"
        write_log(path, game.envelopes)
        paths.append(path)
        if progress is not None:
            progress(i, games, game)
    return paths


def _all_options() -> list[DataOption]:
    """The union of every ruleset's simulate options (first declaration's help wins)."""
    seen: dict[str, DataOption] = {}
    for rs in rulesets():
        for opt in rs.simulate_options:
            seen.setdefault(opt.key, opt)
    return list(seen.values())


def simulate(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="Which ruleset the bots play (default: the first that has bots)."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to simulate."),
    seed: int = typer.Option(0, "--seed", help="The seed: the same seed writes the same files, byte for byte."),
    out: Path = typer.Option(Path("simulated"), "--out", "-o", help="The folder the logs are written to."),
    as_json: bool = JsonOpt,
    **given: Optional[str],
) -> None:
    """Simulate complete games played by seeded bots and write each as a sealed log.

    Each game is played to its end (or stopped at the bots' limit) with seeded dice and hidden
    choices, and written as game-0001.jsonl, game-0002.jsonl, ... in OUT.

    Example: ledger simulate --games 100 --seed 7 --out simulated/ --variant mercenaries-3p
    """
    options = {k: v for k, v in given.items() if v is not None}
    name = ruleset or simulators()[0]
    if name not in simulators():
        err.print(f"ledger: the bots play {', '.join(simulators())}, not {name!r}")
        raise typer.Exit(exitcodes.USAGE)
    declared = {o.key for o in get_ruleset(name).simulate_options}
    if set(options) - declared:
        bad = sorted(set(options) - declared)[0]
        err.print(f"ledger: {name} simulations take no --{bad} option")
        raise typer.Exit(exitcodes.USAGE)
    played: list[tuple[Path, SimulatedGame]] = []
    bar = ProgressBar(games, "simulating")

    def progress(done: int, total: int, game: SimulatedGame) -> None:
        played.append((out / f"game-{done:04d}.jsonl", game))
        bar.advance()

    try:
        with bar:
            simulate_games(games, seed, out, progress=progress, ruleset=name, **options)
    except ValueError as exc:      # an unknown option value, refused before any file is written
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.USAGE)
    except OSError as exc:
        err.print(f"ledger: cannot write to {out}: {os_reason(exc)}")
        raise typer.Exit(exitcodes.UNREADABLE)
    rows = [{"file": str(path), "game": g.game_id, "events": g.events, "rounds": g.rounds,
             "winner": g.winner, "reason": g.reason, "finished": g.finished} for path, g in played]
    wins = Counter(g.winner for _, g in played if g.finished)
    unfinished = [g.game_id for _, g in played if not g.finished]
    if as_json:
        _emit_json({"ruleset": name, **options, "seed": seed, "out": str(out), "games": rows,
                    "events": sum(r["events"] for r in rows), "winners": dict(wins),
                    "unfinished": unfinished})
        return
    total = sum(r["events"] for r in rows)
    rounds = [r["rounds"] for r in rows]
    typer.echo(f"wrote {plural(len(rows), 'game')} to {out}/ "
               f"({get_ruleset(name).title}, {plural(total, 'event')}, {min(rounds)}-{max(rounds)} rounds)")
    if wins:
        typer.echo("winners: " + ", ".join(f"{p or 'shared'} {n}" for p, n in wins.most_common()))
    if unfinished:
        typer.echo(f"stopped at the bots' limit without a winner: {', '.join(unfinished)}")


def _with_options(fn: Callable[..., Any], options: list[DataOption]) -> Callable[..., Any]:
    """`fn` with one `--<key>` option per DataOption in place of its `**given`, for typer."""
    sig = inspect.signature(fn)
    fixed = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    extra = [inspect.Parameter(o.key.replace("-", "_"), inspect.Parameter.KEYWORD_ONLY,
                               default=typer.Option(None, f"--{o.key}", help=o.help),
                               annotation=Optional[str]) for o in options]

    def command(**kw: Any) -> Any:
        fixed_kw = {p.name: kw.pop(p.name) for p in fixed}
        return fn(**fixed_kw, **{k.replace("_", "-"): v for k, v in kw.items()})
    command.__signature__ = sig.replace(parameters=fixed + extra)   # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in fixed + extra}
    command.__doc__ = fn.__doc__
    command.__name__ = fn.__name__
    return command


app.command(name="simulate")(_with_options(simulate, _all_options()))
