"""`ledger campaign new | add | show | audit | next | simulate`: Risk Legacy campaigns (registered
on the main app). Each command makes one call into ledger.app.campaign (where a campaign is, new
worlds, simulations) or ledger.campaign (judging, linking) and turns the answer into output and
an exit code.

A campaign is a file (NAME.campaign.json: `new`, `add`) or the games of it in a store (`ledger
ingest` links them; `show`, `audit`, `next` with --db NAME read it, `new --db` records its first
world)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.core.text import plural
from ledger import exitcodes
from ledger.app.campaign import (WorldRefused, load, new_campaign, simulate_campaign, store_of,
                                 with_store)
from ledger.cli_base import DbOpt, Json, LedgerTyper, _emit_json, app, err

campaign_app = LedgerTyper(
    name="campaign",
    help="Risk Legacy campaigns: the games of one evolving world, in order.\n\n"
         "Example: ledger campaign new earth && ledger campaign add earth game-01.jsonl",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(campaign_app, name="campaign")

CampaignArg = Annotated[str, typer.Argument(help="The campaign file (or its name: NAME.campaign.json), "
                                            "or with --db the name of a campaign in the store.")]


@campaign_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The campaign's name.")],
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="The campaign file (default NAME.campaign.json).")] = None,
    powers: Annotated[Optional[str], typer.Option(
        "--powers", help="Each faction's starting power: faction=power-id or faction=0|1, "
                         "comma-separated (default: a coin flip).")] = None,
    stickers: Annotated[Optional[str], typer.Option(
        "--stickers", help="The 12 coin stickers: card=count, comma-separated, e.g. A1=2,A5=2,... "
                           "(default: random, as the rulebook suggests).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the coin flips and the random stickers.")] = 0,
    db: Annotated[Optional[str], typer.Option(
        "--db", help="Create the campaign in this store (a DuckDB file or a postgresql:// URL) "
                     "instead of a file: its game 1 must then start from this world when it is "
                     "ingested.")] = None,
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", help="The ruleset of the campaign (default: the one ruleset that plays "
                          "campaigns).")] = None,
    as_json: Json = False,
) -> None:
    """Start a campaign: the world customized "Before your first game".

    Example: ledger campaign new earth --seed 7
    """
    try:
        hooks, c, path = new_campaign(name, seed, powers, stickers, ruleset=ruleset, out=out, db=db)
    except WorldRefused as exc:
        for p in exc.problems:
            err.print(f"ledger: {p}")
        raise typer.Exit(exc.exit_code)
    if as_json:
        _emit_json({"file": None if db is not None else str(path), "db": str(db) if db else None,
                    "name": name, "ruleset": c.ruleset, "world": hooks.world_digest(c.world),
                    "setup": c.setup})
        return
    typer.echo(f"created campaign {name!r} in {path}; world {hooks.world_digest(c.world)[:16]}...")
    typer.echo("starting powers: " + ", ".join(f"{f} {p}" for f, p in c.setup["powers"].items()))
    typer.echo("coin stickers: " + ", ".join(f"{k} +{v}" for k, v in c.setup["stickers"].items()))
    where = f"{name} --db {db}" if db is not None else str(path)
    typer.echo(f"next: write game 1 starting from this world (ledger campaign next {where} --players a,b,c)")




@campaign_app.command("add")
def add(
    campaign: CampaignArg,
    log: Annotated[Path, typer.Argument(help="The game log to add as the campaign's next game.")],
    force: Annotated[bool, typer.Option("--force", help="Add a game with rule findings (never one from the wrong world).")] = False,
    as_json: Json = False,
) -> None:
    """Judge a game log and add it as the campaign's next game.

    The game must name the campaign and the next game number, start from the campaign's current
    world, be over, and (without --force) have no findings. Exit 0: added; 1: refused.

    Example: ledger campaign add earth.campaign.json game-02.jsonl
    """
    from ledger.campaign import add_game, save_campaign
    from replay.logfile import LogFileError

    path, c = load(campaign)
    try:
        res = add_game(c, log, path.parent, force=force)
    except LogFileError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if res.entry is not None:
        save_campaign(c, path)
    if as_json:
        _emit_json({"campaign": str(path), "log": str(log), "added": res.entry is not None,
                    "game": res.entry, "findings": [f.as_dict() for f in res.findings]})
    else:
        for f in res.findings:
            typer.echo(f.format())
        if res.entry is not None:
            e = res.entry
            typer.echo(f"added game {e['game']} to {c.name!r}: "
                       + (f"{e['winner']} won ({e['reason']})" if e["winner"] else "no winner"))
            for ch in e["changes"]:
                typer.echo(f"  - {ch}")
        else:
            typer.echo(f"NOT added: {log} does not fit {c.name!r} as game {c.next_game}")
    raise typer.Exit(exitcodes.OK if res.entry is not None else exitcodes.FINDINGS)


@campaign_app.command("show")
def show(campaign: CampaignArg, db: DbOpt = None, as_json: Json = False) -> None:
    """The campaign's history: who won what, what each game changed, the world now.

    From a store (--db): the games stored as games 1, 2, ... in a row, then any stored game not
    in that history (waiting for a game before it, a duplicate), with the campaign's findings.

    Example: ledger campaign show earth.campaign.json; ledger campaign show earth --db ledger.duckdb
    """
    from ledger.campaign import history, history_lines, stored_history, stored_history_lines
    store_db = store_of(campaign, db)
    if store_db is not None:
        told = with_store(store_db, lambda store: (stored_history if as_json else
                                                    stored_history_lines)(store, campaign))
        if as_json:
            _emit_json(told)
        else:
            for line in told:
                typer.echo(line)
        return
    _, c = load(campaign)
    if as_json:
        _emit_json(history(c))
        return
    for line in history_lines(c):
        typer.echo(line)


@campaign_app.command("audit")
def audit(
    campaign: CampaignArg,
    extra: Annotated[list[Path], typer.Argument(help="Logs to check as the games that would come next.")] = None,
    db: DbOpt = None,
    as_json: Json = False,
) -> None:
    """Re-judge every game of the campaign in order: each game's findings, and whether it starts
    from the world the games before it left. Extra logs are checked as the next games (with
    --db: as the games they say they are, as if ingested now; nothing is written).

    Exit 0 when clean, 1 with findings.

    Example: ledger campaign audit earth.campaign.json game-06.jsonl; ledger campaign audit earth --db ledger.duckdb
    """
    from ledger.campaign import audit_campaign, audit_stored_campaign
    store_db = store_of(campaign, db)
    if store_db is not None:
        path = f"{store_db}:{campaign}"
        audits = with_store(store_db, lambda store: audit_stored_campaign(store, campaign,
                                                                           list(extra or [])))
    else:
        path, c = load(campaign)
        audits = audit_campaign(c, path.parent, list(extra or []))
    found = any(a.findings for a in audits)
    if as_json:
        _emit_json({"campaign": str(path), "clean": not found,
                    "games": [{"game": a.game, "log": a.log, "clean": not a.findings,
                               "findings": [f.as_dict() for f in a.findings]} for a in audits]})
    else:
        for a in audits:
            if a.findings:
                for f in a.findings:
                    typer.echo(f"game {a.game}: {f.format()}")
            else:
                typer.echo(f"game {a.game}: {a.log}: clean")
    raise typer.Exit(exitcodes.FINDINGS if found else exitcodes.OK)


@campaign_app.command("next")
def next_game(
    campaign: CampaignArg,
    players: Annotated[str, typer.Option("--players", help="Player ids in clockwise seat order, comma-separated.")],
    game_id: Annotated[Optional[str], typer.Option("--game", help="The new log's game id (default NAME-NN).")] = None,
    db: DbOpt = None,
) -> None:
    """Print the first line (GameStarted) of the campaign's next game log: the campaign, the game
    number and the world it starts from (with --db: after the games stored as 1, 2, ... in a row).

    Example: ledger campaign next earth.campaign.json --players ann,bob,cat > game-02.jsonl
    """
    from ledger.campaign import next_game_start, stored_campaign
    from replay.logfile import format_line, make_envelope
    store_db = store_of(campaign, db)
    if store_db is not None:
        c = with_store(store_db, lambda store: stored_campaign(store, campaign).campaign)
    else:
        _, c = load(campaign)
    ids = [p.strip() for p in players.split(",") if p.strip()]
    payload = next_game_start(c, ids)
    env = make_envelope(game_id or f"{c.name}-{c.next_game:02d}", 0, "GameStarted", None, payload)
    typer.echo(format_line(env))


@campaign_app.command("simulate")
def simulate(
    name: Annotated[str, typer.Argument(help="The campaign's name.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 5,
    seed: Annotated[int, typer.Option("--seed", help="The same seed writes the same files, byte for byte.")] = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="The folder for the logs and the campaign file.")] = Path("campaign"),
    as_json: Json = False,
) -> None:
    """Seeded bots play a whole campaign: each game starts from the world the last one left.

    Writes game-01.jsonl ... and NAME.campaign.json (with every game added) into OUT.

    Example: ledger campaign simulate earth --games 5 --seed 3 --out earth/
    """
    from ledger.campaign import SUFFIX, add_game, history, save_campaign

    try:
        c, paths = simulate_campaign(name, games, seed, out)
    except OSError as exc:
        err.print(f"ledger: cannot write to {out}: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    for p in paths:
        res = add_game(c, p, out)
        if res.entry is None:
            err.print(f"ledger: simulated game {p} does not fit the campaign: "
                      + "; ".join(f.format() for f in res.findings[:3]))
            raise typer.Exit(exitcodes.FINDINGS)
    path = out / f"{name}{SUFFIX}"
    save_campaign(c, path)
    if as_json:
        _emit_json({"campaign": str(path), "logs": [str(p) for p in paths], "history": history(c)})
        return
    typer.echo(f"wrote {plural(len(paths), 'game')} and {path}")
    for g in c.games:
        typer.echo(f"  game {g['game']}: {g['winner']} won ({g['reason']}), {plural(g['events'], 'event')}, "
                   f"{plural(len(g['changes']), 'change')} to the world")
