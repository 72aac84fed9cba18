"""Helpers the named queries of every ruleset share (engine.core.report): polars expressions over
the store's generic tables (`players`) and the shapes two games' luck tables have in common.
Pure: lazy frames in, lazy or collected frames out."""

from __future__ import annotations

import polars as pl


LUCK_DECIMALS = 9
"""Luck is a sum of floats that polars adds in parallel, so two equal sums (a game and its copy)
may differ in the last bit from one run to the next: ranks and ties go by luck rounded to this
many decimals (`luck_rank`), then by the names a query gives."""


def luck_rank(column: str = "luck") -> pl.Expr:
    """`column` rounded to LUCK_DECIMALS, to sort by (the column itself is left as it is)."""
    return pl.col(column).round(LUCK_DECIMALS)


def labelled(frame: pl.LazyFrame, t, column: str = "player") -> pl.LazyFrame:
    """`frame` with `column` (a player id) replaced by the player's name when the log gives one."""
    names = t.players.select("game_id", pl.col("player").alias(column), pl.col("name"))
    return (frame.join(names, on=["game_id", column], how="left")
            .with_columns(pl.coalesce("name", column).alias(column)).drop("name"))


def luck_by_game(t, per: pl.LazyFrame, counts: pl.LazyFrame, outcomes: pl.LazyFrame,
                 winner_column: str) -> pl.DataFrame:
    """Per game: `counts` (game_id and how many battles or rolls), the winners by name and their
    luck, the luckiest and unluckiest players (from `per`: game_id, player, luck) and the
    spread between them; `outcomes` has game_id, player and won."""
    winners = (labelled(outcomes.filter(pl.col("won")).select("game_id", "player"), t)
               .join(per.select("game_id", "player", "luck"), on=["game_id", "player"], how="left")
               .group_by("game_id")
               .agg(pl.col("player").sort().str.join(" and ").alias(winner_column),
                    pl.col("luck").fill_null(0.0).sum().alias("winner_luck")))
    extremes = per.group_by("game_id").agg(
        pl.col("player").sort_by(luck_rank(), "player", descending=[True, False]).first()
        .alias("luckiest_player"),
        pl.col("luck").max().alias("luckiest_luck"),
        pl.col("player").sort_by(luck_rank(), "player").first().alias("unluckiest_player"),
        pl.col("luck").min().alias("unluckiest_luck"))
    return (counts.join(winners, on="game_id", how="left").join(extremes, on="game_id", how="left")
            .with_columns((pl.col("luckiest_luck") - pl.col("unluckiest_luck")).alias("spread"))
            .sort("game_id").collect())


def share(count: str, over: list[str] | None = None) -> pl.Expr:
    """`count` as a share of its total (within each group `over`), named `share`."""
    total = pl.col(count).sum().over(over) if over else pl.col(count).sum()
    return (pl.col(count) / total).alias("share")


WILSON_Z = 1.96         # a 95% interval


def wilson(rate: str, n: str) -> list[pl.Expr]:
    """The 95% Wilson score interval of a rate over n trials (`{rate}_low`, `{rate}_high`): wide
    when n is small, so a win rate of 1 in 2 games does not look like a strong edge."""
    p, k, z2 = pl.col(rate), pl.col(n), WILSON_Z ** 2
    denom = 1 + z2 / k
    centre = (p + z2 / (2 * k)) / denom
    half = WILSON_Z * (p * (1 - p) / k + z2 / (4 * k * k)).sqrt() / denom
    return [(centre - half).clip(0.0, 1.0).alias(f"{rate}_low"),
            (centre + half).clip(0.0, 1.0).alias(f"{rate}_high")]


def win_rate(outcomes: pl.LazyFrame, by: list[str]) -> pl.DataFrame:
    """Win rates over the finished player-games of `outcomes` (columns finished, win_share and
    players, the game's player count), grouped by `by`: games, wins, win_rate with its Wilson
    interval, and `even`, the rate of a player with no edge in those games (mean of 1/players)."""
    return (outcomes.filter(pl.col("finished"))
            .group_by(by)
            .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("win_share").sum().alias("wins"),
                 (1 / pl.col("players")).mean().alias("even"))
            .with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
            .with_columns(*wilson("win_rate", "games"))
            .select(*by, "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "even")
            .sort(by, nulls_last=True).collect())
