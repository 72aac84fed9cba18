"""Warrior Knights' named queries over its analytics tables (engine/warrior_knights/fold.py:
wk_outcomes, wk_battles, wk_agendas, wk_votes, wk_expeditions, wk_games), found by `ledger stats`
through the record (`RULESET.report().queries`). The conventions of every game's queries: win
rates over finished games only, "games" in a win rate are Baron-games, each rate with its 95%
Wilson interval and `even`, the rate of a Baron with no edge in those games (the mean of
1/players: Warrior Knights is played by 2 to 6).

    wk_win_rate_by_seat(t)               # seat, games, wins, win_rate, ..., even
"""

from __future__ import annotations

import polars as pl

from engine.core.queries import labelled, win_rate as _win_rate

CITY_BANDS = ((0, "none"), (1, "1"), (2, "2"), (3, "3-4"), (5, "5+"))


def _band(column: str, bands, name: str) -> pl.Expr:
    """A label for `column` by the first band whose lower bound it reaches (from the top)."""
    expr = pl.lit(None, dtype=pl.Utf8)
    for low, label in bands:
        if low is None:
            continue
        expr = pl.when(pl.col(column) >= low).then(pl.lit(label)).otherwise(expr)
    return expr.alias(name)


def wk_summary(t) -> pl.DataFrame:
    """One row: Warrior Knights games (finished), Baron-games, rounds, battles, cities taken,
    Agendas voted, ties the Chairman broke, expeditions funded, games judged on example data."""
    return pl.concat([
        t.wk_games.select(pl.len().cast(pl.Int64).alias("games"),
                          pl.col("finished").sum().cast(pl.Int64).alias("finished_games"),
                          pl.col("players").sum().cast(pl.Int64).alias("baron_games"),
                          pl.col("rounds").sum().cast(pl.Int64).alias("rounds"),
                          pl.col("example_data").sum().cast(pl.Int64).alias("example_data_games")),
        t.wk_battles.select(pl.len().cast(pl.Int64).alias("battles"),
                            pl.col("city_taken").sum().cast(pl.Int64).alias("cities_taken")),
        t.wk_agendas.select(pl.len().cast(pl.Int64).alias("agendas"),
                            pl.col("tie").sum().cast(pl.Int64).alias("ties_broken")),
        t.wk_expeditions.select(pl.col("seq").n_unique().cast(pl.Int64).alias("expeditions")),
    ], how="horizontal").with_columns(pl.all().fill_null(0)).collect()


def wk_win_rate_by_seat(t) -> pl.DataFrame:
    """seat (1: first in the log's clockwise order), games, wins, win_rate, win_rate_low,
    win_rate_high, even."""
    return _win_rate(t.wk_outcomes, ["seat"])


def wk_win_rate_by_players(t) -> pl.DataFrame:
    """players (Barons at the table), seat, games, wins, win_rate, ..., even."""
    return _win_rate(t.wk_outcomes, ["players", "seat"])


def wk_win_rate_by_colour(t) -> pl.DataFrame:
    """colour (the Baron's), games, wins, win_rate, ..., even."""
    return _win_rate(t.wk_outcomes, ["colour"])


def wk_win_rate_by_cities(t) -> pl.DataFrame:
    """cities (held at the end of the game, in bands: none, 1, 2, 3-4, 5+), games, wins, win_rate,
    ..., even: does holding cities win?"""
    banded = t.wk_outcomes.with_columns(_band("cities_end", CITY_BANDS, "cities"))
    out = _win_rate(banded, ["cities"])
    order = {label: i for i, (_, label) in enumerate(CITY_BANDS)}
    return out.sort(pl.col("cities").replace_strict(order, default=99))


def wk_win_rate_by_assembly(t) -> pl.DataFrame:
    """assembly (the share of the Agendas a Baron voted on that went his way, in bands; "no
    votes" for a Baron who cast none), games, wins, win_rate, ..., even."""
    share = (pl.col("agendas_carried") / pl.col("agendas_voted"))
    banded = t.wk_outcomes.with_columns(
        pl.when(pl.col("agendas_voted") == 0).then(pl.lit("no votes"))
        .when(share >= 2 / 3).then(pl.lit("2/3 or more"))
        .when(share >= 1 / 3).then(pl.lit("1/3 to 2/3"))
        .otherwise(pl.lit("under 1/3")).alias("assembly"))
    out = _win_rate(banded, ["assembly"])
    order = {"no votes": 0, "under 1/3": 1, "1/3 to 2/3": 2, "2/3 or more": 3}
    return out.sort(pl.col("assembly").replace_strict(order, default=99))


def wk_win_rate_by_expeditions(t) -> pl.DataFrame:
    """expeditions (what a Baron's stakes brought back, net of the crowns staked: no expedition,
    lost crowns, broke even, gained), games, wins, win_rate, ..., even."""
    net = pl.col("expedition_crowns") - pl.col("expedition_stake")
    banded = t.wk_outcomes.with_columns(
        pl.when(pl.col("expeditions") == 0).then(pl.lit("no expedition"))
        .when(net < 0).then(pl.lit("lost crowns"))
        .when(net == 0).then(pl.lit("broke even"))
        .otherwise(pl.lit("gained")).alias("expeditions"))
    out = _win_rate(banded, ["expeditions"])
    order = {"no expedition": 0, "lost crowns": 1, "broke even": 2, "gained": 3}
    return out.sort(pl.col("expeditions").replace_strict(order, default=99))


def wk_winner_profile(t) -> pl.DataFrame:
    """won (true/false), games, and the means of what a Baron did: influence, cities_end,
    cities_most, cities_taken, battles, battles_won, nobles_lost, votes_cast, agendas_carried,
    charges, offices, expedition_stake, expedition_net (crowns back less staked)."""
    cols = ["influence", "cities_end", "cities_most", "cities_taken", "battles", "battles_won",
            "nobles_lost", "votes_cast", "agendas_carried", "charges", "offices",
            "expedition_stake"]
    return (t.wk_outcomes.filter(pl.col("finished"))
            .with_columns((pl.col("expedition_crowns") - pl.col("expedition_stake")).alias("expedition_net"))
            .group_by("won")
            .agg(pl.len().cast(pl.Int64).alias("games"), *[pl.col(c).mean() for c in cols],
                 pl.col("expedition_net").mean())
            .sort("won", descending=True).collect())


def wk_battles_by_kind(t) -> pl.DataFrame:
    """kind (field, assault, siege), against (a Baron or a neutral city), battles, attacker_won,
    defender_won, undecided, attacker_win_rate, cities_taken, mean casualties of each side."""
    return (t.wk_battles.filter(pl.col("ended"))
            .with_columns(pl.when(pl.col("defender") == "neutral").then(pl.lit("neutral city"))
                          .otherwise(pl.lit("a Baron")).alias("against"))
            .group_by("kind", "against")
            .agg(pl.len().cast(pl.Int64).alias("battles"),
                 (pl.col("winner") == pl.col("attacker")).sum().cast(pl.Int64).alias("attacker_won"),
                 ((pl.col("winner") == pl.col("defender")) & pl.col("winner").is_not_null())
                 .sum().cast(pl.Int64).alias("defender_won"),
                 pl.col("winner").is_null().sum().cast(pl.Int64).alias("undecided"),
                 pl.col("city_taken").sum().cast(pl.Int64).alias("cities_taken"),
                 pl.col("attacker_casualties").mean().alias("attacker_casualties"),
                 pl.col("defender_casualties").mean().alias("defender_casualties"))
            .with_columns((pl.col("attacker_won") / pl.col("battles")).alias("attacker_win_rate"))
            .sort("kind", "against").collect())


def wk_assembly_outcomes(t) -> pl.DataFrame:
    """kind (of Agenda: law, charge, office, concession, private motion...), agendas, mean votes
    cast, passed (decided "yes" or for a Baron), rejected ("no"), no_votes (none cast), ties
    (broken by the Chairman)."""
    return (t.wk_agendas
            .with_columns(pl.col("kind").fill_null("unknown"))
            .group_by("kind")
            .agg(pl.len().cast(pl.Int64).alias("agendas"), pl.col("votes").mean().alias("mean_votes"),
                 (pl.col("outcome").is_not_null() & (pl.col("outcome") != "no")).sum().cast(pl.Int64)
                 .alias("passed"),
                 (pl.col("outcome") == "no").sum().cast(pl.Int64).alias("rejected"),
                 pl.col("outcome").is_null().sum().cast(pl.Int64).alias("no_votes"),
                 pl.col("tie").sum().cast(pl.Int64).alias("ties"))
            .sort("agendas", "kind", descending=[True, False]).collect())


def wk_assembly_by_player(t) -> pl.DataFrame:
    """player (by name), games, votes_cast, agendas_voted, agendas_carried, carried_share, charges
    received, offices received (every stored game)."""
    return (labelled(t.wk_outcomes, t)
            .group_by("player")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *[pl.col(c).sum().cast(pl.Int64) for c in ("votes_cast", "agendas_voted",
                                                             "agendas_carried", "charges", "offices")])
            .with_columns((pl.col("agendas_carried") / pl.col("agendas_voted")).alias("carried_share"))
            .sort("player").collect())


def wk_expedition_returns(t) -> pl.DataFrame:
    """expedition, voyages (funded), stakes (Barons investing), crowns_staked, crowns_back,
    influence_back, net_crowns (back less staked), returned, lost, under_way (voyages)."""
    voyages = (t.wk_expeditions.group_by("game_id", "seq", "expedition")
               .agg(pl.col("ended").first()))
    counts = (voyages.group_by("expedition")
              .agg(pl.len().cast(pl.Int64).alias("voyages"),
                   (pl.col("ended") == "returned").sum().cast(pl.Int64).alias("returned"),
                   (pl.col("ended") == "lost").sum().cast(pl.Int64).alias("lost"),
                   (pl.col("ended") == "under way").sum().cast(pl.Int64).alias("under_way")))
    money = (t.wk_expeditions.group_by("expedition")
             .agg(pl.len().cast(pl.Int64).alias("stakes"),
                  pl.col("stake").sum().cast(pl.Int64).alias("crowns_staked"),
                  pl.col("crowns_back").sum().cast(pl.Int64).alias("crowns_back"),
                  pl.col("influence_back").sum().cast(pl.Int64).alias("influence_back")))
    return (counts.join(money, on="expedition")
            .with_columns((pl.col("crowns_back") - pl.col("crowns_staked")).alias("net_crowns"))
            .select("expedition", "voyages", "stakes", "crowns_staked", "crowns_back",
                    "influence_back", "net_crowns", "returned", "lost", "under_way")
            .sort("expedition").collect())


def wk_games(t) -> pl.DataFrame:
    """Per game: game_id, players, rounds, winner (by name), reason, battles, agendas,
    expeditions, example_data (judged on the invented example board and cards)."""
    names = t.players.select("game_id", pl.col("player").alias("winner"), "name")
    return (t.wk_games.join(names, on=["game_id", "winner"], how="left")
            .with_columns(pl.coalesce("name", "winner").alias("winner"))
            .select("game_id", "players", "rounds", "winner", "reason", "battles", "agendas",
                    "expeditions", "example_data")
            .sort("game_id").collect())


QUERIES = {
    "wk_summary": wk_summary,
    "wk_win_rate_by_seat": wk_win_rate_by_seat,
    "wk_win_rate_by_players": wk_win_rate_by_players,
    "wk_win_rate_by_colour": wk_win_rate_by_colour,
    "wk_win_rate_by_cities": wk_win_rate_by_cities,
    "wk_win_rate_by_assembly": wk_win_rate_by_assembly,
    "wk_win_rate_by_expeditions": wk_win_rate_by_expeditions,
    "wk_winner_profile": wk_winner_profile,
    "wk_battles_by_kind": wk_battles_by_kind,
    "wk_assembly_outcomes": wk_assembly_outcomes,
    "wk_assembly_by_player": wk_assembly_by_player,
    "wk_expedition_returns": wk_expedition_returns,
    "wk_games": wk_games,
}
