"""Kingdom Missions as data: the eight Crown Cards' missions, from a file the user supplies.

The mission texts and bonuses are printed on the backs of the Crown Cards and are not public
(see the `kingdom_missions` note in data/kings_orders.json), so the project ships only a template
with the eight slots (data/kingdom_missions.template.json) and, for tests and simulations, an
invented example (data/kingdom_missions.example.json, NOT the printed missions). A user who has
the cards fills in the template; `load_data(missions_path=...)` loads it.

The file (format "ledger-kingdom-missions/1"):

    {"format": "ledger-kingdom-missions/1",
     "missions": [{"id": "mission-1", "title": "...", "text": "...",
                   "condition": {...} or null, "bonus": "..." or null}, ... eight of them]}

`id` is what logs name (MissionKept, MissionCompleted). `condition` is what the engine checks when
a mission is revealed as completed, written in this small language (every key a question about
the revealing player's holdings at that moment; numbers are "at least"):

    {"holds": ["London", "Paris"]}     controls every one of these territories (or cities)
    {"cities": 5}                      controls this many city territories
    {"gold_cities": 3}                 ... Gold Crown City territories
    {"territories": 12}                ... territories
    {"castles": 3}                     ... castle territories
    {"coins": 30}                      holds this many coins
    {"units": {"cavalry": 6}}          has this many units of these types on the board
    {"all": [c, ...]}, {"any": [c, ...]}   every / at least one of the conditions

A mission without a condition (every slot of the template) cannot be checked: its completion is
recorded as the player's claim and the audit lists it as unverified (RE-MISSION-UNVERIFIED). The
`bonus` is shown to readers; the engine does not enforce it (docs/variants.md).

Pure: reading the file is the caller's business (board.load_data); this module parses JSON data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.errors import LedgerError

FORMAT = "ledger-kingdom-missions/1"
CONDITION_KEYS = ("holds", "cities", "gold_cities", "territories", "castles", "coins", "units", "all", "any")


class MissionDataError(LedgerError, ValueError):
    """A mission file that cannot be used (wrong format, a duplicate id, an unknown condition)."""

    exit_code = 7   # ledger.exitcodes.INVALID_DATA: a mission file, readable but wrong


@dataclass(frozen=True)
class Mission:
    id: str
    title: str | None
    text: str | None
    condition: Mapping[str, Any] | None
    bonus: str | None


@dataclass(frozen=True)
class MissionBook:
    """The missions a game is judged with, by id, and the digest of their file."""

    missions: Mapping[str, Mission]
    digest: str
    example: bool = False        # the invented example file, not the printed missions

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self.missions)


def parse_missions(raw: Any, digest: str, names: Mapping[str, str]) -> MissionBook:
    """A MissionBook from a loaded JSON document; `names` resolves territory and city names
    (lower-cased) to territories, to check `holds` conditions."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        found = repr(raw.get("format"))[:40] if isinstance(raw, dict) else "no object"
        raise MissionDataError(f"format: a mission file has \"format\": {FORMAT!r}; found {found}")
    items = raw.get("missions")
    if not isinstance(items, list) or not items:
        raise MissionDataError("missions: a mission file lists its missions under \"missions\" "
                               "(a non-empty list)")
    out: dict[str, Mission] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            raise MissionDataError(f"every mission has a string \"id\"; got {item!r}")
        mid = item["id"]
        if mid in out:
            raise MissionDataError(f"mission id {mid!r} appears twice")
        cond = item.get("condition")
        if cond is not None:
            _check_condition(cond, names, mid)
        out[mid] = Mission(mid, item.get("title"), item.get("text"), cond, item.get("bonus"))
    return MissionBook(out, digest, bool(raw.get("example")))


def _check_condition(cond: Any, names: Mapping[str, str], mid: str) -> None:
    if not isinstance(cond, dict) or len(cond) != 1:
        raise MissionDataError(f"mission {mid!r}: a condition is an object with one key; got {cond!r}")
    (key, arg), = cond.items()
    if key not in CONDITION_KEYS:
        raise MissionDataError(f"mission {mid!r}: unknown condition {key!r} (known: {', '.join(CONDITION_KEYS)})")
    if key in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            raise MissionDataError(f"mission {mid!r}: {key!r} takes a list of conditions")
        for c in arg:
            _check_condition(c, names, mid)
    elif key == "holds":
        if not isinstance(arg, list) or not all(isinstance(n, str) and n.casefold() in names for n in arg):
            raise MissionDataError(f"mission {mid!r}: 'holds' takes a list of territory or city names; got {arg!r}")
    elif key == "units":
        if not isinstance(arg, dict) or not all(k in ("footman", "archer", "cavalry", "siege")
                                                 and isinstance(n, int) for k, n in arg.items()):
            raise MissionDataError(f"mission {mid!r}: 'units' takes counts by unit type; got {arg!r}")
    elif not isinstance(arg, int) or isinstance(arg, bool):
        raise MissionDataError(f"mission {mid!r}: {key!r} takes a whole number; got {arg!r}")


def condition_holds(cond: Mapping[str, Any], s: Any, p: str) -> bool:
    """Does player `p` meet `cond` in state `s` (an engine State)?"""
    (key, arg), = cond.items()
    if key == "all":
        return all(condition_holds(c, s, p) for c in arg)
    if key == "any":
        return any(condition_holds(c, s, p) for c in arg)
    mine = [t for t, x in s.terr.items() if x.owner == p]
    if key == "holds":
        return all(s.terr[s.data.resolve(n)].owner == p for n in arg)
    if key == "cities":
        return sum(1 for t in mine if t in s.data.cities) >= arg
    if key == "gold_cities":
        return sum(1 for t in mine if t in s.data.cities and s.data.cities[t].gold) >= arg
    if key == "territories":
        return len(mine) >= arg
    if key == "castles":
        return sum(1 for t in mine if s.terr[t].castle) >= arg
    if key == "coins":
        return s.players[p].coins >= arg
    if key == "units":
        on = {k: 0 for k in ("footman", "archer", "cavalry", "siege")}
        for x in s.terr.values():
            units = x.units if x.owner == p else (x.attacker_units if x.attacker == p else None)
            if units is not None:
                for k in on:
                    on[k] += getattr(units, k)
        return all(on[k] >= n for k, n in arg.items())
    raise MissionDataError(f"unknown condition {key!r}")
