"""The Risk Legacy board and rule tables, loaded from data files (the user may supply corrected
ones). Pure data: territories, continents, borders, territory cards, the trade chart, scars,
starting powers, the box's inventory and the sealed packs' opening conditions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from engine.core.data import borders, loaded_once, read_data_file

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


class BoardDataError(ValueError):
    """A board or rules file that cannot be used (unknown territory in a border, missing field...)."""


def _read_json(path: str | Path | None, default_name: str) -> tuple[dict, str]:
    return read_data_file("engine.risk_legacy", default_name, path)


def load_data(board_path: str | Path | None = None, rules_path: str | Path | None = None) -> GameData:
    """Load the world board and the rule tables: the shipped copies, or corrected files."""
    board, board_digest = _read_json(board_path, "board.json")
    rules, rules_digest = _read_json(rules_path, "rules_data.json")
    try:
        territories = tuple(t["id"] for t in board["territories"])
        names = {t["id"]: t["name"] for t in board["territories"]}
        known = set(territories)
        continent_of = {t["id"]: t["continent"] for t in board["territories"]}
        continents = {c["id"]: tuple(c["territories"]) for c in board["continents"]}
        for c, ts in continents.items():
            for t in ts:
                if t not in known:
                    raise BoardDataError(f"continent {c!r} names {t!r}, which is not a territory")
        nb, _ = borders(territories, board["borders"], BoardDataError)
        sea_lines = frozenset(frozenset((b["a"], b["b"])) for b in board["borders"]
                              if b.get("sea_line"))
        card_of = {t["id"]: t["card_id"] for t in board["territories"]}
        chart = {int(k): int(v) for k, v in rules["resource_trade_chart"]["resources_to_troops"].items()}
        scars = {k: int(v["cards"]) for k, v in rules["scars_available_at_start"].items()}
        powers = {f: tuple(p) for f, p in rules["starting_powers"].items()}
        if set(powers) != set(FACTIONS) or any(len(p) != 2 for p in powers.values()):
            raise BoardDataError(f"starting powers must give two powers for each of {', '.join(FACTIONS)}")
        inv = rules["inventory"]
        inventory = {
            "territory_cards": int(inv["territory_cards"]), "coin_cards": int(inv["coin_cards"]),
            "first_game_coin_stickers": int(inv["first_game_coin_stickers"]),
            "max_resources": int(inv["max_resources_per_territory_card"]),
            "max_resources_first_game": int(inv["max_resources_before_first_game"]),
            "minor_city": int(inv["minor_cities"]), "major_city": int(inv["major_cities"]),
            "fortification": int(inv["fortifications"]), "scar_cancel": int(inv["scar_cancel_stickers"]),
            "continent_plus": int(inv["continent_marks"]["+1"]),
            "continent_minus": int(inv["continent_marks"]["-1"]),
            "reward_games": int(inv["campaign_games_with_rewards"]),
        }
        packs = {k: v for k, v in rules["sealed_packs"].items() if k != "note"}
        population = {k: int(v) for k, v in rules["city_population"].items()}
        starting = int(rules["starting_troops"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise BoardDataError(f"board or rules file is missing a field: {exc}") from exc
    aliases: dict[str, Territory] = {}
    for t in board["territories"]:
        for key in (t["id"], t["name"], t.get("classic_name"), t["card_id"]):
            if key:
                aliases.setdefault(key.casefold().replace(" ", "_"), t["id"])
    return GameData(
        territories=territories,
        names=names,
        continent_of=continent_of,
        continents=continents,
        continent_names={c["id"]: c["name"] for c in board["continents"]},
        bonuses={c["id"]: int(c["bonus"]) for c in board["continents"]},
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
