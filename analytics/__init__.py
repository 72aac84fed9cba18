"""Statistics over stored games (docs/analytics.md, docs/odds.md).

    extract     the analytics rows of one game, read off the engine's fold (filled at ingest)
    load        the store's analytics tables as polars frames (`Tables`), all or one tournament
    lake        the Parquet lake's layout, and reading it as the store is read (`--lake`)
    queries     named queries: the shared ones (dice fairness) and every ruleset's (its record's
                `report`), one metric each, every column named
    stats       the chi-square test of dice fairness and its verdict in words
    dashboard   the HTML page of charts (`ledger dashboard`): a group of sections per ruleset
                with stored games, as its report describes them, then the dice; and its numbers
                (`ledger stats`)
    game_page   the page of one game, as its ruleset's `page` hook describes it: the board after
                each turn (on a map, or as text) and the charts by round
    charts      draws the plain-data charts, notes and tables a ruleset returns
                (engine.core.charts) with plotly and HTML
    page        HTML pages of plotly charts that work offline

Nothing here names a game: what is game-specific comes through the `Ruleset` record.
"""
