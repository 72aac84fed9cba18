"""Game data files (boards, cards, rule tables): a ruleset's shipped copy or a user's corrected
file, with the digest every judgement names; and `Shape`, which reads a data file's JSON so that
a file of the wrong shape is a message naming the file, the key and what is wrong."""

from __future__ import annotations

import builtins
import difflib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.errors import LedgerError

T = TypeVar("T")


class DataShapeError(LedgerError, ValueError):
    """A data file that cannot be read as its loader needs: not JSON, or a key missing or of the
    wrong kind. The message names the file and the key ("board.json: territories[3].city.tax:
    expected a whole number, found 'three' (a string)")."""

    exit_code = 7   # ledger.exitcodes.INVALID_DATA: readable, but wrong


class DataErrors(DataShapeError):
    """Every problem a loader found in one or more data files (each names its file and key), so
    that a user fixes them all in one go: `problems` one message each, the text one per line."""

    def __init__(self, problems: Iterable[str]):
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class DataCheck:
    """What `ledger data check` says of a data file that is valid: its kind (the ruleset's data
    option key), the digest a judgement would name, what it holds in a few lines, and what a user
    must know of it (an invented example, a section left out)."""

    kind: str
    digest: str
    summary: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Problems:
    """Collects a data file's problems instead of stopping at the first: `with problems.each():`
    turns a DataShapeError inside the block into one problem and goes on; `raise_any()` raises
    them all as one DataErrors."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, at: "Shape", text: str) -> None:
        """A problem with the value `at` (its file and key named): `text` says what is wrong."""
        self.items.append(f"{at.file}: {at.at or 'the top level'}: {text}")

    def unknown(self, at: "Shape", known: Iterable[str]) -> None:
        """A problem for each key of the object `at` that is not one of `known` (Shape.unknown_keys)."""
        for place, text in at.unknown_keys(known):
            self.add(place, text)

    def each(self) -> "_Catch":
        return _Catch(self)

    def raise_any(self) -> None:
        if self.items:
            raise DataErrors(self.items)


class _Catch:
    """The context manager of Problems.each."""

    __slots__ = ("problems",)

    def __init__(self, problems: Problems):
        self.problems = problems

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        if isinstance(exc, DataErrors):
            self.problems.items.extend(exc.problems)
            return True
        if isinstance(exc, DataShapeError):
            self.problems.items.append(str(exc))
            return True
        return False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_data_file(package: str, default_name: str, path: str | Path | None = None) -> tuple[dict, str]:
    """(content, sha256 of its canonical JSON) of `path`, or of the file `default_name` shipped in
    `package`'s data/ folder when no path is given. DataShapeError naming the file when it
    cannot be read or is not JSON."""
    label = data_file_label(path, default_name)
    try:
        if path is None:
            text = resources.files(package).joinpath("data").joinpath(default_name).read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise DataShapeError(f"{label}: is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise DataShapeError(f"{label}: cannot be read ({exc.strerror or exc})") from exc
    raw = parse_json(text, label)
    return raw, sha256_hex(canonical_json(raw))


def parse_json(text: str, label: str) -> Any:
    """The JSON value of a data file's `text`: standard JSON only (no NaN or Infinity); every
    failure a DataShapeError that names `label` and says why in words (not JSON, where; nested
    too deeply; a number too long), never Python's advice on its own limits."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise DataShapeError(f"{label}: not valid JSON ({exc.msg} at line {exc.lineno}, "
                             f"col {exc.colno})") from exc
    except RecursionError as exc:
        raise DataShapeError(f"{label}: not valid JSON (nested too deeply)") from exc
    except ValueError as exc:    # NaN/Infinity, or an integer longer than Python reads
        why = ("a number with more than 4,300 digits" if "digits" in str(exc) else str(exc))
        raise DataShapeError(f"{label}: not valid JSON ({why})") from exc


def data_file_label(path: str | Path | None, default_name: str) -> str:
    """How messages name a data file: the path given, or the shipped file's name."""
    return str(path) if path is not None else f"the shipped {default_name}"


def _describe(value: Any) -> str:
    """A found value for a message: its text (cut short) and its JSON kind."""
    kind = ("null" if value is None else "a boolean" if isinstance(value, bool)
            else "a number" if isinstance(value, (int, float)) else "a string" if isinstance(value, str)
            else f"a list of {len(value)}" if isinstance(value, list) else "an object")
    if value is None or isinstance(value, (list, dict)):
        return kind
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "a huge integer"
    return f"{text[:40]}{'...' if len(text) > 40 else ''} ({kind})"


class Shape:
    """A value in a data file's JSON and where it is (the file, the key path): read it with the
    kind a loader expects, and a wrong shape is a DataShapeError naming file, key and what.

        board = Shape(raw, "board.json")
        for t in board["territories"].list():
            name = t["name"].str()            # board.json: territories[3].name: expected ...
    """

    __slots__ = ("value", "file", "at")

    def __init__(self, value: Any, file: str, at: str = ""):
        self.value, self.file, self.at = value, file, at

    def fail(self, expected: str) -> DataShapeError:
        """The error for this value: not what was `expected`."""
        return DataShapeError(f"{self.file}: {self.at or 'the top level'}: expected {expected}, "
                              f"found {_describe(self.value)}")

    def _child(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.at}[{key}]"
        return f"{self.at}.{key}" if self.at else key

    def __getitem__(self, key: str) -> "Shape":
        if not isinstance(self.value, dict):
            raise self.fail(f"an object with the key {key!r}")
        if key not in self.value:
            raise DataShapeError(f"{self.file}: {self.at or 'the top level'}: the key {key!r} "
                                 f"is missing")
        return Shape(self.value[key], self.file, self._child(key))

    def get(self, key: str, default: Any = None) -> "Shape":
        """The value at `key`, or `default` (at that key's place) when the key is absent."""
        if not isinstance(self.value, dict):
            raise self.fail(f"an object (with the key {key!r})")
        return Shape(self.value.get(key, default), self.file, self._child(key))

    def unknown_keys(self, known: Iterable[builtins.str]) -> builtins.list[tuple["Shape", builtins.str]]:
        """The keys of this object that its shape does not have, each as (its place, what is
        wrong), the closest known key named: a misspelt optional key ("raod") would otherwise read
        as that key left out. Not an object: nothing (its reader says what it expected)."""
        if not isinstance(self.value, dict):
            return []
        known = tuple(known)
        out = []
        for key in self.value:
            if key in known:
                continue
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = (f" (did you mean {near[0]!r}?)" if near else
                    " (the keys here: " + ", ".join(repr(k) for k in known) + ")")
            out.append((Shape(self.value[key], self.file, self._child(key)),
                        f"unknown key {key!r}{hint}"))
        return out

    def only(self, known: Iterable[builtins.str]) -> "Shape":
        """This object, a DataShapeError at its first key that is not one of `known`
        (unknown_keys); for loaders that stop at the first problem."""
        for place, text in self.unknown_keys(known):
            raise DataShapeError(f"{place.file}: {place.at}: {text}")
        return self

    def list(self) -> list["Shape"]:
        if not isinstance(self.value, list):
            raise self.fail("a list")
        return [Shape(v, self.file, self._child(i)) for i, v in enumerate(self.value)]

    def items(self) -> builtins.list[tuple[builtins.str, "Shape"]]:
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return [(k, Shape(v, self.file, self._child(k))) for k, v in self.value.items()]

    def str(self) -> str:
        if not isinstance(self.value, str) or not self.value:
            raise self.fail("a non-empty string")
        return self.value

    def optional_str(self) -> builtins.str | None:
        return None if self.value is None else self.str()

    def bool(self) -> bool:
        """true or false (a JSON boolean)."""
        if not isinstance(self.value, bool):
            raise self.fail("true or false")
        return self.value

    def one_of(self, allowed: Iterable[builtins.str]) -> builtins.str:
        """A string among `allowed` (the message lists them)."""
        allowed = tuple(allowed)
        if not isinstance(self.value, str) or self.value not in allowed:
            raise self.fail("one of " + ", ".join(repr(a) for a in allowed))
        return self.value

    def optional_int(self) -> int | None:
        return None if self.value is None else self.int()

    def int(self) -> int:
        """A whole number (a JSON integer; a string of digits is read too)."""
        v = self.value
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() < 64:
            return v
        if isinstance(v, str) and v.strip().lstrip("-").isdigit() and len(v) < 19:
            return int(v)
        raise self.fail("a whole number")


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


def borders(territories: Iterable[str], edges: Iterable["Shape"], expected: str,
            keep: Callable[["Shape"], bool] = lambda edge: True) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The neighbours of every territory from a board file's borders (Shapes of {"a": .., "b": ..,
    ...}): (across every border, across the borders `keep` accepts, e.g. land borders only). A
    border whose end is not a territory is a DataShapeError naming it (`expected`: what an end
    must be, in the message)."""
    known = set(territories)
    every: dict[str, set[str]] = {t: set() for t in known}
    kept: dict[str, set[str]] = {t: set() for t in known}
    for edge in edges:
        a, b = edge["a"].str(), edge["b"].str()
        for end in ("a", "b"):
            if edge[end].value not in known:
                raise edge[end].fail(expected)
        every[a].add(b)
        every[b].add(a)
        if keep(edge):
            kept[a].add(b)
            kept[b].add(a)
    return every, kept
