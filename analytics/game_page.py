"""A picture of one game: the board after each turn and the numbers the game charts by round,
for any ruleset. The ruleset's `page` hook says what to draw, as plain data
(engine.core.page.PageSpec); this module draws it.

    j = judge(read_log("game42.jsonl"), views=True)    # views: the board after every event
    render_game_page(j, "game.html")                    # one self-contained HTML page

A ruleset with a map (`PageSpec.map`) gets its board on a map with a slider over the turns:
places at their positions, named, coloured by holder, sized by their count with the count
written on them, the shapes and rings the ruleset chose, their badges beside them (a city, an
HQ), the lines and captions of its board, the places it could not place named under it; the
base map and plotly.js are embedded, so the page works offline. A ruleset without one gets the board after each turn as text (its frames'
lines). Its charts by round follow. A ruleset with no `page` hook gets the board after each
event as `board_lines` prints it.

Everything is read from the judgement (`Judgement.steps[i].view`, the engine's board view after
each event): the page shows the game as the judge judged it.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import plotly.graph_objects as go

from analytics.charts import chart
from analytics.page import (
    WIDE_CHART_WIDTH, Chart, chart_html, geo_assets_script, html_page, write_page,
)
from engine.core.page import BoardMap, Frame, MapArea, Mark, PageGame, PageSpec, PageStep
from engine.core.ruleset import GameResult, Ruleset, get_ruleset, ruleset_names
from replay.judge import Judgement

APPLIED = frozenset({"ok", "claim", "illegal-applied"})   # the judge's statuses of a carried-out event
NAMED_COLOURS = {"blue": "#1f6fd1", "orange": "#f28e2b", "red": "#d62728", "green": "#2ca02c",
                 "yellow": "#e9c62b", "purple": "#8c52b5", "black": "#333333",
                 "white": "#bbbbbb"}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
NOBODY = "#b9b9b9"
MAP_HEIGHT = 820
BY_ROUND = "By round"
# a game's page on a narrow screen: a chart scrolls sideways inside its box, the page does not;
# the board in words wraps
PAGE_STYLE = """<meta name="viewport" content="width=device-width, initial-scale=1"><style>
.chart { max-width: 100%; overflow-x: auto; }
@media (max-width: 720px) { body { margin: 12px; } .grid { grid-template-columns: 100%; } }
pre.board { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 80em; }
ul.board { max-width: 70em; line-height: 1.45; padding-left: 1.2em; }
ul.board li { margin-bottom: 6px; }
p.warning { color: #8a4b00; background: #fff4e0; padding: 6px 10px; border-radius: 4px; }
</style>"""
# on a screen narrower than a chart (a phone), each chart is drawn again to fit it: the map as a
# whole, its height from its area's shape, its legend given the rows it needs
NARROW_SCRIPT = """<script>
window.addEventListener("load", function () {
  if (!window.Plotly) return;
  document.querySelectorAll(".chart .plotly-graph-div").forEach(function (div) {
    var room = div.closest(".chart").parentElement.clientWidth - 12, layout = div._fullLayout;
    if (!layout || layout.width <= room) return;
    // the title goes under the toolbar, which takes most of a narrow chart's top line
    var change = {width: room, height: layout.height + 24, "margin.t": layout.margin.t + 24,
                  "title.yref": "container", "title.yanchor": "top"};
    if (div.id === "board-map") {
      var columns = Math.max(1, Math.floor((room - 20) / 165));
      var rows = Math.ceil(%(legend)d / columns);
      change["margin.t"] = 62 + 19 * rows;
      change.height = Math.round(room * %(aspect).3f) + change["margin.t"] + 110;
      change["title.text"] = %(title)s;
      change["legend.maxheight"] = 19 * rows + 10;      // every entry shown, none scrolled
      change["legend.entrywidth"] = Math.floor((room - 30) / columns) - 55;   // less the symbol
      change["legend.font.size"] = 10;
      if (room < %(narrow_map)d) {     // the names off, the badges' glyphs kept (NARROW_KEY)
        var narrowed = function (t) {
          return t.meta && t.meta.narrow ? Object.assign({}, t, t.meta.narrow) : t;
        };
        ((div._transitionData || {})._frames || []).forEach(function (f) {
          if (f.data) f.data = f.data.map(narrowed);
        });
        div.data.forEach(function (t, i) {
          if (!(t.meta && t.meta.narrow)) return;
          var update = {};
          Object.keys(t.meta.narrow).forEach(function (k) { update[k] = [t.meta.narrow[k]]; });
          Plotly.restyle(div, update, [i]);
        });
        var note = document.createElement("p");
        note.className = "note";
        note.textContent = "On a screen this narrow the names are left off the map: tap a place "
          + "to see its name.";
        div.closest(".chart").insertAdjacentElement("afterend", note);
      }
    }
    change["title.y"] = 1 - 30 / change.height;
    div.parentElement.style.width = room + "px";      // plotly's wrapper has the fixed size
    div.parentElement.style.height = change.height + "px";
    Plotly.relayout(div, change);
  });
});
</script>"""


def map_aspect(area: MapArea) -> float:
    """The height of the map's area over its width, as its projection draws it (roughly)."""
    lon = math.radians(area.lon[1] - area.lon[0])
    if area.projection == "mercator":
        def y(lat: float) -> float:
            return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        return (y(area.lat[1]) - y(area.lat[0])) / lon
    # a conic map is widest along the parallel nearest the equator
    widest = math.cos(math.radians(min(abs(area.lat[0]), abs(area.lat[1]))))
    return math.radians(area.lat[1] - area.lat[0]) / (lon * widest)


@dataclass
class GamePageReport:
    """What render_game_page wrote."""

    path: Path
    frames: int           # boards on the slider (or listed)
    rounds: int
    bytes: int
    unplaced: tuple[str, ...] = ()     # places of the board the map has no position for


def page_game(j: Judgement) -> PageGame:
    """The judged game as a ruleset's page hook reads it (engine.core.page.PageGame)."""
    return PageGame(tuple(j.players), j.start_view, tuple(
        PageStep(s.type, s.actor, s.payload, s.position, s.status in APPLIED, s.view)
        for s in j.steps))


def player_colours(players: list[str]) -> dict[str, str]:
    """A colour per player: their id's colour when it names one ("blue"), else a palette's."""
    out, spare = {}, list(PALETTE)
    for p in players:
        named = NAMED_COLOURS.get(p.lower())
        out[p] = named or (spare.pop(0) if spare else "#444444")
    return out


# --- the map --------------------------------------------------------------------------------------

# where a badge stands beside its place's mark: one place per shape (badge_slots)
BADGE_SLOTS = ("top right", "top left", "middle right", "middle left", "bottom right",
               "bottom left")
# the badges' shapes as text, so that they stand beside the mark at any zoom (a marker would
# stand on it); the legend shows the same shape as a marker
BADGE_GLYPHS = {"star": "\u2605", "diamond": "\u25c6", "x": "\u2716", "square": "\u25a0",
                "triangle-up": "\u25b2", "circle": "\u25cf"}
LABEL_COLOUR = "#333333"


def mark_size(m: Mark) -> float:
    """A mark's diameter in pixels: large enough to hold its count, growing with it."""
    return 16 + 2.6 * math.sqrt(m.count) if m.count else 9


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on `background` ("#rrggbb")."""
    r, g, b = (int(background[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#ffffff"


def badge_slots(board: BoardMap) -> dict[str, str]:
    """Where each kind of badge stands beside a mark: kinds of one shape (a gold and a black
    city) share a place, each shape in the order it first comes."""
    shapes = list(dict.fromkeys(kind.symbol for kind in board.badges))
    return {kind.key: BADGE_SLOTS[shapes.index(kind.symbol) % len(BADGE_SLOTS)]
            for kind in board.badges}


def _badge_text(glyph: str, text: str, slot: str) -> str:
    """A badge's glyph and its word, the glyph on the side of the mark."""
    if not text:
        return glyph
    word = f"<span style='font-size:9px;color:{LABEL_COLOUR}'>{html.escape(text)}</span>"
    return f"{word} {glyph}" if slot.endswith("left") else f"{glyph} {word}"


# On a map drawn narrower than NARROW_MAP px (a phone) the places' names crowd each other into a
# blur: a trace says in its `meta` what it becomes there (the names trace drops its text, a badge
# keeps its glyph and drops its word), and the pages apply it (NARROW_SCRIPT here, the live page's
# script in ledger/service/page.py). A tap on a place still names it (its hover text).
NARROW_KEY = "narrow"
NARROW_MAP = 600


def _marks_traces(marks: tuple[Mark, ...], board: BoardMap,
                  colours: Mapping[str, str]) -> list[go.Scattergeo]:
    """One board's traces: the marks with their counts, the places' names under them, and a
    trace per kind of badge (beside the marks)."""
    at = board.places
    lat, lon, colour, size, symbol, ring, ring_width, hover, count, ink = ([] for _ in range(10))
    for m in marks:
        la, lo = at[m.place]
        lat.append(la)
        lon.append(lo)
        colour.append(colours.get(m.owner, NOBODY))
        size.append(mark_size(m))
        symbol.append(m.shape)
        ring.append(colours.get(m.attacker, "#ffffff") if m.attacker else "#ffffff")
        ring_width.append(4 if m.attacker else 1)
        hover.append(f"<b>{html.escape(board.names.get(m.place, m.place))}</b>"
                     + (f" {html.escape(m.subtitle)}" if m.subtitle else "")
                     + "".join(f"<br>{html.escape(line)}" for line in m.lines))
        count.append(str(m.count) if m.count else "")
        ink.append(text_colour(colours.get(m.owner, NOBODY)))
    traces = [
        go.Scattergeo(lat=lat, lon=lon, mode="markers+text", name="territories",
                      text=count, textposition="middle center",
                      textfont={"color": ink, "size": 11, "family": "Arial, sans-serif"},
                      hovertext=hover, hoverinfo="text", showlegend=False,
                      marker={"color": colour, "size": size, "symbol": symbol, "opacity": 0.92,
                              "line": {"color": ring, "width": ring_width}}),
        # the names, under marks of the same size drawn invisibly
        go.Scattergeo(lat=lat, lon=lon, mode="markers+text", name="names", showlegend=False,
                      text=[html.escape(board.names.get(m.place, m.place)) for m in marks],
                      textposition="bottom center", hoverinfo="skip",
                      textfont={"color": LABEL_COLOUR, "size": 10},
                      marker={"size": size, "opacity": 0}, meta={NARROW_KEY: {"mode": "markers"}})]
    slots = badge_slots(board)
    for kind in board.badges:
        worn = [(i, b) for i, m in enumerate(marks) for b in m.badges if b.kind == kind.key]
        traces.append(go.Scattergeo(
            lat=[lat[i] for i, _ in worn], lon=[lon[i] for i, _ in worn], mode="markers+text",
            name=kind.name, showlegend=False, hoverinfo="skip",
            text=[_badge_text(BADGE_GLYPHS.get(kind.symbol, "\u25cf"), b.text, slots[kind.key])
                  for _, b in worn],
            meta={NARROW_KEY: {"text": [BADGE_GLYPHS.get(kind.symbol, "\u25cf") for _ in worn]}},
            textposition=slots[kind.key],
            textfont={"size": 12, "color": [colours.get(b.player, kind.colour) if b.player
                                            else kind.colour for _, b in worn]},
            # the badge hugs its mark: it stands beside an invisible mark a little smaller
            # (and clear of a small one)
            marker={"size": [max(size[i] * 0.5, 12) for i, _ in worn], "opacity": 0}))
    return traces


def straight(a: tuple[float, float], b: tuple[float, float],
             step: float = 1.5) -> tuple[list[float], list[float]]:
    """The points of a line from `a` to `b` (lat, lon) that the map draws straight: plotly
    draws each piece along a great circle, which bulges on a flat map, so the line is cut into
    pieces of at most `step` degrees. It goes the short way round: a line across the 180th
    meridian (Alaska-Kamchatka) leaves the map at one edge and comes back at the other."""
    (lat_a, lon_a), (lat_b, lon_b) = a, b
    if lon_b - lon_a > 180:
        lon_b -= 360
    elif lon_a - lon_b > 180:
        lon_b += 360
    n = max(1, math.ceil(max(abs(lat_b - lat_a), abs(lon_b - lon_a)) / step))
    lats = [lat_a + (lat_b - lat_a) * k / n for k in range(n + 1)]
    lons = [(lon_a + (lon_b - lon_a) * k / n + 180) % 360 - 180 for k in range(n + 1)]
    return lats, lons


def _map_layers(board: BoardMap, worn: set[str]) -> tuple[list[go.Scattergeo],
                                                         list[go.Scattergeo]]:
    """The traces under the places (lines, captions) and the legend entries of the kinds of
    badge some board wears (`worn`)."""
    at = board.places
    below = []
    for layer in board.lines:
        lat: list[float | None] = []
        lon: list[float | None] = []
        for a, b in layer.segments:
            la, lo = straight(at[a], at[b])
            lat += [*la, None]
            lon += [*lo, None]
        line = {"color": layer.colour, "width": layer.width}
        if layer.dashed:
            line["dash"] = "dash"
        below.append(go.Scattergeo(lat=lat, lon=lon, mode="lines", name=layer.name, line=line,
                                   hoverinfo="skip"))
    if board.captions:
        below.append(go.Scattergeo(
            lat=[c.at[0] for c in board.captions], lon=[c.at[1] for c in board.captions],
            mode="text", text=[html.escape(c.text) for c in board.captions], showlegend=False,
            hoverinfo="skip", textfont={"size": 13, "color": "#8a7f6a"}, name="captions"))
    legend = [go.Scattergeo(lat=[None], lon=[None], mode="markers", name=kind.name,
                            marker={"symbol": kind.symbol, "size": 11, "color": kind.colour})
              for kind in board.badges if kind.key in worn]
    return below, legend


def map_figure(spec: PageSpec, players: list[str], colours: Mapping[str, str], *,
               now: bool = False) -> go.Figure:
    """The boards of `spec` on its map, with a slider over the frames (the last one shown
    first); the marks of places the map says it cannot place (`BoardMap.unplaced`) are left
    off. `now`: the last board alone, without the slider (the live page of `ledger serve`).
    ValueError when a frame marks a place the map neither places nor names unplaced, or gives
    a badge of a kind the map does not have."""
    board = spec.map
    assert board is not None
    unknown = sorted({m.place for f in spec.frames for m in f.marks}
                     - set(board.places) - set(board.unplaced))
    if unknown:
        raise ValueError(f"no map position for {', '.join(unknown)}")
    kinds = {kind.key for kind in board.badges}
    strange = sorted({b.kind for f in spec.frames for m in f.marks for b in m.badges} - kinds)
    if strange:
        raise ValueError(f"no kind of badge {', '.join(map(repr, strange))} on the map")
    frames = [dataclasses.replace(f, marks=tuple(m for m in f.marks if m.place in board.places))
              for f in spec.frames]
    below, legend = _map_layers(board, {b.kind for f in frames for m in f.marks
                                        for b in m.badges})
    first = len(below)                       # the index of the first trace a frame redraws
    drawn = _marks_traces(frames[-1].marks, board, colours)
    traces = [*below, *drawn, *legend]
    for p in players:     # a legend entry per player
        traces.append(go.Scattergeo(lat=[None], lon=[None], mode="markers", name=p,
                                    marker={"color": colours[p], "size": 10}))
    fig = go.Figure(traces)
    if not now:
        fig.frames = [go.Frame(name=str(k), traces=list(range(first, first + len(drawn))),
                               data=_marks_traces(f.marks, board, colours))
                      for k, f in enumerate(frames)]
    steps = [{"method": "animate", "label": f.label,
              "args": [[str(k)], {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
                                  "transition": {"duration": 0}}]}
             for k, f in enumerate(frames)]
    sliders = [] if now else [
        {"active": len(frames) - 1, "steps": steps, "pad": {"t": 10}, "x": 0.02, "len": 0.96,
         "font": {"color": "rgba(0,0,0,0)", "size": 1},
         "currentvalue": {"prefix": "", "visible": True, "xanchor": "left",
                          "font": {"size": 14, "color": "#222"}}}]
    title = ("The board now" if now else
             f"The board after each turn ({len(frames)} boards; drag the slider)")
    area = board.area
    projection: dict[str, Any] = {"type": area.projection, "rotation": {"lon": area.centre_lon}}
    if area.parallels:
        projection["parallels"] = list(area.parallels)
    caption = f" — {board.caption}" if board.caption else ""
    fig.update_layout(
        title={"text": f"{title}{caption}", "x": 0.01, "font": {"size": 15}},
        width=WIDE_CHART_WIDTH, height=MAP_HEIGHT, margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
        geo={"scope": area.region, "resolution": 110, "projection": projection,
             "lataxis": {"range": list(area.lat)}, "lonaxis": {"range": list(area.lon)},
             "showland": True, "landcolor": "#f4f1ea", "showocean": True,
             "oceancolor": "#e3eef8", "showcountries": True, "countrycolor": "#d4d4d4",
             "showcoastlines": True, "coastlinecolor": "#9b9b9b", "showframe": False,
             "showlakes": False},
        sliders=sliders)
    return fig


# --- a ruleset without a page hook ---------------------------------------------------------------


def default_page(rs: Ruleset) -> Callable[[PageGame, Any], PageSpec]:
    """The page of a ruleset that has no `page` hook: the board after each event it carried out,
    as its `board_lines` prints it (else as JSON), labelled with where the event happened, its
    type and its actor."""
    def lines_of(view: Mapping) -> list[str]:
        if rs.board_lines is not None:
            return list(rs.board_lines(dict(view)))
        return [json.dumps(view, default=str, sort_keys=True)]

    def label_of(step: PageStep) -> str:
        phase, round_, turn = step.position
        return f"{phase}, round {round_}, turn {turn}: {step.type}" + \
            (f" by {step.actor}" if step.actor else "")

    def page(game: PageGame, data: Any) -> PageSpec:
        done = [s for s in game.steps if s.view is not None and s.applied]
        if not done:
            raise ValueError("no event was carried out: there is no board to draw")
        frames = tuple(Frame(label_of(s), lines=tuple(lines_of(s.view))) for s in done)
        return PageSpec(frames, rounds=max(s.position[1] for s in done), lead=rs.title)

    return page


# --- the page -------------------------------------------------------------------------------------


@dataclass
class GameFigures:
    """What a game's page draws: the ruleset's page (its spec), the players' colours, the board
    on its map (None for a game without a map: its frames are text) and the charts by round."""

    spec: PageSpec
    colours: dict[str, str]
    board: Chart | None
    charts: list[Chart]


def game_figures(rs: Ruleset, game: PageGame, data: Any = None, *,
                 now: bool = False) -> GameFigures:
    """The figures of one game's page, from the ruleset's `page` hook (or `default_page`) over
    `game`; `data`: the data it was judged with (default: the ruleset's shipped data); `now`:
    the board as it is now, without the slider over the turns (the live page). ValueError when
    there is nothing to draw."""
    spec = (rs.page or default_page(rs))(game, rs.default_data() if data is None else data)
    if not spec.frames:
        raise ValueError("the ruleset gives no board to draw")
    players = list(game.players)
    colours = player_colours(players)
    charts = [chart(c, BY_ROUND, colours, layout="page") for c in spec.charts]
    board = (Chart("board-map", "The board", map_figure(spec, players, colours, now=now))
             if spec.map is not None else None)
    return GameFigures(spec, colours, board, charts)


def render_game_page(j: Judgement, out_path: str | Path, *, data: Any = None) -> GamePageReport:
    """Write the page of one judged game to `out_path`. The judgement must keep the board after
    each event (`judge(read, views=True)`); `data` is the data it was judged with (default: the
    ruleset's shipped data). ValueError when there is nothing to draw."""
    if j.fatal is not None or not j.steps:
        raise ValueError(f"{j.file}: there is no game to draw ({j.fatal or 'no events'})")
    if all(step.view is None for step in j.steps):
        raise ValueError(f"{j.file}: the judgement has no boards; judge it with views=True")
    if j.ruleset not in ruleset_names():
        raise ValueError(f"{j.file}: no ruleset {j.ruleset!r} is registered to draw it")
    rs = get_ruleset(j.ruleset)
    try:
        figures = game_figures(rs, page_game(j), data)
        spec, charts, board = figures.spec, figures.charts, figures.board
        head = PAGE_STYLE + (geo_assets_script(spec.map.area.region) if spec.map is not None
                             else "")
        if board is not None:
            head += NARROW_SCRIPT % {
                "legend": sum(1 for t in board.figure.data if t.showlegend is not False),
                "aspect": map_aspect(spec.map.area),
                "title": json.dumps(f"The board after each turn ({len(spec.frames)} boards)"),
                "narrow_map": NARROW_MAP}
        elif charts:
            head += NARROW_SCRIPT % {"legend": 0, "aspect": 1, "title": '""', "narrow_map": NARROW_MAP}
    except ValueError as exc:
        raise ValueError(f"{j.file}: {exc}") from None
    fragments = chart_html(([board] if board else []) + charts)
    findings = len(j.findings)
    title = f"Game {j.game_id}: {outcome_text(j.result)}"
    note = ((f"{html.escape(spec.lead)}; " if spec.lead else "")
            + f"{html.escape(', '.join(j.players))}; {j.events} events, {findings} "
              f"finding{'s' if findings != 1 else ''} (<code>ledger audit</code>).")
    if spec.about:
        note += " " + html.escape(spec.about, quote=False)
    if board is None:
        note += (" There is no map of this board here: the board after each turn is as "
                 "<code>ledger replay</code> prints it.")
    body = f"<h1>{html.escape(title)}</h1><p class='note'>{note}</p>"
    unplaced = spec.map.unplaced if spec.map is not None else ()
    if board is not None:
        body += f"<h2>The board</h2>{fragments['board-map']}"
        if unplaced:
            names = [spec.map.names.get(p, p) for p in unplaced]
            body += (f"<p class='warning'>Not on the map (the map has no position for "
                     f"{'it' if len(names) == 1 else 'them'}): "
                     f"{html.escape(', '.join(names))}.</p>")
        final = spec.frames[-1].lines
        if final:
            body += ("<h3>The final board</h3><ul class='board'>"
                     + "".join(f"<li>{html.escape(line)}</li>" for line in final) + "</ul>")
    if charts:
        body += (f"<h2>{BY_ROUND}</h2><div class='grid'>"
                 + "".join(fragments[c.id] for c in charts) + "</div>")
    if board is None:
        body += f"<h2>The board after each turn ({len(spec.frames)})</h2>" + _text_boards(spec)
    size = write_page(html_page(title, body, head=head), out_path)
    return GamePageReport(Path(out_path), len(spec.frames), spec.rounds, size, tuple(unplaced))


def _text_boards(spec: PageSpec) -> str:
    """Each frame's board as text, the last one open."""
    boards = []
    for k, f in enumerate(spec.frames):
        text = "\n".join(f.lines) or "(an empty board)"
        is_open = " open" if k == len(spec.frames) - 1 else ""
        boards.append(f"<details{is_open}><summary>{html.escape(f.label)}</summary>"
                      f"<pre class='board'>{html.escape(text)}</pre></details>")
    return "".join(boards)


def outcome_text(result: GameResult | None) -> str:
    """A game's result in words: "blue wins (7 crowns) in round 7", "not over"."""
    if result is None:
        return "not over"
    if result.winners:
        verb = "wins" if len(result.winners) == 1 else "win"
        return (f"{' and '.join(result.winners)} {verb} ({result.reason}) "
                f"in round {result.round}")
    return f"no winner ({result.reason})"
