"""Risk Europe's analytics fold: the rows of its five tables, read off the judge's own fold of a
log (RULESET.projections, RULESET.fold; the generic driver is analytics.extract).

Each row is read from the structured states before and after an event: the turn flow (`flow`),
the battle being fought (`battle`), the board (`terr`) and the players' holdings (`players`);
never from the engine's notes. The tables (explained in docs/analytics.md):

- orders_played: one row per King's Orders card revealed: who, seat, round, turn, the card, the
  order chosen on it, whether its bonus action was used, the Berlin free maneuver.
- battles: one row per battle started: the armies by unit type at the start, cycles fought,
  castle re-rolls used, the winner and losses, and the exact odds and luck (engine.risk_europe.odds).
- dice: one row per player per dice event (engine.core.tables.DICE): who rolled, why (roll-off,
  siege assault, battle, castle re-roll), the faces, and the count of each face.
- player_rounds: each player's holdings at the end of each round (round 0: kingdoms placed).
- outcomes: one row per player: seat, starting city, opening bid, won or not, rounds played.

Pure: no I/O; the exact odds are memoized per battle, and recalled by the battle's shape from
the rows' memo when the caller gives one (the store, at ingest: engine.core.memo).
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.projection import Projection, Rows
from engine.core.tables import DICE
from engine.risk_europe.engine import cities_of, crowns, territories_of, units_on_board
from engine.risk_europe.odds import (
    DEFAULT_POLICY, OddsSummary, Policy, battle_odds, format_battle, luck, next_rank, summary_of,
)
from engine.risk_europe.state import NO_UNITS, State, Units

# What the fold keeps in a store's memo (engine.core.memo): a battle's odds by its shape and the
# policy; the version changes when the odds are computed another way.
MEMO_KIND = "risk-europe/battle-odds/1"

# The exact odds of a battle with more units than this on one side are not computed: more than
# a player owns, so only a log judged leniently has one; its odds and luck columns are null.
ODDS_MAX_UNITS = 63

S, I, F, B = "str", "int", "float", "bool"

PROJECTIONS: tuple[Projection, ...] = (
    Projection("orders_played", {
        "game_id": S, "seq": I, "round": I, "turn": I, "turn_index": I, "player": S, "seat": I,
        "card": S, "order_chosen": S, "card_bonus": S, "bonus_used": B, "berlin_maneuver": B,
    }, key=("game_id", "seq"), doc="one row per King's Orders card revealed"),
    Projection("battles", {
        "game_id": S, "seq": I, "round": I, "territory": S, "attacker": S, "defender": S,
        "castle": B,
        "att_footman": I, "att_archer": I, "att_cavalry": I, "att_siege": I,
        "def_footman": I, "def_archer": I, "def_cavalry": I, "def_siege": I,
        "attacker_units": I, "defender_units": I, "cycles": I, "rerolls": I,
        "outcome": S, "winner": S, "attacker_lost": I, "defender_lost": I,
        "p_attacker_takes": F, "p_defender_holds": F, "p_both_eliminated": F,
        "expected_attacker_losses": F, "expected_defender_losses": F,
        "attacker_luck": F, "defender_luck": F, "attacker_units_luck": F, "defender_units_luck": F,
    }, key=("game_id", "seq"), doc="one row per battle started, with its exact odds and luck"),
    DICE,
    Projection("player_rounds", {
        "game_id": S, "round": I, "player": S, "seat": I, "coins": I, "crowns": I,
        "crown_cards": I, "territories": I, "cities": I, "castles": I, "footmen": I,
        "archers": I, "cavalry": I, "siege": I, "units": I, "eliminated": B, "first_player": B,
        "complete": B,
    }, key=("game_id", "round", "player"), doc="each player's holdings at the end of each round"),
    Projection("outcomes", {
        "game_id": S, "player": S, "seat": I, "starting_city": S, "starting_territory": S,
        "opening_bid": I, "first_player": B, "won": B, "win_share": F, "finished": B,
        "rounds": I, "reason": S, "crowns": I, "territories": I, "eliminated": B,
    }, key=("game_id", "player"), doc="one row per player: how the game went for them"),
)

# why a die was rolled (dice.why)
ROLL_OFF, SIEGE_ASSAULT, BATTLE, CASTLE_REROLL = (
    "roll-off", "siege assault", "battle", "castle re-roll")
# how a battle ended (battles.outcome)
ATTACKER_TAKES, DEFENDER_HOLDS, BOTH_ELIMINATED, UNFINISHED = (
    "attacker takes", "defender holds", "both eliminated", "unfinished")
BONUS_EVENTS = frozenset({"Fortified", "SiegeAssaulted"})


def fold(rows: Rows, data: Any = None) -> "_Fold":
    """RULESET.fold: a fold that appends one game's rows to `rows` (the data is the state's own)."""
    return _Fold(rows)


def _seat(s: State, player: str) -> int | None:
    return s.seats.index(player) if player in s.seats else None


class _Fold:
    """Reads rows off each (state before, state after) pair of an applied event."""

    def __init__(self, rows: Rows, policy: Policy = DEFAULT_POLICY):
        self.rows = rows
        self.t = rows.tables
        self.game = rows.game_id
        self.policy = policy
        self.turns: dict[tuple[int, int, int], list] = {}     # (round, turn, index) -> row
        self.battle: dict[str, Any] | None = None              # the battle being fought
        self.rounds_done: set[int] = set()
        self.starts: dict[str, tuple[str, str]] = {}           # player -> (city, territory)
        self.bids: dict[str, int | None] = {}
        self.first_player: str | None = None

    # -- one event

    def observe(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        if kind in ("DiceRolled", "DiceRerolled"):
            self._dice(before, after, seq, kind, payload)
        if kind == "BattleStarted":
            self._battle_started(before, after, seq)
        elif self.battle is not None:
            self._battle_went_on(after, kind)
        self._turn(after, seq, kind)
        fb, fa = before.flow, after.flow
        if fb.phase in ("bidding", "rolloff") and fa.phase == "placement":
            self.bids = {p: after.players[p].bid for p in after.seats}
            self.first_player = after.marker
        if fa.round > fb.round:
            self._settle_turns(fa.round)
        if fa.round != fb.round and fb.round not in self.rounds_done:
            if fb.round == 0:
                for p in after.seats:
                    city = cities_of(after, p)
                    if city:
                        self.starts[p] = (after.data.cities[city[0]].name, city[0])
            self._snapshot(after, fb.round, complete=True)
        if fa.phase == "over" and fb.phase != "over" and fa.round not in self.rounds_done:
            self._snapshot(after, fa.round, complete=True)

    def _turn(self, s: State, seq: int, kind: str) -> None:
        f = s.flow
        if f.phase != "turn" or f.card is None:
            return
        key = (f.round, f.turn, f.index)
        row = self.turns.get(key)
        if row is None:
            player = f.order[f.index]
            card = s.data.cards.get(f.card)
            bonus = card.bonus if card else None
            row = [self.game, seq, f.round, f.turn, f.index, player, _seat(s, player), f.card,
                   None, bonus, bonus == "king_me", False]
            self.turns[key] = row
        row[8] = f.order_done
        row[11] = f.berlin_used
        if kind in BONUS_EVENTS:
            row[10] = True

    def _settle_turns(self, round_: int) -> None:
        """The rows of the turns of the rounds before `round_`, written now: rounds only go on,
        so no later event changes them (`finish` writes the turns of the round under way, so a
        live game's conclusion costs a round's turns, not the whole game's)."""
        done = sorted(k for k in self.turns if k[0] < round_)
        self.t["orders_played"].extend(tuple(self.turns.pop(k)) for k in done)

    def _dice(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        f = before.flow
        rank = territory = battle_seq = None
        if kind == "DiceRerolled":
            b = before.battle
            why, rank, territory = CASTLE_REROLL, b.rank, b.territory
            battle_seq = self.battle["seq"] if self.battle else None
        elif f.phase == "rolloff":
            why = ROLL_OFF
        elif f.phase == "turn" and f.pending is not None and f.pending[0] == "siege_dice":
            why, territory = SIEGE_ASSAULT, f.pending[2]
        elif before.battle is not None:
            b = before.battle
            why, territory = BATTLE, b.territory
            battle_seq = self.battle["seq"] if self.battle else None
            if b.stage == "roll":
                rank = b.rank
            else:  # the defender did not re-roll: the engine goes on to the next rank first
                x = before.terr[b.territory]
                rank = next_rank(x.attacker_units, x.units, b.rank + 1 if b.rank < 4 else 1)
        else:
            return
        for player in before.seats:           # seat order, as the engine records them
            faces = payload.rolls.get(player)
            if faces is None:
                continue
            counts = [0] * 6
            for d in faces:
                counts[d - 1] += 1
            self.t["dice"].append((self.game, seq, f.round, player, _seat(before, player), why,
                                   rank, territory, battle_seq, len(faces), json.dumps(faces),
                                   *counts))

    def _battle_started(self, before: State, after: State, seq: int) -> None:
        b = after.battle
        territory = b.territory if b is not None else after.last_battle[0]
        x = before.terr[territory]
        self.battle = {"seq": seq, "round": before.flow.round, "territory": territory,
                       "attacker": x.attacker, "defender": x.owner, "castle": x.castle,
                       "att": x.attacker_units, "def": x.units,
                       "cycles": 0 if b is None else b.cycle, "rerolls": 0}
        if b is None:
            self._battle_ended(after)

    def _battle_went_on(self, after: State, kind: str) -> None:
        fight = self.battle
        if kind == "DiceRerolled":
            fight["rerolls"] += 1
        b = after.battle
        if b is not None and b.territory == fight["territory"]:
            fight["cycles"] = max(fight["cycles"], b.cycle)
        else:
            self._battle_ended(after)

    def _battle_ended(self, after: State, unfinished: bool = False) -> None:
        """The battle's row; an unfinished one (the log ends inside it) stays the battle fought."""
        fight = self.battle
        if not unfinished:
            self.battle = None
        att, dfn = fight["att"], fight["def"]
        t = fight["territory"]
        if unfinished:
            outcome, winner = UNFINISHED, None
            x = after.terr[t]
            att_left, def_left = x.attacker_units, x.units
        else:
            last = after.last_battle
            winner = last[1] if last and last[0] == t else None
            x = after.terr[t]
            if winner is not None and winner == fight["attacker"]:
                outcome, att_left, def_left = ATTACKER_TAKES, x.units, NO_UNITS
            elif winner is not None:
                outcome, att_left, def_left = DEFENDER_HOLDS, NO_UNITS, x.units
            else:
                outcome, att_left, def_left = BOTH_ELIMINATED, NO_UNITS, NO_UNITS
        att_lost, def_lost = att.total - att_left.total, dfn.total - def_left.total
        odds = self._odds(att, dfn, fight["castle"], outcome, att_lost, def_lost)
        self.t["battles"].append((
            self.game, fight["seq"], fight["round"], t, fight["attacker"], fight["defender"],
            fight["castle"], *att, *dfn, att.total, dfn.total, fight["cycles"], fight["rerolls"],
            outcome, winner, att_lost, def_lost, *odds))

    def _odds(self, att: Units, dfn: Units, castle: bool, outcome: str, att_lost: int,
              def_lost: int) -> tuple:
        """P(attacker takes), P(defender holds), P(both eliminated), expected losses, and the
        luck of the result (None where there are no odds: an army was empty from the start, an
        army too big to compute, or the battle did not end)."""
        if (att.total == 0 or dfn.total == 0 or max(att.total, dfn.total) > ODDS_MAX_UNITS):
            return (None,) * 9
        o = self._summary(att, dfn, castle)
        head = (o.attacker_wins, o.defender_holds, o.both_eliminated,
                o.expected_attacker_losses, o.expected_defender_losses)
        if outcome == UNFINISHED:
            return head + (None,) * 4
        try:
            k = luck(o, att_lost, def_lost)
        except ValueError:      # losses that do not end this battle (a log judged leniently)
            return head + (None,) * 4
        return head + (float(k.attacker_won), float(k.defender_held),
                       -float(k.attacker_losses), -float(k.defender_losses))

    def _summary(self, att: Units, dfn: Units, castle: bool) -> "OddsSummary":
        """The battle's odds as the rows need them, recalled by its shape from the rows' memo
        when there is one (the store's: each shape computed once per store), else computed."""
        def compute() -> list[float]:
            return summary_of(battle_odds(att, dfn, castle, self.policy)).numbers
        memo = getattr(self.rows, "memo", None)
        if memo is None:
            return summary_of(battle_odds(att, dfn, castle, self.policy))
        key = f"{format_battle(att, dfn, castle)} | {self.policy.describe()}"
        return OddsSummary(att, dfn, *memo.recall(MEMO_KIND, key, compute))

    def _snapshot(self, s: State, round_: int, complete: bool) -> None:
        if complete:
            self.rounds_done.add(round_)
        for p in s.seats:
            ps = s.players[p]
            units = units_on_board(s, p)
            owned = territories_of(s, p)
            self.t["player_rounds"].append((
                self.game, round_, p, _seat(s, p), ps.coins, crowns(s, p), ps.crown_cards,
                len(owned), len(cities_of(s, p)), sum(1 for t in owned if s.terr[t].castle),
                *units, units.total, ps.eliminated, s.marker == p, complete))

    # -- the end of the log

    def finish(self, s: State) -> None:
        """The rows of the log's end (the battle and round in progress, the turns, the outcomes);
        nothing else changes, so the fold may observe more events after (a live game)."""
        if self.battle is not None:
            self._battle_ended(s, unfinished=True)
        self.t["orders_played"].extend(tuple(row) for _, row in sorted(self.turns.items()))
        if s.flow.round >= 1 and s.flow.round not in self.rounds_done:
            self._snapshot(s, s.flow.round, complete=False)
        if not self.starts:        # the log ended before round 1
            return
        result = s.result
        winners = result.winners if result is not None else ()
        rounds = result.round if result is not None else s.flow.round
        for p in s.seats:
            city, territory = self.starts.get(p, (None, None))
            ps = s.players[p]
            self.t["outcomes"].append((
                self.game, p, _seat(s, p), city, territory, self.bids.get(p),
                self.first_player == p, p in winners,
                1.0 / len(winners) if p in winners else 0.0, result is not None, rounds,
                result.reason if result is not None else None, crowns(s, p),
                len(territories_of(s, p)), ps.eliminated))
