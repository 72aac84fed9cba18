"""One test per ruling in docs/rulings.md: where the rulebook is silent or ambiguous, the ruling
the engine follows, pinned. Test names carry the ruling ids."""

from __future__ import annotations

from dataclasses import replace

from engine.risk_europe import RULESET
from engine.risk_europe.common import crowns
from engine.risk_europe.state import Battle, Terr, Units
from replay.logfile import read_log
from replay.judge import judge
from tests.re_helpers import SEATS, commit_all, ev, fold, placed, rules_of, start

E1, T1, TK, ES = "expand-maneuver-fortify-1", "tax-spend-1", "tax-spend-king", "expand-maneuver-siege"


def board(state, **terr):
    """Replace territories: name=(owner, Units, castle[, attacker, attacker Units])."""
    t = dict(state.terr)
    for name, spec in terr.items():
        name = name.replace("_", " ")
        owner, units, castle, *att = spec
        t[name] = Terr(owner=owner, units=units, castle=castle,
                       attacker=att[0] if att else None, attacker_units=att[1] if att else Units(), since=0)
    return replace(state, terr=t)


def turn_of(state, player, card, turn=1, order=SEATS):
    f = state.flow._replace(phase="turn", round=max(1, state.flow.round), order=order,
                            index=order.index(player), turn=turn, card=card, order_done=None,
                            bonus_used=False, berlin_used=False, pending=None)
    return replace(state, flow=f, step=f.round * 1000 + 1 + (turn - 1) * len(order) + order.index(player))


def test_RE_RULING_AFTER_ILLEGAL_applies_what_can_be_carried_out():
    """An expand into a castle without a Siege Weapon is reported and applied as recorded."""
    s = board(turn_of(placed(), "orange", E1), Poland=("blue", Units(footman=2), True),
              Galicia=("orange", Units(footman=4), False))
    violations, nxt = RULESET.step(s, ev("Expanded", "orange", from_="Galicia", to="Poland", units={"footman": 3}))
    assert [v.rule for v in violations] == ["RE-EXPAND-CASTLE"]
    assert nxt.terr["Poland"].attacker == "orange"


def test_RE_RULING_AFTER_ILLEGAL_skips_what_cannot_be_carried_out():
    s = turn_of(placed(), "blue", E1)
    violations, nxt = RULESET.step(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={"footman": 9}))
    assert [v.rule for v in violations] == ["RE-EXPAND-UNITS"] and nxt is None


def test_RE_RULING_TILE_TIMING_tile_taken_this_turn_works_from_the_next_turn():
    """English guide: 'available at the start of the next turn' (the Spanish says next round)."""
    s = board(turn_of(placed(), "blue", ES), Denmark=("blue", Units(footman=3), False))
    s = fold(s, ev("Expanded", "blue", from_="Denmark", to="Sweden", units={"footman": 1}))
    assert s.terr["Sweden"].owner == "blue"
    # no Berlin-like bonus here; check Stockholm is not yet active this turn, active next turn
    from engine.risk_europe.common import has_tile
    assert not has_tile(s, "blue", "Stockholm")
    later = replace(s, step=s.step + 1)
    assert has_tile(later, "blue", "Stockholm")


def test_RE_RULING_SIEGE_EMPTIES_a_territory_emptied_by_siege_becomes_unclaimed():
    s = board(turn_of(placed(), "orange", ES), Rusland=("orange", Units(footman=2, siege=1), True),
              Poland=("blue", Units(footman=1), False))
    s = fold(s, ev("SiegeAssaulted", "orange", from_="Rusland", target="Poland"),
             ev("DiceRolled", "orange", rolls={"orange": [6, 1]}),
             ev("CasualtiesRemoved", "blue", territory="Poland", units={"footman": 1}))
    assert s.terr["Poland"].owner is None
    assert crowns(s, "blue") == 1


def test_RE_RULING_FORTIFY_CASTLE_CITY_a_city_with_a_castle_takes_four():
    s = turn_of(placed(), "blue", E1)
    s = fold(s, ev("Fortified", "blue", territory="Saxony", footmen=4))
    assert s.terr["Saxony"].units.footman == 5 + 4


def test_RE_RULING_TAX_DISPUTED_CITY_collects_nothing():
    s = board(turn_of(placed(), "blue", T1), Saxony=("blue", Units(footman=5), True, "red", Units(footman=2)))
    coins = s.players["blue"].coins
    assert rules_of(s, ev("Taxed", "blue", city="Berlin")) == []
    s = fold(s, ev("Taxed", "blue", city="Berlin"))
    assert s.players["blue"].coins == coins


def test_RE_RULING_WIN_TIE_more_crowns_beat_fewer_then_territories():
    s = placed()
    s = board(s, Poland=("blue", Units(footman=1), False), Hungary=("blue", Units(footman=1), False),
              Sweden=("blue", Units(footman=1), False), England=("blue", Units(footman=1), False),
              Greece=("blue", Units(footman=1), False), Turkey=("blue", Units(footman=1), False),
              Swabia=("green", Units(footman=1), False), Ireland=("green", Units(footman=1), False),
              Algeria=("green", Units(footman=1), False), Leon_Castile=("green", Units(footman=1), False),
              Republic_of_Novgorod=("green", Units(footman=1), False),
              Sardinia=("green", Units(footman=1), False), Kingdom_of_Sicily=("green", Units(footman=1), False))
    # blue: Berlin + 6 cities = 7 crowns, 8 territories; green: Rome(2) + 5 = 7 crowns, 9 territories
    assert crowns(s, "blue") == 7 and crowns(s, "green") == 7
    from engine.risk_europe.common import _Ctx
    from engine.risk_europe.rounds import _end_round
    s1 = replace(s, flow=s.flow._replace(round=3))
    out = _end_round(s1, _Ctx())
    assert out.result.winners == ("green",)
    assert out.result.reason == "crowns with tie-break"


def test_RE_RULING_BID_TIE_only_the_tied_roll_and_the_winner_pays():
    s = start()
    s = fold(s, *[ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, (3, 3, 1, 0))])
    assert s.flow.phase == "rolloff" and s.flow.tied == ("blue", "orange")
    assert rules_of(s, ev("DiceRolled", None, rolls={"blue": [4], "orange": [2], "red": [6]})) == ["RE-BID-TIE"]
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [4], "orange": [4]}))
    assert s.flow.tied == ("blue", "orange")
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [2], "orange": [5]}))
    assert s.marker == "orange" and s.players["orange"].coins == 2 and s.players["blue"].coins == 5


def test_RE_RULING_PLACEMENT_city_must_hold_footmen_second_territory_may_be_empty():
    s = fold(start(), *[ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, (1, 0, 0, 0))])
    assert rules_of(s, ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 0, "Bohemia": 10})) \
        == ["RE-PLACE-FOOTMEN"]
    s = fold(s, ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 10}))
    assert s.terr["Saxony"].units.footman == 10 and s.terr["Bohemia"].owner is None


def test_RE_RULING_REROLL_WINDOW_no_reroll_after_a_casualty_is_removed():
    s = placed()
    s = board(s, Poland=("blue", Units(archer=6, footman=2), True, "orange", Units(archer=2, footman=4)))
    b = Battle(territory="Poland", attacker="orange", defender="blue", castle=True, rank=2)
    s = replace(s, battle=b, flow=s.flow._replace(phase="battles"), marker="blue")
    s = fold(s, ev("DiceRolled", None, rolls={"blue": [1, 1, 1, 1, 1, 1], "orange": [5, 6]}))
    s = fold(s, ev("CasualtiesRemoved", "blue", territory="Poland", units={"footman": 2}))
    assert rules_of(s, ev("DiceRerolled", "blue", rolls={"blue": [6, 6, 6, 6, 6, 6]})) == ["RE-CASTLE-DEFENSE"]


def test_RE_RULING_ELIMINATION_marker_passes_clockwise_and_castles_stay():
    s = placed()
    t = dict(s.terr)
    t["Saxony"] = Terr(castle=True)
    t["Bohemia"] = Terr()
    s = replace(s, terr=t, marker="blue", flow=s.flow._replace(round=2))
    from engine.risk_europe.common import _Ctx
    from engine.risk_europe.rounds import _end_round
    out = _end_round(s, _Ctx())
    assert out.players["blue"].eliminated
    assert out.marker == "orange"
    assert out.terr["Saxony"].castle and out.terr["Saxony"].owner is None


def test_RE_RULING_SAVED_AGAIN_a_crown_card_saves_for_one_round_per_loss():
    s = placed()
    t = dict(s.terr)
    t["Saxony"] = Terr(castle=True)
    players = dict(s.players)
    players["blue"] = players["blue"]._replace(crown_cards=1)
    s = replace(s, terr=t, players=players, flow=s.flow._replace(round=2))
    from engine.risk_europe.common import _Ctx
    from engine.risk_europe.rounds import _end_round
    out = _end_round(s, _Ctx())
    assert not out.players["blue"].eliminated and out.players["blue"].saved_until == 3
    out2 = _end_round(replace(out, flow=out.flow._replace(round=3)), _Ctx())
    assert out2.players["blue"].eliminated and out2.players["blue"].crown_cards == 0
    assert out2.crown_cards_left == s.crown_cards_left  # not returned to the reserve


def test_RE_RULING_EXPAND_ZERO_an_expand_of_no_units_changes_nothing():
    s = turn_of(placed(), "blue", E1)
    violations, nxt = RULESET.step(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={}))
    assert violations == [] and nxt.terr["Poland"].owner is None


def test_RE_RULING_CASUALTIES_CAP_hits_beyond_the_army_are_lost():
    s = board(turn_of(placed(), "orange", ES), Rusland=("orange", Units(footman=2, siege=2), True),
              Poland=("blue", Units(footman=1), False))
    s = fold(s, ev("SiegeAssaulted", "orange", from_="Rusland", target="Poland"),
             ev("DiceRolled", "orange", rolls={"orange": [6, 6, 6, 6]}))
    assert s.flow.pending == ("casualties", "Poland", "blue", 1)


def test_RE_RULING_FREE_UNITS_LIMITED_BY_RESERVE_fortify_adds_what_the_reserve_holds():
    s = board(turn_of(placed(), "blue", E1), Saxony=("blue", Units(footman=34), True), Bohemia=("blue", Units(), False))
    s = fold(s, ev("Fortified", "blue", territory="Saxony"))
    assert s.terr["Saxony"].units.footman == 35


def test_RE_RULING_BERLIN_LAST_the_free_maneuver_closes_the_card():
    s = board(turn_of(placed(), "blue", E1), Denmark=("blue", Units(footman=2), False))
    s = replace(s, step=s.step)
    s = fold(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={"footman": 2}),
             ev("Maneuvered", "blue", from_="Denmark", to="Bohemia", units={"footman": 1}))
    assert rules_of(s, ev("Fortified", "blue", territory="Saxony")) == ["RE-BONUS-CARD"]


def test_RE_RULING_IMPLICIT_TURN_END_next_reveal_ends_the_turn():
    s = commit_all(placed(), {p: (E1, T1) for p in SEATS})
    s = fold(s, ev("CardRevealed", "blue", card=E1), ev("CardRevealed", "orange", card=E1))
    assert s.flow.current == "orange" and s.flow.card == E1


def test_RE_RULING_IMPLICIT_TURN_END_a_missing_turn_is_one_finding(tmp_path):
    """A log that forgets a player's turn gets one finding, and the rest is judged normally."""
    s = commit_all(placed(), {p: (E1, T1) for p in SEATS})
    s = fold(s, ev("CardRevealed", "blue", card=E1))
    violations, nxt = RULESET.step(s, ev("CardRevealed", "red", card=E1))
    assert [v.rule for v in violations] == ["RE-TURN-ORDER"] and not violations[0].blocking
    assert nxt.flow.current == "red"


def test_RE_RULING_STOCKHOLM_winning_stockholm_itself_pays_nothing_that_battle():
    s = placed()
    s = board(s, Sweden=("red", Units(footman=1), False, "blue", Units(footman=3)))
    s = replace(s, flow=s.flow._replace(phase="battles", round=2), marker="blue", step=2999)
    coins = s.players["blue"].coins
    s = fold(s, ev("BattleStarted", "blue", territory="Sweden"),
             ev("DiceRolled", None, rolls={"blue": [6, 5, 4], "red": [1]}),
             ev("CasualtiesRemoved", "red", territory="Sweden", units={"footman": 1}))
    assert s.terr["Sweden"].owner == "blue" and s.players["blue"].coins == coins


def test_RE_RULING_DATA_a_corrected_board_changes_the_judgement(tmp_path):
    """The board is data: a user-supplied board file is what the game is judged with."""
    import json
    from engine.risk_europe.board import load_data
    from importlib import resources
    raw = json.loads(resources.files("engine.risk_europe").joinpath("data").joinpath("board.json").read_text())
    raw["edges"] = [e for e in raw["edges"] if {e["a"], e["b"]} != {"Bohemia", "Poland"}]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    data = load_data(board_path=path)
    j = judge(read_log("sample_logs/game42.jsonl"), data=data)
    assert any(f.rule == "RE-EXPAND-ADJACENT" and f.seq == 14 for f in j.findings)
    assert j.data_digest != judge(read_log("sample_logs/game42.jsonl")).data_digest


def test_RE_RULING_RECLAIM_PAYS_an_emptied_city_pays_its_tax_value_again():
    s = board(turn_of(placed(), "orange", E1), Galicia=("orange", Units(footman=4), False))
    t = dict(s.terr)
    t["Poland"] = Terr()     # Warsaw was held before and emptied (its crown went back to the reserve)
    s = replace(s, terr=t)
    coins = s.players["orange"].coins
    s = fold(s, ev("Expanded", "orange", from_="Galicia", to="Poland", units={"footman": 1}))
    assert s.players["orange"].coins == coins + 2


def test_RE_RULING_REROLL_FIRST_CYCLE_the_castle_reroll_is_available_in_the_first_cycle():
    s = placed()
    s = board(s, Poland=("blue", Units(archer=6), True, "orange", Units(archer=2, footman=4)))
    s = replace(s, flow=s.flow._replace(phase="battles"), marker="blue")
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"),
             ev("DiceRolled", None, rolls={"blue": [1, 1, 1, 1, 1, 1], "orange": [5, 6]}))
    assert s.battle.cycle == 1
    assert rules_of(s, ev("DiceRerolled", "blue", rolls={"blue": [6, 6, 1, 1, 1, 1]})) == []


def test_RE_RULING_KIEV_DISPUTED_no_recruiting_through_a_disputed_kiev():
    s = placed()
    s = board(turn_of(s, "orange", T1), Rusland=("orange", Units(footman=6), True, "blue", Units(footman=1)),
              Galicia=("orange", Units(footman=4), False))
    assert "RE-SPEND-PLACE" in rules_of(s, ev("Spent", "orange", purchases=[
        {"item": "footman", "territory": "Galicia"}]))
    s2 = board(turn_of(placed(), "orange", T1), Galicia=("orange", Units(footman=4), False))
    assert rules_of(s2, ev("Spent", "orange", purchases=[{"item": "footman", "territory": "Galicia"}])) == []


def test_RE_RULING_DEFENDER_LEAVE_COUNT_units_are_counted_not_matched_by_type():
    s = board(turn_of(placed(), "blue", E1),
              Bohemia=("blue", Units(footman=1, archer=3), False, "orange", Units(siege=1, cavalry=1)))
    ok = ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"archer": 2})
    assert rules_of(s, ok) == []
    too_many = ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"archer": 3})
    assert rules_of(s, too_many) == ["RE-EXPAND-DEFENDER-LEAVE"]


def test_RE_RULING_TAX_TILES_IN_LINE_a_tile_pays_when_its_city_is_in_the_taxed_line():
    s = board(turn_of(placed(), "red", T1), England=("red", Units(footman=1), False),
              Normandy=("red", Units(footman=1), False))
    s = fold(s, ev("Taxed", "red", city="Paris"))
    assert s.terr["England"].units.archer == 2       # London's tile, though Paris was chosen
    assert s.terr["France"].units.cavalry == 1       # and Paris's own


def test_RE_RULING_EMPTY_SIDE_a_battle_with_an_army_already_gone_ends_without_dice():
    s = placed()
    s = board(s, Bohemia=("blue", Units(), False, "orange", Units(footman=2)))
    s = replace(s, flow=s.flow._replace(phase="battles", round=1), marker="blue")
    s = fold(s, ev("BattleStarted", "blue", territory="Bohemia"))
    assert s.battle is None and s.terr["Bohemia"].owner == "orange"


def test_RE_RULING_WIN_TIE_a_full_tie_is_a_shared_win_declared_with_winners():
    s = placed()
    from engine.risk_europe.common import _Ctx
    from engine.risk_europe.rounds import _end_round
    from engine.core.ruleset import GameResult
    players = dict(s.players)
    for p in ("blue", "red"):
        players[p] = players[p]._replace(crown_cards=6, coins=5)
    s = replace(s, players=players, marker="green", flow=s.flow._replace(round=4))
    out = _end_round(s, _Ctx())
    assert out.result.winners == ("blue", "red")
    assert rules_of(out, ev("GameEnded", None, winners=["red", "blue"])) == []
    assert rules_of(out, ev("GameEnded", None, winner="blue")) == ["RE-CLAIM"]
    assert isinstance(out.result, GameResult)
