"""Analytics tables more than one ruleset fills, declared once so that every ruleset listing them
fills the same columns (a ruleset lists the object itself in its `projections`)."""

from __future__ import annotations

from engine.core.projection import Projection

S, I = "str", "int"

DICE = Projection("dice", {
    "game_id": S, "seq": I, "round": I, "player": S, "seat": I, "why": S, "rank": I,
    "territory": S, "battle_seq": I, "dice": I, "faces": "json",
    "n1": I, "n2": I, "n3": I, "n4": I, "n5": I, "n6": I,
}, key=("game_id", "seq", "player"),
    doc="one row per player per dice event: who rolled, why, the faces (a JSON list), each face's count")
