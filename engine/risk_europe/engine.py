"""The Risk Europe decider: `step(state, event) -> (violations, next state | None)`.

Judging policy (docs/rulings.md, "Events after an illegal one"): every violation of an event is
reported. An illegal event that can still be carried out on the board (a card not in hand, a
castle entered without a Siege Weapon, a wrong number of casualties...) is applied as recorded,
so that the rest of the game is judged against what really happened at the table; one that
cannot be carried out (unknown territory, units that are not there, a move out of turn) is
skipped and changes nothing. Wrong claims (coins, winners) are reported and the rules' own
values are used.

The rules by the rulebook's chapters, each a module of this package (imports run one way:
`common` <- the chapters <- this dispatcher): `setup` (Game Setup, Kingdom Placement, the
Mercenary Armies' tiles and bids), `orders` (the King's Orders cards: expand, maneuver, tax,
spend), `bonus` (Bonus Actions), `kingdom_missions`, `battles`, `rounds` (the round's flow and
Winning the Game), `common` (derived facts and shared helpers). This module holds the `step`
dispatcher, `conclude` and `reveal_seed` (the record's default `result` is the state's).
"""

from __future__ import annotations

from typing import Callable

from engine.core.events import Event
from engine.core.judging import admit, seed_revealed, with_seed
from engine.core.rules import Violation
from engine.risk_europe.state import State, evolve as replace
from engine.risk_europe.battles import (
    _battle_casualties, _battle_dice, _battle_ended, _battle_started, _dice_rerolled, _reroll_declined,
)
from engine.risk_europe.bonus import _fortified, _siege_assaulted, _siege_casualties, _siege_dice
from engine.risk_europe.common import _Ctx
from engine.risk_europe.kingdom_missions import _mission_completed, _mission_kept
from engine.risk_europe.orders import (
    _card_revealed, _cards_committed, _expanded, _maneuvered, _spent, _split_expanded, _taxed,
)
from engine.risk_europe.rounds import (
    _close_turn, _game_ended, _last_turn, _resync, _turn_closable, _turn_ended,
)
from engine.risk_europe.setup import (
    _bid_placed, _bid_revealed, _kingdom_placed, _merc_bids_ordered, _rolloff, _tiles_drawn,
)

# The start of a game, for the RULESET record (engine/risk_europe/__init__.py), beside step and conclude.
from engine.risk_europe.setup import check_start, initial_state  # noqa: F401

# Re-exported for the modules outside the engine that import them from here today (ledger/bots.py,
# ledger/simulate.py, analytics/extract.py, analytics/odds.py, sample_logs/make_samples.py), which
# are being moved into this package (#11); new code imports them from their chapter module.
from engine.risk_europe.battles import expected_dice, rank_hits  # noqa: F401
from engine.risk_europe.common import (  # noqa: F401
    COST, RANK_HITS_ON, RANK_UNIT, cities_of, crowns, tax_value, territories_of, units_on_board,
)
from engine.risk_europe.orders import crown_card_ban, mercenary_pool  # noqa: F401
from engine.risk_europe.setup import bidders  # noqa: F401


def _seed_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    return seed_revealed(s, e.payload.seed, c, "RE-DICE-SEED")


def _dice_rolled(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase == "rolloff":
        return _rolloff(s, e, c)
    if f.phase == "turn" and f.pending is not None and f.pending[0] == "siege_dice":
        return _siege_dice(s, e, c)
    if f.phase == "battles" and s.battle is not None:
        return _battle_dice(s, e, c)
    if f.phase == "battles":
        return c.skip("RE-BATTLE-ORDER", f"no battle has been started; {s.marker} first chooses which "
                      "disputed territory is fought (BattleStarted)")
    return c.skip("RE-FLOW", f"no dice are due now ({f.phase})")


def _casualties_removed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase == "turn" and f.pending is not None and f.pending[0] == "casualties":
        return _siege_casualties(s, e, c)
    if f.phase == "battles" and s.battle is not None:
        return _battle_casualties(s, e, c)
    return c.skip("RE-CASUALTIES", "no hits are waiting to be taken")


HANDLERS: dict[str, Callable[[State, Event, _Ctx], State | None]] = {
    "BidPlaced": _bid_placed,
    "BidRevealed": _bid_revealed,
    "DiceRolled": _dice_rolled,
    "DiceRerolled": _dice_rerolled,
    "RerollDeclined": _reroll_declined,
    "KingdomPlaced": _kingdom_placed,
    "TilesDrawn": _tiles_drawn,
    "MercenaryBidsOrdered": _merc_bids_ordered,
    "MissionKept": _mission_kept,
    "MissionCompleted": _mission_completed,
    "CardsCommitted": _cards_committed,
    "CardRevealed": _card_revealed,
    "Expanded": _expanded,
    "SplitExpanded": _split_expanded,
    "Maneuvered": _maneuvered,
    "Taxed": _taxed,
    "Spent": _spent,
    "Fortified": _fortified,
    "SiegeAssaulted": _siege_assaulted,
    "CasualtiesRemoved": _casualties_removed,
    "TurnEnded": _turn_ended,
    "BattleStarted": _battle_started,
    "BattleEnded": _battle_ended,
    "GameEnded": _game_ended,
    "SeedRevealed": _seed_revealed,
}

_AFTER_END = frozenset({"GameEnded", "SeedRevealed", "BattleEnded"})

_TABLE_EVENTS = frozenset({"BattleEnded", "GameEnded", "SeedRevealed", "DiceRolled", "TilesDrawn"})


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """Judge one event: every violation, and the next state (None when the event is skipped)."""
    c = _Ctx()
    if s.flow.phase == "over" and e.type not in _AFTER_END:
        c.skip("RE-GAME-OVER", f"the game ended in round {s.result.round if s.result else '?'}; "
               f"nothing more is played ({e.type})")
        return c.v, None
    # admit's answer for the common case (a known type, by a player still in the game, or a
    # table event); anything else goes through admit, which says what is wrong
    handler = HANDLERS.get(e.type)
    actor = e.actor
    if handler is None or (actor is None and e.type not in _TABLE_EVENTS) or (
            actor is not None and ((ps := s.players.get(actor)) is None
                                   or (ps.eliminated and e.type not in _TABLE_EVENTS))):
        handler = admit(s, e, c, HANDLERS, start_event="GameStarted", table_events=_TABLE_EVENTS,
                        flow_rule="RE-FLOW", actor_rule="RE-ACTOR",
                        no_actor="{type} must name the acting player; {actor!r} is not a player of this game ({seats})")
        if handler is None:
            return c.v, None
    s2 = _resync(s, e, c)
    out = handler(s2, e, c)
    if out is None:
        return c.v, None
    f = s2.flow
    notes, at = tuple(c.notes), (f.phase, f.round, f.turn)
    if e.type == "BattleEnded" and s2.last_battle_at is not None:
        # a claim about the battle that ended last: it belongs where that battle was fought, though
        # the last casualty may have ended the round (and `flow` has moved on to the next one)
        at = s2.last_battle_at
    if out is s:
        return c.v, replace(out, notes=notes, at=at)
    # `out` was made during this step and no one else holds it yet: stamp it in place (through
    # its dict: a frozen dataclass refuses setattr)
    d = out.__dict__
    d["notes"] = notes
    d["at"] = at
    return c.v, out


def conclude(s: State) -> State:
    """The log has ended: close the last turn if it is complete (the round may end with it)."""
    f = s.flow
    if f.phase == "turn" and _last_turn(f) and _turn_closable(f):
        c = _Ctx()
        out = _close_turn(s, c, lenient=False)
        return replace(out, notes=tuple(c.notes))
    return s


def reveal_seed(s: State, seed: str) -> State:
    """A judge that has read the whole log knows the seed revealed at its end: with it, every die
    is checked at its own line (engine.core.judging.with_seed)."""
    return with_seed(s, seed, replace)
