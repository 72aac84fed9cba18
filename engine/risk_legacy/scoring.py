"""Risk Legacy in an event (RULESET.scoring): a win (the fourth Red Star, or the last player
standing) scores 1, and players level on points are ordered by the Red Stars they held at the
end of their games (RL-STARS: Red Star tokens plus the HQs they control)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.core.scoring import ScoreValue, Scoring
from engine.risk_legacy.common import stars, territories_of
from engine.risk_legacy.state import State

VALUES = (
    ScoreValue("red_stars", "Red Stars", "Red Stars at the end: Red Star tokens plus HQs "
               "controlled (RL-STARS)", ("stars", "red_star")),
    ScoreValue("territories", "Territories", "territories held at the end"),
)


def scores(state: State, result: Any = None) -> Mapping[str, Mapping[str, int]]:
    """Each player's Red Stars and territories in the final state."""
    return {p: {"red_stars": stars(state, p), "territories": len(territories_of(state, p))}
            for p in state.seats}


SCORING = Scoring(values=VALUES, scores=scores, win=1, shared_win="split", loss=0,
                  tie_breaks=("red_stars",))
