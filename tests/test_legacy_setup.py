"""Setup (rulebook: Before Your First Game, Setup Before Every Game, Before the First Turn): the
world customized once, tokens, Scar cards, the sideboard, the roll-off, factions and starting
territories; and the log's own rules (players, data, world, flow, names, actors, dice)."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.state import Terr
from tests.test_legacy_helpers import (
    DATA, SEATS, STARTS, board, ev, fold, placed, rules_of, setup_events, start, with_board, world,
)


def check_start(**payload):
    p = PAYLOADS["GameStarted"].model_validate({"ruleset": "risk-legacy", "players": [{"id": x} for x in SEATS],
                                                **payload})
    return [v.rule for v in RULESET.check_start(p, DATA)]


def before_factions(players=SEATS, w=None):
    """Scars dealt, cards laid out, the first seat has won the roll-off."""
    return fold(start(players, w), *setup_events(players)[:3])


# --- RL-START-PLAYERS, RL-START-DATA, RL-START-WORLD, RL-START ----------------------------------

def test_RL_START_PLAYERS_three_to_five_players():
    assert check_start() == []
    p = PAYLOADS["GameStarted"].model_validate({"ruleset": "risk-legacy", "players": [{"id": "a"}, {"id": "b"}]})
    assert [v.rule for v in RULESET.check_start(p, DATA)] == ["RL-START-PLAYERS"]


def test_RL_START_PLAYERS_ids_are_distinct():
    p = PAYLOADS["GameStarted"].model_validate({"ruleset": "risk-legacy",
                                                "players": [{"id": "a"}, {"id": "a"}, {"id": "b"}]})
    assert [v.rule for v in RULESET.check_start(p, DATA)] == ["RL-START-PLAYERS"]


def test_RL_START_DATA_a_different_board_digest_is_a_claim():
    assert check_start(data={"board": DATA.board_digest, "rules": DATA.rules_digest}) == []
    p = PAYLOADS["GameStarted"].model_validate({"ruleset": "risk-legacy", "players": [{"id": x} for x in SEATS],
                                                "data": {"board": "0" * 64}})
    vs = RULESET.check_start(p, DATA)
    assert [v.rule for v in vs] == ["RL-START-DATA"] and not vs[0].blocking


def test_RL_START_WORLD_a_world_must_fit_the_board():
    good = W.world_to_dict(world())
    assert check_start(world=good) == []
    bad = dict(good, resources={**good["resources"], "A1": 9})
    assert check_start(world=bad) == ["RL-START-WORLD"]
    unknown = dict(good, territories={"atlantis": {"scar": "bunker"}})
    assert check_start(world=unknown) == ["RL-START-WORLD"]


def test_RL_START_WORLD_the_declared_digest_is_the_worlds():
    w = world()
    ok = check_start(world=W.world_to_dict(w), campaign={"name": "c", "game": 1, "world": W.world_digest(w)})
    assert ok == []
    wrong = check_start(world=W.world_to_dict(w), campaign={"name": "c", "game": 1, "world": "f" * 64})
    assert wrong == ["RL-START-WORLD"]


def test_LOG_START_a_legacy_log_starts_with_GameStarted():
    from replay.logfile import read_log_text
    from replay.judge import judge
    j = judge(read_log_text('{"v":1,"game":"g","seq":0,"type":"TurnEnded","actor":"ann","payload":{}}\n'))
    assert [f.rule for f in j.findings][-1] == "LOG-START" and j.fatal
    # the log format's rule, not a game's: no ruleset keeps a twin of it
    assert "RL-START" not in [r.id for r in RULESET.rules]


# --- RL-CUSTOMIZE --------------------------------------------------------------------------------

def test_RL_CUSTOMIZE_a_power_each_and_twelve_stickers():
    stickers = {"A1": 2, "A2": 2, "A3": 2, "A4": 2, "A5": 2, "A6": 2}
    problems, w = W.customize(W.pristine_world(DATA), DATA, {f: 0 for f in DATA.powers}, stickers)
    assert problems == []
    assert w.resources["A1"] == 3 and w.powers["die_mechaniker"] == "mech-fortified-hq"


def test_RL_CUSTOMIZE_no_card_above_three_and_all_twelve_placed():
    problems, _ = W.customize(W.pristine_world(DATA), DATA, {f: 1 for f in DATA.powers}, {"A1": 3, "A2": 9})
    assert any("at most 3" in p for p in problems)
    problems, _ = W.customize(W.pristine_world(DATA), DATA, {f: 1 for f in DATA.powers}, {"A1": 2})
    assert any("12" in p for p in problems)


def test_RL_CUSTOMIZE_every_faction_needs_one_of_its_own_powers():
    stickers = {"A1": 2, "A2": 2, "A3": 2, "A4": 2, "A5": 2, "A6": 2}
    problems, _ = W.customize(W.pristine_world(DATA), DATA, {"die_mechaniker": "sahara-maneuver-anytime"}, stickers)
    assert any("not a starting power of die_mechaniker" in p for p in problems)
    assert any("enclave_of_the_bear needs a starting power" in p for p in problems)


# --- RL-SETUP-TOKENS ------------------------------------------------------------------------------

def test_RL_SETUP_TOKENS_unsigned_players_take_a_red_star():
    s = start()
    assert all(s.players[p].tokens == 1 and s.players[p].missiles == 0 for p in SEATS)


def test_RL_SETUP_TOKENS_signed_players_take_a_missile_per_signature():
    sigs = [W.Signature(game=1, player="ann"), W.Signature(game=2, player="ann"), W.Signature(game=3, player="bob")]
    s = start(w=world(signatures=sigs, games=3))
    assert (s.players["ann"].tokens, s.players["ann"].missiles) == (0, 2)
    assert (s.players["bob"].tokens, s.players["bob"].missiles) == (0, 1)
    assert (s.players["cat"].tokens, s.players["cat"].missiles) == (1, 0)


# --- RL-SETUP-SCARS -------------------------------------------------------------------------------

def test_RL_SETUP_SCARS_one_card_each_when_there_are_enough():
    s = fold(start(), ev("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "bunker", "cat": "ammo_shortage"}))
    assert s.players["ann"].scar == "bunker" and s.players["cat"].scar == "ammo_shortage"


def test_RL_SETUP_SCARS_none_when_there_are_not_enough():
    w = world(supply={**world().supply, "scar:bunker": 1, "scar:ammo_shortage": 1})
    e = ev("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "ammo_shortage", "cat": "bunker"})
    assert rules_of(start(w=w), e) == ["RL-SETUP-SCARS"]
    # and the game begins without them
    s = fold(start(w=w), *setup_events(scars=False))
    assert s.flow.phase == "turn" and all(s.players[p].scar is None for p in SEATS)


def test_RL_SETUP_SCARS_no_more_of_a_kind_than_are_left():
    w = world(supply={**world().supply, "scar:bunker": 1})
    e = ev("ScarCardsDealt", None, cards={"ann": "bunker", "bob": "bunker", "cat": "ammo_shortage"})
    assert rules_of(start(w=w), e) == ["RL-SETUP-SCARS"]


def test_RL_SETUP_SCARS_must_be_dealt_before_the_rolloff():
    s = fold(start(), ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"]))
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [6], "bob": [1], "cat": [2]})) == ["RL-SETUP-SCARS"]


# --- RL-SETUP-SIDEBOARD ---------------------------------------------------------------------------

def test_RL_SETUP_SIDEBOARD_four_cards_from_the_deck():
    s = fold(start(), ev("CardsLaidOut", None, cards=["A1", "egypt", "A3", "A4"]))
    assert s.side.slots == ("A1", "A35", "A3", "A4") and "A35" not in s.side.draw and s.side.coins == 10


def test_RL_SETUP_SIDEBOARD_a_destroyed_card_is_not_in_the_deck():
    w = world(resources={k: v for k, v in world().resources.items() if k != "A1"}, destroyed=["A1"])
    assert rules_of(start(w=w), ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"])) == ["RL-SETUP-SIDEBOARD"]


def test_RL_SETUP_SIDEBOARD_four_are_laid_out():
    assert rules_of(start(), ev("CardsLaidOut", None, cards=["A1", "A2"])) == ["RL-SETUP-SIDEBOARD"]


# --- RL-SETUP-ROLLOFF -----------------------------------------------------------------------------

def test_RL_SETUP_ROLLOFF_highest_roll_chooses_first():
    s = fold(start(), *setup_events()[:2], ev("DiceRolled", None, rolls={"ann": [2], "bob": [5], "cat": [3]}))
    assert s.flow.phase == "choose" and s.flow.order == ("bob", "cat", "ann")


def test_RL_SETUP_ROLLOFF_tied_players_roll_again():
    s = fold(start(), *setup_events()[:2], ev("DiceRolled", None, rolls={"ann": [5], "bob": [5], "cat": [3]}))
    assert s.flow.phase == "rolloff" and s.flow.tied == ("ann", "bob")
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [1], "bob": [2], "cat": [6]})) == ["RL-SETUP-ROLLOFF"]
    s = fold(s, ev("DiceRolled", None, rolls={"ann": [1], "bob": [2]}))
    assert s.flow.order[0] == "bob"


# --- RL-SETUP-FACTION, RL-START-TERRITORY, RL-START-HQ-ADJACENT -----------------------------------

def test_RL_SETUP_FACTION_each_faction_once_in_clockwise_order():
    s = fold(before_factions(), ev("FactionChosen", "ann", faction="die_mechaniker", territory="brazil"))
    assert rules_of(s, ev("FactionChosen", "bob", faction="die_mechaniker", territory="china")) == ["RL-SETUP-FACTION"]
    assert rules_of(s, ev("FactionChosen", "cat", faction="khan_industries", territory="china")) == ["RL-SETUP-FACTION"]


def test_RL_SETUP_FACTION_eight_troops_and_the_hq():
    s = placed()
    assert board(s, "china") == Terr("bob", 8, "die_mechaniker")
    assert s.players["bob"].faction == "die_mechaniker" and s.players["bob"].start == "china"


def test_RL_START_TERRITORY_an_unmarked_unoccupied_territory_is_legal():
    s = before_factions()
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="egypt")) == []


def test_RL_START_TERRITORY_a_scarred_or_city_territory_is_not():
    w = W.with_marks(W.with_marks(world(), "egypt", scar="bunker"), "peru",
                     city=W.CityMark(kind="minor", name="Lima", founder="ann"))
    s = before_factions(w=w)
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="egypt")) == ["RL-START-TERRITORY"]
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="peru")) == ["RL-START-TERRITORY"]


def test_RL_START_TERRITORY_your_own_major_city_is_legal_even_scarred():
    w = W.with_marks(world(), "egypt", scar="bunker", city=W.CityMark(kind="major", name="Cairo", founder="ann"))
    s = before_factions(w=w)
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="egypt")) == []
    s = fold(s, ev("FactionChosen", "ann", faction="khan_industries", territory="peru"))
    assert rules_of(s, ev("FactionChosen", "bob", faction="die_mechaniker", territory="egypt")) == ["RL-START-TERRITORY"]


def test_RL_START_TERRITORY_an_occupied_territory_is_skipped():
    s = fold(before_factions(), ev("FactionChosen", "ann", faction="khan_industries", territory="egypt"))
    e = ev("FactionChosen", "bob", faction="die_mechaniker", territory="egypt")
    vs, nxt = RULESET.step(s, e)
    assert [v.rule for v in vs] == ["RL-START-TERRITORY"] and nxt is None


def test_RL_START_HQ_ADJACENT_not_next_to_another_hq():
    s = fold(before_factions(), ev("FactionChosen", "ann", faction="khan_industries", territory="egypt"))
    assert rules_of(s, ev("FactionChosen", "bob", faction="die_mechaniker", territory="east_africa")) == ["RL-START-HQ-ADJACENT"]
    assert rules_of(s, ev("FactionChosen", "bob", faction="die_mechaniker", territory="south_africa")) == []


# --- the log's rules ----------------------------------------------------------------------------

def test_RL_FLOW_events_come_at_their_point():
    s = start()
    assert rules_of(s, ev("Recruited", "ann", placements={"brazil": 3})) == ["RL-FLOW"]
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="egypt")) == ["RL-FLOW"]


def test_RL_ACTOR_only_players_of_the_game_act():
    s = placed()
    assert rules_of(s, ev("Recruited", "zed", placements={"brazil": 3})) == ["RL-ACTOR"]
    assert rules_of(s, ev("Recruited", None, placements={"brazil": 3})) == ["RL-ACTOR"]


def test_RL_NAME_unknown_territories_factions_and_cards():
    s = before_factions()
    assert rules_of(s, ev("FactionChosen", "ann", faction="vikings", territory="egypt")) == ["RL-NAME"]
    assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory="atlantis")) == ["RL-NAME"]


def test_RL_NAME_territories_by_name_classic_name_or_card():
    s = before_factions()
    for name in ("Central Africa", "congo", "A38", "central_africa"):
        assert rules_of(s, ev("FactionChosen", "ann", faction="khan_industries", territory=name)) == []


def test_RL_DICE_FACES_dice_show_one_to_six():
    s = fold(start(), *setup_events()[:2])
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [7], "bob": [1], "cat": [2]})) == ["RL-DICE-FACES"]


def test_RL_DICE_SEED_every_die_comes_from_the_revealed_seed():
    from engine.core.canonical import sha256_hex
    from engine.core.dice import dice_stream
    seed = "table-seed"
    faces = dice_stream(seed)
    s = start(dice={"mode": "seeded", "seed_hash": sha256_hex(seed)})
    # the deal and the face-up cards without their dice (a finding of their own, RL-CHANCE-DRAW):
    # they take none of the stream, so the roll-off's are its first dice
    s = fold(s, *setup_events()[:2], allow=("RL-CHANCE-DRAW",))
    want = [next(faces) for _ in range(3)]
    rolls = {p: [want[i]] for i, p in enumerate(SEATS)}
    wrong = {p: [7 - want[i]] for i, p in enumerate(SEATS)}
    ok = fold(s, ev("DiceRolled", None, rolls=rolls))
    assert rules_of(ok, ev("SeedRevealed", None, seed=seed)) == []
    bad = fold(s, ev("DiceRolled", None, rolls=wrong))
    assert rules_of(bad, ev("SeedRevealed", None, seed=seed)) == ["RL-DICE-SEED"]
    taped = RULESET.reveal_seed(s, seed)
    assert rules_of(taped, ev("DiceRolled", None, rolls=wrong)) == ["RL-DICE-SEED"]


def test_placed_positions_use_the_default_starts():
    s = placed()
    for p, (faction, t) in STARTS.items():
        assert board(s, t).hq == faction
    assert with_board(s, {"egypt": Terr("ann", 2)}).terr["egypt"].troops == 2
