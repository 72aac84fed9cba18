"""`ledger odds` (registered on the main app): exact odds of one battle, from the `odds` hook of a
ruleset's record. The words after the battle (its own options, such as a policy) are the ruleset's
to read."""

from __future__ import annotations

from typing import List, Optional

import typer

from engine.core.ruleset import get_ruleset, rulesets
from ledger import exitcodes
from ledger.cli_base import JsonOpt, _emit_json, app, err


def odds_rulesets() -> list[str]:
    """The names of the rulesets that compute odds, the default first."""
    return [rs.name for rs in rulesets() if rs.odds is not None]


def _battle_help() -> str:
    """The battle argument's help: each ruleset's own (its odds hook's module ODDS_HELP, else its
    docstring)."""
    helps = []
    for rs in rulesets():
        if rs.odds is not None:
            import importlib
            text = getattr(importlib.import_module(rs.odds.__module__), "ODDS_HELP", None)
            helps.append(f"{rs.title}: {text or (rs.odds.__doc__ or '').strip()}")
    return " ".join(helps)


@app.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": False})
def odds(
    battle: List[str] = typer.Argument(..., help=_battle_help()),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="Whose rules (default: the first ruleset with odds)."),
    as_json: bool = JsonOpt,
) -> None:
    """Exact odds of a battle: P(attacker takes the territory), P(defender holds), P(both
    eliminated), expected losses and survivors, under a stated casualty and re-roll policy.

    Example: ledger odds "3 footmen + 1 siege vs 2 archers in a castle"

    Exit 0, or 2 when the battle or an option cannot be read.
    """
    names = odds_rulesets()
    name = ruleset or (names[0] if names else None)
    if name not in names:
        err.print(f"ledger odds: odds are computed for {', '.join(names) or 'no ruleset'}, not {name!r}")
        raise typer.Exit(exitcodes.USAGE)
    try:
        result = get_ruleset(name).odds(" ".join(battle))
    except ValueError as exc:
        err.print(f"ledger odds: {exc}", soft_wrap=True)
        raise typer.Exit(exitcodes.USAGE)
    if as_json:
        _emit_json(result.as_dict())
        return
    for line in result.lines():
        typer.echo(line)
