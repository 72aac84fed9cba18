"""The data a Warrior Knights game is judged with: a board file and a cards file (both supplied
by the user; the package ships an invented example of each, marked as such), their digests, and
what every report must say of them.

    load_data()                          # the shipped invented example board and cards
    load_data(board="my_board.json")     # a transcribed board, no cards: every card section observed
    load_data(board=..., cards=...)      # both; the cards' cities and expeditions checked against the board

A file of the wrong shape or with wrong content is a DataErrors (a ValueError) listing every
problem, each naming the file, the key and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.data import (
    DataCheck, DataErrors, Problems, Shape, data_file_label, loaded_once, read_data_file,
)
from engine.warrior_knights.board import (
    BOARD_SCHEMA, CENTRAL_AREAS, KINGDOM_CITIES, OVERSEAS_CITIES, Board, parse_board,
)
from engine.warrior_knights.cards import CARDS_SCHEMA, NO_CARDS, SECTIONS, Cards, parse_cards

PACKAGE = "engine.warrior_knights"
EXAMPLE_BOARD = "example_board.json"
EXAMPLE_CARDS = "example_cards.json"


@dataclass(frozen=True)
class GameData:
    """The board and cards one game is judged with."""

    board: Board
    cards: Cards

    @property
    def digest(self) -> str:
        out = f"board:{self.board.digest}"
        return out + (f" cards:{self.cards.digest}" if self.cards.digest else " cards:none")


def _board(path: str | Path | None) -> Board:
    raw, digest = read_data_file(PACKAGE, EXAMPLE_BOARD, path)
    return parse_board(raw, data_file_label(path, EXAMPLE_BOARD), digest)


def _cards(path: str | Path | None) -> Cards:
    raw, digest = read_data_file(PACKAGE, EXAMPLE_CARDS, path)
    return parse_cards(raw, data_file_label(path, EXAMPLE_CARDS), digest)


def cross_check(board: Board, cards: Cards) -> None:
    """What a cards file says of the board: a Fate card's city and expeditions, a Town Levy's
    city. DataErrors naming the cards file and the key."""
    p = Problems()
    label = cards.label
    kingdom = set(board.kingdom_cities)
    for fid, f in (cards.fate or {}).items():
        at = Shape(None, label, f"fate[id={fid}]")
        if f.city is not None and f.city not in kingdom:
            p.add(at, f"city {f.city!r} is not a Kingdom city of the board {board.label}")
        if f.expeditions is not None:
            unknown = sorted(set(f.expeditions) - set(board.expeditions))
            if unknown:
                p.add(at, f"expeditions {', '.join(unknown)} are not on the board {board.label} "
                      f"(it has {', '.join(board.expeditions)})")
    for lid, t in ((cards.crown_and_glory or {}).get("town_levies") or {}).items():
        if t["city"] not in kingdom:
            p.add(Shape(None, label, f"crown_and_glory.town_levies[{lid}]"),
                  f"city {t['city']!r} is not a Kingdom city of the board {board.label}")
    p.raise_any()


def load_data(board: str | Path | None = None, cards: str | Path | None = None) -> GameData:
    """The board and cards to judge with (see the module's docstring for the defaults): both
    files' problems are reported together."""
    p = Problems()
    got_board = got_cards = None
    with p.each():
        got_board = _board(board)
    if cards is not None or board is None:
        with p.each():
            got_cards = _cards(cards)
    else:
        got_cards = NO_CARDS
    p.raise_any()
    cross_check(got_board, got_cards)
    return GameData(got_board, got_cards)


default_data = loaded_once(load_data)


def data_digest(data: GameData) -> str:
    return data.digest


def data_notes(data: GameData) -> tuple[str, ...]:
    """What every report of a game judged with `data` says of it: an invented example, the card
    sections judged in observed mode."""
    out = []
    if data.board.invented:
        out.append(f"{data.board.label} is an invented example board, not the published board")
    if data.cards.invented:
        out.append(f"{data.cards.label} holds invented example cards, not the published cards")
    observed = data.cards.observed
    if observed:
        out.append(("no cards file: " if data.cards.digest is None else f"{data.cards.label}: ")
                   + f"observed mode for {', '.join(observed)} (each draw carries the card's printed "
                   "fields; deck membership not checked)")
    return tuple(out)


def check_data(kind: str, path: str | Path) -> DataCheck:
    """One board or cards file checked alone (`ledger data check`)."""
    if kind == "board":
        b = _board(path)
        kingdom = b.kingdom_cities
        summary = (f"{len(b.areas)} areas ({sum(1 for a in b.areas.values() if a.is_kingdom)} Kingdom, "
                   f"{sum(1 for a in b.areas.values() if not a.is_kingdom)} overseas), "
                   f"{sum(1 for a in b.areas.values() if a.central)} central (of {CENTRAL_AREAS})",
                   f"{len(kingdom)} Kingdom cities (of {KINGDOM_CITIES}), "
                   f"{len(b.cities) - len(kingdom)} overseas (of {OVERSEAS_CITIES}); {len(b.ports)} ports",
                   f"{len(b.borders)} borders: " + ", ".join(
                       f"{sum(1 for x in b.borders.values() if x.crossing == k)} {k}"
                       for k in ("open", "river", "bridge", "mountain"))
                   + f"; {sum(1 for x in b.borders.values() if x.road)} with a road",
                   f"Mercenary Track: {len(b.track)} spots, fees {', '.join(str(t.fee) for t in b.track)}",
                   f"expeditions: {', '.join(f'{x.id} ({x.spots} spots)' for x in b.expeditions.values())}")
        notes = ((f"{b.label} is an invented example board, not the published board",) if b.invented else ())
        return DataCheck("board", b.digest, summary, notes + b.warnings)
    if kind == "cards":
        c = _cards(path)
        sizes = {"barons": c.barons, "nobles": c.nobles, "action_cards": c.baron_actions,
                 "mercenaries": c.mercenaries, "fate": c.fate, "agendas": c.agendas, "events": c.events,
                 "crown_and_glory": c.crown_and_glory}
        summary = tuple(f"{name}: " + ("left out (observed mode)" if sizes[name] is None else
                                       _size(name, c)) for name in SECTIONS)
        notes = ((f"{c.label} holds invented example cards, not the published cards",) if c.invented else ())
        if c.observed:
            notes += (f"{c.label}: observed mode for {', '.join(c.observed)}: each draw carries the "
                      "card's printed fields and deck membership is not checked",)
        return DataCheck("cards", c.digest or "", summary, notes)
    raise DataErrors([f"{path}: {kind!r} is not a Warrior Knights data file kind (board, cards)"])


def _size(name: str, c: Cards) -> str:
    if name == "barons":
        return f"{len(c.barons)} ({', '.join(c.barons)})"
    if name == "nobles":
        return f"{len(c.nobles)}"
    if name == "action_cards":
        return (f"{sum(k.copies for k in c.baron_actions.values() if k.deck == 'base')} per Baron, "
                f"{sum(k.copies for k in c.neutral_actions.values())} Neutral")
    if name == "crown_and_glory":
        cg = c.crown_and_glory
        return ", ".join(f"{k} {len(v)}" for k, v in cg.items() if isinstance(v, (dict, tuple)))
    return f"{len(getattr(c, name))} cards"


SCHEMAS = {"board": BOARD_SCHEMA, "cards": CARDS_SCHEMA}
