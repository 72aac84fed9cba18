"""Statistics over stored games (docs/analytics.md, docs/odds.md).

    odds        exact battle odds and luck (Markov chain over the Ranked Attack Order)
    extract     the analytics rows of one game, read off the engine's fold (filled at ingest)
    load        the store's analytics tables as polars frames (`Tables`), all or one tournament
    queries     named queries: one metric each, every column named
    stats       the chi-square test of dice fairness and its verdict in words
    dashboard   the HTML page of charts (`ledger dashboard`) and its numbers (`ledger stats`)
    dashboard_legacy  its Risk Legacy sections: factions, powers, campaigns game by game, dice
    game_page   the page of one game: the crown race and the board on a map of Europe (Risk
                Legacy: the Red Star race and the board after each turn, as text)
    page        HTML pages of plotly charts that work offline
"""
