"""A picture of one game: the board after each turn and the numbers the game charts by round,
for any ruleset. The ruleset's `page` hook says what to draw, as plain data
(engine.core.page.PageSpec); this module draws it.

    j = judge(read_log("game42.jsonl"), views=True)    # views: the board after every event
    render_game_page(j, "game.html")                    # one self-contained HTML page

A ruleset with a map (`PageSpec.map`) gets its board on a map with a slider over the turns:
places at their positions, coloured by holder and sized by their count, the shapes and rings the
ruleset chose, the lines and labels of its board; the base map and plotly.js are embedded, so the
page works offline. A ruleset without one gets the board after each turn as text (its frames'
lines). Its charts by round follow. A ruleset with no `page` hook gets the board after each
event as `board_lines` prints it.

Everything is read from the judgement (`Judgement.steps[i].view`, the engine's board view after
each event): the page shows the game as the judge judged it.
"""

from __future__ import annotations

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
from engine.core.page import BoardMap, Frame, Mark, PageGame, PageSpec, PageStep
from engine.core.ruleset import Ruleset, get_ruleset, ruleset_names
from replay.judge import Judgement

APPLIED = frozenset({"ok", "claim", "illegal-applied"})   # the judge's statuses of a carried-out event
NAMED_COLOURS = {"blue": "#1f6fd1", "orange": "#f28e2b", "red": "#d62728", "green": "#2ca02c",
                 "yellow": "#e9c62b", "purple": "#8c52b5", "black": "#333333",
                 "white": "#bbbbbb"}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
NOBODY = "#b9b9b9"
MAP_HEIGHT = 820
BY_ROUND = "By round"


@dataclass
class GamePageReport:
    """What render_game_page wrote."""

    path: Path
    frames: int           # boards on the slider (or listed)
    rounds: int
    bytes: int


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


def _marks_trace(marks: tuple[Mark, ...], places: Mapping[str, tuple[float, float]],
                 colours: Mapping[str, str]) -> go.Scattergeo:
    lat, lon, colour, size, symbol, ring, ring_width, hover = [], [], [], [], [], [], [], []
    for m in marks:
        la, lo = places[m.place]
        lat.append(la)
        lon.append(lo)
        colour.append(colours.get(m.owner, NOBODY))
        size.append(7 + 3.2 * math.sqrt(m.count))
        symbol.append(m.shape)
        ring.append(colours.get(m.attacker, "#ffffff") if m.attacker else "#ffffff")
        ring_width.append(4 if m.attacker else 1)
        hover.append(f"<b>{m.place}</b>" + (f" {m.subtitle}" if m.subtitle else "")
                     + "".join(f"<br>{line}" for line in m.lines))
    return go.Scattergeo(lat=lat, lon=lon, mode="markers", name="territories",
                         hovertext=hover, hoverinfo="text", showlegend=False,
                         marker={"color": colour, "size": size, "symbol": symbol,
                                 "line": {"color": ring, "width": ring_width}, "opacity": 0.9})


def _map_layers(board: BoardMap) -> tuple[list[go.Scattergeo], list[go.Scattergeo]]:
    """The traces under the places (lines) and over them (labels)."""
    at = board.places
    below = []
    for layer in board.lines:
        lat: list[float | None] = []
        lon: list[float | None] = []
        for a, b in layer.segments:
            lat += [at[a][0], at[b][0], None]
            lon += [at[a][1], at[b][1], None]
        line = {"color": layer.colour, "width": layer.width}
        if layer.dashed:
            line["dash"] = "dash"
        below.append(go.Scattergeo(lat=lat, lon=lon, mode="lines", name=layer.name, line=line,
                                   hoverinfo="skip"))
    above = [go.Scattergeo(
        lat=[at[p][0] for p in labels.places], lon=[at[p][1] for p in labels.places],
        mode="markers+text", name=labels.name, text=list(labels.texts),
        textposition="top center", textfont={"size": 10, "color": "#333"}, hoverinfo="skip",
        marker={"symbol": labels.symbol, "size": 9, "color": list(labels.colours),
                "line": {"color": "#ffffff", "width": 0.5}})
        for labels in board.labels]
    return below, above


def map_figure(spec: PageSpec, players: list[str], colours: Mapping[str, str]) -> go.Figure:
    """The boards of `spec` on its map, with a slider over the frames (the last one shown
    first). ValueError when a frame marks a place the map does not place."""
    board, frames = spec.map, spec.frames
    assert board is not None
    unplaced = sorted({m.place for f in frames for m in f.marks} - set(board.places))
    if unplaced:
        raise ValueError(f"no map position for {', '.join(unplaced)}")
    below, above = _map_layers(board)
    marked = len(below)                       # the index of the places' trace
    traces = [*below, _marks_trace(frames[-1].marks, board.places, colours), *above]
    for p in players:     # a legend entry per player
        traces.append(go.Scattergeo(lat=[None], lon=[None], mode="markers", name=p,
                                    marker={"color": colours[p], "size": 10}))
    fig = go.Figure(traces)
    fig.frames = [go.Frame(name=str(k), traces=[marked],
                           data=[_marks_trace(f.marks, board.places, colours)])
                  for k, f in enumerate(frames)]
    steps = [{"method": "animate", "label": f.label,
              "args": [[str(k)], {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
                                  "transition": {"duration": 0}}]}
             for k, f in enumerate(frames)]
    area = board.area
    caption = f" — {board.caption}" if board.caption else ""
    fig.update_layout(
        title={"text": f"The board after each turn ({len(frames)} boards; drag the slider)"
                       f"{caption}", "x": 0.01, "font": {"size": 15}},
        width=WIDE_CHART_WIDTH, height=MAP_HEIGHT, margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
        geo={"scope": area.region, "resolution": 110,
             "projection": {"type": "conic conformal", "parallels": list(area.parallels),
                            "rotation": {"lon": area.centre_lon}},
             "lataxis": {"range": list(area.lat)}, "lonaxis": {"range": list(area.lon)},
             "showland": True, "landcolor": "#f4f1ea", "showocean": True,
             "oceancolor": "#e3eef8", "showcountries": True, "countrycolor": "#d4d4d4",
             "showcoastlines": True, "coastlinecolor": "#9b9b9b", "showframe": False},
        sliders=[{"active": len(frames) - 1, "steps": steps, "pad": {"t": 10},
                  "x": 0.02, "len": 0.96, "font": {"color": "rgba(0,0,0,0)", "size": 1},
                  "currentvalue": {"prefix": "", "visible": True, "xanchor": "left",
                                   "font": {"size": 14, "color": "#222"}}}])
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
        spec = (rs.page or default_page(rs))(page_game(j), rs.default_data() if data is None
                                             else data)
        if not spec.frames:
            raise ValueError("the ruleset gives no board to draw")
        colours = player_colours(j.players)
        charts = [chart(c, BY_ROUND, colours, layout="page") for c in spec.charts]
        board = Chart("board-map", "The board", map_figure(spec, j.players, colours)) \
            if spec.map is not None else None
        head = geo_assets_script(spec.map.area.region) if spec.map is not None else ""
    except ValueError as exc:
        raise ValueError(f"{j.file}: {exc}") from None
    fragments = chart_html(([board] if board else []) + charts)
    findings = len(j.findings)
    title = f"Game {j.game_id}: {_outcome(j)}"
    note = ((f"{html.escape(spec.lead)}; " if spec.lead else "")
            + f"{html.escape(', '.join(j.players))}; {j.events} events, {findings} "
              f"finding{'s' if findings != 1 else ''} (<code>ledger audit</code>).")
    if spec.about:
        note += " " + html.escape(spec.about, quote=False)
    if board is None:
        note += (" There is no map of this board here: the board after each turn is as "
                 "<code>ledger replay</code> prints it.")
    body = f"<h1>{html.escape(title)}</h1><p class='note'>{note}</p>"
    if board is not None:
        body += f"<h2>The board</h2>{fragments['board-map']}"
    if charts:
        body += (f"<h2>{BY_ROUND}</h2><div class='grid'>"
                 + "".join(fragments[c.id] for c in charts) + "</div>")
    if board is None:
        body += f"<h2>The board after each turn ({len(spec.frames)})</h2>" + _text_boards(spec)
    size = write_page(html_page(title, body, head=head), out_path)
    return GamePageReport(Path(out_path), len(spec.frames), spec.rounds, size)


def _text_boards(spec: PageSpec) -> str:
    """Each frame's board as text, the last one open."""
    boards = []
    for k, f in enumerate(spec.frames):
        text = "\n".join(f.lines) or "(an empty board)"
        is_open = " open" if k == len(spec.frames) - 1 else ""
        boards.append(f"<details{is_open}><summary>{html.escape(f.label)}</summary>"
                      f"<pre>{html.escape(text)}</pre></details>")
    return "".join(boards)


def _outcome(j: Judgement) -> str:
    if j.result is None:
        return "not over"
    if j.result.winners:
        verb = "wins" if len(j.result.winners) == 1 else "win"
        return (f"{' and '.join(j.result.winners)} {verb} ({j.result.reason}) "
                f"in round {j.result.round}")
    return f"no winner ({j.result.reason})"
