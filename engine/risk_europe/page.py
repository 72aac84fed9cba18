"""The page of one Risk Europe game, as plain data (engine.core.page): the board after each kingdom
placed, each turn and each battle on a map of Europe, and the crown race, coins, army and
territories of each player by round.

    spec = page(game, data)        # RULESET.page: a PageSpec that analytics/game_page.py draws

Territories stand at approximate real-world positions (data/territory_coords.json), named, sized
by army with the number of units on them; castles are squares, a city is a gold or a black star
beside its territory, a disputed territory is ringed in the attacker's colour; land borders are
grey lines, sea-lines dashed blue. A territory of a corrected board that the coordinates file
does not place is left off the map, and the page names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.charts import Threshold
from engine.core.data import loaded_once, read_data_file
from engine.core.page import (
    Badge, BadgeKind, BoardMap, Frame, Lines, MapArea, Mark, PageGame, PageSpec, Races,
)
from engine.risk_europe.board import GameData, default_data

WIN_CROWNS = 7
ORDER_EVENTS = {"Expanded": "expand", "SplitExpanded": "split expand", "Maneuvered": "maneuver",
                "Taxed": "tax", "Spent": "spend", "Fortified": "fortify",
                "SiegeAssaulted": "siege assault"}
# cut from the world's base map: the Europe one leaves North Africa and Anatolia unfilled
EUROPE = MapArea("world", lat=(31, 66), lon=(-13, 38), centre_lon=12,
                 projection="conic conformal", parallels=(38, 62))
CITY_BADGES = {True: BadgeKind("gold city", "city, gold crown", "star", "#d4a017"),
               False: BadgeKind("black city", "city, black crown", "star", "#222222")}
ROUNDS_AXIS = "end of round (0: kingdoms placed)"


@dataclass
class BoardFrame:
    """The board after a kingdom placed, a turn or a battle (the ruleset's board view), and a
    label saying what happened."""

    label: str
    view: Mapping[str, Any]


def _read_coords() -> dict[str, tuple[float, float]]:
    raw = read_data_file("engine.risk_europe", "territory_coords.json")[0]
    return {t: (c["lat"], c["lon"]) for t, c in raw["territories"].items()}


territory_coords = loaded_once(_read_coords)
territory_coords.__doc__ = "(lat, lon) of each territory, from data/territory_coords.json."


def board_frames(game: PageGame) -> list[BoardFrame]:
    """The board after each kingdom placed, each turn and each battle, with a label saying what
    happened ("Round 2, turn 1: blue reveals expand-maneuver-fortify-2 · expand · fortify")."""
    frames: list[BoardFrame] = []
    for step in game.steps:
        if step.view is None:
            continue
        r = step.position[1]
        if step.applied and step.type == "KingdomPlaced":
            frames.append(BoardFrame(f"Setup: {step.actor} places a kingdom"
                                     f" at {step.payload.get('city', '?')}", step.view))
            continue
        if step.applied and step.type == "CardRevealed":
            frames.append(BoardFrame(f"Round {r}, turn {step.position[2]}: {step.actor} reveals "
                                     f"{step.payload.get('card', '?')}", step.view))
            continue
        if step.applied and step.type == "BattleStarted":
            frames.append(BoardFrame(f"Round {r}: battle for "
                                     f"{step.payload.get('territory', '?')}", step.view))
            continue
        if not frames:
            continue
        if step.applied and step.type in ORDER_EVENTS:
            frames[-1].label += f" · {ORDER_EVENTS[step.type]}"
        frames[-1].view = step.view
    return frames


def _units(units: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in units.items())


def marks(view: Mapping[str, Any], data: GameData) -> tuple[Mark, ...]:
    """Every territory of the board on one board view, in the board's order."""
    board = view.get("board", {})
    out = []
    for t in data.territories:
        entry = board.get(t, {})
        owner = entry.get("owner")
        castle = " · castle" if entry.get("castle") else ""
        lines = [f"{owner or 'unclaimed'}: {_units(entry.get('units', {})) or 'no units'}{castle}"]
        attacker = entry.get("attacker")
        if attacker:
            lines.append(f"attacked by {attacker}: "
                         f"{_units(entry.get('attacker_units', {})) or 'no units'}")
        city = data.cities.get(t)
        out.append(Mark(t, owner, sum(entry.get("units", {}).values()),
                        "square" if entry.get("castle") else "circle", attacker,
                        f"({entry['city']})" if entry.get("city") else "", tuple(lines),
                        (Badge(CITY_BADGES[city.gold].key, text=city.name),) if city else ()))
    return tuple(out)


def board_map(data: GameData) -> BoardMap:
    """Where the territories are, the borders between them, and the kinds of city; a territory
    the coordinates file does not place is `unplaced` (a corrected board's new territory)."""
    coords = territory_coords()
    placed = [t for t in data.territories if t in coords]
    land, sea = [], []
    for a in placed:
        for b in sorted(data.neighbours[a]):
            if b > a and b in coords:
                (land if b in data.land_neighbours[a] else sea).append((a, b))
    return BoardMap(
        EUROPE, {t: coords[t] for t in placed},
        lines=(Lines("land border", tuple(land), "#8a8a8a", 1),
               Lines("sea-line", tuple(sea), "#3b7dd8", 1.5, dashed=True)),
        badges=tuple(CITY_BADGES.values()),
        caption="territories at approximate positions",
        unplaced=tuple(t for t in data.territories if t not in coords))


def _army(view: Mapping[str, Any], p: str) -> int:
    total = 0
    for entry in view.get("board", {}).values():
        if entry.get("owner") == p:
            total += sum(entry.get("units", {}).values())
        if entry.get("attacker") == p:
            total += sum(entry.get("attacker_units", {}).values())
    return total


def page(game: PageGame, data: GameData | None = None) -> PageSpec:
    """RULESET.page: the boards on the map and the races by round. ValueError when no kingdom
    was placed."""
    data = default_data() if data is None else data
    frames = board_frames(game)
    if not frames:
        raise ValueError("no kingdom was placed: there is no board to draw")
    races = Races.of(game, ROUNDS_AXIS)
    charts = (
        races.race("crown-race", f"The crown race ({{rounds}}; {WIN_CROWNS} crowns win)", "crowns",
                   lambda v, p: v["players"][p]["crowns"],
                   Threshold(WIN_CROWNS, f"{WIN_CROWNS} crowns win")),
        races.race("coins", "Coins at the end of each round ({rounds})", "coins",
                   lambda v, p: v["players"][p]["coins"]),
        races.race("army", "Army on the board ({rounds})", "units", _army),
        races.race("territories", "Territories held ({rounds})", "territories",
                   lambda v, p: v["players"][p]["territories"]),
    )
    return PageSpec(
        frames=tuple(Frame(f.label, marks(f.view, data)) for f in frames), rounds=races.rounds,
        charts=charts, map=board_map(data),
        about="Territories are drawn at approximate real-world positions with the units on them; "
              "squares are castles, stars cities (gold or black crown), a thick ring the "
              "attacker of a disputed territory.")
