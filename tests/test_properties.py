"""Property tests over simulated games (bounded, so CI stays fast):

- every simulated game audits clean and replays to the same digests twice;
- every single-event mutation (a die, a unit count, a territory, a card, an actor; a dropped,
  duplicated or swapped event) is caught by the hash chain when the log is not re-sealed, and,
  when a forger re-seals it, is either caught by the rules or is a different legal game — and
  then the test names why that kind of change can be legal.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.risk_europe.board import default_data
from replay.logfile import format_line, read_log_text, seal
from engine.risk_europe.sim import simulate_game
from ledger.cli import verdict
from replay.judge import judge

GAMES = 3
TERRITORIES = list(default_data().territories)
CARDS = list(default_data().cards)
PLAYERS = ["blue", "orange", "red", "green"]


@lru_cache(maxsize=None)
def _game(i: int) -> tuple[str, ...]:
    """A simulated game, as its sealed lines."""
    return tuple(format_line(e) for e in simulate_game(100 + i, f"prop-{i}"))


def _envelopes(i: int) -> list[dict]:
    return [json.loads(line) for line in _game(i)]


def _text(envs: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envs)


def _reseal(envs: list[dict]) -> str:
    fresh = []
    for k, e in enumerate(envs):
        e = {key: v for key, v in e.items() if key not in ("prev", "hash")}
        e["seq"] = k
        fresh.append(e)
    return _text(seal(fresh))


@pytest.mark.parametrize("i", range(GAMES))
def test_simulated_game_audits_clean_and_replays_to_the_same_digests(i):
    text = "".join(line + "\n" for line in _game(i))
    a = judge(read_log_text(text, "a"), digests=True)
    b = judge(read_log_text(text, "b"), digests=True)
    assert a.findings == [] and a.result is not None and a.chain_ok
    assert [s.digest for s in a.steps] == [s.digest for s in b.steps]
    assert a.declared_winners == a.result.winners


# --- mutations ---------------------------------------------------------------------------------

def _units_holders(payload: dict) -> list[dict]:
    out = []
    if isinstance(payload.get("units"), dict):
        out.append(payload["units"])
    for m in payload.get("moves") or []:
        out.append(m["units"])
    return out


KINDS = ["die", "units", "territory", "card", "actor", "drop", "duplicate", "swap"]


def _applicable(kind: str, e: dict) -> bool:
    p = e["payload"]
    if e["type"] == "GameStarted":
        return False
    if kind == "die":
        return e["type"] in ("DiceRolled", "DiceRerolled")
    if kind == "units":
        return any(u for u in _units_holders(p))
    if kind == "territory":
        return any(k in p for k in ("territory", "to", "from", "city", "target"))
    if kind == "card":
        return e["type"] == "CardRevealed"
    if kind == "actor":
        return e["actor"] is not None
    if kind == "swap":
        return e["type"] != "SeedRevealed"      # the last line: swapping it with itself is no change
    return True


def mutate(envs: list[dict], kind: str, index: int, pick: int) -> list[dict]:
    envs = copy.deepcopy(envs)
    e = envs[index]
    p = e["payload"]
    if kind == "die":
        who = sorted(p["rolls"])[pick % len(p["rolls"])]
        dice = p["rolls"][who]
        dice[pick % len(dice)] = dice[pick % len(dice)] % 6 + 1
    elif kind == "units":
        holder = [u for u in _units_holders(p) if u][0]
        unit = sorted(holder)[pick % len(holder)]
        holder[unit] += 1
    elif kind == "territory":
        key = [k for k in ("territory", "to", "from", "city", "target") if k in p][0]
        choices = [t for t in TERRITORIES if t != p[key]]
        p[key] = choices[pick % len(choices)]
    elif kind == "card":
        choices = [c for c in CARDS if c != p["card"]]
        p["card"] = choices[pick % len(choices)]
    elif kind == "actor":
        choices = [x for x in PLAYERS if x != e["actor"]]
        e["actor"] = choices[pick % len(choices)]
    elif kind == "drop":
        del envs[index]
    elif kind == "duplicate":
        envs.insert(index + 1, copy.deepcopy(e))
    elif kind == "swap":
        j = min(index + 1, len(envs) - 1)
        envs[index], envs[j] = envs[j], envs[index]
    return envs


# Kinds of change a re-sealed log can hide from the rules, and why that is no gap: the result is
# a different game that is itself legal, which only the organizer's recorded head hash can tell.
CAN_BE_LEGAL = {
    "units": "moving or recruiting another legal number of units is another legal decision",
    "territory": "expanding, maneuvering, taxing or fortifying elsewhere can be another legal decision",
    "drop": "a player may give no order or bonus action, and claims (BattleEnded) are optional",
    "swap": "simultaneous decisions (cards committed, bids) may be logged in any order",
    "duplicate": "a repeated claim (BattleEnded, GameEnded) or seed reveal changes nothing",
    "actor": "the actor of a table event (dice of both sides, claims) is not a decision",
}
# Kinds the rules must always catch in a seeded, committed digital-play log.
ALWAYS_CAUGHT = {"die": "every die is checked against the revealed seed",
                 "card": "every card revealed must match its commitment"}


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(game=st.integers(0, GAMES - 1), kind=st.sampled_from(KINDS), where=st.integers(0, 10_000),
       pick=st.integers(0, 100))
def test_every_single_event_mutation_is_caught_or_is_a_different_legal_game(game, kind, where, pick):
    envs = _envelopes(game)
    candidates = [k for k, e in enumerate(envs) if _applicable(kind, e)]
    index = candidates[where % len(candidates)]
    mutated = mutate(envs, kind, index, pick)

    # 1. not re-sealed: `ledger verify` refuses it (the chain; for the last line, which the chain
    #    cannot miss, the missing seed or result)
    raw = judge(read_log_text(_text(mutated), "mutated"))
    assert not verdict(raw)["verified"], f"{kind} at line {index + 1} passed verify"
    if index < len(envs) - 1:
        assert not raw.chain_ok or raw.log_findings, f"{kind} at line {index + 1} slipped past the chain"

    # 2. re-sealed by a forger: audit/verify catch it, or it is a different legal game
    forged = judge(read_log_text(_reseal(mutated), "forged"))
    if forged.findings or forged.fatal or not verdict(forged)["verified"]:
        return
    assert kind not in ALWAYS_CAUGHT, f"{kind} at line {index + 1} not caught: {ALWAYS_CAUGHT[kind]}"
    if kind == "actor":
        assert envs[index]["type"] in ("DiceRolled", "BattleEnded", "GameEnded", "SeedRevealed"), \
            f"a decision's actor was changed at line {index + 1} and not caught"
    if kind == "duplicate":
        assert envs[index]["type"] in ("BattleEnded", "GameEnded", "SeedRevealed"), \
            f"a duplicated {envs[index]['type']} at line {index + 1} was not caught"
    assert kind in CAN_BE_LEGAL
