"""The analytics rows of one game, taken from the engine's own fold of its log.

    rows = extract_rows(read)            # a LogRead, as the store judges it
    rows.tables["battles"]               # [(game_id, seq, round, territory, ...), ...]
    rows.frame("dice")                   # the same as a polars DataFrame (COLUMNS["dice"])

The log is folded again with the ruleset's decider (`initial_state`, `step`, `conclude`: the same
calls, in the same order, as `replay.judge.judge`), and each row is read from the structured
states before and after an event: the turn flow (`flow`), the battle being fought (`battle`),
the board (`terr`) and the players' holdings (`players`); never from the engine's notes. An event
the engine skips (illegal and impossible, or unreadable) changes nothing and makes no row; one
applied as recorded counts as it was played. So the rows describe the game the judge judged.

The five tables (their columns in COLUMNS, explained in docs/analytics.md):

- orders_played: one row per King's Orders card revealed: who, seat, round, turn, the card, the
  order chosen on it, whether its bonus action was used, the Berlin free maneuver.
- battles: one row per battle started: the armies by unit type at the start, cycles fought,
  castle re-rolls used, the winner and losses, and the exact odds and luck (analytics.odds).
- dice: one row per player per dice event: who rolled, why (roll-off, siege assault, battle,
  castle re-roll), the faces, and the count of each face.
- player_rounds: each player's holdings at the end of each round (round 0: kingdoms placed).
- outcomes: one row per player: seat, starting city, opening bid, won or not, rounds played.

Risk Legacy games fill `dice` and three tables of their own, legacy_outcomes, legacy_battles and
legacy_games (analytics.extract_legacy). A ruleset without a fold here makes no rows.

Pure: no I/O; the exact odds are memoized per battle (analytics.odds).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import polars as pl
from pydantic import ValidationError

from analytics.extract_legacy import LEGACY_COLUMNS, LegacyFold
from engine.risk_europe.odds import DEFAULT_POLICY, Policy, battle_odds, luck, next_rank
from engine.core.events import Event
from engine.core.ruleset import get_ruleset, ruleset_names
from engine.risk_europe.engine import cities_of, crowns, territories_of, units_on_board
from engine.risk_europe.state import NO_UNITS, State, Units
from replay.logfile import LogRead

# The exact odds of a battle with more units than this on one side are not computed: more than
# a player owns, so only a log judged leniently has one; its odds and luck columns are null.
ODDS_MAX_UNITS = 63

S, I, F, B = pl.String, pl.Int32, pl.Float64, pl.Boolean

COLUMNS: dict[str, dict[str, Any]] = {
    "orders_played": {
        "game_id": S, "seq": I, "round": I, "turn": I, "turn_index": I, "player": S, "seat": I,
        "card": S, "order_chosen": S, "card_bonus": S, "bonus_used": B, "berlin_maneuver": B,
    },
    "battles": {
        "game_id": S, "seq": I, "round": I, "territory": S, "attacker": S, "defender": S,
        "castle": B,
        "att_footman": I, "att_archer": I, "att_cavalry": I, "att_siege": I,
        "def_footman": I, "def_archer": I, "def_cavalry": I, "def_siege": I,
        "attacker_units": I, "defender_units": I, "cycles": I, "rerolls": I,
        "outcome": S, "winner": S, "attacker_lost": I, "defender_lost": I,
        "p_attacker_takes": F, "p_defender_holds": F, "p_both_eliminated": F,
        "expected_attacker_losses": F, "expected_defender_losses": F,
        "attacker_luck": F, "defender_luck": F, "attacker_units_luck": F, "defender_units_luck": F,
    },
    "dice": {
        "game_id": S, "seq": I, "round": I, "player": S, "seat": I, "why": S, "rank": I,
        "territory": S, "battle_seq": I, "dice": I, "faces": S,
        "n1": I, "n2": I, "n3": I, "n4": I, "n5": I, "n6": I,
    },
    "player_rounds": {
        "game_id": S, "round": I, "player": S, "seat": I, "coins": I, "crowns": I,
        "crown_cards": I, "territories": I, "cities": I, "castles": I, "footmen": I,
        "archers": I, "cavalry": I, "siege": I, "units": I, "eliminated": B, "first_player": B,
        "complete": B,
    },
    "outcomes": {
        "game_id": S, "player": S, "seat": I, "starting_city": S, "starting_territory": S,
        "opening_bid": I, "first_player": B, "won": B, "win_share": F, "finished": B,
        "rounds": I, "reason": S, "crowns": I, "territories": I, "eliminated": B,
    },
    **LEGACY_COLUMNS,
}
TABLES = tuple(COLUMNS)

# why a die was rolled (dice.why)
ROLL_OFF, SIEGE_ASSAULT, BATTLE, CASTLE_REROLL = (
    "roll-off", "siege assault", "battle", "castle re-roll")
# how a battle ended (battles.outcome)
ATTACKER_TAKES, DEFENDER_HOLDS, BOTH_ELIMINATED, UNFINISHED = (
    "attacker takes", "defender holds", "both eliminated", "unfinished")
BONUS_EVENTS = frozenset({"Fortified", "SiegeAssaulted"})


@dataclass
class GameRows:
    """The analytics rows of one game, by table (tuples in COLUMNS order)."""

    game_id: str | None
    tables: dict[str, list[tuple]] = field(default_factory=lambda: {t: [] for t in TABLES})

    def frame(self, table: str) -> pl.DataFrame:
        return rows_frame(table, self.tables[table])

    @property
    def count(self) -> int:
        return sum(len(rows) for rows in self.tables.values())


def rows_frame(table: str, rows: list[tuple]) -> pl.DataFrame:
    """Rows of `table` (tuples in COLUMNS order) as a polars DataFrame with its schema."""
    return pl.DataFrame(rows, schema=COLUMNS[table], orient="row")


def extract_rows(read: LogRead, *, data: Any = None, policy: Policy = DEFAULT_POLICY) -> GameRows:
    """The analytics rows of one read log (none when the game cannot be judged from its start).

    `data`: the board/card data to fold with (default: the ruleset's shipped data), as for judge.
    """
    events = read.events
    rows = GameRows(events[0].game if events else None)
    name = _ruleset_of(read)
    if name is None or name not in ruleset_names():
        return rows
    rs = get_ruleset(name)
    try:
        start = rs.payload_models[rs.start_event].model_validate(events[0].payload)
    except ValidationError:
        return rows
    data = rs.default_data() if data is None else data
    if any(v.blocking for v in rs.check_start(start, data)):
        return rows
    state = rs.initial_state(start, data)
    if rs.reveal_seed is not None:
        seeds = [e.payload.get("seed") for e in events if e.type == "SeedRevealed"
                 and isinstance(e.payload, dict) and isinstance(e.payload.get("seed"), str)]
        if seeds:
            state = rs.reveal_seed(state, seeds[-1])
    fold = _fold(name, rows, policy)
    models = rs.payload_models
    for raw in events[1:]:
        model = models.get(raw.type)
        if model is None:
            continue
        try:
            payload = model.model_validate(raw.payload)
        except ValidationError:
            continue
        _, after = rs.step(state, Event(raw.seq, raw.type, raw.actor, payload))
        if after is None:
            continue
        fold.observe(state, after, raw.seq, raw.type, payload)
        state = after
    final = rs.conclude(state)
    if final is not state:
        fold.observe(state, final, events[-1].seq, "", None)
    fold.finish(final)
    return rows


def judge_with_rows(read: LogRead, *, data: Any = None, policy: Policy = DEFAULT_POLICY):
    """Judge a log and take its analytics rows from the same fold (one pass, as ingest wants):
    (Judgement, GameRows). Rows for the rulesets extract_rows reads (Risk Europe, Risk Legacy)."""
    from replay.judge import judge

    events = read.events
    rows = GameRows(events[0].game if events else None)
    name = _ruleset_of(read)
    fold = _fold(name, rows, policy) if name in FOLDS else None
    j = judge(read, data=data, keep_steps=False, observer=fold)
    if fold is not None and j.final_state is None:      # the start could not be judged: no rows
        rows = GameRows(rows.game_id)
    return j, rows


def _ruleset_of(read: LogRead) -> str | None:
    """The ruleset a log's GameStarted names, when it is one with a fold here."""
    events = read.events
    if not events or events[0].type != "GameStarted" or not isinstance(events[0].payload, dict):
        return None
    name = events[0].payload.get("ruleset")
    return name if name in FOLDS else None


def _fold(ruleset: str, rows: GameRows, policy: Policy):
    return _Fold(rows, policy) if ruleset == "risk-europe" else FOLDS[ruleset](rows)


def _seat(s: State, player: str) -> int | None:
    return s.seats.index(player) if player in s.seats else None


class _Fold:
    """Reads rows off each (state before, state after) pair of an applied event."""

    def __init__(self, rows: GameRows, policy: Policy):
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
        fight, self.battle = self.battle, None
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
        o = battle_odds(att, dfn, castle, self.policy)
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

    def _snapshot(self, s: State, round_: int, complete: bool) -> None:
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


# the ruleset -> the reader of its fold (observe / finish)
FOLDS = {"risk-europe": _Fold, "risk-legacy": LegacyFold}
