"""The Risk Europe board and King's Orders deck, loaded from data files (the user may supply
corrected ones). Pure data: territories, cities, borders (land and sea-lines), the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Mapping

from engine.core.data import borders, loaded_once, read_data_file
from engine.risk_europe.missions import MissionBook, parse_missions

Territory = str
TEMPLATE_MISSION_IDS = tuple(f"mission-{i}" for i in range(1, 9))
MISSIONS_TEMPLATE = "kingdom_missions.template.json"
MISSIONS_EXAMPLE = "kingdom_missions.example.json"


def shipped_file(name: str) -> Path:
    """The path of a data file shipped with the engine (e.g. MISSIONS_TEMPLATE)."""
    return Path(str(resources.files("engine.risk_europe").joinpath("data").joinpath(name)))

UNIT_TYPES = ("footman", "archer", "cavalry", "siege")


@dataclass(frozen=True, slots=True)
class City:
    name: str
    tax: int
    gold: bool
    crowns: int


@dataclass(frozen=True)
class Card:
    id: str
    orders: tuple[str, str]
    bonus: str | None


@dataclass(frozen=True)
class GameData:
    """Board and cards one game is judged with, and their digests."""

    territories: tuple[Territory, ...]
    cities: Mapping[Territory, City]
    neighbours: Mapping[Territory, frozenset[Territory]]        # land borders and sea-lines
    land_neighbours: Mapping[Territory, frozenset[Territory]]   # land borders only
    cards: Mapping[str, Card]
    supply: Mapping[str, int]                                   # army reserve per unit type
    castles: int                                                # castles in the box
    crown_cards: int                                            # Crown Cards in the box
    board_digest: str
    cards_digest: str
    aliases: Mapping[str, Territory] = field(default_factory=dict)
    missions: "MissionBook | None" = None                        # Kingdom Missions file, if given

    @property
    def mission_ids(self) -> tuple[str, ...]:
        """The Crown Cards' mission ids: the loaded file's, else the template's eight slots."""
        return self.missions.ids if self.missions is not None else TEMPLATE_MISSION_IDS

    def resolve(self, name: object) -> Territory | None:
        """The territory a name refers to: a territory name or a city name, any letter case."""
        if not isinstance(name, str):
            return None
        return self.aliases.get(name.casefold())

    def is_adjacent(self, a: Territory, b: Territory) -> bool:
        return b in self.neighbours[a]

    def city_territory_of(self, city_name: str) -> Territory:
        for territory, city in self.cities.items():
            if city.name == city_name:
                return territory
        raise KeyError(city_name)

    @property
    def gold_cities(self) -> tuple[Territory, ...]:
        return tuple(t for t, c in self.cities.items() if c.gold)


def _read_json(path: str | Path | None, default_name: str) -> tuple[dict, str]:
    return read_data_file("engine.risk_europe", default_name, path)


class BoardDataError(ValueError):
    """A board or card file that cannot be used (unknown territory in a border, bad field...)."""


def load_data(board_path: str | Path | None = None, cards_path: str | Path | None = None,
              missions_path: str | Path | None = None) -> GameData:
    """Load the board and the King's Orders deck (the shipped copies, or corrected files) and,
    when given, a Kingdom Missions file (engine/risk_europe/missions.py; without one, mission
    completions are judged as unverified claims)."""
    board, board_digest = _read_json(board_path, "board.json")
    deck, cards_digest = _read_json(cards_path, "kings_orders.json")
    try:
        territories = tuple(t["name"] for t in board["territories"])
        cities: dict[Territory, City] = {}
        for t in board["territories"]:
            c = t.get("city")
            if c:
                cities[t["name"]] = City(c["name"], int(c["tax"]), c["crown"] == "gold", int(c.get("crowns", 1)))
        nb, land = borders(territories, board["edges"], BoardDataError,
                           keep=lambda e: e.get("kind", "land") == "land")
        cards = {c["id"]: Card(c["id"], tuple(c["orders"]), c.get("bonus")) for c in deck["cards"]}
        supply = dict(deck["supply_per_army"])
        supply["siege"] = supply.pop("siege_weapon")
        shared = deck["shared_supply"]
    except (KeyError, TypeError) as exc:
        raise BoardDataError(f"board or card file is missing a field: {exc}") from exc
    aliases: dict[str, Territory] = {}
    for t in territories:
        aliases[t.casefold()] = t
    for t, c in cities.items():
        aliases.setdefault(c.name.casefold(), t)
    missions = None
    if missions_path is not None:
        raw, digest = _read_json(Path(missions_path), "")
        missions = parse_missions(raw, digest, aliases)
    return GameData(
        territories=territories,
        cities=cities,
        neighbours={t: frozenset(v) for t, v in nb.items()},
        land_neighbours={t: frozenset(v) for t, v in land.items()},
        cards=cards,
        supply=supply,
        castles=int(shared["castle"]),
        crown_cards=int(shared["crown_card"]),
        board_digest=board_digest,
        cards_digest=cards_digest,
        aliases=aliases,
        missions=missions,
    )


default_data = loaded_once(load_data)
