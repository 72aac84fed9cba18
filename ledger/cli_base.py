"""What every `ledger` command module shares: the typer app the commands register on, the error
console, the `--json` option, JSON output and the progress bar. Command modules import this,
never `ledger.cli` (which imports them), so the CLI has no import cycle."""

from __future__ import annotations

import csv
import errno
import json
import sys
from pathlib import Path
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
CsvOpt = typer.Option(False, "--csv", help="CSV on stdout (a header row, then one row per line), for spreadsheets and scripts.")


def _emit_json(obj: Any) -> None:
    """`obj` as indented JSON on stdout (UTF-8 kept)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _progress(total: int, label: str) -> Progress | None:
    """A transient progress bar on a terminal's stderr for `total` steps; None when not worth it."""
    if total < 2 or not err.is_terminal:
        return None
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)


def os_reason(exc: OSError) -> str:
    """Why a file could not be written or read, in words: "the disk is full" first when it is."""
    text = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full ({text})"
    return text


def write_problem(target: Path, what: str = "a file") -> str | None:
    """Why `target` cannot be written as `what`, said before trying: it exists and is not a
    regular file (a directory, a FIFO, a device), or its folder does not exist; else None."""
    from replay.logfile import path_problem
    if target.exists() or target.is_symlink():
        return path_problem(target, what)
    parent = target.parent
    if not parent.is_dir():
        return f"{target}: its folder {parent} " + ("does not exist" if not parent.exists()
                                                    else "is not a directory")
    return None


def print_table(console: Console, columns: list[tuple[str, str]], rows: list[list[str]],
                title: str | None = None) -> None:
    """A table on `console`: rich's box table on a terminal (long cells folded, never cut);
    when the output is piped or redirected, plain text with every cell whole and the columns
    aligned, however wide (a script or `grep` sees every id and header in full).

    `columns` are (header, "left" | "right").
    """
    if console.is_terminal:
        from rich.table import Table
        table = Table(title=title, title_justify="left", show_header=True, header_style="bold")
        for name, justify in columns:
            table.add_column(name, justify=justify, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    widths = [max([len(name), *(len(row[i]) for row in rows)]) for i, (name, _) in enumerate(columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.rjust(w) if justify == "right" else cell.ljust(w)
                         for cell, w, (_, justify) in zip(cells, widths, columns)).rstrip()

    text = (["", title] if title else []) + [line([name for name, _ in columns])]
    text += [line(["-" * w for w in widths])] + [line(row) for row in rows]
    sys.stdout.write("\n".join(text) + "\n")


def emit_csv(header: list[str], rows: list[list[Any]]) -> None:
    """CSV on stdout: the header, then the rows (true/false; lists and objects as JSON text)."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else ("true" if v else "false") if isinstance(v, bool)
                         else json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict))
                         else v for v in row])
