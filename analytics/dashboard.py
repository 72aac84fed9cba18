"""The dashboard: one self-contained HTML page of plotly charts over the analytics tables.

    tables = load_tables(store, tournament=None)        # analytics.load
    report = write_dashboard(tables, "report.html")      # charts drawn, skipped, bytes written

The page has a group of sections for each ruleset whose games the tables hold, in the order of
the rulesets' names: the ruleset's report (`Ruleset.report`, engine.core.report) says what its
sections show, as plain data, and analytics/charts.py draws them. Then the dice every game rolls
into the shared `dice` table: faces, fairness p-values, the flagged groups.

Prepare, then plot: every number comes from a named query (analytics.queries.QUERIES). Each chart
is titled in plain words with its sample size; a chart whose query has no rows (no battles yet,
say) is left out with a sentence saying why. Under every chart and table a line says which stored
games it counted and which it left out (the tables' selection, analytics.selection), and the top
of the page lists the games left out with why. The page embeds plotly.js, so it works offline.
`dashboard_stats` gives the same numbers as plain data (`ledger stats --json`).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import polars as pl

from analytics import queries as q
from analytics.charts import blocks_html, chart
from analytics.game_page import player_colours
from analytics.load import Tables
from analytics.selection import REASON_WORDS
from analytics.page import Chart, _table, chart_html, html_page, table_html, text_html, write_page
from analytics.stats import ALPHA, FLAG_P, MIN_DICE
from engine.core.charts import Bars, ChartSpec, Threshold, empty_chart, plural
from engine.core.report import DashboardPart, Report
from engine.core.ruleset import Ruleset, rulesets
from engine.core.text import and_list

P_VALUE_BINS = 20
DICE = "Dice"
MAX_LEFT_OUT_ROWS = 200      # games listed on the page; `ledger stats --left-out` lists them all


@dataclass
class DashboardReport:
    """What write_dashboard wrote."""

    path: Path
    charts: list[str] = field(default_factory=list)      # ids of the charts drawn
    skipped: list[str] = field(default_factory=list)     # ids left out for lack of data
    bytes: int = 0


@dataclass
class Group:
    """One ruleset's part of the page."""

    ruleset: Ruleset
    report: Report
    part: DashboardPart


# --- the rulesets on the page ---------------------------------------------------------------------


def _reports() -> list[tuple[Ruleset, Report]]:
    """Every registered ruleset with dashboard sections, by name, and its report."""
    out = []
    for rs in rulesets():
        report = rs.report() if rs.report is not None else None
        if report is not None and report.dashboard is not None:
            out.append((rs, report))
    return out


def dashboard_steps() -> tuple[str, ...]:
    """What write_dashboard reports to its `step` callback, in order (for a progress bar): each
    ruleset with dashboard sections, the dice, the page."""
    return (*(rs.title for rs, _ in _reports()), "dice", "page")


def rulesets_stored(t: Tables) -> set[str]:
    """The names of the rulesets whose games the tables hold."""
    return set(t.games.select(pl.col("ruleset").drop_nulls().unique()).collect()["ruleset"])


# --- the dice every game shares -------------------------------------------------------------------


def _dice_faces(t: Tables) -> ChartSpec:
    d = q.dice_faces(t)
    n = int(d["count"].sum())
    if not n:
        return empty_chart("dice-faces", "No die has been rolled yet.")
    return ChartSpec("dice-faces", f"Every die rolled, by face ({plural(n, 'die', 'dice')})",
                     "face", "dice",
                     (Bars(d["face"].to_list(), d["count"].to_list(), "dice", colour="#4c78a8"),),
                     threshold=Threshold(n / 6, "a fair die: 1/6 each"))


def _p_values(fairness: pl.DataFrame) -> ChartSpec:
    tested = fairness.filter(pl.col("p_value").is_not_null())
    if not tested.height:
        return empty_chart("dice-p-values",
                           f"No player rolled {MIN_DICE} dice in one game yet: too few to test.")
    binned = (tested.with_columns((pl.col("p_value") * P_VALUE_BINS).floor()
                                  .clip(0, P_VALUE_BINS - 1).alias("bin"))
              .group_by("bin").agg(pl.len().alias("n")).sort("bin"))
    return ChartSpec(
        "dice-p-values", "Dice fairness of each player in each game: chi-square p-values "
                         f"({plural(tested.height, 'player-game')} tested)",
        "p-value (fair dice spread them evenly)", "players in a game",
        (Bars([(b + 0.5) / P_VALUE_BINS for b in binned["bin"].to_list()], binned["n"].to_list(),
              "players in a game", colour="#eeca3b", width=0.95 / P_VALUE_BINS),),
        threshold=Threshold(tested.height / P_VALUE_BINS, "fair dice"))


def _dice_rolled(t: Tables) -> int:
    return int(t.dice.select(pl.col("dice").sum()).collect().item() or 0)


def _fairness_summary(fairness: dict[str, pl.DataFrame]) -> pl.DataFrame:
    rows = []
    for level, d in fairness.items():
        tested = d.filter(pl.col("p_value").is_not_null()).height
        rows.append({"level": level, "groups": d.height, "tested": tested,
                     "flagged": d.filter(pl.col("flagged")).height,
                     "expected_by_chance": tested * FLAG_P,
                     "unlikely_by_chance": d.filter(pl.col("unlikely_by_chance")).height})
    return pl.DataFrame(rows)


# --- the page -----------------------------------------------------------------------------------


def dashboard_charts(t: Tables,
                     step: Callable[[str], None] | None = None) -> tuple[list[Chart], dict]:
    """Every chart of the page (in order), and what the page shows besides: the groups of the
    rulesets whose games the tables hold (by name), the dice fairness at every level."""
    tick = step or (lambda _: None)
    stored = rulesets_stored(t)
    reports = _reports()
    alone = sum(rs.name in stored for rs, _ in reports) == 1
    charts: list[Chart] = []
    groups: list[Group] = []
    for rs, report in reports:
        tick(rs.title)
        if rs.name not in stored:
            continue
        part = report.dashboard(t, alone)
        groups.append(Group(rs, report, part))
    # a player is drawn in one colour all over the page
    colours = player_colours(sorted({p for g in groups for s in g.part.sections
                                     for c in s.charts for p in c.players}))
    charts += [chart(c, s.heading, colours) for g in groups for s in g.part.sections
               for c in s.charts]
    tick("dice")
    fairness = {level: q.dice_fairness(t, level) for level in q.FAIRNESS_LEVELS}
    charts += [chart(_dice_faces(t), DICE), chart(_p_values(fairness["player in game"]), DICE)]
    return charts, {"groups": groups, "fairness": fairness}


def dashboard_stats(t: Tables, only: list[str] | None = None) -> dict[str, Any]:
    """The dashboard's numbers as plain data: every named query (or those in `only`)."""
    names = only or list(q.QUERIES)
    unknown = [n for n in names if n not in q.QUERIES]
    if unknown:
        raise KeyError(f"unknown quer{'y' if len(unknown) == 1 else 'ies'} "
                       f"{', '.join(map(repr, unknown))}; known: {', '.join(q.QUERIES)}")
    return {"scope": t.title,
            "games": t.selection.as_dict() if t.selection is not None else None,
            "fairness_threshold": {"flag_p": FLAG_P, "alpha": ALPHA, "min_dice": MIN_DICE},
            "queries": {n: q.QUERIES[n](t).to_dicts() for n in names}}


def write_dashboard(t: Tables, out: str | Path,
                    step: Callable[[str], None] | None = None) -> DashboardReport:
    """Write the dashboard page for `t` to `out` (one self-contained HTML file)."""
    t = t.collect()
    charts, extra = dashboard_charts(t, step)
    if step:
        step("page")
    size = write_page(_page(t, charts, extra), out)
    return DashboardReport(Path(out), [c.id for c in charts if c.figure is not None],
                           [c.id for c in charts if c.figure is None], size)


def _summary(t: Tables, groups: list[Group]) -> str:
    """The page's summary line: each ruleset's phrase (one alone counts its dice itself), then the
    dice they share."""
    if len(groups) == 1:
        return groups[0].part.summary
    dice = _dice_rolled(t)
    if groups:
        return "; ".join(g.part.summary for g in groups) + \
            f"; {plural(dice, 'die', 'dice')} rolled"
    stored = t.games.select(pl.len()).collect().item()
    text = "No game in the store has finished yet" if not stored else \
        f"{plural(stored, 'game')}, none of a ruleset with dashboard sections"
    return text + (f"; {plural(dice, 'die', 'dice')} rolled" if dice else "")


# --- what was counted -------------------------------------------------------------------------------


def _counted(t: Tables, ruleset: str | None = None) -> str:
    """The line under a chart or table: the games counted and left out (HTML; "" for tables made
    by hand)."""
    sel = t.selection
    if sel is None:
        return ""
    text = sel.note(ruleset, listing=False)
    if not text:
        return ""
    more = " <a href='#left-out'>Which ones, and why</a>" if sel.games_left_out(ruleset) else ""
    return f"<p class='counted'>{text_html(text)}.{more}</p>"


LEFT_OUT_COLUMNS = {"game_id": "game", "ruleset": "ruleset", "reason": "left out for",
                    "detail": "what"}


def _left_out(t: Tables) -> str:
    """The page's paragraph on the games counted, and the list of those left out."""
    sel = t.selection
    if sel is None or not sel.rulesets:
        return ""
    out = f"<p class='note'><b>Games counted.</b> {text_html(sel.note())}.</p>"
    left = sel.games_left_out()
    if not left:
        return out
    rows = [{"game_id": g.game_id, "ruleset": sel.titles.get(g.ruleset, g.ruleset),
             "reason": REASON_WORDS[g.reason], "detail": g.detail}
            for g in left[:MAX_LEFT_OUT_ROWS]]
    what = ("counted although they would be left out" if sel.include_broken else "left out")
    more = (f"<p class='note'>{len(left) - MAX_LEFT_OUT_ROWS:,} more: "
            f"<code>{html.escape(sel.listing_command())}</code>.</p>"
            if len(left) > MAX_LEFT_OUT_ROWS else "")
    back = "" if sel.include_broken else " <code>--include-broken</code> counts them too."
    return (out + f"<details id='left-out' class='left-out'><summary>The {plural(len(left), 'game')} {what}, "
            f"and why</summary><p class='note'>A game with findings (its own, or its "
            f"campaign's) may hold wrong numbers, and a copy of a game counted would count "
            f"it twice.{back}</p>"
            + table_html(rows, LEFT_OUT_COLUMNS) + more + "</details>")


def _dice_section(t: Tables, charts: dict[str, str], groups: list[Group], fairness: dict) -> str:
    counted = _counted(t)
    out = f"<h2>{DICE}</h2><div class='grid'>{charts['dice-faces']}{charts['dice-p-values']}</div>"
    rolled = [f"{g.ruleset.title}'s {g.report.dice}" for g in groups if g.report.dice]
    if len(groups) > 1 and rolled:
        out += f"<p class='note'>{html.escape('Dice of every ruleset: ' + ', '.join(rolled), quote=False)}.</p>"
    flagged = pl.concat(list(fairness.values())).filter(pl.col("flagged")) \
        .sort(["p_value", "level", "group"])
    return out + (
        f"<h3>Flagged dice</h3><p class='note'>Each group of dice (a player over every "
        f"game, a game, a player in one game, a tournament) with at least {MIN_DICE} dice "
        f"is tested against a fair die (chi-square, 5 degrees of freedom) and flagged when "
        f"p &lt; {FLAG_P}. With many groups, about {FLAG_P} of the fair ones are flagged "
        f"by chance; a flag whose p-value times the number of groups tested stays below "
        f"{ALPHA} (Bonferroni) is unlikely to be chance.</p>"
        + _table(_fairness_summary(fairness), FAIRNESS_SUMMARY_COLUMNS,
                 {"expected_by_chance": ".2f"}) + counted
        + _table(flagged, FLAGGED_COLUMNS, {"p_value": ".1e"},
                 "No group of dice is flagged: every tested group looks like fair dice.")
        + counted)


def _page(t: Tables, charts: list[Chart], extra: dict) -> str:
    groups: list[Group] = extra["groups"]
    captions = {c.id: _counted(t, g.ruleset.name) for g in groups for s in g.part.sections
                for c in s.charts}
    captions.update({c.id: _counted(t) for c in charts if c.section == DICE})
    fragments = chart_html(charts, captions)
    sections = []
    for g in groups:
        for s in g.part.sections:
            body = "".join(fragments[c.id] for c in s.charts)
            sections.append(f"<h2>{html.escape(s.heading)}</h2><div class='grid'>{body}</div>"
                            + blocks_html(s.after, _counted(t, g.ruleset.name)))
    sections.append(_dice_section(t, fragments, groups, extra["fairness"]))
    titles = and_list(g.ruleset.title for g in groups)
    title = f"{titles or 'No'} games: {t.title}"
    return html_page(title, f"<h1>{html.escape(title)}</h1><p class='note'>"
                     f"{html.escape(_summary(t, groups))}. Built by <code>ledger dashboard</code> "
                     f"from the ledger store; the same numbers: <code>ledger stats --json</code>."
                     f"</p>" + _left_out(t) + "".join(sections))


FAIRNESS_SUMMARY_COLUMNS = {"level": "dice grouped by", "groups": "groups", "tested": "tested",
                            "flagged": "flagged", "expected_by_chance": "flags expected by chance",
                            "unlikely_by_chance": "unlikely to be chance"}
FLAGGED_COLUMNS = {"level": "grouped by", "group": "group", "dice": "dice", "n1": "1", "n2": "2",
                   "n3": "3", "n4": "4", "n5": "5", "n6": "6", "p_value": "p-value",
                   "verdict": "verdict"}


def stats_json(t: Tables, only: list[str] | None = None) -> str:
    """dashboard_stats as JSON text."""
    return json.dumps(dashboard_stats(t, only), indent=2, default=str, ensure_ascii=False)
