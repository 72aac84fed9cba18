"""The Risk Legacy decider: `step(state, event) -> (violations, next state | None)`.

Judging policy (docs/risk-legacy.md, RL-RULING-AFTER-ILLEGAL): every violation of an event is
reported. An illegal event that can still be carried out on the board (a marked starting
territory, a second maneuver, an attack after the maneuver, a wrong number of troops recruited) is
applied as recorded, so that the rest of the game is judged against what really happened at the
table; one that cannot be carried out (an unknown territory, troops that are not there, a card not
in hand, a move out of turn) is skipped and changes nothing. Wrong claims (troops recruited, troops
lost, the winner) are reported and the rules' own values are used. A step the log leaves out that
the rules settle alone (the troops removed after a roll, the move-in after a conquest, the end of a
turn) is settled by the rules with one claim finding (RL-RULING-IMPLICIT-STEPS).

The world (cities, scars, fortification wear, names, marks, card resources, signatures) is part
of the state: scars placed and fortifications worn during play change it at once, the end of the
game records the faction cards and the signature, and the rewards change it last. Event and
Mission cards are content the rulebook does not print: their draws are checked, their effects are
claims applied as recorded (RL-RULING-EVENT-EFFECTS).

Random draws are chance events (RL-CHANCE-DRAW): the Scar deal, the Territory cards laid out and
each card revealed into slot 1 are drawn from pools the engine knows (`scar_pool`, `layout_pool`,
`reveal_pool`), so their dice are checked against the draw rule (engine.core.chance) and counted as
dice of the game, checked against the seed like any die. A Scar card dealt face down is a
commitment, checked when it is turned over (RL-SCAR-REVEAL, RL-RULING-HIDDEN-SCARS).

The rules by the rulebook's chapters, each a module of this package (imports run one way:
`common` <- the chapters <- this dispatcher): `setup` (Setup Before Every Game, Before the First
Turn), `turns` (Turn Overview, Goal), `recruit` (1 Start of Turn, 2 Join the War or Recruit),
`attack` (3 Expand and Attack), `maneuver` (4 Maneuver Troops), `end_of_turn` (5 End of Turn,
Event and Mission cards), `end_of_game` (End of Game, the rewards, Opening New Packages), `common`
(derived facts and shared helpers). This module holds the `step` dispatcher with the steps the
log left out, `position` and `reveal_seed`. Nothing is settled when the log ends (a turn ends
with TurnEnded): the record's default `conclude`, and its default `result`, the state's.
"""

from __future__ import annotations

from typing import Callable

from engine.core.chance import DrawError, draw_with
from engine.core.dice import DiceTape, logged_dice
from engine.core.events import Event
from engine.core.judging import admit, is_over_for, is_the_seed, seed_revealed, with_seed
from engine.core.rules import Violation
from engine.risk_legacy.state import FACE_DOWN, PlayerId, State, evolve as replace
from engine.risk_legacy.attack import (
    _attack_declared, _attack_dice, _casualties_removed, _defence_declared, _expanded, _missile_fired,
    _missiles_held, _moved_in, _occupy, _resolve_roll, _scar_placed,
)
from engine.risk_legacy.common import _a, _Ctx, roll_result, territories_of, _tname
from engine.risk_legacy.end_of_game import _game_ended, _pack_opened, _reward_chosen, _world_named
from engine.risk_legacy.end_of_turn import (
    _card_drawn, _card_revealed, _event_card_drawn, _mission_completed, _turn_ended,
)
from engine.risk_legacy.maneuver import _maneuvered
from engine.risk_legacy.recruit import _joined_war, _recruited, _red_star_bought
from engine.risk_legacy.setup import (
    _cards_laid_out, _faction_chosen, _mission_revealed, _rolloff, _scar_card_returned,
    _scar_cards_dealt,
)
from engine.risk_legacy.turns import _next_turn

# The start of a game, for the RULESET record (engine/risk_legacy/__init__.py), beside step.
from engine.risk_legacy.setup import check_start, initial_state  # noqa: F401

# Re-exported for the modules outside the engine that import them from here today
# (ledger/legacy_sim.py, analytics/extract_legacy.py), which are being moved into this package
# (#11); new code imports them from their chapter module.
from engine.risk_legacy.attack import city_cost  # noqa: F401
from engine.risk_legacy.common import (  # noqa: F401
    connected, continents_of, defence_modifiers, face_up_choices, has_power, hqs_of, legal_starts,
    may_draw, recruit_total, resources_of, stars, troops_of,
)
from engine.risk_legacy.end_of_game import namer  # noqa: F401


def _dice_rolled(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase in ("setup", "rolloff"):
        return _rolloff(s, e, c)
    if f.phase == "turn" and s.combat is not None:
        return _attack_dice(s, e, c)
    return c.skip("RL-FLOW", f"no dice are due now ({f.phase})")


def _seed_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    seed = e.payload.seed
    out = seed_revealed(s, seed, c, "RL-DICE-SEED", _check_the_stream)
    if out is None or not is_the_seed(s, seed):
        return out
    s = out
    unopened = [p for p in s.seats if s.players[p].scar == FACE_DOWN]
    if unopened and s.result is not None:
        c.claim("RL-SCAR-REVEAL", f"the face-down Scar card{'s' if len(unopened) > 1 else ''} of "
                f"{', '.join(unopened)} {'were' if len(unopened) > 1 else 'was'} never turned over: the "
                "deal cannot be checked against the commitments")
    return s


def _check_the_stream(s: State, seed: str, c: _Ctx) -> State:
    """The seed revealed at the end, not known before: every logged die against its stream, and
    the face-down Scar deal (its dice were never logged) drawn from it and held against the
    cards turned over (RL-DICE-SEED, RL-CHANCE-DRAW)."""
    faces = DiceTape(seed).take(0, s.dice.count)
    deal = s.scar_deal
    lo, hi = (deal.start, deal.start + deal.count) if deal is not None else (0, 0)
    public = faces[:lo] + faces[hi:]
    dice = logged_dice(s.dice.log)
    for i, (got, want) in enumerate(zip(dice, public)):
        if got != want:
            c.bad("RL-DICE-SEED", f"die #{i + 1 + (hi - lo if i >= lo else 0)} of the game shows {got}; "
                  f"the seed gives {want}")
            break
    c.note(f"Seed revealed: {_all_dice(len(dice))} checked against it"
           + (f", and the {hi - lo} secret dice of the face-down Scar deal" if deal is not None and hi > lo else ""))
    if deal is None or not s.dice.is_seeded:
        return s
    try:
        cards = draw_with(deal.pool, len(s.seats), faces[lo:hi])
    except DrawError as exc:
        c.bad("RL-CHANCE-DRAW", f"the face-down Scar deal: {exc} (by the seed, dice {faces[lo:hi]})")
        return s
    drawn = dict(zip(s.seats, cards))
    c.note("The face-down Scar deal, by the seed's dice: " + ", ".join(f"{p} {_a(k)}" for p, k in drawn.items()))
    for p, (kind, seq) in deal.revealed.items():
        if drawn[p] != kind:
            c.bad("RL-CHANCE-DRAW", f"the deal's dice gave {p} {_a(drawn[p])}; {p} turned over {_a(kind)} "
                  f"(seq {seq})")
    return replace(s, scar_deal=deal._replace(drawn=drawn))


_NEUTRAL = frozenset({"PackOpened", "GameEnded", "SeedRevealed"})

_IN_COMBAT = frozenset({"ScarPlaced", "DefenceDeclared", "DiceRolled", "MissileFired", "MissilesHeld",
                        "CasualtiesRemoved", "MovedIn"})
_COMBAT_EVENTS = {"declared": _IN_COMBAT, "rolled": _IN_COMBAT, "conquered": _IN_COMBAT}

_PENDING_EVENT = {"reveal": ("CardRevealed", "RL-SIDEBOARD-SHIFT"), "event": ("EventCardDrawn", "RL-EVENT-TRIGGER"),
                  "mission": ("MissionRevealed", "RL-MISSION")}


def _resync(s: State, e: Event, c: _Ctx) -> State:
    """Settle what the log left out before `e`: a roll's casualties, a move-in, a chance event
    that never came, a turn that was not ended."""
    if s.flow.phase != "turn" or e.type in _NEUTRAL:
        return s
    cb = s.combat
    if cb is not None and e.type not in _COMBAT_EVENTS[cb.stage]:
        if cb.stage == "declared":
            c.claim("RL-FLOW", f"the attack on {_tname(s, cb.to)} was declared but never rolled; it is dropped")
            s = replace(s, combat=None)
        else:
            if cb.stage == "rolled":
                _, _, a_lost, d_lost = roll_result(s, cb)
                c.claim("RL-CASUALTIES", f"the troops removed after the roll in {_tname(s, cb.to)} are not in the "
                        f"log; the rules remove {a_lost} attacking and {d_lost} defending")
                s = _resolve_roll(s, c)
                cb = s.combat
            if cb is not None and cb.stage == "conquered" and s.result is None:
                c.claim("RL-CONQUER-MOVE", f"the move into {_tname(s, cb.to)} is not in the log; the {cb.survivors} "
                        "attacking troops move in")
                s = _occupy(s, max(1, cb.survivors), c)
    f = s.flow
    if f.phase == "turn" and f.pending is not None and e.type != _PENDING_EVENT[f.pending][0]:
        want, rule = _PENDING_EVENT[f.pending]
        c.claim(rule, f"the {f.pending} owed now ({want}) is not in the log; it is dropped")
        s = replace(s, flow=f._replace(pending=None))
    f = s.flow
    if (f.phase == "turn" and e.actor is not None and e.actor != f.current and e.type in _TURN_START
            and s.combat is None and f.pending is None and f.recruited and _next_player(s) == e.actor):
        c.claim("RL-TURN-END", f"{f.current}'s turn is not ended in the log before {e.actor} plays; it ends here")
        if not f.recruited and territories_of(s, f.current):
            c.bad("RL-RECRUIT-MUST", f"{f.current} ends the turn without recruiting")
        s = _next_turn(s, c)
    return s


_TURN_START = frozenset({"RedStarBought", "JoinedWar", "Recruited"})


def _next_player(s: State) -> PlayerId | None:
    f = s.flow
    n = len(f.order)
    for k in range(1, n + 1):
        p = f.order[(f.index + k) % n]
        if not s.players[p].eliminated:
            return p
    return None


HANDLERS: dict[str, Callable[[State, Event, _Ctx], State | None]] = {
    "ScarCardsDealt": _scar_cards_dealt,
    "CardsLaidOut": _cards_laid_out,
    "MissionRevealed": _mission_revealed,
    "DiceRolled": _dice_rolled,
    "FactionChosen": _faction_chosen,
    "RedStarBought": _red_star_bought,
    "JoinedWar": _joined_war,
    "Recruited": _recruited,
    "Expanded": _expanded,
    "AttackDeclared": _attack_declared,
    "DefenceDeclared": _defence_declared,
    "ScarPlaced": _scar_placed,
    "MissileFired": _missile_fired,
    "MissilesHeld": _missiles_held,
    "CasualtiesRemoved": _casualties_removed,
    "MovedIn": _moved_in,
    "Maneuvered": _maneuvered,
    "CardDrawn": _card_drawn,
    "CardRevealed": _card_revealed,
    "EventCardDrawn": _event_card_drawn,
    "MissionCompleted": _mission_completed,
    "TurnEnded": _turn_ended,
    "ScarCardReturned": _scar_card_returned,
    "RewardChosen": _reward_chosen,
    "WorldNamed": _world_named,
    "PackOpened": _pack_opened,
    "GameEnded": _game_ended,
    "SeedRevealed": _seed_revealed,
}

_AFTER_END = frozenset({"RewardChosen", "WorldNamed", "GameEnded", "SeedRevealed", "PackOpened",
                        "ScarCardReturned"})

_TABLE_EVENTS = frozenset({"ScarCardsDealt", "CardsLaidOut", "MissionRevealed", "DiceRolled", "CardRevealed",
                           "EventCardDrawn", "CasualtiesRemoved", "GameEnded", "SeedRevealed", "PackOpened",
                           "WorldNamed"})


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """Judge one event: every violation, and the next state (None when the event is skipped)."""
    c = _Ctx()
    if is_over_for(s, e, c, "RL-GAME-OVER", _AFTER_END):
        return c.v, None
    handler = admit(s, e, c, HANDLERS, start_event="GameStarted", table_events=_TABLE_EVENTS,
                    flow_rule="RL-FLOW", actor_rule="RL-ACTOR",
                    eliminated_may=frozenset({"RewardChosen", "ScarCardReturned"}))
    if handler is None:
        return c.v, None
    s2 = _resync(s, e, c)
    if s2.result is not None and e.type not in _AFTER_END:
        c.skip("RL-GAME-OVER", f"the game ended ({s2.result.reason}); nothing more is played ({e.type})")
        return c.v, replace(s2, notes=tuple(c.notes), at=position(s2))
    out = handler(s2, e, c)
    if out is None:
        if s2 is not s:
            return c.v, replace(s2, notes=tuple(c.notes), at=position(s2))
        return c.v, None
    return c.v, replace(out, notes=tuple(c.notes), at=position(s2))


def position(s: State) -> tuple[str, int, int]:
    """(phase, round, turn): the turn is the current player's place in the turn order (1-based)."""
    f = s.flow
    phase = {"setup": "placement", "rolloff": "rolloff", "choose": "placement", "turn": "turn",
             "rewards": "over", "naming": "over", "over": "over"}[f.phase]
    return phase, f.round, f.index + 1


def reveal_seed(s: State, seed: str) -> State:
    """With the seed known up front, every die is checked at its own line."""
    return with_seed(s, seed, replace)


def _all_dice(n: int) -> str:
    return "the one die" if n == 1 else f"all {n} dice"
