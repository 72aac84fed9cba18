"""An event's scoring (`ledger tournament check --scoring FILE`) and the standings it gives.

Each ruleset brings its defaults through its record (`Ruleset.scoring`, engine.core.scoring:
points for a win, a shared win and a loss, tie-breaks, the values a game yields); a scoring file
(TOML or JSON) overrides them for the whole event and per ruleset:

    win = 3                      # every ruleset's points for a win
    shared_win = "split"         # or points for each winner of a shared win
    loss = 0
    tie_breaks = ["wins", "crowns", "red_stars", "opponents"]
    [points_per]                 # points per unit of a value, added to the above
    crowns = 0
    [risk-legacy]                # one ruleset's own points (same keys but tie_breaks)
    win = 2

Tie-breaks: "wins", "opponents" (the points of the opponents a player met in verified games), or
a value key of any ruleset (summed over the player's verified games). docs/tournament.md.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from engine.core.errors import LedgerError
from engine.core.ruleset import get_ruleset, ruleset_names
from engine.core.scoring import SHARED_WIN_SPLIT

BUILT_IN_TIE_BREAKS = {"wins": "Wins", "opponents": "Opponents' points"}
POINT_KEYS = ("win", "shared_win", "loss", "points_per")


class ScoringError(LedgerError):
    """A scoring file that cannot be read or says something this ledger cannot use."""


@dataclass(frozen=True)
class Points:
    """What one result gives under one ruleset."""

    win: float = 1
    shared_win: float | str = SHARED_WIN_SPLIT
    loss: float = 0
    points_per: Mapping[str, float] = field(default_factory=dict)

    def for_player(self, won: bool, winners: int, values: Mapping[str, float]) -> float:
        """The points of one player of a verified game: `won` it, among `winners` winners."""
        if not won:
            base = self.loss
        elif winners <= 1:
            base = self.win
        elif self.shared_win == SHARED_WIN_SPLIT:
            base = self.win / winners
        else:
            base = float(self.shared_win)
        return base + sum(per * values.get(key, 0) for key, per in self.points_per.items())

    def as_dict(self) -> dict[str, Any]:
        return {"win": self.win, "shared_win": self.shared_win, "loss": self.loss,
                "points_per": dict(self.points_per)}


@dataclass(frozen=True)
class EventScoring:
    """The scoring of an event: each ruleset's points, and the tie-breaks of the standings."""

    points: Mapping[str, Points]           # ruleset name -> its points
    tie_breaks: tuple[str, ...]
    source: str                            # "the rulesets' defaults" or the file
    file_spec: Mapping[str, Any] = field(default_factory=dict)   # the file as read (for reports)

    def of(self, ruleset: str | None) -> Points:
        return self.points.get(ruleset or "", Points())

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "tie_breaks": list(self.tie_breaks),
                "rulesets": {name: p.as_dict() for name, p in sorted(self.points.items())},
                "file": dict(self.file_spec)}


def value_titles() -> dict[str, str]:
    """Every value key of every registered ruleset's scoring, with its title."""
    out: dict[str, str] = {}
    for name in ruleset_names():
        scoring = get_ruleset(name).scoring
        for v in (scoring.values if scoring is not None else ()):
            out.setdefault(v.key, v.title)
    return out


def tie_break_title(key: str) -> str:
    return BUILT_IN_TIE_BREAKS.get(key) or value_titles().get(key, key)


def _defaults(name: str) -> tuple[Points, tuple[str, ...]]:
    scoring = get_ruleset(name).scoring
    if scoring is None:
        return Points(), ()
    return Points(scoring.win, scoring.shared_win, scoring.loss), tuple(scoring.tie_breaks)


def default_tie_breaks(used: Iterable[str]) -> tuple[str, ...]:
    """The rulesets' own tie-breaks, in the order of the rulesets' names (those of `used` only)."""
    out: list[str] = []
    for name in sorted(set(used)):
        if name in ruleset_names():
            out.extend(k for k in _defaults(name)[1] if k not in out)
    return tuple(out)


def event_scoring(spec: Mapping[str, Any] | None = None, source: str = "the rulesets' defaults",
                  used: Iterable[str] = ()) -> EventScoring:
    """The event's scoring: each registered ruleset's defaults, overridden by `spec` (a scoring
    file's document, already checked by `check_spec`)."""
    spec = dict(spec or {})
    top = {k: spec[k] for k in POINT_KEYS if k in spec}
    points = {}
    for name in ruleset_names():
        base = _defaults(name)[0].as_dict()
        own = spec.get(name, {})
        merged = {**base, **top, **{k: own[k] for k in POINT_KEYS if k in own}}
        merged["points_per"] = {**base["points_per"], **top.get("points_per", {}),
                                **own.get("points_per", {})}
        points[name] = Points(**merged)
    ties = tuple(spec["tie_breaks"]) if "tie_breaks" in spec else default_tie_breaks(used)
    return EventScoring(points, ties, source, spec)


def load_scoring(path: str | Path) -> dict[str, Any]:
    """A scoring file (TOML or JSON) read and checked: its document for `event_scoring`;
    ScoringError naming the file and what is wrong."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ScoringError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ScoringError(f"{name}: is a directory, not a scoring file") from None
    except OSError as exc:
        raise ScoringError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScoringError(f"{name}: not UTF-8 text") from None
    if Path(path).suffix.casefold() == ".json" or text.lstrip().startswith("{"):
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScoringError(f"{name}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    else:
        try:
            spec = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ScoringError(f"{name}: not valid TOML ({exc})") from None
    problems = check_spec(spec)
    if problems:
        raise ScoringError(f"{name}: " + "; ".join(problems))
    return spec


def check_spec(spec: Any) -> list[str]:
    """What is wrong with a scoring document ([] when nothing)."""
    if not isinstance(spec, dict):
        return ["a scoring file is a table (TOML) or an object (JSON) of keys"]
    problems: list[str] = []
    values = value_titles()
    rulesets = ruleset_names()

    def number(where: str, v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            problems.append(f"{where} is {v!r}, not a number")

    def points(where: str, table: Mapping[str, Any], top: bool) -> None:
        for key, v in table.items():
            at = f"{where}{key}"
            if key in ("win", "loss"):
                number(at, v)
            elif key == "shared_win":
                if v != SHARED_WIN_SPLIT:
                    number(at, v)
            elif key == "points_per":
                if not isinstance(v, dict):
                    problems.append(f"{at} is a table of value = points")
                    continue
                for vk, per in v.items():
                    if vk not in values:
                        problems.append(f"{at}.{vk}: no ruleset gives a value {vk!r} (the values: "
                                        f"{', '.join(sorted(values))})")
                    number(f"{at}.{vk}", per)
            elif top and key == "tie_breaks":
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    problems.append("tie_breaks is a list of names")
                    continue
                for x in v:
                    if x not in BUILT_IN_TIE_BREAKS and x not in values:
                        problems.append(f"tie_breaks: unknown {x!r} (known: "
                                        f"{', '.join([*BUILT_IN_TIE_BREAKS, *sorted(values)])})")
            elif top and key in rulesets:
                if not isinstance(v, dict):
                    problems.append(f"{key} is a table of its points")
                else:
                    points(f"{key}.", v, False)
            elif top:
                problems.append(f"unknown key {key!r} (known: {', '.join(POINT_KEYS)}, "
                                f"tie_breaks, and a ruleset's name: {', '.join(rulesets)})")
            else:
                problems.append(f"unknown key {where}{key} (a ruleset's table has "
                                f"{', '.join(POINT_KEYS)})")
    points("", spec, True)
    return problems


# --- the standings -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Played:
    """One verified result, as the standings use it: the players by their sheet names."""

    table: str                             # "round 1 table 2"
    ruleset: str
    players: tuple[str, ...]               # sheet names
    winners: tuple[str, ...]               # sheet names (a subset of players)
    values: Mapping[str, Mapping[str, float]]   # sheet name -> value key -> number


@dataclass(frozen=True)
class Standing:
    rank: int
    tied: bool                             # shares its rank with another player
    player: str
    points: float
    games: int
    wins: int
    tie_breaks: Mapping[str, float]
    left_out: int                          # this player's tables left out of the standings

    def as_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "tied": self.tied, "player": self.player, "points": self.points,
                "games": self.games, "wins": self.wins, "tie_breaks": dict(self.tie_breaks),
                "left_out": self.left_out}


def standings(results: list[Played], scoring: EventScoring, everyone: Iterable[str],
              left_out: Mapping[str, int]) -> list[Standing]:
    """Everyone's points from the verified `results`, ranked by points then `scoring.tie_breaks`
    (highest first); players level on all of them share a rank. `everyone`: every player of the
    sheet (those without a verified game rank with 0); `left_out`: tables left out per player."""
    people: dict[str, str] = {}
    for name in everyone:
        people.setdefault(name.casefold(), name)
    pts: dict[str, float] = {k: 0.0 for k in people}
    games = dict.fromkeys(people, 0)
    wins = dict.fromkeys(people, 0)
    sums: dict[str, dict[str, float]] = {k: {} for k in people}
    met: dict[str, list[str]] = {k: [] for k in people}
    for r in results:
        p = scoring.of(r.ruleset)
        won = {w.casefold() for w in r.winners}
        for name in r.players:
            k = name.casefold()
            people.setdefault(k, name)
            for d in (pts, games, wins):
                d.setdefault(k, 0)
            sums.setdefault(k, {})
            met.setdefault(k, [])
            values = r.values.get(name, {})
            pts[k] += p.for_player(k in won, len(won), values)
            games[k] += 1
            wins[k] += k in won
            for vk, v in values.items():
                sums[k][vk] = sums[k].get(vk, 0) + v
            met[k].extend(o.casefold() for o in r.players if o.casefold() != k)

    def tie(k: str, key: str) -> float:
        if key == "wins":
            return wins[k]
        if key == "opponents":
            return sum(pts[o] for o in met[k])
        return sums[k].get(key, 0)

    rows = [(k, tuple(tie(k, t) for t in scoring.tie_breaks)) for k in people]
    rows.sort(key=lambda kv: (-round(pts[kv[0]], 9), *(-x for x in kv[1]), people[kv[0]].casefold()))
    out: list[Standing] = []
    previous: tuple | None = None
    rank = 0
    for i, (k, ties) in enumerate(rows, start=1):
        key = (round(pts[k], 9), ties)
        if key != previous:
            rank, previous = i, key
        out.append(Standing(rank, False, people[k], pts[k], games[k], wins[k],
                            dict(zip(scoring.tie_breaks, ties)), left_out.get(k, 0)))
    ranks = [s.rank for s in out]
    return [Standing(s.rank, ranks.count(s.rank) > 1, s.player, s.points, s.games, s.wins,
                     s.tie_breaks, s.left_out) for s in out]


def number_text(x: float) -> str:
    """1.0 -> "1", 0.5 -> "0.5", 1/3 -> "0.33"."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")
