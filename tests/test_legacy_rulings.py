"""The Risk Legacy rulings of docs/risk-legacy.md, one test each (named after the ruling), and the
doc's own checks: every example line is a valid event, every event type has one, every ruling a
test."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.combat import Modifier, final_dice
from engine.risk_legacy.common import roll_result
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.state import START, Terr
from tests.test_legacy_helpers import (
    SEATS, board, ev, fold, held, placed, rules_of, setup_events, start, turn_of, with_board,
    with_marks, with_player, with_powers, world,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "risk-legacy.md").read_text("utf-8")
EXAMPLES = [json.loads(line) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)
            for line in block.splitlines() if line.strip()]


def attack(frm, to, n, actor="ann"):
    return ev("AttackDeclared", actor, from_=frm, to=to, troops=n)


def roll(att, dfn, attacker="ann", defender="bob"):
    return ev("DiceRolled", None, rolls={attacker: att, defender: dfn})


def peru(bob=2):
    return turn_of(with_board(placed(), {"peru": held("bob", bob)}), "ann")


# --- the doc ------------------------------------------------------------------------------------

def test_the_doc_has_an_example_of_every_event_type():
    assert set(PAYLOADS) <= {e["type"] for e in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['seq']}:{e['type']}")
def test_example_payload_is_valid(example):
    payload = dict(example["payload"])
    if example["type"] == "GameStarted":
        payload["campaign"] = {**payload["campaign"], "world": "0" * 64}
    PAYLOADS[example["type"]].model_validate(payload)


def test_examples_quoted_from_the_samples_are_exact():
    samples = ROOT / "sample_logs" / "legacy"
    # the GameStarted example is a shortened illustration of a campaign game, not a quote
    quoted = [e for e in EXAMPLES if e["game"].startswith("earth-") and e["type"] != "GameStarted"]
    assert {e["type"] for e in quoted} >= {"CardsLaidOut", "CardRevealed", "ScarPlaced", "ScarCardReturned",
                                          "MissionRevealed", "EventCardDrawn", "ScarCardsDealt"}
    for e in quoted:
        n = int(e["game"].split("-")[1])
        real = json.loads((samples / f"game-{n:02d}.jsonl").read_text("utf-8").splitlines()[e["seq"]])
        assert (real["seq"], real["type"], real["actor"]) == (e["seq"], e["type"], e["actor"])
        if "…" in json.dumps(e["payload"], ensure_ascii=False):        # shortened hashes
            short = e["payload"]["commitments"]
            assert set(short) == set(real["payload"]["commitments"]) and all(
                real["payload"]["commitments"][p].startswith(h.rstrip("…")) for p, h in short.items())
            assert e["payload"]["hidden_dice"] == real["payload"]["hidden_dice"]
        else:
            assert real["payload"] == e["payload"]


def test_every_ruling_in_the_doc_has_its_test():
    tests = "".join(p.read_text("utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    ids = re.findall(r"^### (RL-RULING-[A-Z-]+)", DOC, re.M)
    assert len(ids) >= 20
    for rid in ids:
        named = re.findall(rf"`(?:tests/test_legacy_\w+\.py::)?(test_\w+?)\*?`", DOC.split(f"### {rid}")[1].split("###")[0])
        assert named, f"{rid} names no test"
        for name in named:
            assert f"def {name}" in tests or name.endswith("_") and f"def {name}" in tests, f"{rid}: no {name}"


# --- the rulings ---------------------------------------------------------------------------------

def test_RL_RULING_AFTER_ILLEGAL_one_mistake_one_finding():
    s = turn_of(placed(), "ann", step=START, recruited=False)
    vs, s2 = RULESET.step(s, ev("Recruited", "ann", placements={"brazil": 6}))
    assert [v.rule for v in vs] == ["RL-RECRUIT-COUNT"] and board(s2, "brazil").troops == 14   # applied
    assert rules_of(s2, ev("Expanded", "ann", from_="brazil", to="peru", troops=13)) == []     # judged on
    vs, nxt = RULESET.step(s2, ev("Expanded", "ann", from_="brazil", to="peru", troops=20))
    assert [v.rule for v in vs] == ["RL-EXPAND-FROM"] and nxt is None                       # skipped


def test_RL_RULING_IMPLICIT_STEPS_settled_with_one_claim():
    s = fold(peru(bob=1), attack("brazil", "peru", 3), roll([6, 1, 1], [2]))
    vs, nxt = RULESET.step(s, ev("Maneuvered", "ann", from_="brazil", to="peru", troops=1))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CASUALTIES", False), ("RL-CONQUER-MOVE", False)]
    assert board(nxt, "peru") == Terr("ann", 4) and board(nxt, "brazil").troops == 4     # 3 moved in, then 1


def test_RL_RULING_MODIFIER_ORDER_positions_of_the_natural_roll():
    mods = [Modifier("higher", -1, "ammo shortage"), Modifier("each", +1, "fortification")]
    assert final_dice([6, 3], mods) == [6, 4]
    assert final_dice([3, 6], mods) == [6, 4]
    s = with_marks(peru(), "peru", scar="ammo_shortage", city=W.CityMark(kind="minor", name="Lima"), fortification=0)
    s = fold(s, attack("brazil", "peru", 2), roll([6, 4], [6, 3]))
    assert roll_result(s, s.combat)[1] == [6, 4]


def test_RL_RULING_MISSILE_DIE_by_place_once_each():
    s = with_player(fold(peru(), attack("brazil", "peru", 3), roll([2, 2, 1], [5, 4])), "ann", missiles=2)
    s = fold(s, ev("MissileFired", "ann", side="attacker", die=1))
    assert roll_result(s, s.combat)[0] == [6, 2, 1]
    assert rules_of(s, ev("MissileFired", "ann", side="attacker", die=1)) == ["RL-MISSILE"]
    elim = with_player(with_player(s, "cat", missiles=1), "cat", eliminated=True)
    assert rules_of(elim, ev("MissileFired", "cat", side="defender", die=0)) == ["RL-ACTOR"]


def test_RL_RULING_CANCELLED_SCAR_is_a_legal_start_again():
    from engine.risk_legacy.common import is_legal_start
    w = W.with_marks(world(), "egypt", scar=None, scar_cancelled=1)
    assert is_legal_start(start(w=w), "ann", "egypt")
    assert not is_legal_start(start(w=W.with_marks(world(), "egypt", scar="bunker")), "ann", "egypt")


def test_RL_RULING_JOIN_ADJACENT_next_to_an_hq_is_allowed():
    s = with_board(placed(), {"china": held("ann", 2, "die_mechaniker")})
    s = turn_of(s, "bob", step=START, recruited=False)
    assert rules_of(s, ev("JoinedWar", "bob", territory="mongolia")) == []     # next to the HQ in China


def test_RL_RULING_BEAR_ONE_DIE_a_single_die_is_the_lower():
    s = with_powers(peru(bob=1), enclave_of_the_bear="bear-first-strike")
    s = fold(s, attack("brazil", "peru", 3), roll([4, 1, 1], [4]))
    assert roll_result(s, s.combat)[1:] == ([3], 0, 1)


def test_RL_RULING_FORT_WEAR_carries_over_and_does_not_stack():
    s = with_marks(peru(bob=3), "peru", city=W.CityMark(kind="minor", name="Lima"), fortification=4)
    s = fold(s, attack("brazil", "peru", 3), roll([1, 1, 1], [6, 6]), ev("CasualtiesRemoved", None, attacker=2, defender=0))
    assert W.marks(s.world, "peru").fortification == 5             # in the world the next game starts from
    starts = {"ann": ("enclave_of_the_bear", "egypt"), "bob": ("die_mechaniker", "peru"),
              "cat": ("imperial_balkania", "western_united_states")}
    w = W.with_marks(world(powers={"die_mechaniker": "mech-fortified-hq"}), "peru",
                     city=W.CityMark(kind="major", name="Lima", founder="bob"), fortification=0)
    s = turn_of(with_board(placed(w=w, starts=starts), {"brazil": held("ann", 8)}), "ann")
    s = fold(s, attack("brazil", "peru", 2), roll([6, 6], [3, 2]))
    assert roll_result(s, s.combat)[1] == [4, 3]                  # +1, not +2


def test_RL_RULING_DRAW_OPTIONAL_no_card_no_finding():
    s = turn_of(placed(), "ann", conquered=1)
    assert rules_of(s, ev("TurnEnded", "ann")) == []


def test_RL_RULING_TRADE_MAX_eleven_is_too_many():
    s = turn_of(placed(), "ann", step=START, recruited=False)
    s = with_player(s, "ann", hand=("A1", "A2"))
    s = replace(s, world=s.world.model_copy(update={"resources": {**s.world.resources, "A1": 5, "A2": 6}}))
    vs, nxt = RULESET.step(s, ev("Recruited", "ann", cards=["A1", "A2"], placements={"brazil": 33}))
    assert [v.rule for v in vs] == ["RL-TRADE"] and board(nxt, "brazil").troops == 41


def test_RL_RULING_REWARD_PASS_a_right_not_a_duty():
    s = turn_of(placed(), "ann", step=START, recruited=False)
    s = with_player(s, "ann", tokens=2, hand=("A1", "A2", "A3", "A4"))
    s = fold(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"]))
    s = fold(s, ev("RewardChosen", "ann", reward="pass"), ev("RewardChosen", "bob", reward="pass"),
             ev("RewardChosen", "cat", reward="pass"))
    assert s.flow.phase == "over" and not s.world.territories and len(s.world.signatures) == 1


def test_RL_RULING_EVENT_EFFECTS_applied_as_claimed():
    s = turn_of(placed(), "ann", conquered=1)
    s = replace(s, side=s.side._replace(events_left=1),
                world=s.world.model_copy(update={"resources": {**s.world.resources, "A9": 4}}))
    s = fold(s, ev("CardDrawn", "ann", card="coin"), ev("CardRevealed", None, card="A9"))
    vs, s = RULESET.step(s, ev("EventCardDrawn", None, card="E1", text="Uprising",
                                effects=[{"kind": "troops", "territory": "china", "delta": -8}]))
    assert vs == [] and board(s, "china") == Terr(None, 0, "die_mechaniker")
    assert any("claimed effects, applied as recorded" in n for n in s.notes)


def test_RL_RULING_MECH_HQ_counts_again_when_recaptured():
    s = with_powers(placed(), die_mechaniker="mech-fortified-hq")
    s = with_board(s, {"china": held("bob", 2, "die_mechaniker"), "india": held("ann", 8)})
    s = fold(turn_of(s, "ann"), attack("india", "china", 3), roll([6, 6, 6], [2, 1]))
    assert roll_result(s, s.combat)[1] == [3, 2]


def test_RL_RULING_KHAN_HQ_captured_hqs_too():
    starts = {"ann": ("khan_industries", "brazil"), "bob": ("die_mechaniker", "china"),
              "cat": ("imperial_balkania", "western_united_states")}
    s = with_powers(placed(starts=starts), khan_industries="khan-hq-reinforcement")
    s = with_board(s, {"western_united_states": held("ann", 1, "imperial_balkania"), "alaska": held("cat", 3)})
    s = fold(turn_of(s, "cat"), ev("TurnEnded", "cat"))
    assert s.flow.current == "ann"
    assert board(s, "western_united_states").troops == 2 and board(s, "brazil").troops == 9


def test_RL_RULING_COIN_DEPLETION_at_the_last_coin():
    s = turn_of(with_board(placed(), {"peru": held("ann", 1)}), "ann", conquered=1)
    s = replace(s, side=s.side._replace(coins=2))
    s = fold(s, ev("CardDrawn", "ann", card="coin"))
    assert s.players["ann"].tokens == 1 and not s.side.coin_star_given


def test_RL_RULING_SCAR_CARDS_unplayed_cards_return():
    s = turn_of(placed(), "ann", step=START, recruited=False)
    s = with_player(s, "ann", tokens=2, hand=("A1", "A2", "A3", "A4"))
    s = fold(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"]))
    assert s.world.supply["scar:bunker"] == 3 and s.world.supply["scar:ammo_shortage"] == 3


def test_RL_RULING_HIDDEN_SCARS_turned_over_when_played_or_returned():
    from engine.core.commit import commitment
    from engine.risk_legacy.state import FACE_DOWN
    salts = {"ann": "a1", "bob": "b2", "cat": "c3"}
    cards = {"ann": "bunker", "bob": "ammo_shortage", "cat": "bunker"}
    s = start()
    s = fold(s, ev("ScarCardsDealt", None, commitments={p: commitment(cards[p], salts[p]) for p in SEATS}),
             *setup_events(scars=False))
    assert {s.players[p].scar for p in SEATS} == {FACE_DOWN}       # held, not known
    s = fold(turn_of(with_board(s, {"peru": held("bob", 2)}), "ann"),
             ev("AttackDeclared", "ann", from_="brazil", to="peru", troops=3))
    # played: turned over with its salt, and the scar is on the world
    s = fold(s, ev("ScarPlaced", "bob", scar="ammo_shortage", territory="peru", salt="b2"))
    assert W.marks(s.world, "peru").scar == "ammo_shortage" and s.players["bob"].scar is None
    assert s.scar_deal.revealed["bob"][0] == "ammo_shortage"
    # not played: turned over when the game ends; a wrong one is a finding, applied as recorded
    from tests.test_legacy_end import won
    over = won(s)
    assert rules_of(over, ev("ScarCardReturned", "ann", scar="bunker", salt="a1")) == []
    vs, after = RULESET.step(over, ev("ScarCardReturned", "cat", scar="ammo_shortage", salt="c3"))
    assert [v.rule for v in vs] == ["RL-SCAR-REVEAL"] and after.players["cat"].scar is None
    # the world's Scar cards drop only with the scar placed (RL-RULING-SCAR-CARDS)
    assert after.world.supply["scar:ammo_shortage"] == 2 and after.world.supply["scar:bunker"] == 3


def test_RL_RULING_ELIMINATION_at_the_start_of_their_turn():
    s = with_board(placed(), {"china": held("ann", 2, "die_mechaniker")})
    assert not s.players["bob"].eliminated                   # knocked out, still in the game
    s = fold(turn_of(s, "ann"), ev("TurnEnded", "ann"))
    assert s.flow.current == "bob" and not s.players["bob"].eliminated   # a legal start is open


def test_RL_RULING_SAHARA_ANYTIME_before_recruiting():
    starts = {"ann": ("saharan_republic", "brazil"), "bob": ("die_mechaniker", "china"),
              "cat": ("imperial_balkania", "western_united_states")}
    s = with_powers(placed(starts=starts), saharan_republic="sahara-maneuver-anytime")
    s = with_board(turn_of(s, "ann", step=START, recruited=False), {"peru": held("ann", 1)})
    s = fold(s, ev("Maneuvered", "ann", from_="brazil", to="peru", troops=3),
             ev("Recruited", "ann", placements={"brazil": 3}))
    assert board(s, "peru").troops == 4 and board(s, "brazil").troops == 8


def test_RL_RULING_UPGRADE_SUPPLY_only_the_card_limit():
    from tests.test_legacy_end import won
    w = world(resources={**world().resources, "A23": 5}, supply={**world().supply, "first_game_coin_stickers": 0})
    s = fold(won(placed(w=w)), ev("RewardChosen", "ann", reward="pass"),
             ev("RewardChosen", "bob", reward="upgrade_card", card="A23"))
    assert s.world.resources["A23"] == 6


def test_RL_RULING_WORLD_IN_LOG_replays_alone_checked_in_the_campaign():
    w = W.with_marks(world(), "egypt", scar="bunker")
    s = start(w=w)
    assert W.marks(s.world, "egypt").scar == "bunker" and s.world_start == W.world_digest(w)
    p = PAYLOADS["GameStarted"].model_validate({"ruleset": "risk-legacy", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
                                                "world": W.world_to_dict(w),
                                                "campaign": {"name": "x", "game": 1, "world": W.world_digest(w)}})
    assert RULESET.check_start(p, RULESET.load_data()) == []


def test_RL_RULING_PACKS_once_per_world():
    w = world(packs=[W.PackOpening(pack="pocket_2", game=1, condition="...")], games=1)
    s = turn_of(placed(w=w), "ann", step=START, recruited=False)
    s = with_player(s, "ann", missiles=1)
    s = fold(s, ev("Recruited", "ann", placements={"brazil": 30}), allow=("RL-RECRUIT-COUNT",))
    assert [p.pack for p in s.world.packs] == ["pocket_2"]
