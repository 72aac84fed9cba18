"""Draw the plain-data charts and blocks a ruleset returns (engine.core.charts) with plotly and
HTML: one renderer for every game's page and dashboard sections.

    figure(spec)                          # a plotly Figure, None for an empty chart
    chart(spec, "Outcomes")               # an analytics.page.Chart (its empty sentence kept)
    blocks_html([Heading(..), Note(..), Table(..)])
"""

from __future__ import annotations

import html
from typing import Iterable, Mapping

import plotly.graph_objects as go

from analytics.page import CHART_HEIGHT, CHART_WIDTH, Chart, table_html, text_html
from engine.core.charts import Bars, ChartSpec, Heading, Note, Points, Table

SYMBOLS = {"tick": "line-ew-open"}      # a spec's marker names -> plotly's
ERROR_COLOUR = "#777"
THRESHOLD_COLOUR = "#888"


def _dashboard_layout(fig: go.Figure, spec: ChartSpec) -> None:
    more = {"barmode": spec.bars} if spec.bars else {}
    fig.update_layout(title={"text": spec.title, "x": 0.01, "xanchor": "left",
                             "font": {"size": 15}},
                      xaxis_title=spec.x_title, yaxis_title=spec.y_title,
                      template="plotly_white", width=CHART_WIDTH, height=CHART_HEIGHT,
                      margin={"l": 60, "r": 20, "t": 60, "b": 60},
                      legend={"orientation": "h", "y": -0.25}, **more)


def _page_layout(fig: go.Figure, spec: ChartSpec) -> None:
    more = {"barmode": spec.bars} if spec.bars else {}
    fig.update_layout(title={"text": spec.title, "x": 0.01, "font": {"size": 15}},
                      xaxis_title=spec.x_title, yaxis_title=spec.y_title,
                      template="plotly_white", width=CHART_WIDTH, height=CHART_HEIGHT,
                      margin={"l": 60, "r": 20, "t": 60, "b": 50},
                      legend={"orientation": "h", "y": -0.3}, **more)


LAYOUTS = {"dashboard": _dashboard_layout, "page": _page_layout}


def _bars(b: Bars) -> go.Bar:
    kw: dict = {"x": list(b.x), "y": list(b.y), "name": b.name}
    if b.colour is not None:
        kw["marker_color"] = b.colour
    if b.text is not None:
        kw["text"] = list(b.text)
    if b.text_at is not None:
        kw["textposition"] = b.text_at
    if b.width is not None:
        kw["width"] = b.width
    if b.error_up is not None:
        kw["error_y"] = {"type": "data", "symmetric": False, "color": ERROR_COLOUR,
                         "thickness": 1, "array": list(b.error_up),
                         "arrayminus": list(b.error_down if b.error_down is not None
                                            else b.error_up)}
    return go.Bar(**kw)


def _points(p: Points, colours: Mapping[str, str]) -> go.Scatter:
    kw: dict = {"x": list(p.x), "y": list(p.y), "mode": p.mode, "name": p.name}
    colour = colours.get(p.player) if p.player is not None else p.colour
    line: dict = {}
    marker: dict = {}
    if "lines" in p.mode:
        if p.dash:
            line["dash"] = "dash"
        if colour is not None:
            line["color"] = colour
    elif colour is not None:
        marker["color"] = colour
    if p.sizes is not None:
        marker.update(size=list(p.sizes), sizemode="diameter")
    if p.symbol is not None:
        marker["symbol"] = SYMBOLS.get(p.symbol, p.symbol)
        if p.symbol == "tick":
            marker["line"] = {"width": 2}
    if p.size is not None:
        marker["size"] = p.size
    if line:
        kw["line"] = line
    if marker:
        kw["marker"] = marker
    if p.text is not None:
        kw["text"] = list(p.text)
    if p.hover is not None:
        kw["hovertext"] = list(p.hover)
    if p.hover_shows is not None:
        kw["hoverinfo"] = p.hover_shows
    return go.Scatter(**kw)


def figure(spec: ChartSpec, colours: Mapping[str, str] | None = None,
           layout: str = "dashboard") -> go.Figure | None:
    """The plotly figure of `spec` (None when it has no series): `colours` gives a player's
    series its colour; `layout` "dashboard" or "page" (a game's page: a taller legend gap)."""
    if spec.is_empty:
        return None
    colours = colours or {}
    fig = go.Figure([_bars(t) if isinstance(t, Bars) else _points(t, colours)
                     for t in spec.traces])
    LAYOUTS[layout](fig, spec)
    if spec.y_range is not None:
        fig.update_yaxes(range=list(spec.y_range))
    if spec.threshold is not None:
        fig.add_hline(y=spec.threshold.y, line_dash="dash", line_color=THRESHOLD_COLOUR,
                      annotation_text=spec.threshold.label, annotation_position="top left")
    if spec.level_labels or spec.label_size is not None:
        ticks: dict = {"tickangle": 0} if spec.level_labels else {}
        if spec.label_size is not None:
            ticks["tickfont"] = {"size": spec.label_size}
        fig.update_xaxes(**ticks)
    return fig


def chart(spec: ChartSpec, section: str, colours: Mapping[str, str] | None = None,
          layout: str = "dashboard") -> Chart:
    """`spec` drawn as a Chart of the page's `section`."""
    return Chart(spec.id, section, figure(spec, colours, layout), spec.empty)


# --- what follows a section's charts ---------------------------------------------------------------


def blocks_html(blocks: Iterable, after_table: str = "") -> str:
    """Sub-headings, notes and tables as HTML, in order; `after_table` (HTML) follows each table
    (the dashboard's line on the games counted)."""
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h3>{html.escape(b.text)}</h3>")
        elif isinstance(b, Note):
            out.append(f"<p class='note'>{text_html(b.text)}</p>")
        elif isinstance(b, Table):
            out.append(table_html(list(b.rows), b.columns, b.formats, b.empty) + after_table)
        else:
            raise TypeError(f"not a block of a section: {b!r}")
    return "".join(out)
