"""`ledger odds` (registered on the main app): exact odds of one battle, from the `odds` hook of a
ruleset's record. The words after the battle (its own options, such as a policy) are the ruleset's
to read; the help is the hooks' own (their docstrings, and their `examples`: the words after
`ledger odds`)."""

from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from engine.core.ruleset import get_ruleset, rulesets
from ledger import exitcodes
from ledger.cli_base import Json, _emit_json, app, err


def odds_rulesets() -> list[str]:
    """The names of the rulesets that compute odds, the default first."""
    return [rs.name for rs in rulesets() if rs.odds is not None]


def _reads(name: str, text: str) -> bool:
    """Does ruleset `name` read this battle (for a hint when the default one cannot)?"""
    try:
        get_ruleset(name).odds(text)
    except ValueError:
        return False
    return True


def _battle_help() -> str:
    """The battle argument's help: each ruleset's own (its odds hook's docstring)."""
    return " ".join(f"{rs.title} (--ruleset {rs.name}): {' '.join((rs.odds.__doc__ or '').split())}"
                    for rs in rulesets() if rs.odds is not None)


def _examples() -> list[str]:
    """Example command lines, from each ruleset's odds hook (its `examples` attribute: the words
    after `ledger odds`); the default ruleset's without --ruleset."""
    lines = []
    for n, rs in enumerate(rs for rs in rulesets() if rs.odds is not None):
        for words in getattr(rs.odds, "examples", ()):
            lines.append("ledger odds " + ("" if n == 0 else f"--ruleset {rs.name} ") + words)
    return lines


def _command_help() -> str:
    examples = "\n\n".join(f"Example: {line}" for line in _examples())
    return ("Exact odds of a battle, computed from the rules of a ruleset (--ruleset): P(attacker "
            "takes the territory), P(defender holds), expected losses and what is left of each "
            "side, under a policy the output states (casualties, re-rolls, when the attacker stops, "
            "Missiles: whatever the ruleset's players choose).\n\n"
            + (examples + "\n\n" if examples else "")
            + "Exit 0, or 2 when the battle or an option cannot be read.")


@app.command(help=_command_help(),
             context_settings={"ignore_unknown_options": True, "allow_extra_args": False})
def odds(
    battle: Annotated[List[str], typer.Argument(help=_battle_help())],
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", help="Whose rules: " + ", ".join(odds_rulesets())
                                          + " (default: the first).")] = None,
    as_json: Json = False,
) -> None:
    """Exact odds of a battle under the rules of a ruleset (the help is built from the rulesets)."""
    names = odds_rulesets()
    name = ruleset or (names[0] if names else None)
    if name not in names:
        err.print(f"ledger odds: odds are computed for {', '.join(names) or 'no ruleset'}, not {name!r}")
        raise typer.Exit(exitcodes.USAGE)
    text = " ".join(battle)
    try:
        result = get_ruleset(name).odds(text)
    except ValueError as exc:
        readers = [] if ruleset else [n for n in names[1:] if _reads(n, text)]
        hint = "".join(f" ({get_ruleset(n).title} reads it: --ruleset {n})" for n in readers)
        err.print(f"ledger odds: {exc}{hint}", soft_wrap=True)
        raise typer.Exit(exitcodes.USAGE)
    if as_json:
        _emit_json(result.as_dict())
        return
    for line in result.lines():
        typer.echo(line)
