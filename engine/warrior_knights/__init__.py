"""Warrior Knights (Fantasy Flight, 2006) with the Crown & Glory expansion: the rules engine,
judged from the rules summary (../shared/seeds/002) on a board and cards the user supplies
(engine/warrior_knights/board.py, cards.py; the package ships an invented example of each,
marked as such). docs/warrior-knights.md has the rules, the data files and the rulings.

RULESET is made from this package's conventional names (engine.core.ruleset.PACKAGE_NAMES)."""

from engine.core.ruleset import DataOption, Ruleset, deferred, hooks
from engine.warrior_knights import engine as _engine
from engine.warrior_knights import live as _live
from engine.warrior_knights import narrate as _narrate
from engine.warrior_knights import views as _views
from engine.warrior_knights.board import BOARD_SCHEMA
from engine.warrior_knights.cards import CARDS_SCHEMA
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.fold import PROJECTIONS
from engine.warrior_knights.gamedata import (
    GameData, check_data, data_digest, data_notes, default_data, load_data,
)
from engine.warrior_knights.rules import RULES
from engine.warrior_knights.snapshot import digest, snapshot as board_view

VERSION = "0.1.0"

DATA_OPTIONS = (
    DataOption("board", "A board file (JSON): areas, borders, the Mercenary Track, expeditions "
                        "(Warrior Knights: docs/warrior-knights.md).", schema=BOARD_SCHEMA),
    DataOption("cards", "A cards file (JSON; Warrior Knights: every section optional, a section left "
                        "out is judged in observed mode).", schema=CARDS_SCHEMA),
)

SIMULATE_OPTIONS = (
    DataOption("players", "Warrior Knights: how many Barons the bots play, 2 to 6 (default 2)."),
    DataOption("variants", "Warrior Knights: the Crown & Glory variants the bots play: for_glory, missions, "
                           "king (comma-separated), all, or none (default)."),
)


RULESET = Ruleset.from_package(
    __name__, name="warrior-knights", title="Warrior Knights",
    **hooks(engine=(_engine, _live), views=_views, play=_live, narration=_narrate),
    **deferred(__name__, "simulate", "fold", "page", "report"),
)

__all__ = ["RULESET", "VERSION", "GameData", "default_data", "load_data"]
