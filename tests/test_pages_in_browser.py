"""Both games' pages and the dashboard, opened in a real browser (headless Chromium) as a club
organizer would open them (#16): each page renders, each map has one mark per territory of its
board with the counts written on it and every territory named, and no chart is empty.

    game42's page (Risk Europe), game-01's page (Risk Legacy), and the dashboard of a store that
    ingested game42, two simulated games and the five games of campaign earth

Chromium comes from Debian's packages (`bash .ci/install-chromium.sh`, which .ci/run calls);
without it every test here is skipped, saying so. LEDGER_CHROMIUM names another binary.
Pages, DOMs (`--dump-dom`, after the scripts ran) and screenshots are kept in
$LEDGER_TEST_ARTIFACTS when set, else in pytest's temporary folder (`pytest -s` prints it).
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest

from analytics.dashboard import write_dashboard
from analytics.game_page import page_game, render_game_page
from analytics.load import load_tables
from engine.core.ruleset import get_ruleset
from ledger.store import open_store
from tests.browser_support import BROWSER, FLAGS, artifacts_folder, needs_browser
from replay.judge import Judgement, judge
from replay.logfile import read_log

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
GAMES = {"game42": SAMPLES / "game42.jsonl", "legacy-01": SAMPLES / "legacy" / "game-01.jsonl"}
STORED = [SAMPLES / "game42.jsonl", SAMPLES / "sim-0001.jsonl", SAMPLES / "sim-0002.jsonl",
          *sorted((SAMPLES / "legacy").glob("game-0*.jsonl"))]
WINDOW = "--window-size=1400,2400"
TIMEOUT = 120


pytestmark = needs_browser


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    return artifacts_folder(tmp_path_factory, "pages-in-browser", "pages, DOMs and screenshots of the browser test")


@pytest.fixture(scope="module")
def judged() -> dict[str, Judgement]:
    return {name: judge(read_log(path), views=True) for name, path in GAMES.items()}


@pytest.fixture(scope="module")
def pages(artifacts, judged, tmp_path_factory) -> dict[str, Path]:
    """Each game's page, and the dashboard of the sample store."""
    out = {}
    for name, j in judged.items():
        out[name] = artifacts / f"{name}.html"
        render_game_page(j, out[name])
    db = tmp_path_factory.mktemp("pages-store") / "store.duckdb"
    with open_store(db) as store:
        for path in STORED:
            assert store.ingest_read(read_log(path)).status == "new", path
        out["dashboard"] = artifacts / "dashboard.html"
        write_dashboard(load_tables(store), out["dashboard"])
    return out


@pytest.fixture(scope="module")
def doms(pages, artifacts, tmp_path_factory) -> dict[str, str]:
    """Each page's DOM after the browser ran its scripts; a screenshot of each is kept beside.
    The browsers run side by side, one page each."""
    names = list(pages)
    commands = [[BROWSER, *FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('profile')}",
                 WINDOW, f"--screenshot={artifacts / (name + '.png')}", "--dump-dom",
                 pages[name].resolve().as_uri()] for name in names]
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for c in commands]
    out = {}
    for name, proc in zip(names, procs):
        try:
            dom, errors = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            dom, errors = proc.communicate()
        assert proc.returncode == 0 and "</html>" in dom, \
            f"{BROWSER} could not render {pages[name]}: {errors[-2000:]}"
        (artifacts / f"{name}.dom.html").write_text(dom, encoding="utf-8")
        out[name] = dom
    return out


def chart_blocks(dom: str) -> dict[str, str]:
    """Each plotly chart's part of the DOM, by its div id."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'<div id="([^"]+)" class="plotly-graph-div', dom)]
    return {chart: dom[at:(starts[i + 1][0] if i + 1 < len(starts) else len(dom))]
            for i, (at, chart) in enumerate(starts)}


def drawn_data(block: str) -> int:
    """Bars, markers and drawn lines in one chart's SVG."""
    return (len(re.findall(r'class="point"[^>]*d="M', block))
            + len(re.findall(r'class="point"><path d="M', block))
            + len(re.findall(r'class="js-line"[^>]*d="M[^"]*L', block)))


def geo_traces(block: str) -> list[str]:
    """The map's traces, in drawing order."""
    return re.split(r'(?=<g class="trace scattergeo")', block)[1:]


def texts(trace: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<text data-unformatted="([^"]*)"', trace)]


def test_every_page_renders_and_no_chart_is_empty(pages, doms):
    for name, dom in doms.items():
        written = re.findall(r'<div id="([a-z0-9-]+)" class="plotly-graph-div',
                             pages[name].read_text("utf-8"))
        blocks = chart_blocks(dom)
        assert written and list(blocks) == written, name
        for chart, block in blocks.items():
            assert 'class="main-svg"' in block, f"{name} {chart}: plotly drew no SVG"
            assert drawn_data(block) > 0, f"{name} {chart}: no bar, marker or line was drawn"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_map_has_one_mark_per_territory_with_its_count_and_name(name, judged, doms):
    j = judged[name]
    rs = get_ruleset(j.ruleset)
    territories = rs.default_data().territories            # the board's own list
    spec = rs.page(page_game(j), None)
    board = chart_blocks(doms[name])["board-map"]
    land = re.search(r'class="layer land".*?<path[^>]* d="(M[^"]+)"', board, re.S)
    assert land and len(land.group(1)) > 500, "the base map's land was not drawn"
    traces = [t for t in geo_traces(board) if 'class="point"' in t]
    marks, names = traces[0], traces[1]
    assert marks.count('class="point"') == len(territories)
    # the counts written on the map are the army of each territory on the last board
    final = j.steps[-1].view["board"]
    armies = sorted(sum(final[t]["units"].values()) for t in territories
                    if t in final and sum(final[t]["units"].values()))
    assert sorted(int(t) for t in texts(marks)) == armies
    assert sorted(texts(names)) == sorted(spec.map.names.get(t, t) for t in territories)
    # one slider step per board
    assert board.count('class="slider-tick-rect"') == len(spec.frames)


def test_the_legacy_page_draws_sea_lines_hqs_and_cities(judged, doms):
    board = chart_blocks(doms["legacy-01"])["board-map"]
    legend = re.findall(r'class="legendtext"[^>]*>([^<]+)<', board)
    assert {"land border", "sea-line", "HQ (player's colour)", "minor city", "major city",
            "scar: bunker", "scar: ammo shortage"} <= set(legend)
    assert {"ann", "bob", "cat", "dan"} <= set(legend)
    assert "North America +5" in board and "Afghanistan Town" in board


def test_screenshots_are_kept(pages, doms, artifacts):
    for name in pages:
        data = (artifacts / f"{name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000, name


def test_on_a_phone_the_map_leaves_the_names_off_on_every_board(pages, tmp_path):
    """A map narrower than NARROW_MAP drops the places' names (they crowd into a blur there) on
    the board shown and on every board of the slider, keeps a badge's glyph, and says that a tap
    names a place; a wide one keeps them."""
    from analytics.game_page import NARROW_MAP
    from tests.cdp import Chromium
    names = ("JSON.stringify(document.getElementById('board-map').data.filter(function (t) "
             "{ return (t.name === 'names' || t.name.indexOf('city') === 0) && t.text; })"
             ".map(function (t) { return [t.name, t.mode, t.text.join('|')]; }))")
    slide = ("Plotly.animate(document.getElementById('board-map'), ['0'], {mode: 'immediate', "
             "frame: {duration: 0, redraw: true}, transition: {duration: 0}}).then(function () "
             "{ return 1; })")
    with Chromium(tmp_path / "profile") as browser:
        for width in (390, 1400):
            tab = browser.open(pages["game42"].resolve().as_uri(), width=width, height=1200)
            tab.wait_for("document.querySelector('#board-map .main-svg') !== null "
                         "&& document.readyState === 'complete'", timeout=90)
            narrow = width - 40 < NARROW_MAP
            if narrow:        # the page's load handler redraws a narrow map, the note last
                tab.wait_for("document.querySelectorAll('p.note').length > 1", timeout=30)
            for when in ("last board", "first board"):
                if when == "first board":
                    assert tab.evaluate(slide) == 1
                traces = __import__("json").loads(tab.evaluate(names))
                modes = {name: mode for name, mode, _ in traces}
                assert modes["names"] == ("markers" if narrow else "markers+text"), (width, when)
                badges = [text for name, _, text in traces if name != "names"]
                # a badge's word (a city's name) is a span beside its glyph
                assert badges and all(("<span" in t) != narrow for t in badges), (width, when)
            note = tab.evaluate("Array.prototype.map.call(document.querySelectorAll('p.note'), "
                                "function (p) { return p.textContent; }).join(' ')")
            assert ("tap a place to see its name" in note) == narrow, width
