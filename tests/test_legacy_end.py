"""The end of a game (rulebook: End of Game, If You Won, If You Held On, Completed World, Opening
New Packages): outcomes, the signature, the rewards and their supply, naming the world, sealed
packs, claims."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.state import START
from tests.test_legacy_helpers import (
    board, ev, fold, held, placed, rules_of, turn_of, with_board, with_player, world,
)


def won(s=None):
    """ann buys her 4th Red Star at the start of her turn; bob and cat held on."""
    s = turn_of(s or placed(), "ann", step=START, recruited=False)
    s = with_player(s, "ann", tokens=2, hand=("A1", "A2", "A3", "A4"))
    return fold(s, ev("RedStarBought", "ann", cards=["A1", "A2", "A3", "A4"]))


def reward(actor, kind, **kw):
    return ev("RewardChosen", actor, reward=kind, **kw)


def after_game(n):
    """A world on which `n` games have been played."""
    return world(games=n)


# --- RL-END-OUTCOMES, RL-GAME-OVER, RL-CLAIM --------------------------------------------------------

def test_RL_END_OUTCOMES_won_held_on_eliminated_absent():
    s = won(with_board(placed(), {"western_united_states": held("ann", 2, "imperial_balkania")}))
    assert s.outcomes == {"ann": "won", "bob": "held_on", "cat": "eliminated"}
    recs = {f: r[-1] for f, r in s.world.factions.items()}
    assert recs["enclave_of_the_bear"].outcome == "won" and recs["enclave_of_the_bear"].territory == "brazil"
    assert recs["imperial_balkania"].outcome == "eliminated"
    assert recs["khan_industries"].outcome == "absent" and recs["saharan_republic"].player is None
    assert s.world.games == 1


def test_RL_END_OUTCOMES_no_troops_at_the_end_counts_as_eliminated():
    s = won(with_board(placed(), {"china": held("ann", 1, "die_mechaniker")}))
    assert s.outcomes["bob"] == "eliminated"
    assert any(p.pack == "pack_2" for p in s.world.packs)


def test_RL_GAME_OVER_nothing_but_rewards_after_the_end():
    s = won()
    assert rules_of(s, ev("TurnEnded", "ann")) == ["RL-GAME-OVER"]
    assert rules_of(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=2)) == ["RL-GAME-OVER"]


def test_RL_CLAIM_the_declared_winner():
    s = won()
    assert rules_of(s, ev("GameEnded", None, winner="ann")) == []
    vs = RULESET.check(s, ev("GameEnded", None, winner="bob"))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CLAIM", False)]
    vs = RULESET.check(placed(), ev("GameEnded", None, winner="ann"))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CLAIM", False)]


# --- RL-REWARD-WINDOW, RL-REWARD-ORDER, RL-REWARD-WINNER, RL-REWARD-HELD-ON ------------------------

def test_RL_REWARD_WINDOW_the_winner_signs_in_the_first_fifteen_games():
    s = won()
    assert [(g.game, g.player) for g in s.world.signatures] == [(1, "ann")]
    assert s.flow.phase == "rewards" and s.flow.choosers == ("ann", "bob", "cat")


def test_RL_REWARD_WINDOW_no_signature_or_reward_after_fifteen():
    s = won(placed(w=after_game(15).model_copy(update={"name": "Terra"})))
    assert s.world.signatures == [] and s.flow.phase == "over" and s.world.games == 16
    vs, nxt = RULESET.step(s, reward("ann", "name_continent", continent="africa", name="X"))
    assert [v.rule for v in vs] == ["RL-REWARD-WINDOW"] and nxt is None


def test_RL_REWARD_ORDER_winner_then_held_on_clockwise():
    s = won()
    assert rules_of(s, reward("bob", "found_minor_city", territory="china", name="Xi")) == ["RL-REWARD-ORDER"]
    s = fold(s, reward("ann", "pass"))
    assert rules_of(s, reward("cat", "pass")) == ["RL-REWARD-ORDER"]
    s = fold(s, reward("bob", "pass"), reward("cat", "pass"))
    assert s.flow.phase == "over"


def test_RL_REWARD_ORDER_eliminated_players_choose_nothing():
    s = won(with_board(placed(), {"western_united_states": held("ann", 2, "imperial_balkania")}))
    s = fold(s, reward("ann", "pass"), reward("bob", "pass"))
    assert s.flow.phase == "over"
    vs, nxt = RULESET.step(s, reward("cat", "found_minor_city", territory="alaska", name="X"))
    assert nxt is None


def test_RL_REWARD_WINNER_one_of_the_six():
    s = won()
    assert rules_of(s, reward("ann", "upgrade_card", card="A39")) == ["RL-REWARD-WINNER"]


def test_RL_REWARD_HELD_ON_minor_city_or_upgrade():
    s = fold(won(), reward("ann", "pass"))
    assert rules_of(s, reward("bob", "destroy_card", card="A1")) == ["RL-REWARD-HELD-ON"]
    assert rules_of(s, reward("bob", "upgrade_card", card="A23")) == []


# --- the winner's six rewards --------------------------------------------------------------------

def test_RL_REWARD_NAME_CONTINENT_an_unnamed_one():
    s = fold(won(), reward("ann", "name_continent", continent="South America", name="Awesometonia"))
    m = W.continent_marks(s.world, "south_america")
    assert (m.name, m.named_by) == ("Awesometonia", "ann")
    s2 = won(placed(w=W.with_continent(world(), "africa", name="Zed", named_by="bob")))
    assert rules_of(s2, reward("ann", "name_continent", continent="africa", name="Y")) == ["RL-REWARD-NAME-CONTINENT"]


def test_RL_REWARD_MAJOR_CITY_where_there_is_no_city():
    s = fold(won(), reward("ann", "found_major_city", territory="egypt", name="Cairo"))
    city = W.marks(s.world, "egypt").city
    assert (city.kind, city.founder, city.game) == ("major", "ann", 1) and s.world.supply["major_city"] == 4
    w = W.with_marks(world(), "egypt", city=W.CityMark(kind="minor", name="Giza"))
    assert rules_of(won(placed(w=w)), reward("ann", "found_major_city", territory="egypt", name="C")) == ["RL-REWARD-MAJOR-CITY"]


def test_RL_REWARD_MAJOR_CITY_only_five():
    w = world(supply={**world().supply, "major_city": 0})
    assert rules_of(won(placed(w=w)), reward("ann", "found_major_city", territory="egypt", name="C")) == ["RL-REWARD-MAJOR-CITY"]


def test_RL_REWARD_CANCEL_SCAR_a_scar_not_a_city():
    w = W.with_marks(world(), "egypt", scar="bunker")
    s = fold(won(placed(w=w)), reward("ann", "cancel_scar", territory="egypt"))
    assert W.marks(s.world, "egypt").scar is None and W.marks(s.world, "egypt").scar_cancelled == 1
    assert s.world.supply["scar_cancel"] == 3
    assert rules_of(won(), reward("ann", "cancel_scar", territory="egypt")) == ["RL-REWARD-CANCEL-SCAR"]


def test_RL_REWARD_CONTINENT_BONUS_each_mark_once_each_continent_once():
    s = fold(won(), reward("ann", "change_continent_bonus", continent="asia", modifier=-1))
    assert W.continent_marks(s.world, "asia").modifier == -1 and s.world.supply["continent_minus"] == 0
    w = W.with_continent(world(), "asia", modifier=1)
    assert rules_of(won(placed(w=w)), reward("ann", "change_continent_bonus", continent="asia", modifier=-1)) == ["RL-REWARD-CONTINENT-BONUS"]
    w = world(supply={**world().supply, "continent_plus": 0})
    assert rules_of(won(placed(w=w)), reward("ann", "change_continent_bonus", continent="asia", modifier=1)) == ["RL-REWARD-CONTINENT-BONUS"]


def test_RL_REWARD_FORTIFY_a_city_even_one_fortified():
    w = W.with_marks(world(), "egypt", city=W.CityMark(kind="minor", name="Giza"), fortification=7)
    s = fold(won(placed(w=w)), reward("ann", "fortify_city", territory="egypt"))
    assert W.marks(s.world, "egypt").fortification == 0 and s.world.supply["fortification"] == 4
    assert rules_of(won(), reward("ann", "fortify_city", territory="egypt")) == ["RL-REWARD-FORTIFY"]


def test_RL_REWARD_DESTROY_CARD_a_card_still_in_the_game():
    s = fold(won(), reward("ann", "destroy_card", card="Egypt"))
    assert "A35" in s.world.destroyed and "A35" not in s.world.resources
    w = world(resources={k: v for k, v in world().resources.items() if k != "A35"}, destroyed=["A35"])
    assert rules_of(won(placed(w=w)), reward("ann", "destroy_card", card="A35")) == ["RL-REWARD-DESTROY-CARD"]


# --- held on: minor city, upgrade ------------------------------------------------------------------

def test_RL_REWARD_MINOR_CITY_in_a_territory_held_at_the_end():
    s = fold(won(), reward("ann", "pass"), reward("bob", "found_minor_city", territory="china", name="Xi'an"))
    assert W.marks(s.world, "china").city.kind == "minor" and s.world.supply["minor_city"] == 8
    s = fold(won(), reward("ann", "pass"))
    assert rules_of(s, reward("bob", "found_minor_city", territory="egypt", name="X")) == ["RL-REWARD-MINOR-CITY"]


def test_RL_REWARD_MINOR_CITY_the_ninth_opens_pack_1():
    w = world(supply={**world().supply, "minor_city": 1})
    s = fold(won(placed(w=w)), reward("ann", "pass"), reward("bob", "found_minor_city", territory="china", name="X"))
    assert any(p.pack == "pack_1" for p in s.world.packs)
    assert rules_of(s, reward("cat", "found_minor_city", territory="western_united_states", name="Y")) == ["RL-REWARD-MINOR-CITY"]


def test_RL_REWARD_UPGRADE_up_to_six():
    s = fold(won(), reward("ann", "pass"), reward("bob", "upgrade_card", card="china"))
    assert s.world.resources["A23"] == 2
    w = world(resources={**world().resources, "A23": 6})
    s = fold(won(placed(w=w)), reward("ann", "pass"))
    assert rules_of(s, reward("bob", "upgrade_card", card="A23")) == ["RL-REWARD-UPGRADE"]
    assert rules_of(s, reward("bob", "upgrade_card", card="coin")) == ["RL-REWARD-UPGRADE"]
    assert rules_of(s, reward("bob", "upgrade_card", card="A35")) == ["RL-REWARD-UPGRADE"]   # not held


# --- RL-WORLD-NAME, RL-PACK -----------------------------------------------------------------------

def fifteenth(signatures):
    w = world(games=14, signatures=[W.Signature(game=i + 1, player=p) for i, p in enumerate(signatures)])
    s = won(placed(w=w))
    return fold(s, reward("ann", "pass"), reward("bob", "pass"), reward("cat", "pass"))


def test_RL_WORLD_NAME_the_most_signatures_names_it():
    s = fifteenth(["bob"] * 7 + ["cat"] * 7)                    # + ann's for game 15: bob and cat tie at 7
    assert s.flow.phase == "naming"
    assert rules_of(s, ev("WorldNamed", None, name="Gaia", by="bob")) == ["RL-WORLD-NAME"]
    named = fold(s, ev("WorldNamed", None, name="Gaia", by="bob", rolls={"bob": [5], "cat": [3]}))
    assert named.world.name == "Gaia" and named.flow.phase == "over"


def test_RL_WORLD_NAME_continents_named_add_to_the_rolloff():
    w = world(games=14, signatures=[W.Signature(game=i + 1, player=p) for i, p in enumerate(["bob"] * 7 + ["cat"] * 7)])
    w = W.with_continent(w, "asia", name="Catland", named_by="cat")
    s = fold(won(placed(w=w)), reward("ann", "pass"), reward("bob", "pass"), reward("cat", "pass"))
    assert rules_of(s, ev("WorldNamed", None, name="Gaia", by="bob", rolls={"bob": [3], "cat": [3]})) == ["RL-WORLD-NAME"]
    assert rules_of(s, ev("WorldNamed", None, name="Gaia", by="cat", rolls={"bob": [3], "cat": [3]})) == []


def test_RL_WORLD_NAME_only_after_the_fifteenth_game():
    s = fold(won(), reward("ann", "pass"), reward("bob", "pass"), reward("cat", "pass"))
    assert rules_of(s, ev("WorldNamed", None, name="Gaia", by="ann")) == ["RL-WORLD-NAME"]


def test_RL_PACK_a_claim_is_checked_against_the_condition():
    assert [(v.rule, v.blocking) for v in RULESET.check(placed(), ev("PackOpened", None, pack="pack_1"))] == [("RL-PACK", False)]
    w = world(supply={**world().supply, "minor_city": 1})
    s = fold(won(placed(w=w)), reward("ann", "pass"), reward("bob", "found_minor_city", territory="china", name="X"))
    assert rules_of(s, ev("PackOpened", None, pack="pack_1")) == []


def test_RL_PACK_a_second_signature_opens_pack_3():
    s = won(placed(w=world(games=1, signatures=[W.Signature(game=1, player="ann")])))
    assert any(p.pack == "pack_3" for p in s.world.packs)


def test_RL_PACK_three_missiles_on_one_roll_open_pocket_1():
    s = turn_of(with_board(placed(), {"peru": held("bob", 2)}), "ann")
    s = with_player(with_player(s, "cat", missiles=3), "ann", missiles=0)
    s = fold(s, ev("AttackDeclared", "ann", from_="brazil", to="peru", troops=3),
             ev("DiceRolled", None, rolls={"ann": [1, 1, 1], "bob": [1, 1]}),
             ev("MissileFired", "cat", side="attacker", die=0), ev("MissileFired", "cat", side="attacker", die=1))
    assert not s.world.packs
    s = fold(s, ev("MissileFired", "cat", side="attacker", die=2))
    assert [p.pack for p in s.world.packs] == ["pocket_1"]


def test_RL_PACK_thirty_troops_with_a_missile_open_pocket_2():
    s = turn_of(placed(), "ann", step=START, recruited=False)
    s = with_player(s, "ann", missiles=1, hand=("A1", "A2"))
    from tests.test_legacy_helpers import with_world
    s = with_world(s, s.world.model_copy(update={"resources": {**s.world.resources, "A1": 4, "A2": 6}}))
    s = fold(s, ev("Recruited", "ann", cards=["A1", "A2"], placements={"brazil": 33}))
    assert [p.pack for p in s.world.packs] == ["pocket_2"]
    assert board(s, "brazil").troops == 41
