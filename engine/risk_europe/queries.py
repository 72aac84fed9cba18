"""Risk Europe's named queries over its analytics tables (engine/risk_europe/fold.py: outcomes,
orders_played, battles, player_rounds; and the shared dice table): each metric one polars query
with every column named, returning a DataFrame sorted in a fixed order. `ledger stats` finds them
through the record (`RULESET.report().queries`); docs/analytics.md explains them, and
tests/test_analytics_queries.py checks each against small frames with a known answer.

    t = load_tables(store)                 # analytics.load
    win_rate_by_seat(t)                    # seat, games, wins, win_rate

Conventions: a "game" counts only when finished (it has a result) for outcomes and win rates;
wins are shares (a win shared by two counts 1/2 each); a player is named by their name in the
log when it has one, else by their id (`player` columns).
"""

from __future__ import annotations

import polars as pl

from engine.core.queries import (labelled as _labelled, luck_by_game as _luck_by_game, luck_rank,
                                 share as _share)

NO_ORDER = "none"            # a card revealed on which no order was played


# --- helpers -----------------------------------------------------------------------------------


def _finished(t) -> pl.LazyFrame:
    return t.outcomes.filter(pl.col("finished"))


def _win_rate(t, by: str) -> pl.DataFrame:
    return (_finished(t).group_by(by)
            .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("win_share").sum().alias("wins"))
            .with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
            .sort(by, nulls_last=True).collect())


def _usage(frame: pl.LazyFrame, item: str, by: list[str]) -> pl.DataFrame:
    """Plays of each `item` per group `by`, and its share of the group's plays."""
    frame = frame.with_columns(pl.col(item).fill_null(NO_ORDER))
    return (frame.group_by([*by, item]).agg(pl.len().cast(pl.Int64).alias("plays"))
            .with_columns(_share("plays", by or None))
            .sort([*by, item]).collect())


def _with_game_result(t) -> pl.LazyFrame:
    """Orders played in finished games, each marked with whether its player won the game."""
    result = _finished(t).select("game_id", "player", "won")
    return (t.orders_played.join(result, on=["game_id", "player"], how="inner")
            .with_columns(pl.when(pl.col("won")).then(pl.lit("winners"))
                          .otherwise(pl.lit("the rest")).alias("group")))


# --- the corpus ---------------------------------------------------------------------------------


def corpus_summary(t) -> pl.DataFrame:
    """One row: games (finished or not), battles, dice, cards played, tournaments."""
    games = t.outcomes.group_by("game_id").agg(pl.col("finished").first())
    return pl.concat([
        games.select(pl.len().cast(pl.Int64).alias("games"),
                     pl.col("finished").sum().cast(pl.Int64).alias("finished_games")),
        t.battles.select(pl.len().cast(pl.Int64).alias("battles"),
                         pl.col("attacker_luck").is_not_null().sum().cast(pl.Int64)
                         .alias("battles_with_odds")),
        t.dice.select(pl.col("dice").sum().cast(pl.Int64).alias("dice")),
        t.orders_played.select(pl.len().cast(pl.Int64).alias("cards_played"),
                               pl.col("berlin_maneuver").sum().cast(pl.Int64)
                               .alias("berlin_maneuvers")),
        t.games.select(pl.col("tournament").drop_nulls().n_unique().cast(pl.Int64)
                       .alias("tournaments")),
    ], how="horizontal").with_columns(pl.col("dice").fill_null(0)).collect()


# --- outcomes -----------------------------------------------------------------------------------


def game_lengths(t) -> pl.DataFrame:
    """rounds, games, share: how many finished games lasted each number of rounds."""
    games = _finished(t).group_by("game_id").agg(pl.col("rounds").first())
    return (games.group_by("rounds").agg(pl.len().cast(pl.Int64).alias("games"))
            .with_columns(_share("games")).sort("rounds").collect())


def win_rate_by_starting_city(t) -> pl.DataFrame:
    """starting_city, games, wins, win_rate (finished games; 0.25 is even for 4 players)."""
    return _win_rate(t, "starting_city")


def win_rate_by_seat(t) -> pl.DataFrame:
    """seat (0 = first in the log's seat order), games, wins, win_rate."""
    return _win_rate(t, "seat")


def win_rate_by_opening_bid(t) -> pl.DataFrame:
    """opening_bid (coins bid for the First Player Marker), games, wins, win_rate."""
    return _win_rate(t, "opening_bid")


def win_rate_of_first_player(t) -> pl.DataFrame:
    """first_player (won the opening bid), games, wins, win_rate."""
    return _win_rate(t, "first_player")


# --- King's Orders cards -----------------------------------------------------------------------


def order_frequency(t) -> pl.DataFrame:
    """order_chosen, plays, share: how often each order is chosen ("none": no order played)."""
    return _usage(t.orders_played, "order_chosen", [])


def card_frequency(t) -> pl.DataFrame:
    """card, plays, share."""
    return _usage(t.orders_played, "card", [])


def cards_by_round(t) -> pl.DataFrame:
    """round, card, plays, share (of the round's plays)."""
    return _usage(t.orders_played, "card", ["round"])


def orders_by_round(t) -> pl.DataFrame:
    """round, order_chosen, plays, share (of the round's plays)."""
    return _usage(t.orders_played, "order_chosen", ["round"])


def cards_by_seat(t) -> pl.DataFrame:
    """seat, card, plays, share (of the seat's plays)."""
    return _usage(t.orders_played, "card", ["seat"])


def orders_by_seat(t) -> pl.DataFrame:
    """seat, order_chosen, plays, share (of the seat's plays)."""
    return _usage(t.orders_played, "order_chosen", ["seat"])


def cards_winners_vs_rest(t) -> pl.DataFrame:
    """group ("winners" or "the rest"), card, plays, share (of the group's plays); finished
    games only."""
    return _usage(_with_game_result(t), "card", ["group"])


def orders_winners_vs_rest(t) -> pl.DataFrame:
    """group, order_chosen, plays, share (of the group's plays); finished games."""
    return _usage(_with_game_result(t), "order_chosen", ["group"])


def round_openers(t) -> pl.DataFrame:
    """card, rounds_opened, share: the card revealed first in a round (turn 1, first player)."""
    openers = t.orders_played.filter((pl.col("turn") == 1) & (pl.col("turn_index") == 0))
    return (openers.group_by("card").agg(pl.len().cast(pl.Int64).alias("rounds_opened"))
            .with_columns(_share("rounds_opened")).sort("card").collect())


def bonus_use(t) -> pl.DataFrame:
    """card_bonus, cards_played, bonus_used, use_rate: how often a card's bonus action is used
    when its card is played (King Me takes effect when revealed, so its rate is 1)."""
    return (t.orders_played.filter(pl.col("card_bonus").is_not_null())
            .group_by("card_bonus")
            .agg(pl.len().cast(pl.Int64).alias("cards_played"),
                 pl.col("bonus_used").sum().cast(pl.Int64).alias("bonus_used"))
            .with_columns((pl.col("bonus_used") / pl.col("cards_played")).alias("use_rate"))
            .sort("card_bonus").collect())


# --- battle luck ----------------------------------------------------------------------------------


def _battle_sides(t) -> pl.LazyFrame:
    """Each battle with odds twice, once from each side: game_id, seq, player, side, p_win,
    won_battle, luck (won minus P(win)), units_luck (expected own losses minus own losses)."""
    fought = t.battles.filter(pl.col("attacker_luck").is_not_null())
    common = [pl.col("game_id"), pl.col("seq")]
    attack = fought.select(*common, pl.col("attacker").alias("player"),
                           pl.lit("attacker").alias("side"),
                           pl.col("p_attacker_takes").alias("p_win"),
                           (pl.col("outcome") == "attacker takes").alias("won_battle"),
                           pl.col("attacker_luck").alias("luck"),
                           pl.col("attacker_units_luck").alias("units_luck"))
    defend = fought.select(*common, pl.col("defender").alias("player"),
                           pl.lit("defender").alias("side"),
                           pl.col("p_defender_holds").alias("p_win"),
                           (pl.col("outcome") == "defender holds").alias("won_battle"),
                           pl.col("defender_luck").alias("luck"),
                           pl.col("defender_units_luck").alias("units_luck"))
    return pl.concat([attack, defend])


def luck_by_player_game(t) -> pl.DataFrame:
    """game_id, player, battles, battles_won, expected_wins, luck, units_luck, won_game: each
    player's battles in a game against the exact odds. luck = battles won minus expected wins
    (each battle won or held counts 1); units_luck = units lost below expectation."""
    sides = _battle_sides(t)
    per = (sides.group_by("game_id", "player")
           .agg(pl.len().cast(pl.Int64).alias("battles"),
                pl.col("won_battle").sum().cast(pl.Int64).alias("battles_won"),
                pl.col("p_win").sum().alias("expected_wins"),
                pl.col("luck").sum().alias("luck"),
                pl.col("units_luck").sum().alias("units_luck")))
    result = t.outcomes.select("game_id", "player", pl.col("won").alias("won_game"))
    per = per.join(result, on=["game_id", "player"], how="left")
    return _labelled(per, t).sort("game_id", "player").collect()


def luck_by_game(t) -> pl.DataFrame:
    """game_id, battles, winners, winner_luck, luckiest_player, luckiest_luck, unluckiest_player,
    unluckiest_luck, spread: whether a game was decided by dice (a winner far above the odds)."""
    battles = t.battles.filter(pl.col("attacker_luck").is_not_null()).group_by("game_id") \
        .agg(pl.len().cast(pl.Int64).alias("battles"))
    return _luck_by_game(t, luck_by_player_game(t).lazy(), battles, t.outcomes, "winners")


def luckiest_games(t, n: int = 10) -> pl.DataFrame:
    """The `n` players with the most battle luck in one game: game_id, player, luck, battles,
    battles_won, expected_wins, won_game (ties: by game and player)."""
    return (luck_by_player_game(t)
            .sort([luck_rank(), "game_id", "player"], descending=[True, False, False]).head(n)
            .select("game_id", "player", "luck", "battles", "battles_won", "expected_wins",
                    "won_game"))


def unluckiest_games(t, n: int = 10) -> pl.DataFrame:
    """The `n` players with the least battle luck in one game (same columns as luckiest_games)."""
    return (luck_by_player_game(t)
            .sort([luck_rank(), "game_id", "player"]).head(n)
            .select("game_id", "player", "luck", "battles", "battles_won", "expected_wins",
                    "won_game"))


def luck_by_player(t) -> pl.DataFrame:
    """player, games, battles, luck, luck_per_battle: battle luck summed over every game."""
    return (luck_by_player_game(t).group_by("player")
            .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
                 pl.col("battles").sum().alias("battles"),
                 pl.col("luck").sum().alias("luck"))
            .with_columns((pl.col("luck") / pl.col("battles")).alias("luck_per_battle"))
            .sort("player"))


def odds_calibration(t, bins: int = 10) -> pl.DataFrame:
    """bin_low, bin_high, battles, expected_rate, observed_rate: battles grouped by the exact
    P(attacker takes); if the odds are right, the attackers' win rate in each group is close to
    the mean of its probabilities."""
    fought = t.battles.filter(pl.col("attacker_luck").is_not_null())
    binned = fought.with_columns(
        (pl.col("p_attacker_takes") * bins).floor().clip(0, bins - 1).cast(pl.Int32).alias("bin"))
    return (binned.group_by("bin")
            .agg(pl.len().cast(pl.Int64).alias("battles"),
                 pl.col("p_attacker_takes").mean().alias("expected_rate"),
                 (pl.col("outcome") == "attacker takes").mean().alias("observed_rate"))
            .with_columns((pl.col("bin") / bins).alias("bin_low"),
                          ((pl.col("bin") + 1) / bins).alias("bin_high"))
            .sort("bin").select("bin_low", "bin_high", "battles", "expected_rate",
                                "observed_rate").collect())


# --- every query, for `ledger stats` (in this order) ------------------------------------------------

QUERIES = {
    "corpus_summary": corpus_summary,
    "game_lengths": game_lengths,
    "win_rate_by_starting_city": win_rate_by_starting_city,
    "win_rate_by_seat": win_rate_by_seat,
    "win_rate_by_opening_bid": win_rate_by_opening_bid,
    "win_rate_of_first_player": win_rate_of_first_player,
    "order_frequency": order_frequency,
    "card_frequency": card_frequency,
    "cards_by_round": cards_by_round,
    "orders_by_round": orders_by_round,
    "cards_by_seat": cards_by_seat,
    "orders_by_seat": orders_by_seat,
    "cards_winners_vs_rest": cards_winners_vs_rest,
    "orders_winners_vs_rest": orders_winners_vs_rest,
    "round_openers": round_openers,
    "bonus_use": bonus_use,
    "luck_by_game": luck_by_game,
    "luck_by_player": luck_by_player,
    "luckiest_games": luckiest_games,
    "unluckiest_games": unluckiest_games,
    "odds_calibration": odds_calibration,
}
