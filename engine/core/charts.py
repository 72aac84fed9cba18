"""Charts and tables as plain data: what a ruleset wants drawn, never how. A game's page and its
dashboard sections (engine.core.page, engine.core.report) are made of these; analytics draws
them (analytics/charts.py), so a game's package never imports a plotting library.

    ChartSpec("crown-race", "The crown race (7 rounds; 7 crowns win)", "end of round", "crowns",
              traces=(Points(x=(0, 1, 2), y=(1, 2, 4), name="blue", mode="lines+markers",
                             player="blue"),),
              threshold=Threshold(7, "7 crowns win"))

A chart with no trace is drawn as its `empty` sentence ("No battle has been fought yet.").
Colours are CSS colours or None (the renderer's default); a player's colour is the renderer's
choice, so a series about one player names them (`player="blue"`) instead of a colour. Labels and
titles are shown as given (an axis label may break its line with `<br>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class Bars:
    """One series of bars: a bar per x. `text` is written on each bar (`text_at`: "outside" or
    "auto"); `error_up`/`error_down` draw an interval above and below each bar. `players` says
    which player each bar is about: each is drawn in that player's colour (instead of `colour`)."""

    x: Sequence[Any]
    y: Sequence[Any]
    name: str
    colour: str | None = None
    text: Sequence[str] | None = None
    text_at: str | None = None
    width: float | None = None
    error_up: Sequence[float] | None = None
    error_down: Sequence[float] | None = None
    players: Sequence[str] | None = None


@dataclass(frozen=True)
class Points:
    """One series of points: `mode` "markers", "lines" or "lines+markers". `colour` is the
    line's when there is one, else the markers'; `sizes` gives each marker its own diameter;
    `symbol` ("tick": a short level line) and `size` draw every marker alike. `text` labels each
    point, `hover` replaces its hover text (`hover_shows`: "text+y" keeps the value too)."""

    x: Sequence[Any]
    y: Sequence[Any]
    name: str
    mode: str = "markers"
    colour: str | None = None
    dash: bool = False
    sizes: Sequence[float] | None = None
    symbol: str | None = None
    size: float | None = None
    text: Sequence[str] | None = None
    hover: Sequence[str] | None = None
    hover_shows: str | None = None
    player: str | None = None
    """The player this series is about: drawn in that player's colour."""


@dataclass(frozen=True)
class Threshold:
    """A dashed level line across a chart, with its label ("7 crowns win", "even: 25%")."""

    y: float
    label: str


@dataclass(frozen=True)
class ChartSpec:
    """One chart: its id (the HTML element's), title (with its sample size), axis titles, the
    series, and how they sit: `bars` "stack" or "group" (several bar series), a `threshold`, a
    fixed `y_range` and `x_range`, x labels kept level (`level_labels`) and their size."""

    id: str
    title: str
    x_title: str
    y_title: str
    traces: tuple[Bars | Points, ...] = ()
    empty: str = ""
    bars: str | None = None
    threshold: Threshold | None = None
    y_range: tuple[float, float] | None = None
    level_labels: bool = False
    label_size: int | None = None
    x_range: tuple[float, float] | None = None

    @property
    def is_empty(self) -> bool:
        return not self.traces

    @property
    def players(self) -> tuple[str, ...]:
        """Every player a series or a bar is about, in order of appearance."""
        seen: dict[str, None] = {}
        for t in self.traces:
            for p in (t.players or ()) if isinstance(t, Bars) else (t.player,):
                if p is not None:
                    seen.setdefault(p, None)
        return tuple(seen)


def empty_chart(chart_id: str, sentence: str) -> ChartSpec:
    """A chart left out for lack of data: the sentence says why."""
    return ChartSpec(chart_id, "", "", "", empty=sentence)


def headroom(values: Sequence[float | None], floor: float = 0.0) -> tuple[float, float]:
    """A y range from 0 with room above the tallest bar for its label."""
    top = max([v for v in values if v is not None] + [floor])
    return (0, top * 1.18 if top > 0 else 1)


def percent(values: Sequence[float | None]) -> list[float | None]:
    """Shares (0..1) as percentages."""
    return [None if v is None else 100 * v for v in values]


def plural(n: int, word: str, many: str | None = None) -> str:
    """ "1 game", "1,204 games", "3 dice" (with `many`)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def win_rate_chart(chart_id: str, d: Any, label: Callable[[dict], str], title: str, x_title: str, *,
                   seat: str, empty: str) -> ChartSpec:
    """Win rates as engine.core.queries.win_rate gives them (a polars frame: wins, games, win_rate
    with its interval, even), a bar per row: `label(row)` with "w of n" under it, the 95% interval
    as error bars, and the rate of a `seat` ("player", "Baron") with no edge as a tick; the title
    counts the `seat`-games. `empty`: the sentence of the chart when `d` has no row."""
    if not d.height:
        return empty_chart(chart_id, empty)
    rows = d.to_dicts()
    labels = [f"{label(r)}<br><b>{r['wins']:g} of {r['games']}</b>" for r in rows]
    return ChartSpec(
        chart_id, f"{title} ({plural(int(d['games'].sum()), f'{seat}-game')})", x_title,
        "win rate (%), with its 95% interval", (
            Bars(labels, percent(d["win_rate"].to_list()), "win rate", colour="#54a24b",
                 error_up=[100 * (r["win_rate_high"] - r["win_rate"]) for r in rows],
                 error_down=[100 * (r["win_rate"] - r["win_rate_low"]) for r in rows]),
            Points(labels, percent(d["even"].to_list()), f"no edge (1 / {seat}s)",
                   colour="#444", symbol="tick", size=28),
        ), y_range=(0, 118), level_labels=True)


# --- what a section shows after its charts -----------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """A sub-heading."""

    text: str


@dataclass(frozen=True)
class Note:
    """A paragraph of plain text; `words in backticks` are set as code."""

    text: str


@dataclass(frozen=True)
class Table:
    """Rows (dicts) shown as a table: `columns` maps a row key to its column heading, `formats` a
    key to a format spec ("+.2f"); `empty` is said instead of an empty table."""

    rows: Sequence[Mapping[str, Any]]
    columns: Mapping[str, str]
    formats: Mapping[str, str] | None = None
    empty: str = "none"


Block = Heading | Note | Table
