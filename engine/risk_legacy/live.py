"""Risk Legacy played live through a service (`ledger serve`): the start of a new game, the
chance a server makes from the game's seed, and the simulator's bots playing from the moves it
offers.

    new_game(players, options, dice) -> GameStarted payload      RULESET.new_game
    chance(state, tape) -> (type, actor, payload) | None           RULESET.chance
    table_chance(state, tape) -> {type, fills, shows} | None       RULESET.table_chance
    bot(actor, seed).choose(log, moves) -> move | None             RULESET.bot

(Whose decision the game waits for is `legal.actors`, RULESET.actors.)

The server deals, lays out and reveals with the draw rule (engine.core.chance) from the pools the
engine names, and rolls with the seed's dice, read from the state's own count of dice drawn in the
order the simulator draws them (engine.risk_legacy.sim): so a server and the simulator given the
same seed and the same decisions write the same events. The Scar cards are dealt face up, with
their dice: the service keeps each card from the other seats through the ruleset's `view` and
`redact` until it is played or the game is won (docs/views.md).

Event and Mission cards come from decks whose cards the engine does not know (their texts are in
the sealed packs; the state counts them, `events_left`, `missions_left`): `table_chance` draws
which one with the seed's dice — one of the cards left, by position in the face-down deck — and
the table turns that card over and sends its content; the server adds the draw's dice. The
world's naming after the 15th game is the same when the most signatures are tied: the server
rolls the roll-off, and the winner's name comes from the table (RULESET.table_chance).

An attack roll comes once the defender has declared its dice (DefenceDeclared), and the troops a
roll removes (CasualtiesRemoved, the table's record of what the rules give) once every holder of a
Missile has fired or held: until then the game waits for their decisions. Pure: the tape is an
input.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from engine.core.chance import draw
from engine.core.dice import TapeReader
from engine.core.ruleset import check_seats, refuse_options
from engine.core.seat_fold import SeatBot
from engine.core.views import HIDDEN
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.end_of_game import namer
from engine.risk_legacy.legal import Move, actors, attack_dice, casualties_payload, chance_needed
from engine.risk_legacy.state import MAIN, State

OPTIONS = ("world", "campaign", "events", "missions")


def new_game(players: tuple[str, ...], options: Mapping[str, str], dice: dict) -> dict:
    """The GameStarted payload of a new game for `players` (3 to 5, in seat order) on the shipped
    board: on the box as it comes (uncustomized), or on `options["world"]` (a world document as
    JSON, e.g. one a campaign left), as game `options["campaign"]`'s next when given;
    `options["events"]` / `["missions"]`: the Event and Mission cards in play (a count, default
    0: not used; GameStarted.events / missions). ValueError naming what cannot be started."""
    refuse_options("Risk Legacy", options, OPTIONS)
    check_seats(players, 3, 5, "Risk Legacy")
    data = default_data()
    start: dict[str, Any] = {"ruleset": "risk-legacy", "players": [{"id": p} for p in players],
                             "dice": dict(dice),
                             "data": {"board": data.board_digest, "rules": data.rules_digest}}
    text = options.get("world")
    world = None
    if text:
        try:
            world = W.world_from_dict(json.loads(text))
        except (ValueError, W.WorldError) as exc:
            raise ValueError(f"option 'world' is not a world document: {exc}") from None
        problems = W.check_world(world, data)
        if problems:
            raise ValueError(f"option 'world': {problems[0]}")
        start["world"] = W.world_to_dict(world)
    for key in ("events", "missions"):
        text = options.get(key)
        if text is None:
            continue
        if not (text.isascii() and text.isdigit() and int(text) <= 99):
            raise ValueError(f"option {key!r} is the number of {key[:-1].capitalize()} cards in "
                             f"play, 0 to 99; got {text!r}")
        if int(text):
            start[key] = int(text)
    name = options.get("campaign")
    if name:
        if world is None:
            raise ValueError("a campaign game starts from the world the last one left: give the "
                             "'world' option too")
        start["campaign"] = {"name": name, "game": world.games + 1, "world": W.world_digest(world)}
    return start


def chance(s: State, tape: Any) -> tuple[str, str | None, dict] | None:
    """The chance event the game waits for now, made with the tape's dice (or the table's record
    of the troops a roll removes, which no one decides); None while a decision is due."""
    dice = TapeReader(tape, s.dice.count)
    spec = chance_needed(s)
    if spec is not None:
        if spec.kind == "scars":
            cards, used = draw(spec.pool, spec.draw, dice.die)
            return spec.event_type, None, {"cards": dict(zip(s.seats, cards)), "dice": used}
        if spec.kind == "layout":
            cards, used = draw(spec.pool, spec.draw, dice.die)
            return spec.event_type, None, {"cards": cards, "dice": used}
        if spec.kind == "reveal":
            [card], used = draw(spec.pool, 1, dice.die)
            return spec.event_type, None, {"card": card, "dice": used}
        if spec.kind == "rolloff":
            return spec.event_type, None, {"rolls": {p: dice.roll(n) for p, n in spec.dice}}
        return None       # an Event or Mission card: the sealed packs' (not dealt by a server)
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or actors(s):
        return None
    if cb.stage == "declared" and cb.defend:
        roll = attack_dice(s, cb.defend)
        return "DiceRolled", None, {"rolls": {p: dice.roll(n) for p, n in roll.dice}}
    if cb.stage == "rolled":
        return "CasualtiesRemoved", None, casualties_payload(s)
    return None


def table_chance(s: State, tape: Any) -> dict | None:
    """RULESET.table_chance: the draw an Event or Mission card owed now is made with (RL-EVENT-
    TRIGGER, RL-MISSION: "Turn over the top card in the Event deck", "randomly place one Mission
    card face up"), or the roll-off for naming the world (RL-WORLD-NAME: "those tied players roll
    off"); None when neither is owed.

    A card: one of the cards left (`events_left` / `missions_left`; which cards they are is not
    known here), drawn with the draw rule as `_check_blind_draw` checks it: "shows" the deck's
    size and the card's position in the face-down deck counted from the top (1 = the top card),
    which the table turns over. The roll-off: one die each round for every tied person (in the
    order `namer` gives them, round by round, as the simulator rolls), until one is ahead with
    +1 per continent named; "shows" the tied and the winner, who names the world."""
    spec = chance_needed(s)
    if spec is not None and spec.kind in ("event", "mission") and spec.deck > 0:
        dice = TapeReader(tape, s.dice.count)
        [k], used = draw(list(range(spec.deck)), 1, dice.die)
        return {"type": spec.event_type, "fills": {"dice": used},
                "shows": {"deck": spec.deck, "card": k + 1}}
    if s.result is not None and s.flow.phase == "naming":
        tied, who = namer(s.world, s.data, None)
        if who is not None or len(tied) < 2:
            return None
        dice = TapeReader(tape, s.dice.count)
        rolls: dict[str, list[int]] = {}
        while who is None:
            rolls = {p: rolls.get(p, []) + [dice.die()] for p in tied}
            _, who = namer(s.world, s.data, rolls)
        return {"type": "WorldNamed", "fills": {"rolls": rolls}, "shows": {"tied": tied, "by": who}}
    return None


# --- bots that play live -------------------------------------------------------------------------

def _foldable(type_: str, payload: dict) -> dict:
    """A payload as a seat reads it, other seats' Scar cards redacted, in a form the engine judges:
    a face-up deal shown in part becomes a face-down one (commitments the log does not open)."""
    if type_ == "ScarCardsDealt" and isinstance(payload.get("cards"), dict):
        return {"commitments": {p: HIDDEN for p in payload["cards"]}}
    return payload


def _nearest(moves: list[Move], key: str, want: int) -> Move:
    return min(moves, key=lambda m: (abs(m.payload[key] - want), m.payload[key]))


class LiveBot(SeatBot):
    """RULESET.bot: the simulator's bot (engine.risk_legacy.sim.LegacyBot) playing one player live,
    from the moves a service offers and the log as the player's seat reads it. Its choices are the
    simulator's, taken from the moves offered: a Red Star bought when four cards allow, the
    recruits on its front (with the trade it would make), the attack or expansion it likes (the
    offered troop count nearest its own), its maneuver, the richest card, then TurnEnded; defending
    with every die it may; a Scar card now and then on a fight over an HQ where it helps, else the
    moment passes (None); a Missile where it turns the roll, else MissilesHeld; its move-in and its
    reward."""

    def __init__(self, actor: str, seed: str):
        from engine.risk_legacy import RULESET
        from engine.risk_legacy.sim import LegacyBot
        super().__init__(RULESET, actor, _foldable, Move)
        self.bot = LegacyBot(actor, seed)

    def pick(self, s: State, moves: list[Move]) -> Move | None:
        by: dict[str, list[Move]] = {}
        for m in moves:
            by.setdefault(m.type, []).append(m)
        bot, p = self.bot, self.actor
        if "RewardChosen" in by:
            return bot.reward(s, by["RewardChosen"])
        if "WorldNamed" in by:
            return by["WorldNamed"][0]
        if "FactionChosen" in by:
            faction, t = bot.faction(s)
            want = {"faction": faction, "territory": t}
            return next((m for m in by["FactionChosen"] if m.payload == want), by["FactionChosen"][0])
        if "MovedIn" in by:
            return _nearest(by["MovedIn"], "troops", bot.move_in(s))
        if "ScarPlaced" in by or "DefenceDeclared" in by:
            return self._before_the_roll(s, by)
        if "MissilesHeld" in by:
            from engine.risk_legacy.sim import turning_missile   # the simulator's rule
            return turning_missile(s, by.get("MissileFired", [])) or by["MissilesHeld"][0]
        return self._turn(s, by)

    def _before_the_roll(self, s: State, by: dict[str, list[Move]]) -> Move | None:
        cb, p = s.combat, self.actor
        hq = s.terr[cb.to].hq is not None                 # scars are kept for the fights over HQs
        for m in by.get("ScarPlaced", []):
            scar = m.payload["scar"]
            useful = hq and ((scar == "bunker" and p == cb.defender) or (scar == "ammo_shortage" and p == cb.attacker))
            if useful and self.bot.rng.random() < 0.2:
                return m
        defend = by.get("DefenceDeclared")
        return max(defend, key=lambda m: m.payload["troops"]) if defend else None

    def _turn(self, s: State, by: dict[str, list[Move]]) -> Move | None:
        from engine.risk_legacy import engine as E
        from engine.risk_legacy.legal import best_trade
        bot, p, f = self.bot, self.actor, s.flow
        if "RedStarBought" in by:
            return by["RedStarBought"][0]
        if "JoinedWar" in by:
            return bot.rng.choice(by["JoinedWar"])
        if "Recruited" in by:
            hand = s.players[p].hand
            trade = best_trade(s, p) if E.resources_of(s, hand) >= bot.trade_at and len(hand) < 4 else []
            target = bot.attack_base(s) or max(E.territories_of(s, p), key=lambda t: (s.terr[t].troops, t))
            ranked = sorted(by["Recruited"], key=lambda m: (m.payload["cards"] != trade,
                                                            target not in m.payload["placements"]))
            return ranked[0]
        att = bot.best_attack(s) if f.step <= MAIN else None
        if att is not None:
            got = [m for m in by.get("AttackDeclared", []) if (m.payload["from"], m.payload["to"]) == att[:2]]
            if got:
                return got[0]
        exp = bot.best_expand(s) if f.step <= MAIN else None
        if exp is not None:
            got = [m for m in by.get("Expanded", []) if (m.payload["from"], m.payload["to"]) == exp[:2]]
            if got:
                return _nearest(got, "troops", exp[2])
        man = bot.maneuver(s) if not f.maneuvered and f.step <= MAIN else None
        if man is not None:
            got = [m for m in by.get("Maneuvered", []) if (m.payload["from"], m.payload["to"]) == man[:2]]
            if got:
                return got[0]
        card = bot.card(s) if "CardDrawn" in by else None
        if card is not None:
            got = [m for m in by["CardDrawn"] if m.payload["card"] == card["card"]]
            if got:
                return got[0]
        return by["TurnEnded"][0] if "TurnEnded" in by else None


def bot(actor: str, seed: str) -> LiveBot:
    """RULESET.bot: a seeded Risk Legacy bot for live play (see LiveBot)."""
    return LiveBot(actor, seed)
