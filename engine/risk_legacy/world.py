"""The world of a Risk Legacy campaign: everything a game leaves on the board, the cards and the
faction cards for the games after it (cities, scars, fortifications, continent names and marks,
card resources and destroyed cards, the victors' signatures, the faction cards' records, what is
left in the box, the sealed packs whose opening condition was met).

A world is a plain document (pydantic models, JSON on disk and in each game's GameStarted) with a
stable digest. Everything here is pure: functions take a world and give a new one.

    pristine_world(data) -> World                    the box before the first game
    customize(world, data, powers, stickers) -> (problems, World)   "Before your first game"
    world_digest(world) -> str                       sha256 of its canonical JSON
"""

from __future__ import annotations

from typing import Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.errors import LedgerError
from engine.core.text import plural
from engine.risk_legacy.board import FACTIONS, POWER_IDS, GameData

Outcome = Literal["won", "held_on", "eliminated", "absent"]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CityMark(_Doc):
    kind: Literal["minor", "major", "capital"]
    name: str
    founder: str | None = Field(None, description="the person (player id) who founded it")
    game: NonNegativeInt = Field(0, description="the game at whose end it was founded")


class TerritoryMarks(_Doc):
    """The stickers on one territory."""

    city: CityMark | None = None
    scar: str | None = Field(None, description="bunker or ammo_shortage (more come with the packs)")
    scar_cancelled: NonNegativeInt = Field(0, description="cancel stickers placed over scars here")
    fortification: int | None = Field(None, ge=0, le=10, description="boxes marked on the city's "
                                      "Fortification (10: spent); null: never fortified")


class ContinentMarks(_Doc):
    name: str | None = None
    named_by: str | None = None
    modifier: Literal[-1, 0, 1] = 0


class Signature(_Doc):
    game: int = Field(ge=1)
    player: str
    faction: str | None = None
    slogan: str | None = None


class FactionGame(_Doc):
    """One line on the back of a faction card."""

    game: int = Field(ge=1)
    player: str | None = None
    territory: str | None = None
    outcome: Outcome


class PackOpening(_Doc):
    pack: str
    game: int = Field(ge=1)
    condition: str


class World(_Doc):
    """The campaign's world as one game starts it (see the module docstring)."""

    name: str | None = Field(None, description="the planet's name, given after the 15th game")
    games: NonNegativeInt = Field(0, description="games completed on this world")
    powers: dict[str, str | None] = Field(default_factory=dict, description="faction -> starting power id")
    territories: dict[str, TerritoryMarks] = Field(default_factory=dict, description="marked territories")
    continents: dict[str, ContinentMarks] = Field(default_factory=dict)
    resources: dict[str, int] = Field(default_factory=dict, description="territory card id -> resources (1-6)")
    destroyed: list[str] = Field(default_factory=list, description="destroyed territory cards")
    signatures: list[Signature] = Field(default_factory=list, description="the victors' section")
    factions: dict[str, list[FactionGame]] = Field(default_factory=dict, description="faction card records")
    supply: dict[str, int] = Field(default_factory=dict, description="marks, stickers and cards left in the box")
    packs: list[PackOpening] = Field(default_factory=list, description="sealed packs whose condition was met")
    trade_chart: dict[int, int] | None = Field(None, description="this campaign's trade chart (null: the data's)")


class WorldError(LedgerError, ValueError):
    """A world document that cannot be used (bad shape, unknown territory or card...)."""


# ---------------------------------------------------------------------------------------------
# reading, writing, digests
# ---------------------------------------------------------------------------------------------

def world_to_dict(w: World) -> dict:
    """The canonical JSON-able form: default entries are left out, lists in a stable order."""
    raw = w.model_dump(mode="json")
    blank_t = NO_MARKS.model_dump(mode="json")
    blank_c = NO_CONTINENT_MARKS.model_dump(mode="json")
    raw["territories"] = {t: {k: v for k, v in m.items() if v != blank_t[k]}
                          for t, m in sorted(raw["territories"].items()) if m != blank_t}
    raw["continents"] = {c: {k: v for k, v in m.items() if v != blank_c[k]}
                         for c, m in sorted(raw["continents"].items()) if m != blank_c}
    raw["destroyed"] = sorted(raw["destroyed"])
    return raw


def world_from_dict(raw: object) -> World:
    """A world from its JSON form; WorldError when it does not fit."""
    try:
        return World.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first.get("loc", ()))
        raise WorldError(f"world: {loc}: {first.get('msg', 'invalid')}") from exc


def world_digest(w: World) -> str:
    """sha256 of the world's canonical JSON: equal worlds give equal digests."""
    return sha256_hex(canonical_json(world_to_dict(w)))


def check_world(w: World, data: GameData) -> list[str]:
    """Problems with a world against the board: unknown names, impossible numbers."""
    out: list[str] = []
    for t in w.territories:
        if t not in data.names:
            out.append(f"world marks {t!r}, which is not a territory")
    for c in w.continents:
        if c not in data.continents:
            out.append(f"world names continent {c!r}, which is not on the board")
    cards = set(data.territory_of_card)
    for card, n in w.resources.items():
        if card not in cards:
            out.append(f"world gives resources to {card!r}, which is not a territory card")
        elif not 1 <= n <= data.inventory["max_resources"]:
            out.append(f"card {card} has {plural(n, 'resource')}; a territory card has 1 to {data.inventory['max_resources']}")
    for card in w.destroyed:
        if card not in cards:
            out.append(f"world destroys {card!r}, which is not a territory card")
        elif card in w.resources:
            out.append(f"card {card} is both destroyed and in the deck")
    missing = cards - set(w.resources) - set(w.destroyed)
    if missing:
        out.append(f"the world does not say what became of cards {', '.join(sorted(missing))}")
    for f, power in w.powers.items():
        if f not in POWER_IDS:
            out.append(f"unknown faction {f!r}")
        elif power is not None and power not in POWER_IDS[f]:
            out.append(f"{power!r} is not a starting power of {f} ({' or '.join(POWER_IDS[f])})")
    for k, v in w.supply.items():
        if v < 0:
            out.append(f"the box cannot hold {v} of {k}")
    return out


# ---------------------------------------------------------------------------------------------
# the box, and "Before your first game"
# ---------------------------------------------------------------------------------------------

def pristine_world(data: GameData) -> World:
    """The world as the box holds it: no marks, no names, one resource on every territory card,
    no starting powers chosen yet, everything in the box."""
    inv = data.inventory
    supply = {k: inv[k] for k in ("minor_city", "major_city", "fortification", "scar_cancel",
                                  "continent_plus", "continent_minus")}
    supply["first_game_coin_stickers"] = inv["first_game_coin_stickers"]
    for kind, n in data.scar_cards.items():
        supply[f"scar:{kind}"] = n
    return World(powers={f: None for f in FACTIONS},
                 resources={data.card_of[t]: 1 for t in data.territories},
                 supply=supply)


def customize(w: World, data: GameData, powers: Mapping[str, str | int],
              stickers: Mapping[str, int]) -> tuple[list[str], World]:
    """Before your first game: a starting power for each faction (the other is destroyed) and
    the 12 coin stickers on territory cards, no card above 3 resources (RL-CUSTOMIZE).

    `powers`: faction -> power id or 0/1; `stickers`: card (id or territory) -> stickers added.
    Returns the problems (empty when all is as the rulebook says) and the customized world.
    """
    problems: list[str] = []
    if w.games:
        problems.append(f"the world is customized before the first game; {plural(w.games, 'game')} {'was' if w.games == 1 else 'were'} played")
    chosen: dict[str, str | None] = dict(w.powers)
    for f in FACTIONS:
        if f not in powers:
            problems.append(f"{f} needs a starting power ({' or '.join(POWER_IDS[f])})")
    for f, p in powers.items():
        if f not in POWER_IDS:
            problems.append(f"unknown faction {f!r} (factions: {', '.join(FACTIONS)})")
            continue
        pid = POWER_IDS[f][p] if isinstance(p, int) and p in (0, 1) else p
        if pid not in POWER_IDS[f]:
            problems.append(f"{p!r} is not a starting power of {f} ({' or '.join(POWER_IDS[f])})")
            continue
        chosen[f] = pid
    resources = dict(w.resources)
    added = 0
    for name, n in stickers.items():
        card = data.resolve_card(name)
        if card is None or card == "coin":
            problems.append(f"{name!r} is not a territory card")
            continue
        resources[card] = resources.get(card, 1) + n
        added += n
    cap = data.inventory["max_resources_first_game"]
    for card, n in sorted(resources.items()):
        if n > cap:
            problems.append(f"card {card} would have {plural(n, 'resource')}; before the first game a card has at most {cap}")
    want = data.inventory["first_game_coin_stickers"]
    if added != want:
        problems.append(f"{added} coin stickers placed; the box has {want} and all are placed")
    supply = dict(w.supply)
    supply["first_game_coin_stickers"] = max(0, supply.get("first_game_coin_stickers", want) - added)
    return problems, w.model_copy(update={"powers": chosen, "resources": resources, "supply": supply})


# ---------------------------------------------------------------------------------------------
# questions about a world
# ---------------------------------------------------------------------------------------------

NO_MARKS = TerritoryMarks()
NO_CONTINENT_MARKS = ContinentMarks()


def marks(w: World, t: str) -> TerritoryMarks:
    return w.territories.get(t, NO_MARKS)


def continent_marks(w: World, c: str) -> ContinentMarks:
    return w.continents.get(c, NO_CONTINENT_MARKS)


def population(w: World, data: GameData, t: str) -> int:
    city = marks(w, t).city
    return 0 if city is None else data.population.get({"capital": "world_capital"}.get(city.kind, city.kind), 0)


FORTIFICATION_BOXES = 10
"""Boxes around a Fortification mark: each attack with 3 troops marks one (RL-FORTIFICATION)."""


def is_fortified(w: World, t: str) -> bool:
    """Does the city here have a Fortification with boxes left (RL-FORTIFICATION)?"""
    return fortification_boxes_left(w, t) > 0


def fortification_boxes_left(w: World, t: str) -> int:
    """The unmarked boxes of the city's Fortification here: the attacks with 3 troops it still
    gives its +1 to (0: not fortified, or spent)."""
    m = marks(w, t)
    if m.city is None or m.fortification is None:
        return 0
    return max(FORTIFICATION_BOXES - m.fortification, 0)


def is_unmarked_for_start(w: World, t: str) -> bool:
    """No scar and no city (a cancelled scar does not count: RL-RULING-CANCELLED-SCAR)."""
    m = marks(w, t)
    return m.city is None and m.scar is None


def signatures_of(w: World, person: str) -> int:
    return sum(1 for s in w.signatures if s.player == person)


def continent_bonus(w: World, data: GameData, c: str, person: str) -> int:
    """What controlling continent `c` gives `person`: the printed bonus, its +1/-1 mark, and +1
    for the person who named it."""
    m = continent_marks(w, c)
    return max(0, data.bonuses[c] + m.modifier + (1 if m.named_by == person else 0))


def trade_chart(w: World, data: GameData) -> Mapping[int, int]:
    return w.trade_chart if w.trade_chart is not None else data.trade_chart


def card_resources(w: World, card: str) -> int:
    return 1 if card == "coin" else w.resources.get(card, 1)


def pack_opened(w: World, pack: str) -> bool:
    return any(p.pack == pack for p in w.packs)


# ---------------------------------------------------------------------------------------------
# changes (each gives a new world)
# ---------------------------------------------------------------------------------------------

def with_marks(w: World, t: str, **changes) -> World:
    territories = dict(w.territories)
    territories[t] = marks(w, t).model_copy(update=changes)
    return w.model_copy(update={"territories": territories})


def with_continent(w: World, c: str, **changes) -> World:
    continents = dict(w.continents)
    continents[c] = continent_marks(w, c).model_copy(update=changes)
    return w.model_copy(update={"continents": continents})


def with_supply(w: World, item: str, delta: int) -> World:
    supply = dict(w.supply)
    supply[item] = supply.get(item, 0) + delta
    return w.model_copy(update={"supply": supply})


def with_pack(w: World, pack: str, game: int, condition: str) -> World:
    return w.model_copy(update={"packs": [*w.packs, PackOpening(pack=pack, game=game, condition=condition)]})
