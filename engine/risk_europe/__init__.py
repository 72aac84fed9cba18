"""Risk Europe (Hasbro 2015): the rules engine for the basic 4-player game and its variants
(2- and 3-player Mercenaries, team play, Kingdom Missions: docs/variants.md).

RULESET is made from this package's conventional names (engine.core.ruleset.PACKAGE_NAMES)."""

from engine.core.ruleset import DataOption, Ruleset, deferred, hooks
from engine.risk_europe import board as _board
from engine.risk_europe import engine as _engine
from engine.risk_europe import legal as _legal
from engine.risk_europe import live as _live
from engine.risk_europe import narrate as _narrate
from engine.risk_europe import views as _views
from engine.risk_europe.board import GameData, default_data
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.features import CATALOGUE as FEATURES, features as features_of
from engine.risk_europe.fold import PROJECTIONS
from engine.risk_europe.rules import RULES
from engine.risk_europe.scoring import SCORING
from engine.risk_europe.snapshot import board_view, digest

VERSION = "1.0.0"


def data_digest(data: GameData) -> str:
    out = f"board:{data.board_digest} cards:{data.cards_digest}"
    return out + (f" missions:{data.missions.digest}" if data.missions is not None else "")


def odds_of(text: str):
    """The battle: "ATTACKER vs DEFENDER [in a castle]", units as footmen, archers, cavalry, siege
    (or F, A, C, S); --casualties ORDER (both sides: cheapest-first, or the four types, e.g. SCAF),
    --reroll below-average|never (the castle re-roll), --exact."""
    # RULESET.odds, the help of `ledger odds`: engine.risk_europe.odds.odds_of, imported when first asked for
    from engine.risk_europe import odds
    return odds.odds_of(text)


odds_of.examples = ('"3 footmen + 1 siege vs 2 archers in a castle"',
                    '3F 1S vs 2A castle --reroll never --json')


SIMULATE_OPTIONS = (
    DataOption("variant", "The game the bots play: basic, mercenaries-3p, mercenaries-2p or teams, "
                          "optionally +missions (teams: +long). See docs/variants.md."),
)

DATA_OPTIONS = (
    DataOption("board", "A corrected board file (JSON, same shape as the shipped one)."),
    DataOption("cards", "A corrected King's Orders card file."),
    DataOption("missions", "A Kingdom Missions file (docs/variants.md); without it, mission "
                           "completions are listed as unverified claims."),
)


def load_data(board=None, cards=None, missions=None) -> GameData:
    """RULESET.load_data: the shipped data, or corrected board, card and mission files."""
    return _board.load_data(board, cards, missions)


RULESET = Ruleset.from_package(
    __name__, name="risk-europe", title="Risk Europe",
    **hooks(engine=_engine, views=_views, play=(_legal, _live), narration=_narrate),
    **deferred(__name__, "simulate", "fold", "page", "report"),
)

__all__ = ["RULESET", "VERSION", "default_data", "load_data"]
