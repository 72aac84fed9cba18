"""The analytics tables of a store, read into polars: every game, or one tournament's; each real
game once, and only the games judged clean.

    tables = load_tables(store)                      # a DuckDBStore (ledger.store.open_store)
    tables = load_tables(open_lake("lake/"))         # or a Parquet lake (analytics.lake)
    tables = load_tables(store, tournament="spring") # a tournament id or name
    tables = load_tables(store, include_broken=True) # every stored game, copies and findings too
    queries.win_rate_by_seat(tables)                 # named queries take a Tables
    tables.selection.note()                          # what was counted and what was left out

Each frame holds only the games selected, and only the columns the queries use. Which games are
counted is decided here, once, so that every query, chart, `ledger stats` and the dashboard count
the same games: a game with findings (its own, or its campaign's) and a copy of a counted game
are left out unless `include_broken` (analytics.selection says how a copy is told).
"""

from __future__ import annotations

import polars as pl

from analytics.extract import COLUMNS, projections
from analytics.selection import Selection, select_games


class UnknownTournament(LookupError):
    """No tournament with this id or name is stored."""

    def __init__(self, tournament: str, known: list[str]):
        self.tournament, self.known = tournament, known
        listed = ", ".join(repr(k) for k in known) if known else "none are stored"
        super().__init__(f"no tournament {tournament!r} in the store (tournaments: {listed})")

    def __str__(self) -> str:
        return self.args[0]


GAME_COLUMNS = {"game_id": pl.String, "ruleset": pl.String, "tournament": pl.String,
                "played_on": pl.Date, "finished": pl.Boolean, "rounds": pl.Int32,
                "findings": pl.Int32, "campaign_status": pl.String}
PLAYER_COLUMNS = {"game_id": pl.String, "seat": pl.Int32, "player": pl.String, "name": pl.String}

# the columns each table is loaded with: JSON text columns are left in the store
LEFT_IN_STORE = {(p.table, c) for p in projections().values() for c, t in p.columns.items() if t == "json"}
LOADED = {table: {c: t for c, t in columns.items() if (table, c) not in LEFT_IN_STORE}
          for table, columns in COLUMNS.items()}


class Tables:
    """The analytics tables as lazy polars frames, by table name (columns: analytics.extract.COLUMNS,
    plus `games` and `players` from the store); `t.battles` is `t.frames["battles"]`."""

    def __init__(self, title: str = "every stored game", selection: Selection | None = None,
                 **frames: pl.LazyFrame):
        missing = [n for n in ("games", "players", *LOADED) if n not in frames]
        if missing:
            raise TypeError(f"missing tables: {', '.join(missing)}")
        self.frames: dict[str, pl.LazyFrame] = frames
        self.title = title
        self.selection = selection
        """Which stored games the tables hold and which were left out (None: frames made by
        hand, every game in them counted)."""

    def __getattr__(self, name: str) -> pl.LazyFrame:
        try:
            return self.__dict__["frames"][name]
        except KeyError:
            raise AttributeError(f"no analytics table {name!r}") from None

    @classmethod
    def from_frames(cls, title: str = "test frames",
                    **frames: pl.DataFrame | list[dict]) -> "Tables":
        """Tables from small frames (or lists of row dicts); a table not given is empty. Columns
        not given are null, so a test names only the columns its query reads."""
        schemas = {"games": GAME_COLUMNS, "players": PLAYER_COLUMNS, **LOADED}
        built = {}
        for name, schema in schemas.items():
            given = frames.pop(name, None)
            if given is None:
                frame = pl.DataFrame(schema=schema)
            else:
                frame = given if isinstance(given, pl.DataFrame) else pl.DataFrame(given)
                frame = frame.with_columns(pl.lit(None, dtype=t).alias(c) for c, t in schema.items()
                                           if c not in frame.columns)
                frame = frame.select(pl.col(c).cast(t) for c, t in schema.items())
            built[name] = frame.lazy()
        if frames:
            raise TypeError(f"unknown tables: {', '.join(frames)}")
        return cls(title=title, **built)

    def collect(self) -> "Tables":
        """The same tables, read once into memory (queries then share them)."""
        names = list(self.frames)
        done = pl.collect_all([self.frames[n] for n in names])
        return Tables(title=self.title, selection=self.selection,
                      **{n: d.lazy() for n, d in zip(names, done)})


def tournament_games(store, tournament: str) -> tuple[str, str]:
    """(tournament id, display name) for an id or a name; UnknownTournament if neither."""
    found = store.query("SELECT tournament_id, name FROM tournaments WHERE tournament_id = $t "
                        "OR name = $t ORDER BY tournament_id = $t DESC LIMIT 1", {"t": tournament})
    if found.height == 0:
        known = store.query("SELECT tournament_id FROM tournaments ORDER BY 1")["tournament_id"]
        raise UnknownTournament(tournament, known.to_list())
    return found["tournament_id"][0], found["name"][0]


def load_tables(store, tournament: str | None = None, include_broken: bool = False) -> Tables:
    """The analytics tables of `store` (a ledger.store.DuckDBStore, or an analytics.lake
    LakeReader: the same SQL over either): every game, or the games of
    one tournament (by id or name; UnknownTournament if there is none). Only the games counted
    are loaded (analytics.selection: no findings, no campaign findings, not a copy of another
    game counted); `include_broken` loads them all. `tables.selection` says which were left out."""
    where, params, title = "", None, "every stored game"
    if tournament is not None:
        tid, name = tournament_games(store, tournament)
        where = "WHERE game_id IN (SELECT game_id FROM games WHERE tournament_id = $t)"
        params, title = {"t": tid}, f"tournament {name}"
    scope = store.query("SELECT game_id, ruleset, winners IS NOT NULL AS finished, "
                        "event_count AS events FROM games " + where + " ORDER BY game_id", params)
    selection = select_games(store, scope, include_broken, _titles(scope["ruleset"]))
    counted = selection.counted_ids
    # a Risk Legacy campaign game's link (fits | wrong-world | waiting | duplicate), when the
    # store keeps campaigns (a store made before them, opened read-only, does not)
    linked = store._has_campaign_tables()
    games = store.query("SELECT game_id, g.ruleset, g.tournament_id AS tournament, g.played_on, "
                        "g.winners IS NOT NULL AS finished, g.rounds, g.finding_count AS findings, "
                        + ("c.status AS campaign_status FROM games g LEFT JOIN campaign_games c "
                           "USING (game_id) " if linked else "NULL AS campaign_status FROM games g ")
                        + where, params)
    games = games.select(pl.col(c).cast(t) for c, t in GAME_COLUMNS.items())
    players = store.query("SELECT game_id, seat, player_id AS player, name FROM players " + where,
                          params)
    loaded = {}
    for table, columns in LOADED.items():
        select = ", ".join(f'"{c}"' for c in columns)
        frame = store.query(f"SELECT {select} FROM {table} {where}", params)
        loaded[table] = _only(frame.select(pl.col(c).cast(t) for c, t in columns.items()),
                              counted).lazy()
    players = players.select(pl.col(c).cast(t) for c, t in PLAYER_COLUMNS.items())
    return Tables(games=_only(games, counted).lazy(), players=_only(players, counted).lazy(),
                  title=title, selection=selection, **loaded)


def _only(frame: pl.DataFrame, game_ids: list[str]) -> pl.DataFrame:
    return frame.filter(pl.col("game_id").is_in(game_ids))


def _titles(names: pl.Series) -> dict[str, str]:
    """Each stored ruleset's title ("Risk Legacy"); its name when it is not installed."""
    from engine.core.ruleset import get_ruleset

    out = {}
    for name in names.drop_nulls().unique().sort().to_list():
        try:
            out[name] = get_ruleset(name).title
        except KeyError:    # a ruleset no longer installed: its games are named by its name
            out[name] = name
    return out
