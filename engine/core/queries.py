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
