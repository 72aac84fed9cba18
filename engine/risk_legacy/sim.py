"""Simulated Risk Legacy games and campaigns: seeded bots play complete legal games on an evolving
world, and a campaign of games, each starting from the world the last one left.

    play_game(seed, game_id, world, players, campaign=None) -> SimulatedGame
    simulate(seed, game_id, options) -> engine.core.projection.SimulatedGame   (RULESET.simulate)
    campaign_world(name, seed) -> World; play_campaign(name, games, seed) -> iterator of SimulatedGame

Pure: everything random comes from seeded `random.Random`s and dice streams; writing the logs
(game-01.jsonl, ...) is the caller's business.

What a simulated log holds: GameStarted with the world (and campaign name, game number and world
digest), seeded dice (the SHA-256 of the seed text is published) and, from a world's second game
on, the Event and Mission cards in play; then the game as digital play records it. Everything
random comes from the one stream `SeededDice(seed text)`, in the log's order: each die of a roll
(seat order), and every card drawn, by the draw rule (engine.core.chance) from the pool the engine
names (`chance_needed`), with the dice it took written beside it — the face-up cards laid out and
each new slot-1 card, an Event card and a Mission card (from the invented decks below: their
texts are not in the rulebook, so the engine takes the card as a claim and checks only how many
dice its draw took). The Scar cards are dealt face down: commitments, and the number of the
stream's dice the deal took (their faces would tell the cards; the seed shows them at the end);
each card is turned over with its salt when its scar is placed, or when the game ends. Then the
bots' decisions, the troops removed after every roll, the claims a careful recorder writes (troops
recruited, a mission's reward), the Event cards' effects, the end-of-game rewards, GameEnded and
SeedRevealed. No timestamps: the same seed gives the same bytes.

Every event is judged by the engine as it is made, with the seed known, so each die and draw is
checked at its own line; an event the engine rejects is a bug (SimulationError). A game that has
not ended after `MAX_TURNS` turns stops there (no GameEnded).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping

from engine.core.canonical import sha256_hex
from engine.core.chance import draw
from engine.core.commit import commitment
from engine.core.dice import SeededDice
from engine.core.projection import SimulatedGame as PlayedGame
from engine.core.record import LogRecorder, SimulationError, judged_next
from engine.risk_legacy import engine as E
from engine.risk_legacy import legal as L
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTIONS, GameData, default_data
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.state import END, FACE_DOWN, MAIN, START, State

PLAYERS = ("ann", "bob", "cat", "dan")
MAX_TURNS = 600


@dataclass(frozen=True)
class SimulatedGame:
    """One game the bots played: its sealed log, turns played, the result and the world it leaves."""

    game_id: str
    envelopes: list[dict]
    turns: int
    winner: str | None
    reason: str | None
    finished: bool
    world_after: W.World

    @property
    def events(self) -> int:
        return len(self.envelopes)


def seed_text(seed: int, game_id: str) -> str:
    return sha256_hex(f"ledger-legacy:{seed}:{game_id}")[:32]


def random_world(data: GameData, rng: random.Random) -> W.World:
    """Before your first game, done at random as the rulebook suggests: a coin flip for each
    faction's power, the 12 coin stickers on random cards (at most 3 resources each)."""
    powers = {f: rng.randrange(2) for f in FACTIONS}
    stickers: dict[str, int] = {}
    cards = sorted(data.territory_of_card)
    left = data.inventory["first_game_coin_stickers"]
    while left:
        card = rng.choice(cards)
        if 1 + stickers.get(card, 0) < data.inventory["max_resources_first_game"]:
            stickers[card] = stickers.get(card, 0) + 1
            left -= 1
    problems, w = W.customize(W.pristine_world(data), data, powers, stickers)
    assert not problems, problems
    return w


# ---------------------------------------------------------------------------------------------
# the Event and Mission cards (invented: the real ones are in the sealed packs)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EventCard:
    """An Event card: its text, where it goes after its effect, and the effects it has in a
    position ([] when it does not occur: "If there is ever a tie ... the Event does not occur")."""

    card: str
    text: str
    placed: str
    effects: Callable[[State], list[dict]]


@dataclass(frozen=True)
class MissionCard:
    """A Mission card: its text, its reward, and whether a player has completed it now."""

    card: str
    text: str
    reward: int
    is_met: Callable[[State, str], bool]


def _only(scores: dict[str, int], best=max) -> str | None:
    """The one key with the best score (None on a tie or when there is none)."""
    if not scores:
        return None
    top = best(scores.values())
    leaders = [k for k, v in scores.items() if v == top]
    return leaders[0] if len(leaders) == 1 else None


def _by_player(s: State, measure: Callable[[State, str], int], best=max) -> str | None:
    return _only({p: measure(s, p) for p in s.active_players}, best)


def _largest(s: State, p: str) -> str:
    return max(E.territories_of(s, p), key=lambda t: (s.terr[t].troops, t))


def _plague(s: State) -> list[dict]:
    t = _only({t: x.troops for t, x in s.terr.items() if x.troops > 0})
    return [{"kind": "troops", "territory": t, "delta": -2}] if t else []


def _desertion(s: State) -> list[dict]:
    p = _by_player(s, E.troops_of)
    return [{"kind": "troops", "territory": _largest(s, p), "delta": -3}] if p else []


def _reinforcements(s: State) -> list[dict]:
    p = _by_player(s, E.troops_of, min)
    return [{"kind": "troops", "territory": _largest(s, p), "delta": 3}] if p and E.territories_of(s, p) else []


def _arms_dealer(s: State) -> list[dict]:
    p = _by_player(s, lambda s, p: len(E.territories_of(s, p)), min)
    return [{"kind": "missiles", "player": p, "delta": 1}] if p else []


def _scandal(s: State) -> list[dict]:
    p = _by_player(s, lambda s, p: s.players[p].tokens)
    return [{"kind": "red_stars", "player": p, "delta": -1}] if p and s.players[p].tokens else []


def _rally(s: State) -> list[dict]:
    p = _by_player(s, lambda s, p: len(E.territories_of(s, p)), min)
    return [{"kind": "red_stars", "player": p, "delta": 1}] if p else []


def _slot_one(s: State, delta: int) -> list[dict]:
    t = s.data.territory_of_card[s.side.slots[0]]
    x = s.terr[t]
    if x.troops == 0 or (delta < 0 and x.troops + delta < 0):
        return []
    return [{"kind": "troops", "territory": t, "delta": delta}]


EVENT_CARDS: tuple[EventCard, ...] = (
    EventCard("E1", "Plague: the territory with the most troops loses 2", "box", _plague),
    EventCard("E2", "Arms dealer: the player with the fewest territories takes a Missile", "deck", _arms_dealer),
    EventCard("E3", "Desertion: the largest army loses 3 troops from its largest territory", "box", _desertion),
    EventCard("E4", "Reinforcements: the smallest army places 3 troops in its largest territory", "deck",
              _reinforcements),
    EventCard("E5", "Scandal: the player with the most Red Star tokens loses one", "box", _scandal),
    EventCard("E6", "Rally: the player with the fewest territories takes a Red Star token", "box", _rally),
    EventCard("E7", "Earthquake: slot 1's territory loses 2 troops", "deck", lambda s: _slot_one(s, -2)),
    EventCard("E8", "Supply drop: slot 1's territory gains 2 troops", "box", lambda s: _slot_one(s, 2)),
)


def _controls(continent: str) -> Callable[[State, str], bool]:
    return lambda s, p: continent in E.continents_of(s, p)


def _cities_held(s: State, p: str) -> int:
    return sum(1 for t in E.territories_of(s, p) if W.marks(s.world, t).city is not None)


def _enemy_hq(s: State, p: str) -> bool:
    return any(s.terr[t].hq != s.players[p].faction for t in E.hqs_of(s, p))


MISSION_CARDS: tuple[MissionCard, ...] = (
    MissionCard("M1", "Control 2 continents", 2, lambda s, p: len(E.continents_of(s, p)) >= 2),
    MissionCard("M2", "Control 14 territories", 1, lambda s, p: len(E.territories_of(s, p)) >= 14),
    MissionCard("M3", "Conquer 3 territories in one turn", 1, lambda s, p: s.flow.conquered >= 3),
    MissionCard("M4", "Control 3 cities", 1, lambda s, p: _cities_held(s, p) >= 3),
    MissionCard("M5", "Have 30 troops on the board", 1, lambda s, p: E.troops_of(s, p) >= 30),
    MissionCard("M6", "Control Australia", 1, _controls("australia")),
    MissionCard("M7", "Control South America", 1, _controls("south_america")),
    MissionCard("M8", "Hold another faction's HQ", 1, _enemy_hq),
)
EVENTS = {c.card: c for c in EVENT_CARDS}
MISSIONS = {c.card: c for c in MISSION_CARDS}


# ---------------------------------------------------------------------------------------------
# the bot
# ---------------------------------------------------------------------------------------------

def turning_missile(s: State, fire: Iterable[L.Move]) -> L.Move | None:
    """The first Missile of `fire` (MissileFired moves) that turns the roll: for the side of the
    player firing, or for the defender of an HQ whose loss would give the attacker the game."""
    cb = s.combat
    _, _, a0, d0 = E.roll_result(s, cb)
    hq = s.terr[cb.to].hq is not None
    danger = hq and E.stars(s, cb.attacker) >= 3
    for m in fire:
        p = m.actor
        side = m.payload["side"]
        trial = cb._replace(missiles=cb.missiles + ((side, m.payload["die"], p),))
        _, _, a1, d1 = E.roll_result(s, trial)
        if p == cb.attacker and side == "attacker" and hq and (a1 < a0 or d1 > d0):
            return m
        if (p == cb.defender or danger) and p != cb.attacker and side == "defender" and hq and (d1 < d0 or a1 > a0):
            return m
    return None


class LegacyBot:
    """A player with some sense: buys Red Stars, recruits on its front, takes HQs and weak
    neighbours, expands into empty land, keeps its HQ garrisoned, draws the richest card."""

    def __init__(self, player: str, seed: str):
        self.player = player
        self.rng = random.Random(seed)
        self.boldness = self.rng.uniform(1.0, 1.6)      # attack when own dice outweigh this much
        self.trade_at = self.rng.randint(5, 9)          # trade cards for troops at this many resources
        self.expand_bias = self.rng.uniform(0.3, 1.0)
        self._salts = random.Random(f"{seed}:salts")

    def salt(self) -> str:
        """A fresh salt for a commitment (from a generator of its own: it changes no decision)."""
        return f"{self._salts.getrandbits(64):016x}"

    # --- helpers ----------------------------------------------------------------------------

    def _enemies_near(self, s: State, t: str) -> int:
        return sum(s.terr[n].troops for n in s.data.neighbours[t] if s.terr[n].owner not in (None, self.player))

    def spare(self, s: State, t: str) -> int:
        """Troops that may leave `t`: all but one, and an HQ keeps a guard."""
        n = s.terr[t].troops
        guard = 1
        if s.terr[t].hq is not None:
            guard = min(n, 2 + self._enemies_near(s, t) // 2)
        return max(0, n - guard)

    def _frontier(self, s: State) -> list[str]:
        p = self.player
        return [t for t in E.territories_of(s, p)
                if any(s.terr[n].owner != p for n in s.data.neighbours[t])]

    # --- decisions ----------------------------------------------------------------------------

    def faction(self, s: State) -> tuple[str, str]:
        taken = {ps.faction for ps in s.players.values()}
        free = [f for f in FACTIONS if f not in taken]
        starts = E.legal_starts(s, self.player, with_hq=True)
        mine = [t for t in starts if (W.marks(s.world, t).city or None) is not None]
        if mine and self.rng.random() < 0.7:
            return self.rng.choice(free), self.rng.choice(mine)
        far = self._hq_distance(s)
        best = max(far.get(t, 99) for t in starts)
        return self.rng.choice(free), self.rng.choice([t for t in starts if far.get(t, 99) >= min(best, 3)])

    def _hq_distance(self, s: State) -> dict[str, int]:
        """Steps from each territory to the nearest HQ on the board."""
        dist = {t: 0 for t, x in s.terr.items() if x.hq is not None}
        todo = sorted(dist)
        for t in todo:
            for n in sorted(s.data.neighbours[t]):
                if n not in dist:
                    dist[n] = dist[t] + 1
                    todo.append(n)
        return dist

    def recruit(self, s: State) -> dict:
        p = self.player
        hand_res = E.resources_of(s, s.players[p].hand)
        trade = L.best_trade(s, p) if hand_res >= self.trade_at and len(s.players[p].hand) < 4 else []
        total = E.recruit_total(s, p, trade)
        target = self.attack_base(s) or max(E.territories_of(s, p), key=lambda t: (s.terr[t].troops, t))
        placements = {target: total}
        hqs = [t for t in E.territories_of(s, p) if s.terr[t].hq is not None]
        threatened = [t for t in hqs if self._enemies_near(s, t) >= s.terr[t].troops and t != target]
        if threatened and total >= 4:
            h = threatened[0]
            placements = {target: total - total // 3, h: total // 3}
        return {"cards": trade, "placements": placements}

    def attack_base(self, s: State) -> str | None:
        best = self.best_attack(s, min_ratio=0.0)
        if best is not None:
            return best[0]
        front = self._frontier(s)
        if not front:
            return None
        return max(front, key=lambda t: (self._enemies_near(s, t), s.terr[t].troops, t))

    def best_attack(self, s: State, min_ratio: float | None = None) -> tuple[str, str, int] | None:
        p = self.player
        ratio = self.boldness if min_ratio is None else min_ratio
        best = None
        for t in E.territories_of(s, p):
            n = s.terr[t].troops
            if n < 2:
                continue
            free = n - 1 if min_ratio is not None else self.spare(s, t)
            for u in sorted(s.data.neighbours[t]):
                x = s.terr[u]
                if x.owner in (None, p) or x.troops == 0 or u in s.flow.immune:
                    continue
                score = free - ratio * x.troops
                if x.hq is not None:
                    score += 4
                if W.is_fortified(s.world, u):
                    score -= 2
                if min_ratio is None and (free < 2 or score < 0):
                    continue
                key = (score, t, u)
                if best is None or key > best[0]:
                    best = (key, (t, u, min(3, n - 1)))
        return None if best is None else best[1]

    def best_expand(self, s: State) -> tuple[str, str, int] | None:
        p = self.player
        if s.flow.expanded >= 6 or self.rng.random() > self.expand_bias:
            return None
        for t in sorted(E.territories_of(s, p), key=lambda t: (-s.terr[t].troops, t)):
            free = self.spare(s, t)
            for u in sorted(s.data.neighbours[t]):
                if s.terr[u].is_occupied:
                    continue
                cost = E.city_cost(s, u)
                if free >= cost + 2:
                    return t, u, cost + 1 + (free - 1 - cost) // 3
        return None

    def move_in(self, s: State) -> int:
        cb = s.combat
        src = s.terr[cb.frm].troops
        keep = 1 + (self._enemies_near(s, cb.frm) // 2 if s.terr[cb.frm].hq else 0)
        n = max(cb.survivors, min(src - 1, src - keep))
        return max(1, min(n, src - 1))

    def maneuver(self, s: State) -> tuple[str, str, int] | None:
        p = self.player
        mine = E.territories_of(s, p)
        inner = [t for t in mine if s.terr[t].troops > 1 and all(s.terr[n].owner == p for n in s.data.neighbours[t])]
        front = self._frontier(s)
        if not inner or not front:
            return None
        a = max(inner, key=lambda t: (s.terr[t].troops, t))
        for b in sorted(front, key=lambda t: (-self._enemies_near(s, t), t)):
            if E.connected(s, p, a, b) or E.has_power(s, p, "sahara-maneuver-anywhere"):
                return a, b, s.terr[a].troops - 1
        return None

    def card(self, s: State) -> dict | None:
        p = self.player
        choices = E.face_up_choices(s, p)
        if choices:
            c = max(choices, key=lambda c: (W.card_resources(s.world, c), c))
            return {"card": c, "troop": E.has_power(s, p, "khan-card-troop")}
        if s.side.coins > 0:
            return {"card": COIN}
        return None

    def reward(self, s: State, moves: list[L.Move]) -> L.Move:
        kinds: dict[str, list[L.Move]] = {}
        for m in moves:
            kinds.setdefault(m.payload["reward"], []).append(m)
        order = ["found_major_city", "name_continent", "fortify_city", "change_continent_bonus",
                 "cancel_scar", "destroy_card", "found_minor_city", "upgrade_card"]
        self.rng.shuffle(order)
        for k in order:
            if k in kinds:
                return self.rng.choice(kinds[k])
        return kinds["pass"][0]


# ---------------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------------

class _Table:
    def __init__(self, seed: int, game_id: str, world: W.World, players: tuple[str, ...],
                 campaign: str | None, max_turns: int, cards: bool):
        self.seed = seed_text(seed, game_id)
        self.dice = SeededDice(self.seed)
        self.rec = LogRecorder(game_id)
        self.bots = {p: LegacyBot(p, f"{self.seed}:{p}") for p in players}
        self.scars: dict[str, tuple[str, str]] = {}            # the face-down Scar cards: (scar, salt)
        self.event_deck = [c.card for c in EVENT_CARDS] if cards else []
        self.mission_deck = [c.card for c in MISSION_CARDS] if cards else []
        self.max_turns = max_turns
        data = default_data()
        start = {"ruleset": "risk-legacy", "players": [{"id": p} for p in players],
                 "dice": {"mode": "seeded", "seed_hash": sha256_hex(self.seed)},
                 "data": {"board": data.board_digest, "rules": data.rules_digest},
                 "world": W.world_to_dict(world)}
        if campaign is not None:
            start["campaign"] = {"name": campaign, "game": world.games + 1, "world": W.world_digest(world)}
        if cards:
            start["events"], start["missions"] = len(self.event_deck), len(self.mission_deck)
        self.rec.add("GameStarted", None, **start)
        state = E.initial_state(PAYLOADS["GameStarted"].model_validate(start), data)
        self.state = E.reveal_seed(state, self.seed)      # every die checked as it is written

    def die(self) -> int:
        """The next die of the game's stream."""
        return self.dice.roll(1)[0]

    def record(self, type_: str, actor: str | None, payload: dict) -> None:
        self.state = judged_next(E.step, PAYLOADS, self.state, self.rec, type_, actor, payload)
        if type_ == "Recruited":
            payload = {**payload, "troops": sum(payload["placements"].values())}
        self.rec.add(type_, actor, **payload)

    def run(self) -> SimulatedGame:
        finished = True
        while self.state.result is None:
            if self.state.flow.turns > self.max_turns:
                finished = False
                break
            self.advance()
        s = self.state
        res = s.result
        if finished:
            while s.flow.phase == "rewards":
                moves = L.legal_moves(s)
                p = s.flow.choosers[0]
                pick = self.bots[p].reward(s, moves)
                self.record(pick.type, pick.actor, pick.payload)
                s = self.state
            if s.flow.phase == "naming":
                tied, who = E.namer(s.world, s.data, None)
                rolls = None
                while who is None:
                    rolls = {p: (rolls or {}).get(p, []) + [self.dice.roll(1)[0]] for p in tied}
                    _, who = E.namer(s.world, s.data, rolls)
                self.record("WorldNamed", None, {"name": f"The World of {who}", "by": who,
                                                 **({"rolls": rolls} if rolls else {})})
            for p in s.seats:
                if s.players[p].scar == FACE_DOWN:
                    scar, salt = self.scars[p]
                    self.record("ScarCardReturned", p, {"scar": scar, "salt": salt})
                    s = self.state
            winner = res.winners[0] if res.winners else None
            self.record("GameEnded", None, {"winner": winner, "reason": res.reason})
        self.record("SeedRevealed", None, {"seed": self.seed})
        s = self.state
        return SimulatedGame(self.rec.game, self.rec.sealed(), s.flow.turns,
                             res.winners[0] if res and res.winners else None,
                             res.reason if res else None, finished, s.world)

    # --- one step -----------------------------------------------------------------------------

    def advance(self) -> None:
        s = self.state
        spec = L.chance_needed(s)
        if spec is not None:
            self.chance(spec)
            return
        f = s.flow
        if f.phase == "choose":
            p = f.current
            faction, t = self.bots[p].faction(s)
            self.record("FactionChosen", p, {"faction": faction, "territory": t})
            return
        if s.combat is not None:
            self.combat_step()
            return
        self.turn_step()

    def chance(self, spec: L.ChanceSpec) -> None:
        s = self.state
        if spec.kind == "scars":
            cards, used = draw(spec.pool, spec.draw, self.die)
            hidden = {}
            for p, scar in zip(s.seats, cards):
                salt = self.bots[p].salt()
                self.scars[p] = (scar, salt)
                hidden[p] = commitment(scar, salt)
            self.record("ScarCardsDealt", None, {"commitments": hidden, "hidden_dice": len(used)})
        elif spec.kind == "layout":
            cards, used = draw(spec.pool, spec.draw, self.die)
            self.record("CardsLaidOut", None, {"cards": cards, "dice": used})
        elif spec.kind == "reveal":
            [card], used = draw(spec.pool, 1, self.die)
            self.record("CardRevealed", None, {"card": card, "dice": used})
        elif spec.kind == "event":
            assert spec.deck == len(self.event_deck), (spec.deck, self.event_deck)
            [card], used = draw(self.event_deck, 1, self.die)
            info = EVENTS[card]
            if info.placed != "deck":
                self.event_deck.remove(card)
            self.record("EventCardDrawn", None, {"card": card, "text": info.text, "effects": info.effects(s),
                                                 "placed": info.placed, "dice": used})
        elif spec.kind == "mission":
            assert spec.deck == len(self.mission_deck), (spec.deck, self.mission_deck)
            [card], used = draw(self.mission_deck, 1, self.die)
            self.mission_deck.remove(card)
            info = MISSIONS[card]
            self.record("MissionRevealed", None, {"card": card, "text": info.text, "reward": info.reward,
                                                  "dice": used})
        elif spec.kind == "rolloff":
            self.record("DiceRolled", None, {"rolls": {p: self.dice.roll(n) for p, n in spec.dice}})
        else:
            raise SimulationError(f"the simulator does not play {spec.kind}")

    def scar_moves(self, s: State) -> list[L.Move]:
        """The face-down Scar cards that could be played on the declared attack (their holders
        know them; the engine does not)."""
        cb = s.combat
        if W.marks(s.world, cb.to).scar is not None:
            return []
        out = []
        for p in s.active_players:
            if s.players[p].scar == FACE_DOWN:
                scar, salt = self.scars[p]
                out.append(L.Move(p, "ScarPlaced", {"scar": scar, "territory": cb.to, "salt": salt}))
        return out + [m for m in L.combat_moves(s) if m.type == "ScarPlaced"]

    def combat_step(self) -> None:
        s = self.state
        cb = s.combat
        if cb.stage == "declared":
            for m in self.scar_moves(s):
                bot = self.bots[m.actor]
                hq = s.terr[cb.to].hq is not None          # scars are kept for the fights over HQs
                useful = hq and ((m.payload["scar"] == "bunker" and m.actor == cb.defender)
                                 or (m.payload["scar"] == "ammo_shortage" and m.actor == cb.attacker))
                if useful and bot.rng.random() < 0.2:
                    self.record(m.type, m.actor, m.payload)
                    return
            defend = max(L.defence_options(s))
            spec = L.attack_dice(s, defend)
            self.record("DiceRolled", None, {"rolls": {p: self.dice.roll(n) for p, n in spec.dice}})
        elif cb.stage == "rolled":
            pick = self.missile(s)
            if pick is not None:
                self.record(pick.type, pick.actor, pick.payload)
                return
            self.record("CasualtiesRemoved", None, L.casualties_payload(s))
        else:
            self.record("MovedIn", cb.attacker, {"troops": self.bots[cb.attacker].move_in(s)})

    def missile(self, s: State) -> L.Move | None:
        """A Missile is fired when it turns the roll (`turning_missile`)."""
        return turning_missile(s, (m for m in L.combat_moves(s) if m.type == "MissileFired"))

    def turn_step(self) -> None:
        s = self.state
        f = s.flow
        p = f.current
        bot = self.bots[p]
        if f.step == START and not f.recruited:
            cards = L.star_purchase(s, p)
            if cards:
                self.record("RedStarBought", p, {"cards": cards})
                return
            if not E.territories_of(s, p):
                starts = E.legal_starts(s, p, with_hq=False)
                self.record("JoinedWar", p, {"territory": bot.rng.choice(starts)})
                return
            self.record("Recruited", p, bot.recruit(s))
            return
        if f.step <= MAIN:
            att = bot.best_attack(s)
            if att is not None:
                self.record("AttackDeclared", p, {"from": att[0], "to": att[1], "troops": att[2]})
                return
            exp = bot.best_expand(s)
            if exp is not None:
                self.record("Expanded", p, {"from": exp[0], "to": exp[1], "troops": exp[2]})
                return
        if not f.maneuvered and f.step <= MAIN:
            man = bot.maneuver(s)
            if man is not None:
                self.record("Maneuvered", p, {"from": man[0], "to": man[1], "troops": man[2]})
                return
        mission = s.side.mission
        if f.step < END and mission is not None and MISSIONS[mission[0]].is_met(s, p):
            self.record("MissionCompleted", p, {"card": mission[0], "reward": mission[1]})
            return
        if f.step < END and E.may_draw(s, p):
            card = bot.card(s)
            if card is not None:
                self.record("CardDrawn", p, card)
                return
        self.record("TurnEnded", p, {})


def play_game(seed: int, game_id: str, world: W.World | None = None, players: tuple[str, ...] = PLAYERS,
              campaign: str | None = None, max_turns: int = MAX_TURNS, cards: bool | None = None
              ) -> SimulatedGame:
    """Seeded bots play one game on `world` (default: a randomly customized box). `cards`: Event
    and Mission cards in play (default: from the world's second game on; the rulebook lets the
    first game ignore them)."""
    if world is None:
        world = random_world(default_data(), random.Random(seed_text(seed, game_id)))
    if cards is None:
        cards = world.games > 0
    return _Table(seed, game_id, world, players, campaign, max_turns, cards).run()


def simulate(seed: int, game_id: str, options: Mapping[str, str] | None = None) -> PlayedGame:
    """RULESET.simulate: an independent game on a freshly customized box (no options)."""
    if options:
        raise ValueError(f"the Risk Legacy bots take no options, not {dict(options)!r}")
    g = play_game(seed, game_id)
    return PlayedGame(g.game_id, g.envelopes, g.turns, g.winner, g.reason, g.finished)


def campaign_world(name: str, seed: int) -> W.World:
    """The world a simulated campaign `name` starts from: the box customized at random (seeded)."""
    return random_world(default_data(), random.Random(f"ledger-legacy-campaign:{seed}:{name}"))


def play_campaign(name: str, games: int, seed: int, players: tuple[str, ...] = PLAYERS
                  ) -> Iterator[SimulatedGame]:
    """A campaign of `games` finished games on one world, from `campaign_world(name, seed)`, each
    starting from the world the last one left. A game that does not finish within MAX_TURNS is
    played again with the next seed (a campaign only adds finished games)."""
    world = campaign_world(name, seed)
    for i in range(1, games + 1):
        attempt = 0
        while True:
            game = play_game(seed + 1000 * attempt, f"{name}-{i:02d}", world, players, campaign=name)
            if game.finished:
                break
            attempt += 1
        world = game.world_after
        yield game
