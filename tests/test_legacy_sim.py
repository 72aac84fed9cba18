"""Seeded bots play complete, legal Risk Legacy games and campaigns: every event they write is
accepted by the engine, the same seed writes the same bytes, and the invariants of the board hold
after every event."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.engine import stars, troops_of
from engine.risk_legacy.legal import candidate_moves, is_accepted, legal_moves
from ledger.legacy_sim import play_game, random_world
from ledger.logfile import format_line, read_log_text
from replay.judge import judge


def _judge(game):
    text = "".join(format_line(e) + "\n" for e in game.envelopes)
    return judge(read_log_text(text, game.game_id), digests=True)


def test_bots_play_complete_legal_games():
    for seed in range(12):
        game = play_game(seed, f"t{seed}")
        j = _judge(game)
        assert game.finished and j.findings == [] and j.seed_checked, seed
        assert j.result.winners == (game.winner,)


def test_the_same_seed_writes_the_same_bytes():
    a, b = play_game(7, "same"), play_game(7, "same")
    assert a.envelopes == b.envelopes
    assert play_game(8, "same").envelopes != a.envelopes


def test_invariants_hold_after_every_event():
    game = play_game(3, "inv")
    j = _judge(game)
    state = None
    from engine.risk_legacy.events import PAYLOADS
    start = PAYLOADS["GameStarted"].model_validate(game.envelopes[0]["payload"])
    state = RULESET.initial_state(start, RULESET.load_data())
    from engine.core.events import Event
    for env in game.envelopes[1:]:
        e = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        state = RULESET.apply(state, e)
        for t, x in state.terr.items():
            assert x.troops >= 0 and (x.owner is None) == (x.troops == 0), (env["seq"], t, x)
        hqs = [x.hq for x in state.terr.values() if x.hq]
        assert len(hqs) == len(set(hqs))
        for p, ps in state.players.items():
            assert ps.tokens >= 0 and ps.missiles >= 0 and stars(state, p) >= 0
        cards = [c for ps in state.players.values() for c in ps.hand if c != "coin"]
        side = state.side
        pool = set(cards) | side.draw | side.discard | {c for c in side.slots if c}
        assert len(cards) == len(set(cards)) and pool == set(state.world.resources)
        coins = sum(1 for ps in state.players.values() for c in ps.hand if c == "coin")
        assert coins + side.coins == 10
    assert j.findings == []
    assert sum(troops_of(state, p) for p in state.seats) > 0


def test_legal_moves_are_all_accepted():
    game = play_game(5, "moves")
    from engine.core.events import Event
    from engine.risk_legacy.events import PAYLOADS
    start = PAYLOADS["GameStarted"].model_validate(game.envelopes[0]["payload"])
    state = RULESET.initial_state(start, RULESET.load_data())
    checked = 0
    for env in game.envelopes[1:60]:
        moves = legal_moves(state)
        assert all(is_accepted(state, m) for m in moves)
        assert len(moves) <= len(candidate_moves(state))
        checked += len(moves)
        e = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        state = RULESET.apply(state, e)
    assert checked > 100
    assert RULESET.legal_moves is legal_moves


def test_a_random_first_world_follows_the_rulebook():
    import random
    w = random_world(RULESET.load_data(), random.Random(1))
    assert sum(n - 1 for n in w.resources.values()) == 12 and max(w.resources.values()) <= 3
    assert all(w.powers.values()) and W.check_world(w, RULESET.load_data()) == []
