"""Seeded bots for Risk Europe: players with some sense, for simulated games.

A bot is asked one question at a time and answers with one of the moves it is offered
(`engine.risk_europe.legal`), or None where the rules let it do nothing (end its turn, keep its
castle dice). It claims unclaimed cities, taxes its biggest supply line, buys Crown Cards when it
can and units (Archers, Cavalry, Siege Weapons) otherwise, builds a castle now and then, attacks
where it is clearly stronger (with a Siege Weapon against a castle), fortifies and reinforces its
threatened cities, siege-assaults its neighbours, loses its cheapest units first and re-rolls
castle dice when that is expected to help.

Every choice draws on the bot's own `random.Random(seed)`, never the global generator, so the
same seed plays the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import product
from typing import Sequence

from engine.risk_europe.engine import COST, RANK_HITS_ON, crown_card_ban, crowns, rank_hits, tax_value
from engine.risk_europe.board import GameData
from engine.risk_europe.legal import Move, card_kinds
from engine.risk_europe.state import PlayerId, State, Units

UNIT_VALUE = {"footman": 1.0, "archer": 1.4, "cavalry": 1.7, "siege": 2.6}
CASTLE_DEFENSE = 1.4        # a castle's re-roll makes its defenders worth this much more
# how much a bot likes keeping this many of a placed city's Footmen in the city itself
PLACEMENT_SHAPE = {10: {7: 2.0, 5: 1.5, 10: 0.5, 3: 0.2}, 5: {4: 2.0, 3: 1.5, 5: 0.5, 2: 0.2}}


def strength(u: Units) -> float:
    """Rough fighting value of a group of units."""
    return (u.footman * UNIT_VALUE["footman"] + u.archer * UNIT_VALUE["archer"]
            + u.cavalry * UNIT_VALUE["cavalry"] + u.siege * UNIT_VALUE["siege"])


def _units(d: dict) -> Units:
    return Units(**d)


_ORDERED: dict[int, tuple[GameData, dict]] = {}


def within_two(data: GameData, t: str) -> set[str]:
    """Territories one or two steps from `t` (and `t` itself when a neighbour leads back)."""
    nb = data.neighbours
    return set(nb[t]).union(*(nb[n] for n in nb[t]))


def ordered_neighbours(data: GameData) -> dict[str, tuple[str, ...]]:
    """Each territory's neighbours in name order: sums of floats over them come out the same on
    every run (a frozenset's order depends on the process's string hashing)."""
    got = _ORDERED.get(id(data))
    if got is None or got[0] is not data:
        got = (data, {t: tuple(sorted(n)) for t, n in data.neighbours.items()})
        _ORDERED[id(data)] = got
    return got[1]


@dataclass(frozen=True)
class Temper:
    """A bot's leanings, drawn once from its seed: how bold, what it likes to buy."""

    attack_ratio: float      # attack with at least this much more strength than the defence
    likes: dict              # unit type -> taste for recruiting it
    castle_rate: float       # how often a castle is on its mind when spending
    garrison: float          # how much of the danger next door its cities keep at home

    @classmethod
    def draw(cls, rng: random.Random) -> "Temper":
        return cls(attack_ratio=rng.uniform(1.05, 1.45),
                   likes={"footman": rng.uniform(0.8, 1.2), "archer": rng.uniform(0.8, 1.4),
                          "cavalry": rng.uniform(0.8, 1.4), "siege": rng.uniform(0.8, 1.5)},
                   castle_rate=rng.uniform(0.15, 0.45),
                   garrison=rng.uniform(0.6, 1.0))


@dataclass
class _View:
    """What a bot reads off the board once per decision."""

    s: State
    me: PlayerId
    temper: Temper
    crowns: dict = field(default_factory=dict)     # player -> crowns
    threat: dict = field(default_factory=dict)     # my territory -> enemy strength near it
    target: str | None = None                      # where my armies gather (see `goal`)
    march: dict = field(default_factory=dict)      # territory -> steps to the target
    castle_mood: bool = False                      # would a castle be welcome this time?
    friends: tuple = ()                            # armies that will not attack me (me, my teammate, my Mercenary's controller)
    _need: dict = field(default_factory=dict)

    @classmethod
    def of(cls, s: State, me: PlayerId, temper: Temper) -> "_View":
        v = cls(s, me, temper)
        v.crowns = {p: crowns(s, p) for p in s.seats}
        v.friends = (None, *s.team_of(me)) + ((s.players[me].controller,) if s.is_mercenary(me) else ())
        friends = v.friends
        nb = ordered_neighbours(s.data)
        near: dict[str, float] = {}
        for t, x in s.terr.items():
            if x.owner not in friends:
                near[t] = strength(x.units)
            elif x.attacker not in friends:
                near[t] = strength(x.attacker_units)
        for t, x in s.terr.items():
            if x.owner != me:
                continue
            danger = sum(near.get(n, 0.0) for n in nb[t])
            danger += 0.4 * sum(near.get(k, 0.0) for n in nb[t] if s.terr[n].owner == me
                                for k in nb[n] if k != t)
            if x.attacker not in (None, me):
                danger += 2 * strength(x.attacker_units)
            v.threat[t] = danger
        v.target = v.goal()
        v.march = v.distances(v.target)
        return v

    def defence(self, t: str, units: Units | None = None) -> float:
        x = self.s.terr[t]
        return strength(x.units if units is None else units) * (CASTLE_DEFENSE if x.castle else 1.0)

    def need(self, t: str) -> float:
        """The defence a territory of mine should keep: cities and castles hold a garrison."""
        got = self._need.get(t)
        if got is None:
            s = self.s
            city = s.data.cities.get(t)
            if city is None and not s.terr[t].castle:
                got = 0.0
            else:
                base = 1.0 + (city.crowns if city else 0.5) + max(0, self.crowns[self.me] - 4)
                got = base + self.temper.garrison * self.threat.get(t, 0.0)
            self._need[t] = got
        return got

    def shortfall(self, t: str, units: Units | None = None) -> float:
        return max(0.0, self.need(t) - self.defence(t, units))

    def exposure(self, t: str) -> float:
        """How far the enemies near `t` outweigh my defence of it (0 when safe)."""
        return max(0.0, self.threat.get(t, 0.0) - self.defence(t))

    def worth(self, t: str) -> float:
        """What holding `t` is worth: crowns above all, then tax, castle, a place to grow from;
        more when it is taken from a player close to winning."""
        s = self.s
        city = s.data.cities.get(t)
        v = 2.0
        if city:
            v += 14 * city.crowns + city.tax + (3 if city.gold else 0)
        if s.terr[t].castle:
            v += 4
        v += sum(1.5 for n in s.data.neighbours[t] if n in s.data.cities and s.terr[n].owner is None)
        owner = s.terr[t].owner
        if owner not in (None, self.me):
            lead = self.crowns[owner] - self.crowns[self.me]
            v *= 1.0 + 0.25 * max(0, lead) + self.menace(owner)
        return v

    def menace(self, p: PlayerId) -> float:
        """How urgently player `p` must be stopped: nothing below 5 crowns, much one short of
        the crowns that win (a Mercenary Army never wins)."""
        if self.s.is_mercenary(p):
            return 0.0
        short = (self.s.variant_rules.win_crowns or 7) - self.crowns[p]
        return {3: 0.8, 2: 2.0, 1: 4.0}.get(short, 0.0 if short > 3 else 5.0)

    def goal(self) -> str | None:
        """The enemy territory worth gathering an army against: the best prize next to my
        kingdom for the defence it has, or further away when its owner is close to winning."""
        s, me = self.s, self.me
        reach = self.reach(3)
        best, best_value = None, 0.0
        for t, x in s.terr.items():
            if x.owner in self.friends or x.owner == me or x.is_disputed or t not in reach:
                continue
            if reach[t] > 1 and self.menace(x.owner) < 0.8:
                continue
            value = self.worth(t) / (self.defence_of(t) + 3) / (1 + 0.5 * (reach[t] - 1))
            if value > best_value:
                best, best_value = t, value
        return best

    def reach(self, steps: int) -> dict:
        """Territories within `steps` of my kingdom, with their distance (mine are 0)."""
        s, me = self.s, self.me
        dist = {t: 0 for t, x in s.terr.items() if x.owner == me}
        frontier = list(dist)
        for d in range(1, steps + 1):
            nxt = []
            for t in frontier:
                for n in s.data.neighbours[t]:
                    if n not in dist:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        return dist

    def defence_of(self, t: str) -> float:
        x = self.s.terr[t]
        return strength(x.units) * (CASTLE_DEFENSE if x.castle else 1.0)

    def distances(self, goal: str | None) -> dict:
        """Steps from every territory to `goal` (through any territory), for marching armies."""
        if goal is None:
            return {}
        nb = self.s.data.neighbours
        dist = {goal: 0}
        frontier = [goal]
        while frontier:
            nxt = []
            for t in frontier:
                for n in nb[t]:
                    if n not in dist:
                        dist[n] = dist[t] + 1
                        nxt.append(n)
            frontier = nxt
        return dist


def loyal_moves(s: State, army: PlayerId, moves: Sequence[Move]) -> list[Move]:
    """A Mercenary Army's moves without those that turn on the player controlling it this round
    (a bot playing the army never attacks its controller)."""
    boss = s.players[army].controller
    if boss is None:
        return list(moves)
    terr, data = s.terr, s.data

    def hits_boss(m: Move) -> bool:
        names = ([m.payload.get("to"), m.payload.get("target")]
                 + [x["to"] for x in m.payload.get("moves", [])])
        return any(terr[data.resolve(n)].owner == boss for n in names if n)
    return [m for m in moves if not hits_boss(m)]


class Bot:
    """One seeded player. `choose(state, moves)` picks among `moves` (all this bot's)."""

    def __init__(self, player: PlayerId, seed: int | str):
        self.player = player
        self.rng = random.Random(seed)
        self.temper = Temper.draw(self.rng)

    # --- hidden choices --------------------------------------------------------------------

    def salt(self) -> str:
        """A fresh salt for a commitment (from the bot's own generator)."""
        return f"{self.rng.getrandbits(64):016x}"

    def view(self, s: State) -> _View:
        return _View.of(s, self.player, self.temper)

    # --- the dispatcher ----------------------------------------------------------------------

    def choose(self, s: State, moves: Sequence[Move]) -> Move | None:
        """One of `moves`, or None to do nothing (only where the caller allows it)."""
        if not moves:
            return None
        kind = moves[0].type
        if kind in ("BidRevealed", "CardRevealed"):     # reveals are not choices
            return moves[0]
        if kind == "BidPlaced":
            return self.bid(s, moves)
        if kind == "KingdomPlaced":
            return self.place(s, moves)
        if kind == "CardsCommitted":
            return self.commit(s, moves)
        if kind in ("BattleStarted", "MercenaryBidsOrdered", "MissionKept"):
            return self.rng.choice(list(moves))
        if kind == "CasualtiesRemoved":
            return self.casualties(s, moves)
        if kind == "DiceRerolled":
            return moves[0] if self.wants_reroll(s) else None
        return self.act(s, moves)

    # --- setup -------------------------------------------------------------------------------

    def bid(self, s: State, moves: Sequence[Move]) -> Move:
        """For first player: a few coins. For a Mercenary Army: more when rich, or when a player
        is close to winning and the army could be turned on them."""
        amounts = [m.payload["amount"] for m in moves]
        if s.flow.merc is None:
            want = self.rng.choices([0, 1, 2, 3], weights=[4, 4, 3, 1])[0]
        else:
            coins = s.players[self.player].coins
            v = self.view(s)
            danger = max((v.menace(p) for p in s.active_players if p != self.player), default=0.0)
            want = int(self.rng.uniform(0, 0.25) * coins + danger) + self.rng.choice([0, 0, 1, 2])
        return moves[amounts.index(min(want, max(amounts)))]

    def place(self, s: State, moves: Sequence[Move]) -> Move:
        def score(m: Move) -> float:
            split = m.payload["footmen"]
            city = s.data.resolve(m.payload["city"])
            near = sum(1 for n in s.data.neighbours[city]
                       if any(s.terr[k].owner for k in s.data.neighbours[n] | {n}))
            total = s.variant_rules.draft_footmen
            shape = PLACEMENT_SHAPE.get(total, {}).get(split.get(city, total), 0)
            around = within_two(s.data, city)
            room = sum(1 for n in around if n in s.data.cities and n != city and s.terr[n].owner is None)
            return s.data.cities[city].tax + shape + 1.5 * room - 0.8 * near + self.rng.random() * 3
        return max(moves, key=score)

    def commit(self, s: State, moves: Sequence[Move]) -> Move:
        """Two cards for the round: the most useful first, weighted by chance."""
        v = self.view(s)
        value = {}
        for kind in card_kinds(s, s.players[self.player].hand):
            card = s.data.cards[kind[0]]
            value[kind[0]] = self._card_value(v, card) + self.rng.random() * 4
            for other in kind[1:]:
                value[other] = value[kind[0]] - 0.5

        def score(m: Move) -> float:
            a, b = m.payload["cards"]
            first, second = s.data.cards[a], s.data.cards[b]
            combo = 3 if ("tax" in first.orders and "spend" in second.orders) else 0
            return 1.2 * value[a] + value[b] + combo
        return max(moves, key=score)

    def _card_value(self, v: _View, card) -> float:
        s, me = v.s, self.player
        coins = s.players[me].coins
        if "tax" in card.orders:
            val = 4.0 + (4 if coins >= COST["crown_card"] else 0)
            return val + (3 if card.bonus == "king_me" and s.marker != me else 0)
        room = sum(1 for t, x in s.terr.items() if x.owner == me
                   for n in s.data.neighbours[t] if s.terr[n].owner is None)
        val = 3.0 + min(room, 6)
        if card.bonus == "siege_assault":
            val += 4 * sum(1 for x in s.terr.values() if x.owner == me and x.units.siege)
        if card.bonus == "fortify":
            val += min(max(v.exposure(t) for t in v.threat) if v.threat else 0, 5)
        if "split_expand" in card.orders:
            val += 1
        return val

    # --- a turn ------------------------------------------------------------------------------

    def act(self, s: State, moves: Sequence[Move]) -> Move | None:
        """The current player's next action on their turn, or None to end the turn."""
        v = self.view(s)
        v.castle_mood = self.rng.random() < self.temper.castle_rate
        best, best_score = None, 0.0
        for m in moves:
            sc = self._score(v, m)
            if sc is None:
                continue
            sc += self.rng.random() * 1.5
            if sc > best_score:
                best, best_score = m, sc
        return best

    def _score(self, v: _View, m: Move) -> float | None:
        t = m.type
        if t == "MissionCompleted":         # a permanent crown: always worth taking at once
            return 100.0
        if t == "SiegeAssaulted":
            return self._siege_score(v, m)
        if t == "Fortified":
            target = m.payload["territory"]
            return 6 + v.shortfall(target) + v.exposure(target) + (8 if v.s.terr[target].is_disputed else 0)
        if t == "Expanded":
            return self._expand_score(v, m.payload["from"], [(m.payload["to"], _units(m.payload["units"]))])
        if t == "SplitExpanded":
            return self._expand_score(v, m.payload["from"],
                                      [(x["to"], _units(x["units"])) for x in m.payload["moves"]])
        if t == "Maneuvered":
            return self._maneuver_score(v, m)
        if t == "Taxed":
            return self._tax_score(v, m)
        if t == "Spent":
            return self._spend_score(v, m)
        return None

    def _siege_score(self, v: _View, m: Move) -> float:
        target = m.payload["target"]
        y = v.s.terr[target]
        return 10 + min(strength(y.units), 6) + 0.2 * v.worth(target)

    def _expand_score(self, v: _View, frm: str, moves: list[tuple[str, Units]]) -> float | None:
        s, me = v.s, self.player
        src = s.terr[frm]
        moving = Units()
        total = 0.0
        for to, g in moves:
            moving = moving + g
            y = s.terr[to]
            if y.owner is None:
                danger = sum(strength(s.terr[n].units) for n in ordered_neighbours(s.data)[to]
                             if s.terr[n].owner not in (None, me))
                need = 1 + danger / 3
                gain = v.worth(to)
                if g.total < need:
                    gain *= 0.5 + 0.5 * g.total / need
                total += gain - 0.3 * max(0.0, g.total - need - 1)
            else:
                att = strength(g)
                fort = 1.5 if (to in s.data.cities or y.castle) else 0
                dfn = (strength(y.units) + fort) * (CASTLE_DEFENSE if y.castle else 1.0) + 1
                ratio = att / dfn
                if ratio < self.temper.attack_ratio / (1.0 + 0.1 * v.menace(y.owner)):
                    return None
                win = min(0.95, 0.55 + 0.5 * (ratio - 1.0))
                total += v.worth(to) * win * 1.3 + 2
        left = src.units.minus(moving)
        opened = v.shortfall(frm, left) - v.shortfall(frm)
        total -= opened * (2.0 if frm in s.data.cities else 1.0)
        return total

    def _maneuver_score(self, v: _View, m: Move) -> float | None:
        s, me = v.s, self.player
        frm, to = m.payload["from"], m.payload["to"]
        g = _units(m.payload["units"])
        src, dst = s.terr[frm], s.terr[to]
        moved = strength(g)
        if dst.is_disputed:
            mine = dst.units if dst.owner == me else dst.attacker_units
            theirs = dst.attacker_units if dst.owner == me else dst.units
            gap = strength(theirs) * 1.3 - strength(mine)
            if gap <= 0:
                return None
            gain = min(moved, gap) * 1.5 + v.worth(to) * 0.3
        else:
            covered = min(moved, v.shortfall(to)) * (2.0 if to in s.data.cities else 1.0)
            gather = 0.0
            if v.target is not None and dst.owner == me:
                closer = v.march.get(frm, 9) - v.march.get(to, 9)
                gather = 0.6 * moved * closer + (1.5 * moved if v.march.get(to) == 1 else 0.0)
            gain = covered + gather
        opened = v.shortfall(frm, src.units.minus(g)) - v.shortfall(frm)
        return gain - opened * (2.0 if frm in s.data.cities else 1.0) - 3

    def _tax_score(self, v: _View, m: Move) -> float:
        s, me = v.s, self.player
        city = s.data.resolve(m.payload["city"])
        coins, _ = tax_value(s, me, city)
        return coins * 1.2 + (2 if s.players[me].coins < COST["crown_card"] else 0)

    def _spend_score(self, v: _View, m: Move) -> float | None:
        s, me = v.s, self.player
        ps = s.players[me]
        likes = self.temper.likes
        cost = 0
        value = 0.0
        for item in m.payload["purchases"]:
            kind, n, t = item["item"], item.get("count", 1), item.get("territory")
            if kind == "crown_card":
                weak = sum(v.shortfall(x) for x in v.threat)
                value += 18 + 3 * v.crowns[me] - min(weak, 12)
                cost += COST[kind]
                continue
            t = s.data.resolve(t)
            if kind == "castle":
                cost += COST[kind]
                if v.castle_mood:
                    value += 8 + v.shortfall(t) + v.exposure(t) + (6 if t in s.data.cities else 0)
                continue
            cost += COST[kind] * n
            if kind == "siege":
                around = within_two(s.data, t)
                castles = sum(1 for x in around if s.terr[x].owner not in (None, me) and s.terr[x].castle)
                near = sum(1 for x in s.data.land_neighbours[t] if s.terr[x].owner not in (None, me))
                aimed = v.target is not None and s.terr[v.target].castle and v.march.get(t, 9) <= 2
                aim = 6 if aimed else 0
                have = sum(x.units.siege for x in s.terr.values() if x.owner == me)
                value += n * likes[kind] * (5 + 8 * min(castles, 1) + 2 * min(near, 2) + aim - 3 * have)
            else:
                u = Units(**{kind: n})
                weight = 1.0 + min(v.threat.get(t, 0.0), 10) / 8 + (0.4 if v.march.get(t, 9) <= 2 else 0)
                value += n * UNIT_VALUE[kind] * likes[kind] * weight + 0.8 * min(strength(u), v.shortfall(t))
        kept = ps.coins - cost
        crown_soon = (crown_card_ban(s, me) is None and s.crown_cards_left > 0
                      and ps.crown_card_round != s.flow.round)
        if crown_soon and 0 <= kept < COST["crown_card"] <= ps.coins:
            value -= 3
        return value - 0.6 * cost + 4

    # --- battles -----------------------------------------------------------------------------

    def casualties(self, s: State, moves: Sequence[Move]) -> Move:
        """Cheapest units first."""
        return min(moves, key=lambda m: strength(_units(m.payload["units"])))

    def wants_reroll(self, s: State) -> bool:
        """Re-roll the castle's dice when a fresh roll is expected to do better than these."""
        b = s.battle
        att, dfn = b.rolls
        ah, dh = rank_hits(b.rank, att, dfn)
        if b.rank < 4:       # the attacker's hits stand; only the defender's own can improve
            return len(dfn) * (7 - RANK_HITS_ON[b.rank]) / 6 > dh + 0.05
        now = dh - ah
        outcomes = list(product(range(1, 7), repeat=len(dfn)))
        expected = sum(d - a for a, d in (rank_hits(4, att, roll) for roll in outcomes))
        return expected / len(outcomes) > now + 0.05
