"""What a judged Risk Europe game shows, as named features: the orders and bonus actions played,
the City Bonus Tiles that took effect, the battle ranks fought, castle re-rolls, eliminations and
the ways a game is won (RULESET.features, RULESET.feature_catalogue).

Used to pick sample games that between them show every part of the rules
(sample_logs/make_samples.py, tests/test_samples.py). What an event type or the result tells is
read from them; what only the engine's narration says (a tile's effect, a battle rank) is read
from the notes this package writes (engine/risk_europe/battles.py, orders.py, rounds.py)."""

from __future__ import annotations

from typing import Iterable

from engine.core.ruleset import Feature, GameResult

ORDERS = {"Expanded": "order:expand", "SplitExpanded": "order:split_expand", "Maneuvered": "order:maneuver",
          "Taxed": "order:tax", "Spent": "order:spend"}
BONUS = {"Fortified": "bonus:fortify", "SiegeAssaulted": "bonus:siege_assault"}
EVENTS = {**ORDERS, **BONUS, "DiceRerolled": "battle:castle_reroll"}

# the start of a note the engine writes when the feature takes effect -> the feature
NOTES = {
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
    "Both armies are eliminated": "battle:simultaneous_elimination",
    "is eliminated": "game:elimination",
    "saved by the crown": "game:saved_by_the_crown",
    "share the win": "game:shared_win",
    "a castle in": "spend:castle",
}

CATALOGUE = (
    Feature("order:expand", "an Expand order"),
    Feature("order:split_expand", "a Split Expand order"),
    Feature("order:maneuver", "a Maneuver order"),
    Feature("order:tax", "a Tax order"),
    Feature("order:spend", "a Spend order"),
    Feature("bonus:fortify", "the Fortify bonus action"),
    Feature("bonus:siege_assault", "the Siege Assault bonus action"),
    Feature("bonus:king_me", "the King Me bonus action: the First Player Marker taken"),
    Feature("tile:stockholm", "the Stockholm City Bonus Tile"),
    Feature("tile:berlin_maneuver", "the Berlin tile's free maneuver"),
    Feature("tile:berlin_castle", "the Berlin tile's castle"),
    Feature("tile:constantinople", "the Constantinople City Bonus Tile"),
    Feature("tile:kiev", "the Kiev City Bonus Tile"),
    Feature("tile:london", "the London City Bonus Tile"),
    Feature("tile:paris", "the Paris City Bonus Tile"),
    Feature("tile:madrid", "the Madrid City Bonus Tile"),
    Feature("tile:rome", "Rome founded, claimed or taken"),
    Feature("battle:rank1", "a rank 1 siege attack"),
    Feature("battle:rank2", "a rank 2 archer volley"),
    Feature("battle:rank3", "a rank 3 cavalry charge"),
    Feature("battle:rank4", "a rank 4 general attack"),
    Feature("battle:castle_reroll", "a castle defender's re-roll"),
    Feature("battle:simultaneous_elimination", "both armies of a battle eliminated at once"),
    Feature("spend:castle", "a castle bought"),
    Feature("spend:crown_card", "a Crown Card bought"),
    Feature("game:elimination", "a player eliminated"),
    Feature("game:won", "a game won"),
    Feature("game:tie_break", "a win decided by the tie-break"),
    # rare endings that bots seldom reach: shown when a game has them, not required of the samples
    Feature("game:saved_by_the_crown", "a player without a city saved by a Crown Card", required=False),
    Feature("game:shared_win", "a win shared after a tie-break that settles nothing", required=False),
    Feature("game:last_standing", "the last king standing wins", required=False),
)


def features(events: Iterable[tuple[str, tuple[str, ...]]], result: GameResult | None) -> set[str]:
    """The features of a game: (type, notes) of every event the rules accepted, and the result."""
    out: set[str] = set()
    for type_, notes in events:
        if type_ in EVENTS:
            out.add(EVENTS[type_])
        for note in notes:
            for needle, feature in NOTES.items():
                if needle in note:
                    out.add(feature)
            if " spends " in note and "Crown Card" in note:
                out.add("spend:crown_card")
            if "Rome" in note and ("founds a kingdom at Rome" in note or "claims Rome" in note
                                   or "takes Rome" in note):
                out.add("tile:rome")
    if result is not None and result.winners:
        out.add("game:won")
        if result.reason == "crowns with tie-break":
            out.add("game:tie_break")
        if result.reason == "last player standing":
            out.add("game:last_standing")
    return out
