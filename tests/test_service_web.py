"""The live page of `ledger serve` (#12): `GET /games/{id}` and what it draws (`/page`), as a
spectator and as a seat, and the page in a real browser following a game as events arrive.

The browser test starts the real server (uvicorn, a free port), opens the page in headless
Chromium as a spectator and as blue (the token in the address's fragment), appends events
through the API, and watches both pages redraw: the board's unit counts, the label of the
board, the latest events, blue's face-down cards shown to blue alone. Screenshots are kept in
$LEDGER_TEST_ARTIFACTS when set, else in pytest's temporary folder (`pytest -s` prints it).
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from engine.core import views as V
from engine.core.ruleset import get_ruleset
from ledger.service import create_app
from ledger.service.page import RECENT
from tests.browser_support import artifacts_folder, needs_browser
from tests.service_clients import HttpClient, auth, post_log, served_at
from tests.test_views import open_europe

GAME, PLAYERS = "live-3", ["blue", "orange", "red", "green"]
COMMITTED = 14      # seq 10-13: round 1's cards committed face down, none revealed yet
TURNS = 28          # seq 14-27: each player plays their first card and ends the turn (orange last)


@pytest.fixture(scope="module")
def sim_log() -> list[dict]:
    """A bot game with its secrets in clear (bids as amounts, cards as ids), each turn ended by
    its player as at a live table."""
    from engine.risk_europe.sim import simulate_game
    log = open_europe(simulate_game(3, GAME, live=True))
    assert [e["type"] for e in log[10:14]] == ["CardsCommitted"] * 4
    assert [e["actor"] for e in log[14:TURNS] if e["type"] == "CardRevealed"] == \
        ["red", "green", "blue", "orange"]
    return log


def _blue_commit(log) -> int:
    return next(e["seq"] for e in log if e["type"] == "CardsCommitted" and e["actor"] == "blue")


def _app(tmp_path, log, **kw):
    seed = log[-1]["payload"]["seed"]
    return create_app(tmp_path / "live.duckdb", seed_for=lambda _g: seed, **kw)


def _new_game(client) -> dict:
    r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": GAME})
    assert r.status_code == 201, r.text
    return r.json()


def _state(client, token=None) -> dict:
    return client.get(f"/games/{GAME}/state", headers=auth(token)).json()


def _counts(view: dict) -> list[str]:
    """The unit counts the map writes on the territories of a board view (none on an empty
    one), sorted."""
    return sorted(str(n) for n in (sum(e.get("units", {}).values())
                                   for e in view["board"].values()) if n)


# --- what the page draws, without a browser ---------------------------------------------------------


def test_the_picture_before_any_board_tells_what_it_waits_for(tmp_path, sim_log):
    client = TestClient(_app(tmp_path, sim_log))
    created = _new_game(client)
    post_log(client, GAME, created, sim_log, 3)
    p = client.get(f"/games/{GAME}/page").json()
    assert p["board"] is None and p["charts"] == []
    assert p["waiting"].startswith("No board yet") and "kingdom" in p["waiting"]
    assert p["status"].endswith("waiting for red, green.")
    assert p["role"] == "spectator" and p["next_seq"] == 3
    assert [e["text"] for e in p["events"]] == ["orange bids (hidden)", "blue bids (hidden)"]
    mine = client.get(f"/games/{GAME}/page", headers=auth(created["seats"]["blue"])).json()
    assert mine["seat"] == "blue" and [e["text"] for e in mine["events"]] == \
        ["orange bids (hidden)", f"blue bids {sim_log[1]['payload']['amount']}"]
    org = client.get(f"/games/{GAME}/page", headers=auth(created["organizer"])).json()
    assert org["role"] == "organizer" and org["events"] == p["events"]


def test_the_picture_has_the_board_now_and_the_races(tmp_path, sim_log):
    client = TestClient(_app(tmp_path, sim_log))
    created = _new_game(client)
    post_log(client, GAME, created, sim_log, TURNS)
    p = client.get(f"/games/{GAME}/page").json()
    board = p["board"]
    assert board["label"].startswith("Round 1, turn 1: orange reveals")
    assert board["region"] == "world" and 0.5 < board["aspect"] < 2
    traces = board["figure"]["data"]
    marks = next(t for t in traces if t.get("name") == "territories")
    assert sorted(x for x in marks["text"] if x) == _counts(_state(client)["view"])
    assert not board["figure"].get("frames") and not board["figure"]["layout"].get("sliders")
    assert [c["id"] for c in p["charts"]][0] == "crown-race"
    race = p["charts"][0]["figure"]["data"]
    assert {t["name"] for t in race} >= set(PLAYERS)
    assert p["events"][0]["seq"] == TURNS - 1 and len(p["events"]) == RECENT
    assert any(e["notes"] for e in p["events"]), "what an event caused is told under it"
    # asked again before the next event: the same picture; after it, a new one
    assert client.get(f"/games/{GAME}/page").json() == p
    post_log(client, GAME, created, sim_log, TURNS + 1)
    assert client.get(f"/games/{GAME}/page").json()["next_seq"] == TURNS + 1


def test_the_page_itself_holds_no_game_data_and_its_assets_are_served(tmp_path, sim_log):
    client = TestClient(_app(tmp_path, sim_log))
    created = _new_game(client)
    post_log(client, GAME, created, sim_log, COMMITTED)
    r = client.get(f"/games/{GAME}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["referrer-policy"] == "no-referrer"
    page = r.text
    for card in sim_log[_blue_commit(sim_log)]["payload"]["cards"]:
        assert card not in page
    assert all(token not in page for token in created["seats"].values())
    script = page.split('<script src="/assets/')[1].split('"')[0]
    js = client.get(f"/assets/{script}")
    assert js.status_code == 200 and js.headers["content-encoding"] == "gzip"
    assert "plotly" in js.text[:2000].lower()
    plain = client.get(f"/assets/{script}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == js.content
    geo = client.get("/assets/geo-world.js")
    assert geo.status_code == 200 and "PlotlyGeoAssets" in geo.text
    for bad in ("geo-mars.js", "plotly.js", "..%2Fapp.py"):
        r = client.get(f"/assets/{bad}")
        assert r.status_code == 404 and r.json()["code"] == "not-found", bad
    r = client.get("/games/nope")
    assert r.status_code == 404 and r.json()["code"] == "unknown-game"
    r = client.get(f"/games/{GAME}/page", headers=auth("forged"))
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"


def test_the_page_of_a_finished_game_shows_everything(tmp_path, sim_log):
    client = TestClient(_app(tmp_path, sim_log))
    created = _new_game(client)
    post_log(client, GAME, created, sim_log, len(sim_log))
    p = client.get(f"/games/{GAME}/page").json()
    assert p["over"] and p["status"].startswith("Over: ")
    assert "nothing is hidden" in p["who"]
    assert p["events"][0]["text"].startswith("dice seed revealed")
    assert "hidden" not in json.dumps(p["events"])


# --- in a browser -------------------------------------------------------------------------------------

DRAWN = """(function () {
  var traces = document.querySelectorAll('#board g.trace.scattergeo');
  var counts = traces.length > 2 ? Array.from(traces[2].querySelectorAll('text'))
      .map(function (t) { return t.textContent; }).filter(Boolean).sort() : [];
  return {seq: document.body.dataset.seq || null, status: document.getElementById('status').textContent,
          label: document.getElementById('board-label').textContent, counts: counts,
          events: Array.from(document.querySelectorAll('#events li')).map(function (li) { return li.textContent; }),
          race: document.querySelectorAll('#chart-crown-race .scatterlayer .trace').length,
          live: document.getElementById('live').textContent, problem: document.getElementById('problem').textContent,
          href: location.href};
})()"""


NAMES_MODE = ("document.getElementById('board').data.filter(function (t) "
              "{ return t.name === 'names'; }).map(function (t) { return t.mode; })")
MARKS_HOVER = ("document.getElementById('board').data.filter(function (t) "
               "{ return t.name === 'territories'; })[0].hovertext")


def _drawn(tab, seq: int) -> dict:
    tab.wait_for(f"document.body.dataset.seq === '{seq}'", timeout=60)
    return tab.evaluate(DRAWN)


def _line(drawn: dict, seq: int) -> str:
    return next(text for text in drawn["events"] if text.startswith(f"#{seq}"))


@needs_browser
def test_the_live_page_follows_the_game_in_a_browser(tmp_path, tmp_path_factory, sim_log):
    from tests.cdp import Chromium
    shots = artifacts_folder(tmp_path_factory, "live-page", "screenshots of the live page")
    rs = get_ruleset("risk-europe")
    app = _app(tmp_path, sim_log, poll_seconds=0.05)
    with served_at(app) as base, Chromium(tmp_path / "profile") as browser:
        client = HttpClient(base)
        created = _new_game(client)
        blue_token = created["seats"]["blue"]
        post_log(client, GAME, created, sim_log, COMMITTED)
        spectator = browser.open(f"{base}/games/{GAME}", width=1400, height=1100)
        blue = browser.open(f"{base}/games/{GAME}#token={blue_token}", width=1400, height=1100)
        tabs = {None: spectator, "blue": blue}
        before = {}
        for seat, tab in tabs.items():
            drawn = before[seat] = _drawn(tab, COMMITTED)
            picture = client.get(f"/games/{GAME}/page", headers=auth(created["seats"].get(seat))).json()
            assert drawn["status"] == picture["status"] and drawn["label"] == picture["board"]["label"]
            assert drawn["counts"] == _counts(_state(client)["view"])
            assert drawn["race"] >= len(PLAYERS) and not drawn["problem"]
            assert drawn["events"][0].startswith(f"#{COMMITTED - 1}")
        assert blue_token not in blue.evaluate("location.href")       # out of the address bar
        committed = _blue_commit(sim_log)
        cards = sim_log[committed]["payload"]["cards"]                  # blue's, face down
        assert f"({', '.join(cards)})" in _line(before["blue"], committed)
        assert "(hidden, hidden)" in _line(before[None], committed)
        _keep(spectator, shots / "live-spectator-before.png")

        post_log(client, GAME, created, sim_log, TURNS)                 # the first card of each
        now = _state(client)
        after = {seat: _drawn(tab, TURNS) for seat, tab in tabs.items()}
        for seat, drawn in after.items():
            assert drawn["counts"] == _counts(now["view"]) != before[seat]["counts"]
            assert drawn["label"].startswith("Round 1, turn 1: orange reveals")
            assert drawn["events"][0].startswith(f"#{TURNS - 1}") and drawn["live"] == "live"
        # blue's first card is revealed now, the second still face down to everyone else
        assert f"({cards[0]}, hidden)" in _line(after[None], committed)
        assert f"({', '.join(cards)})" in _line(after["blue"], committed)
        referee = _referee_state(app)
        for x in V.hidden_from(rs, referee, None):
            owner_lines = [text for text in after[None]["events"] if f" {x.owner} commits" in text]
            assert not any(str(x.value) in text for text in owner_lines), x
        _keep(spectator, shots / "live-spectator.png")
        _keep(blue, shots / "live-blue.png", 1100)
        phone = browser.open(f"{base}/games/{GAME}", width=390, height=900)
        assert _drawn(phone, TURNS)["counts"] == after[None]["counts"]
        # on a phone the places' names are left off the map (they crowd into a blur there); a
        # tap still names a place (the marks' hover text), and the page says so
        assert phone.evaluate(NAMES_MODE) == ["markers"]
        assert spectator.evaluate(NAMES_MODE) == ["markers+text"]
        assert all(h.startswith("<b>") for h in phone.evaluate(MARKS_HOVER))
        assert phone.evaluate("document.getElementById('board-about').textContent").endswith(
            "the names are left off the map: tap a place to see its name.")
        assert "tap a place" not in spectator.evaluate(
            "document.getElementById('board-about').textContent")
        _keep(phone, shots / "live-phone.png", 1600)


def _keep(tab, path, height: int = 2400) -> None:
    """A screenshot of the top of the page, to look at; one that does not come (a loaded
    machine) is said, not failed: the assertions are on the page's DOM."""
    from tests.cdp import BrowserError
    try:
        tab.screenshot(path, 0, height)
    except BrowserError as exc:
        print(f"no screenshot {path.name}: {exc}")


def _referee_state(app):
    """The state of the game as the server's judge holds it (for the list of secrets)."""
    from ledger.service.live import LiveTable
    from ledger.service.tables import ServiceTables
    game = ServiceTables(app.state.store).game(GAME)
    return LiveTable.load(app.state.store, game).state
