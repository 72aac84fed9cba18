"""What every ruleset's narration shares (the `describe` and `board_lines` hooks of the record):
the board as a line per player with the territories they hold, and the lines of the events the
log format itself defines (the result claim, the seed reveal, a ruling)."""

from __future__ import annotations

from typing import Any, Callable

from engine.core.rulings import RULING_EVENT, ruling_line
from engine.core.ruleset import declared_winners_of
from engine.core.text import and_list


def lines_per_player(view: dict | None, indent: str, held: Callable[[str, dict], str],
                     player: Callable[[str, dict], str]) -> list[str]:
    """A compact board from a board view ({"players": {id: info}, "board": {territory: entry}}):
    "<indent><player line> — <held>; <held>..." per player still in the game ("<id>:
    eliminated" for the others), `held(territory, entry)` for each territory the player owns
    and `player(id, info)` for what comes before the dash."""
    if not view:
        return []
    board = view.get("board", {})
    out = []
    for p, info in view.get("players", {}).items():
        if info.get("eliminated"):
            out.append(f"{indent}{p}: eliminated")
            continue
        owned = [held(t, x) for t, x in board.items() if x.get("owner") == p]
        out.append(f"{indent}{player(p, info)} — " + "; ".join(owned))
    return out


def log_format_line(type_: str, payload: Any, who: str) -> str:
    """The line of an event the log format defines for every game (GameEnded, SeedRevealed,
    RulingRecorded), and of any event a ruleset does not describe: "<who> <type> <payload>"."""
    if type_ == "GameEnded":
        winners = declared_winners_of(payload)
        return "claim: game won by " + (and_list(winners) if winners else str(
            payload.get("winner") if isinstance(payload, dict) else None))
    if type_ == "SeedRevealed":
        return "dice seed revealed"
    if type_ == RULING_EVENT:
        return ruling_line(payload)
    return f"{who} {type_} {payload}"
