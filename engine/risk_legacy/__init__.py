"""Risk Legacy (Hasbro 2011): the rules engine for one game on an evolving world, and the world
itself (`engine.risk_legacy.world`), which a campaign carries from game to game.

RULESET is made from this package's conventional names (engine.core.ruleset.PACKAGE_NAMES)."""

from engine.core.ruleset import Ruleset, deferred, hooks
from engine.risk_legacy import engine as _engine
from engine.risk_legacy import legal as _legal
from engine.risk_legacy import live as _live
from engine.risk_legacy import narrate as _narrate
from engine.risk_legacy import views as _views
from engine.risk_legacy.board import GameData, default_data, load_data
from engine.risk_legacy.campaign import HOOKS as CAMPAIGN
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.fold import PROJECTIONS
from engine.risk_legacy.rules import RULES
from engine.risk_legacy.scoring import SCORING
from engine.risk_legacy.snapshot import board_view, digest, snapshot
from engine.risk_legacy.world import (
    World, WorldError, customize, pristine_world, world_digest, world_from_dict, world_to_dict,
)

VERSION = "0.1.0"


def data_digest(data: GameData) -> str:
    return f"board:{data.board_digest} rules:{data.rules_digest}"


def odds_of(text: str):
    """The attack: "A vs D [marks]", A the troops in the attacking territory (one stays behind), D
    the defenders; marks: bunker, ammo shortage, fortified [N boxes left], hq, double sixes, first
    strike, three of a kind, N missiles, +1 higher / -1 lower / +1 each; --stop N (the attacker
    stops when down to N troops), --exact."""
    # RULESET.odds, the help of `ledger odds`: engine.risk_legacy.odds.odds_of, imported when first asked for
    from engine.risk_legacy import odds
    return odds.odds_of(text)


odds_of.examples = ('"10 vs 6"', '"10 vs 6 bunker"', '"8 with 2 missiles vs 5 fortified (3 boxes left)" --stop 3',
                    '"4 vs 2" --exact --json')


def world_of(state) -> World:
    """The world as a game's state has it now (after a finished game: the world the next game
    starts from)."""
    return state.world


RULESET = Ruleset.from_package(
    __name__, name="risk-legacy", title="Risk Legacy",
    **hooks(engine=_engine, views=_views, play=(_legal, _live), narration=_narrate),
    **deferred(__name__, "simulate", "fold", "page", "report"),
)

__all__ = ["RULESET", "VERSION", "World", "WorldError", "customize", "default_data", "load_data",
           "pristine_world", "snapshot", "world_digest", "world_from_dict", "world_of", "world_to_dict"]
