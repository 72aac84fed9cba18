"""Random draws made with dice: the one draw rule every ruleset uses when a card, a tile or a
Scar card is drawn at random.

At a table the cards are simply drawn and the log records what came out. In digital play every
random choice comes from the game's seeded dice stream (engine.core.dice), so that it is checked
like any die. The rule, published in docs/log-format.md ("Random draws"):

    uniform(m)   a whole number from 0 to m-1. m = 1 takes no dice. Otherwise let k be the least
                 number of dice with 6**k >= m; read k dice as a base-6 number v (the first die
                 is the most significant digit, a face f is the digit f-1); if v < m * (6**k // m)
                 the result is v mod m, else read k more dice and try again.
    draw(pool, n)  for i = 0 .. n-1: j = i + uniform(len(pool) - i); swap pool[i] and pool[j].
                 The drawn items are pool[0 .. n-1], in that order. Each ruleset defines its pools
                 (always listed in its data files' order): Risk Europe's Gold Crown Cities and
                 Mercenary decks, Risk Legacy's Territory deck and Scar cards.

Drawing n items this way is a uniformly random draw without replacement, the same as shuffling
and taking the top n; drawing the whole pool is a shuffle (Fisher-Yates).

Pure: no I/O, no random generator; the dice come from the caller.
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence, TypeVar

from engine.core.errors import LedgerError
from engine.core.text import plural

T = TypeVar("T")


class DrawError(LedgerError, ValueError):
    """The dice recorded with a draw are not the ones the draw rule consumes."""


def uniform(m: int, next_die: Callable[[], int]) -> int:
    """A whole number in 0..m-1 from dice (see the module's rule)."""
    if m < 1:
        raise ValueError(f"cannot draw from {m} items")
    if m == 1:
        return 0
    k, span = 1, 6
    while span < m:
        k, span = k + 1, span * 6
    limit = m * (span // m)
    while True:
        v = 0
        for _ in range(k):
            v = v * 6 + next_die() - 1
        if v < limit:
            return v % m


def draw(pool: Sequence[T], n: int, next_die: Callable[[], int]) -> tuple[list[T], list[int]]:
    """`n` items drawn from `pool` with dice from `next_die`: (the items, the dice used)."""
    if n > len(pool):
        raise ValueError(f"cannot draw {n} from {len(pool)} items")
    used: list[int] = []

    def die() -> int:
        d = next_die()
        used.append(d)
        return d

    items = list(pool)
    for i in range(n):
        j = i + uniform(len(items) - i, die)
        items[i], items[j] = items[j], items[i]
    return items[:n], used


def draw_with(pool: Sequence[T], n: int, dice: Sequence[int]) -> list[T]:
    """The items that `dice` draw from `pool`; DrawError if the dice are too few or too many."""
    it: Iterator[int] = iter(dice)

    def die() -> int:
        try:
            return next(it)
        except StopIteration:
            raise DrawError(f"the draw needs more than the {plural(len(dice), 'die', 'dice')} recorded") from None

    drawn, used = draw(pool, n, die)
    if len(used) != len(dice):
        raise DrawError(f"the draw uses {len(used)} dice; {len(dice)} are recorded")
    return drawn


def judge_draw(pool: Sequence[T], n: int, got: Sequence[T], dice: Sequence[int] | None, *,
               seeded: bool, what: str,
               show: Callable[[Sequence[T]], str] = lambda items: repr(list(items))
               ) -> tuple[str | None, str]:
    """What is wrong with a random draw of `n` from `pool` that came out as `got`, recorded with
    `dice` (None: none recorded): (None, "") when nothing; ("missing", message) for a seeded
    game's draw without dice; ("faces", message) for a die that is not 1-6; ("draw", message)
    when the dice are not the ones the draw rule takes or draw something else. A ruleset maps
    the kinds to its rule ids and records the dice of a draw as dice of the game."""
    if dice is None:
        if seeded:
            return "missing", f"{what} in a seeded game must carry the dice of the stream it was drawn with"
        return None, ""
    if any(not 1 <= d <= 6 for d in dice):
        return "faces", f"dice must show 1-6; got {list(dice)!r}"
    try:
        want = draw_with(pool, n, dice)
    except DrawError as exc:
        return "draw", f"{what}: {exc} (dice {list(dice)!r})"
    if list(want) != list(got):
        return "draw", f"{what}: the dice {list(dice)!r} draw {show(want)}, the log has {show(got)}"
    return None, ""
