"""What a ruleset gives the analytics besides its tables: named queries over its own projections
(`ledger stats`) and its sections of the dashboard, as plain data (engine.core.charts) that
analytics draws (analytics/dashboard.py). The record's `report` hook loads it when first asked
for, so judging a game never imports polars.

    report = rs.report()                              # a Report
    report.queries["win_rate_by_seat"](t)             # a polars DataFrame, every column named
    part = report.dashboard(t, alone=True)            # its sections and its summary phrase

`t` is the analytics tables (analytics.load.Tables): `t.<table>` is a polars LazyFrame of every
registered ruleset's projections, and of the store's `games` (game_id, ruleset, tournament,
finished, ...) and `players` (game_id, seat, player, name); engine.core.queries has the helpers
every game's queries share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from engine.core.charts import Block, ChartSpec


@dataclass(frozen=True)
class Section:
    """One section of the dashboard: its heading, its charts (in a grid), and what follows them
    (sub-headings, notes, tables)."""

    heading: str
    charts: tuple[ChartSpec, ...]
    after: tuple[Block, ...] = ()


@dataclass(frozen=True)
class DashboardPart:
    """A ruleset's part of the dashboard: its sections in page order, and a phrase for the page's
    summary line ("12 games (10 finished), 31 battles, 402 cards played")."""

    sections: tuple[Section, ...]
    summary: str


@dataclass(frozen=True)
class Report:
    """A ruleset's analytics: its named queries (name -> function of the tables, returning a
    polars DataFrame; names are unique across rulesets), its dashboard (the tables, and whether
    its games are the only ones on the page -> DashboardPart; `alone` lets it name itself in its
    headings only when another game shares the page, and count the dice when it does not), and
    what its dice are rolled for (the dashboard's note on the shared dice table)."""

    queries: Mapping[str, Callable[[Any], Any]]
    dashboard: Callable[[Any, bool], DashboardPart] | None = None
    dice: str = ""
