"""Simulated games and the legal-move generator: bots play whole games that the judge finds clean,
the same seed writes the same bytes, and every move offered is one the engine accepts."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.canonical import sha256_hex
from engine.core.events import Event
from engine.risk_europe import RULESET
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.legal import (
    Move, can_end_turn, candidate_moves, casualty_choices, chance_needed, dice_for, legal_moves, unit_choices,
)
from engine.risk_europe.state import Units
from ledger.cli import app
from replay.logfile import read_log, read_log_text
from engine.risk_europe.sim import MAX_ROUNDS, play_game, simulate_game
from ledger.cli_simulate import simulate_games
from replay.judge import judge
from tests.re_helpers import DEFAULT_CARDS, commit_all, ev, fold, placed

SEED = 11


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> list[Path]:
    return simulate_games(4, SEED, tmp_path_factory.mktemp("sim"))


def _fold(envelopes: list[dict]):
    """Every state of a log, before each event after GameStarted: (state, envelope) pairs."""
    start = RULESET.payload_models["GameStarted"].model_validate(envelopes[0]["payload"])
    state = RULESET.initial_state(start, RULESET.load_data())
    for env in envelopes[1:]:
        yield state, env
        event = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        violations, nxt = RULESET.step(state, event)
        assert not violations and nxt is not None
        state = nxt


# --- simulated games are legal, complete and reproducible -----------------------------------------

def test_simulated_games_audit_clean(simulated):
    for path in simulated:
        j = judge(read_log(path))
        assert j.findings == [], [f.format() for f in j.findings[:5]]
        assert j.sealed and j.chain_ok
        assert j.result is not None, f"{path.name} did not end"
        assert j.has_declared_winner and [j.declared_winner] == list(j.result.winners)


def test_simulated_games_are_digital_play(simulated):
    events = [json.loads(line) for line in simulated[0].read_text("utf-8").splitlines()]
    start, end = events[0]["payload"], events[-1]
    assert start["dice"]["mode"] == "seeded"
    assert end["type"] == "SeedRevealed" and sha256_hex(end["payload"]["seed"]) == start["dice"]["seed_hash"]
    assert events[-2]["type"] == "GameEnded"
    kinds = Counter(e["type"] for e in events)
    assert kinds["BidPlaced"] == kinds["BidRevealed"] == 4
    assert all("commitment" in e["payload"] for e in events if e["type"] == "BidPlaced")
    assert all("commitments" in e["payload"] for e in events if e["type"] == "CardsCommitted")
    assert all("salt" in e["payload"] for e in events if e["type"] == "CardRevealed")
    assert not any("at" in e for e in events)
    assert [p.name for p in simulated] == [f"game-{i:04d}.jsonl" for i in range(1, 5)]


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    a = simulate_games(2, 5, tmp_path / "a")
    b = simulate_games(2, 5, tmp_path / "b")
    c = simulate_games(1, 6, tmp_path / "c")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    assert a[0].read_bytes() != a[1].read_bytes() != c[0].read_bytes()


def test_bots_never_touch_the_global_random_generator():
    random.seed(1234)
    before = random.getstate()
    simulate_game(3, "sim-3-0001")
    assert random.getstate() == before


def test_games_end_within_realistic_rounds():
    games = [play_game(SEED, f"length-{i}") for i in range(6)]
    assert all(g.finished for g in games)
    assert all(3 <= g.rounds <= MAX_ROUNDS for g in games)
    assert sorted(g.rounds for g in games)[3] >= 6      # not all over after the land grab


def test_games_look_real(simulated):
    seen: Counter = Counter()
    for path in simulated:
        events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        seen.update(e["type"] for e in events)
        seen.update(f"rank {e['payload']['rank']}" for e in events if e["type"] == "DiceRolled" and "rank" in e["payload"])
        for e in events:
            if e["type"] == "Spent":
                seen.update(p["item"] for p in e["payload"]["purchases"])
            if e["type"] == "BattleEnded" and e["payload"]["winner"] is not None:
                seen["battle won"] += 1
    for what in ("rank 1", "rank 2", "rank 3", "rank 4", "castle", "siege", "archer", "cavalry",
                 "crown_card", "SiegeAssaulted", "Fortified", "Maneuvered", "SplitExpanded", "battle won"):
        assert seen[what] > 0, f"no {what} in {len(simulated)} simulated games"


def test_a_game_over_the_round_cap_simply_stops():
    game = play_game(SEED, "capped", max_rounds=2)
    assert not game.finished and game.rounds == 2
    types = [e["type"] for e in game.envelopes]
    assert "GameEnded" not in types and types[-1] == "SeedRevealed"
    text = "".join(json.dumps(e) + "\n" for e in game.envelopes)
    j = judge(read_log_text(text))
    assert j.findings == [] and j.result is None


# --- legal moves ---------------------------------------------------------------------------------

def _accepted_by_engine(state, move: Move) -> bool:
    payload = dict(move.payload)
    spec = dice_for(state, move)
    if spec is not None:
        payload.update(spec.payload({p: [1] * n for p, n in spec.dice}))
    event = Event(0, move.type, move.actor, PAYLOADS[move.type].model_validate(payload))
    violations, nxt = RULESET.step(state, event)
    return nxt is not None and not any(v.blocking for v in violations)


def test_legal_moves_are_accepted_at_every_position_of_a_simulated_game():
    """Property over every position of a game: each move offered is accepted by the engine, the
    rules-built candidates need no filtering, dice are asked for exactly when the log rolls them,
    and every decision the bots logged was one of the candidates (in the live form of the log,
    where each turn is ended by its player: a decision the game waits for)."""
    envelopes = simulate_game(SEED, "property", live=True)
    checked = 0
    for state, env in _fold(envelopes):
        moves = legal_moves(state)
        assert all(_accepted_by_engine(state, m) for m in moves)
        assert moves == candidate_moves(state), "a candidate built from the rules was rejected"
        spec = chance_needed(state)
        if env["type"] == "DiceRolled":
            assert spec is not None
            assert {p: len(d) for p, d in env["payload"]["rolls"].items()} == dict(spec.dice)
        if env["type"] in ("Expanded", "SplitExpanded", "Maneuvered", "Spent", "Fortified",
                           "SiegeAssaulted", "CasualtiesRemoved", "BattleStarted", "DiceRerolled"):
            offered = [(m.actor, m.type, m.payload) for m in moves]
            payload = {k: v for k, v in env["payload"].items() if k not in ("coins", "footmen", "rolls")}
            assert (env["actor"], env["type"], payload) in offered
        checked += 1
    assert checked == len(envelopes) - 1


def test_a_revealed_card_offers_its_orders_its_bonus_and_the_end_of_the_turn():
    s = commit_all(placed(), DEFAULT_CARDS)
    s = fold(s, ev("CardRevealed", "blue", card="expand-maneuver-fortify-1"))
    moves = legal_moves(s)
    kinds = Counter(m.type for m in moves)
    assert kinds["Expanded"] and kinds["Maneuvered"] and kinds["Fortified"]
    assert not kinds["Taxed"] and not kinds["Spent"] and not kinds["SiegeAssaulted"]
    assert can_end_turn(s)
    assert Move("blue", "TurnEnded", {}) in moves       # the turn is blue's until blue ends it
    assert not [m for m in moves if m.actor != "blue"]


def test_castle_territories_are_offered_only_to_armies_with_siege_weapons():
    assert unit_choices(Units(footman=5), 1, need_siege=True) == []
    groups = unit_choices(Units(footman=5, siege=1), 1, need_siege=True)
    assert groups and all(g.siege == 1 for g in groups)
    assert all(g.total <= 5 for g in groups)


def test_casualty_choices_are_one_per_order_of_unit_types():
    choices = casualty_choices(Units(footman=2, archer=1, siege=1), 2)
    assert choices[0] == Units(footman=2)           # cheapest first
    assert Units(siege=1, archer=1) in choices and len(set(choices)) == len(choices)
    assert all(c.total == 2 for c in choices)


def test_chance_is_a_roll_off_when_bids_tie():
    s = placed()
    assert chance_needed(s) is None
    from tests.re_helpers import start
    s = fold(start(), *[ev("BidPlaced", p, amount=1) for p in ("blue", "orange", "red", "green")])
    spec = chance_needed(s)
    assert spec.kind == "rolloff" and spec.dice == (("blue", 1), ("orange", 1), ("red", 1), ("green", 1))
    assert legal_moves(s) == []


# --- the command ------------------------------------------------------------------------------------

def test_cli_simulate_writes_games_and_a_summary(tmp_path):
    runner = CliRunner()
    out = tmp_path / "sim"
    result = runner.invoke(app, ["simulate", "--games", "2", "--seed", "4", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [g["file"] for g in summary["games"]] == [str(out / "game-0001.jsonl"), str(out / "game-0002.jsonl")]
    assert summary["events"] == sum(len(p.read_text().splitlines()) for p in out.iterdir())
    assert sum(summary["winners"].values()) == 2 and summary["unfinished"] == []
    text = runner.invoke(app, ["simulate", "--games", "1", "--seed", "4", "--out", str(tmp_path / "t")])
    assert text.exit_code == 0 and "wrote 1 game to" in text.stdout and "winners:" in text.stdout
    assert (tmp_path / "t" / "game-0001.jsonl").read_bytes() == (out / "game-0001.jsonl").read_bytes()


def test_cli_simulate_refuses_unknown_rulesets_and_variants(tmp_path):
    result = CliRunner().invoke(app, ["simulate", "--ruleset", "no-such-game", "--out", str(tmp_path)])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["simulate", "--variant", "mercenaries-5p", "--out", str(tmp_path)])
    assert result.exit_code == 2 and not list(tmp_path.iterdir())


def test_cli_simulates_risk_legacy_games_that_audit_clean(tmp_path):
    from typer.testing import CliRunner
    from ledger.cli import app
    r = CliRunner().invoke(app, ["simulate", "--ruleset", "risk-legacy", "--games", "1", "--seed", "2",
                                 "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    import json
    report = json.loads(r.output)
    assert report["ruleset"] == "risk-legacy" and len(report["games"]) == 1
    from replay.logfile import read_log
    from replay.judge import judge
    j = judge(read_log(tmp_path / "game-0001.jsonl"))
    assert j.findings == [] and j.ruleset == "risk-legacy"
