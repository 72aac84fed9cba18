"""What happened in a judged game, as named features (the orders played, the battle ranks fought,
the ways a game was won: each ruleset names its own, `Ruleset.features` and
`Ruleset.feature_catalogue`).

Used to pick sample games that between them show every part of a game's rules."""

from __future__ import annotations

from engine.core.ruleset import Feature, get_ruleset, ruleset_names
from replay.judge import Judgement

# the steps whose notes tell what happened: events the rules accepted (a claim is checked, not refused)
_ACCEPTED = ("ok", "claim")


def game_features(j: Judgement) -> set[str]:
    """The features of one judged game (judged with its steps kept); none for a game whose
    ruleset names none."""
    if j.ruleset not in ruleset_names():
        return set()
    rs = get_ruleset(j.ruleset)
    if rs.features is None:
        return set()
    return set(rs.features(((s.type, s.notes) for s in j.steps if s.status in _ACCEPTED), j.result))


def feature_catalogue(ruleset: str) -> tuple[Feature, ...]:
    """Every feature the ruleset can name (KeyError for an unknown ruleset)."""
    return get_ruleset(ruleset).feature_catalogue


def all_features(ruleset: str) -> list[str]:
    """The names of every feature of the ruleset, sorted."""
    return sorted(f.name for f in feature_catalogue(ruleset))


def required_features(ruleset: str) -> list[str]:
    """The features the ruleset's samples must show between them, sorted (the rare ones that bots
    seldom reach are left out)."""
    return sorted(f.name for f in feature_catalogue(ruleset) if f.required)
