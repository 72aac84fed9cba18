"""Warrior Knights' live-play hooks (engine/warrior_knights/live.py; issue #14), in process: a new
game's start, whose decision the game waits for, the cards the server draws from the seed (and
WK-SEED, which checks them once the seed is revealed), the legal moves, and the bots choosing
from them. tests/test_service_wk.py plays the same through `ledger serve`."""

from __future__ import annotations

import random
from hashlib import sha256

import pytest

from engine.core.dice import DiceTape
from engine.core.events import Event
from engine.core.ruleset import get_ruleset
from engine.core.views import HIDDEN
from engine.warrior_knights import live as L

RS = get_ruleset("warrior-knights")
SEED = "wk-unit-1"


def seeded_start(players=("ann", "bob", "cat"), seed=SEED) -> dict:
    return L.new_game(players, {}, {"mode": "seeded", "seed_hash": sha256(seed.encode()).hexdigest()})


def state_of(start: dict):
    return RS.initial_state(RS.payload_models["GameStarted"].model_validate(start), RS.default_data())


def step(s, type_, actor, payload):
    return RS.step(s, Event(1, type_, actor, RS.payload_models[type_].model_validate(payload)))


def play(s, tape, rng, until, limit=4000, log=None):
    """Play from `s` (random legal moves, the seed's draws) until `until(s)`; the state. `log`:
    a list the events are appended to, as envelopes."""
    for _ in range(limit):
        if until(s):
            return s
        if RS.actors(s):
            m = rng.choice(RS.legal_moves(s))
            type_, actor, payload = m.type, m.actor, m.payload
        else:
            type_, actor, payload = RS.chance(s, tape)
        problems, nxt = step(s, type_, actor, payload)
        assert problems == [] and nxt is not None
        if log is not None:
            log.append({"seq": len(log), "type": type_, "actor": actor, "payload": payload})
        s = nxt
    raise AssertionError("not reached")


# --- WK-SEED ------------------------------------------------------------------------------------


def test_WK_SEED_allows_the_draws_the_seed_gives_and_its_reveal():
    s = RS.reveal_seed(state_of(seeded_start()), SEED)
    s = play(s, DiceTape(SEED), random.Random(1), lambda s: s.flow.phase == "planning")
    problems, _ = step(s, "SeedRevealed", None, {"seed": SEED})
    assert problems == []


def test_WK_SEED_forbids_a_card_the_seed_does_not_give():
    s = RS.reveal_seed(state_of(seeded_start()), SEED)
    type_, _, payload = RS.chance(s, DiceTape(SEED))
    assert type_ == "TroopsDealt"
    swapped = {"mercenaries": {"ann": payload["mercenaries"]["bob"], "bob": payload["mercenaries"]["ann"],
                               "cat": payload["mercenaries"]["cat"]}}
    problems, after = step(s, "TroopsDealt", None, swapped)
    assert [v.rule for v in problems] == ["WK-SEED"] and after is not None   # carried out as logged


def test_WK_SEED_forbids_a_seed_that_is_not_the_committed_one():
    s = state_of(seeded_start())
    problems, _ = step(s, "SeedRevealed", None, {"seed": "another"})
    assert [v.rule for v in problems] == ["WK-SEED"] and "not the one" in problems[0].message
    table = state_of(L.new_game(("ann", "bob"), {}, {"mode": "table"}))
    problems, _ = step(table, "SeedRevealed", None, {"seed": SEED})
    assert [v.rule for v in problems] == ["WK-SEED"]


def test_a_wrong_seed_checks_nothing():
    s = state_of(seeded_start())
    assert RS.reveal_seed(s, "another") is s


# --- the start, the actors, the draws, the moves ---------------------------------------------------


def test_new_game_refuses_what_it_cannot_start_and_gives_colours():
    for players, options, word in ((("a",), {}, "2 to 6"), (("a", "a"), {}, "same id"),
                                   (("a", "b"), {"variant": "x"}, "option")):
        with pytest.raises(ValueError, match=word):
            L.new_game(players, options, {"mode": "table"})
    start = L.new_game(("x", "red", "y"), {}, {"mode": "table"})
    assert [p["color"] for p in start["players"]] == ["blue", "red", "green"]
    assert start["data"]["board"] == RS.default_data().board.digest


def test_the_draws_are_the_seed_s_and_differ_with_another_seed():
    s = state_of(seeded_start())
    assert RS.chance(s, DiceTape(SEED)) == RS.chance(s, DiceTape(SEED))
    assert RS.chance(s, DiceTape(SEED)) != RS.chance(s, DiceTape("other"))
    assert RS.actors(s) == ()                         # the troops are dealt first: nobody decides


def test_planning_waits_for_every_baron_and_offers_plans_in_clear():
    s = play(state_of(seeded_start()), DiceTape(SEED), random.Random(2), lambda s: s.flow.phase == "planning")
    assert RS.actors(s) == ("ann", "bob", "cat")
    moves = RS.legal_moves(s)
    plans = [m for m in moves if m.actor == "ann"]
    assert plans and all(m.type == "StacksPlanned" and len(m.payload["stacks"]) == 3 for m in plans)
    assert len(plans) <= L.MAX_PLANS
    hand = sorted(s.barons["ann"].hand)
    for m in plans:                                   # each a plan of the Baron's own cards
        used = sorted(c for stack in m.payload["stacks"] for c in stack)
        assert all(used.count(c) <= hand.count(c) for c in used)
    assert RS.chance(s, DiceTape(SEED)) is None       # a decision is due


def test_every_offered_move_is_accepted_without_a_finding_through_a_game():
    s = state_of(seeded_start(("ann", "bob")))
    rng, tape, kinds = random.Random(3), DiceTape(SEED), set()
    for _ in range(1500):
        if RS.result(s) is not None:
            break
        if RS.actors(s):
            moves = RS.legal_moves(s)
            assert moves and {m.actor for m in moves} <= set(RS.actors(s))
            for m in moves[:5]:
                assert step(s, m.type, m.actor, m.payload)[0] == []
            m = rng.choice(moves)
            kinds.add(m.type)
            s = step(s, m.type, m.actor, m.payload)[1]
        else:
            due = RS.chance(s, tape)
            assert due is not None, (s.flow.phase, s.flow.step)
            s = step(s, *due)[1]
    assert {"StacksPlanned", "ForcesMobilized", "VotesRevealed", "WagesPaid"} <= kinds


def test_a_plan_seen_face_down_folds_as_a_committed_plan():
    assert L._foldable("StacksPlanned", {"stacks": [[HIDDEN, HIDDEN], [HIDDEN], []]}) == \
        {"counts": [2, 1, 0], "commitment": HIDDEN}
    assert L._foldable("CardRevealed", {"card": "x"}) == {"card": "x"}


def test_the_bot_picks_one_of_the_moves_offered_and_is_seeded():
    start = seeded_start(("ann", "bob"))
    log = [{"seq": 0, "type": "GameStarted", "actor": None, "payload": start}]
    s = play(state_of(start), DiceTape(SEED), random.Random(4), lambda s: s.flow.phase == "planning", log=log)
    moves = [{"actor": m.actor, "type": m.type, "payload": m.payload} for m in RS.legal_moves(s)]
    a, b = RS.bot("ann", "x"), RS.bot("ann", "x")
    pick = a.choose(log, moves)
    assert pick == b.choose(log, moves) and pick in moves and pick["actor"] == "ann"
    assert RS.bot("ann", "x").choose(log, [m for m in moves if m["actor"] == "bob"]) is None


# --- Crown & Glory (whole served games: tests/test_service_wk_glory.py) ---------------------------


def glory_start(variants: str, players=("ann", "bob"), seed=SEED) -> dict:
    return L.new_game(players, {"variants": variants}, {"mode": "seeded",
                                                        "seed_hash": sha256(seed.encode()).hexdigest()})


def test_new_game_starts_the_crown_and_glory_variants_in_simulate_s_vocabulary():
    assert glory_start("for_glory")["variants"] == ["for_glory"]
    assert glory_start("King, missions")["variants"] == ["missions", "king"]
    assert glory_start("all")["variants"] == ["for_glory", "missions", "king"]
    assert "variants" not in glory_start("none")
    with pytest.raises(ValueError, match=r"variants 'glory': the Crown & Glory variants are for_glory"):
        glory_start("missions,glory")


def test_the_setup_draws_the_advancements_the_town_levies_and_the_missions_before_the_strongholds():
    s = state_of(glory_start("all", ("ann", "bob", "cat")))
    log: list = []
    s = play(RS.reveal_seed(s, SEED), DiceTape(SEED), random.Random(5),
             lambda s: s.flow.step == "strongholds" and RS.actors(s), log=log)
    assert len(s.glory.offer) == 3 and set(s.glory.missions) == {"ann", "bob", "cat"}
    assert all(m.mission is not None for m in s.glory.missions.values())        # dealt in clear
    assert s.glory.scholar not in (None, s.chairman, s.head_of_church)          # 3 players: a Scholar
    assert [e["type"] for e in log][-5:] == ["AdvancementsRevealed", "ScholarChosen"] + ["MissionDealt"] * 3
    assert RS.actors(s) == (s.flow.current,)


def test_WK_SEED_forbids_a_crown_and_glory_card_the_seed_does_not_give():
    s = RS.reveal_seed(state_of(glory_start("all")), SEED)
    s = play(s, DiceTape(SEED), random.Random(6), lambda s: RS.chance(s, DiceTape(SEED)) is not None
             and RS.chance(s, DiceTape(SEED))[0] == "MissionDealt")
    type_, actor, payload = RS.chance(s, DiceTape(SEED))
    other = next(m for m in sorted(RS.default_data().cards.crown_and_glory["missions"]) if m != payload["mission"])
    problems, after = step(s, type_, actor, {"mission": other})
    assert [v.rule for v in problems] == ["WK-SEED"] and after is not None
    problems, _ = step(s, type_, "bob" if actor == "ann" else "ann", payload)
    assert "WK-SEED" in [v.rule for v in problems]
    assert step(s, type_, actor, payload)[0] == []
    s = RS.reveal_seed(state_of(glory_start("for_glory")), SEED)
    s = play(s, DiceTape(SEED), random.Random(7), lambda s: RS.chance(s, DiceTape(SEED)) is not None
             and RS.chance(s, DiceTape(SEED))[0] == "AdvancementsRevealed")
    type_, _, payload = RS.chance(s, DiceTape(SEED))
    forged = sorted(set(s.glory.adv_deck.pile) - set(payload["cards"]))[:3]
    assert [v.rule for v in step(s, type_, None, {"cards": forged})[0]] == ["WK-SEED"]
