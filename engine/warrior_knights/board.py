"""The Warrior Knights board, read from a board file the user supplies (the summary prints no
board): areas (Kingdom or overseas, central, port, a city with its strength and income), borders
(open, river, bridge or mountain, with or without a road), the Mercenary Track and the expedition
tracks. `parse_board` checks everything the rules summary lets a loader check without knowing the
real board, and reports every problem at once, each naming the file, the key and what is wrong.

The shape (docs/warrior-knights.md, "The board file"):

    {"schema": "ledger.warrior_knights.board/1", "source": "...", "invented": false,
     "areas": [{"id": "a17", "name": "...", "kind": "kingdom", "central": true, "port": false,
                "city": {"id": "vecht", "name": "Vecht", "strength": 300, "income": 2}}, ...],
     "borders": [{"a": "a17", "b": "a18", "crossing": "open", "road": true}, ...],
     "mercenary_track": [{"spot": 1, "label": null, "fee": 8}, ...],
     "expeditions": [{"id": "ceylon", "name": "Ceylon", "spots": 3}, ...]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from engine.core.data import Problems, Shape

AreaId = str
CityId = str

BOARD_SCHEMA = "ledger.warrior_knights.board/1"
AREA_KINDS = ("kingdom", "overseas")
CROSSINGS = ("open", "river", "bridge", "mountain")
PASSABLE = frozenset({"open", "bridge"})     # Movement: mountains impassable, rivers only at bridges

# The counts a board must have. The summary: "In a 2 or 3 player game, strongholds may only be
# placed in the 16 central hexes" (Setup 7); the city counts are the published game's component
# list (18 Kingdom cities, 6 overseas; one public source), which the razing table of Setup 3
# fits (2 players raze 11 and keep 7).
KINGDOM_CITIES = 18
OVERSEAS_CITIES = 6
CENTRAL_AREAS = 16
PLAYER_COUNTS = range(2, 7)
# Setup 3: "2 players: 11 razed Kingdom cities 3 players: 7 ... 4 players: 5 ... 5 players: 3".
RAZED_AT_SETUP = {2: 11, 3: 7, 4: 5, 5: 3, 6: 0}
STRENGTH_STEP = 100          # breaches and casualty tokens count 100 strength each


@dataclass(frozen=True, slots=True)
class City:
    id: CityId
    name: str
    strength: int
    income: int
    area: AreaId


@dataclass(frozen=True, slots=True)
class Area:
    id: AreaId
    name: str
    kind: str                   # kingdom | overseas
    central: bool
    port: bool
    city: CityId | None

    @property
    def is_kingdom(self) -> bool:
        return self.kind == "kingdom"


@dataclass(frozen=True, slots=True)
class Border:
    a: AreaId
    b: AreaId
    crossing: str               # open | river | bridge | mountain
    road: bool

    @property
    def is_passable(self) -> bool:
        return self.crossing in PASSABLE


@dataclass(frozen=True, slots=True)
class TrackSpot:
    spot: int                   # 1 = leftmost (drafts first)
    label: int | None           # in play only with at least this many players (None: always)
    fee: int                    # crowns paid to place a marker here with a Versatile card


@dataclass(frozen=True, slots=True)
class Expedition:
    id: str
    name: str
    spots: int


@dataclass(frozen=True)
class Board:
    """One board file, checked: areas, cities, borders, the Mercenary Track, the expeditions."""

    areas: Mapping[AreaId, Area]
    cities: Mapping[CityId, City]
    borders: Mapping[frozenset, Border]
    neighbours: Mapping[AreaId, frozenset[AreaId]]
    track: tuple[TrackSpot, ...]
    expeditions: Mapping[str, Expedition]
    digest: str
    label: str
    invented: bool = False
    note: str = ""
    source: str = ""
    warnings: tuple[str, ...] = ()
    names: Mapping[str, AreaId] = field(default_factory=dict)

    def border(self, a: AreaId, b: AreaId) -> Border | None:
        return self.borders.get(frozenset((a, b)))

    def resolve(self, name: object) -> AreaId | None:
        """The area a log names: its id or its printed name (any case), or its city's id or name."""
        if not isinstance(name, str):
            return None
        return self.names.get(name.casefold())

    def city_in(self, area: AreaId) -> CityId | None:
        return self.areas[area].city

    @property
    def kingdom_cities(self) -> tuple[CityId, ...]:
        return tuple(c for c, city in self.cities.items() if self.areas[city.area].is_kingdom)

    @property
    def ports(self) -> tuple[AreaId, ...]:
        return tuple(a for a, area in self.areas.items() if area.port)

    def usable_spots(self, players: int) -> tuple[TrackSpot, ...]:
        """The track spots in play with `players` players (Draft Soldiers: "any free space ... with
        a number no higher than number of players"; an unnumbered spot is always in play)."""
        return tuple(t for t in self.track if t.label is None or t.label <= players)


# The keys each object of a board file may have (docs/warrior-knights.md, "The board file"): any
# other is a problem, so that a misspelt optional key is not read as the key left out.
BOARD_KEYS = ("schema", "invented", "note", "source", "areas", "borders", "mercenary_track", "expeditions")
AREA_KEYS = ("id", "name", "kind", "central", "port", "city")
CITY_KEYS = ("id", "name", "strength", "income")
BORDER_KEYS = ("a", "b", "crossing", "road")
SPOT_KEYS = ("spot", "label", "fee")
EXPEDITION_KEYS = ("id", "name", "spots")


def _area(a: Shape, p: Problems, ids: dict[AreaId, Shape], cities: dict[CityId, City],
          out: dict[AreaId, Area]) -> None:
    aid = a["id"].str()
    if aid in ids:
        p.add(a["id"], f"the area id {aid!r} is used twice (also at {ids[aid].at})")
        return
    ids[aid] = a
    p.unknown(a, AREA_KEYS)
    kind = a["kind"].one_of(AREA_KINDS)
    central = a.get("central", False).bool()
    port = a.get("port", False).bool()
    name = a.get("name").optional_str() or aid
    city_id = None
    c = a.get("city")
    if c.value is not None:
        city_id = c["id"].str()
        p.unknown(c, CITY_KEYS)
        strength, income = c["strength"].int(), c["income"].int()
        if strength < 0 or strength % STRENGTH_STEP:
            p.add(c["strength"], f"a city's strength is a multiple of {STRENGTH_STEP} (breaches count "
                  f"{STRENGTH_STEP} each), found {strength}")
        if income < 0:
            p.add(c["income"], f"a city's income is 0 or more, found {income}")
        if city_id in cities:
            p.add(c["id"], f"the city id {city_id!r} is used twice (also in area {cities[city_id].area!r})")
        else:
            cities[city_id] = City(city_id, c.get("name").optional_str() or city_id, strength, income, aid)
    if kind == "overseas":
        if not port:
            p.add(a.get("port"), "an overseas area is reached only by sea, so it has a port (\"port\": true)")
        if central:
            p.add(a.get("central"), "an overseas area is not one of the Kingdom's central hexes")
    out[aid] = Area(aid, name, kind, central, port, city_id)


def parse_board(raw: object, label: str, digest: str) -> Board:
    """The board in `raw` (a board file's JSON), checked; DataErrors listing every problem, each
    naming `label` (the file), the key and what is wrong."""
    top = Shape(raw, label)
    p = Problems()
    if not isinstance(raw, dict):
        p.items.append(str(top.fail("an object (a Warrior Knights board file)")))
        p.raise_any()
    schema = top.get("schema")
    if schema.value != BOARD_SCHEMA:
        p.add(schema, f"expected {BOARD_SCHEMA!r} (a Warrior Knights board file), found "
              f"{schema.value!r}" if schema.value is not None else
              f"the key 'schema' is missing (expected {BOARD_SCHEMA!r})")
    p.unknown(top, BOARD_KEYS)
    invented = False
    with p.each():
        invented = top.get("invented", False).bool()
    ids: dict[AreaId, Shape] = {}
    cities: dict[CityId, City] = {}
    areas: dict[AreaId, Area] = {}
    with p.each():
        for a in top["areas"].list():
            with p.each():
                _area(a, p, ids, cities, areas)
    borders: dict[frozenset, Border] = {}
    where: dict[frozenset, Shape] = {}
    with p.each():
        for b in top["borders"].list():
            with p.each():
                _border(b, p, areas, ids, borders, where)
    track: list[TrackSpot] = []
    with p.each():
        spots = top["mercenary_track"].list()
        for i, t in enumerate(spots, start=1):
            with p.each():
                p.unknown(t, SPOT_KEYS)
                spot, fee, lab = t["spot"].int(), t["fee"].int(), t.get("label").optional_int()
                if spot != i:
                    p.add(t["spot"], f"the track's spots are numbered 1, 2, ... from the left in order; "
                          f"this one should be {i}, found {spot}")
                if fee < 0:
                    p.add(t["fee"], f"a fee is 0 or more crowns, found {fee}")
                if lab is not None and lab not in PLAYER_COUNTS:
                    p.add(t["label"], f"a spot's number is a player count from 2 to 6 (or null for a spot "
                          f"always in play), found {lab}")
                track.append(TrackSpot(i, lab, fee))
        if len(track) == len(spots):
            for n in PLAYER_COUNTS:
                usable = sum(1 for t in track if t.label is None or t.label <= n)
                if usable != n + 1:
                    p.add(top["mercenary_track"], f"with {n} players the track must have {n + 1} spots in "
                          f"play (the Draft comes when there is one marker more than players), found {usable}")
                    break
    expeditions: dict[str, Expedition] = {}
    with p.each():
        for x in top["expeditions"].list():
            with p.each():
                p.unknown(x, EXPEDITION_KEYS)
                xid, spots = x["id"].str(), x["spots"].int()
                if xid in expeditions:
                    p.add(x["id"], f"the expedition id {xid!r} is used twice")
                if spots < 3:
                    p.add(x["spots"], f"an expedition track has at least 3 spots (Fund Expedition draws "
                          f"a Fate card on the 3 spot), found {spots}")
                expeditions[xid] = Expedition(xid, x.get("name").optional_str() or xid, spots)
    if areas:
        _counts(top, p, areas, cities)
    p.raise_any()
    neighbours: dict[AreaId, set[AreaId]] = {a: set() for a in areas}
    for b in borders.values():
        neighbours[b.a].add(b.b)
        neighbours[b.b].add(b.a)
    names: dict[str, AreaId] = {}
    for a in areas.values():
        names.setdefault(a.id.casefold(), a.id)
    for a in areas.values():
        names.setdefault(a.name.casefold(), a.id)
    for c in cities.values():
        names.setdefault(c.id.casefold(), c.area)
        names.setdefault(c.name.casefold(), c.area)
    board = Board(areas=areas, cities=cities, borders=borders,
                  neighbours={a: frozenset(n) for a, n in neighbours.items()}, track=tuple(track),
                  expeditions=expeditions, digest=digest, label=label, invented=invented,
                  note=top.get("note").value if isinstance(top.get("note").value, str) else "",
                  source=top.get("source").value if isinstance(top.get("source").value, str) else "",
                  names=names)
    return _with_warnings(board)


def _border(b: Shape, p: Problems, areas: dict[AreaId, Area], ids: dict[AreaId, Shape],
            borders: dict[frozenset, Border], where: dict[frozenset, Shape]) -> None:
    p.unknown(b, BORDER_KEYS)
    a, z = b["a"].str(), b["b"].str()
    crossing = b["crossing"].one_of(CROSSINGS)
    road = b.get("road", False).bool()
    bad = False
    for end, name in (("a", a), ("b", z)):
        if name not in ids:
            p.add(b[end], f"unknown area {name!r} (not in \"areas\")")
            bad = True
    if bad:
        return
    if a == z:
        p.add(b, f"a border joins two different areas, found {a!r} twice")
        return
    for name in (a, z):
        if name in areas and areas[name].kind == "overseas":
            p.add(b, f"{name!r} is an overseas area: overseas areas have no land borders (they are "
                  "reached by sea, port to port)")
            return
    if road and crossing == "mountain":
        p.add(b["road"], f"a road crosses the mountain border {a}-{z}, which is impassable")
    if road and crossing == "river":
        p.add(b["road"], f"a road crosses the river between {a} and {z} without a bridge (rivers "
              "are crossed only at bridges: make the crossing \"bridge\")")
    key = frozenset((a, z))
    here = Border(a, z, crossing, road)
    if key in borders:
        old = borders[key]
        if (old.crossing, old.road) != (crossing, road):
            p.add(b, f"asymmetric border: {a}-{z} is {_kind(here)} here but {_kind(old)} at "
                  f"{where[key].at} (the same border listed twice, differently)")
        else:
            p.add(b, f"the border {a}-{z} is listed twice (also at {where[key].at})")
        return
    borders[key] = here
    where[key] = b


def _kind(b: Border) -> str:
    return b.crossing + (" with a road" if b.road else " without a road")


def _counts(top: Shape, p: Problems, areas: dict[AreaId, Area], cities: dict[CityId, City]) -> None:
    kingdom = sorted(c for c, city in cities.items() if areas[city.area].is_kingdom)
    overseas = sorted(c for c, city in cities.items() if not areas[city.area].is_kingdom)
    central = [a for a, area in areas.items() if area.central]
    if len(kingdom) != KINGDOM_CITIES:
        p.add(top["areas"], f"the Kingdom has {KINGDOM_CITIES} cities; this board has {len(kingdom)} "
              f"({', '.join(kingdom) or 'none'}). The setup razes 11 of them in a 2-player game "
              "(Setup 3) and victory counts them (Upkeep 1)")
    if len(overseas) != OVERSEAS_CITIES:
        p.add(top["areas"], f"there are {OVERSEAS_CITIES} overseas cities; this board has "
              f"{len(overseas)} ({', '.join(overseas) or 'none'})")
    if len(central) != CENTRAL_AREAS:
        p.add(top["areas"], f"the Kingdom has {CENTRAL_AREAS} central hexes (\"central\": true; Setup 7: "
              f"strongholds of a 2 or 3 player game go there); this board marks {len(central)}")


def _with_warnings(board: Board) -> Board:
    """What a careful user should look at, without making the board invalid: a Kingdom area no
    land move reaches that is no port either (an island the summary does not mention)."""
    kingdom = [a for a, area in board.areas.items() if area.is_kingdom]
    if not kingdom:
        return board
    seen = {kingdom[0]}
    todo = [kingdom[0]]
    while todo:
        a = todo.pop()
        for n in sorted(board.neighbours[a]):
            if n not in seen and board.border(a, n).is_passable:
                seen.add(n)
                todo.append(n)
    cut = [a for a in kingdom if a not in seen and not board.areas[a].port]
    warnings = ()
    if cut:
        warnings = (f"{board.label}: areas: {', '.join(sorted(cut))} cannot be reached by land from "
                    f"{kingdom[0]} (mountains and rivers without bridges) and have no port",)
    return Board(**{**{f: getattr(board, f) for f in board.__dataclass_fields__}, "warnings": warnings})
