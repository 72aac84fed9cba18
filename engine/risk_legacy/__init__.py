"""Risk Legacy (Hasbro 2011): the rules engine for one game on an evolving world, and the world
itself (`engine.risk_legacy.world`), which a campaign carries from game to game."""

from engine.core.ruleset import Ruleset, engine_functions
from engine.risk_legacy import engine as _engine
from engine.risk_legacy import legal as _legal
from engine.risk_legacy import live as _live
from engine.risk_legacy import narrate as _narrate
from engine.risk_legacy import campaign as _campaign
from engine.risk_legacy import views as _views
from engine.risk_legacy import scoring as _scoring
from engine.risk_legacy.board import GameData, default_data, load_data
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.fold import PROJECTIONS
from engine.risk_legacy.rules import RULES
from engine.risk_legacy.snapshot import board_view, digest, snapshot
from engine.risk_legacy.world import (
    World, WorldError, customize, pristine_world, world_digest, world_from_dict, world_to_dict,
)

VERSION = "0.1.0"


def _data_digest(data: GameData) -> str:
    return f"board:{data.board_digest} rules:{data.rules_digest}"


def _simulate(seed: int, game_id: str, options):
    """RULESET.simulate (engine.risk_legacy.sim, loaded when first asked)."""
    from engine.risk_legacy.sim import simulate
    return simulate(seed, game_id, options)


def _fold(rows, data):
    """RULESET.fold (engine.risk_legacy.fold, loaded when first asked)."""
    from engine.risk_legacy.fold import fold
    return fold(rows, data)


def _odds(text: str):
    """The attack: "A vs D [marks]", A the troops in the attacking territory (one stays behind), D
    the defenders; marks: bunker, ammo shortage, fortified [N boxes left], hq, double sixes, first
    strike, three of a kind, N missiles, +1 higher / -1 lower / +1 each; --stop N (the attacker
    stops when down to N troops), --exact."""
    # RULESET.odds, the help of `ledger odds`: engine.risk_legacy.odds.odds_of, imported when first asked for
    from engine.risk_legacy.odds import odds_of
    return odds_of(text)


_odds.examples = ('"10 vs 6"', '"10 vs 6 bunker"', '"8 with 2 missiles vs 5 fortified (3 boxes left)" --stop 3',
                  '"4 vs 2" --exact --json')


def _page(game, data):
    """RULESET.page (engine.risk_legacy.page, imported when first asked for)."""
    from engine.risk_legacy.page import page
    return page(game, data)


def _report():
    """RULESET.report (engine.risk_legacy.report, imported when first asked for: it needs polars)."""
    from engine.risk_legacy.report import REPORT
    return REPORT


def world_of(state) -> World:
    """The world as a game's state has it now (after a finished game: the world the next game
    starts from)."""
    return state.world


RULESET = Ruleset(
    name="risk-legacy",
    version=VERSION,
    title="Risk Legacy",
    start_event="GameStarted",
    payload_models=PAYLOADS,
    rules=RULES,
    load_data=load_data,
    default_data=default_data,
    data_digest=_data_digest,
    **engine_functions(_engine),
    digest=digest,
    snapshot=board_view,
    view=_views.view,
    redact=_views.redact,
    secrets=_views.secrets,
    legal_moves=_legal.legal_moves,
    actors=_legal.actors,
    new_game=_live.new_game,
    chance=_live.chance,
    table_chance=_live.table_chance,
    bot=_live.bot,
    describe=_narrate.describe_event,
    board_lines=_narrate.board_lines,
    section=_narrate.section,
    phase_heading=_narrate.phase_heading,
    turn_key=_narrate.turn_key,
    simulate=_simulate,
    projections=PROJECTIONS,
    fold=_fold,
    odds=_odds,
    page=_page,
    report=_report,
    campaign=_campaign.HOOKS,
    scoring=_scoring.SCORING,
)

__all__ = ["RULESET", "VERSION", "World", "WorldError", "customize", "default_data", "load_data",
           "pristine_world", "snapshot", "world_digest", "world_from_dict", "world_of", "world_to_dict"]
