"""`ledger odds` (registered on the main app): exact odds of one battle, from analytics/odds.py."""

from __future__ import annotations

from fractions import Fraction
from typing import List

import typer

from analytics.odds import (
    BattleOdds, BattleParseError, Policy, REROLL_POLICIES, battle_odds, parse_battle, parse_casualty_order,
)
from ledger import exitcodes
from ledger.cli import JsonOpt, _emit_json, app, err


@app.command()
def odds(
    battle: List[str] = typer.Argument(..., help='The battle: "ATTACKER vs DEFENDER [in a castle]", e.g. '
                                       '"3 footmen + 1 siege vs 2 archers in a castle" or "3F 1S vs 2A castle".'),
    casualties: str = typer.Option("cheapest-first", "--casualties",
                                   help="Order in which both sides remove casualties: cheapest-first "
                                        "(footman, archer, cavalry, siege) or the four types, e.g. SCAF."),
    reroll: str = typer.Option("below-average", "--reroll",
                               help=f"Castle re-roll policy: {' or '.join(REROLL_POLICIES)}."),
    exact: bool = typer.Option(False, "--exact", help="Exact fractions (slow for big armies)."),
    as_json: bool = JsonOpt,
) -> None:
    """Exact odds of a battle: P(attacker takes the territory), P(defender holds), P(both
    eliminated), expected losses and survivors, under a stated casualty and re-roll policy.

    Example: ledger odds "3 footmen + 1 siege vs 2 archers in a castle"

    Exit 0, or 2 when the battle or an option cannot be read.
    """
    text = " ".join(battle)
    try:
        attacker, defender, castle = parse_battle(text)
        policy = Policy(casualty_order=parse_casualty_order(casualties), reroll=reroll)
    except (BattleParseError, ValueError) as exc:
        err.print(f"ledger odds: {exc}", soft_wrap=True)
        raise typer.Exit(exitcodes.USAGE)
    result = battle_odds(attacker, defender, castle, policy, exact=exact)
    if as_json:
        _emit_json(result.as_dict())
        return
    for line in report_lines(result):
        typer.echo(line)


def report_lines(o: BattleOdds) -> list[str]:
    """The battle's odds for a reader."""
    def p(x) -> str:
        return f"{float(x):.4f}" + (f"  ({x})" if isinstance(x, Fraction) else "")

    def left(expected: dict) -> str:
        return ", ".join(f"{float(v):.2f} {u}" for u, v in expected.items())

    return [
        f"{o.attacker.describe()} attack {o.defender.describe()}" + (" behind a castle" if o.castle else ""),
        f"  attacker takes the territory  {p(o.attacker_wins)}",
        f"  defender holds                {p(o.defender_holds)}",
        f"  both eliminated               {p(o.both_eliminated)}",
        f"  expected losses               attacker {float(o.expected_attacker_losses):.2f} of "
        f"{o.attacker.total}, defender {float(o.expected_defender_losses):.2f} of {o.defender.total}",
        f"  expected survivors            attacker {left(o.expected_attacker_left)}; "
        f"defender {left(o.expected_defender_left)}",
        f"policy: {o.policy.describe()}",
    ]
