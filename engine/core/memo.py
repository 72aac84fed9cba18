"""Values a ruleset computes from a key alone (a battle's exact odds from its shape), remembered
between games: the store keeps them in a table, so each is computed once per store.

    memo = Memo({("battle-odds/1", "3F vs 2F"): "[0.656, ...]"})   # what the store holds
    memo.recall("battle-odds/1", "3F vs 2F", compute)               # computed only when unknown
    memo.take_new()                                                 # [(kind, key, value text)] to store

A kind names what is remembered and how it was computed (the ruleset puts a version in it, so a
change of method starts afresh); a key is the input in words; a value is JSON text. A memo is a
cache: what it answers is what `compute` would, so a fold that has one makes the same rows as a
fold that has none. It is not carried: a pickled memo comes back empty (a fold that pickles, in a
live game's carry, does not take the store's memo with it). Pure: the caller does the I/O.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping

Kind = str
Key = str


class Memo:
    """Remembered values by (kind, key), and the ones added since `take_new` was last asked."""

    def __init__(self, known: Mapping[tuple[Kind, Key], str] | Iterable[tuple[Kind, Key, str]] = ()):
        items = known.items() if isinstance(known, Mapping) else (((k, key), v) for k, key, v in known)
        self._known: dict[tuple[Kind, Key], str] = dict(items)
        self._new: dict[tuple[Kind, Key], str] = {}
        self.hits = 0

    def __len__(self) -> int:
        return len(self._known)

    def recall(self, kind: Kind, key: Key, compute: Callable[[], Any]) -> Any:
        """The value remembered for (kind, key), or compute() remembered as new (it must be
        plain JSON data: numbers, strings, lists, dicts)."""
        text = self._known.get((kind, key))
        if text is not None:
            self.hits += 1
            return json.loads(text)
        value = compute()
        self._known[kind, key] = self._new[kind, key] = json.dumps(value)
        return value

    def take_new(self) -> list[tuple[Kind, Key, str]]:
        """The values added since the last call, as (kind, key, JSON text), forgotten as new."""
        new = [(kind, key, text) for (kind, key), text in self._new.items()]
        self._new.clear()
        return new

    def __reduce__(self) -> tuple:
        return (Memo, ())
