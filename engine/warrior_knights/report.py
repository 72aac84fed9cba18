"""Warrior Knights' part of the dashboard, as plain data (engine.core.report): win rates by seat
and by what a Baron did (cities held at the end, how the Assembly went for him, what his
expeditions brought back), each with its count and 95% interval so that a band won 2 of 2 times
does not look like a sure thing; the battles by kind, the Assembly's outcomes and the
expeditions' returns; and the named queries (engine.warrior_knights.queries, `wk_*`) for
`ledger stats`. A game judged on the invented example board and cards says so.

    REPORT.dashboard(t, alone=True)        # sections of ChartSpecs, the summary phrase

Prepare, then plot: every number comes from a named query; analytics draws the specs.
"""

from __future__ import annotations

from functools import partial

import polars as pl

from engine.core.charts import (
    Bars, ChartSpec, Heading, Note, Table, empty_chart, plural, win_rate_chart,
)
from engine.core.report import DashboardPart, Report, Section
from engine.warrior_knights import queries as q

OUTCOMES, PLAY = "Warrior Knights: who wins", "Warrior Knights: battles, the Assembly, expeditions"
NO_GAME = "No Warrior Knights game in the store has finished yet."
PROFILE_COLUMNS = {"won": "Barons who", "games": "Baron-games", "influence": "Influence",
                   "cities_end": "cities at the end", "cities_most": "most cities",
                   "cities_taken": "cities taken", "battles_won": "battles won",
                   "nobles_lost": "Nobles lost", "agendas_carried": "Agendas carried",
                   "charges": "charges", "offices": "offices", "expedition_net": "expedition net crowns"}
PROFILE_FORMATS = {c: ".1f" for c in PROFILE_COLUMNS if c not in ("won", "games")}
EXPEDITION_COLUMNS = {"expedition": "expedition", "voyages": "voyages", "stakes": "stakes",
                      "crowns_staked": "crowns staked", "crowns_back": "crowns back",
                      "influence_back": "Influence back", "net_crowns": "net crowns",
                      "returned": "returned", "lost": "lost", "under_way": "under way"}
GAME_COLUMNS = {"game_id": "game", "players": "Barons", "rounds": "rounds", "winner": "winner",
                "reason": "how", "battles": "battles", "agendas": "Agendas",
                "expeditions": "expeditions"}


_win_rate = partial(win_rate_chart, seat="Baron", empty=NO_GAME)


def _battles(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("wk-battles", "No battle has been fought to its end yet.")
    labels = [f"{r['kind']}<br>vs {r['against']}" for r in d.to_dicts()]
    return ChartSpec(
        "wk-battles", f"Battles by kind ({plural(int(d['battles'].sum()), 'battle')})",
        "kind of battle, and against whom", "battles", (
            Bars(labels, d["attacker_won"].to_list(), "the attacker won", colour="#e45756"),
            Bars(labels, d["defender_won"].to_list(), "the defender held", colour="#4c78a8"),
            Bars(labels, d["undecided"].to_list(), "undecided (a siege laid, both stayed)",
                 colour="#bab0ac"),
        ), bars="stack", level_labels=True)


def _assembly(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("wk-assembly", "No Agenda has been voted on yet.")
    kinds = d["kind"].to_list()
    return ChartSpec(
        "wk-assembly", f"The Assembly's outcomes ({plural(int(d['agendas'].sum()), 'Agenda')})",
        "kind of Agenda", "Agendas", (
            Bars(kinds, d["passed"].to_list(), "passed (yes, or given to a Baron)", colour="#54a24b"),
            Bars(kinds, d["rejected"].to_list(), "rejected", colour="#e45756"),
            Bars(kinds, d["no_votes"].to_list(), "no votes cast", colour="#bab0ac",
                 text=[f"{n} tie{'s' if n != 1 else ''} broken" if n else "" for n in d["ties"].to_list()],
                 text_at="outside"),
        ), bars="stack", level_labels=True)


def _expeditions(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("wk-expeditions", "No expedition has been funded yet.")
    names = [x.replace("_", " ") for x in d["expedition"].to_list()]
    return ChartSpec(
        "wk-expeditions", f"What the expeditions brought back ({plural(int(d['voyages'].sum()), 'voyage')})",
        "expedition", "crowns (all Barons' stakes)", (
            Bars(names, d["crowns_staked"].to_list(), "crowns staked", colour="#bab0ac"),
            Bars(names, d["crowns_back"].to_list(), "crowns back", colour="#eeca3b",
                 text=[f"{r} of {v} returned" for r, v in zip(d["returned"].to_list(), d["voyages"].to_list())],
                 text_at="outside"),
        ), bars="group", level_labels=True)


def dashboard(t, alone: bool) -> DashboardPart:
    """Warrior Knights' sections (always headed with its name) and its summary phrase."""
    s = q.wk_summary(t).to_dicts()[0]
    outcomes = Section(OUTCOMES, (
        _win_rate("wk-win-rate-seat", q.wk_win_rate_by_seat(t), lambda r: f"seat {r['seat']}",
                  "Warrior Knights: win rate by seat", "seat (1: first in clockwise order)"),
        _win_rate("wk-win-rate-cities", q.wk_win_rate_by_cities(t), lambda r: f"{r['cities']}",
                  "Win rate by cities held at the end", "cities held at the end"),
        _win_rate("wk-win-rate-assembly", q.wk_win_rate_by_assembly(t), lambda r: r["assembly"],
                  "Win rate by how the Assembly went", "Agendas a Baron voted on that went his way"),
        _win_rate("wk-win-rate-expeditions", q.wk_win_rate_by_expeditions(t),
                  lambda r: r["expeditions"], "Win rate by expedition returns",
                  "what a Baron's stakes brought back, net"),
    ), (
        Heading("Warrior Knights: what winners did"),
        Note("The mean per Baron-game of finished games, winners against the others."),
        Table([{**r, "won": "won" if r["won"] else "did not win"} for r in q.wk_winner_profile(t).to_dicts()],
              PROFILE_COLUMNS, PROFILE_FORMATS, NO_GAME),
    ))
    after = [Heading("Warrior Knights: expeditions"),
             Table([{**r, "expedition": r["expedition"].replace("_", " ")}
                    for r in q.wk_expedition_returns(t).to_dicts()], EXPEDITION_COLUMNS, None,
                   "No expedition has been funded yet."),
             Heading("Warrior Knights: games"),
             Table(q.wk_games(t).to_dicts(), GAME_COLUMNS, None, "No Warrior Knights game stored.")]
    if s["example_data_games"]:
        after.append(Note(f"{plural(s['example_data_games'], 'game')} of these "
                          f"{'was' if s['example_data_games'] == 1 else 'were'} judged on the invented "
                          "example board and cards, not the published ones: their cities, "
                          "expeditions and Agendas are the example's."))
    play = Section(PLAY, (_battles(q.wk_battles_by_kind(t)), _assembly(q.wk_assembly_outcomes(t)),
                          _expeditions(q.wk_expedition_returns(t))), tuple(after))
    return DashboardPart((outcomes, play), summary(t, alone))


def summary(t, alone: bool) -> str:
    """"14 Warrior Knights games (14 finished), 266 battles, 437 Agendas voted"."""
    s = q.wk_summary(t).to_dicts()[0]
    return (f"{plural(s['games'], 'Warrior Knights game')} ({s['finished_games']:,} finished), "
            f"{plural(s['battles'], 'battle')}, {plural(s['agendas'], 'Agenda')} voted, "
            f"{plural(s['expeditions'], 'expedition')} funded")


REPORT = Report(queries=q.QUERIES, dashboard=dashboard, dice="")


def report() -> Report:
    """RULESET.report: REPORT (the record imports this module when first asked for)."""
    return REPORT
