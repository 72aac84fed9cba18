"""Seeded dice for digital play: a reproducible stream of die faces from a secret seed.

The stream is published as a rule so that anyone can re-derive it: block i (i = 0, 1, 2, ...) is
HMAC-SHA256(key=seed, msg=str(i)); each of its 32 bytes b gives a die face 1 + b % 6 when b < 252
(bytes 252..255 are skipped so that all six faces are equally likely). The seed's SHA-256 is
published when the game starts and the seed itself when it ends.

A game's state carries its dice so far as one DiceState (how they are rolled, the seed's hash,
every die logged, how many were drawn, the revealed seed's tape): engine/core/judging.py works on
it alike for every ruleset.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Iterator


def dice_stream(seed: str) -> Iterator[int]:
    """The endless sequence of die faces (1-6) a seed gives."""
    key = seed.encode("utf-8")
    i = 0
    while True:
        block = hmac.new(key, str(i).encode("ascii"), hashlib.sha256).digest()
        for b in block:
            if b < 252:
                yield 1 + b % 6
        i += 1


class SeededDice:
    """Draws dice from a seed's stream in order (used by simulators and live tables)."""

    def __init__(self, seed: str):
        self.seed = seed
        self._it = dice_stream(seed)
        self.drawn = 0

    def roll(self, n: int) -> list[int]:
        self.drawn += n
        return [next(self._it) for _ in range(n)]


class DiceTape:
    """The faces of a seed's stream, readable by position. It extends itself on demand; its
    content is a function of the seed alone, so states may share one."""

    def __init__(self, seed: str):
        self.seed = seed
        self._it = dice_stream(seed)
        self._faces: list[int] = []

    def take(self, start: int, count: int) -> list[int]:
        """Faces start .. start+count-1 (0-based) of the stream."""
        while len(self._faces) < start + count:
            self._faces.append(next(self._it))
        return self._faces[start:start + count]


class TapeReader:
    """Dice read from a DiceTape in order from position `at` (a live table's next rolls: the
    state's count of dice drawn so far is where they start)."""

    def __init__(self, tape: DiceTape, at: int):
        self.tape, self.at = tape, at

    def roll(self, n: int) -> list[int]:
        faces = self.tape.take(self.at, n)
        self.at += n
        return faces

    def die(self) -> int:
        return self.roll(1)[0]


class DiceCell(tuple):
    """One cell of a game's dice log: (face, previous cell), a tuple. Pickled flat, as the faces
    oldest first (`_dice_chain` links them again): the chain is as deep as the game has dice,
    and pickle recurses once per level, so a long game's judge (its carry, replay.judge) would
    exceed Python's recursion limit at about a thousand dice."""

    __slots__ = ()

    def __reduce__(self):
        return _dice_chain, (logged_dice(self),)


def _dice_chain(faces: list[int]) -> DiceCell | None:
    """The dice log of `faces` (oldest first), newest first."""
    cell = None
    for v in faces:
        cell = DiceCell((v, cell))
    return cell


def logged_dice(cell) -> list[int]:
    """The faces of a dice log kept as (face, previous cell) pairs, newest first: oldest first."""
    out: list[int] = []
    while cell is not None:
        out.append(cell[0])
        cell = cell[1]
    out.reverse()
    return out


@dataclass(frozen=True, slots=True)
class DiceState:
    """The dice of one game so far, as its state carries them (one record, so that a roll makes one
    new record and changes one field of the state)."""

    mode: str
    """How the dice are rolled: "table" (recorded as rolled) or "seeded" (the seed's stream)."""
    seed_hash: str | None
    """The SHA-256 of the seed, published when a seeded game starts."""
    log: DiceCell | None = None
    """Every die logged, as DiceCells (face, previous cell), newest first."""
    count: int = 0
    """The dice drawn so far: those logged, and those of the stream used unseen (a face-down deal)."""
    tape: DiceTape | None = None
    """The revealed seed's dice, once the judge knows the seed (each die is then checked at its line)."""

    @property
    def is_seeded(self) -> bool:
        """Are the game's dice its seed's stream?"""
        return self.mode == "seeded"

    def rolled(self, log: DiceCell | None, count: int) -> DiceState:
        """The record after a roll: the dice log and count `record_dice` returned."""
        return DiceState(self.mode, self.seed_hash, log, count, self.tape)


def first_wrong_die(dice: list[int], seed: str) -> tuple[int, int, int] | None:
    """(index, face logged, face the seed gives) of the first die that is not the seed's, or None."""
    for i, (got, want) in enumerate(zip(dice, dice_stream(seed))):
        if got != want:
            return i, got, want
    return None


def record_dice(log, count: int, tape: "DiceTape | None", values: list[int]):
    """Add dice to a game's dice log (face, previous cell) pairs, newest first.

    Returns (new log, new count, mismatch): with a known seed's `tape`, mismatch is (index in the
    game, face logged, face the seed gives, the seed's faces for these dice) for the first die
    that differs; else None."""
    cell = log
    for v in values:
        cell = DiceCell((v, cell))
    wrong = None
    if tape is not None:
        want = tape.take(count, len(values))
        if list(values) != want:
            k = next(i for i, (a, b) in enumerate(zip(values, want)) if a != b)
            wrong = (count + k, values[k], want[k], want)
    return cell, count + len(values), wrong


def highest_against_highest(attack, defence) -> tuple[int, int]:
    """(attacker's wins, defender's wins) of dice matched highest against highest, then the next
    (both given sorted highest first); a tie goes to the defender; unmatched dice are ignored."""
    wins = losses = 0
    for a, d in zip(attack, defence):
        if a > d:
            wins += 1
        else:
            losses += 1
    return wins, losses
