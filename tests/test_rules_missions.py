"""Kingdom Missions (rulebook p.19): Crown Cards earned, not bought; two drawn at King Me, one kept
face down; a completed mission turned over for a permanent crown; Saved by the Crown needs one.
Mission conditions come from a file (engine/risk_europe/missions.py); these tests use the
invented example file, and without a file a completion is an unverified claim."""

from __future__ import annotations

import json

import pytest

from engine.core.commit import commitment
from engine.risk_europe import RULESET
from engine.risk_europe.board import MISSIONS_EXAMPLE, MISSIONS_TEMPLATE, load_data, shipped_file
from engine.risk_europe.common import crowns
from engine.risk_europe.missions import MissionDataError
from replay.logfile import format_line, make_envelope, read_log_text, seal
from replay.judge import judge
from tests.re_helpers import (
    SEATS, commit_all, ev, fold, held, rules_of, setup_events, start_variant, with_board, with_player,
)

T1, T2, TK = "tax-spend-1", "tax-spend-2", "tax-spend-king"
EXAMPLE = load_data(missions_path=shipped_file(MISSIONS_EXAMPLE))


def game(variant="basic+missions", data=None):
    """Round 1 of a missions game, everyone committed King Me then a tax-spend card."""
    s = fold(start_variant(variant, data=data), *setup_events())
    return commit_all(s, {p: (TK, T1) for p in SEATS})


def kept(mission="mission-2", data=None, **payload):
    """Blue has revealed King Me and kept `mission` (or a commitment given in `payload`)."""
    s = fold(game(data=data), ev("CardRevealed", "blue", card=TK))
    return fold(s, ev("MissionKept", "blue", **(payload or {"mission": mission})))


FIVE_CITIES = {"Poland": held("blue", 1), "Hungary": held("blue", 1), "Swabia": held("blue", 1),
               "Greece": held("blue", 1)}


# --- RE-MISSION-NO-PURCHASE -----------------------------------------------------------------------

def test_RE_MISSION_NO_PURCHASE_crown_cards_are_bought_without_missions():
    s = fold(commit_all(fold(start_variant("basic"), *setup_events()), {p: (T1, T2) for p in SEATS}),
             ev("CardRevealed", "blue", card=T1))
    assert rules_of(with_player(s, "blue", coins=10), ev("Spent", "blue", purchases=[{"item": "crown_card"}])) == []


def test_RE_MISSION_NO_PURCHASE_no_crown_card_is_bought_with_missions():
    s = with_player(kept(), "blue", coins=20)
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "crown_card"}])) == ["RE-MISSION-NO-PURCHASE"]


# --- RE-MISSION-DRAW ------------------------------------------------------------------------------

def test_RE_MISSION_DRAW_king_me_draws_two_and_one_is_kept():
    s = fold(game(), ev("CardRevealed", "blue", card=TK))
    assert s.flow.pending == ("mission", "blue", 2) and s.marker == "blue"
    s = fold(s, ev("MissionKept", "blue", commitment=commitment("mission-4", "salt")))
    assert s.crown_cards_left == 7 and s.players["blue"].kept_commitments and s.flow.pending is None


def test_RE_MISSION_DRAW_the_kept_mission_comes_before_anything_else():
    s = fold(game(), ev("CardRevealed", "blue", card=TK))
    assert rules_of(s, ev("Taxed", "blue", city="Berlin")) == ["RE-MISSION-DRAW"]


def test_RE_MISSION_DRAW_only_the_drawer_keeps_and_only_after_king_me():
    s = fold(game(), ev("CardRevealed", "blue", card=TK))
    assert rules_of(s, ev("MissionKept", "orange", mission="mission-1")) == ["RE-MISSION-DRAW"]
    s = commit_all(fold(start_variant("basic+missions"), *setup_events()), {p: (T1, TK) for p in SEATS})
    s = fold(s, ev("CardRevealed", "blue", card=T1))
    assert rules_of(s, ev("MissionKept", "blue", mission="mission-1")) == ["RE-MISSION-DRAW"]


def test_RE_MISSION_DRAW_a_log_without_the_kept_mission_is_reported():
    s = fold(game(), ev("CardRevealed", "blue", card=TK))
    assert rules_of(s, ev("CardRevealed", "orange", card=TK)) == ["RE-MISSION-DRAW"]


# --- RE-MISSION-REVEAL ----------------------------------------------------------------------------

def test_RE_MISSION_REVEAL_a_kept_mission_is_turned_over():
    s = kept(commitment=commitment("mission-2", "pepper"))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2", salt="pepper")) == ["RE-MISSION-UNVERIFIED"]


def test_RE_MISSION_REVEAL_a_mission_not_kept_is_forbidden():
    s = kept(commitment=commitment("mission-2", "pepper"))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-3", salt="pepper")) == ["RE-MISSION-REVEAL"]
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2", salt="salt")) == ["RE-MISSION-REVEAL"]
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-9")) == ["RE-NAME"]


def test_RE_MISSION_REVEAL_no_missions_in_a_game_without_them():
    s = commit_all(fold(start_variant("basic"), *setup_events()), {p: (T1, T2) for p in SEATS})
    s = fold(s, ev("CardRevealed", "blue", card=T1))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-1")) == ["RE-MISSION-REVEAL"]


# --- RE-MISSION-COMPLETE --------------------------------------------------------------------------

def test_RE_MISSION_COMPLETE_a_fulfilled_mission_adds_a_crown_at_once():
    s = with_board(kept(data=EXAMPLE), FIVE_CITIES)
    before = crowns(s, "blue")
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == []
    s = fold(s, ev("MissionCompleted", "blue", mission="mission-2"))
    assert crowns(s, "blue") == before + 1 and s.players["blue"].missions_done == ("mission-2",)
    assert any("verified" in n and "unverified" not in n for n in s.notes)


def test_RE_MISSION_COMPLETE_an_unfulfilled_mission_is_forbidden():
    s = kept(data=EXAMPLE)
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == ["RE-MISSION-COMPLETE"]
    assert RULESET.step(s, ev("MissionCompleted", "blue", mission="mission-2"))[1] is None


def test_RE_MISSION_COMPLETE_a_mission_is_completed_once():
    s = fold(with_board(kept(data=EXAMPLE), FIVE_CITIES), ev("MissionCompleted", "blue", mission="mission-2"))
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == ["RE-MISSION-REVEAL"]


# --- RE-MISSION-UNVERIFIED ------------------------------------------------------------------------

def test_RE_MISSION_UNVERIFIED_without_a_file_a_completion_is_a_claim_that_counts():
    s = kept()
    violations, nxt = RULESET.step(s, ev("MissionCompleted", "blue", mission="mission-2"))
    assert [(v.rule, v.blocking) for v in violations] == [("RE-MISSION-UNVERIFIED", False)]
    assert nxt.players["blue"].crown_cards == 1


def test_RE_MISSION_UNVERIFIED_a_template_slot_without_condition_is_unverified():
    template = load_data(missions_path=shipped_file(MISSIONS_TEMPLATE))
    s = kept(data=template)
    assert rules_of(s, ev("MissionCompleted", "blue", mission="mission-2")) == ["RE-MISSION-UNVERIFIED"]


def test_RE_MISSION_UNVERIFIED_the_audit_lists_it_and_never_calls_the_game_clean():
    lines = [("GameStarted", None, {"ruleset": "risk-europe", "variant": "basic+missions",
                                    "players": [{"id": p} for p in SEATS]})]
    for e in setup_events():
        lines.append((e.type, e.actor, e.payload.model_dump(by_alias=True, exclude_none=True)))
    lines += [("CardsCommitted", p, {"cards": [TK, T1]}) for p in SEATS]
    lines += [("CardRevealed", "blue", {"card": TK}), ("MissionKept", "blue", {"mission": "mission-2"}),
              ("MissionCompleted", "blue", {"mission": "mission-2"})]
    text = "".join(format_line(e) + "\n" for e in seal([make_envelope("k", i, *x) for i, x in enumerate(lines)]))
    j = judge(read_log_text(text, "k.jsonl"))
    assert [(f.rule, f.kind) for f in j.findings] == [("RE-MISSION-UNVERIFIED", "claim")] and not j.clean
    verified = judge(read_log_text(text, "k.jsonl"), data=EXAMPLE)
    assert [f.rule for f in verified.findings] == ["RE-MISSION-COMPLETE"]       # blue has 2 cities, not 5


# --- RE-MISSION-SAVED -----------------------------------------------------------------------------

def test_RE_MISSION_SAVED_a_completed_mission_saves_for_one_round():
    s = fold(kept(), ev("MissionCompleted", "blue", mission="mission-2"), allow=("RE-MISSION-UNVERIFIED",))
    s = with_board(s, {"Saxony": held("red", 3)})
    for p in ("orange", "red", "green"):
        s = fold(s, ev("CardRevealed", p, card=TK), ev("MissionKept", p, mission=f"mission-{SEATS.index(p) + 4}"))
    s = RULESET.conclude(fold(s, *[ev("CardRevealed", p, card=T1) for p in SEATS]))
    assert not s.players["blue"].eliminated and s.players["blue"].saved_until == 2


def test_RE_MISSION_SAVED_a_kept_mission_not_completed_does_not_save():
    s = with_board(kept(), {"Saxony": held("red", 3)})
    for p in ("orange", "red", "green"):
        s = fold(s, ev("CardRevealed", p, card=TK), ev("MissionKept", p, mission=f"mission-{SEATS.index(p) + 4}"))
    s = RULESET.conclude(fold(s, *[ev("CardRevealed", p, card=T1) for p in SEATS]))
    assert s.players["blue"].eliminated


# --- the mission file -------------------------------------------------------------------------------

def test_the_template_has_the_eight_slots_and_the_example_is_marked_invented():
    template = json.loads(shipped_file(MISSIONS_TEMPLATE).read_text("utf-8"))
    assert [m["id"] for m in template["missions"]] == [f"mission-{i}" for i in range(1, 9)]
    assert all(m["condition"] is None and m["text"] is None for m in template["missions"])
    assert EXAMPLE.missions is not None and EXAMPLE.missions.example
    assert "NOT the missions" in json.loads(shipped_file(MISSIONS_EXAMPLE).read_text("utf-8"))["note"]


def test_the_judge_names_the_mission_file_it_used():
    assert "missions:" in RULESET.data_digest(EXAMPLE) and "missions:" not in RULESET.data_digest(load_data())


@pytest.mark.parametrize("bad", [
    {"format": "other", "missions": []},
    {"format": "ledger-kingdom-missions/1", "missions": [{"id": "a"}, {"id": "a"}]},
    {"format": "ledger-kingdom-missions/1", "missions": [{"id": "a", "condition": {"fly": 3}}]},
    {"format": "ledger-kingdom-missions/1", "missions": [{"id": "a", "condition": {"holds": ["Atlantis"]}}]},
])
def test_a_mission_file_that_cannot_be_used_is_refused(tmp_path, bad):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(bad), "utf-8")
    with pytest.raises(MissionDataError):
        load_data(missions_path=path)


def test_unverifiable_without_file_but_verified_with_it_in_a_whole_simulated_game():
    from engine.risk_europe.sim import play_game
    g = play_game(4, "missions", variant="basic+missions")
    text = "".join(format_line(e) + "\n" for e in g.envelopes)
    done = sum(1 for e in g.envelopes if e["type"] == "MissionCompleted")
    assert done > 0
    bare = judge(read_log_text(text, "g.jsonl"))
    assert [f.rule for f in bare.findings] == ["RE-MISSION-UNVERIFIED"] * done
    assert judge(read_log_text(text, "g.jsonl"), data=EXAMPLE).findings == []
