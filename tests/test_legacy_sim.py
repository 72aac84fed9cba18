"""Seeded bots play complete, legal Risk Legacy games and campaigns: every event they write is
accepted by the engine, the same seed writes the same bytes, and the invariants of the board hold
after every event."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.common import stars, troops_of
from engine.risk_legacy.legal import candidate_moves, is_accepted, legal_moves
from engine.risk_legacy.sim import play_game, random_world
from replay.logfile import format_line, read_log_text
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


# --- digital play: every card from the seeded stream ----------------------------------------------

DRAWS = ("CardsLaidOut", "CardRevealed", "EventCardDrawn", "MissionRevealed")


def _sealed_text(envs) -> str:
    from replay.logfile import seal
    return "".join(format_line(e) + "\n" for e in seal(envs))


def _copy(game) -> list[dict]:
    import json
    return [json.loads(json.dumps({k: v for k, v in e.items() if k not in ("prev", "hash")}))
            for e in game.envelopes]


def test_seeded_games_with_events_missions_and_face_down_scars_audit_clean():
    from collections import Counter
    seen: Counter = Counter()
    for seed in range(3):
        game = play_game(seed, f"cards{seed}", cards=True)
        j = _judge(game)
        assert game.finished and j.findings == [] and j.seed_checked, seed
        start = game.envelopes[0]["payload"]
        assert (start["events"], start["missions"]) == (8, 8)
        for e in game.envelopes:
            seen[e["type"]] += 1
            if e["type"] in DRAWS:
                assert e["payload"]["dice"] is not None, e
        [deal] = [e for e in game.envelopes if e["type"] == "ScarCardsDealt"]
        assert set(deal["payload"]) == {"commitments", "hidden_dice"}
        turned = [e["actor"] for e in game.envelopes if e["type"] in ("ScarPlaced", "ScarCardReturned")]
        assert sorted(turned) == sorted(deal["payload"]["commitments"])      # every card turned over
    assert all(seen[t] > 0 for t in ("EventCardDrawn", "MissionCompleted", "MissionRevealed", "ScarPlaced",
                                     "ScarCardReturned", "CardRevealed")), seen


def test_a_game_judged_before_its_seed_is_known_checks_the_secret_deal_at_the_end():
    """Folded without the seed up front (as a live table would): the dice are checked when the
    seed is revealed, the face-down deal drawn from the seed's dice and held against the cards
    turned over."""
    from engine.core.events import Event
    from engine.risk_legacy.events import PAYLOADS
    game = play_game(1, "late-seed", cards=True)
    start = PAYLOADS["GameStarted"].model_validate(game.envelopes[0]["payload"])
    state = RULESET.initial_state(start, RULESET.load_data())
    for env in game.envelopes[1:]:
        e = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        violations, state = RULESET.step(state, e)
        assert violations == [], (env["seq"], env["type"], violations)
    turned = {env["actor"]: env["payload"]["scar"] for env in game.envelopes
              if env["type"] in ("ScarPlaced", "ScarCardReturned")}
    assert state.scar_deal.drawn == turned and state.dice.tape is None


def test_a_changed_draw_die_is_caught_at_its_line():
    game = play_game(4, "mutant", cards=True)
    envs = _copy(game)
    i = next(k for k, e in enumerate(envs) if e["type"] == "CardRevealed" and e["seq"] > 40)
    caught = set()
    for face in range(1, 7):
        if face == envs[i]["payload"]["dice"][0]:
            continue
        bad = [dict(e) for e in envs]
        bad[i] = {**envs[i], "payload": {**envs[i]["payload"], "dice": [face, *envs[i]["payload"]["dice"][1:]]}}
        j = judge(read_log_text(_sealed_text(bad), "mutant"))
        assert j.chain_ok and {f.line for f in j.findings} == {i + 1}, [f.format() for f in j.findings]
        rules = {f.rule for f in j.findings}
        assert "RL-DICE-SEED" in rules and rules <= {"RL-DICE-SEED", "RL-CHANCE-DRAW"}
        caught |= rules
    assert caught == {"RL-DICE-SEED", "RL-CHANCE-DRAW"}       # some of the faces draw another card


def test_a_wrong_hidden_deal_or_salt_is_one_finding_at_its_line():
    game = play_game(6, "hidden", cards=True)
    envs = _copy(game)
    d = next(k for k, e in enumerate(envs) if e["type"] == "ScarCardsDealt")
    counted = [dict(e) for e in envs]
    counted[d] = {**envs[d], "payload": {**envs[d]["payload"], "hidden_dice": envs[d]["payload"]["hidden_dice"] + 1}}
    j = judge(read_log_text(_sealed_text(counted), "hidden"))
    assert [(f.rule, f.line) for f in j.findings] == [("RL-CHANCE-DRAW", d + 1)]   # the rest still checks
    k = next(k for k, e in enumerate(envs) if e["type"] in ("ScarPlaced", "ScarCardReturned"))
    salted = [dict(e) for e in envs]
    salted[k] = {**envs[k], "payload": {**envs[k]["payload"], "salt": "0" * 16}}
    j = judge(read_log_text(_sealed_text(salted), "hidden"))
    assert [(f.rule, f.line) for f in j.findings] == [("RL-SCAR-REVEAL", k + 1)]
