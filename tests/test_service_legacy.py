"""`ledger serve` with Risk Legacy (issue #12, Done-when): a whole game played through HTTP on
the real server by seat clients whose bots choose from their own legal moves, a spectator
following the stream; the stored game verifies and its export is the log the clients saw. And
no route shows a player's Scar card to another seat or a spectator before it is played."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from engine.core import views as V
from engine.core.ruleset import get_ruleset
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.sim import random_world
from ledger.service import create_app
from tests.service_support import Spectator, auth, export_of, fold_stored, play_live, served
from tests.test_views import in_payload, in_view

PLAYERS = ["ann", "bob", "cat", "dan"]
SEED = "legacy-live-7"


def world_option(seed: int = 7, signatures: list[str] | None = None) -> str:
    """A box customized before the first game (faction powers, coin stickers), as JSON; with
    `signatures`, the world after that many games, each won by the person named."""
    world = random_world(default_data(), random.Random(seed))
    if signatures:
        world = world.model_copy(update={"games": len(signatures), "signatures": [
            W.Signature(game=i + 1, player=p) for i, p in enumerate(signatures)]})
    return json.dumps(W.world_to_dict(world))


def rules_order(state: dict, actors: list[str]) -> list[tuple[str, frozenset[str] | None]]:
    """Whom the table asks, in order, when several may act at once in a fight. Rulebook (seed
    003), "A note on timing": "priority goes to the current player, then the defender (if in
    combat), then clockwise from the current player" for a Scar card or a Missile played at the
    same time ("Missiles": "the current player (attacker), then the defender, then each player
    clockwise around the table from the attacker"). A Scar card goes on before the defender
    declares its dice (RL-SCAR-PLACE: the defender chooses knowing the scar), so every holder
    is asked about its Scar card in that order first, and the defender's dice come last: the
    defender's choice of dice closes the moment for everyone."""
    cb = state["view"]["combat"]
    if cb is None or cb["stage"] not in ("declared", "rolled"):
        return [(a, None) for a in actors]
    current = state["view"]["turn"]["current"]
    i = PLAYERS.index(current)
    clockwise = PLAYERS[i:] + PLAYERS[:i]
    ranked = [p for p in [current, cb["defender"], *clockwise] if p in actors]
    ranked = list(dict.fromkeys(ranked))
    if cb["stage"] == "rolled":                     # Missiles fired or held, in priority
        return [(p, None) for p in ranked]
    scars = [(p, frozenset({"ScarPlaced"})) for p in ranked]
    return scars + [(cb["defender"], frozenset({"DefenceDeclared"}))]


def claim(result: dict) -> dict:
    """The organizer's GameEnded: the winner the rules give."""
    winners = result["winners"]
    return {"winner": winners[0] if winners else None, "reason": result["reason"]}


def new_game(client, game_id: str, **options: str) -> dict:
    r = client.post("/games", json={"ruleset": "risk-legacy", "players": PLAYERS, "game_id": game_id,
                                    "options": {"world": world_option(), **options}})
    assert r.status_code == 201, r.text
    return r.json()


class PlayedGame:
    """The module's one whole game on the real server (see `played`): what the tests look at."""


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> PlayedGame:
    """One whole Risk Legacy game played on the real server by seat clients, a spectator
    following the stream, and every route read as each seat and a spectator once the Scar cards
    are dealt and at each of the first six attacks (the Scar window is open: `_no_leak`). The
    whole-game test and the leak test read the same game (it takes CPU tens of seconds)."""
    g = PlayedGame()
    g.tmp = tmp_path_factory.mktemp("rl-live")
    g.db = g.tmp / "live.duckdb"
    app = create_app(g.db, seed_for=lambda _g: SEED, poll_seconds=0.02)
    g.checked = []
    try:
        with served(app) as http:
            g.created = created = new_game(http, "rl-live")
            g.deal = http.get("/games/rl-live/events", headers=auth(created["seats"]["ann"])).json()["events"][1]
            g.checked_at_deal = _no_leak(http, app.state.store, created)

            def watch(state):           # at each of the first attacks (the Scar window is open)
                if state["view"]["combat"] and len(g.checked) < 6:
                    g.checked.append(_no_leak(http, app.state.store, created))

            g.spectator = Spectator(http.base, "rl-live", drop_after=25)
            g.spectator.start()
            g.seats = play_live(http, created, claim, seed=SEED, watch=watch, asks=rules_order)
            g.spectator.join(60)
            g.public = http.get("/games/rl-live/events").json()
            g.secrets_at_end = V.secrets_of(get_ruleset("risk-legacy"), _referee(app.state.store, "rl-live"))
    finally:
        app.state.store.close()
    return g


def test_a_whole_risk_legacy_game_is_played_on_the_real_server_and_verifies(played):
    created, spectator, seats, public = played.created, played.spectator, played.seats, played.public
    assert created["dice"]["mode"] == "seeded"
    assert not spectator.is_alive() and spectator.reconnects == 1
    seen = seats["ann"].log
    assert all(c.log == seen for c in seats.values())          # once over, every seat reads it all
    assert all(c.posted > 0 for c in seats.values())
    types = {e["type"] for e in seen}
    assert {"ScarCardsDealt", "FactionChosen", "AttackDeclared", "DefenceDeclared", "DiceRolled",
            "CasualtiesRemoved", "TurnEnded", "GameEnded", "SeedRevealed"} <= types
    assert seen[-2]["type"] == "GameEnded" and seen[-2]["payload"]["winner"] in PLAYERS
    assert public["events"] == seen and public["over"]           # the spectator's read once over
    streamed = spectator.events                                  # each event as it was when sent
    assert [e["seq"] for e in streamed] == list(range(len(seen)))
    for e, final in zip(streamed, seen):
        assert e == final or (e["hash"] is None and (e["type"], e["actor"]) == (final["type"], final["actor"]))
    assert streamed[1]["payload"]["dice"] == V.HIDDEN and streamed[-1] == seen[-1]
    assert export_of(played.tmp, played.db, "rl-live") == seen


def _referee(store, gid):
    """The full state of the game the app serves, folded from its store (the test's referee)."""
    return fold_stored(get_ruleset("risk-legacy"), store.events(gid))[0]


def _no_leak(client, store, created) -> int:
    """Every route, as each seat and a spectator: no Scar card of another seat (the referee's
    list of secrets folded from `store`, the app's). The checks made."""
    gid = created["game"]
    rs = get_ruleset("risk-legacy")
    secrets = V.secrets_of(rs, _referee(store, gid))
    checked = 0
    for seat in [None, *PLAYERS]:
        h = {} if seat is None else auth(created["seats"][seat])
        state = client.get(f"/games/{gid}/state", headers=h).json()
        events = client.get(f"/games/{gid}/events", headers=h).json()["events"]
        moves = client.get(f"/games/{gid}/legal", headers=h).json()["moves"]
        for x in secrets:
            mine = x.owner == seat
            assert in_view(state["view"], x) == mine, (seat, x)
            assert any(in_payload(e["payload"], e["actor"], x) for e in events) == mine, (seat, x)
            assert not any(in_payload(m["payload"], m["actor"], x) for m in moves if not mine), (seat, x)
            if not mine:
                assert state["digest"] is None and events[-1]["hash"] is None
            checked += 1
    return checked


def test_no_route_shows_a_scar_card_to_another_seat_or_a_spectator(played):
    """Checked during the module's whole game (`played`), through the real server."""
    deal = played.deal
    assert deal["type"] == "ScarCardsDealt" and deal["payload"]["dice"] == V.HIDDEN
    assert deal["payload"]["cards"]["ann"] != V.HIDDEN and deal["payload"]["cards"]["bob"] == V.HIDDEN
    assert played.checked_at_deal == 4 * 5
    assert played.checked and all(n > 0 for n in played.checked)
    assert played.secrets_at_end == ()                           # over: every secret is public


def test_the_driver_asks_in_the_rules_order_of_priority():
    """ann attacks bob; cat and dan hold Scar cards: seat order would ask bob, whose choice of
    dice closes the moment, before cat and dan. The rules' order asks the attacker, the
    defender, then clockwise from the attacker, each about its Scar card, and bob's dice last."""
    state = {"view": {"turn": {"current": "cat"},
                      "combat": {"stage": "declared", "attacker": "cat", "defender": "ann"}}}
    assert rules_order(state, ["ann", "bob", "dan"]) == [
        ("ann", frozenset({"ScarPlaced"})), ("dan", frozenset({"ScarPlaced"})),
        ("bob", frozenset({"ScarPlaced"})), ("ann", frozenset({"DefenceDeclared"}))]
    state["view"]["combat"]["stage"] = "rolled"          # Missiles: attacker, defender, clockwise
    assert rules_order(state, ["ann", "bob", "cat", "dan"]) == [
        ("cat", None), ("ann", None), ("dan", None), ("bob", None)]
    state["view"]["combat"] = None
    assert rules_order(state, ["cat"]) == [("cat", None)]


EVENT_TEXTS = ["Plague: nothing happens here", "Drought", "Good harvest", "Storms", "Peace talks", "Famine"]


def _turn_over(log: list[tuple[int, dict]]):
    """The table's hand at the cards the server draws (RULESET.table_chance): the card at the
    position the server's draw shows, turned over from the table's own face-down deck and sent
    without dice (the server adds them); the world's name from the winner of the roll-off."""
    events = list(EVENT_TEXTS)

    def table(state: dict):
        draw = state["draw"]
        if draw is None:
            return None
        log.append((state["next_seq"], draw))
        shows = draw["shows"]
        if draw["type"] == "EventCardDrawn":
            text = events.pop(shows["card"] - 1)
            return draw["type"], {"card": f"E-{text.split(':')[0]}", "text": text, "placed": "box"}
        if draw["type"] == "MissionRevealed":
            return draw["type"], {"card": f"M{shows['card']}", "text": "Control 3 cities", "reward": 1}
        assert draw["type"] == "WorldNamed"
        return draw["type"], {"name": f"Terra of {shows['by']}", "by": shows["by"]}
    return table


def test_the_server_draws_event_and_mission_cards_and_the_naming_roll_off_from_the_seed(tmp_path):
    """Event and Mission cards in play, and the 15th game of a world whose most signatures are
    tied between two people not at the table: the server draws which card (its dice in the log,
    checked against the seed) and the table turns it over; the server rolls the naming roll-off
    and the organizer records the name of its winner. The game verifies."""
    db = tmp_path / "draws.duckdb"
    app = create_app(db, seed_for=lambda _g: SEED)
    client = TestClient(app)
    r = client.post("/games", json={"ruleset": "risk-legacy", "players": PLAYERS, "game_id": "rl-draws",
                                    "options": {"world": world_option(signatures=["eve"] * 7 + ["fay"] * 7),
                                                "events": "6", "missions": "3"}})
    assert r.status_code == 201, r.text
    created = r.json()
    org = created["organizer"]
    first = client.get("/games/rl-draws/state").json()
    assert first["draw"]["type"] == "MissionRevealed" and first["draw"]["shows"]["deck"] == 3
    assert first["actors"] == []                          # the game waits for the table
    dice = first["draw"]["fills"]["dice"]
    # the table may not bring its own dice, nor may a seat turn the card
    bad = client.post("/games/rl-draws/events", headers=auth(org), json={
        "expected_seq": first["next_seq"], "type": "MissionRevealed",
        "payload": {"card": "M1", "reward": 1, "dice": [7 - d for d in dice]}})
    assert bad.status_code == 422 and bad.json()["code"] == "dice-by-server", bad.text
    seat = client.post("/games/rl-draws/events", headers=auth(created["seats"]["ann"]), json={
        "expected_seq": first["next_seq"], "type": "MissionRevealed", "payload": {"card": "M1", "reward": 1}})
    assert seat.status_code == 403, seat.text
    drawn: list[tuple[int, dict]] = []
    play_live(client, created, claim, seed=SEED, asks=rules_order, table=_turn_over(drawn))
    lines = [json.loads(x) for x in app.state.store.events("rl-draws")]
    kinds = [d["type"] for _, d in drawn]
    assert kinds.count("MissionRevealed") == 1 and "EventCardDrawn" in kinds and kinds[-1] == "WorldNamed"
    for seq, d in drawn:                                   # each stored as drawn, with the server's dice
        e = lines[seq]
        assert e["type"] == d["type"] and e["actor"] is None
        assert {k: e["payload"][k] for k in d["fills"]} == d["fills"]
    named = lines[drawn[-1][0]]["payload"]
    assert named["by"] in ("eve", "fay") and set(named["rolls"]) == {"eve", "fay"}
    assert lines[-1]["type"] == "SeedRevealed"
    from typer.testing import CliRunner
    from ledger.cli import app as cli
    app.state.store.close()
    out = CliRunner().invoke(cli, ["verify", "rl-draws", "--db", str(db)])
    assert out.exit_code == 0, out.output


def test_the_world_is_named_by_its_namers_seat_after_the_fifteenth_game(tmp_path):
    """dan signed the victors' section 14 times: after game 15's rewards the game waits for
    dan's seat (RL-WORLD-NAME), no other seat may name it, and dan's name is the world's."""
    client = TestClient(create_app(tmp_path / "name.duckdb", seed_for=lambda _g: SEED))
    r = client.post("/games", json={"ruleset": "risk-legacy", "players": PLAYERS, "game_id": "rl-name",
                                    "options": {"world": world_option(signatures=["dan"] * 14)}})
    assert r.status_code == 201, r.text
    created = r.json()
    seats = created["seats"]
    play_live(client, created, claim, seed=SEED, asks=rules_order,
              until=lambda st: st["view"]["turn"]["phase"] == "naming")
    state = client.get("/games/rl-name/state").json()
    assert state["view"]["turn"]["phase"] == "naming" and "dan" in state["actors"], state["actors"]
    moves = client.get("/games/rl-name/legal", headers=auth(seats["dan"])).json()["moves"]
    assert {"actor": "dan", "type": "WorldNamed", "payload": {"name": "The World of dan", "by": "dan"}} in moves
    at = state["next_seq"]
    for who, actor in (("bob", "bob"), ("bob", "dan")):
        r = client.post("/games/rl-name/events", headers=auth(seats[who]), json={
            "expected_seq": at, "type": "WorldNamed", "actor": actor, "payload": {"name": "Bobland", "by": actor}})
        assert r.status_code == 403, r.text
    r = client.post("/games/rl-name/events", headers=auth(seats["dan"]), json={
        "expected_seq": at, "type": "WorldNamed", "actor": "dan", "payload": {"name": "Danubia", "by": "dan"}})
    assert r.status_code == 200 and r.json()["findings"] == [], r.text
    play_live(client, created, claim, seed=SEED, asks=rules_order)
    events = client.get("/games/rl-name/events").json()
    assert events["over"] and events["events"][-1]["type"] == "SeedRevealed"
    named = events["events"][at]
    assert (named["type"], named["actor"], named["payload"]) == ("WorldNamed", "dan", {"name": "Danubia", "by": "dan"})
    assert not any(e["type"] == "WorldNamed" for e in events["events"][at + 1:])


def test_a_table_draw_may_be_sealed_with_the_dice_the_state_shows(tmp_path):
    """No Scar cards to deal (none left in the box), so nothing is hidden and the organizer
    sees the chain: it seals the Mission card it turned over with the dice `/state` shows; the
    same line with other dice, or with none, is one the server completes (`server-fills`)."""
    from engine.core.record import event_hash, make_envelope
    from replay.logfile import format_line
    world = json.loads(world_option())
    world["supply"] = {**world["supply"], "scar:bunker": 0, "scar:ammo_shortage": 0}
    client = TestClient(create_app(tmp_path / "seal.duckdb", seed_for=lambda _g: SEED))
    r = client.post("/games", json={"ruleset": "risk-legacy", "players": PLAYERS, "game_id": "rl-seal",
                                    "options": {"world": json.dumps(world), "missions": "4"}})
    assert r.status_code == 201, r.text
    org = r.json()["organizer"]
    state = client.get("/games/rl-seal/state").json()
    draw, at = state["draw"], state["next_seq"]
    assert draw["type"] == "MissionRevealed" and draw["shows"]["deck"] == 4
    head = client.get("/games/rl-seal/events", params={"since": at - 1}).json()["events"][-1]["hash"]
    assert head is not None

    def sealed(payload):
        line = make_envelope("rl-seal", at, "MissionRevealed", None, payload, at="2026-11-25T20:00:00Z")
        line["prev"] = head
        line["hash"] = event_hash(line)
        return {"expected_seq": at, **line}
    card = {"card": f"M{draw['shows']['card']}", "text": "Control 3 cities", "reward": 1}
    for payload in ({**card, "dice": [7 - d for d in draw["fills"]["dice"]]}, card):
        r = client.post("/games/rl-seal/events", headers=auth(org), json=sealed(payload))
        assert r.status_code == 422 and r.json()["code"] == "server-fills", r.text
    good = sealed({**card, **draw["fills"]})
    r = client.post("/games/rl-seal/events", headers=auth(org), json=good)
    assert r.status_code == 200, r.text
    good.pop("expected_seq")
    assert client.app.state.store.events("rl-seal")[at] == format_line(good)
