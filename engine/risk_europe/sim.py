"""Simulated games: seeded bots play Risk Europe to the end and the game is written as a sealed
log in digital-play form.

    simulate_game(seed, game_id, variant="basic") -> [envelope]        one game, sealed
    simulate(seed, game_id, {"variant": "teams"}) -> SimulatedGame     the RULESET.simulate hook

Pure: the bots' generators are seeded, nothing is read or written (the CLI writes the files).

Every variant of engine/risk_europe/variants.py can be played: the players are the first colours
of blue, orange, red, green and the Mercenary Armies the next ones (3 players: green is the
Mercenary Army; 2 players: red and green). A Mercenary Army is played by a bot of its own, which
never turns on the player controlling it that round; its City Bonus Tiles and each card it flips
are random draws made with the game's seeded dice (engine.risk_europe.chance).

With Kingdom Missions (a variant "...+missions") the bots play with the invented example missions
(engine/risk_europe/data/kingdom_missions.example.json, declared by its digest in GameStarted):
the Crown Card deck is shuffled with a generator of its own (the cards a player draws are hidden,
so they are not drawn from the public dice), a bot keeps a mission as a commitment and turns it
over once its condition holds. Judged with that file the game is clean; judged without it, every
completion is listed as an unverified claim (RE-MISSION-UNVERIFIED).

What a simulated log holds: GameStarted with seeded dice (the SHA-256 of the seed text is
published), every die drawn in order from `SeededDice(seed text)` (a battle rank's dice for its
players in seat order, the order the engine checks them in), bids and cards as commitments
(BidPlaced then BidRevealed; CardsCommitted then one CardRevealed per turn) with salts from the
bots' own generators, the claims a careful recorder writes (coins taxed and paid, Footmen
fortified, who won each battle), and at the end GameEnded and SeedRevealed. No timestamps, so the
same seed always gives the same bytes. With `live=True` the log is the one a live table writes
(`ledger serve`): the same game, with each turn ended by TurnEnded and each castle re-roll not
taken declined by RerollDeclined, where the default log leaves both to the next event.

Every event is judged by the engine as it is made; a bot's move that the engine would reject is
never written (the bot's next choice is taken instead). A game that has not ended after
`MAX_ROUNDS` rounds stops there: the log ends with SeedRevealed and no GameEnded.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Mapping

from engine.core.canonical import sha256_hex
from engine.core.commit import commitment
from engine.core.dice import SeededDice
from engine.core.record import LogRecorder, SimulationError, judged_next
from engine.core.projection import SimulatedGame
from engine.risk_europe import RULESET
from engine.risk_europe.board import MISSIONS_EXAMPLE, default_data, load_data, shipped_file
from engine.risk_europe.chance import draw
from engine.risk_europe.engine import bidders
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.legal import (
    ChanceSpec, Hidden, Move, candidate_moves, chance_needed, dice_for, is_accepted, is_last_turn,
    turn_actions, turn_end_chance, turn_end_moves,
)
from engine.risk_europe.variants import parse_variant
from engine.risk_europe.bots import Bot, loyal_moves

COLOURS = ("blue", "orange", "red", "green")
PLAYERS = COLOURS                      # the basic game's players
MAX_ROUNDS = 60


def armies_for(variant: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(players, Mercenary Armies) of a simulated game of `variant`."""
    v = parse_variant(variant)
    return COLOURS[:v.players], COLOURS[v.players:v.players + v.mercenaries]


@lru_cache(maxsize=1)
def _example_missions_data():
    """The shipped board and deck with the invented example missions (for +missions games)."""
    return load_data(missions_path=shipped_file(MISSIONS_EXAMPLE))


def seed_text(seed: int, game_id: str, variant: str = "basic") -> str:
    """The secret seed of one simulated game's dice (revealed at its end)."""
    tag = "" if variant == "basic" else f"{variant}:"
    return sha256_hex(f"ledger-simulate:{tag}{seed}:{game_id}")[:32]


class _Table:
    """The game being played: the state, the log so far, the dice, the bots and their secrets."""

    def __init__(self, seed: int, game_id: str, max_rounds: int, variant: str = "basic",
                 live: bool = False):
        self.live = live
        self.seed = seed_text(seed, game_id, variant)
        self.dice = SeededDice(self.seed)
        self.rec = LogRecorder(game_id)
        self.players, self.mercenaries = armies_for(variant)
        self.bots = {p: Bot(p, f"{self.seed}:{p}") for p in self.players + self.mercenaries}
        self.secrets: dict[str, Hidden] = {}
        self.max_rounds = max_rounds
        missions = parse_variant(variant).missions
        data = _example_missions_data() if missions else default_data()
        self.crown_deck = list(data.mission_ids)
        random.Random(f"{self.seed}:crown-cards").shuffle(self.crown_deck)
        start = {"ruleset": "risk-europe", "variant": variant,
                 "players": [{"id": p} for p in self.players]}
        if self.mercenaries:
            start["mercenaries"] = [{"id": p} for p in self.mercenaries]
        declared = {"board": data.board_digest, "cards": data.cards_digest}
        if data.missions is not None:
            declared["missions"] = data.missions.digest
        start.update({"dice": {"mode": "seeded", "seed_hash": sha256_hex(self.seed)}, "data": declared})
        self.rec.add("GameStarted", None, **start)
        self.state = RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(start), data)

    # --- writing events --------------------------------------------------------------------------

    def record(self, type_: str, actor: str | None, payload: dict) -> None:
        """Judge one event, apply it, write it (with the claims the new state gives)."""
        nxt = judged_next(RULESET.step, PAYLOADS, self.state, self.rec, type_, actor, payload)
        before, self.state = self.state, nxt
        self.rec.add(type_, actor, **_with_claims(type_, actor, payload, before, nxt))
        if before.battle is not None and nxt.battle is None and nxt.last_battle is not None:
            t, winner = nxt.last_battle
            self.record("BattleEnded", None, {"territory": t, "winner": winner})

    def play(self, move: Move) -> None:
        """Write a bot's move; a move that needs dice (the castle re-roll) gets them now."""
        spec = dice_for(self.state, move)
        payload = move.payload if spec is None else {**move.payload, **spec.payload(self.roll(spec))}
        self.record(move.type, move.actor, payload)

    def roll(self, spec: ChanceSpec) -> dict[str, list[int]]:
        """Draw the dice of `spec` from the seeded stream, player by player in seat order."""
        return {p: self.dice.roll(n) for p, n in spec.dice}

    def chance(self, spec: ChanceSpec) -> None:
        """Roll the dice of `spec`, or make its draw with dice from the seeded stream."""
        if spec.draw:
            drawn, dice = draw(spec.pool, spec.draw, lambda: self.dice.roll(1)[0])
            actor = None if spec.event_type == "TilesDrawn" else spec.actor
            self.record(spec.event_type, actor, spec.draw_payload(drawn, dice))
            return
        self.record(spec.event_type, None, spec.payload(self.roll(spec)))

    def loyal(self, army: str, moves: list[Move]) -> list[Move]:
        """A Mercenary Army's moves without those that turn on the player controlling it."""
        return loyal_moves(self.state, army, moves)

    def ask(self, player: str, moves: list[Move], optional: bool = False) -> Move | None:
        """The bot's choice among `moves`, checked by the engine (a rejected pick is dropped and
        the bot asked again). None only when `optional`."""
        moves = list(moves)
        if self.state.is_mercenary(player):
            moves = self.loyal(player, moves) or ([] if optional else moves)
        while moves:
            pick = self.bots[player].choose(self.state, moves)
            if pick is None:
                if optional:
                    return None
                pick = moves[0]
            if is_accepted(self.state, pick):
                return pick
            moves.remove(pick)
        if optional:
            return None
        raise SimulationError(f"{self.rec.game}: {player} has no legal move at {self.state.flow}")

    # --- the game ---------------------------------------------------------------------------------

    def run(self) -> SimulatedGame:
        finished = True
        while self.state.flow.phase != "over":
            f = self.state.flow
            if f.phase == "commit" and f.round > self.max_rounds:
                finished = False
                break
            self.advance()
        res = self.state.result
        winner = res.winners[0] if res and len(res.winners) == 1 else None
        if finished:
            declared = {"winners": list(res.winners)} if len(res.winners) > 1 else {"winner": winner}
            self.record("GameEnded", None, {**declared, "reason": res.reason})
        self.record("SeedRevealed", None, {"seed": self.seed})
        rounds = self.state.flow.round if finished else self.max_rounds
        return SimulatedGame(self.rec.game, self.rec.sealed(), rounds, winner,
                             res.reason if res else None, finished)

    def advance(self) -> None:
        """Make the next event(s): a chance roll or one player's decision."""
        s = self.state
        f = s.flow
        spec = chance_needed(s)
        if f.phase in ("bidding", "control"):
            self.bids()
        elif f.phase == "commit":
            self.commits()
        elif f.phase == "turn":
            self.turn_step(spec)
        elif f.phase == "battles":
            self.battle_step(spec)
        elif spec is not None:
            self.chance(spec)
        else:
            moves = candidate_moves(s, self.secrets)
            actor = moves[0].actor
            self.play(self.ask(actor, [m for m in moves if m.actor == actor]))

    def bids(self) -> None:
        """Every player commits a secret bid (for first player, or for a Mercenary Army); then
        all are revealed."""
        label = {"army": self.state.flow.merc} if self.state.flow.merc else {}
        for p in bidders(self.state):
            if self.state.players[p].bid_commitment is None:
                moves = [m for m in candidate_moves(self.state) if m.actor == p]
                amount = self.ask(p, moves).payload["amount"]
                salt = self.bots[p].salt()
                self.secrets[p] = self.secrets.get(p, Hidden())._replace(bid=(amount, salt))
                self.record("BidPlaced", p, {"commitment": commitment(amount, salt), **label})
        for m in candidate_moves(self.state, self.secrets):
            if m.type == "BidRevealed":
                self.play(m)

    def commits(self) -> None:
        """Each player lays two cards face down (as commitments) for the round."""
        moves = candidate_moves(self.state)
        for p in self.state.flow.order:
            if self.state.is_mercenary(p):
                continue
            pick = self.ask(p, [m for m in moves if m.actor == p])
            cards = tuple((c, self.bots[p].salt()) for c in pick.payload["cards"])
            self.secrets[p] = self.secrets.get(p, Hidden())._replace(cards=cards)
            self.record("CardsCommitted", p, {"commitments": [commitment(c, salt) for c, salt in cards]})

    def turn_step(self, spec: ChanceSpec | None) -> None:
        s = self.state
        f = s.flow
        if spec is not None:
            self.chance(spec)
            return
        if f.pending is not None and f.pending[0] == "mission":
            self.keep_mission(f.pending[1], f.pending[2])
            return
        if f.card is None or f.pending is not None:     # the reveal, or a siege assault's casualties
            moves = candidate_moves(s, self.secrets)
            self.play(self.ask(moves[0].actor, moves))
            return
        act = self.ask(f.current, turn_actions(s, self.secrets), optional=True)
        if act is not None:
            self.play(act)
        elif self.live:
            self.record("TurnEnded", f.current, {})
        elif is_last_turn(s):
            self.state = RULESET.conclude(s)              # the next event closes the turn as well
        elif (flip := turn_end_chance(s)) is not None:
            self.chance(flip)                             # the next seat is a Mercenary deck
        else:
            self.play(turn_end_moves(s, self.secrets)[0])

    def keep_mission(self, player: str, n: int) -> None:
        """King Me with Kingdom Missions: `player` draws the top `n` Crown Cards, keeps one as a
        commitment and returns the other to the bottom."""
        drawn, self.crown_deck = self.crown_deck[:n], self.crown_deck[n:]
        moves = [Move(player, "MissionKept", {"mission": m}) for m in drawn]
        keep = self.bots[player].choose(self.state, moves).payload["mission"]
        self.crown_deck += [m for m in drawn if m != keep]
        salt = self.bots[player].salt()
        hidden = self.secrets.get(player, Hidden())
        self.secrets[player] = hidden._replace(missions=hidden.missions + ((keep, salt),))
        self.record("MissionKept", player, {"commitment": commitment(keep, salt)})

    def battle_step(self, spec: ChanceSpec | None) -> None:
        s = self.state
        b = s.battle
        if b is None:
            moves = candidate_moves(s)
            self.play(self.ask(s.marker, moves))
            return
        moves = [] if b.stage == "roll" else candidate_moves(s)
        reroll = [m for m in moves if m.type == "DiceRerolled"]
        if reroll:
            pick = self.ask(b.defender, reroll, optional=True)
            if pick is not None:
                self.play(pick)
                return
            if self.live:
                self.record("RerollDeclined", b.defender, {"territory": b.territory, "rank": b.rank})
                return
        if b.owed:
            p = b.owed[0][0]
            self.play(self.ask(p, [m for m in moves if m.actor == p and m.type == "CasualtiesRemoved"]))
            return
        self.chance(spec)


def _with_claims(type_: str, actor: str | None, payload: dict, before, after) -> dict:
    """The payload with the claim a recorder writes down (coins, Footmen), read off the states."""
    if type_ in ("Taxed", "KingdomPlaced"):
        return {**payload, "coins": after.players[actor].coins - before.players[actor].coins}
    if type_ == "Spent":
        return {**payload, "coins": before.players[actor].coins - after.players[actor].coins}
    if type_ == "Fortified":
        t = after.data.resolve(payload["territory"])
        return {**payload, "footmen": after.terr[t].units.footman - before.terr[t].units.footman}
    return payload


def play_game(seed: int, game_id: str, max_rounds: int = MAX_ROUNDS, variant: str = "basic",
              live: bool = False) -> SimulatedGame:
    """Bots play one game of `variant` from `seed`; the sealed log and how it ended (`live`: as
    a live table logs it, every turn's end and every re-roll declined written down)."""
    return _Table(seed, game_id, max_rounds, variant, live).run()


def simulate_game(seed: int, game_id: str, variant: str = "basic", live: bool = False) -> list[dict]:
    """The sealed log (envelopes) of one game of `variant` played by seeded bots.

    >>> log = simulate_game(7, "sim-7-0001")
    >>> log[0]["type"], log[-1]["type"]
    ('GameStarted', 'SeedRevealed')
    """
    return play_game(seed, game_id, variant=variant, live=live).envelopes


def game_id_for(seed: int, index: int) -> str:
    """The id of the `index`-th (1-based) game simulated from `seed`."""
    return f"sim-{seed}-{index:04d}"


def simulate(seed: int, game_id: str, options: Mapping[str, str]) -> SimulatedGame:
    """RULESET.simulate: one game played by seeded bots; options {"variant": ...} (default basic).
    ValueError for an option or a variant the bots do not know."""
    unknown = set(options) - {"variant"}
    if unknown:
        raise ValueError(f"the Risk Europe bots take no option {sorted(unknown)[0]!r}")
    return play_game(seed, game_id, variant=options.get("variant") or "basic")
