"""Risk Europe's part of the dashboard, as plain data (engine.core.report): outcomes (game lengths,
win rates by starting city, seat and opening bid), King's Orders card use, and battle luck against
the exact odds, with the luckiest and unluckiest players; and its named queries
(engine.risk_europe.queries) for `ledger stats`.

    REPORT.dashboard(t, alone=True)        # sections of ChartSpecs, the summary phrase

Prepare, then plot: every number comes from a named query; analytics draws the specs. Each chart
is titled in plain words with its sample size; a chart whose query has no rows is left empty with
a sentence saying why.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import polars as pl

from engine.core.charts import (
    Bars, ChartSpec, Heading, Note, Points, Table, Threshold, empty_chart, headroom, percent,
    plural,
)
from engine.core.report import DashboardPart, Report, Section
from engine.risk_europe import queries as q

TITLE = "Risk Europe"
OUTCOMES, ORDERS, LUCK = "Outcomes", "King's Orders", "Battle luck"
PLAYER_COUNT = 4                    # the basic game: an even win rate is 1/4
LUCK_BIN = 0.25                     # width of the luck histogram's bars (battles)
BUBBLE_MIN, BUBBLE_MAX = 7, 30      # px: the calibration's bubbles, the fewest and most battles
ORDER_NAMES = {"expand": "expand", "split_expand": "split expand", "maneuver": "maneuver",
               "tax": "tax", "spend": "spend", q.NO_ORDER: "no order"}
BONUS_NAMES = {"fortify": "fortify", "siege_assault": "siege assault", "king_me": "King Me"}
NO_GAME = "No game in the store has finished yet."
NO_CARD = "No King's Orders card has been played yet."
NO_BATTLE = "No battle has been fought yet."
LUCK_COLUMNS = {"game_id": "game", "player": "player", "luck": "luck", "battles": "battles",
                "battles_won": "won", "expected_wins": "expected to win",
                "won_game": "won the game"}
LUCK_FORMATS = {"luck": "+.2f", "expected_wins": ".2f"}


# --- outcomes -----------------------------------------------------------------------------------


def _game_lengths(t) -> ChartSpec:
    d = q.game_lengths(t)
    n = int(d["games"].sum()) if d.height else 0
    if not n:
        return empty_chart("game-lengths", NO_GAME)
    return ChartSpec("game-lengths", f"How many rounds a game lasts ({plural(n, 'finished game')})",
                     "rounds", "games",
                     (Bars(d["rounds"].to_list(), d["games"].to_list(), "games", colour="#4c78a8"),))


def _win_rate(chart_id: str, d: pl.DataFrame, by: str, title: str, x_title: str,
              label: Callable[[Any], str] = str) -> ChartSpec:
    if not d.height:
        return empty_chart(chart_id, NO_GAME)
    games = int(d["games"].sum()) // PLAYER_COUNT
    rates = percent(d["win_rate"].to_list())
    bars = Bars([label(v) for v in d[by].to_list()], rates, "win rate", colour="#54a24b",
                text=[f"{w:g} of {g}" for w, g in zip(d["wins"].to_list(), d["games"].to_list())],
                text_at="outside")
    return ChartSpec(chart_id, f"{title} ({plural(games, 'finished game')})", x_title,
                     "win rate (%)", (bars,), y_range=headroom(rates, 100 / PLAYER_COUNT),
                     threshold=Threshold(100 / PLAYER_COUNT, f"even: {100 // PLAYER_COUNT}%"))


def _seat(s: int | None) -> str:
    return f"seat {s + 1}" if s is not None else "?"


def outcome_charts(t) -> tuple[ChartSpec, ...]:
    return (
        _game_lengths(t),
        _win_rate("win-rate-city", q.win_rate_by_starting_city(t), "starting_city",
                  "Win rate by starting city", "starting city",
                  lambda c: c if c is not None else "none"),
        _win_rate("win-rate-seat", q.win_rate_by_seat(t), "seat",
                  "Win rate by seat (the log's seat order)", "seat", _seat),
        _win_rate("win-rate-bid", q.win_rate_by_opening_bid(t), "opening_bid",
                  "Win rate by opening bid for the First Player Marker", "coins bid",
                  lambda b: "none" if b is None else plural(b, "coin")),
    )


# --- King's Orders ------------------------------------------------------------------------------


def _usage(chart_id: str, d: pl.DataFrame, item: str, title: str, x_title: str,
           names: dict[str, str] | None = None) -> ChartSpec:
    if not d.height:
        return empty_chart(chart_id, NO_CARD)
    n = int(d["plays"].sum())
    plays = d["plays"].to_list()
    bars = Bars([(names or {}).get(v, v) for v in d[item].to_list()], plays, "plays",
                colour="#f58518", text=[f"{100 * s:.0f}%" for s in d["share"].to_list()],
                text_at="outside")
    return ChartSpec(chart_id, f"{title} ({plural(n, 'card')} played)", x_title, "times played",
                     (bars,), y_range=headroom(plays))


def _shares(chart_id: str, d: pl.DataFrame, group: str, item: str, title: str, x_title: str,
            group_label: Callable[[Any], str] = str, stacked: bool = False) -> ChartSpec:
    """Each item's share of its group's plays: stacked, one bar per group; or grouped, one bar
    group per item and one bar per group."""
    if not d.height:
        return empty_chart(chart_id, NO_CARD)
    n = int(d["plays"].sum())
    share = {(g, i): s for g, i, s in zip(d[group].to_list(), d[item].to_list(),
                                          d["share"].to_list())}
    items = sorted(set(d[item].to_list()))
    groups = sorted(set(d[group].to_list()))
    if stacked:
        traces = tuple(Bars([group_label(g) for g in groups],
                            [100 * share.get((g, i), 0) for g in groups], ORDER_NAMES.get(i, i))
                       for i in items)
    else:
        traces = tuple(Bars([ORDER_NAMES.get(i, i) for i in items],
                            [100 * share.get((g, i), 0) for i in items], group_label(g))
                       for g in groups)
    return ChartSpec(chart_id, f"{title} ({plural(n, 'card')} played)", x_title,
                     "share of plays (%)", traces, bars="stack" if stacked else "group")


def _bonus_use(t) -> ChartSpec:
    d = q.bonus_use(t)
    if not d.height:
        return empty_chart("bonus-use", "No card with a bonus action was played.")
    n = int(d["cards_played"].sum())
    rates = percent(d["use_rate"].to_list())
    bars = Bars([BONUS_NAMES.get(b, b) for b in d["card_bonus"].to_list()], rates, "used",
                colour="#b279a2", text_at="outside",
                text=[f"{u} of {c}" for u, c in zip(d["bonus_used"].to_list(),
                                                     d["cards_played"].to_list())])
    return ChartSpec("bonus-use", f"How often a card's bonus action is used ({plural(n, 'card')} "
                                  f"with a bonus played)", "bonus action", "used (%)", (bars,),
                     y_range=headroom(rates))


def order_charts(t) -> tuple[ChartSpec, ...]:
    return (
        _usage("orders", q.order_frequency(t), "order_chosen", "Which orders players choose",
               "order", ORDER_NAMES),
        _usage("round-openers", q.round_openers(t).rename({"rounds_opened": "plays"}), "card",
               "Which card opens a round", "card revealed first in the round"),
        _shares("cards-by-round", q.cards_by_round(t), "round", "card",
                "Cards played in each round", "round", stacked=True),
        _shares("cards-by-seat", q.cards_by_seat(t), "seat", "card",
                "Cards played from each seat", "card", _seat),
        _shares("cards-winners", q.cards_winners_vs_rest(t), "group", "card",
                "Cards played by the eventual winners and by the rest", "card"),
        _shares("orders-winners", q.orders_winners_vs_rest(t), "group", "order_chosen",
                "Orders chosen by the eventual winners and by the rest", "order"),
        _bonus_use(t),
    )


# --- battle luck --------------------------------------------------------------------------------


def _calibration(t) -> ChartSpec:
    d = q.odds_calibration(t)
    if not d.height:
        return empty_chart("odds-calibration", NO_BATTLE)
    n = int(d["battles"].sum())
    battles = d["battles"].to_list()
    most = max(battles)
    return ChartSpec(
        "odds-calibration",
        f"Attackers won about as often as the exact odds said ({plural(n, 'battle')})",
        "P(attacker takes the territory), exact (%)", "attackers who took it (%)", (
            Points([0, 100], [0, 100], "as the odds say", mode="lines", colour="#888", dash=True),
            Points(percent(d["expected_rate"].to_list()), percent(d["observed_rate"].to_list()),
                   "battles, grouped by their odds (area: how many)", colour="#e45756",
                   sizes=[BUBBLE_MIN + (BUBBLE_MAX - BUBBLE_MIN) * math.sqrt(b / most)
                          for b in battles],
                   hover=[f"{plural(b, 'battle')}: odds {100 * e:.0f}%, taken {100 * o:.0f}%"
                          for b, e, o in zip(battles, d["expected_rate"].to_list(),
                                             d["observed_rate"].to_list())],
                   hover_shows="text"),
        ), x_range=(-6, 106), y_range=(-6, 106))


def _luck_histogram(per: pl.DataFrame) -> ChartSpec:
    if not per.height:
        return empty_chart("luck-histogram", NO_BATTLE)
    binned = (per.with_columns((pl.col("luck") / LUCK_BIN).floor().alias("bin"))
              .group_by("bin").agg(pl.len().alias("n")).sort("bin"))
    bars = Bars([(b + 0.5) * LUCK_BIN for b in binned["bin"].to_list()], binned["n"].to_list(),
                "players in a game", colour="#72b7b2", width=LUCK_BIN * 0.95)
    return ChartSpec("luck-histogram", f"Battle luck of each player in each game "
                                       f"({plural(per.height, 'player-game')})",
                     "battles won minus battles expected to be won", "players in a game", (bars,))


def _luck_by_player(t) -> ChartSpec:
    d = q.luck_by_player(t)
    if not d.height:
        return empty_chart("luck-by-player", NO_BATTLE)
    n = int(d["battles"].sum())
    bars = Bars(d["player"].to_list(), d["luck"].to_list(), "luck", colour="#9d755d",
                text=[f"{b} battles" for b in d["battles"].to_list()], text_at="auto",
                players=d["player"].to_list())
    return ChartSpec("luck-by-player", f"Battle luck of each player, over every game "
                                       f"({plural(n, 'battle side')})",
                     "player", "battles won minus expected", (bars,))


def luck_section(t, heading: str) -> Section:
    per = q.luck_by_player_game(t)
    luckiest = per.sort(["luck", "game_id", "player"], descending=[True, False, False]).head(10)
    unluckiest = per.sort(["luck", "game_id", "player"]).head(10)
    return Section(heading, (_calibration(t), _luck_histogram(per), _luck_by_player(t)), (
        Heading("The luckiest players in one game"),
        Note("Luck is battles won minus the battles the exact odds expected them to win (the "
             "game's odds module, the documented casualty and re-roll policy)."),
        Table(luckiest.to_dicts(), LUCK_COLUMNS, LUCK_FORMATS, "No battle yet."),
        Heading("The unluckiest players in one game"),
        Table(unluckiest.to_dicts(), LUCK_COLUMNS, LUCK_FORMATS, "No battle yet."),
    ))


# --- the part ------------------------------------------------------------------------------------


def dashboard(t, alone: bool) -> DashboardPart:
    """Risk Europe's sections; its headings name the game only when another game shares the page
    (King's Orders names it by itself)."""
    def heading(section: str) -> str:
        if alone or section == ORDERS:
            return section
        return f"{TITLE}: {section[0].lower()}{section[1:]}"

    sections = (Section(heading(OUTCOMES), outcome_charts(t)),
                Section(heading(ORDERS), order_charts(t)),
                luck_section(t, heading(LUCK)))
    return DashboardPart(sections, summary(t, alone))


def summary(t, alone: bool) -> str:
    """"12 games (10 finished), 31 battles, 3,210 dice rolled, 402 cards played" (the dice only
    when the page is Risk Europe's alone: other games roll into the same table)."""
    s = q.corpus_summary(t).to_dicts()[0]
    games = f"{plural(s['games'], 'game')} ({s['finished_games']:,} finished), " \
            f"{plural(s['battles'], 'battle')}, "
    cards = f"{plural(s['cards_played'], 'card')} played"
    if alone:
        return f"{games}{plural(s['dice'], 'die', 'dice')} rolled, {cards}"
    return f"{TITLE}: {games}{cards}"


REPORT = Report(queries=q.QUERIES, dashboard=dashboard,
                dice="roll-offs, siege assaults, battles and re-rolls")


def report() -> Report:
    """RULESET.report: REPORT (the record imports this module when first asked for)."""
    return REPORT
