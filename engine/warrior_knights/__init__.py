"""Warrior Knights (Fantasy Flight, 2006) with the Crown & Glory expansion: the rules engine,
judged from the rules summary (../shared/seeds/002) on a board and cards the user supplies
(engine/warrior_knights/board.py, cards.py; the package ships an invented example of each,
marked as such). docs/warrior-knights.md has the rules, the data files and the rulings."""

from typing import Mapping

from engine.core.ruleset import DataOption, Ruleset, engine_functions
from engine.warrior_knights import engine as _engine
from engine.warrior_knights import live as _live
from engine.warrior_knights import narrate as _narrate
from engine.warrior_knights import views as _views
from engine.warrior_knights.board import BOARD_SCHEMA
from engine.warrior_knights.cards import CARDS_SCHEMA
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.fold import PROJECTIONS as _PROJECTIONS
from engine.warrior_knights.gamedata import (
    GameData, check_data, data_digest, data_notes, default_data, load_data,
)
from engine.warrior_knights.rules import RULES
from engine.warrior_knights.snapshot import digest, snapshot

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


def _fold(rows, data):
    """RULESET.fold (engine.warrior_knights.fold)."""
    from engine.warrior_knights.fold import fold
    return fold(rows, data)


def _page(game, data):
    """RULESET.page (engine.warrior_knights.page, imported when first asked for)."""
    from engine.warrior_knights.page import page
    return page(game, data)


def _report():
    """RULESET.report (engine.warrior_knights.report, imported when first asked for: it needs polars)."""
    from engine.warrior_knights.report import REPORT
    return REPORT


def _simulate(seed: int, game_id: str, options: Mapping[str, str]):
    """RULESET.simulate (engine.warrior_knights.sim, imported when first asked for)."""
    from engine.warrior_knights.sim import simulate
    return simulate(seed, game_id, options)


RULESET = Ruleset(
    name="warrior-knights",
    version=VERSION,
    title="Warrior Knights",
    start_event="GameStarted",
    payload_models=PAYLOADS,
    rules=RULES,
    load_data=load_data,
    data_options=DATA_OPTIONS,
    check_data=check_data,
    data_notes=data_notes,
    default_data=default_data,
    data_digest=data_digest,
    **{**engine_functions(_engine), "step": _live.step, "initial_state": _live.initial_state,
       "reveal_seed": _live.reveal_seed},
    digest=digest,
    snapshot=snapshot,
    view=_views.view,
    redact=_views.redact,
    secrets=_views.secrets,
    seed_event=_live.SEED_EVENT,
    new_game=_live.new_game,
    actors=_live.actors,
    chance=_live.chance,
    legal_moves=_live.legal_moves,
    bot=_live.bot,
    describe=_narrate.describe_event,
    board_lines=_narrate.board_lines,
    section=_narrate.section,
    phase_heading=_narrate.phase_heading,
    start_lines=_narrate.start_lines,
    simulate=_simulate,
    simulate_options=SIMULATE_OPTIONS,
    projections=_PROJECTIONS,
    fold=_fold,
    page=_page,
    report=_report,
)

__all__ = ["RULESET", "VERSION", "GameData", "default_data", "load_data"]
