"""Simulated Risk Legacy games and campaigns: seeded bots play complete legal games on an evolving
world, and a campaign of games, each starting from the world the last one left.

    play_game(seed, game_id, world, players, campaign=None, game_no=1) -> SimulatedGame
    simulate_campaign(name, games, seed, out_dir) -> [Path]     game-01.jsonl, game-02.jsonl, ...

What a simulated log holds: GameStarted with the world (and campaign name, game number and world
digest) and seeded dice (the SHA-256 of the seed text is published), the Scar cards dealt, the
face-up cards and each new slot-1 card (drawn by the table's own generator, seeded from the same
seed), every die from `SeededDice(seed text)` in seat order, the bots' decisions, the troops
removed after every roll, the claims a careful recorder writes (troops recruited), the end-of-game
rewards, GameEnded and SeedRevealed. No timestamps: the same seed gives the same bytes.

Every event is judged by the engine as it is made; an event the engine rejects is a bug
(SimulationError). A game that has not ended after `MAX_TURNS` turns stops there (no GameEnded).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engine.core.canonical import sha256_hex
from engine.core.dice import SeededDice
from engine.core.events import Event
from engine.risk_legacy import RULESET
from engine.risk_legacy import engine as E
from engine.risk_legacy import legal as L
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTIONS, GameData, default_data
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.state import END, MAIN, START, State
from ledger.logfile import write_log
from ledger.record import LogRecorder

PLAYERS = ("ann", "bob", "cat", "dan")
MAX_TURNS = 600


class SimulationError(RuntimeError):
    """The simulator made an event the engine rejects (a bug in the simulator or the engine)."""


@dataclass(frozen=True)
class SimulatedGame:
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
# the bot
# ---------------------------------------------------------------------------------------------

class LegacyBot:
    """A player with some sense: buys Red Stars, recruits on its front, takes HQs and weak
    neighbours, expands into empty land, keeps its HQ garrisoned, draws the richest card."""

    def __init__(self, player: str, seed: str):
        self.player = player
        self.rng = random.Random(seed)
        self.boldness = self.rng.uniform(1.0, 1.6)      # attack when own dice outweigh this much
        self.trade_at = self.rng.randint(5, 9)          # trade cards for troops at this many resources
        self.expand_bias = self.rng.uniform(0.3, 1.0)

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
                 campaign: str | None, max_turns: int):
        self.seed = seed_text(seed, game_id)
        self.dice = SeededDice(self.seed)
        self.cards = random.Random(f"{self.seed}:cards")
        self.rec = LogRecorder(game_id)
        self.bots = {p: LegacyBot(p, f"{self.seed}:{p}") for p in players}
        self.max_turns = max_turns
        data = default_data()
        start = {"ruleset": "risk-legacy", "players": [{"id": p} for p in players],
                 "dice": {"mode": "seeded", "seed_hash": sha256_hex(self.seed)},
                 "data": {"board": data.board_digest, "rules": data.rules_digest},
                 "world": W.world_to_dict(world)}
        if campaign is not None:
            start["campaign"] = {"name": campaign, "game": world.games + 1, "world": W.world_digest(world)}
        self.rec.add("GameStarted", None, **start)
        self.state = RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(start), data)

    def record(self, type_: str, actor: str | None, payload: dict) -> None:
        event = Event(len(self.rec.envelopes), type_, actor, PAYLOADS[type_].model_validate(payload))
        violations, nxt = RULESET.step(self.state, event)
        if nxt is None or violations:
            raise SimulationError(f"{self.rec.game} seq {event.seq}: {type_} by {actor} {payload!r} is "
                                  f"rejected: {[v.as_dict() for v in violations]}")
        self.state = nxt
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
            pool = [k for k, n in sorted(E.scar_cards_available(s).items()) for _ in range(n)]
            self.cards.shuffle(pool)
            self.record("ScarCardsDealt", None, {"cards": {p: pool[i] for i, p in enumerate(s.seats)}})
        elif spec.kind == "layout":
            deck = sorted(s.side.draw)
            self.record("CardsLaidOut", None, {"cards": self.cards.sample(deck, min(4, len(deck)))})
        elif spec.kind == "reveal":
            self.record("CardRevealed", None, {"card": self.cards.choice(L.deck_cards(s))})
        elif spec.kind == "rolloff":
            self.record("DiceRolled", None, {"rolls": {p: self.dice.roll(n) for p, n in spec.dice}})
        else:
            raise SimulationError(f"the simulator does not play {spec.kind} cards")

    def combat_step(self) -> None:
        s = self.state
        cb = s.combat
        if cb.stage == "declared":
            for m in L.combat_moves(s):
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
        """A Missile is fired when it turns the roll: for the side of the player firing, or for
        the defender of an HQ whose loss would give the attacker the game."""
        cb = s.combat
        _, _, a0, d0 = E.roll_result(s, cb)
        hq = s.terr[cb.to].hq is not None
        danger = hq and E.stars(s, cb.attacker) >= 3
        for m in L.combat_moves(s):
            p = m.actor
            side = m.payload["side"]
            trial = s.combat._replace(missiles=cb.missiles + ((side, m.payload["die"], p),))
            _, _, a1, d1 = E.roll_result(s, trial)
            if p == cb.attacker and side == "attacker" and hq and (a1 < a0 or d1 > d0):
                return m
            if (p == cb.defender or danger) and p != cb.attacker and side == "defender" and hq and (d1 < d0 or a1 > a0):
                return m
        return None

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
        if f.step < END and E.may_draw(s, p):
            card = bot.card(s)
            if card is not None:
                self.record("CardDrawn", p, card)
                return
        self.record("TurnEnded", p, {})


def play_game(seed: int, game_id: str, world: W.World | None = None, players: tuple[str, ...] = PLAYERS,
              campaign: str | None = None, max_turns: int = MAX_TURNS) -> SimulatedGame:
    """Seeded bots play one game on `world` (default: a randomly customized box)."""
    if world is None:
        world = random_world(default_data(), random.Random(seed_text(seed, game_id)))
    return _Table(seed, game_id, world, players, campaign, max_turns).run()


def simulate_campaign(name: str, games: int, seed: int, out_dir: Path, players: tuple[str, ...] = PLAYERS,
                      progress: Callable[[int, int, SimulatedGame], None] | None = None
                      ) -> tuple[W.World, list[Path]]:
    """A campaign of `games` games on one world: the customized box, then each game's world.

    Writes game-01.jsonl, game-02.jsonl, ... into `out_dir`; returns the world before the first
    game and the paths. A game that does not finish within MAX_TURNS is played again with the
    next seed (a campaign only adds finished games).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"ledger-legacy-campaign:{seed}:{name}")
    world0 = random_world(default_data(), rng)
    world = world0
    paths = []
    for i in range(1, games + 1):
        attempt = 0
        while True:
            game = play_game(seed + 1000 * attempt, f"{name}-{i:02d}", world, players, campaign=name)
            if game.finished:
                break
            attempt += 1
        path = out_dir / f"game-{i:02d}.jsonl"
        write_log(path, game.envelopes)
        paths.append(path)
        world = game.world_after
        if progress is not None:
            progress(i, games, game)
    return world0, paths
