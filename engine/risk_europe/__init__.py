"""Risk Europe (Hasbro 2015): the rules engine for the basic 4-player game and its variants
(2- and 3-player Mercenaries, team play, Kingdom Missions: docs/variants.md)."""

from engine.core.ruleset import DataOption, Ruleset, deferred, hooks
from engine.risk_europe import engine as _engine
from engine.risk_europe import features as _features
from engine.risk_europe import legal as _legal
from engine.risk_europe import live as _live
from engine.risk_europe import narrate as _narrate
from engine.risk_europe import scoring as _scoring
from engine.risk_europe.board import GameData, default_data, load_data
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.fold import PROJECTIONS
from engine.risk_europe.rules import RULES
from engine.risk_europe.snapshot import board_view, digest
from engine.risk_europe import views as _views

VERSION = "1.0.0"


def _data_digest(data: GameData) -> str:
    out = f"board:{data.board_digest} cards:{data.cards_digest}"
    return out + (f" missions:{data.missions.digest}" if data.missions is not None else "")


def _odds(text: str):
    """The battle: "ATTACKER vs DEFENDER [in a castle]", units as footmen, archers, cavalry, siege
    (or F, A, C, S); --casualties ORDER (both sides: cheapest-first, or the four types, e.g. SCAF),
    --reroll below-average|never (the castle re-roll), --exact."""
    # RULESET.odds, the help of `ledger odds`: engine.risk_europe.odds.odds_of, imported when first asked for
    from engine.risk_europe.odds import odds_of
    return odds_of(text)


_odds.examples = ('"3 footmen + 1 siege vs 2 archers in a castle"',
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


def _load_files(board=None, cards=None, missions=None) -> GameData:
    """RULESET.load_data: the shipped data, or corrected board, card and mission files."""
    return load_data(board, cards, missions)


RULESET = Ruleset(
    name="risk-europe",
    version=VERSION,
    title="Risk Europe",
    payload_models=PAYLOADS,
    rules=RULES,
    load_data=_load_files,
    data_options=DATA_OPTIONS,
    default_data=default_data,
    data_digest=_data_digest,
    digest=digest,
    snapshot=board_view,
    **hooks(engine=_engine, views=_views, play=(_legal, _live), narration=_narrate),
    features=_features.features,
    feature_catalogue=_features.CATALOGUE,
    **deferred(__name__, "simulate", "fold", "page", "report"),
    simulate_options=SIMULATE_OPTIONS,
    projections=PROJECTIONS,
    odds=_odds,
    scoring=_scoring.SCORING,
)

__all__ = ["RULESET", "VERSION", "default_data", "load_data"]
