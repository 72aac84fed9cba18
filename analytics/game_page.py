"""A picture of one game: the crown race, coins, army size and territories by round for each
player, and the board after any turn on a map of Europe with a slider over the turns. A game of
another ruleset (Risk Legacy) gets the race its board view carries (Red Stars, troops,
territories, resources) and the board after each turn as the replay prints it (the ruleset's
`board_lines`): there is no map of its board here.

    j = judge(read_log("game42.jsonl"), views=True)    # views: the board after every event
    render_game_page(j, "game.html")                    # one self-contained HTML page

Territories stand at approximate real-world positions (analytics/data/territory_coords.json),
coloured by owner and sized by army; castles are squares, cities stars with their names, a
disputed territory is ringed in the attacker's colour; land borders are grey lines, sea-lines
dashed blue. The map's base layer and plotly.js are embedded, so the page works offline.

Everything is read from the judgement (`Judgement.steps[i].view`, the engine's board view after
each event): the page shows the game as the judge judged it.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from analytics.page import (
    CHART_HEIGHT, CHART_WIDTH, WIDE_CHART_WIDTH, Chart, chart_html, geo_assets_script, html_page,
    write_page,
)
from replay.judge import Judgement

APPLIED = frozenset({"ok", "claim", "illegal-applied"})
WIN_CROWNS = 7
NAMED_COLOURS = {"blue": "#1f6fd1", "orange": "#f28e2b", "red": "#d62728", "green": "#2ca02c",
                 "yellow": "#e9c62b", "purple": "#8c52b5", "black": "#333333",
                 "white": "#bbbbbb"}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
NOBODY = "#b9b9b9"
ORDER_EVENTS = {"Expanded": "expand", "SplitExpanded": "split expand", "Maneuvered": "maneuver",
                "Taxed": "tax", "Spent": "spend", "Fortified": "fortify",
                "SiegeAssaulted": "siege assault"}
MAP_HEIGHT = 820
LAND_TRACE, SEA_TRACE, TERRITORY_TRACE, CITY_TRACE = range(4)


@dataclass
class GamePageReport:
    """What render_game_page wrote."""

    path: Path
    frames: int           # boards on the slider
    rounds: int
    bytes: int


@dataclass
class _Frame:
    label: str
    view: dict


def territory_coords() -> dict[str, tuple[float, float]]:
    """(lat, lon) of each territory, from analytics/data/territory_coords.json."""
    raw = json.loads(resources.files("analytics").joinpath("data", "territory_coords.json")
                     .read_text("utf-8"))
    return {t: (c["lat"], c["lon"]) for t, c in raw["territories"].items()}


def player_colours(players: list[str]) -> dict[str, str]:
    """A colour per player: their id's colour when it names one ("blue"), else a palette's."""
    out, spare = {}, list(PALETTE)
    for p in players:
        named = NAMED_COLOURS.get(p.lower())
        out[p] = named or (spare.pop(0) if spare else "#444444")
    return out


def _army(entry: dict) -> int:
    return sum(entry.get("units", {}).values())


def round_series(j: Judgement) -> dict[int, dict]:
    """The board view at the end of each round (round 0: kingdoms placed), by round."""
    ends: dict[int, dict] = {}
    last: dict | None = j.start_view
    for step in j.steps:
        view = step.view
        if view is None:
            continue
        if last is not None and view["round"] != last["round"] and last["round"] not in ends:
            ends[last["round"]] = view
        last = view
    if last is not None and last["round"] >= 1 and last["round"] not in ends:
        ends[last["round"]] = last
    return dict(sorted(ends.items()))


def board_frames(j: Judgement) -> list[_Frame]:
    """The board after each kingdom placed, each turn and each battle, with a label saying what
    happened."""
    frames: list[_Frame] = []
    for step in j.steps:
        if step.view is None:
            continue
        applied = step.status in APPLIED
        r = step.position[1]
        if applied and step.type == "KingdomPlaced":
            frames.append(_Frame(f"Setup: {step.actor} places a kingdom"
                                 f" at {step.payload.get('city', '?')}", step.view))
            continue
        if applied and step.type == "CardRevealed":
            frames.append(_Frame(f"Round {r}, turn {step.position[2]}: {step.actor} reveals "
                                 f"{step.payload.get('card', '?')}", step.view))
            continue
        if applied and step.type == "BattleStarted":
            frames.append(_Frame(f"Round {r}: battle for {step.payload.get('territory', '?')}",
                                 step.view))
            continue
        if not frames:
            continue
        if applied and step.type in ORDER_EVENTS:
            frames[-1].label += f" · {ORDER_EVENTS[step.type]}"
        frames[-1].view = step.view
    return frames


def _territory_trace(view: dict, data: Any, coords: dict, colours: dict) -> go.Scattergeo:
    board = view.get("board", {})
    lat, lon, colour, size, symbol, ring, ring_width, hover = [], [], [], [], [], [], [], []
    for t in data.territories:
        entry = board.get(t, {})
        owner = entry.get("owner")
        army = _army(entry)
        la, lo = coords[t]
        lat.append(la)
        lon.append(lo)
        colour.append(colours.get(owner, NOBODY))
        size.append(7 + 3.2 * math.sqrt(army))
        symbol.append("square" if entry.get("castle") else "circle")
        attacker = entry.get("attacker")
        ring.append(colours.get(attacker, "#ffffff") if attacker else "#ffffff")
        ring_width.append(4 if attacker else 1)
        units = ", ".join(f"{n} {u}" for u, n in entry.get("units", {}).items()) or "no units"
        text = f"<b>{t}</b>" + (f" ({entry['city']})" if entry.get("city") else "")
        text += f"<br>{owner or 'unclaimed'}: {units}"
        text += " · castle" if entry.get("castle") else ""
        if attacker:
            attacking = ", ".join(f"{n} {u}" for u, n in entry.get("attacker_units", {}).items())
            text += f"<br>attacked by {attacker}: {attacking or 'no units'}"
        hover.append(text)
    return go.Scattergeo(lat=lat, lon=lon, mode="markers", name="territories",
                         hovertext=hover, hoverinfo="text", showlegend=False,
                         marker={"color": colour, "size": size, "symbol": symbol,
                                 "line": {"color": ring, "width": ring_width}, "opacity": 0.9})


def _border_traces(data: Any, coords: dict) -> list[go.Scattergeo]:
    land_lat, land_lon, sea_lat, sea_lon = [], [], [], []
    for a in data.territories:
        for b in sorted(data.neighbours[a]):
            if b <= a:
                continue
            (la, lo), (lb, lob) = coords[a], coords[b]
            if b in data.land_neighbours[a]:
                land_lat += [la, lb, None]
                land_lon += [lo, lob, None]
            else:
                sea_lat += [la, lb, None]
                sea_lon += [lo, lob, None]
    return [
        go.Scattergeo(lat=land_lat, lon=land_lon, mode="lines", name="land border",
                      line={"color": "#8a8a8a", "width": 1}, hoverinfo="skip"),
        go.Scattergeo(lat=sea_lat, lon=sea_lon, mode="lines", name="sea-line",
                      line={"color": "#3b7dd8", "width": 1.5, "dash": "dash"}, hoverinfo="skip"),
    ]


def _city_trace(data: Any, coords: dict) -> go.Scattergeo:
    cities = list(data.cities.items())
    return go.Scattergeo(
        lat=[coords[t][0] for t, _ in cities], lon=[coords[t][1] for t, _ in cities],
        mode="markers+text", name="city (gold or black crown)",
        text=[c.name for _, c in cities], textposition="top center",
        textfont={"size": 10, "color": "#333"}, hoverinfo="skip",
        marker={"symbol": "star", "size": 9,
                "color": ["#d4a017" if c.gold else "#222222" for _, c in cities],
                "line": {"color": "#ffffff", "width": 0.5}})


def map_figure(j: Judgement, frames: list[_Frame], data: Any, colours: dict) -> go.Figure:
    """The board on a map of Europe, with a slider over `frames` (the last one shown first)."""
    coords = territory_coords()
    missing = [t for t in data.territories if t not in coords]
    if missing:
        raise ValueError(f"no map position for {', '.join(missing)} "
                         f"(analytics/data/territory_coords.json)")
    traces = [*_border_traces(data, coords), _territory_trace(frames[-1].view, data, coords,
                                                              colours), _city_trace(data, coords)]
    for p in j.players:     # a legend entry per player
        traces.append(go.Scattergeo(lat=[None], lon=[None], mode="markers", name=p,
                                    marker={"color": colours[p], "size": 10}))
    fig = go.Figure(traces)
    fig.frames = [go.Frame(name=str(k), traces=[TERRITORY_TRACE],
                           data=[_territory_trace(f.view, data, coords, colours)])
                  for k, f in enumerate(frames)]
    steps = [{"method": "animate", "label": f.label,
              "args": [[str(k)], {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
                                  "transition": {"duration": 0}}]}
             for k, f in enumerate(frames)]
    fig.update_layout(
        title={"text": f"The board after each turn ({len(frames)} boards; drag the slider) — "
                       f"territories at approximate positions", "x": 0.01, "font": {"size": 15}},
        width=WIDE_CHART_WIDTH, height=MAP_HEIGHT, margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
        geo={"scope": "europe", "resolution": 110,
             "projection": {"type": "conic conformal", "parallels": [38, 62],
                            "rotation": {"lon": 12}},
             "lataxis": {"range": [31, 66]}, "lonaxis": {"range": [-13, 38]},
             "showland": True, "landcolor": "#f4f1ea", "showocean": True,
             "oceancolor": "#e3eef8", "showcountries": True, "countrycolor": "#d4d4d4",
             "showcoastlines": True, "coastlinecolor": "#9b9b9b", "showframe": False},
        sliders=[{"active": len(frames) - 1, "steps": steps, "pad": {"t": 10},
                  "x": 0.02, "len": 0.96, "font": {"color": "rgba(0,0,0,0)", "size": 1},
                  "currentvalue": {"prefix": "", "visible": True, "xanchor": "left",
                                   "font": {"size": 14, "color": "#222"}}}])
    return fig


def _line_chart(chart_id: str, title: str, y_title: str, series: dict[int, dict],
                players: list[str], colours: dict, value,
                x_title: str = "end of round (0: kingdoms placed)") -> Chart:
    rounds = list(series)
    fig = go.Figure()
    for p in players:
        fig.add_trace(go.Scatter(x=rounds, y=[value(series[r], p) for r in rounds],
                                 mode="lines+markers", name=p, line={"color": colours[p]}))
    fig.update_layout(title={"text": title, "x": 0.01, "font": {"size": 15}},
                      xaxis_title=x_title, yaxis_title=y_title,
                      template="plotly_white", width=CHART_WIDTH, height=CHART_HEIGHT,
                      margin={"l": 60, "r": 20, "t": 60, "b": 50},
                      legend={"orientation": "h", "y": -0.3})
    return Chart(chart_id, "By round", fig)


def _army_of(view: dict, p: str) -> int:
    total = 0
    for entry in view.get("board", {}).values():
        if entry.get("owner") == p:
            total += _army(entry)
        if entry.get("attacker") == p:
            total += sum(entry.get("attacker_units", {}).values())
    return total


def render_game_page(j: Judgement, out_path: str | Path, *, data: Any = None) -> GamePageReport:
    """Write the page of one judged game to `out_path`. The judgement must keep the board after
    each event (`judge(read, views=True)`); `data` is the board it was judged with (default: the
    shipped one). ValueError when there is nothing to draw."""
    if j.fatal is not None or not j.steps:
        raise ValueError(f"{j.file}: there is no game to draw ({j.fatal or 'no events'})")
    if all(step.view is None for step in j.steps):
        raise ValueError(f"{j.file}: the judgement has no boards; judge it with views=True")
    if j.ruleset != "risk-europe":
        return _render_lines_page(j, out_path)
    if data is None:
        from engine.risk_europe.board import default_data
        data = default_data()
    colours = player_colours(j.players)
    frames = board_frames(j)
    if not frames:
        raise ValueError(f"{j.file}: no kingdom was placed: there is no board to draw")
    series = round_series(j)
    n = len(series) - 1 if 0 in series else len(series)
    rounds = f"{n} round{'s' if n != 1 else ''}"
    charts = [
        Chart("board-map", "The board", map_figure(j, frames, data, colours)),
        _line_chart("crown-race", f"The crown race ({rounds}; {WIN_CROWNS} crowns win)", "crowns",
                    series, j.players, colours, lambda v, p: v["players"][p]["crowns"]),
        _line_chart("coins", f"Coins at the end of each round ({rounds})", "coins", series,
                    j.players, colours, lambda v, p: v["players"][p]["coins"]),
        _line_chart("army", f"Army on the board ({rounds})", "units", series, j.players, colours,
                    _army_of),
        _line_chart("territories", f"Territories held ({rounds})", "territories", series,
                    j.players, colours, lambda v, p: v["players"][p]["territories"]),
    ]
    crown_chart = charts[1].figure
    crown_chart.add_hline(y=WIN_CROWNS, line_dash="dash", line_color="#888",
                          annotation_text=f"{WIN_CROWNS} crowns win",
                          annotation_position="top left")
    fragments = chart_html(charts)
    findings = len(j.findings)
    title = f"Game {j.game_id}: {_outcome(j)}"
    body = (f"<h1>{html.escape(title)}</h1><p class='note'>{html.escape(', '.join(j.players))}; "
            f"{j.events} events, {findings} finding{'s' if findings != 1 else ''} "
            f"(<code>ledger audit</code>). Territories are drawn at approximate real-world "
            f"positions; squares are castles, stars cities (gold or black crown), a thick ring "
            f"the attacker of a disputed territory.</p>"
            f"<h2>The board</h2>{fragments['board-map']}"
            f"<h2>By round</h2><div class='grid'>"
            + "".join(fragments[c.id] for c in charts[1:]) + "</div>")
    size = write_page(html_page(title, body, head=geo_assets_script()), out_path)
    return GamePageReport(Path(out_path), len(frames), n, size)


def _outcome(j: Judgement) -> str:
    if j.result is None:
        return "not over"
    if j.result.winners:
        verb = "wins" if len(j.result.winners) == 1 else "win"
        return (f"{' and '.join(j.result.winners)} {verb} ({j.result.reason}) "
                f"in round {j.result.round}")
    return f"no winner ({j.result.reason})"


# --- a ruleset without a map here (Risk Legacy): the board as the replay prints it -----------

# what a turn's events did, in a turn's label ("recruits · attacks 3× · takes 2 · draws a card")
TURN_ACTS = {"RedStarBought": "buys a Red Star", "JoinedWar": "joins the war",
             "Recruited": "recruits", "Expanded": "expands", "AttackDeclared": "attacks",
             "MovedIn": "takes", "MissileFired": "fires a Missile", "ScarPlaced": "places a scar",
             "Maneuvered": "maneuvers", "CardDrawn": "draws a card",
             "MissionCompleted": "completes a mission", "RewardChosen": "chooses a reward"}
# the races charted when the board view carries them: key, title, axis
RACES = (("red_stars", "The Red Star race ({rounds}; 4 Red Stars win)", "Red Stars"),
         ("troops", "Troops on the board ({rounds})", "troops"),
         ("territories", "Territories held ({rounds})", "territories"),
         ("resources", "Resources in hand ({rounds})", "resources on their cards"))


def turn_frames(j: Judgement) -> list[_Frame]:
    """The board after each faction is chosen, each turn and the rewards, labelled with what
    happened ("Round 2, ann: recruits · attacks 4× · takes 3")."""
    frames: list[_Frame] = []
    acts: dict[str, int] = {}
    open_frame: _Frame | None = None
    player: str | None = None          # whose turn the open frame is
    for step in j.steps:
        if step.view is None or step.status not in APPLIED:
            continue
        phase, round_, _ = step.position
        if step.type == "FactionChosen":
            frames.append(_Frame(f"Setup: {step.actor} takes {step.payload.get('faction', '?')} "
                                 f"in {step.payload.get('territory', '?')}", step.view))
            continue
        if (open_frame is not None and phase == "over"
                and not open_frame.label.startswith("The end")):
            open_frame.label += _acts_text(acts)        # the game ended in this turn
            open_frame = None
        if step.type not in TURN_ACTS and step.type != "TurnEnded" and open_frame is None:
            if frames:
                frames[-1].view = step.view
            continue
        if open_frame is None:
            player = None if phase == "over" else step.actor     # after the end: name everyone
            head = "The end" if phase == "over" else f"Round {round_}, {player or 'the table'}"
            open_frame, acts = _Frame(head, step.view), {}
            frames.append(open_frame)
        open_frame.view = step.view
        if step.type in TURN_ACTS:
            # another player's act in this turn (a defender's scar or Missile) is named as theirs
            act = TURN_ACTS[step.type] if step.actor is None or step.actor == player else \
                f"{step.actor} {TURN_ACTS[step.type]}"
            acts[act] = acts.get(act, 0) + 1
        if step.type == "TurnEnded":
            open_frame.label += _acts_text(acts)
            open_frame = None
    if open_frame is not None:
        open_frame.label += _acts_text(acts)
    return frames


def _acts_text(acts: dict[str, int]) -> str:
    if not acts:
        return ": nothing recorded"
    return ": " + " · ".join(a if n == 1 else f"{a} {n}×" for a, n in acts.items())


def _render_lines_page(j: Judgement, out_path: str | Path) -> GamePageReport:
    from engine.core.ruleset import get_ruleset

    rs = get_ruleset(j.ruleset)
    lines_of = rs.board_lines or (lambda view, indent="": [json.dumps(view, default=str)])
    frames = turn_frames(j)
    if not frames:
        raise ValueError(f"{j.file}: no turn was played: there is no board to draw")
    colours = player_colours(j.players)
    series = round_series(j)
    n = len(series) - 1 if 0 in series else len(series)
    rounds = f"{n} round{'s' if n != 1 else ''}"
    first = next(iter(series.values()), {}).get("players", {})
    some = next(iter(first.values()), {}) if first else {}
    charts = [_line_chart(f"race-{key.replace('_', '-')}", title.format(rounds=rounds), axis,
                          series, j.players, colours,
                          lambda v, p, key=key: v["players"].get(p, {}).get(key),
                          x_title="end of round (0: factions chosen)")
              for key, title, axis in RACES if key in some]
    fragments = chart_html(charts)
    boards = []
    for k, f in enumerate(frames):
        text = "\n".join(lines_of(f.view, "")) or "(an empty board)"
        is_open = " open" if k == len(frames) - 1 else ""
        boards.append(f"<details{is_open}><summary>{html.escape(f.label)}</summary>"
                      f"<pre>{html.escape(text)}</pre></details>")
    findings = len(j.findings)
    title = f"Game {j.game_id}: {_outcome(j)}"
    body = (f"<h1>{html.escape(title)}</h1><p class='note'>{html.escape(rs.title)}; "
            f"{html.escape(', '.join(j.players))}; {j.events} events, {findings} "
            f"finding{'s' if findings != 1 else ''} (<code>ledger audit</code>). There is no "
            f"map of this board here: the board after each turn is as "
            f"<code>ledger replay</code> prints it.</p>"
            + ("<h2>By round</h2><div class='grid'>"
               + "".join(fragments[c.id] for c in charts) + "</div>" if charts else "")
            + f"<h2>The board after each turn ({len(frames)})</h2>" + "".join(boards))
    size = write_page(html_page(title, body), out_path)
    return GamePageReport(Path(out_path), len(frames), n, size)
