"""Risk Legacy played live through a service (`ledger serve`): the start of a new game, and the
chance a server makes from the game's seed.

    new_game(players, options, dice) -> GameStarted payload      RULESET.new_game
    chance(state, tape) -> (type, actor, payload) | None           RULESET.chance

(Whose decision the game waits for is `legal.actors`, RULESET.actors.)

The server deals, lays out and reveals with the draw rule (engine.core.chance) from the pools the
engine names, and rolls with the seed's dice, read from the state's own count of dice drawn in the
order the simulator draws them (engine.risk_legacy.sim): so a server and the simulator given the
same seed and the same decisions write the same events. The Scar cards are dealt face up, with
their dice: the service keeps each card from the other seats through the ruleset's `view` and
`redact` until it is played or the game is won (docs/views.md). Event and Mission cards are not
dealt: their texts are in the sealed packs, so a served game is played without them.

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
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.legal import actors, attack_dice, casualties_payload, chance_needed
from engine.risk_legacy.state import State

OPTIONS = ("world", "campaign")


def new_game(players: tuple[str, ...], options: Mapping[str, str], dice: dict) -> dict:
    """The GameStarted payload of a new game for `players` (3 to 5, in seat order) on the shipped
    board: on the box as it comes (uncustomized), or on `options["world"]` (a world document as
    JSON, e.g. one a campaign left), as game `options["campaign"]`'s next when given.
    ValueError naming what cannot be started."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"Risk Legacy takes no option {unknown[0]!r} (only {', '.join(map(repr, OPTIONS))})")
    if not 3 <= len(players) <= 5:
        raise ValueError(f"Risk Legacy is for 3 to 5 players, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("two players have the same id")
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
    dice = TapeReader(tape, s.dice_count)
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
