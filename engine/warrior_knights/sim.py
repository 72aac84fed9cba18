"""Simulated Warrior Knights games: seeded bots play whole legal games on the shipped example
board and cards (invented data, marked so in every report).

    simulate(seed, game_id, {"players": "4"}) -> engine.core.projection.SimulatedGame  (RULESET.simulate)

Pure: everything random comes from one `random.Random` seeded by the seed and the game id, and
every choice from a set is made from its sorted list, so the same seed writes the same bytes.

What a simulated log holds: GameStarted (the Barons, the digests of the data), the setup, then
each round: every Baron's plan as a commitment (opened with its salt once the round's Actions are
over), the cards revealed stack by stack (a Neutral card drawn from the Neutral deck as it comes),
each resolution, the Special Phases, the Upkeep; every card drawn (Fate, Event, Mercenary,
Agenda) is taken from the deck the engine tracks, as a table would draw it. Effects of the
invented Event and Agenda texts are recorded as adjustments signed by the Baron who applies them.
Each event is judged by the engine as it is made; an event the engine rejects is a bug
(SimulationError). A game not over after `MAX_ROUNDS` rounds stops there (no GameEnded).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from engine.core.commit import commitment
from engine.core.projection import SimulatedGame
from engine.core.record import LogRecorder, judged_next
from engine.warrior_knights import battles as B
from engine.warrior_knights import glory as G
from engine.warrior_knights import engine as E
from engine.warrior_knights.assembly import PRIVATE, _current, _open_agendas
from engine.warrior_knights.common import (
    army_strength, cities_of, city_strength, deal, deal_until, in_city, stronghold_spot_problem,
)
from engine.warrior_knights.cards import LEADER_KINDS
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.gamedata import GameData, default_data
from engine.warrior_knights.moves import path_problem, sea_problem
from engine.warrior_knights.phases import may_receive, regular_wages
from engine.warrior_knights.common import Ctx
from engine.warrior_knights.neutral import FOLLOW_UPS
from engine.warrior_knights.rounds import advance, neutral_copies, neutral_decks, plan_text
from engine.warrior_knights.state import STRONGHOLD, Deck, State, evolve

COLOURS = ("red", "blue", "green", "yellow", "purple", "white")
MAX_ROUNDS = 40
MAX_EVENTS = 20000


class SimulationStuck(RuntimeError):
    """The bots found no move in a state the engine waits in (a bug in the bots)."""


class Table:
    """The cards the table draws, kept in step with the engine's decks between draws of one event."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def draw(self, deck: Deck, n: int, keep=lambda card: True) -> list[str]:
        return deal(deck, n, self.rng.choice, keep)


class Bots:
    """The decisions of every Baron, and the table's draws, for one game."""

    def __init__(self, data: GameData, rng: random.Random):
        self.data, self.rng = data, rng
        self.table = Table(rng)
        self.plans: dict[str, tuple[tuple[str, ...], ...]] = {}
        self.salts: dict[str, str] = {}
        self.opened: set[str] = set()
        self.votes: dict[str, dict[str, int]] = {}
        self.vote_salts: dict[str, str] = {}
        self.event_card: str | None = None
        self.adjusted: dict = {}
        self.missions: dict[str, tuple[str, str]] = {}     # Crown & Glory: each Baron's Mission and salt
        self.adv_effect: tuple | None = None               # an Advancement's effect owed as an adjustment
        self.leaders_used: set[tuple[int, str]] = set()    # For Glory: (round, Leader or Herald) used

    # -- helpers -------------------------------------------------------------------------------

    def salt(self) -> str:
        return "%016x" % self.rng.getrandbits(64)

    def fate_cards(self, s: State, n: int) -> list[str]:
        return self.table.draw(s.fate, n)

    def baron_by_fate(self, s: State) -> list[str]:
        """Fate cards drawn until one names a colour in play."""
        colours = {b.color for b in s.barons.values()}
        return deal_until(s.fate, lambda card: self.data.cards.fate[card].baron in colours, self.rng.choice)

    # -- the next event --------------------------------------------------------------------------

    def settled(self, s: State) -> State:
        """The state once the Neutral card being resolved is closed, when the bots are done with it
        (the engine closes it the same way when the next event is none of its follow-ups)."""
        p = s.flow.pending
        if (s.flow.phase == "actions" and p is not None and p.owner is None and p.stage in FOLLOW_UPS
                and self._neutral_done(s)):
            return advance(evolve(s, flow=s.flow._replace(pending=p._replace(stage="done"))), Ctx())
        if (s.flow.phase == "actions" and p is not None and p.owner is not None and p.stage == "enrich"
                and not s.glory.refill_owed and self._purchase(s) is None):
            return advance(evolve(s, flow=s.flow._replace(pending=p._replace(stage="done"))), Ctx())
        return s

    def next(self, s: State) -> tuple[str, str | None, dict]:
        s = self.settled(s)
        if s.result is not None:
            opened = self.open_plans(s)
            if opened is not None:
                return opened
            r = s.result
            return "GameEnded", None, {"winner": r.winners[0] if r.winners else None, "reason": r.reason}
        f = s.flow
        if s.glory is not None and s.glory.king_army_owed is not None:
            return self.kings_army(s)
        if s.glory is not None and s.glory.refill_owed:
            return "AdvancementsRevealed", None, {"cards": self.table.draw(s.glory.adv_deck, s.glory.refill_owed)}
        if self.adv_effect is not None:
            seat, source, change = self.adv_effect
            self.adv_effect = None
            return "Adjusted", seat, {"source": source, **change, "text": self.data.cards.crown_and_glory["advancements"][source]["text"]}
        if f.phase == "setup":
            return self.setup(s)
        if s.battle is not None:
            return self.battle(s)
        if f.phase == "planning":
            return self.plan(s)
        if f.phase == "actions":
            return self.actions(s)
        if f.phase == "special":
            return self.special(s)
        if f.phase == "upkeep":
            return self.upkeep(s)
        raise SimulationStuck(f"no move in phase {f.phase} ({f.step})")

    # -- setup -----------------------------------------------------------------------------------

    def setup(self, s: State):
        f = s.flow
        mercs = self.data.cards.mercenaries
        if f.step == "troops":
            dealt = {}
            d = s.mercs
            for seat in s.seats:
                fifty = self.table.draw(d, 1, lambda m: mercs[m].strength == 50 and mercs[m].kind == "troop")[0]
                d = d._replace(pile=d.pile - {fifty})
                hundred = self.table.draw(d, 1, lambda m: mercs[m].strength == 100 and mercs[m].kind == "troop")[0]
                d = d._replace(pile=d.pile - {hundred})
                dealt[seat] = [fifty, hundred]
            return "TroopsDealt", None, {"mercenaries": dealt}
        if f.step == "assign":
            seat = next(q for q in s.seats if not s.setup.get(f"assigned:{q}"))
            troops = sorted(s.barons[seat].troops.values(), key=lambda t: (-t.strength, t.id))
            shapes = ["star", "square", "triangle", "circle"]
            self.rng.shuffle(shapes)
            armies: dict[str, list[str]] = {}
            for i, t in enumerate(troops):
                holder = shapes[i % 3] if self.rng.random() < 0.85 else STRONGHOLD
                armies.setdefault(holder, []).append(t.id)
            return "TroopsAssigned", seat, {"armies": armies}
        if f.step == "raze" and G.has(s, G.FOR_GLORY):
            # For Glory: Town Levy cards choose the razed cities (and go back to the box)
            want = {2: 11, 3: 7, 4: 5, 5: 3}[len(s.seats)]
            levies = sorted((self.data.cards.crown_and_glory or {}).get("town_levies") or {})
            return "CitiesRazed", None, {"cards": self.rng.sample(levies, want)}
        if f.step == "strongholds" and G.has(s, G.FOR_GLORY) and not s.glory.offer_laid:
            return "AdvancementsRevealed", None, {"cards": self.table.draw(s.glory.adv_deck, G.OFFER)}
        if f.step == "strongholds" and G.has(s, G.FOR_GLORY) and not s.glory.scholar_drawn and len(s.seats) > 2:
            return "ScholarChosen", None, {"cards": self._scholar_cards(s)}
        if f.step == "strongholds" and G.missions_undealt(s):
            seat = G.missions_undealt(s)[0]
            taken = {m for m, _ in self.missions.values()}
            deck = sorted(m for m in (self.data.cards.crown_and_glory or {}).get("missions") or {} if m not in taken)
            mission, salt = self.rng.choice(deck), self.salt()
            self.missions[seat] = (mission, salt)
            return "MissionDealt", seat, {"commitment": commitment(mission, salt)}
        if f.step == "raze":
            want = {2: 11, 3: 7, 4: 5, 5: 3}[len(s.seats)]
            cities: list[str] = []
            cards = []
            d = s.fate
            while len(cities) < want:
                card = self.table.draw(d, 1)[0]
                d = Deck(d.pile - {card}, (), d.discard)
                city = self.data.cards.fate[card].city
                if city not in cities:
                    cities.append(city)
                cards.append(card)
            return "CitiesRazed", None, {"cards": cards}
        if f.step == "market":
            m = self.table.draw(s.mercs, len(s.seats) + 1)
            a = self.table.draw(s.agenda_deck, 3)
            return "MarketRevealed", None, {"mercenaries": m, "agendas": a}
        if f.step == "offices":
            chair = self.baron_by_fate(s)
            d = Deck(s.fate.pile - set(chair), s.fate.bottom, s.fate.discard | set(chair))
            head = self.baron_by_fate(evolve(s, fate=d))
            return "OfficesChosen", None, {"chairman": chair, "head_of_church": head}
        if f.step == "strongholds":
            seat = f.current
            spots = [a for a in sorted(self.data.board.areas) if stronghold_spot_problem(s, a, seat, True) is None]
            return "StrongholdPlaced", seat, {"area": self.rng.choice(spots)}
        if f.step == "nobles":
            seat = f.current
            nobles = sorted(n.id for n in s.nobles.values() if n.owner == seat and n.area is None and n.army.troops)
            noble = nobles[0]
            home = s.barons[seat].stronghold
            spots = [a for a in sorted(self.data.board.areas) if self._noble_spot_ok(s, seat, a)]
            near = [a for a in spots if a == home or a in self.data.board.neighbours[home]]
            return "NoblePlaced", seat, {"noble": noble, "area": self.rng.choice(near or spots)}
        raise SimulationStuck(f"setup step {f.step}")

    def _noble_spot_ok(self, s: State, seat: str, a: str) -> bool:
        if not self.data.board.areas[a].is_kingdom:
            return False
        if any(n.area == a and n.owner != seat for n in s.nobles.values()):
            return False
        return not any(q != seat and b.stronghold == a for q, b in s.barons.items())

    # -- planning --------------------------------------------------------------------------------

    def plan(self, s: State):
        planned = s.plans if s.flow.phase == "planning" else {}
        seat = next(q for q in s.seats if q not in planned)
        hand = list(s.barons[seat].hand)
        self.rng.shuffle(hand)
        stacks = []
        for _ in range(3):
            take = min(2, len(hand))
            if take and self.rng.random() < 0.15:
                take -= 1
            stacks.append(tuple(sorted(hand[:take])))
            hand = hand[take:]
        stacks = tuple(stacks)
        salt = self.salt()
        self.plans[seat], self.salts[seat] = stacks, salt
        self.opened.discard(seat)
        return "StacksPlanned", seat, {"counts": [len(x) for x in stacks],
                                       "commitment": commitment(plan_text(stacks), salt)}

    def open_plans(self, s: State):
        for seat in s.seats:
            p = s.plans.get(seat)
            if p is not None and p.commitment is not None and not p.opened and seat in self.plans:
                return "PlanOpened", seat, {"stacks": [list(x) for x in self.plans[seat]], "salt": self.salts[seat]}
        return None

    # -- actions ---------------------------------------------------------------------------------

    def actions(self, s: State):
        f = s.flow
        p = f.pending
        if p is None:
            return self.reveal(s)
        if p.owner is None:
            return self.neutral(s)
        return self.baron_card(s)

    def reveal(self, s: State):
        f = s.flow
        left = f.left[f.stack - 1]
        owners = sorted((o for o, n in left.items() if n), key=lambda o: o or "")
        owner = self.rng.choice(owners)
        if owner is None:
            kinds = self.data.cards.neutral_actions
            pool = []
            for kind in sorted({k.type for k in kinds.values() if k.deck in neutral_decks(s, k.type)}):
                pool += [kind] * (neutral_copies(s, kind) - s.neutral_used.get(kind, 0))
            card = self.rng.choice(pool)
        else:
            plan = self.plans[owner]
            shown = s.plans[owner].revealed[f.stack - 1]
            rest = list((Counter(plan[f.stack - 1]) - Counter(shown)).elements())
            card = self.rng.choice(sorted(rest))
        return "CardRevealed", None, {"stack": f.stack, "owner": owner, "card": card}

    def baron_card(self, s: State):
        p = s.flow.pending
        seat = p.owner
        card = p.card
        if card == "versatile":
            options = ["levy_taxes", "rally_support", "serve_the_church", "draft_soldiers", "mobilize_forces"]
            self.rng.shuffle(options)
            for opt in options:
                ev = self.baron_action(s, seat, opt, versatile=True)
                if ev is not None:
                    return ev
            return "ActionDeclined", seat, {}
        if card == "enrich_mind":
            if p.stage == "enrich":
                buy = self._purchase(s)
                if buy is None:
                    raise SimulationStuck("an Enrich Mind card waits with nothing to buy")
                return buy
            return "MindEnriched", seat, {"area": self.rng.choice(["taxation", "assembly"])}
        if card == "forced_march":
            tired = [n.id for n in sorted(s.nobles.values()) if n.owner == seat and n.exhausted]
            crowns = s.barons[seat].crowns
            take = tired[:1] + [n for n in tired[1:] if (crowns := crowns - G.MARCH_COST) >= 4]
            return "MarchForced", seat, {"nobles": take}
        ev = self.baron_action(s, seat, card, versatile=False)
        if ev is not None:
            return ev
        area = self.data.cards.baron_actions[card].area
        return "ActionDeclined", seat, ({"area": area["move"]} if isinstance(area, dict) else {})

    def baron_action(self, s: State, seat: str, action: str, versatile: bool):
        b = s.barons[seat]
        if action == "levy_taxes":
            areas = {n.area for n in s.nobles.values() if n.owner == seat and not n.dead and n.area and not n.at_sea}
            return "TaxesLevied", seat, {"crowns": len(areas)}
        if action == "rally_support":
            return "SupportRallied", seat, {}
        if action == "serve_the_church":
            return "ChurchServed", seat, {}
        if action == "draft_soldiers":
            free = [t for t in self.data.board.usable_spots(len(s.seats)) if s.track[t.spot - 1] is None]
            if versatile:
                free = [t for t in free if t.fee <= b.crowns - 4]
            if not free:
                return None
            spot = free[-1] if versatile else self.rng.choice(free)
            return "SoldiersDrafted", seat, {"spot": spot.spot}
        if action == "mobilize_forces":
            return self.mobilize(s, seat)
        return None

    def _strength(self, s: State, nid: str) -> int:
        n = s.nobles[nid]
        return army_strength(s, n.owner, n.army) - 100 * n.army.casualties

    def _reach(self, s: State, seat: str, start: str) -> list[tuple[str, list[str]]]:
        """Areas a Noble at `start` can reach by land, with a path."""
        board = self.data.board
        out = []
        for a in sorted(board.neighbours.get(start, ())):
            if path_problem(s, seat, start, [a], frozenset()) is None:
                out.append((a, [a]))
        # road moves of 2 or 3
        frontier = [(start, [])]
        for _ in range(3):
            nxt = []
            for here, path in frontier:
                for a in sorted(board.neighbours.get(here, ())):
                    bd = board.border(here, a)
                    if not bd.road or not bd.is_passable or a in path or a == start:
                        continue
                    newp = path + [a]
                    if len(newp) > 1 and path_problem(s, seat, start, newp, frozenset()) is None:
                        out.append((a, newp))
                    nxt.append((a, newp))
            frontier = nxt
        return out

    def mobilize(self, s: State, seat: str):
        board = self.data.board
        ready = sorted(n.id for n in s.nobles.values()
                       if n.owner == seat and not n.dead and n.area and not n.at_sea and not n.exhausted
                       and n.army.troops)
        if not ready:
            return None
        options = []
        for nid in ready:
            n = s.nobles[nid]
            st = self._strength(s, nid)
            # fight where he stands
            options += [(score, nid, [], n.area, att) for score, att in self._attacks(s, seat, n.area, [nid], st)]
            for area, path in self._reach(s, seat, n.area):
                for score, att in self._attacks(s, seat, area, [nid], st):
                    options.append((score - 1, nid, path, area, att))
                city = board.areas[area].city
                value = 0
                if city is not None and not s.cities[city].razed and s.cities[city].owner != seat:
                    value = 3
                elif any(board.areas[x].city and not s.cities[board.areas[x].city].razed
                         and s.cities[board.areas[x].city].owner != seat for x in board.neighbours[area]):
                    value = 1
                options.append((value + self.rng.random(), nid, path, area, None))
            if board.areas[n.area].port and self.rng.random() < 0.1:
                ports = [a for a in board.ports if a != n.area and sea_problem(s, n.area, a) is None]
                if ports:
                    options.append((0.5, nid, "sea", self.rng.choice(ports), None))
        if not options:
            return None
        options.sort(key=lambda o: (-o[0], o[1], str(o[2]), o[3]))
        _, nid, path, area, att = options[0]
        payload: dict[str, Any] = {"area": area, "moves": []}
        if path == "sea":
            payload["moves"] = [{"noble": nid, "path": [area], "sea": True}]
        elif path:
            payload["moves"] = [{"noble": nid, "path": path}]
        if att is not None:
            payload["attack"] = att
            if path:
                printed = self.data.cards.baron_actions["mobilize_forces"].area
                payload["card_area"] = self.rng.choice([printed["move"], printed["battle"]]) \
                    if isinstance(printed, dict) else None
        if not payload["moves"] and att is None:
            return None
        return "ForcesMobilized", seat, payload

    def _attacks(self, s: State, seat: str, area: str, armies: list[str], strength: int):
        """(score, Attack payload) of the battles worth starting in `area` with `armies`."""
        board = self.data.board
        out = []
        city = board.areas[area].city
        others = {n.owner for n in s.nobles.values() if n.area == area and not n.dead and n.owner != seat}
        if city is not None and not s.cities[city].razed:
            owner = s.cities[city].owner
            if owner != seat:
                blockers = others - {owner}
                if not blockers:
                    guards = [n.id for n in s.nobles.values()
                              if n.area == area and n.owner == owner and not n.dead and not n.at_sea and owner is not None]
                    defence = (city_strength(s, city) + G.garrison_strength(s, city)
                               + sum(self._strength(s, k) for k in guards) + (200 if guards else 0))
                    if strength + 200 > defence + 100:
                        kind = "assault"
                        att = {"defender": owner or "neutral", "kind": kind, "armies": armies, "commander": armies[0]}
                        out.append((5 + (strength + 200 - defence) / 100, att))
                    elif strength + 200 > defence and s.cities[city].siege is None:
                        att = {"defender": owner or "neutral", "kind": "siege", "armies": armies, "commander": armies[0]}
                        out.append((4, att))
                    elif s.cities[city].siege is not None and s.cities[city].siege[0] == seat \
                            and s.cities[city].siege[1] < s.flow.round and strength + 200 > defence:
                        att = {"defender": owner or "neutral", "kind": "siege", "armies": armies, "commander": armies[0]}
                        out.append((8, att))
        for q, b in s.barons.items():
            if q != seat and b.stronghold == area and not (others - {q}):
                defence = b.stronghold_strength - 100 * b.stronghold_breaches + army_strength(s, q, b.stronghold_army)
                if strength + 200 > defence + 200:
                    out.append((6, {"defender": q, "kind": "assault", "armies": armies, "commander": armies[0]}))
        for q in sorted(others):
            field = [n for n in s.nobles.values() if n.area == area and n.owner == q and not n.dead
                     and not n.at_sea and not in_city(s, n)]
            if field and strength > sum(self._strength(s, n.id) for n in field):
                out.append((3, {"defender": q, "kind": "field", "armies": armies, "commander": armies[0]}))
        return out

    # -- Neutral cards -----------------------------------------------------------------------------

    def _neutral_done(self, s: State) -> bool:
        p = s.flow.pending
        if p.stage == "effects":
            return not self._effects(s)
        if p.stage == "research":
            return not self._wants_research(s)
        if p.stage == "swap":
            return self._swap(s) is None
        order = p.detail.get("order", ())
        return all(q in p.acted for q in order) or self._seat_action(s) is None

    def neutral(self, s: State):
        p = s.flow.pending
        d = p.detail
        if p.card == "important_event":
            if p.stage == "drawer":
                first = G.has(s, G.FOR_GLORY) and not s.glory.event_seen     # For Glory: never red
                self.event_card = self.table.draw(
                    s.events, 1, (lambda x: self.data.cards.events[x].color != "red") if first else (lambda x: True))[0]
                colour = self.data.cards.events[self.event_card].color
                head = s.head_of_church
                others = [q for q in s.seats if q != head]
                if colour == "red":
                    drawer = head if s.barons[head].faith < 1 or self.rng.random() < 0.5 else self.rng.choice(others)
                elif colour == "green":
                    drawer = self.rng.choice(others) if s.barons[head].faith < 1 or self.rng.random() < 0.5 else head
                else:
                    drawer = self.rng.choice(sorted(s.seats))
                return "EventDrawerChosen", head, {"drawer": drawer, "colour": colour}
            if p.stage == "draw":
                return "EventCardDrawn", d["drawer"], {"card": self.event_card}
            todo = self._effects(s)
            if todo:
                return todo.pop(0)
        if p.card == "fund_expedition":
            if p.stage == "fund":
                idle = [x for x, e in sorted(s.expeditions.items()) if not e.spot]
                if not idle or self.rng.random() < 0.3:
                    return "ExpeditionFunded", s.chairman, {"expedition": None}
                stakes = {q: min(b.crowns, self.rng.randint(0, 3)) for q, b in s.barons.items()}
                blessed = s.barons[s.head_of_church].faith >= 2 and self.rng.random() < 0.5
                return "ExpeditionFunded", s.chairman, {"expedition": self.rng.choice(idle),
                                                        "stakes": {q: n for q, n in stakes.items() if n},
                                                        "blessed": blessed}
            x = d["owed"][0]
            n = 2 if s.expeditions[x].blessed else 1
            return "ExpeditionFateDrawn", None, {"expedition": x, "cards": self.fate_cards(s, n)}
        if p.stage == "press":                      # A Pressing Agenda: the top Agenda
            return "AgendasRevealed", None, {"cards": self.table.draw(s.agenda_deck, 1)}
        if p.stage == "assemble":                   # Assemble Troops: the top Mercenary
            return "MercenariesRevealed", None, {"cards": self.table.draw(s.mercs, 1)}
        if p.stage == "swap":
            gone = self._swap(s)
            return "AdvancementSwapped", s.glory.scholar, {"discard": gone,
                                                          "card": self.table.draw(s.glory.adv_deck, 1)[0]}
        if p.stage == "research":
            seat = s.glory.scholar
            card = self.table.draw(s.glory.adv_deck, 1)[0]
            cost = max(0, self.data.cards.crown_and_glory["advancements"][card]["knowledge"] - 1)
            buy = cost <= s.glory.knowledge.get(seat, 0) and card not in s.glory.owned.get(seat, ())
            owned = s.glory.owned.get(seat, ())
            back = list(owned[:1]) if buy and len(owned) >= G.MAX_ADVANCEMENTS else []
            return "AdvancementResearched", seat, {"card": card, "buy": buy, "returned": back}
        ev = self._seat_action(s)
        if ev is not None:
            return ev
        raise SimulationStuck(f"the Neutral card {p.card} ({p.stage}) waits, and the bots have no move")

    def _swap(self, s: State) -> str | None:
        """Uncertain Times: the Scholar swaps the dearest Advancement face up when he can afford none."""
        g = s.glory
        d = g.adv_deck
        listed = self.data.cards.crown_and_glory["advancements"]
        have = g.knowledge.get(g.scholar, 0)
        if not g.offer or not (d.pile or d.bottom or d.discard) or any(listed[a]["knowledge"] <= have for a in g.offer):
            return None
        return max(g.offer, key=lambda a: (listed[a]["knowledge"], a))

    def _wants_research(self, s: State) -> bool:
        seat = s.glory.scholar
        d = s.glory.adv_deck
        return (seat is not None and s.barons[seat].crowns >= G.RESEARCH_COST + 4
                and bool(d.pile or d.bottom or d.discard))

    def _purchase(self, s: State):
        """With Enrich Mind: the cheapest Advancement face up he can afford and does not own (one,
        or as many as he can as the Scholar); None: he is done."""
        p = s.flow.pending
        seat = p.owner
        g = s.glory
        if p.detail.get("bought", 0) >= 1 and g.scholar != seat:
            return None
        have = g.knowledge.get(seat, 0)
        owned = g.owned.get(seat, ())
        listed = self.data.cards.crown_and_glory["advancements"]
        can = sorted((listed[a]["knowledge"], a) for a in g.offer if listed[a]["knowledge"] <= have and a not in owned)
        if not can:
            return None
        back = list(owned[:1]) if len(owned) >= G.MAX_ADVANCEMENTS else []
        return "AdvancementBought", seat, {"advancement": can[0][1], "returned": back}

    def _scholar_cards(self, s: State) -> list[str]:
        """Fate cards drawn until one names a colour in play that is neither the Chairman's nor the Head's."""
        ok = {s.barons[q].color for q in s.seats if q not in (s.chairman, s.head_of_church)}
        return deal_until(s.fate, lambda card: self.data.cards.fate[card].baron in ok, self.rng.choice)

    def _effects(self, s: State) -> list:
        """What the drawer does about the Event just drawn (the invented texts, applied as
        adjustments he signs; a red one he may cancel): decided once, emitted one by one."""
        p = s.flow.pending
        ev = p.detail.get("event")
        if ev is None:
            return []
        key = (s.flow.round, s.flow.stack, ev.id, len(s.flow.left[s.flow.stack - 1]), sum(s.flow.left[s.flow.stack - 1].values()))
        if key not in self.adjusted:
            drawer = p.detail["drawer"]
            b = s.barons[drawer]
            todo = []
            if ev.color == "red" and ev.cancel_faith is not None and b.faith >= ev.cancel_faith and self.rng.random() < 0.6:
                todo.append(("EventCancelled", drawer, {"faith": {drawer: ev.cancel_faith}}))
            else:
                effects = {"ev01": {"crowns": 3}, "ev04": {"crowns": -min(3, b.crowns)}, "ev05": {"votes": 2},
                           "ev09": {"faith": 1}}
                if ev.id in effects:
                    todo.append(("Adjusted", drawer, {"source": ev.id, **effects[ev.id], "text": ev.text}))
            self.adjusted[key] = todo
        return self.adjusted[key]

    def _seat_action(self, s: State):
        p = s.flow.pending
        order = p.detail.get("order", ())
        done = set(p.acted)
        start = max((order.index(q) for q in done), default=-1) + 1
        for seat in order[start:]:
            b = s.barons[seat]
            if p.card == "upgrade_defenses":
                extra = self._garrison(s, seat)
                crowns = b.crowns - (G.GARRISON_COST if extra else 0)
                for city in cities_of(s, seat):
                    cs = s.cities[city]
                    if cs.siege is not None:
                        continue
                    if cs.breaches and crowns >= 2:
                        return "DefensesUpgraded", seat, {"city": city, "repair": min(cs.breaches, crowns // 2), **extra}
                    if not cs.fortified and crowns >= 10:
                        return "DefensesUpgraded", seat, {"city": city, "fortify": True, **extra}
                if extra:
                    return "DefensesUpgraded", seat, extra
            if p.card == "muster_troops":
                levies = self._levies(s, seat)
                crowns = b.crowns - G.LEVY_COST * len(levies)
                for n in sorted(s.nobles.values()):
                    if n.owner == seat and n.army.casualties and crowns >= 2:
                        return "TroopsMustered", seat, {"army": n.id, "tokens": min(n.army.casualties, crowns // 2),
                                                        **({"levies": levies} if levies else {})}
                if levies:
                    return "TroopsMustered", seat, {"levies": levies}
        return None

    def _garrison(self, s: State, seat: str) -> dict:
        """For Glory: a Garrison for his richest ungarrisoned city, when he can spare the crown."""
        if not G.has(s, G.FOR_GLORY) or len(s.glory.garrisons) >= G.garrison_count(s):
            return {}
        if s.barons[seat].crowns < 6 + G.garrison_wage(s) * len(G.garrisons_of(s, seat)):
            return {}
        free = [c for c in cities_of(s, seat) if c not in s.glory.garrisons]
        if not free:
            return {}
        best = max(free, key=lambda c: (self.data.board.cities[c].income, c))
        return {"garrison": best}

    def _levies(self, s: State, seat: str) -> list[dict]:
        """For Glory: the Town Levy of each city of his where one of his Nobles stands, while he
        keeps 4 crowns."""
        if not G.has(s, G.FOR_GLORY):
            return []
        listed = (self.data.cards.crown_and_glory or {}).get("town_levies") or {}
        held = {t for b in s.barons.values() for t in b.troops}
        crowns = s.barons[seat].crowns
        out = []
        for n in sorted(s.nobles.values()):
            if n.owner != seat or n.area is None or n.dead or n.at_sea:
                continue
            city = self.data.board.areas[n.area].city
            if city is None or s.cities[city].owner != seat:
                continue
            for lid in sorted(listed):
                if listed[lid]["city"] == city and lid not in held and crowns >= G.LEVY_COST + 4:
                    out.append({"levy": lid, "noble": n.id})
                    held.add(lid)
                    crowns -= G.LEVY_COST
        return out

    # -- battles -------------------------------------------------------------------------------------

    def battle(self, s: State):
        b = s.battle
        if b.stage == "commanders":
            d = b.defender
            best = max(B._nobles(d), key=lambda k: (self._strength(s, k), k))
            return "CommanderDeclared", d.baron, {"noble": best}
        if b.stage == "draw":
            for w in ("attacker", "defender"):
                side = b.attacker if w == "attacker" else b.defender
                n = B.fate_count(s, b, w)
                if n and not side.drawn:
                    return "FateDrawn", None, {"side": w, "cards": self.fate_cards(s, n)}
        if b.stage == "discard":
            for side in (b.attacker, b.defender):
                if not side.discarded:
                    n = len(side.drawn)
                    worth = {"victory": 0, "deal_100": 1, "prevent_100": 2, "draw_1": 3, "retreat_draw_1": 3, "none": 4}
                    ranked = sorted(range(n), key=lambda i: (-worth[side.drawn[i].battle], i))
                    k = max(min(2, n - 1), 0)
                    return "FateDiscarded", side.baron, {"discard": sorted(ranked[:k])}
        if b.stage == "retreat_offer":
            weaker = B.side_strength(s, b, "defender") < B.side_strength(s, b, "attacker")
            return "RetreatChosen", b.defender.baron, {"retreat": weaker}
        if b.stage == "draw1":
            for w in ("attacker", "defender"):
                side = b.attacker if w == "attacker" else b.defender
                if side.owed_draws:
                    return "FateDrawn", None, {"side": w, "cards": self.fate_cards(s, side.owed_draws)}
        if b.stage == "casualties":
            for w in ("attacker", "defender"):
                side = b.attacker if w == "attacker" else b.defender
                if not side.assigned:
                    return "CasualtiesAssigned", side.baron, self._assign(s, b, w, side)
        if b.stage == "aftermath":
            kind, who = b.after[0]
            if kind in ("die", "retreat"):
                if who not in b.deserters:
                    return "DesertersDrawn", None, {"noble": who, "card": self.fate_cards(s, 1)[0]}
                n = s.nobles[who]
                nat = b.deserters[who]
                troops = s.barons[n.owner].troops
                match = sorted(t for t in n.army.troops if troops[t].mercenary and troops[t].nationality == nat)
                deserter = match[0] if match else None
                if kind == "retreat":
                    spots = B._retreat_spots(s, n)
                    return "Retreated", n.owner, {"noble": who, "to": spots[0] if spots else None, "deserter": deserter}
                need = n.army.casualties * 100
                # Town Levies are discarded for casualties before Mercenaries (For Glory)
                mercs = sorted((t for t in n.army.troops if troops[t].mercenary and t != deserter),
                               key=lambda t: (not G.is_levy(troops[t]), troops[t].strength, t))
                gone, total = [], 0
                for t in mercs:
                    if total >= need:
                        break
                    gone.append(t)
                    total += troops[t].strength
                while len(gone) > 1:
                    first = next((t for t in gone if not G.is_levy(troops[t])), gone[0])
                    if total - troops[first].strength < need:
                        break
                    total -= troops[first].strength
                    gone = [t for t in gone if t != first]
                return "NobleLost", n.owner, {"noble": who, "deserter": deserter, "discarded": gone}
            if kind == "take":
                return "CityTaken", b.attacker.baron, {"raze": self.rng.random() < 0.1}
            if kind == "stronghold":
                held = cities_of(s, who)
                return "StrongholdCityGiven", who, {"city": min(held, key=lambda c: self.data.board.cities[c].income) if held else None}
        raise SimulationStuck(f"battle stage {b.stage}")

    def _assign(self, s: State, b, which: str, side) -> dict:
        owed = B.casualties_to(s, b, which)
        breaches = 0
        if which == "defender" and b.kind == "assault":
            breaches = min(owed, B.target_strength(s, b) // 100)
            owed -= breaches
        tokens: dict[str, int] = {}
        armies = list(side.armies)
        i = 0
        while owed > 0 and armies:
            k = armies[i % len(armies)]
            tokens[k] = tokens.get(k, 0) + 1
            owed -= 1
            i += 1
        return {"tokens": tokens, "breaches": breaches}

    # -- Special Phases ---------------------------------------------------------------------------------

    def special(self, s: State):
        f = s.flow
        if f.step == "wages":
            seat = f.current
            b = s.barons[seat]
            regular, _ = regular_wages(s, seat)
            left = b.crowns - regular
            mercs = sorted((t for t in b.troops.values() if t.mercenary), key=lambda t: (t.wage / t.strength, t.id))
            unpaid, total = [], 0
            for t in mercs:
                if total + t.wage <= left:
                    total += t.wage
                else:
                    unpaid.append(t.id)
            bare = []
            for city in G.garrisons_of(s, seat):            # For Glory: each Garrison's wage
                if total + G.garrison_wage(s) <= left:
                    total += G.garrison_wage(s)
                else:
                    bare.append(city)
            return "WagesPaid", seat, {"unpaid": unpaid, "crowns": regular + total,
                                       **({"unpaid_garrisons": bare} if bare else {})}
        if f.step == "draft":
            seat = f.current
            b = s.barons[seat]
            holder = STRONGHOLD if b.stronghold else None
            if holder is None:
                for n in sorted(s.nobles.values()):
                    if n.owner == seat and may_receive(s, seat, n.id) is None:
                        holder = n.id
                        break
            for n in sorted(s.nobles.values()):
                if n.owner == seat and n.area is not None and not n.dead and may_receive(s, seat, n.id) is None:
                    holder = n.id
                    break
            affordable = sorted((t for t in s.market if t.wage <= b.crowns - 3), key=lambda t: (-t.strength, t.wage, t.id))
            if holder is None or not affordable or self.rng.random() < 0.2:
                return "MercenaryHired", seat, {}
            hire = self._hire(s, seat, holder, affordable)
            return "MercenaryHired", seat, {"hires": dict([hire])} if hire else {}
        if f.step == "draft_reveal":
            return "MercenariesRevealed", None, {"cards": self.table.draw(s.mercs, len(s.seats) + 1)}
        if f.step == "assembly":
            return self.assembly(s)
        raise SimulationStuck(f"special step {f.step}")

    def _hire(self, s: State, seat: str, holder: str, affordable: list) -> tuple[str, str] | None:
        """(card, holder) of the Mercenary he hires: a Leader or Herald first (For Glory), to a
        Noble who has none of its kind, else to the stronghold; then the strongest troop."""
        b = s.barons[seat]
        holders = [holder] + ([STRONGHOLD] if b.stronghold and holder != STRONGHOLD else [])
        picks = [t for t in affordable if t.kind in LEADER_KINDS] + [t for t in affordable if t.kind not in LEADER_KINDS]
        for t in picks:
            for h in holders:
                army = b.stronghold_army if h == STRONGHOLD else s.nobles[h].army
                if G.leader_problem(h, [b.troops[x] for x in army.troops] + [t]) is None:
                    return t.id, h
        return None

    def assembly(self, s: State):
        a = s.assembly
        if a.step == "acting":
            return "ActingChairmanAppointed", s.chairman, {"baron": a.attending[0]}
        if a.step == "private":
            return "PrivateMotionDrawn", None, {"cards": self.baron_by_fate(s)}
        if a.step == "private_call":
            self.votes = {}
            caller = a.agendas[0]
            mine = s.barons[caller].charges
            if mine and self.rng.random() < 0.5:
                return "PrivateMotionCalled", caller, {"motion": "discard", "target": mine[0]}
            if s.barons[caller].banned:
                return "PrivateMotionCalled", caller, {"motion": "rescind_ban", "target": caller}
            return "PrivateMotionCalled", caller, {}
        if a.step == "order":
            self.votes = {}
            order = list(s.agendas)
            self.rng.shuffle(order)
            return "AgendaOrderDeclared", a.chairman, {"order": order}
        if a.step == "hide":
            open_ = _open_agendas(s)
            for seat in a.attending:
                for ag in open_:
                    if f"{ag}|{seat}" not in a.votes:
                        n = self._votes_for(s, seat, ag, open_)
                        salt = self.salt()
                        self.vote_salts[f"{ag}|{seat}"] = salt
                        return "VotesHidden", seat, {"agenda": ag, "commitment": commitment(n, salt)}
            ag = _current(s)
            for seat in a.attending:
                v = a.votes.get(f"{ag}|{seat}")
                if v is None or v.votes is None:
                    n = self.votes[seat][ag]
                    return "VotesRevealed", seat, {"agenda": ag, "votes": n, "salt": self.vote_salts[f"{ag}|{seat}"]}
        if a.step == "declare":
            seat = s.flow.current
            ag = _current(s)
            return "VoteDeclared", seat, {"agenda": ag, "choice": self._choice(s, seat, ag)}
        if a.step == "tie":
            tied = s.setup.get("tied", ())
            pick = a.chairman if a.chairman in tied else ("yes" if "yes" in tied else tied[0])
            return "TieBroken", a.chairman, {"agenda": _current(s), "choice": pick}
        if a.step == "office":
            seat = s.setup["office_to"]
            noble = sorted(n.id for n in s.nobles.values() if n.owner == seat and not n.dead)[0]
            return "OfficeAssigned", seat, {"agenda": _current(s), "noble": noble}
        if a.step == "charge":
            seat = s.setup["charged"]
            return "ChargeDiscarded", seat, {"agenda": s.barons[seat].charges[0]}
        if a.step == "new":
            return "AgendasRevealed", None, {"cards": self.table.draw(s.agenda_deck, 3)}
        raise SimulationStuck(f"assembly step {a.step}")

    def _votes_for(self, s: State, seat: str, agenda: str, open_: tuple) -> int:
        """How many votes a Baron hides for an Agenda (with 2 players, for all of them at once)."""
        if seat not in self.votes or agenda not in self.votes[seat]:
            held = s.barons[seat].votes
            split = {}
            for ag in open_:
                n = self.rng.randint(0, held)
                split[ag] = n
                held -= n
            self.votes.setdefault(seat, {}).update(split)
        return self.votes[seat][agenda]

    def _choice(self, s: State, seat: str, agenda: str) -> str:
        if agenda == PRIVATE:
            return "yes" if self.rng.random() < 0.6 else "no"
        card = s.agenda_cards[agenda]
        if card.vote == "yes_no":
            return "yes" if self.rng.random() < 0.5 else "no"
        if card.kind == "charge":
            return self.rng.choice([q for q in s.seats if q != seat])
        return seat

    # -- Crown & Glory ----------------------------------------------------------------------------------

    def kings_army(self, s: State):
        """The new King's Army: to his stronghold, or (off the board) his first Noble at a city of his."""
        seat = s.glory.king_army_owed
        n = len(s.seats)
        if s.barons[seat].stronghold is not None:
            return "KingsArmyAssigned", seat, {"armies": {STRONGHOLD: n}}
        homes = {self.data.board.cities[c].area for c in cities_of(s, seat)}
        for nb in sorted(s.nobles.values()):
            if nb.owner == seat and nb.area in homes and not nb.dead and not nb.at_sea:
                return "KingsArmyAssigned", seat, {"armies": {nb.id: n}}
        return "KingsArmyAssigned", seat, {"armies": {STRONGHOLD: n}}

    def fulfils(self, s: State, seat: str, mission: str) -> bool:
        """The Baron's reading of his (invented) Mission card's text, which he signs."""
        b = s.barons[seat]
        board = self.data.board
        mine = [n for n in s.nobles.values() if n.owner == seat and not n.dead]
        checks = {
            "mi01": lambda: sum(1 for c in cities_of(s, seat) if board.areas[board.cities[c].area].is_kingdom) >= 3,
            "mi02": lambda: b.faith >= 5,
            "mi03": lambda: any(n.area and not board.areas[n.area].is_kingdom for n in mine),
            "mi04": lambda: any(n.office for n in mine) or bool(b.concessions),
            "mi05": lambda: b.crowns >= 20,
            "mi06": lambda: not b.charges,
            "mi07": lambda: any(s.cities[c].fortified for c in cities_of(s, seat)),
            "mi08": lambda: sum(1 for n in mine if n.area is not None) == 4,
        }
        return bool(checks.get(mission, lambda: False)())

    # -- Upkeep -------------------------------------------------------------------------------------------

    def upkeep(self, s: State):
        f = s.flow
        opened = self.open_plans(s)
        if opened is not None:
            return opened
        if f.step == "missions":
            seat = f.current
            mission, salt = self.missions[seat]
            return "MissionRevealed", seat, {"mission": mission, "salt": salt,
                                             "fulfilled": self.fulfils(s, seat, mission)}
        if f.step == "revolts":
            if f.revolt_owed is not None:
                city = f.revolt_owed
                owner = s.cities[city].owner
                b = s.barons[owner]
                cost = 2 * self.data.board.cities[city].income
                pay = "faith" if b.faith >= 1 else "crowns" if b.crowns >= cost + 2 else None
                return "RevoltSettled", owner, {"city": city, "pay": pay}
            return "RevoltDrawn", None, {"city": f.revolts[0], "card": self.fate_cards(s, 1)[0]}
        if f.step == "return" and s.glory is not None and s.glory.owned:
            effects = {"ad07": {"crowns": 1}, "ad08": {"faith": 1}}
            for seat in s.seats:
                for adv in s.glory.owned.get(seat, ()):
                    if adv in effects and adv not in s.glory.exhausted:
                        self.adv_effect = (seat, adv, effects[adv])
                        return "AdvancementUsed", seat, {"advancement": adv}
        if f.step == "return" and G.has(s, G.FOR_GLORY):
            used = self._leader_ability(s)
            if used is not None:
                return used
        if f.step == "return":
            for seat in f.order[f.index:]:
                b = s.barons[seat]
                if b.stronghold is None:
                    spots = [a for a in sorted(self.data.board.areas)
                             if stronghold_spot_problem(s, a, seat, setup=False) is None]
                    if spots:
                        return "StrongholdPlaced", seat, {"area": self.rng.choice(spots)}
                homes = ([b.stronghold] if b.stronghold else []) + [
                    self.data.board.cities[c].area for c in cities_of(s, seat) if s.cities[c].siege is None]
                for n in sorted(s.nobles.values()):
                    if n.owner == seat and (n.area is None or n.dead) and n.army.troops and homes:
                        return "NobleReturned", seat, {"noble": n.id, "area": homes[0]}
                if b.stronghold_army.troops:
                    for n in sorted(s.nobles.values()):
                        if n.owner == seat and (n.area is None or n.dead) and not n.army.troops and homes \
                                and not b.stronghold_army.casualties:
                            return "TroopsTransferred", seat, {"from": STRONGHOLD, "to": n.id,
                                                               "troops": self._one_of_each(s, seat)}
            return self.plan(s)
        raise SimulationStuck(f"upkeep step {f.step}")


    def _one_of_each(self, s: State, seat: str) -> list[str]:
        """The stronghold's troops a Noble may take: all, but one Leader and one Herald at most."""
        troops = s.barons[seat].troops
        out, kinds = [], set()
        for x in s.barons[seat].stronghold_army.troops:
            kind = troops[x].kind
            if kind in LEADER_KINDS:
                if kind in kinds:
                    continue
                kinds.add(kind)
            out.append(x)
        return out

    def _leader_ability(self, s: State):
        """For Glory: a Leader's or Herald's ability in the Upkeep (the invented texts: once each
        round), applied as an adjustment its owner signs; None when none is owed."""
        listed = self.data.cards.mercenaries
        for n in sorted(s.nobles.values()):
            if n.dead or n.area is None:
                continue
            for x in n.army.troops:
                change = LEADER_UPKEEP.get(x)
                if change is not None and (s.flow.round, x) not in self.leaders_used:
                    self.leaders_used.add((s.flow.round, x))
                    return "Adjusted", n.owner, {"source": x, **change, "text": listed[x].ability}
        return None


# The invented Leaders' and Heralds' texts the bots apply in the Upkeep (example_cards.json)
LEADER_UPKEEP = {"m29": {"crowns": 1}, "m31": {"votes": 1}, "m32": {"faith": 1}}


def seat_count(options: Mapping[str, str]) -> int:
    raw = options.get("players", "2")
    try:
        n = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"--players {raw!r}: Warrior Knights is played by 2 to 6 Barons") from None
    if not 2 <= n <= 6:
        raise ValueError(f"--players {n}: Warrior Knights is played by 2 to 6 Barons")
    return n


def variants_of(options: Mapping[str, str]) -> tuple[str, ...]:
    """The Crown & Glory variants of `--variants` ("for_glory,missions,king", "all", "none")."""
    raw = (options.get("variants") or "none").strip().lower()
    if raw in ("none", ""):
        return ()
    if raw in ("all", "crown-and-glory", "crown_and_glory"):
        return G.VARIANTS
    names = [x.strip().replace("-", "_") for x in raw.split(",") if x.strip()]
    bad = [x for x in names if x not in G.VARIANTS]
    if bad:
        raise ValueError(f"--variants {bad[0]!r}: the Crown & Glory variants are {', '.join(G.VARIANTS)} "
                         "(or all, or none)")
    return tuple(v for v in G.VARIANTS if v in names)


def play_game(seed: int, game_id: str, players: int, data: GameData | None = None,
              variants: tuple[str, ...] = ()) -> SimulatedGame:
    data = data or default_data()
    rng = random.Random(f"warrior-knights:{seed}:{game_id}")
    seats = COLOURS[:players]
    rec = LogRecorder(game_id)
    start = {"ruleset": "warrior-knights", "players": [{"id": q} for q in seats],
             "data": {"board": data.board.digest, "cards": data.cards.digest}}
    if variants:
        start["variants"] = list(variants)
    rec.add("GameStarted", None, **start)
    model = PAYLOADS["GameStarted"].model_validate(start)
    problems = [v for v in E.check_start(model, data) if v.blocking]
    if problems:
        raise ValueError(problems[0].message)
    state = E.initial_state(model, data)
    bots = Bots(data, rng)
    while state.result is None and state.flow.round <= MAX_ROUNDS and len(rec.envelopes) < MAX_EVENTS:
        type_, actor, payload = bots.next(state)
        state = judged_next(E.step, PAYLOADS, state, rec, type_, actor, payload)
        rec.add(type_, actor, **payload)
    finished = state.result is not None
    if finished:
        opened = bots.open_plans(state)
        while opened is not None:
            state = judged_next(E.step, PAYLOADS, state, rec, *opened)
            rec.add(opened[0], opened[1], **opened[2])
            opened = bots.open_plans(state)
        if rec.envelopes[-1]["type"] != "GameEnded":
            winner = state.result.winners[0] if state.result.winners else None
            payload = {"winner": winner, "reason": state.result.reason}
            state = judged_next(E.step, PAYLOADS, state, rec, "GameEnded", None, payload)
            rec.add("GameEnded", None, **payload)
    return SimulatedGame(game_id, rec.sealed(), state.flow.round,
                         state.result.winners[0] if finished and state.result.winners else None,
                         state.result.reason if finished else None, finished)


def simulate(seed: int, game_id: str, options: Mapping[str, str]) -> SimulatedGame:
    """RULESET.simulate: `options` {"players": "2".."6", "variants": "for_glory,missions,king"}."""
    unknown = sorted(set(options) - {"players", "variants"})
    if unknown:
        raise ValueError(f"Warrior Knights simulations take no --{unknown[0]} option")
    return play_game(seed, game_id, seat_count(options), variants=variants_of(options))
