"""What happened in a judged game, as named features: the orders and bonus actions used, the City
Bonus Tiles that took effect, battle ranks fought, castle re-rolls, eliminations, tie-breaks.

Used to pick sample games that between them show every part of the rules, and by analytics."""

from __future__ import annotations

from replay.judge import Judgement

ORDERS = {"Expanded": "order:expand", "SplitExpanded": "order:split_expand", "Maneuvered": "order:maneuver",
          "Taxed": "order:tax", "Spent": "order:spend"}
BONUS = {"Fortified": "bonus:fortify", "SiegeAssaulted": "bonus:siege_assault"}
NOTE_FEATURES = {
    "King Me:": "bonus:king_me",
    "Stockholm tile": "tile:stockholm",
    "free maneuver (Berlin": "tile:berlin_maneuver",
    "Berlin tile: the castle": "tile:berlin_castle",
    "Constantinople tile": "tile:constantinople",
    "Kiev tile": "tile:kiev",
    "London tile": "tile:london",
    "Paris tile": "tile:paris",
    "Madrid tile": "tile:madrid",
    "Rank 1 siege attack": "battle:rank1",
    "Rank 2 archer volley": "battle:rank2",
    "Rank 3 cavalry charge": "battle:rank3",
    "Rank 4 general attack": "battle:rank4",
    "Castle defense:": "battle:castle_reroll",
    "Both armies are eliminated": "battle:simultaneous_elimination",
    "is eliminated": "game:elimination",
    "saved by the crown": "game:saved_by_the_crown",
    "with tie-break": "game:tie_break",
    "share the win": "game:shared_win",
    "last king standing": "game:last_standing",
    "a castle in": "spend:castle",
}
ALL_FEATURES = sorted(set(ORDERS.values()) | set(BONUS.values()) | set(NOTE_FEATURES.values())
                      | {"tile:rome", "game:won", "spend:crown_card"})
# rare endings that bots seldom reach; shown when a searched game has them, not required
OPTIONAL_FEATURES = frozenset({"game:last_standing", "game:saved_by_the_crown", "game:shared_win"})
REQUIRED_FEATURES = sorted(set(ALL_FEATURES) - OPTIONAL_FEATURES)


def game_features(j: Judgement) -> set[str]:
    """The features of one judged game (from its events and the engine's notes)."""
    out: set[str] = set()
    for step in j.steps:
        if step.status not in ("ok", "claim"):
            continue
        if step.type in ORDERS:
            out.add(ORDERS[step.type])
        if step.type in BONUS:
            out.add(BONUS[step.type])
        for note in step.notes:
            for needle, feature in NOTE_FEATURES.items():
                if needle in note:
                    out.add(feature)
            if " spends " in note and "Crown Card" in note:
                out.add("spend:crown_card")
            if "Rome" in note and ("founds a kingdom at Rome" in note or "claims Rome" in note
                                   or "takes Rome" in note):
                out.add("tile:rome")
    if j.result is not None and j.result.winners:
        out.add("game:won")
    return out
