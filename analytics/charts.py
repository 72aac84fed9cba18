"""Draw the plain-data charts and blocks a ruleset returns (engine.core.charts) with plotly and
HTML: one renderer for every game's page and dashboard sections.

    figure(spec)                          # a plotly Figure, None for an empty chart
    chart(spec, "Outcomes")               # an analytics.page.Chart (its empty sentence kept)
    blocks_html([Heading(..), Note(..), Table(..)])
"""

from __future__ import annotations

import html
import re
from typing import Iterable, Mapping

import plotly.graph_objects as go

from analytics.page import CHART_HEIGHT, CHART_WIDTH, Chart, table_html, text_html
from engine.core.charts import Bars, ChartSpec, Heading, Note, Points, Table

SYMBOLS = {"tick": "line-ew-open"}      # a spec's marker names -> plotly's
ERROR_COLOUR = "#777"
THRESHOLD_COLOUR = "#888"
OTHER_COLOUR = "#9d755d"                 # a bar about a player with no colour given


# --- layout: sizes worked out from the text, so nothing overlaps -----------------------------------
#
# plotly places a chart's title, tick labels and legend where it is told, not where they fit: a
# long title runs under the toolbar, rotated labels run into a legend below them. So the layout
# is computed here from the lengths of the texts (an average character is CHAR font sizes wide):
# the title below the toolbar, wrapped to the chart's width; category labels wrapped onto level
# lines when they fit their slot, else turned upright; the legend at the bottom, under the axis
# title, in as many rows as its items need; the margins and the height made to hold them all.

TOOLBAR = 38            # px at the top kept for plotly's toolbar (the modebar)
TITLE_SIZE, FONT_SIZE = 15, 12
CHAR = 0.6              # an average character's width, in font sizes
LINE = 1.3              # a line's height, in font sizes
PLOT_MIN_HEIGHT = 220   # the plotting area never gets smaller than this
NARROW_WIDTH = 330      # a chart on a phone (analytics.page lays it out again there)
MAX_LABEL_LINES = 4
SMALL_LABELS = 10       # px: the font x labels take before they are slanted


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def _px(text: str, size: float) -> float:
    """The width of the widest line of `text` (lines broken by <br>)."""
    return max((len(html.unescape(_plain(line))) for line in re.split(r"<br\s*/?>", str(text))),
               default=0) * CHAR * size


def _lines(text: str) -> int:
    return len(re.split(r"<br\s*/?>", str(text)))


def _wrap(text: str, width: float, size: float, breaks: str = " ") -> str:
    """`text` broken onto lines of at most `width` px at the spaces (and after the characters in
    `breaks` other than a space), greedily; a word longer than a line stays whole."""
    if "<br" in text or _px(text, size) <= width:
        return text
    words = re.findall(r"[^" + re.escape(breaks) + r"]+[" + re.escape(breaks) + r"]*", text)
    lines, line = [], ""
    for w in words:
        if line and _px((line + w).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = w
        else:
            line += w
    lines.append(line.rstrip())
    if len(lines) > 1 and len(lines[-1]) <= 2:     # never a "1" alone on the last line
        lines[-2:] = [lines[-2] + lines[-1]]
    return "<br>".join(lines)


def _categories(spec: ChartSpec) -> list[str] | None:
    """The x categories in order, when the x axis has labels rather than numbers."""
    values: dict[str, None] = {}
    for t in spec.traces:
        for x in t.x:
            if x is not None:
                values.setdefault(x, None)
    if not values or not all(isinstance(x, str) for x in values):
        return None
    return list(values)


def _whole_ticks(spec: ChartSpec) -> dict:
    """Ticks on whole numbers only, when every x is a whole number (rounds, dice faces): a
    chart of three rounds is not marked at round 0.5. At most about a dozen ticks."""
    xs = [x for t in spec.traces for x in t.x if x is not None]
    if not xs or not all(isinstance(x, int) and not isinstance(x, bool) for x in xs):
        return {}
    step = max(1, -(-(max(xs) - min(xs)) // 12))
    return {"tickmode": "linear", "tick0": min(xs), "dtick": step}


def _legend_items(spec: ChartSpec) -> list[str]:
    names = [t.name for t in spec.traces if t.name]
    if spec.threshold is not None:
        names.append(spec.threshold.label)
    return names


def _legend_rows(items: list[str], width: float) -> int:
    """Rows a horizontal legend of `items` takes in `width` px: plotly lines its items up in
    columns as wide as the widest (an item: its symbol, text, a gap)."""
    widest = max(46 + _px(item, FONT_SIZE) for item in items)
    per_row = max(1, int(width // widest))
    return -(-len(items) // per_row)


def _category_labels(categories: list[str], slot: float, size: int, level: bool) -> dict:
    """How the x labels are written: level, broken onto lines where they fit their slot (at the
    chart's font size, else a smaller one); else slanted. text, angle, size, and the height
    they take."""
    for s in sorted({size, min(size, SMALL_LABELS)}, reverse=True):
        # the spec's own line breaks are kept (level labels); else broken here where they fit
        text = categories if level else [_wrap(c, slot, s, breaks=" -/") for c in categories]
        if all(_px(t, s) <= slot for t in text) and \
                max(_lines(t) for t in text) <= MAX_LABEL_LINES:
            return {"text": text, "angle": 0, "size": s,
                    "height": max(_lines(t) for t in text) * s * LINE}
    flat = [_plain(re.sub(r"<br\s*/?>", " ", c)) for c in categories]
    s = min(size, SMALL_LABELS)
    # slanted at 45 degrees: a label of length L reaches L / sqrt(2) down
    return {"text": flat, "angle": -45, "size": s,
            "height": max(_px(t, s) for t in flat) * 0.71 + s * LINE * 0.71}


def chart_layout(spec: ChartSpec, width: int = CHART_WIDTH) -> dict:
    """The plotly layout of `spec` drawn `width` px wide: title, axes, legend, margins, height."""
    narrow = width < CHART_WIDTH
    title_size = TITLE_SIZE - (2 if narrow else 0)
    left, right = (50 if narrow else 60), 16
    plot_width = width - left - right
    title = _wrap(spec.title, width - 24, title_size)
    top = TOOLBAR + _lines(title) * title_size * LINE + 10
    x_title = _wrap(spec.x_title, plot_width, FONT_SIZE + 2)
    xaxis: dict = {"title": {"text": x_title}, "automargin": True}
    yaxis: dict = {"automargin": True}
    tick_size = spec.label_size or (FONT_SIZE - (1 if narrow else 0))
    xaxis["tickfont"] = {"size": tick_size}
    if spec.level_labels:
        xaxis["tickangle"] = 0
    labels_height = tick_size * LINE
    categories = _categories(spec)
    if categories is not None:
        ticks = _category_labels(categories, plot_width / len(categories) - 4, tick_size,
                                 spec.level_labels)
        xaxis.update(tickmode="array", tickvals=categories, ticktext=ticks["text"],
                     tickangle=ticks["angle"], tickfont={"size": ticks["size"]})
        labels_height = ticks["height"]
    else:
        xaxis.update(_whole_ticks(spec))
    items = _legend_items(spec)
    legend_rows = _legend_rows(items, width - 20) if len(items) > 1 else 0
    legend_height = legend_rows * (FONT_SIZE * LINE + 6)
    bottom = 10 + labels_height + (_lines(x_title) * (FONT_SIZE + 2) * LINE + 12
                                   if spec.x_title else 0) \
        + (legend_height + 8 if legend_rows else 0)
    height = max(CHART_HEIGHT, round(top + PLOT_MIN_HEIGHT + bottom))
    y_title = _wrap(spec.y_title, height - top - bottom - 10, FONT_SIZE + 2)
    yaxis["title"] = {"text": y_title}
    left += (_lines(y_title) - 1) * (FONT_SIZE + 2) * LINE
    out = {
        "title": {"text": title, "x": 0, "xref": "container", "xanchor": "left",
                  "yref": "container", "y": 1, "yanchor": "top",
                  "pad": {"t": TOOLBAR, "l": 12}, "font": {"size": title_size}},
        "xaxis": xaxis, "yaxis": yaxis, "template": "plotly_white",
        "width": width, "height": height,
        "margin": {"l": round(left), "r": right, "t": round(top), "b": round(bottom)},
        "showlegend": legend_rows > 0,
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "yref": "container",
                   "y": 0, "yanchor": "bottom", "font": {"size": FONT_SIZE}},
        # a label on a narrow bar is shown at this size at least, not shrunk out of sight
        "uniformtext": {"minsize": 9, "mode": "show"},
    }
    if spec.bars:
        out["barmode"] = spec.bars
    if spec.y_range is not None:
        yaxis["range"] = list(spec.y_range)
    if spec.x_range is not None:
        xaxis["range"] = list(spec.x_range)
    return out


def _bars(b: Bars, colours: Mapping[str, str]) -> go.Bar:
    kw: dict = {"x": list(b.x), "y": list(b.y), "name": b.name}
    if b.players is not None:
        kw["marker_color"] = [colours.get(p, b.colour or OTHER_COLOUR) for p in b.players]
    elif b.colour is not None:
        kw["marker_color"] = b.colour
    if b.text is not None:
        kw["text"] = list(b.text)
        kw["cliponaxis"] = False       # a label wider than its bar is not cut at the axis
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
           layout_kind: str = "dashboard", width: int = CHART_WIDTH) -> go.Figure | None:
    """The plotly figure of `spec` (None when it has no series): `colours` gives a player's
    series or bar its colour; `layout_kind` "dashboard" or "page" (a game's page) lay it out
    alike; `width` in px."""
    if spec.is_empty:
        return None
    colours = colours or {}
    fig = go.Figure([_bars(t, colours) if isinstance(t, Bars) else _points(t, colours)
                     for t in spec.traces])
    if spec.threshold is not None:
        # the line across the chart; its label is in the legend, where no bar label runs into it
        fig.add_hline(y=spec.threshold.y, line_dash="dash", line_color=THRESHOLD_COLOUR)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=spec.threshold.label,
                                 line={"dash": "dash", "color": THRESHOLD_COLOUR},
                                 hoverinfo="skip", showlegend=True))
    fig.update_layout(chart_layout(spec, width))
    return fig


def chart(spec: ChartSpec, section: str, colours: Mapping[str, str] | None = None,
          layout: str = "dashboard") -> Chart:
    """`spec` drawn as a Chart of the page's `section`, with its layout for a phone's width."""
    fig = figure(spec, colours, layout)
    narrow = None if fig is None else _narrow(spec)
    return Chart(spec.id, section, fig, spec.empty, narrow)


def _narrow(spec: ChartSpec) -> dict:
    """What changes in the layout when the chart is drawn NARROW_WIDTH px wide."""
    narrow = chart_layout(spec, NARROW_WIDTH)
    del narrow["template"]          # plotly.js takes no template by name: the figure's stays
    return narrow


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
