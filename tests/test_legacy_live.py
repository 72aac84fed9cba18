"""Risk Legacy played live (engine/risk_legacy/live.py, `actors` in legal.py): whose decision the
game waits for, the defender's dice declared (DefenceDeclared, RL-ATTACK-DICE), Missiles held
(MissilesHeld, RL-MISSILE-TIMING), the Scar window closed by the defender's choice
(RL-SCAR-PLACE), and the chance a server makes from the seed (deals, layout, roll-offs, attack
rolls and the troops a roll removes)."""

from __future__ import annotations

import json

import pytest

from engine.core.chance import draw_with
from engine.core.dice import DiceTape
from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.legal import casualties_payload, legal_moves
from engine.risk_legacy.live import chance, new_game
from engine.risk_legacy.setup import scar_pool
from tests.test_legacy_combat import attack, peru, removed, roll
from tests.test_legacy_helpers import SEATS, ev, fold, rules_of, with_player

actors = RULESET.actors


# --- RL-ATTACK-DICE: the defender declares its dice -----------------------------------------------

def test_RL_ATTACK_DICE_the_defender_declares_its_dice_and_the_roll_shows_them():
    s = fold(peru(), attack("brazil", "peru", 3))
    assert {m.payload["troops"] for m in legal_moves(s) if m.type == "DefenceDeclared"} == {1, 2}
    s = fold(s, ev("DefenceDeclared", "bob", troops=1))
    assert s.combat.defend == 1
    assert rules_of(s, roll([4, 3, 1], [5, 4])) == ["RL-ATTACK-DICE"]
    assert rules_of(s, roll([4, 3, 1], [5])) == []


def test_RL_ATTACK_DICE_declared_once_by_the_defender_and_no_more_than_its_troops():
    s = fold(peru(bob=1), attack("brazil", "peru", 3))
    assert rules_of(s, ev("DefenceDeclared", "bob", troops=2)) == ["RL-ATTACK-DICE"]
    assert rules_of(s, ev("DefenceDeclared", "cat", troops=1)) == ["RL-ATTACK-DICE"]
    s = fold(s, ev("DefenceDeclared", "bob", troops=1))
    assert rules_of(s, ev("DefenceDeclared", "bob", troops=1)) == ["RL-ATTACK-DICE"]
    assert rules_of(peru(), ev("DefenceDeclared", "bob", troops=1)) == ["RL-FLOW"]


def test_RL_SCAR_PLACE_a_scar_comes_before_the_defender_declares_its_dice():
    s = fold(peru(), attack("brazil", "peru", 3))
    scar = s.players["cat"].scar
    assert rules_of(s, ev("ScarPlaced", "cat", scar=scar, territory="peru")) == []
    s = fold(s, ev("DefenceDeclared", "bob", troops=2))
    assert rules_of(s, ev("ScarPlaced", "cat", scar=scar, territory="peru")) == ["RL-SCAR-PLACE"]
    assert not [m for m in legal_moves(s) if m.type == "ScarPlaced"]


# --- RL-MISSILE-TIMING: holders fire or hold ------------------------------------------------------

def rolled_with_missiles():
    s = fold(peru(), attack("brazil", "peru", 3), ev("DefenceDeclared", "bob", troops=2), roll([4, 3, 1], [5, 4]))
    return with_player(with_player(s, "cat", missiles=1), "ann", missiles=2)


def test_RL_MISSILE_TIMING_every_holder_fires_or_holds_and_a_missile_opens_the_window_again():
    s = rolled_with_missiles()
    assert actors(s) == ("ann", "cat")
    s = fold(s, ev("MissilesHeld", "ann"))
    assert actors(s) == ("cat",)
    assert rules_of(s, ev("MissilesHeld", "ann")) == ["RL-MISSILE-TIMING"]
    s = fold(s, ev("MissileFired", "cat", side="defender", die=1))
    assert actors(s) == ("ann",)                  # ann may answer; cat has no Missile left
    s = fold(s, ev("MissilesHeld", "ann"))
    assert actors(s) == ()


def test_RL_MISSILE_TIMING_held_only_with_a_missile_and_only_after_a_roll():
    s = rolled_with_missiles()
    assert rules_of(s, ev("MissilesHeld", "bob")) == ["RL-MISSILE"]
    assert rules_of(with_player(peru(), "ann", missiles=1), ev("MissilesHeld", "ann")) == ["RL-MISSILE-TIMING"]
    s = fold(s, removed(1, 1), allow=("RL-CASUALTIES",))
    assert rules_of(s, ev("MissilesHeld", "ann")) == ["RL-MISSILE-TIMING"]


# --- who the game waits for ------------------------------------------------------------------------

def test_actors_through_an_attack():
    s = peru()
    assert actors(s) == ("ann",)
    s = fold(s, attack("brazil", "peru", 3))
    assert actors(s) == SEATS                     # the defender, and every Scar card that may be played
    s = fold(s, ev("DefenceDeclared", "bob", troops=2))
    assert actors(s) == ()                        # the roll: chance
    s = fold(s, roll([6, 6, 1], [1, 1]))
    assert actors(s) == ()                        # no Missile anywhere: the troops are removed
    s = fold(s, removed(0, 2))
    assert s.combat.stage == "conquered" and actors(s) == ("ann",)


def test_actors_after_the_win_are_the_reward_choosers():
    from engine.core.ruleset import GameResult
    from engine.risk_legacy.state import evolve
    s = peru()
    over = evolve(s, result=GameResult(("ann",), "4 red stars", 1, {}),
                  flow=s.flow._replace(phase="rewards", choosers=("ann", "cat")))
    assert actors(over) == ("ann",)
    from engine.risk_legacy.state import FACE_DOWN
    assert actors(with_player(over, "bob", scar=FACE_DOWN)) == ("ann", "bob")   # to turn it over
    assert actors(evolve(over, flow=over.flow._replace(phase="over", choosers=()))) == ()


# --- the server's chance ----------------------------------------------------------------------------

SEED = "live-legacy-seed"


def started(players=SEATS, **options):
    payload = new_game(tuple(players), options, {"mode": "seeded", "seed_hash": "0" * 64})
    return RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(payload), default_data())


def test_the_server_deals_the_scars_face_up_with_their_dice_then_lays_out_and_rolls_off():
    tape = DiceTape(SEED)
    s = started()
    type_, actor, payload = chance(s, tape)
    assert (type_, actor) == ("ScarCardsDealt", None)
    assert list(payload["cards"].values()) == draw_with(scar_pool(s), len(SEATS), payload["dice"])
    assert payload["dice"] == tape.take(0, len(payload["dice"]))
    seen = []
    while (due := chance(s, tape)) is not None:
        violations, s = RULESET.step(s, ev(due[0], due[1], **due[2]))
        assert violations == [], violations
        seen.append(due[0])
    assert seen[:3] == ["ScarCardsDealt", "CardsLaidOut", "DiceRolled"]
    assert s.flow.phase == "choose" and actors(s) == (s.flow.current,)


def test_the_server_rolls_the_declared_attack_then_removes_the_troops():
    tape = DiceTape(SEED)
    s = fold(peru(), attack("brazil", "peru", 3))
    assert chance(s, tape) is None                # the defender has not chosen
    s = fold(s, ev("DefenceDeclared", "bob", troops=1))
    type_, _, payload = chance(s, tape)
    assert type_ == "DiceRolled" and {p: len(d) for p, d in payload["rolls"].items()} == {"ann": 3, "bob": 1}
    assert payload["rolls"]["ann"] + payload["rolls"]["bob"] == tape.take(s.dice.count, 4)
    s = fold(s, ev(type_, None, **payload))
    assert chance(s, tape) == ("CasualtiesRemoved", None, casualties_payload(s))
    s = with_player(s, "cat", missiles=1)
    assert chance(s, tape) is None                # cat may still fire


def test_a_new_game_on_the_box_or_on_a_world_of_a_campaign():
    box = new_game(("ann", "bob", "cat"), {}, {"mode": "table"})
    assert box["ruleset"] == "risk-legacy" and "world" not in box
    w = W.pristine_world(default_data()).model_copy(update={"games": 2})
    text = json.dumps(W.world_to_dict(w))
    camp = new_game(("ann", "bob", "cat"), {"world": text, "campaign": "earth"}, {"mode": "table"})
    assert camp["campaign"] == {"name": "earth", "game": 3, "world": W.world_digest(w)}
    assert RULESET.check_start(PAYLOADS["GameStarted"].model_validate(camp), default_data()) == []
    cards = new_game(("ann", "bob", "cat"), {"events": "6", "missions": "3"}, {"mode": "table"})
    assert (cards["events"], cards["missions"]) == (6, 3)
    assert "events" not in new_game(("ann", "bob", "cat"), {"events": "0"}, {"mode": "table"})
    for options, players, words in [({"variant": "3"}, ("a", "b", "c"), "no option 'variant'"),
                                    ({"events": "-1"}, ("a", "b", "c"), "number of Event cards"),
                                    ({"missions": "100"}, ("a", "b", "c"), "number of Mission cards"),
                                    ({}, ("a", "b"), "3 to 5 players"),
                                    ({}, ("a", "a", "b"), "same id"),
                                    ({"world": "{"}, ("a", "b", "c"), "not a world document"),
                                    ({"campaign": "earth"}, ("a", "b", "c"), "'world' option")]:
        with pytest.raises(ValueError, match=words):
            new_game(players, options, {"mode": "table"})
