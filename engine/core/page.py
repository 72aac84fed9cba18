"""The page of one game as plain data: what a ruleset's `page` hook returns and analytics draws
(analytics/game_page.py). The engine says what is on the board after each turn and which numbers
to chart by round; the drawing (plotly, colours, HTML) is analytics' business.

    game = PageGame(players, start_view, steps)        # the judged game, event by event
    spec = rs.page(game, data)                         # a PageSpec; ValueError: nothing to draw

A spec has frames (the board after each turn, each with a label saying what happened), drawn on
a map when the ruleset gives one (`BoardMap`: where each place is, the lines between places, the
labels), else as the text the frames carry; and line charts by round (engine.core.charts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.core.charts import ChartSpec, Points, Threshold


# --- what the hook reads ------------------------------------------------------------------------


@dataclass(frozen=True)
class PageStep:
    """One event of the judged game: what it was, where in the game, whether the rules carried it
    out (`applied`: legal, a claim, or illegal but applied as recorded), and the board after it
    (the ruleset's `snapshot` view; None when it was not kept)."""

    type: str
    actor: str | None
    payload: Mapping[str, Any]
    position: tuple[str, int, int]
    applied: bool
    view: Mapping[str, Any] | None


@dataclass(frozen=True)
class PageGame:
    """A judged game as the page hook reads it: the players in seat order, the board before the
    first event, and every event."""

    players: tuple[str, ...]
    start_view: Mapping[str, Any] | None
    steps: tuple[PageStep, ...]


def round_ends(game: PageGame) -> dict[int, Mapping[str, Any]]:
    """The board view at the end of each round, by round (round 0: the set-up), for a view that
    says its round (`view["round"]`)."""
    ends: dict[int, Mapping[str, Any]] = {}
    last = game.start_view
    for step in game.steps:
        view = step.view
        if view is None:
            continue
        if last is not None and view["round"] != last["round"] and last["round"] not in ends:
            ends[last["round"]] = view
        last = view
    if last is not None and last["round"] >= 1 and last["round"] not in ends:
        ends[last["round"]] = last
    return dict(sorted(ends.items()))


def rounds_played(ends: Mapping[int, Any]) -> int:
    """How many rounds `round_ends` covers (the set-up, round 0, is not one)."""
    return len(ends) - 1 if 0 in ends else len(ends)


def rounds_text(n: int) -> str:
    """ "1 round", "7 rounds"."""
    return f"{n} round{'s' if n != 1 else ''}"


def by_round(chart_id: str, title: str, x_title: str, y_title: str,
             ends: Mapping[int, Mapping[str, Any]], players: tuple[str, ...],
             value: Callable[[Mapping[str, Any], str], Any],
             threshold: Threshold | None = None) -> ChartSpec:
    """A line per player of `value(view, player)` at the end of each round (`round_ends`), in the
    player's colour; `threshold` marks a level such as "7 crowns win"."""
    rounds = list(ends)
    return ChartSpec(chart_id, title, x_title, y_title, tuple(
        Points(rounds, [value(ends[r], p) for r in rounds], p, mode="lines+markers", player=p)
        for p in players), threshold=threshold)



@dataclass(frozen=True)
class Races:
    """The numbers a page charts by round, read off a judged game: the board view at the end of
    each round (`round_ends`), how many rounds were played, and a chart of one number per player
    at each round's end (`race`), on the x-axis `axis` ("end of round (0: the setup)").

        races = Races.of(game, "end of round (0: the setup)")
        races.race("coins", "Coins at the end of each round ({rounds})", "coins", lambda view, p: ...)"""

    ends: Mapping[int, Mapping[str, Any]]
    players: tuple[str, ...]
    axis: str

    @classmethod
    def of(cls, game: PageGame, axis: str) -> Races:
        return cls(round_ends(game), game.players, axis)

    @property
    def rounds(self) -> int:
        """How many rounds were played (the set-up is not one)."""
        return rounds_played(self.ends)

    @property
    def rounds_text(self) -> str:
        """ "1 round", "7 rounds"."""
        return rounds_text(self.rounds)

    def race(self, chart_id: str, title: str, y_title: str,
             value: Callable[[Mapping[str, Any], str], Any], threshold: Threshold | None = None) -> ChartSpec:
        """A line per player of `value(view, player)` at the end of each round (`by_round`),
        titled `title` with "{rounds}" replaced by how many rounds were played ("7 rounds")."""
        return by_round(chart_id, title.replace("{rounds}", self.rounds_text), self.axis, y_title,
                        self.ends, self.players, value, threshold)

# --- what the hook returns ----------------------------------------------------------------------


@dataclass(frozen=True)
class MapArea:
    """The part of the world the map shows: the base map it is cut from ("world"; a regional
    base map such as "europe" has only that region's land), the latitude and longitude box, the
    projection ("conic conformal" with its two standard parallels, "mercator"...) and the
    longitude at the map's centre."""

    region: str
    lat: tuple[float, float]
    lon: tuple[float, float]
    centre_lon: float
    projection: str = "conic conformal"
    parallels: tuple[float, ...] = ()


@dataclass(frozen=True)
class Lines:
    """Segments between places, drawn alike under the board (land borders, sea-lines); `name` is
    the legend's."""

    name: str
    segments: tuple[tuple[str, str], ...]
    colour: str
    width: float
    dashed: bool = False


@dataclass(frozen=True)
class BadgeKind:
    """A kind of badge a place may wear beside its mark (a city, an HQ, a scar): `key` is what
    a `Badge` names, `name` the legend's, `symbol` its shape ("star", "diamond", "x", "square",
    "triangle-up", "circle"), `colour` its colour unless the badge names a player."""

    key: str
    name: str
    symbol: str
    colour: str


@dataclass(frozen=True)
class Caption:
    """A name written on the map at a position of its own (a continent and its bonus)."""

    text: str
    at: tuple[float, float]


@dataclass(frozen=True)
class BoardMap:
    """Where each place of the board is (latitude, longitude) and what it is called (`names`;
    a place without a name is shown by its id), the lines that do not change during a game, the
    kinds of badge its marks wear, captions, and a caption for the map's title ("territories at
    approximate positions"). `unplaced`: places of the board the map has no position for; they
    are not drawn, and the page says so."""

    area: MapArea
    places: Mapping[str, tuple[float, float]]
    lines: tuple[Lines, ...] = ()
    badges: tuple[BadgeKind, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    captions: tuple[Caption, ...] = ()
    caption: str = ""
    unplaced: tuple[str, ...] = ()


@dataclass(frozen=True)
class Badge:
    """A badge one place wears on one board: its kind (`BadgeKind.key`), when it belongs to a
    player (an HQ) the player, whose colour it is drawn in, and a word written beside it (a
    city's name)."""

    kind: str
    player: str | None = None
    text: str = ""


@dataclass(frozen=True)
class Mark:
    """One place on one board: its holder (drawn in that player's colour; None: nobody), a count
    that sizes it and is written on it (the army), its shape ("circle" or "square"), the player
    attacking it (a thick ring in their colour), its badges, and what hovering says: the place's
    name in bold, `subtitle` after it, then `lines`."""

    place: str
    owner: str | None
    count: int
    shape: str = "circle"
    attacker: str | None = None
    subtitle: str = ""
    lines: tuple[str, ...] = ()
    badges: tuple[Badge, ...] = ()


@dataclass(frozen=True)
class Frame:
    """The board after one turn: a label saying what happened, and the board as marks on the
    map (`marks`, one per place of the map) and as text (`lines`: the board when there is no
    map; beside a map, the last frame's lines are the final board in words)."""

    label: str
    marks: tuple[Mark, ...] = ()
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageSpec:
    """The page of one game: the boards (frames, last one shown first), the charts by round, the
    map when there is one, how many rounds were played, and what the page's note says of this
    game (`lead` before the players, `about` after the counts)."""

    frames: tuple[Frame, ...]
    rounds: int
    charts: tuple[ChartSpec, ...] = ()
    map: BoardMap | None = None
    lead: str = ""
    about: str = ""
