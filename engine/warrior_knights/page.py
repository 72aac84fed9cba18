"""The page of one Warrior Knights game, as plain data (engine.core.page): the board after the
setup and after each Action card resolved (with the battles, Assemblies and expeditions it led
to), in words, and each Baron's Influence, cities, crowns and Votes by round.

    spec = page(game, data)        # RULESET.page: a PageSpec that analytics/game_page.py draws

There is no map: the board is the user's (the shipped one is an invented example) and its files
give no positions, so each board is written out: each Baron's treasury and cities (by their
printed names), his Nobles and where they stand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.page import Frame, PageGame, PageSpec, Races
from engine.warrior_knights.gamedata import GameData, default_data

ROUNDS_AXIS = "end of round (0: the setup)"
FOLLOW = {"ForcesMobilized": None, "CityTaken": "city taken", "NobleLost": "a Noble dies",
          "Retreated": "retreat", "ExpeditionFunded": "expedition", "VoteDeclared": None,
          "TieBroken": "tie broken", "WagesPaid": None, "MercenaryHired": None,
          "EventCardDrawn": "Event", "RevoltDrawn": "revolt", "StrongholdCityGiven": "stronghold falls"}


@dataclass
class BoardFrame:
    label: str
    view: Mapping[str, Any]


def _title(card: str) -> str:
    """An Action card's type as words: "mobilize_forces" -> "Mobilize Forces"."""
    small = {"the", "of", "to", "a"}
    words = card.split("_")
    return " ".join(w if i and w in small else w.capitalize() for i, w in enumerate(words))


def board_frames(game: PageGame, data: GameData | None = None) -> list[BoardFrame]:
    """The board after the setup and after each card resolved, labelled with what happened
    ("Round 2, stack 1: red's Mobilize forces · battle at Jesmond · city taken")."""
    areas = _names(data or default_data())[1]
    frames: list[BoardFrame] = []
    for step in game.steps:
        if step.view is None:
            continue
        r = step.position[1]
        if step.applied and step.type == "StacksPlanned" and not frames:
            frames.append(BoardFrame("The setup: strongholds, Nobles and razed cities", step.view))
            continue
        if step.applied and step.type == "CardRevealed":
            owner = step.payload.get("owner")
            who = f"{owner}'s" if owner else "a Neutral card:"
            frames.append(BoardFrame(f"Round {r}, stack {step.payload.get('stack', '?')}: {who} "
                                     f"{_title(str(step.payload.get('card', '?')))}", step.view))
            continue
        if not frames:
            continue
        if step.applied:
            word = _follow(step.type, step.payload, areas)
            if word and not frames[-1].label.endswith(word):
                frames[-1].label += f" · {word}"
        frames[-1].view = step.view
    return frames


def _follow(type_: str, payload: Mapping[str, Any], areas: Mapping[str, str]) -> str | None:
    if type_ == "ForcesMobilized":
        attack = payload.get("attack")
        if attack:
            return f"{attack.get('kind', 'battle')} at {areas.get(payload.get('area'), payload.get('area', '?'))}"
        return f"moves to {areas.get(payload.get('area'), payload.get('area', '?'))}"
    if type_ == "VoteDeclared":
        return "the Assembly"
    if type_ in ("WagesPaid", "MercenaryHired"):
        return "wages and draft" if type_ == "WagesPaid" else None
    return FOLLOW.get(type_)


def _names(data: GameData) -> tuple[dict[str, str], dict[str, str]]:
    cities = {c: getattr(x, "name", c) or c for c, x in data.board.cities.items()}
    areas = {a: getattr(x, "name", a) or a for a, x in data.board.areas.items()}
    return cities, areas


def lines(view: Mapping[str, Any], data: GameData) -> tuple[str, ...]:
    """The board in words: each Baron's treasury, stronghold and cities; his Nobles."""
    cities, areas = _names(data)
    out = []
    for seat, b in view.get("barons", {}).items():
        held = sorted(cities.get(c, c) for c, cs in view.get("cities", {}).items()
                      if cs.get("owner") == seat and not cs.get("razed"))
        where = areas.get(b["stronghold"], b["stronghold"]) if b.get("stronghold") else "off the board"
        out.append(f"{seat}: {b['influence']} Influence, {b['crowns']} crowns, {b['faith']} Faith, "
                   f"{b['votes']} Votes; stronghold {where}; {len(held)} "
                   f"cit{'y' if len(held) == 1 else 'ies'}{': ' + ', '.join(held) if held else ''}")
        nobles = [f"{k.split('-', 1)[-1]} at {areas.get(n['area'], n['area'])}"
                  f" ({_troops(len(n['army']['troops']))})"
                  for k, n in view.get("nobles", {}).items()
                  if k.startswith(seat + "-") and n.get("area") and not n.get("dead")]
        if nobles:
            out.append(f"    Nobles: {'; '.join(nobles)}")
    razed = sorted(cities.get(c, c) for c, cs in view.get("cities", {}).items() if cs.get("razed"))
    neutral = sorted(cities.get(c, c) for c, cs in view.get("cities", {}).items()
                     if cs.get("owner") is None and not cs.get("razed"))
    out.append(f"Neutral cities: {', '.join(neutral) or 'none'}; razed: {', '.join(razed) or 'none'}")
    out.append(f"Influence pool: {view.get('influence_pool')}; Chairman {view.get('chairman')}, "
               f"Head of the Church {view.get('head_of_church')}")
    return tuple(out)


def _troops(n: int) -> str:
    return f"{n} troop{'' if n == 1 else 's'}"


def _cities(view: Mapping[str, Any], seat: str) -> int:
    return sum(1 for cs in view.get("cities", {}).values() if cs.get("owner") == seat and not cs.get("razed"))


def page(game: PageGame, data: GameData | None = None) -> PageSpec:
    """RULESET.page: the boards in words and the races by round. ValueError when the game
    never got past its setup."""
    data = default_data() if data is None else data
    frames = board_frames(game, data)
    if not frames:
        raise ValueError("no plan was made: the game never got past its setup, there is no board to draw")
    races = Races.of(game, ROUNDS_AXIS)
    charts = (
        races.race("wk-influence", "Influence at the end of each round ({rounds})", "Influence",
                   lambda v, p: v["barons"][p]["influence"]),
        races.race("wk-cities", "Cities held ({rounds})", "cities", _cities),
        races.race("wk-crowns", "Crowns in the treasury ({rounds})", "crowns",
                   lambda v, p: v["barons"][p]["crowns"]),
        races.race("wk-votes", "Votes in hand ({rounds})", "Votes", lambda v, p: v["barons"][p]["votes"]),
    )
    notes = []
    if data.board.invented:
        notes.append("judged on the invented example board, not the published one")
    if data.cards.invented:
        notes.append("with invented example cards")
    return PageSpec(
        frames=tuple(Frame(f.label, lines=lines(f.view, data)) for f in frames), rounds=races.rounds,
        charts=charts, lead="Warrior Knights" + (f" ({', '.join(notes)})" if notes else ""),
        about="The board after the setup and after each Action card resolved is written out: "
              "each Baron's treasury, stronghold, cities and Nobles.")
