"""Risk Europe played live through a service (`ledger serve`): the start of a new game, the dice
a server rolls from the game's seed, and the simulator's bots playing from the moves it offers.

    new_game(players, options, dice) -> GameStarted payload      RULESET.new_game
    chance(state, tape) -> (type, actor, payload) | None           RULESET.chance
    with_dice(state, type, actor, payload, tape) -> payload        RULESET.with_dice
    bot(actor, seed).choose(log, moves) -> move                    RULESET.bot

The dice are read from the seed's stream (a DiceTape) from the state's own count of dice drawn,
in the order the simulator draws them (engine.risk_europe.sim): a battle rank's dice player by
player in seat order, a draw's dice as the draw rule reads them. So a server and the simulator
given the same seed write the same events. Pure: the tape is an input.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core.chance import draw
from engine.core.dice import TapeReader
from engine.core.ruleset import check_seats, refuse_options
from engine.core.seat_fold import SeatBot
from engine.core.views import HIDDEN
from engine.risk_europe.board import default_data
from engine.risk_europe.legal import Move, chance_needed, dice_for
from engine.risk_europe.state import State
from engine.risk_europe.variants import VariantError, parse_variant

ARMY_COLOURS = ("blue", "orange", "red", "green")
"""The armies of the box: a Mercenary Army takes a colour no player took, in this order."""


def new_game(players: tuple[str, ...], options: Mapping[str, str], dice: dict) -> dict:
    """The GameStarted payload of a new game of `options["variant"]` (default basic) for
    `players` in seat order, judged with the shipped board and cards; ValueError when the variant
    is unknown, wants another number of players, or an option is not one the game takes."""
    refuse_options("Risk Europe", options, ("variant",))
    name = options.get("variant") or "basic"
    try:
        variant = parse_variant(name)
    except VariantError as exc:
        raise ValueError(str(exc)) from None
    check_seats(players, variant.players, variant.players, f"variant {name!r}")
    free = [c for c in ARMY_COLOURS if c not in players]
    data = default_data()
    start: dict[str, Any] = {"ruleset": "risk-europe", "variant": name,
                             "players": [{"id": p} for p in players]}
    if variant.mercenaries:
        start["mercenaries"] = [{"id": c} for c in free[:variant.mercenaries]]
    start["dice"] = dict(dice)
    start["data"] = {"board": data.board_digest, "cards": data.cards_digest}
    return start


def chance(s: State, tape: Any) -> tuple[str, str | None, dict] | None:
    """The roll or draw the game waits for (`legal.chance_needed`), made with the tape's dice;
    None when the next event is a decision. With Mercenary Armies, the top card of a Mercenary
    deck once the turn before it has ended (TurnEnded): the game waits for no one then, so a
    server flips it at once. After a rank a castle could re-roll, these are the next rank's
    dice: the defender decides by re-rolling (a decision) or asking for them."""
    spec = chance_needed(s)
    if spec is None:
        return None
    dice = TapeReader(tape, s.dice.count)
    if spec.draw:
        drawn, faces = draw(spec.pool, spec.draw, dice.die)
        actor = None if spec.event_type == "TilesDrawn" else spec.actor
        return spec.event_type, actor, spec.draw_payload(drawn, faces)
    return spec.event_type, None, spec.payload({p: dice.roll(n) for p, n in spec.dice})


def with_dice(s: State, type_: str, actor: str | None, payload: dict, tape: Any) -> dict:
    """`payload` with the dice the decision brings (the castle defense re-roll), or as it is."""
    spec = dice_for(s, Move(actor, type_, payload))
    if spec is None:
        return payload
    dice = TapeReader(tape, s.dice.count)
    return {**payload, **spec.payload({p: dice.roll(n) for p, n in spec.dice})}


# --- bots that play live -------------------------------------------------------------------------

def _foldable(type_: str, payload: dict) -> dict:
    """A payload as the seat reads it, with other seats' secrets redacted, in a form the engine
    judges: a hidden bid, cards or mission as a commitment the log does not open."""
    if type_ == "BidPlaced":
        army = payload.get("army")
        return {"commitment": HIDDEN, **({"army": army} if isinstance(army, str) and army != HIDDEN else {})}
    if type_ == "CardsCommitted":
        return {"commitments": [HIDDEN, HIDDEN]}
    if type_ == "MissionKept":
        return {"commitment": HIDDEN}
    return payload


class LiveBot(SeatBot):
    """RULESET.bot: one of the simulator's bots (engine.risk_europe.bots) playing one army live,
    from the moves a service offers it and the log as its seat reads it. The choices are the
    simulator's: its bid, kingdom, cards, orders and casualties; a turn ended (TurnEnded) where
    the simulator's bot would give no more orders; the castle's dice kept (RerollDeclined) where
    it would not re-roll; a Mercenary Army never turns on the player controlling it."""

    def __init__(self, actor: str, seed: str):
        from engine.risk_europe import RULESET
        from engine.risk_europe.bots import Bot
        super().__init__(RULESET, actor, _foldable, Move)
        self.bot = Bot(actor, seed)

    def pick(self, s: State, moves: list[Move]) -> Move:
        from engine.risk_europe.bots import loyal_moves
        kinds = {m.type: m for m in reversed(moves)}          # the first move of each type
        if "RerollDeclined" in kinds:
            keep = kinds["RerollDeclined"]
            return kinds["DiceRerolled"] if "DiceRerolled" in kinds and self.bot.wants_reroll(s) else keep
        if "TurnEnded" in kinds:
            actions = [m for m in moves if m.type != "TurnEnded"]
            if s.is_mercenary(self.actor):
                actions = loyal_moves(s, self.actor, actions)
            return (self.bot.choose(s, actions) if actions else None) or kinds["TurnEnded"]
        if s.is_mercenary(self.actor):
            moves = loyal_moves(s, self.actor, moves) or moves
        return self.bot.choose(s, moves) or moves[0]


def bot(actor: str, seed: str) -> LiveBot:
    """RULESET.bot: a seeded Risk Europe bot for live play (see LiveBot)."""
    return LiveBot(actor, seed)
