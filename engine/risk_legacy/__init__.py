"""Risk Legacy (Hasbro 2011): the rules engine for one game on an evolving world, and the world
itself (`engine.risk_legacy.world`), which a campaign carries from game to game."""

from engine.core.ruleset import Ruleset
from engine.risk_legacy import engine as _engine
from engine.risk_legacy import legal as _legal
from engine.risk_legacy import narrate as _narrate
from engine.risk_legacy import campaign as _campaign
from engine.risk_legacy import views as _views
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
    check_start=_engine.check_start,
    initial_state=_engine.initial_state,
    step=_engine.step,
    conclude=_engine.conclude,
    result=_engine.result,
    digest=digest,
    snapshot=board_view,
    view=_views.view,
    redact=_views.redact,
    secrets=_views.secrets,
    reveal_seed=_engine.reveal_seed,
    legal_moves=_legal.legal_moves,
    describe=_narrate.describe_event,
    board_lines=_narrate.board_lines,
    simulate=_simulate,
    projections=PROJECTIONS,
    fold=_fold,
    campaign=_campaign.HOOKS,
)

__all__ = ["RULESET", "VERSION", "World", "WorldError", "customize", "default_data", "load_data",
           "pristine_world", "snapshot", "world_digest", "world_from_dict", "world_of", "world_to_dict"]
