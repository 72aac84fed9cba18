"""`ledger serve` with Warrior Knights (issue #14): a whole game played through HTTP on the real
server by seat clients whose bots choose from their own legal moves, the server drawing every
card from the committed seed, a spectator following the stream; the stored game verifies and its
export is the log the clients saw. And no route shows a Baron's face-down plan or hidden votes
to another seat or a spectator while they are hidden."""

from __future__ import annotations


import pytest

from engine.core import views as V
from engine.core.dice import DiceTape
from engine.core.ruleset import get_ruleset
from engine.warrior_knights import live as L
from ledger.service import create_app
from tests.service_support import Spectator, auth, export_of, fold_stored, play_live, served
from tests.test_views import in_payload, in_view

PLAYERS = ["ann", "bob", "cat"]
SEED = "wk-live-3"
RS = get_ruleset("warrior-knights")


def claim(result: dict) -> dict:
    """The organizer's GameEnded: the winner the rules give."""
    winners = result["winners"]
    return {"winner": winners[0] if winners else None, "reason": result["reason"]}


def new_game(client, game_id: str, players=PLAYERS) -> dict:
    r = client.post("/games", json={"ruleset": "warrior-knights", "players": players, "game_id": game_id})
    assert r.status_code == 201, r.text
    return r.json()


def _fold(lines: list[str]):
    """The full state of a stored game, and every (state before, envelope) on the way."""
    final, steps = fold_stored(RS, lines)
    return final, [(s, e) for s, e, _ in steps]


class PlayedGame:
    """The module's one whole game on the real server (see `played`): what the tests look at."""


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> PlayedGame:
    """One whole Warrior Knights game played on the real server by seat clients, a spectator
    following the stream, and every route read as each seat and a spectator at the moments a
    plan or a vote is hidden (`_no_leak`: the first six decisions of the planning, every one of
    the voting, until twelve checks have seen both kinds). The game takes a minute of CPU: the
    whole-game test and the leak test read the same one."""
    g = PlayedGame()
    g.tmp = tmp_path_factory.mktemp("wk-live")
    g.db = g.tmp / "live.duckdb"
    app = create_app(g.db, seed_for=lambda _g: SEED, poll_seconds=0.02)
    g.kinds, g.checks = set(), []
    try:
        with served(app) as http:
            g.created = created = new_game(http, "wk-live")

            def watch(state):
                if {"plan", "votes"} <= g.kinds and len(g.checks) >= 12:
                    return                               # seen enough, as the leak test asks
                view = state["view"]
                planning = view.get("phase") == "planning" or any(
                    p.get("plan") for p in view["players"].values())
                voting = any(p.get("votes_cast") for p in view["players"].values())
                if (planning and len(g.checks) < 6) or voting:
                    n, k = _no_leak(http, app.state.store, created)
                    g.checks.append(n)
                    g.kinds.update(k)

            g.spectator = Spectator(http.base, "wk-live", drop_after=30)
            g.spectator.start()
            g.seats = play_live(http, created, claim, seed=SEED, watch=watch)
            g.spectator.join(120)
            g.public = http.get("/games/wk-live/events").json()
            g.lines = app.state.store.events("wk-live")
    finally:
        app.state.store.close()
    return g


def test_a_whole_warrior_knights_game_is_played_on_the_real_server_and_verifies(played):
    created, spectator, seats, public, lines = (played.created, played.spectator, played.seats,
                                                played.public, played.lines)
    assert created["dice"]["mode"] == "seeded"
    assert not spectator.is_alive() and spectator.reconnects == 1
    seen = seats["ann"].log
    assert all(c.log == seen for c in seats.values())          # once over, every seat reads it all
    assert all(c.posted > 0 for c in seats.values())
    types = {e["type"] for e in seen}
    assert {"TroopsDealt", "StacksPlanned", "CardRevealed", "VotesRevealed", "WagesPaid",
            "GameEnded", "SeedRevealed"} <= types, types
    assert seen[-2]["type"] == "GameEnded" and seen[-2]["payload"]["winner"] in PLAYERS
    assert seen[-1] == {**seen[-1], "type": "SeedRevealed", "payload": {"seed": SEED}}
    assert public["events"] == seen and public["over"]
    streamed = spectator.events                                  # each event as it was when sent
    assert [e["seq"] for e in streamed] == list(range(len(seen)))
    hidden_plans = [e for e in streamed if e["type"] == "StacksPlanned"
                    and any(V.HIDDEN in x for x in e["payload"]["stacks"])]
    assert hidden_plans                                          # the spectator saw plans face down
    for e, final in zip(streamed, seen):
        assert e == final or (e["hash"] is None and (e["type"], e["actor"]) == (final["type"], final["actor"]))
    assert export_of(played.tmp, played.db, "wk-live") == seen     # `ledger verify` passed, too
    assert V.secrets_of(RS, _fold(lines)[0]) == ()                # over: every secret is public
    # every card the server drew is the one the revealed seed gives (rule WK-SEED)
    tape = DiceTape(SEED)
    drawn = [(s, e) for s, e in _fold(lines)[1] if e["type"] in L.CHANCE_TYPES]
    assert len(drawn) > 20
    for s, e in drawn:
        assert L.chance(s, tape) == (e["type"], e["actor"], e["payload"]), e["seq"]


def _shown_in_log(events: list[dict], x: V.Secret) -> bool:
    """Does the log show the secret `x`: the owner's plan under way in clear, his votes for the
    Agenda before every attending Baron has revealed, a Fate card drawn and not yet revealed?
    (An earlier round's plan and a card already revealed may name the same card type.)"""
    if x.distinct:
        return any(in_payload(e["payload"], e["actor"], x) for e in events)
    mine = [e for e in events if e["actor"] == x.owner]
    if x.kind == "plan":
        plan = [e for e in mine if e["type"] == "StacksPlanned"][-1]
        return any(card != V.HIDDEN for stack in plan["payload"]["stacks"] for card in stack)
    if x.kind == "votes":
        cast = [e for e in mine if e["type"] == "VotesRevealed"][-1]
        return cast["payload"]["votes"] != V.HIDDEN
    return any(in_payload(e["payload"], e["actor"], x) for e in events)


def _no_leak(client, store, created) -> tuple[int, set[str]]:
    """Every route, as each seat and a spectator: no other seat's secret (the referee's list of
    secrets folded from `store`, the app's). (checks, kinds)"""
    gid = created["game"]
    state_now, _ = _fold(store.events(gid))
    secrets = V.secrets_of(RS, state_now)
    checked = 0
    for seat in [None, *PLAYERS]:
        h = {} if seat is None else auth(created["seats"][seat])
        state = client.get(f"/games/{gid}/state", headers=h).json()
        events = client.get(f"/games/{gid}/events", headers=h).json()["events"]
        moves = client.get(f"/games/{gid}/legal", headers=h).json()["moves"]
        for x in secrets:
            mine = x.owner == seat
            assert in_view(state["view"], x) == mine or (mine and x.kind == "votes"), (seat, x)
            if not mine:
                assert not in_view(state["view"], x), (seat, x)
                assert not _shown_in_log(events, x), (seat, x)
                assert not any(in_payload(m["payload"], m["actor"], x) for m in moves), (seat, x)
                assert state["digest"] is None and events[-1]["hash"] is None
            checked += 1
    return checked, {x.kind for x in secrets}


def test_no_route_shows_a_plan_or_hidden_votes_to_another_seat_or_a_spectator(played):
    """Checked during the module's whole game (`played`), through the real server."""
    assert {"plan", "votes"} <= played.kinds, played.kinds
    assert played.checks and sum(played.checks) > 0
