"""TEMPORARY (issue #11): the classic dice's odds under their old import path, for
analytics/extract_legacy.py until it imports engine.core.dice_odds itself. Remove then."""

from engine.core.dice_odds import CLASSIC_MAX_DICE, RollOdds, roll_odds  # noqa: F401
