"""The HTTP routes of `ledger serve` (FastAPI; OpenAPI at /openapi.json, docs at /docs).

    POST /games                      create a game: tokens shown once
    GET  /games                      the organizer's games (its token)
    POST /games/{id}/events          append (Bearer token of a seat or the organizer), sealed by
                                     the server or by the client (sealing.py)
    GET  /games/{id}/events?since=   the log as the caller may read it
    GET  /games/{id}/state           the caller's view of the game
    GET  /games/{id}/legal           the caller's own legal moves
    GET  /games/{id}/stream          server-sent events, resumed with Last-Event-ID
    POST /games/{id}/rulings         the organizer's ruling on an event (RulingRecorded)
    GET  /games/{id}                 the live page (HTML; a seat's token after #token=)
    GET  /games/{id}/page            what the live page draws, as the caller may see it

docs/service.md describes tokens, modes, dice and the error codes.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable, Literal

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.core.canonical import sha256_hex
from engine.core.rulings import RulingRecorded
from ledger.service import page as live_page
from ledger.service.errors import ServiceError
from ledger.service.guards import AppendRate, BodyLimit, Rate, StrictJsonRoute, start_problem
from ledger.service.live import SERVER, LiveTable, ruleset_of
from ledger.service.tables import (
    ORGANIZER, ServiceGame, ServiceTables, new_token, now_text, token_hash,
)
from ledger.store import EventStore, open_store

MAX_BODY = 256 * 1024
"""The largest request body accepted, in bytes (413 body-too-large beyond it)."""
MAX_EVENTS = 64
"""The most events one append may carry."""
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class NewGame(BaseModel):
    """A game to create."""

    ruleset: str = Field(description="a registered ruleset, e.g. the name `ledger rules` lists")
    players: list[str] = Field(min_length=1, max_length=16, description="player ids, in seat order")
    options: dict[str, str] = Field(default_factory=dict, description="the ruleset's options, e.g. {\"variant\": \"teams\"}")
    variant: str | None = Field(None, description="shorthand for options.variant")
    dice: Literal["seeded", "table"] = Field("seeded", description="seeded: the server rolls from a seed "
                                             "whose hash is published now and which is revealed at the end; "
                                             "table: dice come with the events")
    mode: Literal["play", "record"] = Field("play", description="play: illegal events are refused (422); "
                                            "record: everything is stored, with its findings")
    game_id: str | None = Field(None, description="the id to use (default: a random one)")


class LineKeys(BaseModel):
    """The envelope keys of a log line an event may carry (docs/log-format.md): checked, and
    stored as given. With `prev` and `hash` the client sealed the line itself: the server checks
    the chain and the hash and stores the line exactly so (docs/service.md, "Sealed lines")."""

    v: int | None = Field(None, description="the log format's version, 1")
    game: str | None = Field(None, description="the game id (this game's)")
    seq: int | None = Field(None, ge=0, description="the seq the line is stored at")
    at: str | None = Field(None, description="when it happened, RFC 3339 (never used by the rules)")
    prev: str | None = Field(None, description="sealed: the hash of the line before (the head's for "
                             "the first event of an append)")
    hash: str | None = Field(None, description="sealed: hex SHA-256 of the line's canonical JSON "
                             "without its hash key")

    def line_keys(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in LineKeys.model_fields}


class EventIn(LineKeys):
    type: str
    actor: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)


class AppendIn(LineKeys):
    """One event (type, actor, payload) or several (events), at the seq the caller expects next.
    Each may be sealed by the client (prev and hash, with v, game, seq and at as on its line)."""

    expected_seq: int = Field(ge=0, description="the number of events stored (the next seq)")
    type: str | None = None
    actor: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)
    events: list[EventIn] | None = Field(None, max_length=MAX_EVENTS)


def _error(exc: ServiceError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers or None)


def create_app(store: str | Path | EventStore | None = None, *,
               seed_for: Callable[[str], str] | None = None,
               poll_seconds: float = 0.05, rate: Rate | None = None,
               clock: Callable[[], float] = time.monotonic) -> FastAPI:
    """The service over `store` (an open EventStore, or where one is: a DuckDB file or a
    postgresql:// URL; None: $LEDGER_DB or the default file). `seed_for(game_id)`: the secret
    seed of a new seeded game (default 16 random bytes; tests pass one to replay a known game).
    `poll_seconds`: how often a stream looks for new events. `rate`: the appends one token may
    make (None: no limit); `clock` the seconds it is measured by (tests pass their own).

    On a store other processes write too (PostgreSQL: several `ledger serve` workers), the
    store's `listen` tells which games another process appended to, and a game's live table
    reads those events before it is used again (a stream sends them)."""
    if not isinstance(store, EventStore):
        store = open_store(store)
    lock = threading.RLock()
    tables = ServiceTables(store)        # the service's tables beside the log, in its database
    live: dict[str, LiveTable] = {}
    moved: set[str] = set()              # games another process appended to since last read
    stop_listening = store.listen(lambda game_id, _seq: moved.add(game_id))
    make_seed = seed_for or (lambda _gid: secrets.token_hex(16))

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        if stop_listening is not None:
            stop_listening()

    app = FastAPI(title="ledger serve", version="1", lifespan=lifespan,
                  description="Live game logs: seats, hidden information, spectators (docs/service.md).")
    app.state.store, app.state.tables = store, tables
    app.router.route_class = StrictJsonRoute      # NaN, Infinity, lone surrogates: not JSON
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    appends = AppendRate(rate, clock) if rate is not None else None

    def caught_up(game_id: str, t: LiveTable) -> LiveTable:
        """`t` with the events another process stored since it last read them (under lock)."""
        if game_id in moved:
            moved.discard(game_id)
            t.resync(store)
        return t

    @app.exception_handler(ServiceError)
    async def _service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_req: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}"
                             + (f" ({e['ctx']['error']})" if (e.get("ctx") or {}).get("error")
                                else "")
                             for e in exc.errors()[:5])
        return _error(ServiceError(422, "bad-request", f"the request is not valid: {problems}"))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad-request", 404: "not-found",
                405: "method-not-allowed"}.get(exc.status_code, "http-error")
        return _error(ServiceError(exc.status_code, code, str(exc.detail)))

    def table(game_id: str) -> LiveTable:
        t = live.get(game_id)
        if t is None:
            game = tables.game(game_id) if GAME_ID.match(game_id) else None
            if game is None:
                raise ServiceError(404, "unknown-game", f"no game {game_id!r} is served here")
            t = live[game_id] = LiveTable.load(store, game)
        return caught_up(game_id, t)

    def role(t: LiveTable, authorization: str | None) -> str | None:
        """The caller's role in the game: ORGANIZER, a seat, or None (a spectator). A token
        that is no one's in this game is refused (401), never taken for a spectator's."""
        token = _bearer(authorization)
        if token is None:
            return None
        found = tables.role_of(t.game, token)
        if found is None:
            raise ServiceError(401, "unauthorized", "this token is not one of this game's")
        return found

    def seat_of(r: str | None) -> str | None:
        return None if r in (None, ORGANIZER) else r

    @app.post("/games", status_code=201, summary="Create a game; its tokens are shown once")
    def new_game(body: NewGame, authorization: str | None = Header(None)) -> dict:
        rs = ruleset_of(body.ruleset)
        if rs.new_game is None:
            raise ServiceError(422, "bad-game", f"{rs.name} games cannot be started by the service")
        options = dict(body.options)
        if body.variant is not None:
            options["variant"] = body.variant
        gid = body.game_id or f"g-{secrets.token_hex(6)}"
        if not GAME_ID.match(gid):
            raise ServiceError(422, "bad-game", f"game id {gid!r}: letters, digits, '_', '.', '-' "
                               "(at most 64, starting with a letter or digit)")
        seed = make_seed(gid) if body.dice == "seeded" else None
        dice = {"mode": "seeded", "seed_hash": sha256_hex(seed)} if seed else {"mode": "table"}
        try:
            start = rs.new_game(tuple(body.players), options, dice)
        except ValueError as exc:
            raise ServiceError(422, "bad-game", str(exc)) from None
        problem = start_problem(rs, start, body.players, (ORGANIZER, SERVER))
        if problem is not None:
            raise ServiceError(422, "bad-game", problem)
        organizer = _bearer(authorization)
        with lock:
            if organizer is not None and not tables.is_organizer_token(organizer):
                raise ServiceError(401, "unauthorized", "this is no organizer's token (create a "
                                   "game without one to get a new organizer token)")
            if tables.game(gid) is not None or store.head(gid) is not None:
                raise ServiceError(409, "game-exists", f"a game {gid!r} exists already")
            shown_org = organizer is None
            organizer = organizer or new_token()
            seat_tokens = {p: new_token() for p in body.players}
            game = ServiceGame(gid, rs.name, body.mode, body.dice, seed, token_hash(organizer),
                               tuple(body.players), now_text())
            tables.add_game(game, seat_tokens)
            store.append(gid, 0, [{"type": rs.start_event, "actor": None, "payload": start}])
            t = live[gid] = LiveTable.load(store, game)
            t._follow_up(store)
        out = {"game": gid, "ruleset": rs.name, "mode": body.mode, "dice": dice,
               "seats": seat_tokens, "next_seq": t.next_seq}
        if shown_org:
            out["organizer"] = organizer
        return out

    @app.get("/games", summary="The games of the organizer whose token is given")
    def list_games(authorization: str | None = Header(None)) -> dict:
        token = _bearer(authorization)
        if token is None:
            raise ServiceError(401, "unauthorized", "listing games needs an organizer's token")
        with lock:
            games = tables.games_of(token)
            out = []
            for g in games:
                t = table(g.game_id)
                out.append({"game": g.game_id, "ruleset": g.ruleset, "mode": g.mode,
                            "dice": g.dice_mode, "players": list(g.seats), "created": g.created_at,
                            "next_seq": t.next_seq, "over": t.over})
        return {"games": out}

    @app.post("/games/{game_id}/events", summary="Append events (a seat's or the organizer's token)")
    def append(game_id: str, body: AppendIn, authorization: str | None = Header(None)) -> dict:
        if body.events is not None:
            if any(v is not None for v in body.line_keys().values()):
                raise ServiceError(422, "bad-request", "with events, each event carries its own "
                                   "line keys (v, game, seq, at, prev, hash)")
            items = [e.model_dump() for e in body.events]
        elif body.type is not None:
            items = [{"type": body.type, "actor": body.actor, "payload": body.payload,
                      **body.line_keys()}]
        else:
            raise ServiceError(422, "bad-request", "give an event (type, actor, payload) or events")
        if not items:
            raise ServiceError(422, "bad-request", "no events to append")
        token = _bearer(authorization)
        if appends is not None and token is not None:
            appends.check(token)                   # 429 when the token is over its rate
        with lock:
            t = table(game_id)
            return t.append(store, role(t, authorization), body.expected_seq, items)

    @app.post("/games/{game_id}/rulings", status_code=201,
              summary="Record the organizer's ruling on an event (the organizer's token)")
    def ruling(game_id: str, body: RulingRecorded, authorization: str | None = Header(None)) -> dict:
        with lock:
            t = table(game_id)
            return t.record_ruling(store, role(t, authorization),
                                   body.model_dump(by_alias=True, exclude_none=True))

    @app.get("/games/{game_id}/events", summary="The log as the caller may read it")
    def events(game_id: str, since: int = Query(0, ge=0),
               authorization: str | None = Header(None)) -> dict:
        with lock:
            t = table(game_id)
            seat = seat_of(role(t, authorization))
            return {"game": game_id, "over": t.over, "next_seq": t.next_seq,
                    "events": t.events_for(seat, since)}

    @app.get("/games/{game_id}/state", summary="The game as the caller may see it")
    def state(game_id: str, authorization: str | None = Header(None)) -> dict:
        with lock:
            t = table(game_id)
            return t.state_for(seat_of(role(t, authorization)))

    @app.get("/games/{game_id}/legal", summary="The caller's own legal moves")
    def legal(game_id: str, authorization: str | None = Header(None)) -> dict:
        with lock:
            t = table(game_id)
            seat = seat_of(role(t, authorization))
            return {"game": game_id, "next_seq": t.next_seq, "seat": seat,
                    "actors": list(t.actors()), "moves": t.legal_for(seat)}

    @app.get("/games/{game_id}/stream", summary="Server-sent events: each event as the caller may read it")
    async def stream(game_id: str, request: Request, since: int = Query(0, ge=0),
                     last_event_id: str | None = Header(None),
                     authorization: str | None = Header(None)) -> StreamingResponse:
        with lock:
            t = table(game_id)
            seat = seat_of(role(t, authorization))
        start = since
        if last_event_id is not None and last_event_id.strip().isdigit():
            start = max(start, int(last_event_id) + 1)

        async def feed():
            nxt = start
            while True:
                with lock:
                    caught_up(game_id, t)
                    new = t.events_for(seat, nxt) if t.next_seq > nxt else []
                    over = t.finished and t.seed_shown
                for e in new:
                    yield f"id: {e['seq']}\nevent: event\ndata: {json.dumps(e, separators=(',', ':'))}\n\n"
                    nxt = e["seq"] + 1
                if over and nxt >= t.next_seq:
                    yield "event: end\ndata: {}\n\n"
                    return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(poll_seconds)

        return StreamingResponse(feed(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    pictures = live_page.Pictures()

    @app.get("/games/{game_id}", response_class=HTMLResponse,
             summary="The live page: the board and the races, updating as events arrive")
    def game_page(game_id: str) -> HTMLResponse:
        with lock:
            table(game_id)
        return HTMLResponse(live_page.live_html(game_id, live_page.plotly_asset()[0]),
                            headers=PAGE_HEADERS)

    @app.get("/games/{game_id}/page", summary="What the live page draws, as the caller may see it")
    def page_picture(game_id: str, authorization: str | None = Header(None)) -> dict:
        with lock:
            t = table(game_id)
            moment = live_page.seen_now(t, role(t, authorization))
        return pictures.get(moment)

    @app.get("/assets/{name}", include_in_schema=False)
    def asset(name: str, request: Request) -> Response:
        plotly_name, plain, packed = live_page.plotly_asset()
        if name.startswith("geo-") and name.endswith(".js"):
            try:
                plain, packed = live_page.geo_asset(name[4:-3])
            except ValueError:
                raise ServiceError(404, "not-found", f"no asset {name!r}") from None
        elif name != plotly_name:
            raise ServiceError(404, "not-found", f"no asset {name!r}")
        headers = {"Cache-Control": "public, max-age=86400", "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(packed, media_type="text/javascript",
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(plain, media_type="text/javascript", headers=headers)

    return app


PAGE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff"}


def app_from_env() -> FastAPI:
    """The app over the store $LEDGER_DB names: the factory each worker process of `ledger serve
    --workers N` calls (uvicorn's factory=True); $LEDGER_SERVE_RATE and $LEDGER_SERVE_BURST give
    its `--rate` and `--burst` (each worker counts the appends it takes)."""
    burst = os.environ.get("LEDGER_SERVE_BURST")
    rate = Rate.parse(os.environ.get("LEDGER_SERVE_RATE", "off"), int(burst) if burst else None)
    return create_app(None, rate=rate)


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(401, "unauthorized", "Authorization must be 'Bearer TOKEN'")
    return token.strip()
