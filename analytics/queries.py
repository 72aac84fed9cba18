"""Named queries over the analytics tables: each metric is one polars query with every column
named, returning a DataFrame sorted in a fixed order.

    t = load_tables(store)                 # analytics.load
    win_rate_by_seat(t)                    # seat, games, wins, win_rate
    dice_fairness(t, "player in game")     # level, group, ..., p_value, flagged, verdict

Prepare data, then plot: analytics/dashboard.py draws only what these return, and
`ledger stats --json` prints them (QUERIES). Every query is tested against small frames with a
known answer (tests/test_analytics_queries.py). The metrics are explained in docs/analytics.md.

Conventions: a "game" counts only when finished (it has a result) for outcomes and win rates;
wins are shares (a win shared by two counts 1/2 each); a player is named by their name in the
log when it has one, else by their id (`player` columns).
"""

from __future__ import annotations

from typing import Callable

import polars as pl

from analytics.load import Tables
from analytics.stats import ALPHA, FACES, MIN_DICE, dice_p_value, fairness_verdict, is_flagged

FACE_COLUMNS = [f"n{k}" for k in range(1, FACES + 1)]
FAIRNESS_LEVELS = ("player", "game", "player in game", "tournament")
NO_ORDER = "none"            # a card revealed on which no order was played
NO_TOURNAMENT = "(no tournament)"


# --- helpers -----------------------------------------------------------------------------------


def _labelled(frame: pl.LazyFrame, t: Tables, column: str = "player") -> pl.LazyFrame:
    """`frame` with `column` (a player id) replaced by the player's name when the log gives one."""
    names = t.players.select("game_id", pl.col("player").alias(column), pl.col("name"))
    return (frame.join(names, on=["game_id", column], how="left")
            .with_columns(pl.coalesce("name", column).alias(column)).drop("name"))


def _finished(t: Tables) -> pl.LazyFrame:
    return t.outcomes.filter(pl.col("finished"))


def _share(count: str, over: list[str] | None = None) -> pl.Expr:
    total = pl.col(count).sum().over(over) if over else pl.col(count).sum()
    return (pl.col(count) / total).alias("share")


def _win_rate(t: Tables, by: str) -> pl.DataFrame:
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


def _with_game_result(t: Tables) -> pl.LazyFrame:
    """Orders played in finished games, each marked with whether its player won the game."""
    result = _finished(t).select("game_id", "player", "won")
    return (t.orders_played.join(result, on=["game_id", "player"], how="inner")
            .with_columns(pl.when(pl.col("won")).then(pl.lit("winners"))
                          .otherwise(pl.lit("the rest")).alias("group")))


# --- the corpus ---------------------------------------------------------------------------------


def corpus_summary(t: Tables) -> pl.DataFrame:
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


def game_lengths(t: Tables) -> pl.DataFrame:
    """rounds, games, share: how many finished games lasted each number of rounds."""
    games = _finished(t).group_by("game_id").agg(pl.col("rounds").first())
    return (games.group_by("rounds").agg(pl.len().cast(pl.Int64).alias("games"))
            .with_columns(_share("games")).sort("rounds").collect())


def win_rate_by_starting_city(t: Tables) -> pl.DataFrame:
    """starting_city, games, wins, win_rate (finished games; 0.25 is even for 4 players)."""
    return _win_rate(t, "starting_city")


def win_rate_by_seat(t: Tables) -> pl.DataFrame:
    """seat (0 = first in the log's seat order), games, wins, win_rate."""
    return _win_rate(t, "seat")


def win_rate_by_opening_bid(t: Tables) -> pl.DataFrame:
    """opening_bid (coins bid for the First Player Marker), games, wins, win_rate."""
    return _win_rate(t, "opening_bid")


def win_rate_of_first_player(t: Tables) -> pl.DataFrame:
    """first_player (won the opening bid), games, wins, win_rate."""
    return _win_rate(t, "first_player")


# --- King's Orders cards -----------------------------------------------------------------------


def order_frequency(t: Tables) -> pl.DataFrame:
    """order_chosen, plays, share: how often each order is chosen ("none": no order played)."""
    return _usage(t.orders_played, "order_chosen", [])


def card_frequency(t: Tables) -> pl.DataFrame:
    """card, plays, share."""
    return _usage(t.orders_played, "card", [])


def cards_by_round(t: Tables) -> pl.DataFrame:
    """round, card, plays, share (of the round's plays)."""
    return _usage(t.orders_played, "card", ["round"])


def orders_by_round(t: Tables) -> pl.DataFrame:
    """round, order_chosen, plays, share (of the round's plays)."""
    return _usage(t.orders_played, "order_chosen", ["round"])


def cards_by_seat(t: Tables) -> pl.DataFrame:
    """seat, card, plays, share (of the seat's plays)."""
    return _usage(t.orders_played, "card", ["seat"])


def orders_by_seat(t: Tables) -> pl.DataFrame:
    """seat, order_chosen, plays, share (of the seat's plays)."""
    return _usage(t.orders_played, "order_chosen", ["seat"])


def cards_winners_vs_rest(t: Tables) -> pl.DataFrame:
    """group ("winners" or "the rest"), card, plays, share (of the group's plays); finished
    games only."""
    return _usage(_with_game_result(t), "card", ["group"])


def orders_winners_vs_rest(t: Tables) -> pl.DataFrame:
    """group, order_chosen, plays, share (of the group's plays); finished games."""
    return _usage(_with_game_result(t), "order_chosen", ["group"])


def round_openers(t: Tables) -> pl.DataFrame:
    """card, rounds_opened, share: the card revealed first in a round (turn 1, first player)."""
    openers = t.orders_played.filter((pl.col("turn") == 1) & (pl.col("turn_index") == 0))
    return (openers.group_by("card").agg(pl.len().cast(pl.Int64).alias("rounds_opened"))
            .with_columns(_share("rounds_opened")).sort("card").collect())


def bonus_use(t: Tables) -> pl.DataFrame:
    """card_bonus, cards_played, bonus_used, use_rate: how often a card's bonus action is used
    when its card is played (King Me takes effect when revealed, so its rate is 1)."""
    return (t.orders_played.filter(pl.col("card_bonus").is_not_null())
            .group_by("card_bonus")
            .agg(pl.len().cast(pl.Int64).alias("cards_played"),
                 pl.col("bonus_used").sum().cast(pl.Int64).alias("bonus_used"))
            .with_columns((pl.col("bonus_used") / pl.col("cards_played")).alias("use_rate"))
            .sort("card_bonus").collect())


# --- battle luck ----------------------------------------------------------------------------------


def _battle_sides(t: Tables) -> pl.LazyFrame:
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


def luck_by_player_game(t: Tables) -> pl.DataFrame:
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


def luck_by_game(t: Tables) -> pl.DataFrame:
    """game_id, battles, winners, winner_luck, luckiest_player, luckiest_luck, unluckiest_player,
    unluckiest_luck, spread: whether a game was decided by dice (a winner far above the odds)."""
    battles = t.battles.filter(pl.col("attacker_luck").is_not_null()).group_by("game_id") \
        .agg(pl.len().cast(pl.Int64).alias("battles"))
    return _luck_by_game(t, luck_by_player_game(t).lazy(), battles, t.outcomes, "winners")


def _luck_by_game(t: Tables, per: pl.LazyFrame, counts: pl.LazyFrame, outcomes: pl.LazyFrame,
                  winner_column: str) -> pl.DataFrame:
    """Per game: `counts` (game_id and how many battles or rolls), the winners by name and their
    luck, the luckiest and unluckiest players (from `per`: game_id, player, luck) and the
    spread between them. The same for both rulesets."""
    winners = (_labelled(outcomes.filter(pl.col("won")).select("game_id", "player"), t)
               .join(per.select("game_id", "player", "luck"), on=["game_id", "player"], how="left")
               .group_by("game_id")
               .agg(pl.col("player").sort().str.join(" and ").alias(winner_column),
                    pl.col("luck").fill_null(0.0).sum().alias("winner_luck")))
    extremes = per.group_by("game_id").agg(
        pl.col("player").sort_by("luck", "player", descending=[True, False]).first()
        .alias("luckiest_player"),
        pl.col("luck").max().alias("luckiest_luck"),
        pl.col("player").sort_by("luck", "player").first().alias("unluckiest_player"),
        pl.col("luck").min().alias("unluckiest_luck"))
    return (counts.join(winners, on="game_id", how="left").join(extremes, on="game_id", how="left")
            .with_columns((pl.col("luckiest_luck") - pl.col("unluckiest_luck")).alias("spread"))
            .sort("game_id").collect())


def luckiest_games(t: Tables, n: int = 10) -> pl.DataFrame:
    """The `n` players with the most battle luck in one game: game_id, player, luck, battles,
    battles_won, expected_wins, won_game (ties: by game and player)."""
    return (luck_by_player_game(t)
            .sort(["luck", "game_id", "player"], descending=[True, False, False]).head(n)
            .select("game_id", "player", "luck", "battles", "battles_won", "expected_wins",
                    "won_game"))


def unluckiest_games(t: Tables, n: int = 10) -> pl.DataFrame:
    """The `n` players with the least battle luck in one game (same columns as luckiest_games)."""
    return (luck_by_player_game(t)
            .sort(["luck", "game_id", "player"]).head(n)
            .select("game_id", "player", "luck", "battles", "battles_won", "expected_wins",
                    "won_game"))


def luck_by_player(t: Tables) -> pl.DataFrame:
    """player, games, battles, luck, luck_per_battle: battle luck summed over every game."""
    return (luck_by_player_game(t).group_by("player")
            .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
                 pl.col("battles").sum().alias("battles"),
                 pl.col("luck").sum().alias("luck"))
            .with_columns((pl.col("luck") / pl.col("battles")).alias("luck_per_battle"))
            .sort("player"))


def odds_calibration(t: Tables, bins: int = 10) -> pl.DataFrame:
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


# --- Risk Legacy ----------------------------------------------------------------------------------
#
# Over the legacy_* tables (analytics.extract_legacy). The same conventions: finished games only
# in win rates; "games" in a win rate are player-games. Risk Legacy is played by 3 to 5, so each
# win rate comes with `even`: the win rate of a player with no edge in those same games (the mean
# of 1/players), which is what a rate should be compared with.

NO_CAMPAIGN = "(no campaign)"
NO_MODIFIER = "none"


def _legacy_win_rate(t: Tables, by: list[str], outcomes: pl.LazyFrame | None = None
                     ) -> pl.DataFrame:
    outcomes = t.legacy_outcomes if outcomes is None else outcomes
    players = outcomes.group_by("game_id").agg(pl.len().alias("players"))
    return (outcomes.filter(pl.col("finished")).join(players, on="game_id")
            .group_by(by)
            .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("win_share").sum().alias("wins"),
                 (1 / pl.col("players")).mean().alias("even"))
            .with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
            .with_columns(*_wilson("win_rate", "games"))
            .select(*by, "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "even")
            .sort(by, nulls_last=True).collect())


WILSON_Z = 1.96         # a 95% interval


def _wilson(rate: str, n: str) -> list[pl.Expr]:
    """The 95% Wilson score interval of a rate over n trials (`{rate}_low`, `{rate}_high`): wide
    when n is small, so a win rate of 1 in 2 games does not look like a strong faction."""
    p, k, z2 = pl.col(rate), pl.col(n), WILSON_Z ** 2
    denom = 1 + z2 / k
    centre = (p + z2 / (2 * k)) / denom
    half = WILSON_Z * (p * (1 - p) / k + z2 / (4 * k * k)).sqrt() / denom
    return [(centre - half).clip(0.0, 1.0).alias(f"{rate}_low"),
            (centre + half).clip(0.0, 1.0).alias(f"{rate}_high")]


def legacy_summary(t: Tables) -> pl.DataFrame:
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


def legacy_win_rate_by_faction(t: Tables) -> pl.DataFrame:
    """faction, games, wins, win_rate, win_rate_low, win_rate_high (its 95% Wilson interval),
    even (finished Risk Legacy games)."""
    return _legacy_win_rate(t, ["faction"])


def legacy_win_rate_by_power(t: Tables) -> pl.DataFrame:
    """faction, power (the starting power the faction had on its world), games, wins, win_rate,
    win_rate_low, win_rate_high, even."""
    return _legacy_win_rate(t, ["faction", "power"])


def legacy_win_rate_by_seat(t: Tables) -> pl.DataFrame:
    """seat (the log's clockwise seat order, 0 first), games, wins, win_rate, win_rate_low,
    win_rate_high, even."""
    return _legacy_win_rate(t, ["seat"])


def legacy_win_rate_by_turn_order(t: Tables) -> pl.DataFrame:
    """turn_order (0: won the roll-off, chose a faction and played first), games, wins,
    win_rate, win_rate_low, win_rate_high, even."""
    return _legacy_win_rate(t, ["turn_order"])


def legacy_win_rate_by_player(t: Tables) -> pl.DataFrame:
    """player (by name), games, wins, win_rate, win_rate_low, win_rate_high, even: over every
    stored Risk Legacy game."""
    return _legacy_win_rate(t, ["player"], _labelled(t.legacy_outcomes, t))


def legacy_red_stars_by_faction(t: Tables) -> pl.DataFrame:
    """faction, games, red_stars, red_star_tokens, hqs (means at the end of finished games),
    red_stars_bought, missions_completed (means per game)."""
    return (t.legacy_outcomes.filter(pl.col("finished")).group_by("faction")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *(pl.col(c).mean().alias(c) for c in ("red_stars", "red_star_tokens", "hqs",
                                                       "red_stars_bought",
                                                       "missions_completed")))
            .sort("faction", nulls_last=True).collect())


def legacy_red_stars_by_outcome(t: Tables) -> pl.DataFrame:
    """outcome (won, held_on, eliminated), games, red_stars, red_star_tokens, hqs (means at the
    end of finished games): how close the losers came."""
    return (t.legacy_outcomes.filter(pl.col("finished")).group_by("outcome")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *(pl.col(c).mean().alias(c) for c in ("red_stars", "red_star_tokens", "hqs")))
            .sort("outcome", nulls_last=True).collect())


def legacy_knock_outs(t: Tables) -> pl.DataFrame:
    """knocked_out_by, player, games: who knocked whom out (lost every troop; the first time in
    a game), by name; knocked_out_by null: an Event card's effect."""
    out = t.legacy_outcomes.filter(pl.col("knocked_out")).select("game_id", "player",
                                                                  "knocked_out_by")
    out = _labelled(_labelled(out, t), t, "knocked_out_by")
    return (out.group_by("knocked_out_by", "player").agg(pl.len().cast(pl.Int64).alias("games"))
            .sort(["knocked_out_by", "player"], nulls_last=True).collect())


def _legacy_sides(t: Tables) -> pl.LazyFrame:
    """Each attack roll with odds twice, once from each side: game_id, seq, player, side, luck
    (troops the opponent lost beyond expectation, i.e. expected own losses minus own losses)."""
    fought = t.legacy_battles.filter(pl.col("attacker_luck").is_not_null())
    return pl.concat([
        fought.select("game_id", "seq", pl.col("attacker").alias("player"),
                      pl.lit("attacker").alias("side"), pl.col("attacker_luck").alias("luck")),
        fought.select("game_id", "seq", pl.col("defender").alias("player"),
                      pl.lit("defender").alias("side"), pl.col("defender_luck").alias("luck")),
    ])


def legacy_luck_by_player_game(t: Tables) -> pl.DataFrame:
    """game_id, player, rolls, luck, won_game: a player's dice in the attack rolls of one game
    (attacking and defending, unmodified rolls only) against the exact odds. luck: troops lost
    below expectation, in troops (+2: the dice saved them two troops)."""
    per = (_legacy_sides(t).group_by("game_id", "player")
           .agg(pl.len().cast(pl.Int64).alias("rolls"), pl.col("luck").sum().alias("luck")))
    result = t.legacy_outcomes.select("game_id", "player", pl.col("won").alias("won_game"))
    per = per.join(result, on=["game_id", "player"], how="left")
    return _labelled(per, t).sort("game_id", "player").collect()


def legacy_luck_by_player(t: Tables) -> pl.DataFrame:
    """player, games, rolls, luck, luck_per_roll: dice luck in attack rolls over every game."""
    return (legacy_luck_by_player_game(t).group_by("player")
            .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
                 pl.col("rolls").sum().alias("rolls"), pl.col("luck").sum().alias("luck"))
            .with_columns((pl.col("luck") / pl.col("rolls")).alias("luck_per_roll"))
            .sort("player"))


def legacy_luck_by_game(t: Tables) -> pl.DataFrame:
    """game_id, rolls, winner, winner_luck, luckiest_player, luckiest_luck, unluckiest_player,
    unluckiest_luck, spread (luck in troops, unmodified rolls): was the game won on the dice?"""
    rolls = (t.legacy_battles.filter(pl.col("attacker_luck").is_not_null()).group_by("game_id")
             .agg(pl.len().cast(pl.Int64).alias("rolls")))
    return _luck_by_game(t, legacy_luck_by_player_game(t).lazy(), rolls, t.legacy_outcomes, "winner")


def legacy_roll_odds(t: Tables) -> pl.DataFrame:
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
    from engine.core.dice_odds import CLASSIC_MAX_DICE, roll_odds
    most_a, most_d = CLASSIC_MAX_DICE
    rows = [(a, d, float(roll_odds(a, d).expected_attacker_losses),
             float(roll_odds(a, d).expected_defender_losses))
            for a in range(1, most_a + 1) for d in range(1, most_d + 1)]
    return pl.LazyFrame(rows, orient="row", schema={
        "attacker_dice": pl.Int32, "defender_dice": pl.Int32,
        "unmodified_attacker_lost": pl.Float64, "unmodified_defender_lost": pl.Float64})


def legacy_modifiers(t: Tables) -> pl.DataFrame:
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


def legacy_world_evolution(t: Tables) -> pl.DataFrame:
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


# --- every query, for `ledger stats` --------------------------------------------------------------

QUERIES: dict[str, Callable[[Tables], pl.DataFrame]] = {
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
    "dice_faces": dice_faces,
    "dice_by_why": dice_by_why,
    **{f"dice_fairness_by_{level.replace(' ', '_')}":
       (lambda t, level=level: dice_fairness(t, level)) for level in FAIRNESS_LEVELS},
    "flagged_dice": flagged_dice,
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
