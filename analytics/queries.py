"""Named queries over the analytics tables: each metric is one polars query with every column
named, returning a DataFrame sorted in a fixed order.

    t = load_tables(store)                 # analytics.load
    QUERIES["win_rate_by_seat"](t)         # seat, games, wins, win_rate (a ruleset's query)
    dice_fairness(t, "player in game")     # level, group, ..., p_value, flagged, verdict

The queries here read only what every game shares: the `dice` table, and the store's `games` and
`players`. Each ruleset brings the queries over its own tables through its record
(`Ruleset.report`, engine.core.report); QUERIES holds them all, by name, for `ledger stats`.
Prepare data, then plot: analytics/dashboard.py draws only what these return. Every query is
tested against small frames with a known answer (tests/test_analytics_queries.py). The metrics
are explained in docs/analytics.md.
"""

from __future__ import annotations

from typing import Callable

import polars as pl

from analytics.load import Tables
from analytics.stats import ALPHA, FACES, MIN_DICE, dice_p_value, fairness_verdict, is_flagged
from engine.core.queries import labelled as _labelled
from engine.core.ruleset import rulesets

FACE_COLUMNS = [f"n{k}" for k in range(1, FACES + 1)]
FAIRNESS_LEVELS = ("player", "game", "player in game", "tournament")
NO_TOURNAMENT = "(no tournament)"


# --- dice ---------------------------------------------------------------------------------------


def dice_faces(t: Tables) -> pl.DataFrame:
    """face, count, share, expected_share: every die rolled, by face."""
    sums = t.dice.select(pl.col(c).sum().cast(pl.Int64) for c in FACE_COLUMNS).collect()
    counts = [sums[c][0] or 0 if sums.height else 0 for c in FACE_COLUMNS]
    total = sum(counts)
    return pl.DataFrame({
        "face": list(range(1, FACES + 1)), "count": counts,
        "share": [c / total if total else None for c in counts],
        "expected_share": [1 / FACES] * FACES,
    }, schema={"face": pl.Int32, "count": pl.Int64, "share": pl.Float64,
               "expected_share": pl.Float64})


def dice_by_why(t: Tables) -> pl.DataFrame:
    """why, rolls, dice: what the dice were rolled for."""
    return (t.dice.group_by("why").agg(pl.len().cast(pl.Int64).alias("rolls"),
                                        pl.col("dice").sum().cast(pl.Int64).alias("dice"))
            .sort("why").collect())


_FAIRNESS_SCHEMA = {
    "level": pl.String, "group": pl.String, "game_id": pl.String, "player": pl.String,
    "tournament": pl.String, "dice": pl.Int64, **{c: pl.Int64 for c in FACE_COLUMNS},
    "chi2": pl.Float64, "p_value": pl.Float64, "tests": pl.Int64, "flagged": pl.Boolean,
    "unlikely_by_chance": pl.Boolean, "verdict": pl.String,
}


def dice_fairness(t: Tables, level: str = "player in game") -> pl.DataFrame:
    """Face counts of each group of dice against a fair die (analytics.stats): level, group,
    game_id, player, tournament, dice, n1..n6, chi2, p_value, tests, flagged,
    unlikely_by_chance, verdict. `level`: "player" (over every game), "game", "player in game",
    "tournament". Groups with fewer than MIN_DICE dice are listed untested (p_value null);
    `tests` is how many groups of this level were tested (for the multiple-testing wording)."""
    keys = {"player": ["player"], "game": ["game_id"], "player in game": ["game_id", "player"],
            "tournament": ["tournament"]}.get(level)
    if keys is None:
        raise ValueError(f"dice fairness is grouped by {', '.join(FAIRNESS_LEVELS)}; "
                         f"not {level!r}")
    dice = t.dice
    if "player" in keys:
        dice = _labelled(dice, t)
    if "tournament" in keys:
        dice = dice.join(t.games.select("game_id", "tournament"), on="game_id", how="left") \
            .with_columns(pl.col("tournament").fill_null(NO_TOURNAMENT))
    grouped = (dice.group_by(keys)
               .agg(pl.col("dice").sum().cast(pl.Int64), *(pl.col(c).sum().cast(pl.Int64)
                                                          for c in FACE_COLUMNS))
               .sort(keys).collect())
    rows = grouped.to_dicts()
    tested = [r for r in rows if r["dice"] >= MIN_DICE]
    for r in rows:
        counts = [r[c] for c in FACE_COLUMNS]
        n = r["dice"]
        expected = n / FACES
        r["chi2"] = sum((c - expected) ** 2 for c in counts) / expected if n else None
        r["p_value"] = dice_p_value(counts) if n >= MIN_DICE else None
        r["tests"] = len(tested)
        r["flagged"] = is_flagged(r["p_value"])
        r["unlikely_by_chance"] = r["flagged"] and r["p_value"] * len(tested) < ALPHA
        r["verdict"] = fairness_verdict(r["p_value"], n, len(tested))
        r["level"] = level
        r["group"] = " / ".join(str(r[k]) for k in keys)
    return pl.DataFrame([{c: r.get(c) for c in _FAIRNESS_SCHEMA} for r in rows],
                        schema=_FAIRNESS_SCHEMA)


def flagged_dice(t: Tables) -> pl.DataFrame:
    """Every flagged group of dice at every level, most uneven first (dice_fairness columns)."""
    frames = [dice_fairness(t, level) for level in FAIRNESS_LEVELS]
    return (pl.concat(frames).filter(pl.col("flagged"))
            .sort(["p_value", "level", "group"]))


# --- every query, for `ledger stats` --------------------------------------------------------------

SHARED_QUERIES: dict[str, Callable[[Tables], pl.DataFrame]] = {
    "dice_faces": dice_faces,
    "dice_by_why": dice_by_why,
    **{f"dice_fairness_by_{level.replace(' ', '_')}":
       (lambda t, level=level: dice_fairness(t, level)) for level in FAIRNESS_LEVELS},
    "flagged_dice": flagged_dice,
}


def named_queries() -> dict[str, Callable[[Tables], pl.DataFrame]]:
    """Every named query: each registered ruleset's (`Ruleset.report`), by ruleset name, then the
    shared ones. ValueError when two of them share a name."""
    found: dict[str, Callable[[Tables], pl.DataFrame]] = {}
    owner: dict[str, str] = {}
    for rs in rulesets():
        report = rs.report() if rs.report is not None else None
        for name, query in (report.queries.items() if report is not None else ()):
            if name in found:
                raise ValueError(f"{rs.name} names a query {name!r} that {owner[name]} has too")
            found[name], owner[name] = query, rs.name
    for name, query in SHARED_QUERIES.items():
        if name in found:
            raise ValueError(f"{owner[name]} names a query {name!r} that every game shares")
        found[name] = query
    return found


QUERIES: dict[str, Callable[[Tables], pl.DataFrame]] = named_queries()
