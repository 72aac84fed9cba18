"""HTML pages of plotly charts that work offline: plotly.js is embedded once, in the page itself
(`include_plotlyjs=True` on the first figure), and so is the base map a geo chart needs.

    page = html_page("Title", body_html, head=geo_assets_script())
    write_page(page, "report.html")
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Mapping

import plotly.graph_objects as go
import polars as pl

from replay.logfile import write_atomically

CONFIG = {"displaylogo": False}
# Charts have a fixed width (CHART_WIDTH; at least CHART_HEIGHT tall, taller when their labels and
# legend need it: analytics.charts.chart_layout) in a grid of fixed columns: a chart drawn to fit
# its column would be drawn before the page's layout settles and stay wrong. On a screen too
# narrow for them (a phone), each chart is laid out again for that width as it is drawn (its
# `narrow` layout, NARROW_SCREEN).
CHART_WIDTH = 640
CHART_HEIGHT = 380
NARROW_SCREEN = 700     # px: below this window width the charts take their narrow layout
WIDE_CHART_WIDTH = 2 * CHART_WIDTH + 36

# The base maps plotly.js draws for a region (its geo `scope`) at 1:110m, by region; plotly would
# fetch them from the network, so the page hands them to plotly.js first
# (analytics/data/PROVENANCE.md). A ruleset's map names its region (engine.core.page.MapArea)
# and cuts its area from it: the world's, whose land has every continent (the regional maps
# leave the land beyond their region unfilled).
BASE_MAPS = {"world": "world_110m"}
GEO_TOPOJSON = BASE_MAPS["world"]

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; }
.note { color: #555; max-width: 70em; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, 650px); gap: 16px; }
.chart { border: 1px solid #e3e3e3; border-radius: 6px; padding: 4px; min-height: 120px;
         width: fit-content; overflow: hidden; }
.chart.empty { display: flex; align-items: center; justify-content: center; color: #777; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; }
th { background: #f5f5f5; }
@media (max-width: 700px) {
  body { margin: 10px; } .grid { grid-template-columns: 100%; }
  .chart { width: auto; max-width: 100%; overflow-x: auto; }
  table { display: block; overflow-x: auto; max-width: 100%; }
}
.counted { color: #666; font-size: 12px; margin: 2px 8px 6px; max-width: 620px; }
details.left-out { margin: 8px 0 16px; } details.left-out summary { cursor: pointer; }
"""


@dataclass
class Chart:
    """One chart of a page: its id, the figure (None when there is nothing to draw), and the
    sentence shown instead when there is no figure."""

    id: str
    section: str
    figure: go.Figure | None
    empty: str = ""
    narrow: dict | None = None
    """The layout to draw the figure with on a narrow screen (its width at most), if any."""


def chart_html(charts: list[Chart], captions: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each chart's HTML fragment by id; plotly.js is embedded with the first figure. `captions`
    (chart id -> HTML) is shown under a chart, inside its frame."""
    parts, first = {}, True
    for c in charts:
        caption = (captions or {}).get(c.id, "")
        if c.figure is None:
            parts[c.id] = (f'<div class="chart empty" id="{c.id}">'
                           f'<p>{html.escape(c.empty)}</p>{caption}</div>')
            continue
        fragment = c.figure.to_html(full_html=False, include_plotlyjs=first, div_id=c.id,
                                    config=CONFIG, auto_play=False,
                                    post_script=_narrow_script(c.narrow))
        first = False
        parts[c.id] = f'<div class="chart">{fragment}{caption}</div>'
    return parts


def _narrow_script(narrow: dict | None) -> str | None:
    """JavaScript run once the chart is drawn: on a narrow screen, its narrow layout, as wide as
    the screen allows (the page's margins and the chart's frame taken off)."""
    if narrow is None:
        return None
    return ("(function(){var d=document.getElementById('{plot_id}');"
            f"if(!d||window.innerWidth>={NARROW_SCREEN})return;"
            f"var l={json.dumps(narrow, separators=(',', ':'))};"
            "l.width=Math.round(Math.max(l.width-40,Math.min(window.innerWidth-34,l.width*1.6)));"
            "[d,d.parentElement].forEach(function(e){if(e){e.style.width=l.width+'px';"
            "e.style.height=l.height+'px';}});"
            "Plotly.relayout(d,l);})();")


def geo_assets_script(region: str = "world") -> str:
    """A <script> that gives plotly.js the base map of `region`, so geo charts need no network.
    ValueError for a region there is no base map of here."""
    return f"<script>{geo_assets_js(region)}</script>"


def geo_assets_js(region: str = "world") -> str:
    """The JavaScript of `geo_assets_script` (a page that loads it as a file: the live page of
    `ledger serve`). ValueError for a region there is no base map of here."""
    if region not in BASE_MAPS:
        raise ValueError(f"no base map of the region {region!r} here (analytics/data has "
                         f"{', '.join(sorted(BASE_MAPS))})")
    name = BASE_MAPS[region]
    topojson = resources.files("analytics").joinpath("data", f"{name}.json").read_text("utf-8")
    json.loads(topojson)  # a damaged file fails here, not silently in the browser
    return ("window.PlotlyGeoAssets = window.PlotlyGeoAssets || {topojson: {}};"
            f"window.PlotlyGeoAssets.topojson[{json.dumps(name)}] = {topojson};")


def html_page(title: str, body: str, head: str = "") -> str:
    """A whole HTML document."""
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style>{head}</head><body>"
            f"{body}</body></html>\n")


def write_page(page: str, out: str | Path) -> int:
    """Write a page atomically (a temporary file, then a rename); the bytes written."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = page.encode("utf-8")
    write_atomically(out, data)         # no temporary file is left behind on error
    return len(data)


# --- tables and text ----------------------------------------------------------------------------


def _table(frame: pl.DataFrame, columns: dict[str, str], formats: dict[str, str] | None = None,
           empty: str = "none") -> str:
    """A polars frame as an HTML table (table_html)."""
    return table_html(frame.select(list(columns)).to_dicts() if frame.height else [], columns,
                      formats, empty)


def _cell(v) -> str:
    """A table cell's text: yes or no for a truth value (never Python's True/False)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def text_html(text: str) -> str:
    """Plain text as HTML: escaped, `words in backticks` set as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def table_html(rows: list[Mapping], columns: Mapping[str, str],
               formats: Mapping[str, str] | None = None, empty: str = "none") -> str:
    """Rows (dicts) as an HTML table of `columns` (key -> heading), values formatted by
    `formats` (key -> format spec); `empty` is said instead of an empty table."""
    if not rows:
        return f"<p class='note'>{html.escape(empty)}</p>"
    formats = formats or {}
    head = "".join(f"<th>{html.escape(label)}</th>" for label in columns.values())
    body = []
    for row in rows:
        cells = []
        for c in columns:
            v = row[c]
            text = "" if v is None else (format(v, formats[c]) if c in formats else _cell(v))
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
