"""Risk Legacy's named queries over its analytics tables (engine/risk_legacy/fold.py:
legacy_outcomes, legacy_battles, legacy_games; and the shared dice table), found by `ledger stats`
through the record (`RULESET.report().queries`). The same conventions as every game's queries:
finished games only in win rates; "games" in a win rate are player-games. Risk Legacy is played
by 3 to 5, so each win rate comes with `even`: the win rate of a player with no edge in those same
games (the mean of 1/players), which is what a rate should be compared with.

    legacy_win_rate_by_faction(t)          # faction, games, wins, win_rate, ..., even
"""

from __future__ import annotations

import polars as pl

from engine.core.dice_odds import CLASSIC_MAX_DICE, roll_odds
from engine.core.queries import labelled as _labelled, luck_by_game as _luck_by_game, \
    win_rate as _win_rate

NO_CAMPAIGN = "(no campaign)"
NO_MODIFIER = "none"


def _legacy_win_rate(t, by: list[str], outcomes: pl.LazyFrame | None = None
                     ) -> pl.DataFrame:
    outcomes = t.legacy_outcomes if outcomes is None else outcomes
    players = outcomes.group_by("game_id").agg(pl.len().alias("players"))
    return _win_rate(outcomes.join(players, on="game_id"), by)


def legacy_summary(t) -> pl.DataFrame:
    """One row: Risk Legacy games (finished or not), campaigns, attack rolls, rolls with exact
    odds (unmodified dice), rolls changed by a modifier or a Missile, Missiles fired,
    territories conquered."""
    return pl.concat([
        t.legacy_games.select(pl.len().cast(pl.Int64).alias("games"),
                              pl.col("finished").sum().cast(pl.Int64).alias("finished_games"),
                              pl.col("campaign").drop_nulls().n_unique().cast(pl.Int64)
                              .alias("campaigns")),
        t.legacy_battles.select(
            pl.len().cast(pl.Int64).alias("attack_rolls"),
            pl.col("attacker_luck").is_not_null().sum().cast(pl.Int64).alias("rolls_with_odds"),
            pl.col("modified").sum().cast(pl.Int64).alias("modified_rolls"),
            pl.col("missiles").sum().cast(pl.Int64).alias("missiles_fired"),
            pl.col("conquered").sum().cast(pl.Int64).alias("conquests")),
    ], how="horizontal").with_columns(pl.col("missiles_fired").fill_null(0)).collect()


def legacy_win_rate_by_faction(t) -> pl.DataFrame:
    """faction, games, wins, win_rate, win_rate_low, win_rate_high (its 95% Wilson interval),
    even (finished Risk Legacy games)."""
    return _legacy_win_rate(t, ["faction"])


def legacy_win_rate_by_power(t) -> pl.DataFrame:
    """faction, power (the starting power the faction had on its world), games, wins, win_rate,
    win_rate_low, win_rate_high, even."""
    return _legacy_win_rate(t, ["faction", "power"])


def legacy_win_rate_by_seat(t) -> pl.DataFrame:
    """seat (the log's clockwise seat order, 0 first), games, wins, win_rate, win_rate_low,
    win_rate_high, even."""
    return _legacy_win_rate(t, ["seat"])


def legacy_win_rate_by_turn_order(t) -> pl.DataFrame:
    """turn_order (0: won the roll-off, chose a faction and played first), games, wins,
    win_rate, win_rate_low, win_rate_high, even."""
    return _legacy_win_rate(t, ["turn_order"])


def legacy_win_rate_by_player(t) -> pl.DataFrame:
    """player (by name), games, wins, win_rate, win_rate_low, win_rate_high, even: over every
    stored Risk Legacy game."""
    return _legacy_win_rate(t, ["player"], _labelled(t.legacy_outcomes, t))


def legacy_red_stars_by_faction(t) -> pl.DataFrame:
    """faction, games, red_stars, red_star_tokens, hqs (means at the end of finished games),
    red_stars_bought, missions_completed (means per game)."""
    return (t.legacy_outcomes.filter(pl.col("finished")).group_by("faction")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *(pl.col(c).mean().alias(c) for c in ("red_stars", "red_star_tokens", "hqs",
                                                       "red_stars_bought",
                                                       "missions_completed")))
            .sort("faction", nulls_last=True).collect())


def legacy_red_stars_by_outcome(t) -> pl.DataFrame:
    """outcome (won, held_on, eliminated), games, red_stars, red_star_tokens, hqs (means at the
    end of finished games): how close the losers came."""
    return (t.legacy_outcomes.filter(pl.col("finished")).group_by("outcome")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *(pl.col(c).mean().alias(c) for c in ("red_stars", "red_star_tokens", "hqs")))
            .sort("outcome", nulls_last=True).collect())


def legacy_knock_outs(t) -> pl.DataFrame:
    """knocked_out_by, player, games: who knocked whom out (lost every troop; the first time in
    a game), by name; knocked_out_by null: an Event card's effect."""
    out = t.legacy_outcomes.filter(pl.col("knocked_out")).select("game_id", "player",
                                                                  "knocked_out_by")
    out = _labelled(_labelled(out, t), t, "knocked_out_by")
    return (out.group_by("knocked_out_by", "player").agg(pl.len().cast(pl.Int64).alias("games"))
            .sort(["knocked_out_by", "player"], nulls_last=True).collect())


def _legacy_sides(t) -> pl.LazyFrame:
    """Each attack roll with odds twice, once from each side: game_id, seq, player, side, luck
    (troops the opponent lost beyond expectation, i.e. expected own losses minus own losses)."""
    fought = t.legacy_battles.filter(pl.col("attacker_luck").is_not_null())
    return pl.concat([
        fought.select("game_id", "seq", pl.col("attacker").alias("player"),
                      pl.lit("attacker").alias("side"), pl.col("attacker_luck").alias("luck")),
        fought.select("game_id", "seq", pl.col("defender").alias("player"),
                      pl.lit("defender").alias("side"), pl.col("defender_luck").alias("luck")),
    ])


def legacy_luck_by_player_game(t) -> pl.DataFrame:
    """game_id, player, rolls, luck, won_game: a player's dice in the attack rolls of one game
    (attacking and defending, unmodified rolls only) against the exact odds. luck: troops lost
    below expectation, in troops (+2: the dice saved them two troops)."""
    per = (_legacy_sides(t).group_by("game_id", "player")
           .agg(pl.len().cast(pl.Int64).alias("rolls"), pl.col("luck").sum().alias("luck")))
    result = t.legacy_outcomes.select("game_id", "player", pl.col("won").alias("won_game"))
    per = per.join(result, on=["game_id", "player"], how="left")
    return _labelled(per, t).sort("game_id", "player").collect()


def legacy_luck_by_player(t) -> pl.DataFrame:
    """player, games, rolls, luck, luck_per_roll: dice luck in attack rolls over every game."""
    return (legacy_luck_by_player_game(t).group_by("player")
            .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
                 pl.col("rolls").sum().alias("rolls"), pl.col("luck").sum().alias("luck"))
            .with_columns((pl.col("luck") / pl.col("rolls")).alias("luck_per_roll"))
            .sort("player"))


def legacy_luck_by_game(t) -> pl.DataFrame:
    """game_id, rolls, winner, winner_luck, luckiest_player, luckiest_luck, unluckiest_player,
    unluckiest_luck, spread (luck in troops, unmodified rolls): was the game won on the dice?"""
    rolls = (t.legacy_battles.filter(pl.col("attacker_luck").is_not_null()).group_by("game_id")
             .agg(pl.len().cast(pl.Int64).alias("rolls")))
    return _luck_by_game(t, legacy_luck_by_player_game(t).lazy(), rolls, t.legacy_outcomes, "winner")


def legacy_roll_odds(t) -> pl.DataFrame:
    """attacker_dice, defender_dice, rolls, expected_attacker_lost, attacker_lost,
    expected_defender_lost, defender_lost (per roll, unmodified rolls): the dice against the
    exact odds of each matchup (3 against 2: the defender loses 1.08 troops a roll on average)."""
    fought = t.legacy_battles.filter(pl.col("attacker_luck").is_not_null())
    return (fought.group_by("attacker_dice", "defender_dice")
            .agg(pl.len().cast(pl.Int64).alias("rolls"),
                 pl.col("expected_attacker_lost").mean(),
                 # the dice's own losses (luck is measured on them: a power's extra removal is not)
                 (pl.col("expected_attacker_lost") - pl.col("attacker_luck")).mean()
                 .alias("attacker_lost"),
                 pl.col("expected_defender_lost").mean(),
                 (pl.col("expected_defender_lost") - pl.col("defender_luck")).mean()
                 .alias("defender_lost"))
            .sort("attacker_dice", "defender_dice").collect())


def _unmodified_expectation() -> pl.LazyFrame:
    most_a, most_d = CLASSIC_MAX_DICE
    rows = [(a, d, float(roll_odds(a, d).expected_attacker_losses),
             float(roll_odds(a, d).expected_defender_losses))
            for a in range(1, most_a + 1) for d in range(1, most_d + 1)]
    return pl.LazyFrame(rows, orient="row", schema={
        "attacker_dice": pl.Int32, "defender_dice": pl.Int32,
        "unmodified_attacker_lost": pl.Float64, "unmodified_defender_lost": pl.Float64})


def legacy_modifiers(t) -> pl.DataFrame:
    """modifiers ("none", the defender's modifiers, "+ missile"), rolls, attacker_lost,
    defender_lost (means per roll), unmodified_attacker_lost, unmodified_defender_lost (what the
    same dice counts lose on average with no modifier): what scars, fortifications, powers and
    Missiles did to the rolls."""
    labelled = t.legacy_battles.with_columns(
        pl.concat_str(pl.col("modifiers").fill_null(NO_MODIFIER),
                      pl.when(pl.col("missiles") > 0).then(pl.lit(" + missile"))
                      .otherwise(pl.lit(""))).alias("modifiers"))
    return (labelled.join(_unmodified_expectation(), on=["attacker_dice", "defender_dice"],
                          how="left")
            .group_by("modifiers")
            .agg(pl.len().cast(pl.Int64).alias("rolls"),
                 *(pl.col(c).mean() for c in ("attacker_lost", "defender_lost",
                                              "unmodified_attacker_lost",
                                              "unmodified_defender_lost")))
            .sort("modifiers").collect())


WORLD_COUNTS = ("cities", "minor_cities", "major_cities", "scars", "fortifications",
                "named_continents", "continent_marks", "destroyed_cards", "signatures",
                "packs_opened")


def legacy_world_evolution(t) -> pl.DataFrame:
    """campaign, game_no, game_id, winner (by name), winner_faction, reward, reward_detail, the
    world after the game (cities, minor_cities, major_cities, scars, fortifications,
    named_continents, continent_marks, destroyed_cards, signatures, packs_opened),
    continues_previous, games_stored: each campaign game by game.

    One game per campaign and number: when several stored games claim the same one (a corrected
    log stored beside the first), the one the store's campaign link counts (not a duplicate:
    ledger.store), then the one with the fewest findings, then the first id; `games_stored`
    says how many claim it. `continues_previous`: the game starts from the world the previous
    game shown left (null for the first game shown). Games that name no campaign are left out
    (each starts from a world of its own)."""
    findings = t.games.select("game_id", pl.col("findings").fill_null(0),
                              (pl.col("campaign_status") == "duplicate").fill_null(False)
                              .alias("duplicate"))
    games = (t.legacy_games.filter(pl.col("campaign").is_not_null())
             .join(findings, on="game_id", how="left")
             .with_columns(pl.len().over("campaign", "game_no").cast(pl.Int64)
                           .alias("games_stored"))
             .sort("campaign", "game_no", "duplicate", "findings", "game_id", nulls_last=True)
             .group_by("campaign", "game_no", maintain_order=True).first())
    games = _labelled(games, t, "winner")
    return (games.sort("campaign", "game_no")
            .with_columns((pl.col("world_before")
                           == pl.col("world_after").shift(1).over("campaign")
                           ).alias("continues_previous"))
            .select("campaign", "game_no", "game_id", "winner", "winner_faction", "reward",
                    "reward_detail", *WORLD_COUNTS, "continues_previous", "games_stored")
            .collect())


# --- every query, for `ledger stats` (in this order) ------------------------------------------------

QUERIES = {
    "legacy_summary": legacy_summary,
    "legacy_win_rate_by_faction": legacy_win_rate_by_faction,
    "legacy_win_rate_by_power": legacy_win_rate_by_power,
    "legacy_win_rate_by_seat": legacy_win_rate_by_seat,
    "legacy_win_rate_by_turn_order": legacy_win_rate_by_turn_order,
    "legacy_win_rate_by_player": legacy_win_rate_by_player,
    "legacy_red_stars_by_faction": legacy_red_stars_by_faction,
    "legacy_red_stars_by_outcome": legacy_red_stars_by_outcome,
    "legacy_knock_outs": legacy_knock_outs,
    "legacy_luck_by_game": legacy_luck_by_game,
    "legacy_luck_by_player": legacy_luck_by_player,
    "legacy_roll_odds": legacy_roll_odds,
    "legacy_modifiers": legacy_modifiers,
    "legacy_world_evolution": legacy_world_evolution,
}
