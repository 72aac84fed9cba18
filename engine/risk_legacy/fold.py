"""The analytics rows of one Risk Legacy game, read off the engine's fold (RULESET.fold and
RULESET.projections; docs/analytics.md, "Risk Legacy").

    fold = LegacyFold(rows)                # rows.tables: table -> list of tuples (engine.core.projection.Rows)
    fold.observe(before, after, seq, type, payload)   # each event that changed the state
    fold.finish(final)                     # the state the log ends in

Every row is read from the structured states before and after an event (`flow`, `combat`,
`terr`, `players`, `world`), with the engine's own questions (`stars`, `roll_result`,
`defence_modifiers`...); never from its notes. The tables (PROJECTIONS; columns in LEGACY_COLUMNS):

- legacy_outcomes: one row per player: faction, starting power, HQ, place in the turn order,
  won, Red Stars at the end, knocked out (by whom), troops recruited, Missiles used, the reward.
- legacy_battles: one row per attack roll: the dice, the modifiers, the troops lost, the roll's
  luck in troops against the exact odds when the dice are unmodified, and the luck of the whole
  attack: a run of rolls on one territory from one territory (`battle_seq`, its first
  AttackDeclared) until the attacker takes it or stops. Each roll's `take_luck` is what its dice
  did to the attacker's chance of taking the territory (engine.risk_legacy.odds.roll_luck, every
  modifier and power counted, Missiles not: they are choices); the attack's `battle_luck`, on its
  last roll, is their sum: for an attack fought with all its dice to the conquest or the last
  troop, (1 if taken else 0) - P(take) at its start.
- legacy_games: one row per game: campaign, game number, winner and reward, and the world the
  game leaves (cities, scars, fortifications, named continents...), so a campaign can be charted.
- dice (shared with Risk Europe): the roll-offs, every attack roll and the world-naming roll-off.

Pure: no I/O. A roll the log ends on before its troops are removed makes no battle row. The rows of an attack
still going on are held back until it ends (or the log does), so its last row can carry the
attack's luck.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.core.projection import Projection
from engine.core.tables import DICE
from engine.risk_legacy import world as W
from engine.risk_legacy.combat import FORTIFICATION, casualties
from engine.risk_legacy.common import _mech_hq
from engine.risk_legacy.engine import defence_modifiers, has_power, hqs_of, roll_result, stars
from engine.risk_legacy.odds import NEVER_WEARS, Battle, roll_luck
from engine.risk_legacy.state import Combat, State

S, I, F, B, J = "str", "int", "float", "bool", "json"

LEGACY_COLUMNS: dict[str, dict[str, str]] = {
    "legacy_outcomes": {
        "game_id": S, "player": S, "seat": I, "turn_order": I, "faction": S, "power": S,
        "hq_territory": S, "signatures_before": I, "finished": B, "won": B, "win_share": F,
        "outcome": S, "reason": S, "rounds": I, "red_stars": I, "red_star_tokens": I, "hqs": I,
        "red_stars_bought": I, "missions_completed": I, "knocked_out": B, "knocked_out_by": S,
        "knocked_out_round": I, "eliminated": B, "joined_war": I, "troops_recruited": I,
        "territories": I, "troops": I, "missiles_at_start": I, "missiles_used": I,
        "scars_placed": I, "reward": S, "reward_detail": S,
    },
    "legacy_battles": {
        "game_id": S, "seq": I, "roll_seq": I, "round": I, "attacker": S, "defender": S,
        "attacker_faction": S, "defender_faction": S, "from_territory": S, "territory": S,
        "hq": B, "attacker_dice": I, "defender_dice": I, "attacker_faces": J,
        "defender_faces": J, "attacker_final": J, "defender_final": J, "modifiers": S,
        "missiles": I, "modified": B, "power_effect": S, "attacker_lost": I, "defender_lost": I,
        "conquered": B, "expected_attacker_lost": F, "expected_defender_lost": F,
        "attacker_luck": F, "defender_luck": F, "attacker_troops": I, "defender_troops": I,
        "battle_seq": I, "p_take": F, "take_luck": F, "battle_luck": F,
    },
    "legacy_games": {
        "game_id": S, "campaign": S, "game_no": I, "players": I, "finished": B, "winner": S,
        "winner_faction": S, "winner_power": S, "reason": S, "rounds": I, "reward": S,
        "reward_detail": S, "minor_cities": I, "major_cities": I, "cities": I,
        "cities_founded": I, "scars": I, "scars_placed": I, "scars_cancelled": I,
        "fortifications": I, "fortification_boxes": I, "named_continents": I,
        "continent_marks": I, "destroyed_cards": I, "card_resources": I, "signatures": I,
        "packs_opened": I, "world_name": S, "world_before": S, "world_after": S,
    },
}

PROJECTIONS: tuple[Projection, ...] = (
    Projection("legacy_outcomes", LEGACY_COLUMNS["legacy_outcomes"], ("game_id", "player"),
               "one row per player: faction, power, HQ, the result, what the player did"),
    Projection("legacy_battles", LEGACY_COLUMNS["legacy_battles"], ("game_id", "seq"),
               "one row per attack roll: dice, modifiers, losses, luck against the exact odds "
               "(the roll's, and the whole attack's on its last roll)"),
    Projection("legacy_games", LEGACY_COLUMNS["legacy_games"], ("game_id",),
               "one row per game: campaign, number, winner, reward, the world it leaves"),
    DICE,
)

CLASSIC_MAX_DICE = (3, 2)    # attacker, defender

# why legacy dice were rolled (dice.why)
ROLL_OFF, ATTACK, WORLD_NAMING = "roll-off", "attack", "world naming"
THREE_OF_A_KIND = "Enclave three of a kind: the territory falls"
DOUBLE_SIXES = "Die Mechaniker double sixes: immune this turn"


@lru_cache(maxsize=None)
def _expected_losses(attacker_dice: int, defender_dice: int) -> tuple[float, float]:
    """The exact expected troops each side loses in one unmodified roll: highest die against
    highest, ties to the defender (every one of the 6^n throws counted)."""
    lost_a = lost_d = Fraction(0)
    throws = 6 ** (attacker_dice + defender_dice)
    for faces in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        att = sorted(faces[:attacker_dice], reverse=True)
        dfn = sorted(faces[attacker_dice:], reverse=True)
        for a, d in zip(att, dfn):
            if a > d:
                lost_d += 1
            else:
                lost_a += 1
    return float(lost_a / throws), float(lost_d / throws)


def fold(rows: Any, data: Any = None) -> "LegacyFold":
    """RULESET.fold: the fold that fills `rows` (engine.core.projection.Rows) for one game."""
    return LegacyFold(rows)


def _counts(faces: list[int]) -> list[int]:
    counts = [0] * 6
    for d in faces:
        counts[d - 1] += 1
    return counts


def _troops(s: State) -> dict[str, int]:
    out = dict.fromkeys(s.seats, 0)
    for x in s.terr.values():
        if x.owner is not None:
            out[x.owner] = out.get(x.owner, 0) + x.troops
    return out


def _cities(w: W.World) -> set[str]:
    return {t for t, m in w.territories.items() if m.city is not None}


def _reward_detail(s: State, payload: Any) -> str | None:
    """What a reward names, in words: "East Africa Town in East Africa", "A37 (East Africa)",
    "South America +1", "North America named 'Awesometonia'"."""
    r = payload.reward
    t = s.data.resolve(payload.territory) if payload.territory else None
    where = s.data.names.get(t, payload.territory) if payload.territory else None
    key = (payload.continent or "").casefold().replace(" ", "_")
    continent = s.data.continent_names.get(key, payload.continent)
    card = payload.card or (s.data.card_of.get(t) if t else None)
    if r == "name_continent":
        return f"{continent} named {payload.name!r}"
    if r in ("found_major_city", "found_minor_city"):
        return f"{payload.name} in {where}"
    if r in ("cancel_scar", "fortify_city"):
        return where
    if r == "change_continent_bonus":
        return f"{continent} {payload.modifier:+d}" if payload.modifier else continent
    if r in ("destroy_card", "upgrade_card") and card:
        c = s.data.resolve_card(card)
        home = s.data.territory_of_card.get(c) if c else None
        return f"{c or card} ({s.data.names[home]})" if home else card
    return None


@dataclass
class _Attack:
    """An attack going on: its rolls' rows, held back until it ends (`LegacyFold._close_attack`)."""

    seq: int                           # its first AttackDeclared: the rows' battle_seq
    attacker: str
    frm: str
    to: str
    left: tuple[int, int] | None = None   # troops (attacking territory, defended) after its last roll
    rows: list[tuple] = field(default_factory=list)
    lucks: list[float | None] = field(default_factory=list)


# the events of one roll of an attack under way; any other event that changes the state ends it
_WITHIN_A_ROLL = frozenset({"ScarPlaced", "DiceRolled", "MissileFired", "CasualtiesRemoved"})


class LegacyFold:
    """Reads the Risk Legacy rows off each (state before, state after) pair of an event."""

    attack: _Attack | None = None      # a class default: a fold pickled before attacks were kept

    def __init__(self, rows: Any):
        self.t = rows.tables
        self.game = rows.game_id
        self.start: State | None = None               # the state before the first event
        self.attack_seq: int | None = None             # the AttackDeclared of the combat
        self.roll_seq: int | None = None               # its DiceRolled
        self.per: dict[str, dict[str, Any]] = {}       # player -> counters
        self.rewards: dict[str, tuple[str, str | None]] = {}

    def _player(self, p: str) -> dict[str, Any]:
        return self.per.setdefault(p, {"bought": 0, "missions": 0, "knocked_by": None,
                                       "knocked_round": None, "knocked": False, "joined": 0,
                                       "recruited": 0, "missiles": 0, "scars": 0})

    # -- one event

    def observe(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        if self.start is None:
            self.start = before
        cb = before.combat
        if cb is not None and cb.stage == "rolled" and not (
                after.combat is not None and after.combat.stage == "rolled"):
            self._roll_resolved(before, after)
        if kind == "AttackDeclared" and after.combat is not None \
                and after.combat.stage == "declared":
            self.attack_seq = seq
            self._declared(after, after.combat, seq)
        elif self.attack is not None and kind not in _WITHIN_A_ROLL:
            self._close_attack()
        if kind == "DiceRolled":
            self._dice(before, after, seq, payload)
        elif kind == "WorldNamed" and payload.rolls:
            self._dice_rows(before, seq, WORLD_NAMING, payload.rolls, None, None)
        if after.terr is not before.terr and (after.flow.phase == "turn"
                                              or before.flow.phase == "turn"):
            self._knock_outs(before, after)
        actor = None
        if kind in _ACTED:
            actor = _ACTED[kind](before, after, payload)
        if actor is not None:
            self._acted(kind, actor, before, after, payload)

    def _dice(self, before: State, after: State, seq: int, payload: Any) -> None:
        if before.flow.phase in ("setup", "rolloff"):
            self._dice_rows(before, seq, ROLL_OFF, payload.rolls, None, None)
        elif (before.combat is not None and before.combat.stage == "declared"
              and after.combat is not None and after.combat.stage == "rolled"):
            self.roll_seq = seq
            self._dice_rows(before, seq, ATTACK, payload.rolls, before.combat.to,
                            self.attack_seq)

    def _dice_rows(self, s: State, seq: int, why: str, rolls: dict[str, list[int]],
                   territory: str | None, battle_seq: int | None) -> None:
        order = [p for p in s.seats if p in rolls] + sorted(p for p in rolls if p not in s.seats)
        for p in order:
            faces = rolls[p]
            if not faces:
                continue
            seat = s.seats.index(p) if p in s.seats else None
            self.t["dice"].append((self.game, seq, s.flow.round, p, seat, why, None, territory,
                                   battle_seq, len(faces), json.dumps(faces), *_counts(faces)))

    def _roll_resolved(self, before: State, after: State) -> None:
        cb = before.combat
        att, dfn = cb.rolls
        mods = defence_modifiers(before, cb)
        final_a, final_d, a_lost, d_lost = roll_result(before, cb)
        held = before.terr[cb.to]
        now = after.terr[cb.to]
        taken = after.combat if after.combat is not None and after.combat.to == cb.to else None
        conquered = now.owner == cb.attacker or (taken is not None and taken.stage == "conquered")
        defender_lost = held.troops - (now.troops if now.owner == cb.defender else 0)
        effects = []
        if defender_lost > d_lost:
            effects.append(THREE_OF_A_KIND)
        if cb.to in after.flow.immune and cb.to not in before.flow.immune:
            effects.append(DOUBLE_SIXES)
        modified = bool(mods or cb.missiles)
        odds: tuple = (None,) * 4
        most_a, most_d = CLASSIC_MAX_DICE
        if not modified and 1 <= len(att) <= most_a and 1 <= len(dfn) <= most_d:
            expected_a, expected_d = _expected_losses(len(att), len(dfn))
            # luck is the dice's: the troops their comparison removed (a power's extra removal,
            # the Enclave's three of a kind, is not luck)
            dice_a, _ = casualties(sorted(att, reverse=True), sorted(dfn, reverse=True))
            luck = expected_a - dice_a
            odds = (expected_a, expected_d, luck, -luck)
        players = before.players
        take = self._take_luck(before, cb)
        self._attack_row(before, after, cb, conquered, (

            self.game, self.attack_seq, self.roll_seq, before.flow.round, cb.attacker,
            cb.defender, players[cb.attacker].faction, players[cb.defender].faction, cb.frm, cb.to,
            held.hq is not None, len(att), len(dfn), json.dumps(list(att)), json.dumps(list(dfn)),
            json.dumps(final_a), json.dumps(final_d),
            "; ".join(f"{m.source} {m.delta:+d} {m.die}" for m in mods) or None,
            len(cb.missiles), modified, "; ".join(effects) or None, a_lost, defender_lost,
            conquered, *odds), take)

    # -- attacks: runs of rolls on one territory

    def _declared(self, s: State, cb: Combat, seq: int) -> None:
        """An attack declared (`s`: the state it leaves): the next roll of the attack going on
        (same attacker, from the same territory on the same one, troops as its last roll left
        them), or a new attack."""
        a = self.attack
        if a is not None and (a.attacker, a.frm, a.to) == (cb.attacker, cb.frm, cb.to) \
                and a.left == (s.terr[cb.frm].troops, s.terr[cb.to].troops):
            return
        self._close_attack()
        self.attack = _Attack(seq, cb.attacker, cb.frm, cb.to)

    def _take_luck(self, before: State, cb: Combat):
        """The roll's luck in chances of taking the territory (odds.roll_luck), or None where there
        are no odds (troops or dice the rules do not allow: a log judged leniently)."""
        mods = defence_modifiers(before, cb)
        boxes = 0
        if FORTIFICATION in mods:
            boxes = NEVER_WEARS if _mech_hq(before, cb) else W.fortification_boxes_left(before.world, cb.to)
        try:
            battle = Battle(before.terr[cb.frm].troops, before.terr[cb.to].troops,
                            defender_modifiers=tuple(m for m in mods if m != FORTIFICATION),
                            fortification=boxes,
                            three_of_a_kind=has_power(before, cb.attacker, "bear-three-of-a-kind"),
                            double_sixes=has_power(before, cb.defender, "mech-double-sixes"))
        except ValueError:
            return None
        return roll_luck(battle, *cb.rolls)

    def _attack_row(self, before: State, after: State, cb: Combat, conquered: bool, row: tuple,
                    take) -> None:
        a = self.attack
        if a is None or (a.attacker, a.frm, a.to) != (cb.attacker, cb.frm, cb.to):
            a = self.attack = _Attack(self.attack_seq, cb.attacker, cb.frm, cb.to)
        luck = None if take is None else take.luck
        a.rows.append((*row, before.terr[cb.frm].troops, before.terr[cb.to].troops, a.seq,
                       None if take is None else take.before, luck))
        a.lucks.append(luck)
        a.left = (after.terr[cb.frm].troops, after.terr[cb.to].troops)
        immune = cb.to in after.flow.immune and cb.to not in before.flow.immune
        if conquered or immune or a.left[0] <= 1 or after.terr[cb.frm].owner != cb.attacker:
            self._close_attack()

    def _close_attack(self, keep: bool = False) -> None:
        """The attack is over: its rows go out, the last with the attack's luck (the sum of its
        rolls', None if one of them has no odds). `keep`: at the log's end (`finish`), the rows
        go out and the attack stays open, so a live game fed more events goes on with it
        (engine.core.projection.Fold: `finish` changes nothing later rows depend on)."""
        a = self.attack
        if not keep:
            self.attack = None
        if a is None or not a.rows:
            return
        total = None if None in a.lucks else sum(a.lucks)
        self.t["legacy_battles"].extend(row + (None,) for row in a.rows[:-1])
        self.t["legacy_battles"].append(a.rows[-1] + (total,))

    def _knock_outs(self, before: State, after: State) -> None:
        """Players whose last troops this event removed (only owners of a changed territory can
        be: they are the ones counted)."""
        new = after.terr
        losing = {x.owner for t, x in before.terr.items()
                  if new[t] is not x and x.owner is not None and x.troops > 0}
        if not losing:
            return
        now = dict.fromkeys(losing, 0)
        for x in new.values():
            if x.owner in now:
                now[x.owner] += x.troops
        for p in sorted(losing):
            if now[p] == 0 and p in before.players and not before.players[p].eliminated:
                row = self._player(p)
                if not row["knocked"]:
                    row["knocked"] = True
                    row["knocked_by"] = before.combat.attacker if before.combat else None
                    row["knocked_round"] = before.flow.round

    def _acted(self, kind: str, p: str, before: State, after: State, payload: Any) -> None:
        row = self._player(p)
        if kind == "RedStarBought":
            row["bought"] += 1
        elif kind == "MissionCompleted":
            row["missions"] += 1
        elif kind == "JoinedWar":
            row["joined"] += 1
        elif kind == "Recruited":
            row["recruited"] += sum(payload.placements.values())
        elif kind == "MissileFired":
            row["missiles"] += 1
        elif kind == "ScarPlaced":
            row["scars"] += 1
        elif kind == "RewardChosen":
            detail = None if payload.reward == "pass" else _reward_detail(before, payload)
            self.rewards[p] = (payload.reward, detail)

    # -- the end of the log

    def finish(self, s: State) -> None:
        """The rows of the log's end (outcomes, the game); the fold may observe more after."""
        self._close_attack(keep=True)     # an attack still going on: its rows so far
        if s.flow.round < 1 or self.start is None:      # the log ended before the first turn
            return
        result = s.result
        winners = result.winners if result is not None else ()
        rounds = result.round if result is not None else s.flow.round
        start_world = self.start.world
        troops = _troops(s)
        for seat, p in enumerate(s.seats):
            ps = s.players[p]
            row = self._player(p)
            reward, detail = self.rewards.get(p, (None, None))
            self.t["legacy_outcomes"].append((
                self.game, p, seat, s.flow.order.index(p) if p in s.flow.order else None,
                ps.faction, s.world.powers.get(ps.faction) if ps.faction else None, ps.start,
                W.signatures_of(start_world, p), result is not None, p in winners,
                1.0 / len(winners) if p in winners else 0.0,
                s.outcomes.get(p) if s.outcomes else None,
                result.reason if result is not None else None, rounds, stars(s, p), ps.tokens,
                len(hqs_of(s, p)), row["bought"], row["missions"], row["knocked"],
                row["knocked_by"], row["knocked_round"],
                ps.eliminated or (s.outcomes or {}).get(p) == "eliminated", row["joined"],
                row["recruited"], sum(1 for x in s.terr.values() if x.owner == p),
                troops.get(p, 0),
                self.start.players[p].missiles, row["missiles"], row["scars"], reward, detail))
        self._game_row(s, winners, rounds)

    def _game_row(self, s: State, winners: tuple[str, ...], rounds: int) -> None:
        w, w0 = s.world, self.start.world
        marks = list(w.territories.values())
        kinds = [m.city.kind for m in marks if m.city is not None]
        winner = winners[0] if len(winners) == 1 else None
        faction = s.players[winner].faction if winner else None
        reward, detail = self.rewards.get(winner, (None, None)) if winner else (None, None)
        self.t["legacy_games"].append((
            self.game, s.campaign, s.game_no, len(s.seats), s.result is not None,
            " and ".join(winners) or None, faction, w.powers.get(faction) if faction else None,
            s.result.reason if s.result is not None else None, rounds, reward, detail,
            kinds.count("minor"), kinds.count("major"), len(kinds), len(_cities(w) - _cities(w0)),
            sum(1 for m in marks if m.scar is not None),
            sum(r["scars"] for r in self.per.values()),
            sum(m.scar_cancelled for m in marks),
            sum(1 for t in w.territories if W.is_fortified(w, t)),
            sum(m.fortification or 0 for m in marks),
            sum(1 for c in w.continents.values() if c.name),
            sum(1 for c in w.continents.values() if c.modifier),
            len(w.destroyed), sum(w.resources.values()), len(w.signatures), len(w.packs), w.name,
            s.world_start, W.world_digest(w)))


def _tokens_up(before: State, after: State, payload: Any) -> str | None:
    for p in before.seats:
        if after.players[p].tokens > before.players[p].tokens:
            return p
    return None


def _recruited(before: State, after: State, payload: Any) -> str | None:
    """The recruiting player, when the Recruited event was carried out (a turn the log did not
    end may have been ended first: RL-RULING-IMPLICIT-STEPS)."""
    f0, f1 = before.flow, after.flow
    if f1.recruited and (not f0.recruited or f0.current != f1.current):
        return f1.current
    return None


def _joined(before: State, after: State, payload: Any) -> str | None:
    was, now = _troops(before), _troops(after)
    p = after.flow.current
    return p if p is not None and was.get(p, 0) == 0 and now.get(p, 0) > 0 else None


def _missile(before: State, after: State, payload: Any) -> str | None:
    for p in before.seats:
        if after.players[p].missiles < before.players[p].missiles:
            return p
    return None


def _scar(before: State, after: State, payload: Any) -> str | None:
    for p in before.seats:
        if before.players[p].scar is not None and after.players[p].scar is None:
            return p
    return None


def _reward(before: State, after: State, payload: Any) -> str | None:
    f0, f1 = before.flow, after.flow
    if f0.phase == "rewards" and f0.choosers and (f1.choosers != f0.choosers
                                                   or f1.phase != "rewards"):
        return f0.choosers[0]
    return None


# which player an applied event was carried out for (None: the event changed nothing of its own)
_ACTED = {"RedStarBought": _tokens_up, "MissionCompleted": _tokens_up, "Recruited": _recruited,
          "JoinedWar": _joined, "MissileFired": _missile, "ScarPlaced": _scar,
          "RewardChosen": _reward}
