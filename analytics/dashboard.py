"""The dashboard: one self-contained HTML page of plotly charts over the analytics tables.

    tables = load_tables(store, tournament=None)        # analytics.load
    report = write_dashboard(tables, "report.html")      # charts drawn, skipped, bytes written

Prepare, then plot: every number comes from a named query (analytics.queries); this module only
draws. Each chart is titled in plain words with its sample size; a chart whose query has no rows
(no battles yet, say) is left out with a sentence saying why. The page embeds plotly.js, so it
works offline. `dashboard_stats` gives the same numbers as plain data (`ledger stats --json`).
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import plotly.graph_objects as go
import polars as pl

from analytics import queries as q
from analytics.load import Tables
from analytics.page import (Chart, _layout, _pct, _plural, _table, chart_html,
                            html_page, write_page)
from analytics.stats import ALPHA, FLAG_P, MIN_DICE

PLAYER_COUNT = 4                    # the basic game: an even win rate is 1/4
LUCK_BIN = 0.25                     # width of the luck histogram's bars (battles)
P_VALUE_BINS = 20
ORDER_NAMES = {"expand": "expand", "split_expand": "split expand", "maneuver": "maneuver",
               "tax": "tax", "spend": "spend", q.NO_ORDER: "no order"}
BONUS_NAMES = {"fortify": "fortify", "siege_assault": "siege assault", "king_me": "King Me"}


@dataclass
class DashboardReport:
    """What write_dashboard wrote."""

    path: Path
    charts: list[str] = field(default_factory=list)      # ids of the charts drawn
    skipped: list[str] = field(default_factory=list)     # ids left out for lack of data
    bytes: int = 0


def _even_line(fig: go.Figure, level: float, text: str) -> None:
    fig.add_hline(y=level, line_dash="dash", line_color="#888", annotation_text=text,
                  annotation_position="top left")


def _headroom(fig: go.Figure, values: list[float | None], floor: float = 0.0) -> go.Figure:
    """Room above the tallest bar for its label."""
    top = max([v for v in values if v is not None] + [floor])
    fig.update_yaxes(range=[0, top * 1.18 if top > 0 else 1])
    return fig


# --- the charts -----------------------------------------------------------------------------------


def _game_lengths(t: Tables) -> Chart:
    d = q.game_lengths(t)
    n = int(d["games"].sum()) if d.height else 0
    if not n:
        return Chart("game-lengths", "Outcomes", None, "No game in the store has finished yet.")
    fig = go.Figure(go.Bar(x=d["rounds"].to_list(), y=d["games"].to_list(), name="games",
                           marker_color="#4c78a8"))
    return Chart("game-lengths", "Outcomes", _layout(
        fig, f"How many rounds a game lasts ({_plural(n, 'finished game')})", "rounds", "games"))


def _win_rate_chart(chart_id: str, d: pl.DataFrame, by: str, title: str, x_title: str,
                    label: Callable[[Any], str] = str) -> Chart:
    if not d.height:
        return Chart(chart_id, "Outcomes", None, "No game in the store has finished yet.")
    games = int(d["games"].sum()) // PLAYER_COUNT
    labels = [label(v) for v in d[by].to_list()]
    fig = go.Figure(go.Bar(
        x=labels, y=_pct(d["win_rate"].to_list()), marker_color="#54a24b",
        text=[f"{w:g} of {g}" for w, g in zip(d["wins"].to_list(), d["games"].to_list())],
        textposition="outside", name="win rate"))
    fig = _layout(fig, f"{title} ({_plural(games, 'finished game')})", x_title, "win rate (%)")
    _headroom(fig, _pct(d["win_rate"].to_list()), 100 / PLAYER_COUNT)
    _even_line(fig, 100 / PLAYER_COUNT, f"even: {100 // PLAYER_COUNT}%")
    return Chart(chart_id, "Outcomes", fig)


def _usage_bars(chart_id: str, section: str, d: pl.DataFrame, item: str, title: str,
                x_title: str, names: dict[str, str] | None = None) -> Chart:
    if not d.height:
        return Chart(chart_id, section, None, "No King's Orders card has been played yet.")
    n = int(d["plays"].sum())
    labels = [(names or {}).get(v, v) for v in d[item].to_list()]
    fig = go.Figure(go.Bar(x=labels, y=d["plays"].to_list(), marker_color="#f58518",
                           text=[f"{100 * s:.0f}%" for s in d["share"].to_list()],
                           textposition="outside", name="plays"))
    fig = _layout(fig, f"{title} ({_plural(n, 'card')} played)", x_title, "times played")
    return Chart(chart_id, section, _headroom(fig, d["plays"].to_list()))


def _grouped_shares(chart_id: str, section: str, d: pl.DataFrame, group: str, item: str,
                    title: str, x_title: str, group_label: Callable[[Any], str] = str,
                    stacked: bool = False) -> Chart:
    """Each item's share of its group's plays: stacked, one bar per group; or grouped, one bar
    group per item and one bar per group."""
    if not d.height:
        return Chart(chart_id, section, None, "No King's Orders card has been played yet.")
    n = int(d["plays"].sum())
    share = {(g, i): s for g, i, s in zip(d[group].to_list(), d[item].to_list(),
                                          d["share"].to_list())}
    items = sorted(set(d[item].to_list()))
    groups = sorted(set(d[group].to_list()))
    fig = go.Figure()
    if stacked:
        for i in items:
            fig.add_trace(go.Bar(x=[group_label(g) for g in groups], name=ORDER_NAMES.get(i, i),
                                 y=[100 * share.get((g, i), 0) for g in groups]))
    else:
        for g in groups:
            fig.add_trace(go.Bar(x=[ORDER_NAMES.get(i, i) for i in items], name=group_label(g),
                                 y=[100 * share.get((g, i), 0) for i in items]))
    fig = _layout(fig, f"{title} ({_plural(n, 'card')} played)", x_title, "share of plays (%)",
                  barmode="stack" if stacked else "group")
    return Chart(chart_id, section, fig)


def _bonus_use(t: Tables) -> Chart:
    d = q.bonus_use(t)
    if not d.height:
        return Chart("bonus-use", "King's Orders", None, "No card with a bonus action was played.")
    n = int(d["cards_played"].sum())
    fig = go.Figure(go.Bar(
        x=[BONUS_NAMES.get(b, b) for b in d["card_bonus"].to_list()],
        y=_pct(d["use_rate"].to_list()), marker_color="#b279a2",
        text=[f"{u} of {c}" for u, c in zip(d["bonus_used"].to_list(),
                                             d["cards_played"].to_list())],
        textposition="outside", name="used"))
    fig = _layout(fig, f"How often a card's bonus action is used ({_plural(n, 'card')} with a "
                       f"bonus played)", "bonus action", "used (%)")
    return Chart("bonus-use", "King's Orders", _headroom(fig, _pct(d["use_rate"].to_list())))


def _calibration(t: Tables) -> Chart:
    d = q.odds_calibration(t)
    if not d.height:
        return Chart("odds-calibration", "Battle luck", None, "No battle has been fought yet.")
    n = int(d["battles"].sum())
    fig = go.Figure([
        go.Scatter(x=[0, 100], y=[0, 100], mode="lines", name="as the odds say",
                   line={"dash": "dash", "color": "#888"}),
        go.Scatter(x=_pct(d["expected_rate"].to_list()), y=_pct(d["observed_rate"].to_list()),
                   mode="markers", name="battles, grouped by their odds",
                   marker={"size": [6 + 3 * math.sqrt(b) for b in d["battles"].to_list()],
                           "color": "#e45756", "sizemode": "diameter"},
                   text=[f"{b} battles" for b in d["battles"].to_list()]),
    ])
    return Chart("odds-calibration", "Battle luck", _layout(
        fig, f"Attackers won about as often as the exact odds said ({_plural(n, 'battle')})",
        "P(attacker takes the territory), exact (%)", "attackers who took it (%)"))


def _luck_histogram(per: pl.DataFrame) -> Chart:
    if not per.height:
        return Chart("luck-histogram", "Battle luck", None, "No battle has been fought yet.")
    binned = (per.with_columns((pl.col("luck") / LUCK_BIN).floor().alias("bin"))
              .group_by("bin").agg(pl.len().alias("n")).sort("bin"))
    fig = go.Figure(go.Bar(x=[(b + 0.5) * LUCK_BIN for b in binned["bin"].to_list()],
                           y=binned["n"].to_list(), width=LUCK_BIN * 0.95,
                           marker_color="#72b7b2", name="players in a game"))
    return Chart("luck-histogram", "Battle luck", _layout(
        fig, f"Battle luck of each player in each game ({_plural(per.height, 'player-game')})",
        "battles won minus battles expected to be won", "players in a game"))


def _luck_by_player(t: Tables) -> Chart:
    d = q.luck_by_player(t)
    if not d.height:
        return Chart("luck-by-player", "Battle luck", None, "No battle has been fought yet.")
    n = int(d["battles"].sum())
    fig = go.Figure(go.Bar(x=d["player"].to_list(), y=d["luck"].to_list(), marker_color="#9d755d",
                           text=[f"{b} battles" for b in d["battles"].to_list()],
                           textposition="auto", name="luck"))
    return Chart("luck-by-player", "Battle luck", _layout(
        fig, f"Battle luck of each player, over every game ({_plural(n, 'battle side')})",
        "player", "battles won minus expected"))


def _dice_faces(t: Tables) -> Chart:
    d = q.dice_faces(t)
    n = int(d["count"].sum())
    if not n:
        return Chart("dice-faces", "Dice", None, "No die has been rolled yet.")
    fig = go.Figure(go.Bar(x=d["face"].to_list(), y=d["count"].to_list(), marker_color="#4c78a8",
                           name="dice"))
    fig = _layout(fig, f"Every die rolled, by face ({_plural(n, 'die', 'dice')})", "face", "dice")
    _even_line(fig, n / 6, "a fair die: 1/6 each")
    return Chart("dice-faces", "Dice", fig)


def _p_values(fairness: pl.DataFrame) -> Chart:
    tested = fairness.filter(pl.col("p_value").is_not_null())
    if not tested.height:
        return Chart("dice-p-values", "Dice", None,
                     f"No player rolled {MIN_DICE} dice in one game yet: too few to test.")
    binned = (tested.with_columns((pl.col("p_value") * P_VALUE_BINS).floor()
                                  .clip(0, P_VALUE_BINS - 1).alias("bin"))
              .group_by("bin").agg(pl.len().alias("n")).sort("bin"))
    fig = go.Figure(go.Bar(x=[(b + 0.5) / P_VALUE_BINS for b in binned["bin"].to_list()],
                           y=binned["n"].to_list(), width=0.95 / P_VALUE_BINS,
                           marker_color="#eeca3b", name="players in a game"))
    fig = _layout(fig, "Dice fairness of each player in each game: chi-square p-values "
                       f"({_plural(tested.height, 'player-game')} tested)",
                  "p-value (fair dice spread them evenly)", "players in a game")
    _even_line(fig, tested.height / P_VALUE_BINS, "fair dice")
    return Chart("dice-p-values", "Dice", fig)


# --- the page -----------------------------------------------------------------------------------


SECTIONS = ("Outcomes", "King's Orders", "Battle luck", "Dice")


def dashboard_charts(t: Tables,
                     step: Callable[[str], None] | None = None) -> tuple[list[Chart], dict]:
    """Every chart of the page (in order) and the tables shown with them. The Risk Europe
    sections are left out of a store that holds only Risk Legacy games; the Risk Legacy ones
    (analytics.dashboard_legacy) are there when it holds any."""
    from analytics.dashboard_legacy import has_legacy_games, legacy_charts

    tick = step or (lambda _: None)
    legacy = has_legacy_games(t)
    europe = not legacy or _has_europe_games(t)
    charts: list[Chart] = []
    extra: dict[str, Any] = {"europe": europe, "legacy": legacy, "notes": {}}
    if europe:
        charts += _europe_charts(t, tick, extra)
    else:
        for label in ("outcomes", "King's Orders", "battle luck"):
            tick(label)
    tick("Risk Legacy")
    if legacy:
        more, extra["notes"] = legacy_charts(t)
        charts += more
    tick("dice")
    fairness = {level: q.dice_fairness(t, level) for level in q.FAIRNESS_LEVELS}
    charts += [_dice_faces(t), _p_values(fairness["player in game"])]
    extra["summary"] = q.corpus_summary(t)
    extra["fairness"] = fairness
    return charts, extra


def _has_europe_games(t: Tables) -> bool:
    europe = t.games.filter(pl.col("ruleset") == "risk-europe").select(pl.len()).collect().item()
    return europe > 0 or t.outcomes.select(pl.len()).collect().item() > 0


def _europe_charts(t: Tables, tick: Callable[[str], None], extra: dict) -> list[Chart]:
    charts: list[Chart] = []
    seat = lambda s: f"seat {s + 1}" if s is not None else "?"  # noqa: E731
    tick("outcomes")
    charts += [
        _game_lengths(t),
        _win_rate_chart("win-rate-city", q.win_rate_by_starting_city(t), "starting_city",
                        "Win rate by starting city", "starting city",
                        lambda c: c if c is not None else "none"),
        _win_rate_chart("win-rate-seat", q.win_rate_by_seat(t), "seat",
                        "Win rate by seat (the log's seat order)", "seat", seat),
        _win_rate_chart("win-rate-bid", q.win_rate_by_opening_bid(t), "opening_bid",
                        "Win rate by opening bid for the First Player Marker",
                        "coins bid", lambda b: "none" if b is None else _plural(b, "coin")),
    ]
    tick("King's Orders")
    charts += [
        _usage_bars("orders", "King's Orders", q.order_frequency(t), "order_chosen",
                    "Which orders players choose", "order", ORDER_NAMES),
        _usage_bars("round-openers", "King's Orders",
                    q.round_openers(t).rename({"rounds_opened": "plays"}), "card",
                    "Which card opens a round", "card revealed first in the round"),
        _grouped_shares("cards-by-round", "King's Orders", q.cards_by_round(t), "round", "card",
                        "Cards played in each round", "round", stacked=True),
        _grouped_shares("cards-by-seat", "King's Orders", q.cards_by_seat(t), "seat", "card",
                        "Cards played from each seat", "card", seat),
        _grouped_shares("cards-winners", "King's Orders", q.cards_winners_vs_rest(t), "group",
                        "card", "Cards played by the eventual winners and by the rest", "card"),
        _grouped_shares("orders-winners", "King's Orders", q.orders_winners_vs_rest(t), "group",
                        "order_chosen", "Orders chosen by the eventual winners and by the rest",
                        "order"),
        _bonus_use(t),
    ]
    tick("battle luck")
    per = q.luck_by_player_game(t)
    charts += [_calibration(t), _luck_histogram(per), _luck_by_player(t)]
    extra["luckiest"] = per.sort(["luck", "game_id", "player"],
                                 descending=[True, False, False]).head(10)
    extra["unluckiest"] = per.sort(["luck", "game_id", "player"]).head(10)
    return charts


def dashboard_stats(t: Tables, only: list[str] | None = None) -> dict[str, Any]:
    """The dashboard's numbers as plain data: every named query (or those in `only`)."""
    names = only or list(q.QUERIES)
    unknown = [n for n in names if n not in q.QUERIES]
    if unknown:
        raise KeyError(f"unknown quer{'y' if len(unknown) == 1 else 'ies'} "
                       f"{', '.join(map(repr, unknown))}; known: {', '.join(q.QUERIES)}")
    return {"scope": t.title, "fairness_threshold": {"flag_p": FLAG_P, "alpha": ALPHA,
                                                     "min_dice": MIN_DICE},
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



def _fairness_summary(fairness: dict[str, pl.DataFrame]) -> pl.DataFrame:
    rows = []
    for level, d in fairness.items():
        tested = d.filter(pl.col("p_value").is_not_null()).height
        rows.append({"level": level, "groups": d.height, "tested": tested,
                     "flagged": d.filter(pl.col("flagged")).height,
                     "expected_by_chance": tested * FLAG_P,
                     "unlikely_by_chance": d.filter(pl.col("unlikely_by_chance")).height})
    return pl.DataFrame(rows)




def _page(t: Tables, charts: list[Chart], extra: dict) -> str:
    from analytics.dashboard_legacy import SECTIONS as LEGACY_SECTIONS, legacy_summary_text

    s = extra["summary"].to_dicts()[0] if extra["summary"].height else {}
    europe, legacy = extra.get("europe", True), extra.get("legacy", False)
    fragments = chart_html(charts)
    sections = []
    shown = ([*SECTIONS[:-1]] if europe else []) + ([*LEGACY_SECTIONS] if legacy else []) \
        + [SECTIONS[-1]]
    for section in shown:
        body = "".join(fragments[c.id] for c in charts if c.section == section)
        heading = f"Risk Europe: {section[0].lower()}{section[1:]}" if (
            legacy and section in SECTIONS[:-1] and section != "King's Orders") else section
        sections.append(f"<h2>{html.escape(heading)}</h2><div class='grid'>{body}</div>")
        if section in extra["notes"]:
            sections.append(extra["notes"][section])
        if section == "Dice" and legacy:
            sections.append("<p class='note'>Dice of every ruleset: Risk Europe's roll-offs, "
                            "siege assaults, battles and re-rolls, Risk Legacy's roll-offs and "
                            "attack rolls.</p>")
        if section == "Battle luck" and europe:
            sections.append(
                "<h3>The luckiest players in one game</h3>"
                "<p class='note'>Luck is battles won minus the battles the exact odds expected "
                "them to win (the game's odds module, the documented casualty and re-roll policy).</p>"
                + _table(extra["luckiest"], LUCK_COLUMNS, LUCK_FORMATS, "No battle yet.")
                + "<h3>The unluckiest players in one game</h3>"
                + _table(extra["unluckiest"], LUCK_COLUMNS, LUCK_FORMATS, "No battle yet."))
        if section == "Dice":
            fairness = extra["fairness"]
            flagged = pl.concat(list(fairness.values())).filter(pl.col("flagged")) \
                .sort(["p_value", "level", "group"])
            sections.append(
                f"<h3>Flagged dice</h3><p class='note'>Each group of dice (a player over every "
                f"game, a game, a player in one game, a tournament) with at least {MIN_DICE} dice "
                f"is tested against a fair die (chi-square, 5 degrees of freedom) and flagged when "
                f"p &lt; {FLAG_P}. With many groups, about {FLAG_P} of the fair ones are flagged "
                f"by chance; a flag whose p-value times the number of groups tested stays below "
                f"{ALPHA} (Bonferroni) is unlikely to be chance.</p>"
                + _table(_fairness_summary(fairness), FAIRNESS_SUMMARY_COLUMNS,
                         {"expected_by_chance": ".2f"})
                + _table(flagged, FLAGGED_COLUMNS, {"p_value": ".1e"},
                         "No group of dice is flagged: every tested group looks like fair dice."))
    rulesets = " and ".join(name for name, shown in (("Risk Europe", europe),
                                                      ("Risk Legacy", legacy)) if shown)
    title = f"{rulesets} games: {t.title}"
    summary = (f"{_plural(s.get('games', 0), 'game')} ({s.get('finished_games', 0):,} finished), "
               f"{_plural(s.get('battles', 0), 'battle')}, "
               f"{_plural(s.get('dice', 0), 'die', 'dice')} rolled, "
               f"{_plural(s.get('cards_played', 0), 'card')} played")
    if legacy:
        europe_part = (f"Risk Europe: {_plural(s.get('games', 0), 'game')} "
                       f"({s.get('finished_games', 0):,} finished), "
                       f"{_plural(s.get('battles', 0), 'battle')}, "
                       f"{_plural(s.get('cards_played', 0), 'card')} played; ") if europe else ""
        summary = (f"{europe_part}{legacy_summary_text(t)}; "
                   f"{_plural(s.get('dice', 0), 'die', 'dice')} rolled")
    return html_page(title, f"<h1>{html.escape(title)}</h1><p class='note'>"
                     f"{html.escape(summary)}. Built by <code>ledger dashboard</code> from the "
                     f"ledger store; the same numbers: <code>ledger stats --json</code>.</p>"
                     + "".join(sections))


LUCK_COLUMNS = {"game_id": "game", "player": "player", "luck": "luck", "battles": "battles",
                "battles_won": "won", "expected_wins": "expected to win",
                "won_game": "won the game"}
LUCK_FORMATS = {"luck": "+.2f", "expected_wins": ".2f"}
FAIRNESS_SUMMARY_COLUMNS = {"level": "dice grouped by", "groups": "groups", "tested": "tested",
                            "flagged": "flagged", "expected_by_chance": "flags expected by chance",
                            "unlikely_by_chance": "unlikely to be chance"}
FLAGGED_COLUMNS = {"level": "grouped by", "group": "group", "dice": "dice", "n1": "1", "n2": "2",
                   "n3": "3", "n4": "4", "n5": "5", "n6": "6", "p_value": "p-value",
                   "verdict": "verdict"}


def stats_json(t: Tables, only: list[str] | None = None) -> str:
    """dashboard_stats as JSON text."""
    return json.dumps(dashboard_stats(t, only), indent=2, default=str, ensure_ascii=False)
