"""The Risk Europe rule tables that are numbers (costs, battle dice and hits, Siege Assault and
Fortify, starting coins, the City Bonus Tiles' amounts), read from the shipped
data/rule_tables.json through the data loader (engine.core.data: its errors name the file and the
key) with their provenance: each table names its rulebook section and the rule ids that apply it.

The file is the ruleset's own, not a game's data: it is not part of a game's data digest (which
covers the board and cards a user may correct, so every stored digest stays as it was), and a
user cannot swap it. Its digest, RULE_TABLES_DIGEST, is pinned by tests/test_rule_tables.py: a
change of these numbers is a change of the rules. Loaded once, when the engine is imported."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.data import DataShapeError, Shape, read_data_file
from engine.risk_europe.state import Units

FILE = "rule_tables.json"
SCHEMA = "ledger.risk_europe.rule_tables/1"
UNIT_KINDS = ("footman", "archer", "cavalry", "siege")
COST_KINDS = (*UNIT_KINDS, "castle", "crown_card")


@dataclass(frozen=True)
class Rank:
    """One rank of the Ranked Attack Order: the unit that rolls, its dice per unit, the least
    face that hits."""
    rank: int
    unit: str
    dice_per_unit: int
    hits_on: int
    name: str


@dataclass(frozen=True)
class RuleTables:
    costs: dict[str, int]
    ranks: tuple[Rank, ...]
    general_rank: int
    general_dice: tuple[int, int]          # (attacker, defender): the most dice each side rolls
    general_name: str
    siege_dice_per_siege: int
    siege_hits_on: int
    fortify_footmen: tuple[int, int]       # (in a city territory, in a castle territory)
    starting_coins: int
    stockholm_coins: int
    berlin_castle_discount: int
    constantinople_footmen: int
    tax_tile_units: dict[str, Units]
    sections: dict[str, tuple[str, tuple[str, ...]]]   # table -> (rulebook section, rule ids)
    digest: str


def _count(v: Shape) -> int:
    n = v.int()
    if n < 0:
        raise v.fail("a whole number, 0 or more")
    return n


def _face(v: Shape) -> int:
    n = v.int()
    if not 1 <= n <= 6:
        raise v.fail("a die face, 1 to 6")
    return n


def parse(raw: dict, digest: str, label: str = FILE) -> RuleTables:
    """The tables of a rule-tables file's JSON; DataShapeError naming the file and key."""
    top = Shape(raw, label)
    if top["schema"].str() != SCHEMA:
        raise top["schema"].fail(repr(SCHEMA))
    costs_t = top["costs"]
    costs = {k: _count(costs_t["coins"][k]) for k in COST_KINDS}
    ranks_t = top["ranks"]
    ranks = tuple(Rank(_count(r["rank"]), r["unit"].one_of(UNIT_KINDS), _count(r["dice_per_unit"]),
                       _face(r["hits_on"]), r["name"].str()) for r in ranks_t["ranked"].list())
    if [r.rank for r in ranks] != list(range(1, len(ranks) + 1)):
        raise ranks_t["ranked"].fail("ranks 1, 2, 3, ... in order")
    general = ranks_t["general"]
    general_rank = _count(general["rank"])
    if general_rank != len(ranks) + 1:
        raise general["rank"].fail(f"the rank after the last ranked one ({len(ranks) + 1})")
    siege, fortify, setup, tiles = top["siege_assault"], top["fortify"], top["setup"], top["tiles"]
    tax_units = {}
    for city, units in tiles["tax_units"].items():
        given = {}
        for kind, n in units.items():
            if kind not in UNIT_KINDS:
                raise DataShapeError(f"{label}: {units.at}: {kind!r} is no unit kind (one of "
                                     f"{', '.join(UNIT_KINDS)})")
            given[kind] = _count(n)
        tax_units[city] = Units(**given)
    sections = {name: (top[name]["section"].str(), tuple(r.str() for r in top[name]["rules"].list()))
                for name in ("costs", "ranks", "siege_assault", "fortify", "setup", "tiles")}
    return RuleTables(
        costs=costs, ranks=ranks, general_rank=general_rank,
        general_dice=(_count(general["attacker_dice"]), _count(general["defender_dice"])),
        general_name=general["name"].str(),
        siege_dice_per_siege=_count(siege["dice_per_siege"]), siege_hits_on=_face(siege["hits_on"]),
        fortify_footmen=(_count(fortify["footmen_in_city"]), _count(fortify["footmen_in_castle"])),
        starting_coins=_count(setup["starting_coins"]),
        stockholm_coins=_count(tiles["stockholm_coins"]),
        berlin_castle_discount=_count(tiles["berlin_castle_discount"]),
        constantinople_footmen=_count(tiles["constantinople_footmen_per_siege"]),
        tax_tile_units=tax_units, sections=sections, digest=digest)


def load() -> RuleTables:
    """The shipped tables (engine/risk_europe/data/rule_tables.json)."""
    raw, digest = read_data_file("engine.risk_europe", FILE)
    return parse(raw, digest)


TABLES = load()
RULE_TABLES_DIGEST = TABLES.digest
