"""Risk Legacy's part of the dashboard, as plain data (engine.core.report): win rates by faction,
starting power and turn order (with their counts and 95% intervals, so a faction that won 2 of 2
does not look like a sure thing), Red Stars, the world of each campaign game by game, and the
dice of the attack rolls against the exact odds; and its named queries
(engine.risk_legacy.queries, `legacy_*`) for `ledger stats`.

    REPORT.dashboard(t, alone=True)        # sections of ChartSpecs, the summary phrase

Prepare, then plot: every number comes from a named query; analytics draws the specs.
"""

from __future__ import annotations

import html
from functools import partial

import polars as pl

from engine.core.charts import (
    Bars, ChartSpec, Heading, Note, Points, Table, Threshold, empty_chart, plural, win_rate_chart,
)
from engine.core.report import DashboardPart, Report, Section
from engine.risk_legacy import queries as q
from engine.risk_legacy.board import FACTION_NAMES

OUTCOMES, WORLD, LUCK = ("Risk Legacy: outcomes", "Risk Legacy: the world, game by game",
                         "Risk Legacy: battle luck")
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


_win_rate = partial(win_rate_chart, seat="player", empty=NO_GAME)


def _red_stars(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("legacy-red-stars", NO_GAME)
    names = [_wrapped(faction_name(f)) for f in d["faction"].to_list()]
    return ChartSpec(
        "legacy-red-stars", f"Red Stars at the end of a game, by faction "
                            f"({plural(int(d['games'].sum()), 'player-game')})",
        "faction", "Red Stars (mean)", (
            Bars(names, d["red_star_tokens"].to_list(), "Red Star tokens", colour="#e45756"),
            Bars(names, d["hqs"].to_list(), "HQs held", colour="#f2a69e",
                 text=[plural(n, "game") for n in d["games"].to_list()], text_at="outside"),
        ), bars="stack", threshold=Threshold(WIN_STARS, f"{WIN_STARS} win"),
        y_range=(0, WIN_STARS * 1.25), level_labels=True)


def _world(index: int, campaign: str, d: pl.DataFrame) -> ChartSpec:
    """The world after each game of one campaign: counts by game number, the winner below."""
    rows = d.to_dicts()
    ticks = [f"{r['game_no']}<br>{html.escape(r['winner'] or 'no winner')}" for r in rows]
    hover = [f"game {r['game_no']} ({r['game_id']}): {r['winner'] or 'no winner'} "
             f"({faction_name(r['winner_faction'])}), reward: "
             f"{(r['reward'] or 'none').replace('_', ' ')}"
             + (f" ({r['reward_detail']})" if r["reward_detail"] else "") for r in rows]
    return ChartSpec(
        f"legacy-world-{index}",
        f"The world of campaign {campaign}, game by game ({plural(len(rows), 'game')})",
        "game (and its winner)", "on the board after the game",
        tuple(Points(ticks, d[column].to_list(), name, mode="lines+markers", hover=hover,
                     hover_shows="text+y") for column, name in WORLD_LINES.items()))


def _roll_odds(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("legacy-roll-odds", NO_ROLL)
    labels = [f"{a} vs {b}" for a, b in zip(d["attacker_dice"].to_list(),
                                           d["defender_dice"].to_list())]
    rolls = d["rolls"].to_list()
    return ChartSpec(
        "legacy-roll-odds", f"Attack rolls against the exact odds ({plural(sum(rolls), 'roll')}, "
                            f"unmodified)",
        "attacker's dice vs defender's dice", "defender's troops lost per roll", (
            Bars(labels, d["expected_defender_lost"].to_list(),
                 "defender's losses the odds expect", colour="#bab0ac"),
            Bars(labels, d["defender_lost"].to_list(), "defender's losses, as rolled",
                 colour="#e45756", text=[plural(n, "roll") for n in rolls], text_at="outside"),
        ), bars="group")


def _luck_by_player(d: pl.DataFrame) -> ChartSpec:
    if not d.height:
        return empty_chart("legacy-luck-by-player", NO_ROLL)
    return ChartSpec(
        "legacy-luck-by-player", f"Dice luck of each player in attack rolls, over every game "
                                 f"({plural(int(d['rolls'].sum()), 'roll side')})",
        "player", "troops lost below expectation",
        (Bars(d["player"].to_list(), d["luck"].to_list(), "luck", colour="#9d755d",
              text=[plural(n, "roll") for n in d["rolls"].to_list()], text_at="auto",
              players=d["player"].to_list()),))


def _modifiers(d: pl.DataFrame) -> ChartSpec:
    changed = d.filter(pl.col("modifiers") != q.NO_MODIFIER)
    if not changed.height:
        return empty_chart("legacy-modifiers", "No attack roll was changed by a scar, a "
                                               "fortification, a power or a Missile.")
    labels = [_wrapped(m) for m in changed["modifiers"].to_list()]
    rolls = changed["rolls"].to_list()
    return ChartSpec(
        "legacy-modifiers", f"What scars, fortifications and Missiles did "
                            f"({plural(sum(rolls), 'roll')})",
        "the defender's modifiers", "defender's troops lost per roll", (
            Bars(labels, changed["unmodified_defender_lost"].to_list(),
                 "defender's losses with the same dice unmodified", colour="#bab0ac"),
            Bars(labels, changed["defender_lost"].to_list(), "defender's losses, as played",
                 colour="#4c78a8", text=[plural(n, "roll") for n in rolls], text_at="outside"),
        ), bars="group", level_labels=True, label_size=10)


def _turn_label(r: dict) -> str:
    n = r["turn_order"]
    if n is None:
        return "?"
    return _ordinal(n + 1) + ("<br>(won the roll-off)" if n == 0 else "")


def _power_label(r: dict) -> str:
    faction = SHORT_FACTION_NAMES.get(r["faction"], r["faction"] or "none")
    return f"{faction}:<br>{POWER_NAMES.get(r['power'], r['power'] or 'none')}"


def _world_section(t) -> Section:
    evolution = q.legacy_world_evolution(t)
    campaigns = evolution["campaign"].unique(maintain_order=True).to_list()
    charts: list[ChartSpec] = []
    after: list = []
    if not campaigns:
        charts.append(empty_chart("legacy-world-0",
                                  "No stored Risk Legacy game names a campaign yet."))
    for i, name in enumerate(campaigns[:MAX_CAMPAIGNS]):
        games = evolution.filter(pl.col("campaign") == name)
        charts.append(_world(i, name, games))
        after += [Heading(f"Campaign {name}"), Table(
            games.with_columns(pl.col("winner_faction").replace(dict(FACTION_NAMES)),
                               pl.col("reward").str.replace_all("_", " ")).to_dicts(),
            WORLD_COLUMNS)]
        stored = int(games["games_stored"].sum())
        broken = games.filter(~pl.col("continues_previous")).height
        if stored > games.height or broken:
            after.append(Note(
                (f"{stored - games.height} stored games claim a number another game of this "
                 f"campaign has (the one with the fewest findings is shown). " if stored >
                 games.height else "")
                + (f"{plural(broken, 'game')} {'does' if broken == 1 else 'do'} not start from "
                   f"the world the game before it left (`ledger campaign audit`)."
                   if broken else "")))
    if len(campaigns) > MAX_CAMPAIGNS:
        after.append(Note(f"{len(campaigns) - MAX_CAMPAIGNS} more campaigns: "
                          f"`ledger stats --json -q legacy_world_evolution`."))
    return Section(WORLD, tuple(charts), tuple(after))


def dashboard(t, alone: bool) -> DashboardPart:
    """Risk Legacy's sections (always headed with its name) and its summary phrase."""
    outcomes = Section(OUTCOMES, (
        _win_rate("legacy-win-rate-faction", q.legacy_win_rate_by_faction(t),
                  lambda r: _wrapped(faction_name(r["faction"])),
                  "Risk Legacy: win rate by faction", "faction"),
        _win_rate("legacy-win-rate-power", q.legacy_win_rate_by_power(t), _power_label,
                  "Win rate by starting power", "faction and its starting power"),
        _win_rate("legacy-win-rate-turn-order", q.legacy_win_rate_by_turn_order(t), _turn_label,
                  "Win rate by place in the turn order", "place in the turn order"),
        _red_stars(q.legacy_red_stars_by_faction(t)),
    ))
    luck = Section(LUCK, (
        _roll_odds(q.legacy_roll_odds(t)), _luck_by_player(q.legacy_luck_by_player(t)),
        _modifiers(q.legacy_modifiers(t)),
    ), (
        Heading("Risk Legacy: was each game won on the dice?"),
        Note("Luck is the troops a player's dice lost below what the exact odds expect, "
             "attacking and defending, over the unmodified rolls of the game "
             "(engine/core/dice_odds.py, `roll_odds`)."),
        Table(q.legacy_luck_by_game(t).to_dicts(), LUCK_BY_GAME_COLUMNS, LUCK_BY_GAME_FORMATS,
              "No unmodified attack roll yet."),
    ))
    return DashboardPart((outcomes, _world_section(t), luck), summary(t, alone))


def summary(t, alone: bool) -> str:
    """"5 Risk Legacy games (5 finished) in 1 campaign, 301 attack rolls (280 with exact odds)",
    and the dice rolled when the page is Risk Legacy's alone."""
    s = q.legacy_summary(t).to_dicts()[0]
    text = (f"{plural(s['games'], 'Risk Legacy game')} ({s['finished_games']:,} finished) in "
            f"{plural(s['campaigns'], 'campaign')}, {plural(s['attack_rolls'], 'attack roll')} "
            f"({s['rolls_with_odds']:,} with exact odds)")
    if alone:
        dice = t.dice.select(pl.col("dice").sum()).collect().item() or 0
        text += f"; {plural(int(dice), 'die', 'dice')} rolled"
    return text


REPORT = Report(queries=q.QUERIES, dashboard=dashboard, dice="roll-offs and attack rolls")


def report() -> Report:
    """RULESET.report: REPORT (the record imports this module when first asked for)."""
    return REPORT
