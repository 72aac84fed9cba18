"""Warrior Knights' hidden information (#14; engine/warrior_knights/views.py): the Action cards
planned, the Fate cards drawn in battle and those discarded face down, the votes revealed before
the others'. The leak checks of tests/test_views.py run over Warrior Knights games; the rest are
given/when/then tests of each secret."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import get_ruleset
from engine.core import views as V
from engine.core.ruleset import GameResult
from engine.warrior_knights.state import evolve
from ledger.cli import app
from replay.logfile import read_log, seal
from tests.test_views import Game, check_game, game_of_text, text_of
from tests.test_wk_battles import FIELD, board
from tests.test_wk_phases import hidden as votes_hidden
from tests.test_wk_round import PLAN
from tests.wk_helpers import ok, ready

RS = get_ruleset("warrior-knights")
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs" / "warrior_knights"
HIDDEN = V.HIDDEN


def votes_in_clear(envelopes: list[dict]) -> list[dict]:
    """The game as a table records it after the fact: votes revealed without commitments."""
    out = []
    for e in copy.deepcopy(envelopes):
        if e["type"] == "VotesHidden":
            continue
        if e["type"] == "VotesRevealed":
            e["payload"]["salt"] = None
        out.append(e)
    for i, e in enumerate(out):
        e["seq"] = i
    return seal(out)


@pytest.mark.parametrize("name", ["game-2p-short.jsonl", "game-4p.jsonl"])
def test_no_secret_leaks_to_another_seat_in_the_samples(name):
    counts = check_game(Game(read_log(SAMPLES / name)), every=9)
    assert counts["secrets"] > 0 and counts["revealed"] > 0 and counts["redacted"] > 0


def test_no_secret_leaks_when_the_votes_are_logged_in_clear():
    envelopes = [json.loads(x) for x in (SAMPLES / "game-2p-short.jsonl").read_text("utf-8").splitlines()]
    g = game_of_text(text_of(votes_in_clear(envelopes)))
    assert g.clean and g.j.result == Game(read_log(SAMPLES / "game-2p-short.jsonl")).j.result
    counts = check_game(g, every=5)
    assert counts["secrets"] > 0 and counts["revealed"] > 0


# --- the plan ------------------------------------------------------------------------------------------------

def planned_in_clear():
    s = ready()
    before = s
    s = ok(s, "StacksPlanned", "red", stacks=PLAN)
    return before, s


def test_a_plan_in_clear_is_the_owners_alone_until_its_cards_are_out():
    before, s = planned_in_clear()
    assert {(x.owner, x.kind) for x in V.secrets_of(RS, s)} == {("red", "plan")}
    assert V.view_of(RS, s, "red")["players"]["red"]["plan"] == PLAN
    assert V.view_of(RS, s, "blue")["players"]["red"]["plan"] == [[HIDDEN, HIDDEN]] * 3
    assert V.view_of(RS, s, "blue")["players"]["red"]["hand"] == [HIDDEN] * 6
    payload = {"stacks": PLAN}
    assert V.redact_payload(RS, "StacksPlanned", "red", payload, "blue", before, s) == {"stacks": [[HIDDEN, HIDDEN]] * 3}
    assert V.redact_payload(RS, "StacksPlanned", "red", payload, "red", before, s) == payload
    assert V.digest_for(RS, s, "blue") is None and V.digest_for(RS, s, "red") is not None
    out = evolve(s, plans={**s.plans, "red": s.plans["red"]._replace(revealed=tuple(map(tuple, PLAN)))})
    assert V.redact_payload(RS, "StacksPlanned", "red", payload, "blue", before, s, out) == payload


# --- battles -------------------------------------------------------------------------------------------------

def test_fate_cards_drawn_are_the_sides_own_until_revealed_and_discards_stay_face_down():
    s = ok(board(red_star="ironvale", blue_star="ironvale"), "ForcesMobilized", "red", area="ironvale", attack=FIELD)
    s = ok(s, "CommanderDeclared", "blue", noble="star")
    drawn = ["fate05", "fate03", "fate02", "fate07"]
    before, s = s, ok(s, "FateDrawn", None, side="attacker", cards=drawn)
    assert V.redact_payload(RS, "FateDrawn", None, {"side": "attacker", "cards": drawn}, "blue", before, s)["cards"] \
        == [HIDDEN] * 4
    assert V.redact_payload(RS, "FateDrawn", None, {"side": "attacker", "cards": drawn}, "red", before, s)["cards"] == drawn
    assert not V.has_value(V.view_of(RS, s, "blue"), "fate05")
    assert V.view_of(RS, s, "red")["players"]["red"]["fate_in_hand"] == drawn
    at = s
    s = ok(s, "FateDrawn", None, side="defender", cards=["fate08", "fate15", "fate14", "fate19"])
    s = ok(s, "FateDiscarded", "red", discard=[2, 3])
    assert not V.has_value(V.view_of(RS, s, "blue"), "fate05")        # blue has not discarded yet
    s = ok(s, "FateDiscarded", "blue", discard=[2, 3])
    shown = V.redact_payload(RS, "FateDrawn", None, {"side": "attacker", "cards": drawn}, "blue", before, at, s)
    assert shown["cards"] == ["fate05", "fate03", HIDDEN, HIDDEN]      # kept shown, discards face down
    assert V.view_of(RS, s, "blue")["players"]["red"]["face_down"] == [HIDDEN, HIDDEN]
    assert V.view_of(RS, s, "red")["players"]["red"]["face_down"] == ["fate02", "fate07"]


# --- votes ---------------------------------------------------------------------------------------------------

def test_votes_revealed_first_are_hidden_until_the_last_attending_baron_reveals():
    s = ok(votes_hidden(), "VotesRevealed", "red", agenda="ag02", votes=1, salt="redag02")
    assert s.barons["red"].votes == 1                                  # still in hand
    assert V.view_of(RS, s, "blue")["players"]["red"]["votes_cast"] == {"ag02": HIDDEN}
    payload = {"agenda": "ag02", "votes": 1, "salt": "redag02"}
    assert V.redact_payload(RS, "VotesRevealed", "red", payload, "blue", s, s)["votes"] == HIDDEN
    after = ok(s, "VotesRevealed", "blue", agenda="ag02", votes=0, salt="blueag02")
    assert after.barons["red"].votes == 0
    assert V.redact_payload(RS, "VotesRevealed", "red", payload, "blue", s, s, after) == payload


# --- the end -------------------------------------------------------------------------------------------------

def test_once_the_game_is_over_every_seat_sees_everything():
    _, s = planned_in_clear()
    s = evolve(s, result=GameResult(("red",), "test", 1, {}))
    views = [{k: v for k, v in V.view_of(RS, s, q).items() if k not in ("seat", "acts_for")}
             for q in ("red", "blue", None)]
    assert views[0] == views[1] == views[2] and views[2]["players"]["red"]["plan"] == PLAN
    assert V.secrets_of(RS, s) == ()


def test_replay_as_a_seat_hides_the_others_fate_cards():
    r = CliRunner().invoke(app, ["replay", str(SAMPLES / "game-2p-short.jsonl"), "--as", "blue", "--json"])
    assert r.exit_code == 0, r.output
    steps = json.loads(r.stdout)["steps"]
    draws = [x for x in steps if x["type"] == "FateDrawn"]
    assert any(HIDDEN in x["payload"]["cards"] for x in draws)


# --- Crown & Glory: the Missions -------------------------------------------------------------------------------

def missions_in_clear(envelopes: list[dict]) -> list[dict]:
    """The Crown & Glory sample as a table records it: each Mission dealt in clear, revealed without salt."""
    out = copy.deepcopy(envelopes)
    revealed = {e["actor"]: e["payload"]["mission"] for e in out if e["type"] == "MissionRevealed"}
    for e in out:
        if e["type"] == "MissionDealt":
            e["payload"] = {"mission": revealed[e["actor"]]}
        if e["type"] == "MissionRevealed":
            e["payload"]["salt"] = None
    return seal(out)


def test_no_secret_leaks_in_the_crown_and_glory_sample():
    counts = check_game(Game(read_log(SAMPLES / "game-cg-4p.jsonl")), every=15)
    assert counts["secrets"] > 0 and counts["revealed"] > 0


def test_a_mission_dealt_in_clear_is_hidden_from_the_other_seats_until_revealed():
    envelopes = [json.loads(x) for x in (SAMPLES / "game-cg-4p.jsonl").read_text("utf-8").splitlines()]
    g = game_of_text(text_of(missions_in_clear(envelopes)))
    assert g.clean
    counts = check_game(g, every=25)
    assert counts["secrets"] > 0 and counts["redacted"] > 0
    dealt = next(e for e in envelopes if e["type"] == "MissionDealt")
    seat, other = dealt["actor"], next(q for q in ("red", "blue", "green") if q != dealt["actor"])
    step, before, after = next((st, b, a) for st, b, a in g.steps if st.type == "MissionDealt" and st.actor == seat)
    mine = V.redact_payload(RS, step.type, step.actor, step.payload, seat, before, after)
    theirs = V.redact_payload(RS, step.type, step.actor, step.payload, other, before, after)
    assert mine["mission"] != HIDDEN and theirs["mission"] == HIDDEN
    assert V.view_of(RS, after, other)["players"][seat]["mission"] == HIDDEN
    assert V.view_of(RS, after, seat)["players"][seat]["mission"] == mine["mission"]
