"""Random draws made with dice in Risk Europe: the City Bonus Tiles a Mercenary Army draws and the
cards flipped from a Mercenary deck.

The draw rule is shared by every ruleset and lives in engine.core.chance (published in
docs/log-format.md, "Random draws"); this module names it for Risk Europe's callers. The pools
are the board's Gold Crown Cities still free and the card ids still in a Mercenary deck, in the
data files' order (engine.risk_europe.orders: `mercenary_pool`).
"""

from engine.core.chance import DrawError, draw, draw_with, uniform

__all__ = ["DrawError", "draw", "draw_with", "uniform"]
