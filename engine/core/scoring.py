"""How a finished game scores in an event (`Ruleset.scoring`): the ruleset's default points for a
win, a shared win and a loss, its tie-breaks, and the per-player values a game yields (a score
column an organizer's results sheet may report, e.g. crowns or Red Stars).

Plain data and one pure function: `ledger tournament` (the shell) reads a results sheet, judges
each table's log, and asks the ruleset of each log only this. An event overrides the defaults
with a scoring file (docs/tournament.md); the keys are the ones `spec()` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

SHARED_WIN_SPLIT = "split"
"""`shared_win`: each of n winners of a shared win gets the win's points divided by n."""


@dataclass(frozen=True)
class ScoreValue:
    """One value a finished game gives each player, e.g. the crowns held at the end."""

    key: str
    """The key in scoring files and reports, and the score column of a results sheet."""
    title: str
    """How a page heads it, e.g. "Red Stars"."""
    text: str
    """What it counts, in words (`ledger tournament check --help`, docs)."""
    aliases: tuple[str, ...] = ()
    """Other headings a results sheet may give the column (compared without case, spaces,
    hyphens and underscores)."""


@dataclass(frozen=True)
class Scoring:
    """A ruleset's scoring for events: points, tie-breaks, and the values a game yields."""

    values: tuple[ScoreValue, ...]
    """The per-player values `scores` gives, in the order reports show them."""
    scores: Callable[[Any, Any], Mapping[str, Mapping[str, int]]]
    """(final state, GameResult or None) -> {player id: {value key: number}} for every player of
    the game; pure."""
    win: float = 1
    """Points for a win."""
    shared_win: float | str = SHARED_WIN_SPLIT
    """Points for each winner of a shared win (several winners), or "split": `win` / n."""
    loss: float = 0
    """Points for a player of a finished game who did not win (or of one nobody won)."""
    tie_breaks: tuple[str, ...] = ()
    """Value keys that order players level on points, in order (summed over their games)."""

    def spec(self) -> dict[str, Any]:
        """The defaults as plain data, the shape of one ruleset's table in a scoring file."""
        return {"win": self.win, "shared_win": self.shared_win, "loss": self.loss,
                "tie_breaks": list(self.tie_breaks)}
