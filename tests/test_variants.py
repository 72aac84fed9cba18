"""The variant table and what goes with it: declaring a variant at the start, the random draw rule,
the legal moves and the simulator in every variant."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product

import pytest

from engine.core.dice import SeededDice
from engine.core.events import Event
from engine.risk_europe import RULESET
from engine.risk_europe.board import default_data
from engine.risk_europe.chance import DrawError, draw, draw_with, uniform
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.legal import candidate_moves, chance_needed, legal_moves
from engine.risk_europe.variants import VARIANTS, VariantError, parse_variant
from replay.logfile import format_line, read_log, read_log_text
from engine.risk_europe.sim import armies_for, play_game, simulate_game
from ledger.cli_simulate import simulate_games
from replay.judge import judge
from tests.re_helpers import ev, rules_of
from tests.test_rules_mercenaries import controlled3, to_green


def started(variant, players, mercenaries=()):
    return PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "risk-europe", "variant": variant, "players": [{"id": p} for p in players],
         "mercenaries": [{"id": p} for p in mercenaries]})


def start_rules(payload):
    return [v.rule for v in RULESET.check_start(payload, default_data())]


# --- declaring the variant --------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_RE_START_VARIANT_every_variant_of_the_table_is_judged(variant):
    players, mercs = armies_for(variant)
    assert start_rules(started(variant, players, mercs)) == []


@pytest.mark.parametrize("variant", ["teams+missions", "basic+long", "mercenaries-4p", "basic+missions+missions",
                                     "basic+fog"])
def test_RE_START_VARIANT_combinations_that_do_not_exist_are_refused(variant):
    assert "RE-START-VARIANT" in start_rules(started(variant, ("a", "b", "c", "d")))
    with pytest.raises(VariantError):
        parse_variant(variant)


def test_RE_START_PLAYERS_each_variant_seats_its_players_and_mercenary_armies():
    assert start_rules(started("mercenaries-3p", ("a", "b", "c", "d"), ("e",))) == ["RE-START-PLAYERS"]
    assert start_rules(started("mercenaries-3p", ("a", "b", "c"))) == ["RE-START-PLAYERS"]
    assert start_rules(started("mercenaries-2p", ("a", "b"), ("c", "a"))) == ["RE-START-PLAYERS"]
    assert start_rules(started("teams", ("a", "b", "c"))) == ["RE-START-PLAYERS"]


def test_the_modifiers_change_the_row():
    assert parse_variant("teams+long").rounds is None and parse_variant("teams+long").all_cities_win
    assert parse_variant("mercenaries-3p+missions").missions and parse_variant("mercenaries-3p+missions").win_crowns == 8
    assert parse_variant("basic") == parse_variant("basic")


# --- the draw rule -------------------------------------------------------------------------------

@pytest.mark.parametrize("m", range(1, 11))
def test_uniform_is_uniform_over_every_accepted_roll(m):
    """Over all k-dice rolls, every result 0..m-1 comes from the same number of accepted rolls."""
    k = 0 if m == 1 else next(k for k in range(1, 4) if 6 ** k >= m)
    counts: Counter = Counter()
    for roll in product(range(1, 7), repeat=k):
        it = iter(roll)
        try:
            counts[uniform(m, lambda: next(it))] += 1
        except StopIteration:           # rejected: the rule reads more dice
            continue
    assert sorted(counts) == list(range(m)) and len(set(counts.values())) == 1


def test_a_draw_is_checked_die_for_die():
    pool = list("ABCDEFGH")
    dice = iter([6, 6, 1, 2, 3, 4, 5, 6, 1, 1, 2, 2, 3, 3, 4, 4])
    drawn, used = draw(pool, 3, lambda: next(dice))
    assert used[:2] == [6, 6]                       # 35 >= 32: rejected, two more dice read
    assert draw_with(pool, 3, used) == drawn and len(set(drawn)) == 3
    with pytest.raises(DrawError):
        draw_with(pool, 3, used[:-1])
    with pytest.raises(DrawError):
        draw_with(pool, 3, used + [1])


def test_a_full_draw_is_a_shuffle():
    pool = list(range(8))
    seen = set()
    for seed in range(40):
        dice = SeededDice(f"shuffle-{seed}")
        order, _ = draw(pool, 8, lambda: dice.roll(1)[0])
        assert sorted(order) == pool
        seen.add(tuple(order))
    assert len(seen) > 30


# --- variant claims: the rule the variant's own end gives -----------------------------------------

def test_RE_MERC_SEAT_a_mercenary_turn_missing_from_the_log_is_reported():
    s = to_green(controlled3())
    assert rules_of(s, ev("CardRevealed", "blue", card="tax-spend-2")) == ["RE-MERC-SEAT"]


def test_RE_MERC_WIN_a_declared_winner_short_of_eight_crowns_is_a_wrong_claim():
    violations = RULESET.check(controlled3(), ev("GameEnded", None, winner="blue"))
    assert [(v.rule, v.blocking) for v in violations] == [("RE-MERC-WIN", False)]


# --- legal moves and the simulator in every variant ---------------------------------------------

def _fold(envelopes, data):
    start = PAYLOADS["GameStarted"].model_validate(envelopes[0]["payload"])
    state = RULESET.initial_state(start, data)
    for env in envelopes[1:]:
        yield state, env
        event = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        violations, nxt = RULESET.step(state, event)
        assert nxt is not None and not any(v.blocking for v in violations)
        state = nxt


@pytest.mark.parametrize("variant", ["mercenaries-3p", "mercenaries-2p", "teams", "basic+missions"])
def test_legal_moves_are_accepted_at_every_position_of_a_variant_game(variant):
    from engine.risk_europe.sim import _example_missions_data
    data = _example_missions_data() if parse_variant(variant).missions else default_data()
    game = play_game(2, f"prop-{variant}", max_rounds=6, variant=variant, live=True)   # turns ended by their players
    for state, env in _fold(game.envelopes, data):
        moves = legal_moves(state)
        assert moves == candidate_moves(state), "a candidate built from the rules was rejected"
        spec = chance_needed(state)
        if env["type"] == "TilesDrawn":
            assert spec is not None and spec.kind == "tiles" and env["payload"]["army"] == spec.actor
        if env["type"] in ("Expanded", "SplitExpanded", "Maneuvered", "Spent", "Fortified", "SiegeAssaulted",
                           "CasualtiesRemoved", "BattleStarted", "MercenaryBidsOrdered", "KingdomPlaced"):
            payload = {k: v for k, v in env["payload"].items() if k not in ("coins", "footmen", "rolls")}
            if env["type"] == "KingdomPlaced":
                payload["footmen"] = env["payload"]["footmen"]
            assert (env["actor"], env["type"], payload) in [(m.actor, m.type, m.payload) for m in moves]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_simulator_plays_every_variant(variant, tmp_path):
    paths = simulate_games(1, 3, tmp_path, variant=variant)
    lines = [json.loads(x) for x in paths[0].read_text("utf-8").splitlines()]
    assert lines[0]["payload"]["variant"] == variant and lines[-1]["type"] == "SeedRevealed"
    from engine.risk_europe.sim import _example_missions_data
    j = judge(read_log(paths[0]), data=_example_missions_data() if parse_variant(variant).missions else None)
    assert j.findings == [] and j.chain_ok


def test_the_simulator_is_deterministic_per_variant_and_refuses_unknown_ones(tmp_path):
    a = "".join(format_line(e) + "\n" for e in simulate_game(5, "g", variant="mercenaries-3p"))
    b = "".join(format_line(e) + "\n" for e in simulate_game(5, "g", variant="mercenaries-3p"))
    assert a == b and a != "".join(format_line(e) + "\n" for e in simulate_game(5, "g"))
    assert judge(read_log_text(a)).findings == []
    with pytest.raises(ValueError):
        simulate_games(1, 1, tmp_path / "x", variant="chess")
    assert not (tmp_path / "x").exists()


def test_a_mercenary_army_never_turns_on_its_controller_in_simulated_games():
    game = play_game(1, "loyal", variant="mercenaries-3p", max_rounds=12)
    data = default_data()
    for state, env in _fold(game.envelopes, data):
        if env["type"] in ("Expanded", "SplitExpanded", "SiegeAssaulted") and state.is_mercenary(env["actor"]):
            boss = state.players[env["actor"]].controller
            targets = [env["payload"].get("to"), env["payload"].get("target")] + [m["to"] for m in env["payload"].get("moves", [])]
            assert all(state.terr[data.resolve(t)].owner != boss for t in targets if t)


def test_the_draw_examples_in_the_log_format_doc_follow_the_draw_rule():
    """The TilesDrawn and Mercenary CardRevealed examples with dice are first draws: from every
    Gold Crown City, and from the whole deck."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "log-format.md").read_text("utf-8")
    data = default_data()
    checked = 0
    for line in re.findall(r'^\{"v":1.*"dice":\[.*$', doc, re.M):
        e = json.loads(line)
        p = e["payload"]
        if e["type"] == "TilesDrawn":
            pool = [data.cities[t].name for t in data.gold_cities]
            assert draw_with(pool, len(p["tiles"]), p["dice"]) == p["tiles"]
        else:
            assert draw_with(list(data.cards), 1, p["dice"]) == [p["card"]]
        checked += 1
    assert checked == 2
