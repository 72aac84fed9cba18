"""The two hooks through which a game's pictures reach analytics (docs/architecture.md, "Pictures of
a game"): `page` returns the page of one game and `report` the game's named queries and dashboard
sections, both as plain data that analytics draws without knowing the game.

Given the two built-in games, their specs hold nothing but plain data and judging never loads
polars; given a game analytics has never seen (Nim, tests/toy_nim) with a report of its own, its
section is on the dashboard, alone or beside Risk Europe's; and without a page hook, its page
is the board after each event as text."""

from __future__ import annotations

import dataclasses
import html
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from analytics.charts import blocks_html, figure, text_html
from analytics.dashboard import dashboard_steps, write_dashboard
from analytics.game_page import page_game, render_game_page
from analytics.load import Tables
from engine.core.charts import Bars, ChartSpec, Heading, Note, Points, Table, Threshold
from engine.core.page import Badge
from engine.core.report import DashboardPart, Report, Section
from engine.core.ruleset import get_ruleset, registered
from replay.judge import judge
from replay.logfile import read_log
from tests import toy_nim
from tests.test_store_support import GAME42
from tests.test_toy_ruleset import nim_log

ROOT = Path(__file__).resolve().parent.parent
LEGACY_GAME = ROOT / "sample_logs" / "legacy" / "game-01.jsonl"
PLAIN = (str, int, float, bool, type(None))


def plain_leaves(value, path="spec"):
    """Every leaf of a spec that is not plain data, with where it is."""
    if isinstance(value, PLAIN):
        return []
    if dataclasses.is_dataclass(value):
        return [bad for f in dataclasses.fields(value)
                for bad in plain_leaves(getattr(value, f.name), f"{path}.{f.name}")]
    if isinstance(value, (list, tuple)):
        return [bad for i, v in enumerate(value) for bad in plain_leaves(v, f"{path}[{i}]")]
    if isinstance(value, dict) or hasattr(value, "items"):
        return [bad for k, v in value.items() for bad in plain_leaves(v, f"{path}[{k!r}]")]
    return [f"{path}: {type(value).__name__}"]


# --- the built-in games -----------------------------------------------------------------------------


def test_judging_a_game_loads_neither_polars_nor_plotly():
    code = ("import sys\nfrom engine import rulesets\nfrom replay.judge import judge\n"
            "from replay.logfile import read_log\n"
            f"judge(read_log({str(GAME42)!r}), views=True)\n"
            f"judge(read_log({str(LEGACY_GAME)!r}), views=True)\n"
            "[rs.page for rs in rulesets()]\n"
            "print(sorted(m for m in ('polars', 'plotly') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_no_game_package_imports_a_drawing_library_or_a_layer_above():
    import ast
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names
                      if n.split(".")[0] in ("plotly", "analytics", "replay", "ledger")]
    assert found == []


def test_the_page_of_game42_is_plain_data_on_a_map():
    j = judge(read_log(GAME42), views=True)
    spec = get_ruleset("risk-europe").page(page_game(j), None)
    assert plain_leaves(spec) == []
    assert (len(spec.frames), spec.rounds) == (66, 7)
    # cut from the world's base map, so that North Africa and Anatolia are land (#16)
    assert spec.map is not None and spec.map.area.region == "world"
    assert len(spec.map.places) == 49 and [len(f.marks) for f in spec.frames] == [49] * 66
    assert spec.map.unplaced == ()
    assert [c.id for c in spec.charts] == ["crown-race", "coins", "army", "territories"]
    assert spec.charts[0].threshold == Threshold(7, "7 crowns win")
    berlin = next(m for m in spec.frames[0].marks if m.place == "Saxony")
    assert (berlin.owner, berlin.subtitle) == ("blue", "(Berlin)")
    assert berlin.badges == (Badge("gold city", text="Berlin"),)


def test_the_page_of_a_legacy_game_is_plain_data_on_a_map_of_the_world():
    j = judge(read_log(LEGACY_GAME), views=True)
    spec = get_ruleset("risk-legacy").page(page_game(j), None)
    assert plain_leaves(spec) == []
    assert spec.map is not None and spec.map.area.region == "world" and spec.lead == "Risk Legacy"
    territories = get_ruleset("risk-legacy").default_data().territories
    assert set(spec.map.places) == set(territories) and spec.map.unplaced == ()
    assert all([m.place for m in f.marks] == list(territories) for f in spec.frames)
    # the final board in words, by display name; the other boards are on the map only
    assert [bool(f.lines) for f in spec.frames] == [False] * (len(spec.frames) - 1) + [True]
    assert [c.id for c in spec.charts] == ["race-red-stars", "race-troops", "race-territories",
                                           "race-resources"]


@pytest.mark.parametrize("name", ["risk-europe", "risk-legacy"])
@pytest.mark.parametrize("alone", [True, False])
def test_a_dashboard_part_is_plain_data_and_says_why_a_chart_is_empty(name, alone):
    part = get_ruleset(name).report().dashboard(Tables.from_frames(), alone)
    assert plain_leaves(part) == []
    charts = [c for s in part.sections for c in s.charts]
    assert charts and all(c.is_empty and c.empty for c in charts)
    ids = [c.id for c in charts]
    assert len(set(ids)) == len(ids)


def test_risk_europe_names_itself_in_its_headings_only_beside_another_game():
    report = get_ruleset("risk-europe").report()
    alone = [s.heading for s in report.dashboard(Tables.from_frames(), True).sections]
    shared = [s.heading for s in report.dashboard(Tables.from_frames(), False).sections]
    assert alone == ["Outcomes", "King's Orders", "Battle luck"]
    assert shared == ["Risk Europe: outcomes", "King's Orders", "Risk Europe: battle luck"]


def test_every_query_is_owned_by_one_ruleset_or_shared():
    from analytics.queries import QUERIES, SHARED_QUERIES
    europe = get_ruleset("risk-europe").report().queries
    legacy = get_ruleset("risk-legacy").report().queries
    knights = get_ruleset("warrior-knights").report().queries
    assert list(QUERIES) == [*europe, *legacy, *knights, *SHARED_QUERIES]
    assert all(name.startswith("legacy_") for name in legacy)
    assert all(name.startswith("wk_") for name in knights)


# --- a game analytics has never seen -----------------------------------------------------------------


def _nim_dashboard(t, alone: bool) -> DashboardPart:
    n = t.games.filter(pl.col("ruleset") == toy_nim.NAME).select(pl.len()).collect().item()
    return DashboardPart((Section("Nim: piles", (
        ChartSpec("nim-games", f"Games of Nim ({n})", "players", "games",
                  (Bars(["2"], [n], "games"),)),
        ChartSpec("nim-empty", "", "", "", empty="No stone was counted yet.")),
        (Heading("What Nim counts"), Note("Only `GameEnded` claims."),
         Table([{"game": "n1"}], {"game": "game"}))),), f"{n} Nim games")


NIM = dataclasses.replace(toy_nim.RULESET, report=lambda: Report(
    {"nim_games": lambda t: t.games.collect()}, _nim_dashboard, dice="no dice at all"))


def test_a_new_game_brings_its_own_dashboard_section(tmp_path):
    with registered(NIM):
        assert "Nim (a test ruleset)" in dashboard_steps()
        t = Tables.from_frames(games=[{"game_id": "n1", "ruleset": toy_nim.NAME}])
        report = write_dashboard(t, tmp_path / "nim.html")
    page = (tmp_path / "nim.html").read_text("utf-8")
    assert report.charts == ["nim-games"]
    assert report.skipped == ["nim-empty", "dice-faces", "dice-p-values"]
    assert "<title>Nim (a test ruleset) games: test frames</title>" in page
    assert "<p class='note'>1 Nim games. Built by" in page
    assert "<h2>Nim: piles</h2>" in page and "No stone was counted yet." in page
    assert "<h3>What Nim counts</h3><p class='note'>Only <code>GameEnded</code> claims.</p>" in page
    assert "Outcomes" not in page and "Risk Legacy" not in page and "Dice of every" not in page


def test_two_games_share_the_page_in_the_order_of_their_names(tmp_path):
    with registered(NIM):
        t = Tables.from_frames(games=[{"game_id": "n1", "ruleset": toy_nim.NAME},
                                      {"game_id": "g1", "ruleset": "risk-europe"}])
        report = write_dashboard(t, tmp_path / "both.html")
    page = (tmp_path / "both.html").read_text("utf-8")
    assert report.skipped[0] == "game-lengths" and "nim-games" in report.charts
    assert page.index("Risk Europe: outcomes") < page.index("Nim: piles") < page.index(">Dice<")
    assert "Risk Europe and Nim (a test ruleset) games" in page
    assert ("Dice of every ruleset: Risk Europe's roll-offs, siege assaults, battles and "
            "re-rolls, Nim (a test ruleset)'s no dice at all.") in page
    # each game's phrase, then the dice they share
    assert re.search(r"Risk Europe: 0 games \(0 finished\), 0 battles, 0 cards played; "
                     r"1 Nim games; 0 dice rolled\.", page)


def test_a_game_without_a_page_hook_gets_its_boards_as_text(tmp_path):
    log = nim_log(tmp_path / "nim.jsonl", "nim-1", [("ann", 3), ("bob", 1), ("ann", 3)], "ann")
    with registered(toy_nim.RULESET):
        j = judge(read_log(log), views=True)
        report = render_game_page(j, tmp_path / "nim.html")
    page = (tmp_path / "nim.html").read_text("utf-8")
    assert (report.frames, report.rounds) == (4, 1)
    assert "Game nim-1: ann wins (last stone) in round 1" in page
    assert "Nim (a test ruleset); ann, bob; 5 events" in page and "There is no map" in page
    assert "<summary>play, round 1, turn 3: StonesTaken by bob</summary>" in page
    assert html.unescape(page).count('"pile": 0') == 2        # after the last take, and the end
    assert "plotly-graph-div" not in page


# --- the renderer ---------------------------------------------------------------------------------


def test_a_chart_spec_is_drawn_as_it_says():
    spec = ChartSpec("c", "Title (3 games)", "x", "y", (
        Bars(["a", "b"], [50, 25], "rate", colour="#111", text=["1 of 2", "1 of 4"],
             text_at="outside", error_up=[10, 5], error_down=[20, 15]),
        Points(["a", "b"], [33, 33], "even", colour="#444", symbol="tick", size=28),
        Points([0, 1], [1, 2], "blue", mode="lines+markers", player="blue"),
    ), threshold=Threshold(25, "even: 25%"), y_range=(0, 118), level_labels=True, label_size=10)
    fig = figure(spec, {"blue": "#1f6fd1"}).to_plotly_json()
    bars, tick, line, threshold = fig["data"]
    assert bars["error_y"]["array"] == [10, 5] and bars["error_y"]["arrayminus"] == [20, 15]
    assert (bars["textposition"], bars["marker"]["color"]) == ("outside", "#111")
    assert tick["marker"] == {"color": "#444", "line": {"width": 2}, "size": 28,
                              "symbol": "line-ew-open"}
    assert line["line"] == {"color": "#1f6fd1"} and line["mode"] == "lines+markers"
    layout = fig["layout"]
    assert layout["title"]["text"] == "Title (3 games)" and layout["yaxis"]["range"] == [0, 118]
    assert layout["xaxis"]["tickangle"] == 0 and layout["xaxis"]["tickfont"] == {"size": 10}
    # the threshold: a dashed line across the chart, its label in the legend (never over a bar's)
    assert layout["shapes"][0]["y0"] == 25 and not layout.get("annotations")
    assert (threshold["name"], threshold["line"]["dash"], threshold["showlegend"]) == \
        ("even: 25%", "dash", True)
    assert figure(ChartSpec("e", "", "", "", empty="nothing yet")) is None


def test_blocks_are_escaped_and_backticks_are_code():
    assert text_html("a < b, `ledger audit` & the game's odds") == \
        "a &lt; b, <code>ledger audit</code> &amp; the game's odds"
    assert blocks_html([Heading("King's <Orders>"), Table([], {"a": "A"}, empty="none yet")]) == \
        "<h3>King&#x27;s &lt;Orders&gt;</h3><p class='note'>none yet</p>"
    assert blocks_html([Table([{"a": 1.5, "b": None}], {"a": "A", "b": "B"}, {"a": "+.2f"})]) == \
        ("<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>+1.50</td><td></td>"
         "</tr></tbody></table>")


def test_a_page_spec_marking_a_place_off_the_map_is_refused(tmp_path):
    from engine.core.page import Frame, Mark
    j = judge(read_log(GAME42), views=True)
    rs = get_ruleset("risk-europe")
    spec = rs.page(page_game(j), None)
    broken = dataclasses.replace(spec, frames=(Frame("x", (Mark("atlantis", None, 1),)),))
    with registered(dataclasses.replace(rs, page=lambda game, data: broken)):
        with pytest.raises(ValueError, match="game42.jsonl: no map position for atlantis"):
            render_game_page(j, tmp_path / "x.html")


def test_a_store_of_no_game_shows_only_the_dice_and_one_game_alone_no_dice_note(tmp_path):
    report = write_dashboard(Tables.from_frames(), tmp_path / "empty.html")
    page = (tmp_path / "empty.html").read_text("utf-8")
    assert (report.charts, report.skipped) == ([], ["dice-faces", "dice-p-values"])
    assert "<title>No games: test frames</title>" in page
    assert "No game in the store has finished yet." in page and "<h2>Outcomes</h2>" not in page
    t = Tables.from_frames(games=[{"game_id": "l1", "ruleset": "risk-legacy"}])
    write_dashboard(t, tmp_path / "legacy.html")
    page = (tmp_path / "legacy.html").read_text("utf-8")
    assert "<title>Risk Legacy games: test frames</title>" in page
    assert "0 Risk Legacy games (0 finished) in 0 campaigns, 0 attack rolls (0 with exact odds); " \
           "0 dice rolled." in page
    assert "Dice of every ruleset" not in page and "King&#x27;s Orders" not in page
