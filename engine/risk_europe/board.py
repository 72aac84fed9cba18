"""The Risk Europe board and King's Orders deck, loaded from data files (the user may supply
corrected ones). Pure data: territories, cities, borders (land and sea-lines), the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Mapping

from engine.core.data import Shape, borders, data_file_label, loaded_once, read_data_file
from engine.risk_europe.missions import MissionBook, MissionDataError, parse_missions

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


# The keys a board and a card file may have (anything else is a DataShapeError naming it, so that
# a misspelt optional key, an edge's "kidn", is not read as the key left out)
BOARD_KEYS = ("title", "board", "provenance", "territories", "edges", "left_out_edges")
EDGE_KEYS = ("a", "b", "kind", "sources", "note")
CARDS_KEYS = ("provenance", "deck", "cards", "supply_per_army", "shared_supply", "kingdom_missions")


def load_data(board_path: str | Path | None = None, cards_path: str | Path | None = None,
              missions_path: str | Path | None = None) -> GameData:
    """Load the board and the King's Orders deck (the shipped copies, or corrected files) and,
    when given, a Kingdom Missions file (engine/risk_europe/missions.py; without one, mission
    completions are judged as unverified claims). A file of the wrong shape is a DataShapeError
    (a ValueError) naming the file, the key and what is wrong."""
    board_raw, board_digest = _read_json(board_path, "board.json")
    deck_raw, cards_digest = _read_json(cards_path, "kings_orders.json")
    board = Shape(board_raw, data_file_label(board_path, "board.json"))
    deck = Shape(deck_raw, data_file_label(cards_path, "kings_orders.json"))
    board.only(BOARD_KEYS)
    deck.only(CARDS_KEYS)
    names: list[Territory] = []
    cities: dict[Territory, City] = {}
    for t in board["territories"].list():
        name = t.only(("name", "city"))["name"].str()
        if name in names:
            raise t["name"].fail("a territory name not used before")
        names.append(name)
        c = t.get("city")
        if c.value:
            c.only(("name", "tax", "crown", "crowns"))
            cities[name] = City(c["name"].str(), c["tax"].int(), c["crown"].one_of(("gold", "black")) == "gold",
                                c.get("crowns", 1).int())
    territories = tuple(names)
    nb, land = borders(territories, board["edges"].list(), "a territory on the board (in \"territories\")",
                       keep=lambda e: e.only(EDGE_KEYS).get("kind", "land").one_of(("land", "sea")) == "land")
    cards: dict[str, Card] = {}
    for c in deck["cards"].list():
        card_id = c.only(("id", "orders", "bonus"))["id"].str()
        orders = c["orders"].list()
        if len(orders) != 2:
            raise c["orders"].fail("a list of 2 order names")
        cards[card_id] = Card(card_id, (orders[0].str(), orders[1].str()),
                              c.get("bonus").optional_str())
    per_army = deck["supply_per_army"]
    supply = {unit: n.int() for unit, n in per_army.items()}
    supply["siege"] = per_army["siege_weapon"].int()
    del supply["siege_weapon"]
    shared = deck["shared_supply"]
    aliases: dict[str, Territory] = {}
    for territory in territories:
        aliases[territory.casefold()] = territory
    for territory, city in cities.items():
        aliases.setdefault(city.name.casefold(), territory)
    missions = None
    if missions_path is not None:
        raw, digest = _read_json(Path(missions_path), "")
        try:
            missions = parse_missions(raw, digest, aliases)
        except MissionDataError as exc:
            raise MissionDataError(f"{missions_path}: {exc}") from exc
    return GameData(
        territories=territories,
        cities=cities,
        neighbours={t: frozenset(v) for t, v in nb.items()},
        land_neighbours={t: frozenset(v) for t, v in land.items()},
        cards=cards,
        supply=supply,
        castles=shared["castle"].int(),
        crown_cards=shared["crown_card"].int(),
        board_digest=board_digest,
        cards_digest=cards_digest,
        aliases=aliases,
        missions=missions,
    )


default_data = loaded_once(load_data)
