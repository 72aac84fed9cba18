"""The live page of a game: `GET /games/{id}` (HTML) and `GET /games/{id}/page` (what it draws,
as the caller may see it).

    moment = seen_now(table, role)          # under the service's lock: the game as it stands
    picture = PICTURES.get(moment)          # outside it: the board, the charts, the latest events

The page is the replay page's picture (analytics.game_page: the ruleset's `page` hook, its map
and its charts by round, the crown race first for Risk Europe), drawn from the game as the caller
saw it: each board is the caller's `view` after that event, each payload is redacted as the
caller may read it now, the latest events are told as `ledger replay` tells them, with the notes
the caller may read. A spectator (no token) and the organizer see what a spectator sees.

The HTML is the same for everyone and holds no game data: its script reads the caller's seat
token from the address's fragment (`/games/ID#token=TOKEN`; a fragment is never sent to a
server, so the token stays out of access logs and Referer headers), keeps it for the tab
(sessionStorage), takes it out of the address bar, and sends it as `Authorization: Bearer` with
every request: the picture (`/page`) and the stream (`/stream`, read with fetch because an
EventSource cannot send a header). Each event the stream brings asks for a new picture (one at
a time; events that arrive meanwhile are drawn together). plotly.js and the base map are served
by the service itself (`/assets/...`), so the page needs no other network.
"""

from __future__ import annotations

import gzip
import html
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core import views as V
from engine.core.page import PageGame, PageStep
from engine.core.ruleset import GameResult, Ruleset
from ledger.service.live import LiveTable, Step
from ledger.service.tables import ORGANIZER
from replay.narrate import event_line, position_heading

RECENT = 20
"""How many of the latest events the page tells in words."""


@dataclass(frozen=True)
class Moment:
    """A game as it stands when a caller asks for its picture: taken under the service's lock,
    drawn outside it (the states are immutable, the steps list is copied)."""

    rs: Ruleset
    game_id: str
    mode: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    now: Any
    result: GameResult | None
    actors: tuple[str, ...]
    role: str | None          # ORGANIZER, a seat, or None (a spectator)

    @property
    def seat(self) -> str | None:
        return None if self.role in (None, ORGANIZER) else self.role

    @property
    def next_seq(self) -> int:
        return len(self.steps)


def seen_now(t: LiveTable, role: str | None) -> Moment:
    """The game of `t` as it stands, for a caller of `role` (call it under the service's lock)."""
    return Moment(t.rs, t.game.game_id, t.game.mode, tuple(t.judge.j.players), tuple(t.steps),
                  t.state, t.result(), t.actors(), role)


def _applied(step: Step) -> bool:
    """Did the rules carry the event out (legal, a claim, or illegal but applied as recorded)?
    A skipped or unreadable event left the state as it was, with a finding saying why."""
    return step.after is not step.before or not any(
        f["kind"] in ("illegal", "log") for f in step.findings)


def page_game(m: Moment) -> PageGame:
    """The game as the page hook reads it, as the caller saw it: each board the caller's view
    after the event, each payload redacted as the caller may read it now."""
    rs, seat = m.rs, m.seat
    steps = []
    for step in m.steps[1:]:
        payload = step.envelope.get("payload")
        if isinstance(payload, dict):
            payload = V.redact_payload(rs, step.raw.type, step.raw.actor, payload, seat,
                                       step.before, step.after, m.now)
        steps.append(PageStep(step.raw.type, step.raw.actor, payload, rs.position(step.after),
                              _applied(step), V.view_of(rs, step.after, seat)))
    return PageGame(m.players, V.view_of(rs, m.steps[0].after, seat), tuple(steps))


def latest_events(m: Moment, game: PageGame, n: int = RECENT) -> list[dict]:
    """The last `n` events in words, newest first, as the caller may read them: what each
    was, what it caused (its notes), the rules its findings name (a finding's message may
    quote a secret; its rule id never does)."""
    out = []
    for step, seen in list(zip(m.steps[1:], game.steps))[-n:][::-1]:
        notes = V.notes_for(m.rs, step.after, m.seat) if seen.applied else ()
        out.append({"seq": step.raw.seq, "actor": step.raw.actor,
                    "text": event_line(m.rs, seen.type, seen.actor, seen.payload, seen.view),
                    "notes": list(notes), "rules": [f["rule"] for f in step.findings]})
    return out


def _status(m: Moment) -> str:
    if m.result is not None:
        from analytics.game_page import outcome_text
        return f"Over: {outcome_text(m.result)}."
    where = position_heading(m.rs, m.rs.position(m.now))
    waiting = (f"waiting for {', '.join(m.actors)}" if m.actors else
               "waiting for the dice" if m.mode == "play" else "waiting for the table")
    return f"{where} \u2014 {waiting}."


def _who(m: Moment) -> str:
    if m.result is not None:
        return "The game is over: nothing is hidden any more, every event is shown as logged."
    if m.seat is not None:
        return (f"You see the game as {m.seat}: what you keep hidden is shown to you; what the "
                "others keep hidden stays hidden until it is revealed.")
    first = ("You are the organizer" if m.role == ORGANIZER else "You are watching as a spectator")
    return (f"{first}: what the players keep hidden stays hidden until it is revealed. A player "
            "sees their own by opening this page with #token=THEIR-SEAT-TOKEN at the end of "
            "the address.")


def _figure(fig: Any) -> dict:
    return json.loads(fig.to_json())


def picture(m: Moment) -> dict:
    """What the live page draws for the caller: the title and status, the board now (on its
    map, or as text), the charts by round, the latest events."""
    from analytics.game_page import game_figures, map_aspect, player_colours
    game = page_game(m)
    colours = player_colours(list(m.players))
    out: dict[str, Any] = {
        "game": m.game_id, "ruleset": m.rs.name, "title": f"{m.game_id}: {m.rs.title}, live",
        "seat": m.seat, "role": "organizer" if m.role == ORGANIZER else
        ("seat" if m.seat is not None else "spectator"),
        "next_seq": m.next_seq, "over": m.result is not None, "status": _status(m),
        "who": _who(m), "players": [{"id": p, "colour": colours[p]} for p in m.players],
        "board": None, "waiting": None, "charts": [], "events": latest_events(m, game)}
    try:
        figures = game_figures(m.rs, game, now=True)
    except ValueError as exc:          # nothing to draw yet (no kingdom placed, say)
        out["waiting"] = f"No board yet \u2014 {str(exc).rstrip('.')}."
        return out
    spec = figures.spec
    last = spec.frames[-1]
    board: dict[str, Any] = {"label": last.label, "about": spec.about or None}
    if figures.board is not None and spec.map is not None:
        # the page says what the figure's title would: the label above it, the caption below
        figures.board.figure.update_layout(title=None)
        board.update(figure=_figure(figures.board.figure), region=spec.map.area.region,
                     caption=spec.map.caption or None,
                     aspect=round(map_aspect(spec.map.area), 4),
                     unplaced=[spec.map.names.get(p, p) for p in spec.map.unplaced])
        if last.lines:
            board["lines"] = list(last.lines)
    else:
        board["lines"] = list(last.lines)
    out["board"] = board
    out["charts"] = [{"id": c.id, "figure": None if c.figure is None else _figure(c.figure),
                      "narrow": c.narrow, "empty": c.empty} for c in figures.charts]
    return out


class Pictures:
    """The pictures drawn lately, by game, caller and seq: the spectators of a game share one
    per event, and a caller asking again before the next event is answered at once."""

    def __init__(self, size: int = 64):
        self.size = size
        self.kept: OrderedDict[tuple, dict] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, m: Moment) -> dict:
        key = (m.game_id, m.role if m.role == ORGANIZER else m.seat, m.next_seq)
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
                return found
        drawn = picture(m)
        with self.lock:
            self.kept[key] = drawn
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return drawn


# --- the assets the page loads -------------------------------------------------------------------


@lru_cache(maxsize=None)
def plotly_asset() -> tuple[str, bytes, bytes]:
    """plotly.js as the service serves it: (its file name, with plotly's version so that a
    browser may keep it; the bytes; the same gzipped)."""
    import plotly
    from plotly.offline import get_plotlyjs
    data = get_plotlyjs().encode("utf-8")
    return f"plotly-{plotly.__version__}.min.js", data, gzip.compress(data, 6)


@lru_cache(maxsize=None)
def geo_asset(region: str) -> tuple[bytes, bytes]:
    """The base map of `region` as a script (analytics.page.geo_assets_js), plain and gzipped;
    ValueError for a region there is no base map of."""
    from analytics.page import geo_assets_js
    data = geo_assets_js(region).encode("utf-8")
    return data, gzip.compress(data, 6)


# --- the page itself -----------------------------------------------------------------------------

LIVE_STYLE = """<style>
header.live { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; }
header.live h1 { margin: 0; }
.live-badge { font-size: 13px; padding: 2px 10px; border-radius: 10px; background: #eee;
              color: #555; white-space: nowrap; }
.live-badge.on { background: #e3f4e6; color: #1d6b2f; }
.live-badge.on::before { content: "\\25CF  "; color: #2ca02c; }
.live-badge.off { background: #fdeaea; color: #8a1f1f; }
p.status { font-size: 18px; margin: 10px 0 4px; }
p.players span { display: inline-block; margin-right: 14px; white-space: nowrap; }
p.players i { display: inline-block; width: 11px; height: 11px; border-radius: 50%;
              margin-right: 5px; vertical-align: -1px; }
p.warning { color: #8a4b00; background: #fff4e0; padding: 6px 10px; border-radius: 4px; }
.live-grid { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 24px;
             align-items: start; }
.live-grid h2 { margin-top: 18px; }
#board-box .chart { width: auto; }
#board-label { font-weight: 600; margin: 4px 0 8px; }
ol.events { list-style: none; padding: 0; margin: 0; font-size: 14px; }
ol.events li { padding: 7px 0; border-bottom: 1px solid #e6e6e6; }
ol.events li.fresh { background: #fffbe6; }
ol.events .seq { color: #888; font-variant-numeric: tabular-nums; margin-right: 6px; }
ol.events .caused { color: #555; font-size: 13px; margin: 2px 0 0 1.4em; }
ol.events .rules { color: #8a4b00; font-size: 13px; margin: 2px 0 0 1.4em; }
pre.board { white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 1100px) { .live-grid { grid-template-columns: minmax(0, 1fr); } }
</style>"""

LIVE_SCRIPT = r"""
(function () {
  "use strict";
  var GAME = %(game)s, BASE = "/games/" + encodeURIComponent(GAME), NARROW = %(narrow)d;
  var NARROW_MAP = %(narrow_map)d;   // a map narrower than this draws its traces' narrow form
  var KEY = "ledger-token:" + GAME;
  var $ = function (id) { return document.getElementById(id); };

  // the seat token: from the fragment (#token=...), kept for this tab, out of the address bar
  var token = null, fragment = new URLSearchParams(location.hash.slice(1));
  try {
    if (fragment.has("token")) sessionStorage.setItem(KEY, fragment.get("token"));
    if (fragment.has("spectator")) sessionStorage.removeItem(KEY);
    token = sessionStorage.getItem(KEY);
  } catch (e) { token = fragment.get("token"); }
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  function headers(more) {
    var h = more || {};
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function live(state, text) {
    var b = $("live"); b.className = "live-badge " + state; b.textContent = text;
  }
  function problem(text) {
    var p = $("problem"); p.hidden = !text; p.textContent = text || "";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var geo = {};
  function loadGeo(region) {
    if (!geo[region]) geo[region] = new Promise(function (ok, fail) {
      var s = document.createElement("script");
      s.src = "/assets/geo-" + encodeURIComponent(region) + ".js";
      s.onload = ok; s.onerror = function () { fail(new Error("no base map " + region)); };
      document.head.appendChild(s);
    });
    return geo[region];
  }
  var CONFIG = {displaylogo: false, responsive: false};

  function mapLayout(board, box) {
    var fig = board.figure, layout = Object.assign({}, fig.layout);
    var width = Math.max(280, Math.min(layout.width, box.clientWidth - 12));
    var legend = fig.data.filter(function (t) { return t.showlegend !== false; }).length;
    var columns = Math.max(1, Math.floor((width - 20) / 165));
    var rows = Math.ceil(legend / columns);
    layout.width = width;
    layout.margin = Object.assign({}, layout.margin, {t: 30 + 21 * rows});
    layout.height = Math.round(width * board.aspect) + layout.margin.t + 16;
    if (width < NARROW) layout.legend = Object.assign({}, layout.legend, {font: {size: 10},
      entrywidth: Math.floor((width - 30) / columns) - 55});
    return layout;
  }
  function chartLayout(c) {
    var layout = Object.assign({}, c.figure.layout);
    if (c.narrow && window.innerWidth < NARROW) {
      Object.assign(layout, c.narrow);
      layout.width = Math.round(Math.max(c.narrow.width - 40,
        Math.min(window.innerWidth - 34, c.narrow.width * 1.6)));
    }
    return layout;
  }

  function drawBoard(p) {
    var box = $("board-box"), plot = $("board");
    var b = p.board;
    $("board-label").textContent = b ? b.label : (p.waiting || "");
    $("board-about").textContent = !b ? "" : b.about || (b.caption ? "The map: " + b.caption + "." : "");
    var lost = b && b.unplaced && b.unplaced.length;
    $("unplaced").hidden = !lost;
    $("unplaced").textContent = lost ? "Not on the map (the map has no position for them): "
      + b.unplaced.join(", ") + "." : "";
    var words = $("board-text");
    words.textContent = b && b.lines && !b.figure ? b.lines.join("\n") : "";
    words.hidden = !(b && b.lines && !b.figure);
    if (!b || !b.figure) { plot.hidden = true; return Promise.resolve(); }
    plot.hidden = false;
    var layout = mapLayout(b, box), data = b.figure.data;
    if (layout.width < NARROW_MAP) {     // a phone: the names off the map, a tap names a place
      data = data.map(function (t) {
        return t.meta && t.meta.narrow ? Object.assign({}, t, t.meta.narrow) : t;
      });
      $("board-about").textContent += (b.about || b.caption ? " " : "")
        + "On a screen this narrow the names are left off the map: tap a place to see its name.";
    }
    return loadGeo(b.region).then(function () {
      return Plotly.react(plot, data, layout, CONFIG);
    });
  }
  function drawCharts(p) {
    var grid = $("charts"), work = [];
    $("charts-head").hidden = !p.charts.length;
    var keep = {};
    p.charts.forEach(function (c) {
      var id = "chart-" + c.id, box = $(id);
      keep[id] = true;
      if (!box) { box = el("div", "chart"); box.id = id; grid.appendChild(box); }
      if (!c.figure) { box.className = "chart empty"; box.textContent = c.empty; return; }
      box.className = "chart";
      work.push(Plotly.react(box, c.figure.data, chartLayout(c), CONFIG));
    });
    Array.prototype.slice.call(grid.children).forEach(function (box) {
      if (!keep[box.id]) grid.removeChild(box);
    });
    return Promise.all(work);
  }
  var shown = -1;
  function drawEvents(p) {
    var list = $("events");
    list.textContent = "";
    p.events.forEach(function (e) {
      var li = el("li", e.seq >= shown && shown >= 0 ? "fresh" : "");
      li.appendChild(el("span", "seq", "#" + e.seq));
      li.appendChild(document.createTextNode(e.text));
      e.notes.forEach(function (n) { li.appendChild(el("div", "caused", "\u2192 " + n)); });
      if (e.rules.length) li.appendChild(el("div", "rules", "finding: " + e.rules.join(", ")));
      list.appendChild(li);
    });
    if (!p.events.length) list.appendChild(el("li", "", "No event yet."));
    shown = p.next_seq;
  }
  function drawPlayers(p) {
    var line = $("players");
    line.textContent = "";
    p.players.forEach(function (x) {
      var s = el("span"), dot = el("i");
      dot.style.background = x.colour;
      s.appendChild(dot); s.appendChild(document.createTextNode(x.id));
      line.appendChild(s);
    });
  }
  function draw(p) {
    document.title = p.title;
    $("title").textContent = p.title;
    $("status").textContent = p.status;
    $("who").textContent = p.who;
    $("spectate").hidden = p.role !== "seat";
    drawPlayers(p);
    drawEvents(p);
    return Promise.all([drawBoard(p), drawCharts(p)]).then(function () {
      document.body.dataset.seq = String(p.next_seq);   // drawn up to this event
    });
  }

  var busy = false, again = false, next = 0, stopped = false;
  function fetchPicture() {
    return fetch(BASE + "/page", {headers: headers(), cache: "no-store"}).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw Object.assign(new Error(body.message || ("HTTP " + r.status)),
                                       {status: r.status});
        return body;
      });
    });
  }
  function refresh() {
    if (busy) { again = true; return Promise.resolve(); }
    busy = true;
    var round = function () {
      again = false;
      return fetchPicture().then(function (p) {
        next = Math.max(next, p.next_seq);
        problem("");
        return draw(p);
      }).then(function () { if (again) return sleep(250).then(round); });
    };
    return round().catch(function (e) {
      problem(e.status === 401 ? "This token is not one of this game's (" + e.message
              + "). Open the page with the token your seat was given, or #spectator to watch."
              : "Cannot draw the game: " + e.message);
      if (e.status === 401 || e.status === 404) stopped = true;
    }).then(function () { busy = false; });
  }

  function follow() {
    var failures = 0;
    var once = function () {
      if (stopped) return Promise.resolve(false);
      return fetch(BASE + "/stream?since=" + next, {headers: headers(), cache: "no-store"})
        .then(function (r) {
          if (!r.ok) {
            return r.json().catch(function () { return {}; }).then(function (body) {
              live("off", body.message || ("stream: HTTP " + r.status));
              if (r.status === 401 || r.status === 404) stopped = true;
              return true;
            });
          }
          failures = 0;
          live("on", "live");
          var reader = r.body.getReader(), text = new TextDecoder(), buffer = "";
          var read = function () {
            return reader.read().then(function (chunk) {
              if (chunk.done) return true;
              buffer += text.decode(chunk.value, {stream: true});
              var cut, ended = false;
              while ((cut = buffer.indexOf("\n\n")) >= 0) {
                var message = buffer.slice(0, cut), kind = "message", id = null;
                buffer = buffer.slice(cut + 2);
                message.split("\n").forEach(function (line) {
                  if (line.indexOf("event: ") === 0) kind = line.slice(7);
                  else if (line.indexOf("id: ") === 0) id = Number(line.slice(4));
                });
                if (kind === "event" && id !== null) { next = Math.max(next, id + 1); refresh(); }
                if (kind === "end") ended = true;
              }
              if (ended) {
                reader.cancel();
                live("", "the game is over");
                refresh();
                return false;
              }
              return read();
            });
          };
          return read();
        })
        .catch(function () { return true; });
    };
    var loop = function () {
      return once().then(function (goOn) {
        if (!goOn || stopped) return;
        failures += 1;
        if (!stopped) live("off", "reconnecting\u2026");
        return sleep(Math.min(10000, 500 * Math.pow(2, Math.min(failures, 5)))).then(loop);
      });
    };
    return loop();
  }

  refresh().then(function () { if (!stopped) follow(); });
})();
"""


def live_html(game_id: str, plotly_name: str) -> str:
    """The live page of `game_id` (the same for every caller: it holds no game data)."""
    from analytics.game_page import NARROW_MAP
    from analytics.page import NARROW_SCREEN, html_page
    gid = html.escape(game_id)
    body = f"""
<header class="live"><h1 id="title">Game {gid}</h1>
<span id="live" class="live-badge">connecting&hellip;</span></header>
<p id="status" class="status">Loading the game&hellip;</p>
<p id="players" class="players"></p>
<p id="who" class="note"></p>
<p id="spectate" class="note" hidden><a href="#spectator" onclick="setTimeout(function(){{location.reload();}},0)">Watch as a spectator instead</a></p>
<p id="problem" class="warning" hidden></p>
<div class="live-grid">
<main>
<h2>The board</h2>
<p id="board-label"></p>
<div id="board-box"><div id="board" class="chart" hidden></div></div>
<pre id="board-text" class="board" hidden></pre>
<p id="unplaced" class="warning" hidden></p>
<p id="board-about" class="note"></p>
<h2 id="charts-head" hidden>By round</h2>
<div id="charts" class="grid"></div>
</main>
<aside><h2>Latest events</h2><ol id="events" class="events"></ol>
<p class="note">The whole log as you may read it: <a href="/games/{gid}/events">/games/{gid}/events</a>
(with your token in the Authorization header).</p></aside>
</div>
<noscript><p class="warning">This page draws the game with JavaScript. The log as data:
/games/{gid}/events</p></noscript>"""
    script = LIVE_SCRIPT % {"game": _js_string(game_id), "narrow": NARROW_SCREEN,
                            "narrow_map": NARROW_MAP}
    head = (LIVE_STYLE + f'<script src="/assets/{html.escape(plotly_name)}"></script>')
    return html_page(f"Game {game_id}, live", body + f"<script>{script}</script>", head=head)


def _js_string(text: str) -> str:
    """`text` as a JavaScript string literal that is safe inside a <script> element."""
    return json.dumps(text).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
