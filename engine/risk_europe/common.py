"""What every chapter of the Risk Europe rules asks of the state, and the small helpers they share.

Derived facts (crowns, territories, units in reserve, the supply line and Tax Value of a city,
City Bonus Tiles), the rule tables the chapters use (read from data/rule_tables.json by
engine/risk_europe/tables.py: costs, "Spending Coins" p.14; the battle ranks, "Battles in
Disputed Territories" p.15-18; the Tax tiles, "City Bonus Tiles" p.22), the judging context
(`_Ctx`, defined beside the rules in engine/risk_europe/rules.py) and the helpers for names, dice
and draws. Imports no chapter module.
"""

from __future__ import annotations

from engine.core.chance import judge_draw
from engine.core.judging import record_roll, resolve_name
from engine.risk_europe.board import Territory
from engine.risk_europe.rules import RULES, _Ctx
from engine.risk_europe.state import PlayerId, State, Units, evolve as replace, new_units
from engine.risk_europe.tables import TABLES


V = RULES.violation

# The rule tables that are numbers come from data/rule_tables.json (engine/risk_europe/tables.py),
# each with its rulebook section there.
COST = TABLES.costs

RANK_UNIT = {r.rank: r.unit for r in TABLES.ranks}

RANK_DICE_PER_UNIT = {r.rank: r.dice_per_unit for r in TABLES.ranks}

RANK_HITS_ON = {r.rank: r.hits_on for r in TABLES.ranks}

GENERAL_RANK = TABLES.general_rank               # the General Attack: the rank after the ranked ones

GENERAL_DICE = TABLES.general_dice               # (attacker, defender): the most dice each rolls

RANK_NAME = {**{r.rank: r.name for r in TABLES.ranks}, GENERAL_RANK: TABLES.general_name}

SIEGE_HITS_ON = TABLES.siege_hits_on

BATTLE_SLOT = 999

TAX_TILE_UNITS = TABLES.tax_tile_units

TURN_EVENTS = frozenset({"Expanded", "SplitExpanded", "Maneuvered", "Taxed", "Spent",
                         "Fortified", "SiegeAssaulted", "MissionCompleted"})


def crowns(s: State, p: PlayerId) -> int:
    """Crowns on the Crown Tracker: cities held (Rome 2) plus Crown Cards."""
    n = s.players[p].crown_cards
    for t, city in s.data.cities.items():
        if s.terr[t].owner == p:
            n += city.crowns
    return n


def crowns_by_army(s: State) -> dict[PlayerId, int]:
    """`crowns(s, p)` of every army, in one pass over the cities."""
    n = {p: ps.crown_cards for p, ps in s.players.items()}
    terr = s.terr
    for t, city in s.data.cities.items():
        owner = terr[t].owner
        if owner in n:
            n[owner] += city.crowns
    return n


def territories_of(s: State, p: PlayerId) -> list[Territory]:
    return [t for t, x in s.terr.items() if x.owner == p]


def cities_of(s: State, p: PlayerId) -> list[Territory]:
    return [t for t in s.data.cities if s.terr[t].owner == p]


def units_on_board(s: State, p: PlayerId) -> Units:
    fo = ar = ca = si = 0          # summed as ints: a Units per territory costs 3x as much
    for x in s.terr.values():
        if x.owner == p:
            u = x.units
        elif x.attacker == p:
            u = x.attacker_units
        else:
            continue
        fo += u[0]
        ar += u[1]
        ca += u[2]
        si += u[3]
    return new_units(Units, (fo, ar, ca, si))


def reserve(s: State, p: PlayerId) -> Units:
    """Units still in the player's army reserve."""
    sup = s.data.supply
    on = units_on_board(s, p)
    return new_units(Units, (sup["footman"] - on.footman, sup["archer"] - on.archer,
                             sup["cavalry"] - on.cavalry, sup["siege"] - on.siege))


def tile_territory(s: State, city_name: str) -> Territory | None:
    for t, c in s.data.cities.items():
        if c.name == city_name and c.gold:
            return t
    return None


def has_tile(s: State, p: PlayerId, city_name: str) -> bool:
    """Does `p` hold this City Bonus Tile with its bonus available now (RE-TILE-TIMING)?"""
    t = tile_territory(s, city_name)
    if t is None:
        return False
    x = s.terr[t]
    return x.owner == p and x.since < s.step


def supply_line(s: State, p: PlayerId, start: Territory) -> list[Territory]:
    """Territories connected to `start` through undisputed territories `p` controls."""
    terr = s.terr
    nb = s.data.neighbours
    if terr[start].owner != p or terr[start].is_disputed:
        return []
    seen = {start}
    out = [start]
    i = 0
    while i < len(out):
        for n in nb[out[i]]:
            if n not in seen:
                x = terr[n]
                if x.owner == p and x.attacker is None:
                    seen.add(n)
                    out.append(n)
        i += 1
    return out


def tax_value(s: State, p: PlayerId, city: Territory) -> tuple[int, list[Territory]]:
    """Coins a tax from `city` collects, and the supply line it collects from (RE-TAX-AMOUNT)."""
    line = supply_line(s, p, city)
    coins = 0
    for t in line:
        c = s.data.cities.get(t)
        coins += c.tax if c else 1
    return coins, line


def _units(u) -> Units:
    return new_units(Units, (u.footman, u.archer, u.cavalry, u.siege))


def _rotate(seats: tuple[PlayerId, ...], first: PlayerId | None) -> tuple[PlayerId, ...]:
    if first is None or first not in seats:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]


def _name(s: State, p: PlayerId | None) -> str:
    return "nobody" if p is None else p


def _resolve(s: State, name: str, c: _Ctx, what: str = "territory", **expect) -> Territory | None:
    """A territory named in an event (engine.core.judging.resolve_name: `expect`, `wrong_rule`
    and `wrong` ask for one territory in particular)."""
    return resolve_name(s.data, name, c, "RE-NAME", what, **expect)


def _step_of(round_: int, turn: int, index: int, n: int) -> int:
    return round_ * 1000 + 1 + (turn - 1) * n + index


def _roll(s: State, values: list[int], c: _Ctx) -> State:
    """Record dice in the game's dice log; in a seeded game whose seed the judge already knows,
    check each die against the seed's stream here, at its own line (RE-DICE-SEED)."""
    return record_roll(s, values, c, "RE-DICE-SEED", replace)


def _check_draw(s: State, pool: list, n: int, got: list, dice: list[int] | None, what: str,
                c: _Ctx) -> State:
    """A random draw of `n` from `pool` that came out as `got` (RE-CHANCE-DRAW): with dice, they
    must give `got` by the draw rule, and are recorded as dice of the game (so a seeded game
    checks them against its stream); a seeded game's draw must carry its dice."""
    problem, message = judge_draw(pool, n, got, dice, seeded=s.dice.is_seeded, what=what)
    if problem is not None:
        c.bad("RE-DICE-FACES" if problem == "faces" else "RE-CHANCE-DRAW", message)
    if dice is None or problem == "faces":
        return s
    return _roll(s, dice, c)
