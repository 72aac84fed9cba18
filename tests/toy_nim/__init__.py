"""A tiny third ruleset, Nim, that lives only in the tests: a pile of stones, players take 1 to 3
in turn, whoever takes the last stone wins. It reaches `ledger` only through its `RULESET` record
(registered through the `ledger.rulesets` entry points in tests/test_toy_ruleset.py), so the shared
code proves it needs nothing more of a game. The record is made as a game package makes its own,
from the conventional names (engine.core.ruleset.PACKAGE_NAMES: VERSION, PAYLOADS, RULES, ...)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.events import Event
from engine.core.projection import Projection
from engine.core.rules import Rule, RuleBook, Verdicts
from engine.core.ruleset import GameResult, Ruleset

NAME = "toy-nim"
VERSION = "0.0.1"
BOOK = "Nim (tests/toy_nim)"
RULES = RuleBook(NAME, [
    Rule("NIM-TURN", BOOK, "Players take turns in seat order; only the player to move may take."),
    Rule("NIM-TAKE", BOOK, "A player takes 1, 2 or 3 stones, and no more than the pile holds."),
    Rule("NIM-OVER", BOOK, "Nothing is taken after the last stone."),
])


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    id: str


class Started(_Model):
    ruleset: Literal["toy-nim"]
    players: list[Player]
    stones: int = 10


class Took(_Model):
    count: int


class Ended(_Model):
    winner: str | None = None


PAYLOADS = {"GameStarted": Started, "StonesTaken": Took, "GameEnded": Ended}


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    pile: int
    to_move: int
    taken: int
    winner: str | None
    notes: tuple[str, ...] = ()

    @property
    def at(self) -> tuple[str, int, int]:
        return ("play" if self.winner is None else "over", 1, self.taken + 1)


class _Ctx(Verdicts):
    book = RULES


def check_start(start: Started, data: object) -> list:
    return []


def initial_state(start: Started, data: object) -> State:
    return State(tuple(p.id for p in start.players), start.stones, 0, 0, None)


def step(s: State, e: Event):
    v = _Ctx()
    if e.type == "GameEnded":
        return v.v, replace(s, notes=())
    if s.winner is not None:
        v.skip("NIM-OVER", f"{e.actor!r} takes after {s.winner} took the last stone")
        return v.v, None
    mover = s.seats[s.to_move]
    if e.actor != mover:
        v.bad("NIM-TURN", f"{e.actor!r} takes, but it is {mover}'s turn")
    n = e.payload.count
    if not 1 <= n <= 3 or n > s.pile:
        v.skip("NIM-TAKE", f"{e.actor!r} takes {n} stone(s) from a pile of {s.pile}")
        return v.v, None
    pile = s.pile - n
    who = e.actor or mover
    nxt = replace(s, pile=pile, to_move=(s.seats.index(who) + 1) % len(s.seats), taken=s.taken + 1,
                  winner=who if pile == 0 else None,
                  notes=(f"{who} takes {n}; {pile} left" + (f": {who} wins" if pile == 0 else ""),))
    return v.v, nxt


def result(s: State) -> GameResult | None:
    return None if s.winner is None else GameResult((s.winner,), "last stone", 1, {})


def board_view(s: State) -> dict:
    return {"seats": list(s.seats), "pile": s.pile, "to_move": s.to_move, "winner": s.winner}


def digest(s: State) -> str:
    return sha256_hex(canonical_json(board_view(s)))


# No data files: the game is the pile the start event names.
def load_data(**files: str) -> None:
    return None


def default_data() -> None:
    return None


def data_digest(data: None) -> str:
    return "none"


# Its analytics: one row per take, and one per game (written at the log's end, so replaced as a
# live game goes on). The store makes their tables from these declarations alone.
PROJECTIONS = (
    Projection("nim_takes", {"game_id": "str", "seq": "int", "player": "str", "taken": "int",
                             "left": "int"}, key=("game_id", "seq"), doc="one row per take"),
    Projection("nim_games", {"game_id": "str", "winner": "str", "takes": "int"},
               key=("game_id",), doc="one row per game: the winner so far, takes made"),
)


class Fold:
    """The rows of PROJECTIONS, read off each applied take."""

    def __init__(self, rows):
        self.t, self.game = rows.tables, rows.game_id

    def observe(self, before: State, after: State, seq: int, type_: str, payload) -> None:
        if type_ == "StonesTaken":
            who = after.seats[(after.to_move - 1) % len(after.seats)]
            self.t["nim_takes"].append((self.game, seq, who, before.pile - after.pile, after.pile))

    def finish(self, final: State) -> None:
        self.t["nim_games"].append((self.game, final.winner, final.taken))


RULESET = Ruleset.from_package(
    __name__, name=NAME, title="Nim (a test ruleset)",
    check_start=check_start, initial_state=initial_state, step=step, result=result,
    fold=lambda rows, data: Fold(rows),
)
