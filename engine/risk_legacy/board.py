"""The Risk Legacy board and rule tables, loaded from data files (the user may supply corrected
ones). Pure data: territories, continents, borders, territory cards, the trade chart, scars,
starting powers, the box's inventory and the sealed packs' opening conditions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from engine.core.data import DataShapeError, Shape, borders, data_file_label, loaded_once, read_data_file

Territory = str
Continent = str
CardId = str
Faction = str

COIN = "coin"
"""A Coin card in a hand or a payload (Coin cards are all alike)."""

FACTIONS: tuple[Faction, ...] = ("die_mechaniker", "enclave_of_the_bear", "imperial_balkania",
                                 "khan_industries", "saharan_republic")
FACTION_NAMES = {"die_mechaniker": "Die Mechaniker", "enclave_of_the_bear": "Enclave of the Bear",
                 "imperial_balkania": "Imperial Balkania", "khan_industries": "Khan Industries",
                 "saharan_republic": "The Saharan Republic"}

# The ten starting powers: two per faction, in the order of rules_data.json's "starting_powers".
POWER_IDS: Mapping[Faction, tuple[str, str]] = {
    "die_mechaniker": ("mech-fortified-hq", "mech-double-sixes"),
    "enclave_of_the_bear": ("bear-first-strike", "bear-three-of-a-kind"),
    "imperial_balkania": ("balk-round-up", "balk-expansion-card"),
    "khan_industries": ("khan-hq-reinforcement", "khan-card-troop"),
    "saharan_republic": ("sahara-maneuver-anytime", "sahara-maneuver-anywhere"),
}

# How each scar of the box changes the defender's dice: (which die, by how much).
SCAR_EFFECTS: Mapping[str, tuple[str, int]] = {"bunker": ("higher", +1), "ammo_shortage": ("higher", -1)}


@dataclass(frozen=True)
class GameData:
    """The board and rule tables one game is judged with, and their digests."""

    territories: tuple[Territory, ...]
    names: Mapping[Territory, str]
    continent_of: Mapping[Territory, Continent]
    continents: Mapping[Continent, tuple[Territory, ...]]
    continent_names: Mapping[Continent, str]
    bonuses: Mapping[Continent, int]
    neighbours: Mapping[Territory, frozenset[Territory]]
    card_of: Mapping[Territory, CardId]
    territory_of_card: Mapping[CardId, Territory]
    trade_chart: Mapping[int, int]
    scar_cards: Mapping[str, int]               # scar kind -> cards in the box
    powers: Mapping[Faction, tuple[str, str]]    # faction -> its two starting power texts
    starting_troops: int
    population: Mapping[str, int]                # city kind -> population
    inventory: Mapping[str, int]
    packs: Mapping[str, str]                     # pack -> opening condition (text)
    board_digest: str
    rules_digest: str
    aliases: Mapping[str, Territory] = field(default_factory=dict)
    sea_lines: frozenset[frozenset[Territory]] = frozenset()     # borders drawn as sea-lines

    def resolve(self, name: object) -> Territory | None:
        """The territory a name refers to: its id, printed name, classic name or card id, any case."""
        if not isinstance(name, str):
            return None
        return self.aliases.get(name.casefold().replace(" ", "_"))

    def resolve_card(self, name: object) -> CardId | None:
        """The card a payload names: "coin", a card id ("A12"), or a territory (its card)."""
        if not isinstance(name, str):
            return None
        if name.casefold() == COIN:
            return COIN
        t = self.resolve(name)
        return None if t is None else self.card_of[t]

    def is_adjacent(self, a: Territory, b: Territory) -> bool:
        return b in self.neighbours[a]

    def power_id(self, faction: Faction, index: int) -> str:
        return POWER_IDS[faction][index]

    def power_text(self, power: str) -> str:
        for faction, ids in POWER_IDS.items():
            if power in ids:
                return self.powers[faction][ids.index(power)]
        return power


def _read_json(path: str | Path | None, default_name: str) -> tuple[dict, str]:
    return read_data_file("engine.risk_legacy", default_name, path)


def load_data(board_path: str | Path | None = None, rules_path: str | Path | None = None) -> GameData:
    """Load the world board and the rule tables: the shipped copies, or corrected files. A file of
    the wrong shape is a DataShapeError (a ValueError) naming the file, the key and what is wrong."""
    board_raw, board_digest = _read_json(board_path, "board.json")
    rules_raw, rules_digest = _read_json(rules_path, "rules_data.json")
    board = Shape(board_raw, data_file_label(board_path, "board.json"))
    rules = Shape(rules_raw, data_file_label(rules_path, "rules_data.json"))
    names: dict[Territory, str] = {}
    continent_of: dict[Territory, str] = {}
    card_of: dict[Territory, str] = {}
    aliases: dict[str, Territory] = {}
    board.only(("board", "title", "provenance", "continents", "territories", "borders"))
    for t in board["territories"].list():
        tid = t.only(("id", "name", "continent", "card_id", "classic_name"))["id"].str()
        if tid in names:
            raise t["id"].fail("a territory id not used before")
        names[tid] = t["name"].str()
        continent_of[tid] = t["continent"].str()
        card_of[tid] = t["card_id"].str()
        for key in (tid, names[tid], t.get("classic_name").optional_str(), card_of[tid]):
            if key:
                aliases.setdefault(key.casefold().replace(" ", "_"), tid)
    territories = tuple(names)
    continents: dict[str, tuple[Territory, ...]] = {}
    continent_names: dict[str, str] = {}
    bonuses: dict[str, int] = {}
    for c in board["continents"].list():
        cid = c.only(("id", "name", "bonus", "territories"))["id"].str()
        members = c["territories"].list()
        for m in members:
            if m.value not in names:
                raise m.fail("a territory id of the board")
        continents[cid] = tuple(m.value for m in members)
        continent_names[cid] = c["name"].str()
        bonuses[cid] = c["bonus"].int()
    nb, _ = borders(territories, board["borders"].list(), "a territory id of the board")
    sea_lines = frozenset(frozenset((e["a"].str(), e["b"].str())) for e in board["borders"].list()
                          if e.only(("a", "b", "sea_line")).get("sea_line", False).bool())
    chart = {}
    for k, v in rules["resource_trade_chart"]["resources_to_troops"].items():
        if not k.isdigit():
            raise DataShapeError(f"{rules.file}: resource_trade_chart.resources_to_troops: "
                                 f"the key {k!r} is not a number of resources")
        chart[int(k)] = v.int()
    scars = {k: v["cards"].int() for k, v in rules["scars_available_at_start"].items()}
    powers: dict[str, tuple[str, ...]] = {}
    for f, p in rules["starting_powers"].items():
        if len(p.list()) != 2:
            raise p.fail("a list of two powers")
        powers[f] = tuple(x.str() for x in p.list())
    if set(powers) != set(FACTIONS):
        raise DataShapeError(f"{rules.file}: starting_powers: expected two powers for each of "
                             f"{', '.join(FACTIONS)}, found {', '.join(powers) or 'none'}")
    inv = rules["inventory"]
    inventory = {
        "territory_cards": inv["territory_cards"].int(), "coin_cards": inv["coin_cards"].int(),
        "first_game_coin_stickers": inv["first_game_coin_stickers"].int(),
        "max_resources": inv["max_resources_per_territory_card"].int(),
        "max_resources_first_game": inv["max_resources_before_first_game"].int(),
        "minor_city": inv["minor_cities"].int(), "major_city": inv["major_cities"].int(),
        "fortification": inv["fortifications"].int(), "scar_cancel": inv["scar_cancel_stickers"].int(),
        "continent_plus": inv["continent_marks"]["+1"].int(),
        "continent_minus": inv["continent_marks"]["-1"].int(),
        "reward_games": inv["campaign_games_with_rewards"].int(),
    }
    packs = {k: v.value for k, v in rules["sealed_packs"].items() if k != "note"}
    population = {k: v.int() for k, v in rules["city_population"].items()}
    starting = rules["starting_troops"].int()
    return GameData(
        territories=territories,
        names=names,
        continent_of=continent_of,
        continents=continents,
        continent_names=continent_names,
        bonuses=bonuses,
        neighbours={t: frozenset(v) for t, v in nb.items()},
        card_of=card_of,
        territory_of_card={c: t for t, c in card_of.items()},
        trade_chart=chart,
        scar_cards=scars,
        powers=powers,
        starting_troops=starting,
        population=population,
        inventory=inventory,
        packs=packs,
        board_digest=board_digest,
        rules_digest=rules_digest,
        aliases=aliases,
        sea_lines=sea_lines,
    )


default_data = loaded_once(load_data)
