"""What judging chance asks alike of every ruleset's state: dice recorded in the game's dice log
(checked against the seed when the judge knows it), a roll's dice in seat order, and the seed
revealed at the end of a seeded game (ledger dice commitments, docs/log-format.md).

A state here is any ruleset's state with the fields `seats` and `dice` (its dice so far, an
engine.core.dice.DiceState); `replace` is that state's own `evolve`, and `rule` the ruleset's rule
that every die of a seeded game is its seed's (the one with topic "seed")."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

from engine.core.canonical import sha256_hex
from engine.core.dice import DiceTape, first_wrong_die, logged_dice, record_dice
from engine.core.rules import Verdicts

State = Any
V = TypeVar("V", bound=Verdicts)   # a ruleset's own Verdicts (its `_Ctx`), passed through to its callbacks


def record_roll(s: State, values: list[int], c: Verdicts, rule: str, replace: Callable) -> State:
    """The state with `values` added to its dice log; with the seed already known, each die is
    checked against its stream here, at its own line (a wrong one is `rule`)."""
    dice = s.dice
    log, count, wrong = record_dice(dice.log, dice.count, dice.tape, values)
    if wrong is not None:
        i, got, want, seed_faces = wrong
        c.bad(rule, f"die #{i + 1} of the game shows {got}; the revealed seed gives {want} "
              f"(dice here {list(values)}, seed {seed_faces})")
    return replace(s, dice=dice.rolled(log, count))


def seat_ordered(s: State, rolls: dict[str, list[int]]) -> list[int]:
    """The dice of a roll by several players, in seat order (the order they enter the dice log)."""
    out: list[int] = []
    for p in s.seats:
        out.extend(rolls.get(p, ()))
    return out


def bad_faces(rolls: dict[str, list[int]]) -> list[int]:
    """The dice of a roll that show no face of a die (1-6)."""
    return [d for dice in rolls.values() for d in dice if not (1 <= d <= 6)]


def is_the_seed(s: State, seed: str) -> bool:
    """Is `seed` the one whose hash a seeded game published at its start?"""
    return s.dice.is_seeded and sha256_hex(seed) == (s.dice.seed_hash or "").lower()


def with_seed(s: State, seed: str, replace: Callable) -> State:
    """A judge that has read the whole log knows the seed revealed at its end: with it, every die
    is checked at its own line. A seed that does not match the published hash changes nothing
    (SeedRevealed reports it)."""
    if not is_the_seed(s, seed):
        return s
    return replace(s, dice=dataclasses.replace(s.dice, tape=DiceTape(seed)))


def check_logged_dice(s: State, seed: str, c: Verdicts, rule: str) -> State:
    """Every die of the log against the stream of the seed revealed at the end."""
    dice = logged_dice(s.dice.log)
    wrong = first_wrong_die(dice, seed)
    if wrong is not None:
        i, got, want = wrong
        c.bad(rule, f"die #{i + 1} of the game shows {got}; the seed gives {want}")
    c.note(f"Seed revealed: {'the one die' if len(dice) == 1 else f'all {len(dice)} dice'} checked against it")
    return s


def seed_revealed(s: State, seed: str, c: Verdicts, rule: str,
                  check_unchecked: Callable[[State, str, Verdicts], State] | None = None) -> State | None:
    """SeedRevealed: None (skipped) in a game whose dice were rolled at the table; a seed that does
    not match the published hash is `rule`; with the seed known from the start every die was
    already checked; else the dice are checked now (`check_unchecked`, by default every logged die
    against the seed's stream)."""
    if not s.dice.is_seeded:
        return c.skip(rule, "this game's dice were rolled at the table; there is no seed to reveal")
    if sha256_hex(seed) != (s.dice.seed_hash or "").lower():
        c.bad(rule, "the revealed seed does not match the seed hash published at the start")
        return s
    if s.dice.tape is not None:
        c.note(f"Seed revealed: its hash matches; all {s.dice.count} dice were checked at their own lines")
        return s
    if check_unchecked is None:
        return check_logged_dice(s, seed, c, rule)
    return check_unchecked(s, seed, c)


# --- who may act: the gate every ruleset's `step` and turn handlers pass an event through ------

def is_over_for(s: State, e: Any, c: Verdicts, rule: str, after_end: frozenset,
                ended: str = "the game ended") -> bool:
    """Is the game over for event `e`: has it a result (`s.result`), and is `e` none of the types
    still logged after the end (`after_end`)? If so the event is skipped with `rule`: "<ended>
    (<winners>, <reason>); nothing more is played (<type>)"."""
    if s.result is None or e.type in after_end:
        return False
    c.skip(rule, f"{ended} ({' and '.join(s.result.winners) or 'no winner'}, {s.result.reason}); "
           f"nothing more is played ({e.type})")
    return True


def admit(s: State, e: Any, c: Verdicts, handlers: dict, *, start_event: str, table_events: frozenset,
          flow_rule: str, actor_rule: str, no_actor: str = "{type} must name the acting player",
          eliminated_may: frozenset = frozenset()) -> Callable | None:
    """The handler of event `e`, or None (skipped, with the finding in `c`) when no handler takes
    it (`flow_rule`: an unknown type, or the start event again), when it names someone who is not
    a player, or when a player's event names no player or an eliminated one (`actor_rule`; the
    types in `eliminated_may` an eliminated player still logs). `s` has `players` (each with
    `eliminated`) and `seats`; `no_actor` is the message's template ({type}, {actor}, {seats})."""
    handler = handlers.get(e.type)
    if handler is None or e.type == start_event:
        c.skip(flow_rule, "the game has already started" if e.type == start_event else f"{e.type} is not expected here")
        return None
    if e.actor is not None and e.actor not in s.players:
        c.skip(actor_rule, f"{e.actor!r} is not a player of this game ({', '.join(s.seats)})")
        return None
    if e.type not in table_events:
        if e.actor is None:
            c.skip(actor_rule, no_actor.format(type=e.type, actor=e.actor, seats=", ".join(s.seats)))
            return None
        if s.players[e.actor].eliminated and e.type not in eliminated_may:
            c.skip(actor_rule, f"{e.actor} has been eliminated and no longer plays")
            return None
    return handler


def acting(flow: Any, actor: str | None, c: Verdicts, phase: str, flow_rule: str, flow_says: str,
           turn_rule: str, turn_says: str) -> bool:
    """Is `actor` acting in `phase` when it is their turn (`flow.current`)? If not, the event is
    skipped with `flow_rule` (wrong phase) or `turn_rule` (another's turn); the messages are
    templates of {phase}, {current}, {actor} and {turn} (flow.turn when the flow has one),
    formatted only when they are said."""
    if flow.phase != phase:
        c.skip(flow_rule, flow_says.format(phase=flow.phase, current=flow.current, actor=actor,
                                           turn=getattr(flow, "turn", None)))
        return False
    if actor != flow.current:
        c.skip(turn_rule, turn_says.format(phase=flow.phase, current=flow.current, actor=actor,
                                           turn=getattr(flow, "turn", None)))
        return False
    return True


def roll_off(s: State, rolls: dict[str, list[int]], tied: tuple[str, ...], c: V, rule: str,
             faces_rule: str, one_die: str, roll: Callable[[State, list[int], V], State]
             ) -> tuple[State, tuple[str, ...], int] | None:
    """A roll-off among the `tied` players, each rolling one die: (the state with the dice logged
    by `roll`, the players who rolled highest, that number), or None (skipped) when the log rolls
    for others than the tied players (`rule`), not one die each (`rule`, message `one_die`), or a
    die shows no face (`faces_rule`). Notes "Roll-off: ...". Who wins a tie is the ruleset's."""
    if set(rolls) != set(tied):
        return c.skip(rule, f"the roll-off is between {', '.join(tied)}; the log rolls for "
                      f"{', '.join(rolls) or 'nobody'}")
    if any(len(d) != 1 for d in rolls.values()):
        return c.skip(rule, f"{one_die}; got {dict(rolls)!r}")
    if bad_faces(rolls):
        return c.skip(faces_rule, f"dice must show 1-6; got {dict(rolls)!r}")
    s = roll(s, seat_ordered(s, rolls), c)
    top = max(d[0] for d in rolls.values())
    c.note("Roll-off: " + ", ".join(f"{p} {rolls[p][0]}" for p in tied))
    return s, tuple(p for p in tied if rolls[p][0] == top), top


def resolve_name(data: Any, name: str, c: Verdicts, name_rule: str, what: str = "territory",
                 expect: str | None = None, wrong_rule: str = "",
                 wrong: Callable[[str], str] | None = None) -> str | None:
    """The board's id of a territory `name` as a log writes it (`data.resolve`), or None (the
    event skipped) when no territory has that name (`name_rule`) or, with `expect`, when it is
    another territory than the one the rules call for (`wrong_rule`, message `wrong(id)`)."""
    t = data.resolve(name)
    if t is None:
        c.skip(name_rule, f"{what} {name!r} is not on the board")
        return None
    if expect is not None and t != expect:
        c.skip(wrong_rule, wrong(t) if wrong is not None else f"{what} {name!r} is not {expect!r}")
        return None
    return t
