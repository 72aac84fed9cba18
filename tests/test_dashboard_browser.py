"""The dashboard and a game's page, opened in a real browser (headless Chromium): every plotly
chart has drawn its SVG with data in it, and the map of Europe has its land and territories.

Chromium is installed by `bash .ci/install-chromium.sh` (Debian packages chromium and
chromium-driver); without it this test is skipped, saying so. LEDGER_CHROMIUM names another
binary. Screenshots are kept as test artifacts: in $LEDGER_TEST_ARTIFACTS when set, else in
pytest's temporary folder (the path is printed; `pytest -s` shows it).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from analytics.charts import TOOLBAR
from analytics.dashboard import write_dashboard
from analytics.game_page import render_game_page
from analytics.load import load_tables
from replay.logfile import read_log
from ledger.store import open_store
from tests.browser_support import BROWSER, FLAGS, artifacts_folder, needs_browser
from replay.judge import judge
from tests.test_store_support import GAME42, SAMPLES

TIMEOUT = 90


pytestmark = needs_browser


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    return artifacts_folder(tmp_path_factory, "browser-artifacts", "browser test artifacts (pages, DOMs, screenshots)")


@pytest.fixture(scope="module")
def pages(artifacts, tmp_path_factory) -> dict[str, Path]:
    """The dashboard of game42 and four simulated games, and game42's own page."""
    db = tmp_path_factory.mktemp("browser-store") / "store.duckdb"
    with open_store(db) as store:
        for path in [GAME42, *sorted(SAMPLES.glob("sim-000*.jsonl"))]:
            store.ingest_read(read_log(path))
        write_dashboard(load_tables(store), artifacts / "dashboard.html")
    render_game_page(judge(read_log(GAME42), views=True), artifacts / "game42.html")
    return {"dashboard": artifacts / "dashboard.html", "game42": artifacts / "game42.html",
            # the same page in a window as narrow as headless Chromium opens one (500 px; the
            # page takes its narrow layout below 700 px, as on a phone)
            "dashboard-narrow": artifacts / "dashboard.html"}


def _run_all(commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Run the browsers side by side (each one page); their results in order."""
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for c in commands]
    done = []
    for cmd, proc in zip(commands, procs):
        try:
            out, errors = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, errors = proc.communicate()
        done.append(subprocess.CompletedProcess(cmd, proc.returncode, out, errors))
    return done


def _command(page: Path, profile: Path, *action: str) -> list[str]:
    return [BROWSER, *FLAGS, f"--user-data-dir={profile}", *action, page.resolve().as_uri()]


SIZES = {"dashboard": "1400,5200", "game42": "1300,1900", "dashboard-narrow": "500,9000"}


@pytest.fixture(scope="module")
def doms(pages, artifacts, tmp_path_factory) -> dict[str, str]:
    """Each page's DOM after the browser has run its scripts; its screenshot is kept beside."""
    names = list(pages)
    results = _run_all([_command(pages[n], tmp_path_factory.mktemp(f"profile-{n}"),
                                 f"--window-size={SIZES[n]}",
                                 f"--screenshot={artifacts / (n + '.png')}", "--dump-dom")
                        for n in names])
    out = {}
    for name, result in zip(names, results):
        assert result.returncode == 0 and "</html>" in result.stdout, \
            f"{BROWSER} could not render {pages[name]}: {result.stderr[-2000:]}"
        (artifacts / f"{name}.dom.html").write_text(result.stdout, encoding="utf-8")
        out[name] = result.stdout
    return out


def chart_blocks(dom: str) -> dict[str, str]:
    """Each plotly chart's part of the DOM, by its div id."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'<div id="([^"]+)" class="plotly-graph-div', dom)]
    return {chart: dom[at:(starts[i + 1][0] if i + 1 < len(starts) else len(dom))]
            for i, (at, chart) in enumerate(starts)}


def data_marks(block: str) -> int:
    """Bars, markers and drawn lines in one chart's SVG."""
    return (len(re.findall(r'class="point"[^>]*d="M', block))
            + len(re.findall(r'class="point"><path d="M', block))
            + len(re.findall(r'class="js-line"[^>]*d="M[^"]*L', block)))


def test_every_dashboard_chart_is_drawn_with_data(pages, doms):
    page = pages["dashboard"].read_text(encoding="utf-8")
    expected = re.findall(r'<div id="([a-z-]+)" class="plotly-graph-div', page)
    blocks = chart_blocks(doms["dashboard"])
    assert list(blocks) == expected and len(expected) == 16
    for chart, block in blocks.items():
        assert 'class="main-svg"' in block, f"{chart}: plotly drew no SVG"
        assert re.search(r'class="g-gtitle"><text[^>]*>[^<]*\(', block) or \
            'class="gtitle"' in block, f"{chart}: no title"
        assert data_marks(block) > 0, f"{chart}: the SVG has no bar, marker or line"


def _number(pattern: str, text: str) -> float:
    found = re.search(pattern, text, re.S)
    assert found, pattern
    return float(found.group(1))


def test_no_title_under_the_toolbar_and_no_legend_over_the_labels(doms):
    """The toolbar takes the top of each chart: the title starts below it. The legend is below
    the x axis's title, which plotly puts below the tick labels."""
    for chart, block in chart_blocks(doms["dashboard"]).items():
        svg_top = block.index('class="main-svg"')
        # the title's text hangs from its y (dy 0.7em): its top is there
        title_y = _number(r'class="g-gtitle"><text[^>]*? y="([\d.]+)" [^>]*dy="0.7em"',
                          block[svg_top:])
        assert title_y >= TOOLBAR - 1, f"{chart}: title at {title_y}px, under the toolbar"
        if 'class="legend"' in block:
            legend_y = _number(r'class="legend"[^>]*transform="translate\([\d.]+, ?([\d.]+)\)"',
                               block)
            axis_y = _number(r'class="xtitle"[^>]*? y="([\d.]+)"', block)
            assert legend_y > axis_y, f"{chart}: the legend runs into the x axis"


def test_on_a_narrow_screen_every_chart_fits_the_screen(doms):
    blocks = chart_blocks(doms["dashboard-narrow"])
    assert len(blocks) == 16
    for chart, block in blocks.items():
        width = _number(r'<svg class="main-svg"[^>]*? width="([\d.]+)"', block)
        assert width <= 500 - 20, f"{chart}: {width}px wide on a 500px screen"
        assert data_marks(block) > 0, f"{chart}: nothing drawn"


def test_the_game_page_draws_the_map_and_the_round_charts(doms):
    blocks = chart_blocks(doms["game42"])
    assert list(blocks) == ["board-map", "crown-race", "coins", "army", "territories"]
    board = blocks["board-map"]
    land = re.search(r'class="layer land".*?<path[^>]* d="(M[^"]+)"', board, re.S)
    assert land and len(land.group(1)) > 500, "the base map of Europe was not drawn"
    assert board.count('class="trace scattergeo"') >= 4
    assert board.count('class="point"') >= 49 + 15      # every territory and every city
    assert board.count('class="slider-tick-rect"') == 66   # one board per turn and battle
    for chart in ("crown-race", "coins", "army", "territories"):
        assert data_marks(blocks[chart]) >= 4 * 8, chart   # 4 players x 8 ends of round


def test_screenshots_are_kept(pages, doms, artifacts):
    for name in pages:
        data = (artifacts / f"{name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000, name
