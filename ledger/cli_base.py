"""What every `ledger` command module shares: the typer app the commands register on, the error
console, the `--json` option, JSON output and the progress bar. Command modules import this,
never `ledger.cli` (which imports them), so the CLI has no import cycle."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

app = typer.Typer(
    name="ledger",
    help="Record, replay and audit tabletop strategy games.\n\n"
         "Example: ledger verify sample_logs/game42.jsonl",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
# messages are never wrapped (a script greps them) nor read as rich markup (a file name may
# hold "[...]")
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)

JsonOpt = typer.Option(False, "--json", help="Machine-readable JSON on stdout.")


def _emit_json(obj: Any) -> None:
    """`obj` as indented JSON on stdout (UTF-8 kept)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _progress(total: int, label: str) -> Progress | None:
    """A transient progress bar on a terminal's stderr for `total` steps; None when not worth it."""
    if total < 2 or not err.is_terminal:
        return None
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)
