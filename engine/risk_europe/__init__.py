"""Risk Europe (Hasbro 2015): the rules engine for the basic 4-player game and its variants
(2- and 3-player Mercenaries, team play, Kingdom Missions: docs/variants.md)."""

from typing import Mapping

from engine.core.ruleset import DataOption, Ruleset, engine_functions
from engine.risk_europe import engine as _engine
from engine.risk_europe import features as _features
from engine.risk_europe import legal as _legal
from engine.risk_europe import live as _live
from engine.risk_europe import narrate as _narrate
from engine.risk_europe import scoring as _scoring
from engine.risk_europe.board import GameData, default_data, load_data
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.rules import RULES
from engine.risk_europe.snapshot import board_view, digest, snapshot
from engine.risk_europe import views as _views

VERSION = "1.0.0"


def _data_digest(data: GameData) -> str:
    out = f"board:{data.board_digest} cards:{data.cards_digest}"
    return out + (f" missions:{data.missions.digest}" if data.missions is not None else "")


def _simulate(seed: int, game_id: str, options: Mapping[str, str]):
    """RULESET.simulate (engine.risk_europe.sim, imported when first asked for)."""
    from engine.risk_europe.sim import simulate
    return simulate(seed, game_id, options)


def _odds(text: str):
    """The battle: "ATTACKER vs DEFENDER [in a castle]", units as footmen, archers, cavalry, siege
    (or F, A, C, S); --casualties ORDER (both sides: cheapest-first, or the four types, e.g. SCAF),
    --reroll below-average|never (the castle re-roll), --exact."""
    # RULESET.odds, the help of `ledger odds`: engine.risk_europe.odds.odds_of, imported when first asked for
    from engine.risk_europe.odds import odds_of
    return odds_of(text)


_odds.examples = ('"3 footmen + 1 siege vs 2 archers in a castle"',
                  '3F 1S vs 2A castle --reroll never --json')


def _fold(rows, data):
    """RULESET.fold (engine.risk_europe.fold, imported when first asked for)."""
    from engine.risk_europe.fold import fold
    return fold(rows, data)


SIMULATE_OPTIONS = (
    DataOption("variant", "The game the bots play: basic, mercenaries-3p, mercenaries-2p or teams, "
                          "optionally +missions (teams: +long). See docs/variants.md."),
)

def _projections():
    from engine.risk_europe.fold import PROJECTIONS
    return PROJECTIONS


_PROJECTIONS = _projections()

DATA_OPTIONS = (
    DataOption("board", "A corrected board file (JSON, same shape as the shipped one)."),
    DataOption("cards", "A corrected King's Orders card file."),
    DataOption("missions", "A Kingdom Missions file (docs/variants.md); without it, mission "
                           "completions are listed as unverified claims."),
)


def _load_files(board=None, cards=None, missions=None) -> GameData:
    """RULESET.load_data: the shipped data, or corrected board, card and mission files."""
    return load_data(board, cards, missions)


def _page(game, data):
    """RULESET.page (engine.risk_europe.page, imported when first asked for)."""
    from engine.risk_europe.page import page
    return page(game, data)


def _report():
    """RULESET.report (engine.risk_europe.report, imported when first asked for: it needs polars)."""
    from engine.risk_europe.report import REPORT
    return REPORT


RULESET = Ruleset(
    name="risk-europe",
    version=VERSION,
    title="Risk Europe",
    start_event="GameStarted",
    payload_models=PAYLOADS,
    rules=RULES,
    load_data=_load_files,
    data_options=DATA_OPTIONS,
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
    with_dice=_live.with_dice,
    bot=_live.bot,
    describe=_narrate.describe_event,
    board_lines=_narrate.board_lines,
    section=_narrate.section,
    phase_heading=_narrate.phase_heading,
    turn_key=_narrate.turn_key,
    start_lines=_narrate.start_lines,
    features=_features.features,
    feature_catalogue=_features.CATALOGUE,
    simulate=_simulate,
    simulate_options=SIMULATE_OPTIONS,
    odds=_odds,
    projections=_PROJECTIONS,
    fold=_fold,
    page=_page,
    report=_report,
    scoring=_scoring.SCORING,
)

__all__ = ["RULESET", "VERSION", "default_data", "load_data"]
