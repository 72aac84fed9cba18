"""The analytics rows of one Warrior Knights game, read off the engine's fold (RULESET.fold and
RULESET.projections; docs/analytics.md, "Warrior Knights").

    fold = WarriorFold(rows)               # rows.tables: table -> list of tuples (engine.core.projection.Rows)
    fold.observe(before, after, seq, type, payload)   # each event that changed the state
    fold.finish(final)                     # the state the log ends in

Every row is read from the structured states before and after an event (`barons`, `cities`,
`battle`, `assembly`, `expeditions`) and the event's payload; never from the notes. The tables
(PROJECTIONS; columns in WK_COLUMNS):

- wk_outcomes: one row per Baron: seat and colour, the result, Influence, crowns and Faith at
  the end, cities held at the end and at most, cities taken, battles fought and won, Nobles lost,
  the Assembly (votes cast, Agendas decided as he voted, charges and offices he received) and
  his expeditions (crowns staked, what came back).
- wk_battles: one row per battle (open field, city or stronghold assault, siege): where, who
  against whom, casualties and breaches, Nobles lost, retreats, the city taken or razed, the winner.
- wk_agendas: one row per Agenda (or private motion) voted on: the votes cast, the outcome, a
  tie the Chairman broke. wk_votes: one row per Baron revealing votes for it.
- wk_expeditions: one row per Baron's stake in an expedition: crowns staked, the crowns,
  Influence and Faith it brought back, how it ended (returned, lost, under way).
- wk_games: one row per game: players, data, winner, how it was won, rounds.

Pure: no I/O. `finish` writes the rows of what the log ends in the middle of (a battle, an
expedition under way) and the outcomes, without changing what later rows depend on.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core.projection import Projection
from engine.warrior_knights.assembly import PRIVATE, _current
from engine.warrior_knights.state import State

S, I, F, B = "str", "int", "float", "bool"

WK_COLUMNS: dict[str, dict[str, str]] = {
    "wk_outcomes": {
        "game_id": S, "player": S, "seat": I, "colour": S, "players": I, "finished": B, "won": B,
        "win_share": F, "reason": S, "rounds": I, "influence": I, "crowns": I, "faith": I,
        "cities_end": I, "cities_most": I, "cities_taken": I, "battles": I, "battles_won": I,
        "nobles_lost": I, "votes_cast": I, "agendas_voted": I, "agendas_carried": I,
        "charges": I, "offices": I, "expeditions": I, "expedition_stake": I,
        "expedition_crowns": I, "expedition_influence": I, "stronghold_standing": B,
    },
    "wk_battles": {
        "game_id": S, "seq": I, "round": I, "area": S, "kind": S, "city": S, "attacker": S,
        "defender": S, "attacker_casualties": I, "defender_casualties": I, "breaches": I,
        "attacker_nobles_lost": I, "defender_nobles_lost": I, "retreats": I, "city_taken": B,
        "razed": B, "winner": S, "ended": B,
    },
    "wk_agendas": {
        "game_id": S, "seq": I, "round": I, "agenda": S, "title": S, "kind": S, "private": B,
        "voters": I, "votes": I, "outcome": S, "outcome_votes": I, "tie": B, "chairman": S,
    },
    "wk_votes": {
        "game_id": S, "seq": I, "agenda": S, "player": S, "votes": I, "choice": S, "carried": B,
    },
    "wk_expeditions": {
        "game_id": S, "seq": I, "round": I, "expedition": S, "player": S, "stake": I, "blessed": B,
        "crowns_back": I, "influence_back": I, "faith_back": I, "draws": I, "ended": S,
    },
    "wk_games": {
        "game_id": S, "players": I, "finished": B, "winner": S, "reason": S, "rounds": I,
        "board": S, "cards": S, "example_data": B, "battles": I, "agendas": I, "expeditions": I,
    },
}

PROJECTIONS: tuple[Projection, ...] = (
    Projection("wk_outcomes", WK_COLUMNS["wk_outcomes"], ("game_id", "player"),
               "one row per Baron: the result, cities, battles, the Assembly, expeditions"),
    Projection("wk_battles", WK_COLUMNS["wk_battles"], ("game_id", "seq"),
               "one row per battle: where, who, casualties, Nobles lost, the city taken, the winner"),
    Projection("wk_agendas", WK_COLUMNS["wk_agendas"], ("game_id", "seq"),
               "one row per Agenda voted on: votes, the outcome, a tie broken"),
    Projection("wk_votes", WK_COLUMNS["wk_votes"], ("game_id", "seq", "player"),
               "one row per Baron revealing votes on an Agenda: how many, his choice, carried"),
    Projection("wk_expeditions", WK_COLUMNS["wk_expeditions"], ("game_id", "seq", "player"),
               "one row per stake in an expedition: crowns staked, what came back, how it ended"),
    Projection("wk_games", WK_COLUMNS["wk_games"], ("game_id",),
               "one row per game: players, the data judged with, winner and reason, rounds"),
)


def fold(rows: Any, data: Any = None) -> "WarriorFold":
    """RULESET.fold: the fold that fills `rows` (engine.core.projection.Rows) for one game."""
    return WarriorFold(rows, data)


def _cities_held(s: State) -> dict[str, int]:
    out = dict.fromkeys(s.seats, 0)
    for cs in s.cities.values():
        if cs.owner in out and not cs.razed:
            out[cs.owner] += 1
    return out


class _Battle:
    def __init__(self, seq: int, s: State):
        b = s.battle
        self.seq, self.round = seq, s.flow.round
        self.area, self.kind, self.city = b.area, b.kind, b.city
        self.attacker, self.defender = b.attacker.baron, b.defender.baron or "neutral"
        self.casualties = {"attacker": 0, "defender": 0}
        self.lost = {"attacker": 0, "defender": 0}
        self.breaches = self.retreats = 0
        self.out: set[str] = set()         # sides that retreated or lost a Noble
        self.taken = self.razed = False

    def side(self, actor: str | None) -> str:
        return "attacker" if actor == self.attacker else "defender"

    def row(self, game: str, ended: bool) -> tuple:
        if self.taken:
            winner = self.attacker
        elif self.out == {"attacker"}:
            winner = self.defender
        elif self.out == {"defender"} and self.kind == "field":
            winner = self.attacker
        elif self.kind != "field" and ended and "attacker" not in self.out:
            winner = None if self.kind == "siege" else self.defender
        else:
            winner = None
        return (game, self.seq, self.round, self.area, self.kind, self.city, self.attacker,
                self.defender, self.casualties["attacker"], self.casualties["defender"],
                self.breaches, self.lost["attacker"], self.lost["defender"], self.retreats,
                self.taken, self.razed, winner, ended)


class WarriorFold:
    def __init__(self, rows: Any, data: Any = None):
        self.t = rows.tables
        self.game = rows.game_id
        self.per: dict[str, dict[str, int]] = {}
        self.battle: _Battle | None = None
        self.battles = 0
        self.agenda: dict | None = None
        self.agendas = 0
        self.voyages: dict[str, list[dict]] = {}
        self.expeditions = 0

    def _p(self, seat: str) -> dict[str, int]:
        return self.per.setdefault(seat, {k: 0 for k in (
            "cities_most", "cities_taken", "battles", "battles_won", "nobles_lost", "votes_cast",
            "agendas_voted", "agendas_carried", "charges", "offices", "expeditions",
            "expedition_stake", "expedition_crowns", "expedition_influence")})

    # -- each event -------------------------------------------------------------------------------

    def observe(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        for seat, n in _cities_held(after).items():
            p = self._p(seat)
            p["cities_most"] = max(p["cities_most"], n)
        self._battle(before, after, seq, kind, payload)
        self._assembly(before, after, seq, kind, payload)
        self._expedition(before, after, seq, kind, payload)
        for seat in after.seats:
            b0, b1 = before.barons.get(seat), after.barons[seat]
            if b0 is not None and len(b1.charges) > len(b0.charges):
                self._p(seat)["charges"] += len(b1.charges) - len(b0.charges)
        for nid, n in after.nobles.items():
            was = before.nobles.get(nid)
            if n.office and (was is None or was.office != n.office):
                self._p(n.owner)["offices"] += 1

    def _battle(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        if before.battle is None and after.battle is not None:
            self.battle = _Battle(seq, after)
        bt = self.battle
        if bt is None:
            return
        if kind == "CasualtiesAssigned":
            who = self._assigned_side(before, after) or "attacker"
            bt.casualties[who] += sum(payload.tokens.values())
            bt.breaches += payload.breaches
        elif kind == "NobleLost":
            who = bt.side(before.nobles[payload.noble].owner if payload.noble in before.nobles else None)
            bt.lost[who] += 1
            bt.out.add(who)
            owner = before.nobles[payload.noble].owner if payload.noble in before.nobles else None
            if owner:
                self._p(owner)["nobles_lost"] += 1
        elif kind == "Retreated":
            owner = before.nobles[payload.noble].owner if payload.noble in before.nobles else None
            bt.retreats += 1
            bt.out.add(bt.side(owner))
        elif kind == "CityTaken":
            bt.taken, bt.razed = True, bool(payload.raze)
            self._p(bt.attacker)["cities_taken"] += 1
        elif kind == "StrongholdCityGiven" and payload.city is not None:
            bt.taken = True
        if before.battle is not None and after.battle is None:
            row = bt.row(self.game, True)
            self.t["wk_battles"].append(row)
            self.battles += 1
            for seat in (bt.attacker, bt.defender):
                if seat in after.barons:
                    self._p(seat)["battles"] += 1
            if row[-2] in after.barons:
                self._p(row[-2])["battles_won"] += 1
            self.battle = None

    @staticmethod
    def _assigned_side(before: State, after: State) -> str | None:
        """Which side's casualties an assignment was: the side newly marked assigned."""
        b0 = before.battle
        b1 = after.battle
        if b0 is None:
            return None
        for side in ("attacker", "defender"):
            s0 = getattr(b0, side)
            s1 = getattr(b1, side) if b1 is not None else None
            if not s0.assigned and (s1 is None or s1.assigned):
                return side
        return None

    def _assembly(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        if kind not in ("VotesRevealed", "VoteDeclared", "TieBroken"):
            return
        agenda = payload.agenda
        a = self.agenda
        if a is None or a["agenda"] != agenda or a.get("done"):
            a = self.agenda = {"agenda": agenda, "seq": seq, "round": before.flow.round,
                               "votes": {}, "choices": {}, "tie": None,
                               "chairman": before.assembly.chairman if before.assembly else None}
        if kind == "VotesRevealed":
            a["votes"][self._revealer(before, after, agenda)] = payload.votes
        elif kind == "VoteDeclared":
            a["choices"][before.flow.current] = payload.choice
        else:
            a["tie"] = payload.choice
        still = (after.assembly is not None and after.assembly.step in ("hide", "declare", "tie")
                 and _current(after) == agenda)
        if not still:
            self._agenda_decided(after, a)

    @staticmethod
    def _revealer(before: State, after: State, agenda: str) -> str | None:
        """The Baron whose votes an event revealed: the one whose vote is newly shown, or the
        last attending Baron who had not shown his."""
        a0, a1 = before.assembly, after.assembly
        if a0 is None:
            return None
        waiting = [q for q in a0.attending
                   if a0.votes.get(f"{agenda}|{q}") is None or a0.votes[f"{agenda}|{q}"].votes is None]
        if a1 is not None:
            shown = [q for q in waiting if a1.votes.get(f"{agenda}|{q}") is not None
                     and a1.votes[f"{agenda}|{q}"].votes is not None]
            if len(shown) == 1:
                return shown[0]
        return waiting[0] if len(waiting) == 1 else None

    def _agenda_decided(self, after: State, a: dict) -> None:
        a["done"] = True
        totals: dict[str, int] = {}
        for seat, choice in a["choices"].items():
            totals[choice] = totals.get(choice, 0) + a["votes"].get(seat, 0)
        if a["tie"] is not None:
            outcome = a["tie"]
        elif totals:
            outcome = max(sorted(totals), key=lambda c: totals[c])
        else:
            outcome = None
        card = after.agenda_cards.get(a["agenda"])
        private = a["agenda"] == PRIVATE
        self.t["wk_agendas"].append((
            self.game, a["seq"], a["round"], a["agenda"],
            "private motion" if private else getattr(card, "title", None),
            "private" if private else getattr(card, "kind", None), private,
            len(a["votes"]), sum(a["votes"].values()), outcome, totals.get(outcome, 0) if outcome else 0,
            a["tie"] is not None, a["chairman"]))
        self.agendas += 1
        for seat, n in a["votes"].items():
            if seat is None:
                continue
            choice = a["choices"].get(seat)
            carried = choice is not None and choice == outcome
            self.t["wk_votes"].append((self.game, a["seq"], a["agenda"], seat, n, choice, carried))
            p = self._p(seat)
            p["votes_cast"] += n
            p["agendas_voted"] += 1 if n else 0
            p["agendas_carried"] += 1 if carried and n else 0

    def _expedition(self, before: State, after: State, seq: int, kind: str, payload: Any) -> None:
        if kind == "ExpeditionFunded" and payload.expedition is not None:
            x = payload.expedition
            e = after.expeditions.get(x)
            if e is not None:
                self.voyages[x] = [{"seq": seq, "round": before.flow.round, "player": p, "stake": n,
                                    "blessed": e.blessed, "crowns": 0, "influence": 0, "faith": 0,
                                    "draws": 0} for p, n in sorted(e.stakes.items())]
                self.expeditions += 1
                for v in self.voyages[x]:
                    p = self._p(v["player"])
                    p["expeditions"] += 1
                    p["expedition_stake"] += v["stake"]
            return
        if kind == "ExpeditionFateDrawn" and payload.expedition in self.voyages:
            x = payload.expedition
            for v in self.voyages[x]:
                b0, b1 = before.barons[v["player"]], after.barons[v["player"]]
                v["crowns"] += b1.crowns - b0.crowns
                v["influence"] += b1.influence - b0.influence
                v["faith"] += b1.faith - b0.faith
                v["draws"] += 1
                p = self._p(v["player"])
                p["expedition_crowns"] += b1.crowns - b0.crowns
                p["expedition_influence"] += b1.influence - b0.influence
            e = after.expeditions.get(x)
            if e is None or not e.spot:
                back = any(v["crowns"] > 0 or v["influence"] > 0 for v in self.voyages[x])
                self._voyage_rows(x, "returned" if back else "lost")
                del self.voyages[x]

    def _voyage_rows(self, x: str, ended: str) -> None:
        for v in self.voyages[x]:
            self.t["wk_expeditions"].append((
                self.game, v["seq"], v["round"], x, v["player"], v["stake"], v["blessed"],
                v["crowns"], v["influence"], v["faith"], v["draws"], ended))

    # -- the end ----------------------------------------------------------------------------------

    def finish(self, final: State) -> None:
        if self.battle is not None:
            self.t["wk_battles"].append(self.battle.row(self.game, False))
        for x in sorted(self.voyages):
            self._voyage_rows(x, "under way")
        r = final.result
        winners = r.winners if r is not None else ()
        held = _cities_held(final)
        for i, seat in enumerate(final.seats):
            b = final.barons[seat]
            p = copy.copy(self._p(seat))
            won = seat in winners
            self.t["wk_outcomes"].append((
                self.game, seat, i + 1, b.color, len(final.seats), r is not None, won,
                (1 / len(winners)) if won else 0.0, r.reason if r is not None else None,
                final.flow.round, b.influence, b.crowns, b.faith, held[seat],
                max(p["cities_most"], held[seat]), p["cities_taken"], p["battles"],
                p["battles_won"], p["nobles_lost"], p["votes_cast"], p["agendas_voted"],
                p["agendas_carried"], p["charges"], p["offices"], p["expeditions"],
                p["expedition_stake"], p["expedition_crowns"], p["expedition_influence"],
                b.stronghold is not None))
        data = final.data
        self.t["wk_games"].append((
            self.game, len(final.seats), r is not None, winners[0] if winners else None,
            r.reason if r is not None else None, final.flow.round, data.board.digest,
            data.cards.digest, bool(data.board.invented or data.cards.invented),
            self.battles + (1 if self.battle is not None else 0), self.agendas,
            self.expeditions))
