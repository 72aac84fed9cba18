"""The page of one Risk Legacy game, as plain data (engine.core.page): the race its board view
carries (Red Stars, troops, territories, resources) by round, and the board after each faction
chosen, each turn and the rewards, as the replay prints it (`board_lines`). There is no map of
this board yet: the frames carry text.

    spec = page(game, data)        # RULESET.page: a PageSpec that analytics/game_page.py draws
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.page import (
    Frame, PageGame, PageSpec, by_round, round_ends, rounds_played, rounds_text,
)
from engine.risk_legacy.narrate import board_lines

# what a turn's events did, in a turn's label ("recruits · attacks 3× · takes 2 · draws a card")
TURN_ACTS = {"RedStarBought": "buys a Red Star", "JoinedWar": "joins the war",
             "Recruited": "recruits", "Expanded": "expands", "AttackDeclared": "attacks",
             "MovedIn": "takes", "MissileFired": "fires a Missile", "ScarPlaced": "places a scar",
             "Maneuvered": "maneuvers", "CardDrawn": "draws a card",
             "MissionCompleted": "completes a mission", "RewardChosen": "chooses a reward"}
# the races charted when the board view carries them: key, title, axis
RACES = (("red_stars", "The Red Star race ({rounds}; 4 Red Stars win)", "Red Stars"),
         ("troops", "Troops on the board ({rounds})", "troops"),
         ("territories", "Territories held ({rounds})", "territories"),
         ("resources", "Resources in hand ({rounds})", "resources on their cards"))
ROUNDS_AXIS = "end of round (0: factions chosen)"


@dataclass
class BoardFrame:
    """The board after a turn (the ruleset's board view), and a label saying what happened."""

    label: str
    view: Mapping[str, Any]


def turn_frames(game: PageGame) -> list[BoardFrame]:
    """The board after each faction is chosen, each turn and the rewards, labelled with what
    happened ("Round 2, ann: recruits · attacks 4× · takes 3")."""
    frames: list[BoardFrame] = []
    acts: dict[str, int] = {}
    open_frame: BoardFrame | None = None
    player: str | None = None          # whose turn the open frame is
    for step in game.steps:
        if step.view is None or not step.applied:
            continue
        phase, round_, _ = step.position
        if step.type == "FactionChosen":
            frames.append(BoardFrame(f"Setup: {step.actor} takes "
                                     f"{step.payload.get('faction', '?')} in "
                                     f"{step.payload.get('territory', '?')}", step.view))
            continue
        if (open_frame is not None and phase == "over"
                and not open_frame.label.startswith("The end")):
            open_frame.label += _acts_text(acts)        # the game ended in this turn
            open_frame = None
        if step.type not in TURN_ACTS and step.type != "TurnEnded" and open_frame is None:
            if frames:
                frames[-1].view = step.view
            continue
        if open_frame is None:
            player = None if phase == "over" else step.actor     # after the end: name everyone
            head = "The end" if phase == "over" else f"Round {round_}, {player or 'the table'}"
            open_frame, acts = BoardFrame(head, step.view), {}
            frames.append(open_frame)
        open_frame.view = step.view
        if step.type in TURN_ACTS:
            # another player's act in this turn (a defender's scar or Missile) is named as theirs
            act = TURN_ACTS[step.type] if step.actor is None or step.actor == player else \
                f"{step.actor} {TURN_ACTS[step.type]}"
            acts[act] = acts.get(act, 0) + 1
        if step.type == "TurnEnded":
            open_frame.label += _acts_text(acts)
            open_frame = None
    if open_frame is not None:
        open_frame.label += _acts_text(acts)
    return frames


def _acts_text(acts: dict[str, int]) -> str:
    if not acts:
        return ": nothing recorded"
    return ": " + " · ".join(a if n == 1 else f"{a} {n}×" for a, n in acts.items())


def page(game: PageGame, data: Any = None) -> PageSpec:
    """RULESET.page: the races by round and the board after each turn as text. ValueError when
    no turn was played."""
    frames = turn_frames(game)
    if not frames:
        raise ValueError("no turn was played: there is no board to draw")
    ends = round_ends(game)
    n = rounds_played(ends)
    first = next(iter(ends.values()), {}).get("players", {})
    some = next(iter(first.values()), {}) if first else {}
    charts = tuple(
        by_round(f"race-{key.replace('_', '-')}", title.format(rounds=rounds_text(n)),
                 ROUNDS_AXIS, axis, ends, game.players,
                 lambda v, p, key=key: v["players"].get(p, {}).get(key))
        for key, title, axis in RACES if key in some)
    return PageSpec(frames=tuple(Frame(f.label, lines=tuple(board_lines(f.view, "")))
                                 for f in frames),
                    rounds=n, charts=charts, lead="Risk Legacy")
