"""Game data files (boards, cards, rule tables): a ruleset's shipped copy or a user's corrected
file, with the digest every judgement names."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from engine.core.canonical import canonical_json, sha256_hex

T = TypeVar("T")


def read_data_file(package: str, default_name: str, path: str | Path | None = None) -> tuple[dict, str]:
    """(content, sha256 of its canonical JSON) of `path`, or of the file `default_name` shipped in
    `package`'s data/ folder when no path is given."""
    if path is None:
        text = resources.files(package).joinpath("data").joinpath(default_name).read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    raw = json.loads(text)
    return raw, sha256_hex(canonical_json(raw))


def loaded_once(load: Callable[[], T]) -> Callable[[], T]:
    """`default_data()` for a ruleset: its `load` of the shipped files, run once on first use and
    then shared (the data is immutable)."""
    loaded: list[T] = []

    def default_data() -> T:
        if not loaded:
            loaded.append(load())
        return loaded[0]

    default_data.__doc__ = f"The shipped data of {load.__module__} (loaded once)."
    return default_data


def borders(territories: Iterable[str], edges: Iterable[dict], error: type[Exception],
            keep: Callable[[dict], bool] = lambda edge: True) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The neighbours of every territory from a board file's borders ({"a": .., "b": .., ...}):
    (across every border, across the borders `keep` accepts, e.g. land borders only). `error`
    names a border whose end is not a territory."""
    known = set(territories)
    every: dict[str, set[str]] = {t: set() for t in known}
    kept: dict[str, set[str]] = {t: set() for t in known}
    for edge in edges:
        a, b = edge["a"], edge["b"]
        if a not in known or b not in known:
            raise error(f"border {a!r}-{b!r} names a territory that is not on the board")
        every[a].add(b)
        every[b].add(a)
        if keep(edge):
            kept[a].add(b)
            kept[b].add(a)
    return every, kept
