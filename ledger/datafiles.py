"""Corrected data files a user judges with (`--board FILE` and the like): the options come from
the rulesets' `data_options`, and the files are loaded by the ruleset the log names, once per
process. Nothing here knows a game."""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import typer

from engine.core.errors import LedgerError
from engine.core.ruleset import DataOption, Ruleset, rulesets
from ledger import exitcodes
from replay.logfile import path_problem

DataFiles = tuple[tuple[str, str], ...]
"""The data files given, as sorted (key, path) pairs: hashable, and cheap to send to a worker."""

_LOADED: dict[tuple[str, DataFiles], Any] = {}


class DataFileError(LedgerError, ValueError):
    """A data file that does not fit the log (another game's option) or cannot be loaded."""

    exit_code = exitcodes.UNREADABLE


def all_data_options() -> list[DataOption]:
    """Every data option any registered ruleset declares (the first declaration's help wins)."""
    seen: dict[str, DataOption] = {}
    for rs in rulesets():
        for opt in rs.data_options:
            seen.setdefault(opt.key, opt)
    return list(seen.values())


def with_data_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` offered with one `--<key> FILE` option per data option, passed to it as `data_files`."""
    options = all_data_options()
    sig = inspect.signature(fn, eval_str=True)   # Annotated options kept as objects, not text
    kept = [p for p in sig.parameters.values() if p.name != "data_files"]
    extra = [inspect.Parameter(f"data_{o.key.replace('-', '_')}", inspect.Parameter.KEYWORD_ONLY,
                               default=typer.Option(None, f"--{o.key}", help=o.help),
                               annotation=Optional[Path]) for o in options]

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        given = {o.key: kw.pop(f"data_{o.key.replace('-', '_')}", None) for o in options}
        files = tuple(sorted((k, str(v)) for k, v in given.items() if v is not None))
        return fn(*args, data_files=files, **kw)

    wrapper.__signature__ = sig.replace(parameters=kept + extra)  # type: ignore[attr-defined]
    return wrapper


def data_for(rs: Ruleset, files: DataFiles, log: str) -> Any:
    """The data `rs` judges with given `files` (None: its shipped data), loaded once per process.
    DataFileError naming the option and the log when a file is not one of `rs`'s or fails to load."""
    if not files:
        return None
    known = {o.key for o in rs.data_options}
    foreign = [k for k, _ in files if k not in known]
    if foreign:
        takes = ", ".join(f"--{k}" for k in sorted(known)) or "no data files"
        raise DataFileError(f"{log}: {', '.join('--' + k for k in foreign)} is not a data file of "
                            f"{rs.title} (this log's game; it takes {takes})")
    for k, path in files:
        problem = path_problem(path, "a data file")
        if problem is not None:
            raise DataFileError(f"--{k} {problem}")
    key = (rs.name, files)
    if key not in _LOADED:
        try:
            _LOADED[key] = rs.load_data(**dict(files))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            # the loaders' own errors name the file and the key (engine.core.data.Shape)
            given = ", ".join(f"--{k} {path}" for k, path in files)
            raise DataFileError(f"cannot use the data file{'s' if len(files) > 1 else ''} "
                                f"{given}: {exc}") from exc
    return _LOADED[key]


def declared_ruleset(payload: Mapping[str, Any] | Any) -> str | None:
    """The ruleset a log's first payload names, if any."""
    return payload.get("ruleset") if isinstance(payload, Mapping) else None


def data_of_log(first_payload: Any, files: DataFiles, log: str) -> Any:
    """The data the ruleset a log's first payload names judges with, given the user's `files`
    (None: its shipped data); DataFileError when they do not fit that game or fail to load."""
    if not files:
        return None
    from engine.core.ruleset import get_ruleset, ruleset_names
    name = declared_ruleset(first_payload)
    if name not in ruleset_names():
        raise DataFileError(f"{log}: data files are given, but the log names no ruleset this "
                            f"ledger knows ({name!r})")
    return data_for(get_ruleset(name), files, log)
