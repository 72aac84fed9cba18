"""Risk Europe in an event (RULESET.scoring): a win scores 1, a shared win (a tie the rulebook's
tie-break leaves, or a team's win) is split, and players level on points are ordered by the
crowns they held at the end of their games (p.19: crowns decide the game)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.core.scoring import ScoreValue, Scoring
from engine.risk_europe.common import crowns_by_army, territories_of
from engine.risk_europe.state import State

VALUES = (
    ScoreValue("crowns", "Crowns", "crowns on the Crown Tracker at the end: crown cities held "
               "(Rome 2) plus Crown Cards (p.19)", ("crown",)),
    ScoreValue("territories", "Territories", "territories held at the end (the first tie-break, "
               "p.19)"),
    ScoreValue("coins", "Coins", "coins at the end (the second tie-break, p.19)"),
)


def scores(state: State, result: Any = None) -> Mapping[str, Mapping[str, int]]:
    """Each player's crowns, territories and coins in the final state."""
    crowns = crowns_by_army(state)
    return {p: {"crowns": crowns[p], "territories": len(territories_of(state, p)),
                "coins": state.players[p].coins} for p in state.seats}


SCORING = Scoring(values=VALUES, scores=scores, win=1, shared_win="split", loss=0,
                  tie_breaks=("crowns",))
