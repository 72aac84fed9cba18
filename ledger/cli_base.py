"""What every `ledger` command module shares: the typer app the commands register on (a
LedgerError ends any command with its message and exit code), the error console, the `--json`
and `--db` options, JSON output and the one progress bar. Command modules import this, never
`ledger.cli` (which imports them), so the CLI has no import cycle."""

from __future__ import annotations

import csv
import errno
import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, NoReturn, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from engine.core.errors import LedgerError


class LedgerTyper(typer.Typer):
    """A typer app whose commands end on a LedgerError (engine/core/errors.py) the command did
    not catch itself with "ledger: <message>" on stderr and the error's exit code: the one place
    an error becomes an exit code, for the main app and every sub-app (`campaign`, `data`, ...)."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        register = super().command(*args, **kwargs)

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(fn)
            def run(*a: Any, **kw: Any) -> Any:
                try:
                    return fn(*a, **kw)
                except LedgerError as exc:
                    fail(exc)
            register(run)
            return fn
        return decorator


def fail(exc: LedgerError, prefix: str = "") -> NoReturn:
    """End the command: "ledger: `prefix``exc`" on stderr, exit `exc.exit_code`."""
    err.print(f"ledger: {prefix}{exc}")
    raise typer.Exit(exc.exit_code)


app = LedgerTyper(
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
Json = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
"""`--json` as an `Annotated` option: `as_json: Json = False` (JsonOpt: the same, as a default)."""

DbOpt = Annotated[Optional[str], typer.Option(
    "--db", envvar="LEDGER_DB", metavar="DB",
    help="The store: a DuckDB file or a postgresql:// URL (env LEDGER_DB; default ledger.duckdb).")]
"""The one `--db` option of every command that reads or writes the store: `db: DbOpt = None`;
None means ./ledger.duckdb (ledger.app.db.db_or_default), or, for the commands that read a log
file or a stored game (audit, verify, replay), a file first and the store only when
./ledger.duckdb exists."""
CsvOpt = typer.Option(False, "--csv", help="CSV on stdout (a header row, then one row per line), for spreadsheets and scripts.")
Csv = Annotated[bool, typer.Option("--csv", help="CSV on stdout (a header row, then one row per line), for spreadsheets and scripts.")]


def _emit_json(obj: Any) -> None:
    """`obj` as indented JSON on stdout (UTF-8 kept)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


class ProgressBar:
    """The one progress bar of the CLI: transient, on a terminal's stderr, for `total` steps
    labelled `label`; nothing at all when stderr is no terminal or there are fewer than 2 steps.
    Use it as a context manager; `advance()` a step, or `update(completed=, label=)`."""

    def __init__(self, total: int, label: str):
        self._bar: Progress | None = None
        if total >= 2 and err.is_terminal:
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=err, transient=True)
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self) -> "ProgressBar":
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, *_: Any, label: Optional[str] = None) -> None:
        """One more step done, the bar now labelled `label` if given (positional arguments are
        ignored: usable as an `on_read` or `on_game` callback)."""
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=label)

    def update(self, completed: Optional[int] = None, label: Optional[str] = None) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=completed, description=label)


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
