"""The Risk Legacy part of the dashboard: win rates by faction, starting power and turn order (with
their counts and 95% intervals, so a faction that won 2 of 2 does not look like a sure thing), Red
Stars, the world of each campaign game by game, and the dice of the attack rolls against the exact
odds.

    charts, tables = legacy_charts(t)        # analytics.page.Chart list, HTML of the tables

Prepare, then plot: every number comes from a named query (analytics.queries, `legacy_*`).
"""

from __future__ import annotations

import html
from typing import Any, Callable

import plotly.graph_objects as go
import polars as pl

from analytics import queries as q
from analytics.page import _layout, _pct, _plural, _table
from analytics.load import Tables
from analytics.page import Chart
from engine.risk_legacy.board import FACTION_NAMES

OUTCOMES, WORLD, LUCK = ("Risk Legacy: outcomes", "Risk Legacy: the world, game by game",
                         "Risk Legacy: battle luck")
SECTIONS = (OUTCOMES, WORLD, LUCK)
MAX_CAMPAIGNS = 8        # campaigns charted one by one; the rest are in `ledger stats --json`
WIN_STARS = 4
POWER_NAMES = {
    "mech-fortified-hq": "fortified HQ", "mech-double-sixes": "double sixes",
    "bear-first-strike": "first strike", "bear-three-of-a-kind": "three of a kind",
    "balk-round-up": "round up", "balk-expansion-card": "expansion card",
    "khan-hq-reinforcement": "HQ reinforcement", "khan-card-troop": "card troop",
    "sahara-maneuver-anytime": "maneuver any time", "sahara-maneuver-anywhere": "maneuver anywhere",
}
SHORT_FACTION_NAMES = {"die_mechaniker": "Mechaniker", "enclave_of_the_bear": "Enclave",
                       "imperial_balkania": "Balkania", "khan_industries": "Khan",
                       "saharan_republic": "Saharan"}
WORLD_LINES = {"cities": "cities", "scars": "scars", "fortifications": "fortified cities",
               "named_continents": "named continents", "destroyed_cards": "destroyed cards"}
NO_GAME = "No Risk Legacy game in the store has finished yet."
NO_ROLL = "No unmodified attack roll yet (rolls changed by a scar, a fortification, a power or " \
          "a Missile have no exact odds)."


def faction_name(f: str | None) -> str:
    return FACTION_NAMES.get(f, f) if f else "none"


def _wrapped(text: str) -> str:
    """A label on two lines, split at the space nearest its middle (axis labels stay level)."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if len(text) < 12 or not spaces:
        return html.escape(text)
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return html.escape(text[:cut]) + "<br>" + html.escape(text[cut + 1:])


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _win_rate(chart_id: str, d: pl.DataFrame, label: Callable[[dict], str], title: str,
              x_title: str) -> Chart:
    """Win rates with "w of n" on each bar, the 95% interval as error bars, and the rate of a
    player with no edge as a marker."""
    if not d.height:
        return Chart(chart_id, OUTCOMES, None, NO_GAME)
    rows = d.to_dicts()
    rate = _pct(d["win_rate"].to_list())
    fig = go.Figure([
        go.Bar(x=[label(r) for r in rows], y=rate, marker_color="#54a24b", name="win rate",
               text=[f"{r['wins']:g} of {r['games']}" for r in rows], textposition="outside",
               error_y={"type": "data", "symmetric": False, "color": "#777", "thickness": 1,
                        "array": [100 * (r["win_rate_high"] - r["win_rate"]) for r in rows],
                        "arrayminus": [100 * (r["win_rate"] - r["win_rate_low"]) for r in rows]}),
        go.Scatter(x=[label(r) for r in rows], y=_pct(d["even"].to_list()), mode="markers",
                   name="no edge (1 / players)",
                   marker={"symbol": "line-ew-open", "size": 28, "color": "#444",
                           "line": {"width": 2}}),
    ])
    fig = _layout(fig, f"{title} ({_plural(int(d['games'].sum()), 'player-game')})", x_title,
                  "win rate (%), with its 95% interval")
    fig.update_yaxes(range=[0, 118])
    fig.update_xaxes(tickangle=0)
    return Chart(chart_id, OUTCOMES, fig)


def _red_stars(d: pl.DataFrame) -> Chart:
    if not d.height:
        return Chart("legacy-red-stars", OUTCOMES, None, NO_GAME)
    names = [_wrapped(faction_name(f)) for f in d["faction"].to_list()]
    fig = go.Figure([
        go.Bar(x=names, y=d["red_star_tokens"].to_list(), name="Red Star tokens",
               marker_color="#e45756"),
        go.Bar(x=names, y=d["hqs"].to_list(), name="HQs held", marker_color="#f2a69e",
               text=[_plural(n, "game") for n in d["games"].to_list()],
               textposition="outside"),
    ])
    fig = _layout(fig, f"Red Stars at the end of a game, by faction "
                       f"({_plural(int(d['games'].sum()), 'player-game')})", "faction",
                  "Red Stars (mean)", barmode="stack")
    fig.add_hline(y=WIN_STARS, line_dash="dash", line_color="#888",
                  annotation_text=f"{WIN_STARS} win", annotation_position="top left")
    fig.update_yaxes(range=[0, WIN_STARS * 1.25])
    fig.update_xaxes(tickangle=0)
    return Chart("legacy-red-stars", OUTCOMES, fig)


def _world(index: int, campaign: str, d: pl.DataFrame) -> Chart:
    """The world after each game of one campaign: counts by game number, the winner below."""
    chart_id = f"legacy-world-{index}"
    rows = d.to_dicts()
    ticks = [f"{r['game_no']}<br>{html.escape(r['winner'] or 'no winner')}" for r in rows]
    fig = go.Figure()
    for column, name in WORLD_LINES.items():
        fig.add_trace(go.Scatter(
            x=ticks, y=d[column].to_list(), mode="lines+markers", name=name,
            hovertext=[f"game {r['game_no']} ({r['game_id']}): {r['winner'] or 'no winner'} "
                       f"({faction_name(r['winner_faction'])}), reward: "
                       f"{(r['reward'] or 'none').replace('_', ' ')}"
                       + (f" ({r['reward_detail']})" if r["reward_detail"] else "")
                       for r in rows], hoverinfo="text+y"))
    return Chart(chart_id, WORLD, _layout(
        fig, f"The world of campaign {campaign}, game by game ({_plural(len(rows), 'game')})",
        "game (and its winner)", "on the board after the game"))


def _roll_odds(d: pl.DataFrame) -> Chart:
    if not d.height:
        return Chart("legacy-roll-odds", LUCK, None, NO_ROLL)
    labels = [f"{a} vs {b}" for a, b in zip(d["attacker_dice"].to_list(),
                                           d["defender_dice"].to_list())]
    rolls = d["rolls"].to_list()
    fig = go.Figure([
        go.Bar(x=labels, y=d["expected_defender_lost"].to_list(), marker_color="#bab0ac",
               name="defender's losses the odds expect"),
        go.Bar(x=labels, y=d["defender_lost"].to_list(), marker_color="#e45756",
               name="defender's losses, as rolled", text=[_plural(n, "roll") for n in rolls],
               textposition="outside"),
    ])
    fig = _layout(fig, f"Attack rolls against the exact odds ({_plural(sum(rolls), 'roll')}, "
                       f"unmodified)", "attacker's dice vs defender's dice",
                  "defender's troops lost per roll", barmode="group")
    return Chart("legacy-roll-odds", LUCK, fig)


def _luck_by_player(d: pl.DataFrame) -> Chart:
    if not d.height:
        return Chart("legacy-luck-by-player", LUCK, None, NO_ROLL)
    fig = go.Figure(go.Bar(x=d["player"].to_list(), y=d["luck"].to_list(),
                           marker_color="#9d755d", name="luck",
                           text=[_plural(n, "roll") for n in d["rolls"].to_list()],
                           textposition="auto"))
    return Chart("legacy-luck-by-player", LUCK, _layout(
        fig, f"Dice luck of each player in attack rolls, over every game "
             f"({_plural(int(d['rolls'].sum()), 'roll side')})", "player",
        "troops lost below expectation"))


def _modifiers(d: pl.DataFrame) -> Chart:
    changed = d.filter(pl.col("modifiers") != q.NO_MODIFIER)
    if not changed.height:
        return Chart("legacy-modifiers", LUCK, None,
                     "No attack roll was changed by a scar, a fortification, a power or a Missile.")
    labels = [_wrapped(m) for m in changed["modifiers"].to_list()]
    rolls = changed["rolls"].to_list()
    fig = go.Figure([
        go.Bar(x=labels, y=changed["unmodified_defender_lost"].to_list(),
               marker_color="#bab0ac", name="defender's losses with the same dice unmodified"),
        go.Bar(x=labels, y=changed["defender_lost"].to_list(), marker_color="#4c78a8",
               name="defender's losses, as played", text=[_plural(n, "roll") for n in rolls],
               textposition="outside"),
    ])
    fig = _layout(fig, "What scars, fortifications and Missiles did "
                       f"({_plural(sum(rolls), 'roll')})", "the defender's modifiers",
                  "defender's troops lost per roll", barmode="group")
    fig.update_xaxes(tickangle=0, tickfont={"size": 10})
    return Chart("legacy-modifiers", LUCK, fig)


def _turn_label(r: dict) -> str:
    n = r["turn_order"]
    if n is None:
        return "?"
    return _ordinal(n + 1) + ("<br>(won the roll-off)" if n == 0 else "")


def _power_label(r: dict) -> str:
    faction = SHORT_FACTION_NAMES.get(r["faction"], r["faction"] or "none")
    return f"{faction}:<br>{POWER_NAMES.get(r['power'], r['power'] or 'none')}"


def legacy_charts(t: Tables) -> tuple[list[Chart], dict[str, str]]:
    """The Risk Legacy charts (in page order) and the HTML shown after each section."""
    charts = [
        _win_rate("legacy-win-rate-faction", q.legacy_win_rate_by_faction(t),
                  lambda r: _wrapped(faction_name(r["faction"])),
                  "Risk Legacy: win rate by faction", "faction"),
        _win_rate("legacy-win-rate-power", q.legacy_win_rate_by_power(t), _power_label,
                  "Win rate by starting power", "faction and its starting power"),
        _win_rate("legacy-win-rate-turn-order", q.legacy_win_rate_by_turn_order(t), _turn_label,
                  "Win rate by place in the turn order", "place in the turn order"),
        _red_stars(q.legacy_red_stars_by_faction(t)),
    ]
    evolution = q.legacy_world_evolution(t)
    campaigns = evolution["campaign"].unique(maintain_order=True).to_list()
    notes: dict[str, str] = {}
    world_html = []
    if not campaigns:
        charts.append(Chart("legacy-world-0", WORLD, None,
                            "No stored Risk Legacy game names a campaign yet."))
    for i, name in enumerate(campaigns[:MAX_CAMPAIGNS]):
        games = evolution.filter(pl.col("campaign") == name)
        charts.append(_world(i, name, games))
        world_html.append(f"<h3>Campaign {html.escape(name)}</h3>" + _table(
            games.with_columns(pl.col("winner_faction").replace(dict(FACTION_NAMES)),
                               pl.col("reward").str.replace_all("_", " ")),
            WORLD_COLUMNS))
        stored = int(games["games_stored"].sum())
        broken = games.filter(~pl.col("continues_previous")).height
        if stored > games.height or broken:
            world_html.append(
                "<p class='note'>"
                + (f"{stored - games.height} stored games claim a number another game of this "
                   f"campaign has (the one with the fewest findings is shown). " if stored >
                   games.height else "")
                + (f"{_plural(broken, 'game')} {'does' if broken == 1 else 'do'} not start from "
                   f"the world the game before it left (<code>ledger campaign audit</code>)."
                   if broken else "") + "</p>")
    if len(campaigns) > MAX_CAMPAIGNS:
        world_html.append(f"<p class='note'>{len(campaigns) - MAX_CAMPAIGNS} more campaigns: "
                          f"<code>ledger stats --json -q legacy_world_evolution</code>.</p>")
    notes[WORLD] = "".join(world_html)
    charts += [_roll_odds(q.legacy_roll_odds(t)), _luck_by_player(q.legacy_luck_by_player(t)),
               _modifiers(q.legacy_modifiers(t))]
    notes[LUCK] = (
        "<h3>Risk Legacy: was each game won on the dice?</h3><p class='note'>Luck is the troops "
        "a player's dice lost below what the exact odds expect, attacking and defending, over "
        "the unmodified rolls of the game (engine/core/dice_odds.py, <code>roll_odds</code>).</p>"
        + _table(q.legacy_luck_by_game(t), LUCK_BY_GAME_COLUMNS, LUCK_BY_GAME_FORMATS,
                 "No unmodified attack roll yet."))
    return charts, notes


def has_legacy_games(t: Tables) -> bool:
    return t.legacy_games.select(pl.len()).collect().item() > 0


def legacy_summary_text(t: Tables) -> str:
    s: dict[str, Any] = q.legacy_summary(t).to_dicts()[0]
    return (f"{_plural(s['games'], 'Risk Legacy game')} ({s['finished_games']:,} finished) in "
            f"{_plural(s['campaigns'], 'campaign')}, {_plural(s['attack_rolls'], 'attack roll')} "
            f"({s['rolls_with_odds']:,} with exact odds)")


WORLD_COLUMNS = {"game_no": "game", "game_id": "log", "winner": "winner",
                 "winner_faction": "faction", "reward": "reward", "reward_detail": "what",
                 "cities": "cities", "scars": "scars", "fortifications": "fortified",
                 "named_continents": "named continents", "signatures": "signatures",
                 "packs_opened": "packs"}
LUCK_BY_GAME_COLUMNS = {"game_id": "game", "rolls": "rolls", "winner": "winner",
                        "winner_luck": "winner's luck", "luckiest_player": "luckiest",
                        "luckiest_luck": "their luck", "unluckiest_player": "unluckiest",
                        "unluckiest_luck": "their luck", "spread": "spread"}
LUCK_BY_GAME_FORMATS = {"winner_luck": "+.2f", "luckiest_luck": "+.2f",
                        "unluckiest_luck": "+.2f", "spread": ".2f"}
