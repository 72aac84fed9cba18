"""The page of one Risk Legacy game, as plain data (engine.core.page): the board after each
faction chosen, each turn and the rewards on a map of the world, the race its board view carries
(Red Stars, troops, territories, resources) by round, and the final board in words.

    spec = page(game, data)        # RULESET.page: a PageSpec that analytics/game_page.py draws

Territories stand at approximate real-world positions (data/territory_coords.json, keyed by
territory id), coloured by owner with their troops written on them; an HQ is a diamond in its
player's colour, a city a star (minor, major, the world capital), a scar a cross, a
fortification a square; land borders are grey lines, sea-lines dashed blue (Alaska-Kamchatka
leaves the map's left edge and comes back at its right edge, as on the board); each continent's
name and bonus is written beside it. A territory of a corrected board that the coordinates file
does not place is left off the map, and the page names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.data import loaded_once, read_data_file
from engine.core.page import (
    Badge, BadgeKind, BoardMap, Caption, Frame, Lines, MapArea, Mark, PageGame, PageSpec, Races,
)
from engine.risk_legacy.board import FACTION_NAMES, GameData, default_data
from engine.risk_legacy.world import FORTIFICATION_BOXES

# what a turn's events did, in a turn's label ("recruits · attacks 3× · takes 2 · draws a card")
TURN_ACTS = {"RedStarBought": "buys a Red Star", "JoinedWar": "joins the war",
             "Recruited": "recruits", "Expanded": "expands", "AttackDeclared": "attacks",
             "MovedIn": "takes", "MissileFired": "fires a Missile", "ScarPlaced": "places a scar",
             "Maneuvered": "maneuvers", "CardDrawn": "draws a card",
             "MissionCompleted": "completes a mission", "RewardChosen": "chooses a reward"}
# the races charted when the board view carries them: key, title, axis
RACES = (("red_stars", "The Red Star race ({rounds}; 4 Red Stars win)", "Red Stars"),
         ("troops", "Troops on the board ({rounds})", "troops"),
         ("territories", "Territories held ({rounds})", "territories"),
         ("resources", "Resources in hand ({rounds})", "resources on their cards"))
ROUNDS_AXIS = "end of round (0: factions chosen)"
# the classic board's world: the Americas on the left, the Pacific cut between Alaska and Kamchatka
WORLD = MapArea("world", lat=(-44, 76), lon=(-170, 190), centre_lon=10, projection="mercator")
HQ = BadgeKind("hq", "HQ (player's colour)", "diamond", "#555555")
CITIES = {"minor": BadgeKind("minor city", "minor city", "star", "#9c7a3c"),
          "major": BadgeKind("major city", "major city", "star", "#d4a017"),
          "capital": BadgeKind("capital", "world capital", "star", "#c0392b")}
SCAR_COLOURS = {"bunker": "#2e7d32", "ammo_shortage": "#c62828"}
OTHER_SCAR = "#6a1b9a"
FORTIFICATION = BadgeKind("fortification", "fortification", "square", "#37474f")


def _read_coords() -> dict:
    raw = read_data_file("engine.risk_legacy", "territory_coords.json")[0]
    return {kind: {k: (c["lat"], c["lon"]) for k, c in raw[kind].items()}
            for kind in ("territories", "continents")}


coords = loaded_once(_read_coords)
coords.__doc__ = ("(lat, lon) of each territory and of each continent's name, by id, from "
                  "data/territory_coords.json.")


@dataclass
class BoardFrame:
    """The board after a turn (the ruleset's board view), and a label saying what happened."""

    label: str
    view: Mapping[str, Any]


def turn_frames(game: PageGame, data: GameData | None = None) -> list[BoardFrame]:
    """The board after each faction is chosen, each turn and the rewards, labelled with what
    happened ("Setup: ann takes Die Mechaniker in Mongolia", "Round 2, ann: recruits ·
    attacks 4× · takes 3")."""
    data = default_data() if data is None else data
    frames: list[BoardFrame] = []
    acts: dict[str, int] = {}
    open_frame: BoardFrame | None = None
    player: str | None = None          # whose turn the open frame is
    for step in game.steps:
        if step.view is None or not step.applied:
            continue
        phase, round_, _ = step.position
        if step.type == "FactionChosen":
            where = step.payload.get("territory")
            where = data.names.get(data.resolve(where) or "", where or "?")
            frames.append(BoardFrame(f"Setup: {step.actor} takes "
                                     f"{_faction(step.payload.get('faction'))} in {where}",
                                     step.view))
            continue
        if (open_frame is not None and phase == "over"
                and not open_frame.label.startswith("The end")):
            open_frame.label += _acts_text(acts)        # the game ended in this turn
            open_frame = None
        if step.type not in TURN_ACTS and step.type != "TurnEnded" and open_frame is None:
            if frames:
                frames[-1].view = step.view
            continue
        if open_frame is None:
            player = None if phase == "over" else step.actor     # after the end: name everyone
            head = "The end" if phase == "over" else f"Round {round_}, {player or 'the table'}"
            open_frame, acts = BoardFrame(head, step.view), {}
            frames.append(open_frame)
        open_frame.view = step.view
        if step.type in TURN_ACTS:
            # another player's act in this turn (a defender's scar or Missile) is named as theirs
            act = TURN_ACTS[step.type] if step.actor is None or step.actor == player else \
                f"{step.actor} {TURN_ACTS[step.type]}"
            acts[act] = acts.get(act, 0) + 1
        if step.type == "TurnEnded":
            open_frame.label += _acts_text(acts)
            open_frame = None
    if open_frame is not None:
        open_frame.label += _acts_text(acts)
    return frames


def _acts_text(acts: dict[str, int]) -> str:
    if not acts:
        return ": nothing recorded"
    return ": " + " · ".join(a if n == 1 else f"{a} {n}×" for a, n in acts.items())


def _name(text: str) -> str:
    return text.replace("_", " ")


def scar_badge(scar: str) -> BadgeKind:
    """The badge of a scar of this kind (a crossed mark in the scar's colour)."""
    return BadgeKind(f"scar {scar}", f"scar: {_name(scar)}", "x",
                     SCAR_COLOURS.get(scar, OTHER_SCAR))


def board_map(data: GameData, scars: tuple[str, ...] = ()) -> BoardMap:
    """Where the territories are, the borders between them (sea-lines dashed), the continents'
    names and bonuses, and the kinds of badge (with those of `scars`, scars the box does not
    hold that the game shows); a territory the coordinates file does not place is `unplaced` (a
    corrected board's new territory)."""
    at = coords()
    places = {t: at["territories"][t] for t in data.territories if t in at["territories"]}
    land, sea = [], []
    for a in places:
        for b in sorted(data.neighbours[a]):
            if b > a and b in places:
                (sea if frozenset((a, b)) in data.sea_lines else land).append((a, b))
    captions = tuple(Caption(f"{data.continent_names[c]} +{data.bonuses[c]}",
                             at["continents"][c])
                     for c in data.continents if c in at["continents"])
    kinds = list(dict.fromkeys([*data.scar_cards, *SCAR_COLOURS, *scars]))
    return BoardMap(
        WORLD, places,
        lines=(Lines("land border", tuple(land), "#8a8a8a", 1),
               Lines("sea-line", tuple(sea), "#3b7dd8", 1.5, dashed=True)),
        badges=(HQ, *CITIES.values(), *(scar_badge(k) for k in kinds), FORTIFICATION),
        names=dict(data.names), captions=captions,
        caption="territories at approximate positions",
        unplaced=tuple(t for t in data.territories if t not in places))


def _count(n: int, word: str) -> str:
    """ "1 troop", "3 troops", "2 territories"."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _faction(faction: str | None) -> str:
    return FACTION_NAMES.get(faction, _name(faction)) if faction else "no faction"


def marks(view: Mapping[str, Any], data: GameData) -> tuple[Mark, ...]:
    """Every territory of the board on one board view, in the board's order: its owner and
    troops, its HQ, city, scar and fortification."""
    board, stickers = view.get("board", {}), view.get("marks", {})
    player_of = {info.get("faction"): p for p, info in view.get("players", {}).items()}
    out = []
    for t in data.territories:
        entry, sticker = board.get(t, {}), stickers.get(t, {})
        owner, troops = entry.get("owner"), entry.get("troops", 0)
        lines = [f"{owner} ({_faction(view['players'][owner].get('faction'))}): "
                 f"{_count(troops, 'troop')}"
                 if owner in view.get("players", {}) else "held by nobody"]
        badges = []
        if entry.get("hq"):
            hq_player = player_of.get(entry["hq"])
            badges.append(Badge(HQ.key, hq_player))
            lines.append(f"HQ of {_faction(entry['hq'])}" + (f" ({hq_player})" if hq_player
                                                               else ""))
        if sticker.get("city"):
            kind = sticker.get("city_kind", "minor")
            if kind in CITIES:
                badges.append(Badge(CITIES[kind].key, text=sticker["city"]))
            lines.append(f"{sticker['city']}: {CITIES[kind].name if kind in CITIES else kind}")
        if sticker.get("scar"):
            badges.append(Badge(scar_badge(sticker["scar"]).key))
            lines.append(f"scar: {_name(sticker['scar'])}")
        boxes = sticker.get("fortification")
        if boxes is not None and sticker.get("city"):
            if boxes < FORTIFICATION_BOXES:
                badges.append(Badge(FORTIFICATION.key))
            lines.append(f"fortification: {boxes} of {FORTIFICATION_BOXES} boxes marked"
                         + (" (spent)" if boxes >= FORTIFICATION_BOXES else ""))
        out.append(Mark(t, owner, troops, "circle", None,
                        f"({data.continent_names.get(data.continent_of.get(t, ''), '')})",
                        tuple(lines), tuple(badges)))
    return tuple(out)


def final_lines(view: Mapping[str, Any], data: GameData) -> tuple[str, ...]:
    """The board in words, a line per player: their faction, Red Stars, cards, and each
    territory they hold with its troops, HQ and city, by display name."""
    board, stickers = view.get("board", {}), view.get("marks", {})
    out = []
    for p, info in view.get("players", {}).items():
        head = f"{p} ({_faction(info.get('faction'))})"
        if info.get("eliminated"):
            out.append(f"{head}: eliminated")
            continue
        held = []
        for t in data.territories:
            entry = board.get(t, {})
            if entry.get("owner") != p:
                continue
            tags = [f"HQ of {_faction(entry['hq'])}"] if entry.get("hq") else []
            if stickers.get(t, {}).get("city"):
                tags.append(stickers[t]["city"])
            held.append(f"{data.names.get(t, t)} {entry.get('troops', 0)}"
                        + (f" ({', '.join(tags)})" if tags else ""))
        counts = ", ".join(_count(info.get(key, 0), word) for key, word in (
            ("red_stars", "Red Star"), ("cards", "card"), ("resources", "resource"),
            ("missiles", "Missile"), ("territories", "territory"), ("troops", "troop")))
        out.append(f"{head}: {counts}" + (f". {'; '.join(held)}" if held else ""))
    return tuple(out)


def page(game: PageGame, data: GameData | None = None) -> PageSpec:
    """RULESET.page: the board after each turn on the map of the world, the races by round, and
    the final board in words. ValueError when no turn was played."""
    data = default_data() if data is None else data
    frames = turn_frames(game, data)
    if not frames:
        raise ValueError("no turn was played: there is no board to draw")
    races = Races.of(game, ROUNDS_AXIS)
    first = next(iter(races.ends.values()), {}).get("players", {})
    some = next(iter(first.values()), {}) if first else {}
    charts = tuple(
        races.race(f"race-{key.replace('_', '-')}", title, axis,
                   lambda v, p, key=key: v["players"].get(p, {}).get(key))
        for key, title, axis in RACES if key in some)
    return PageSpec(
        frames=tuple(Frame(f.label, marks(f.view, data),
                           final_lines(f.view, data) if k == len(frames) - 1 else ())
                     for k, f in enumerate(frames)),
        rounds=races.rounds, charts=charts, lead="Risk Legacy",
        map=board_map(data, tuple(sorted({m["scar"] for f in frames
                                          for m in f.view.get("marks", {}).values()
                                          if m.get("scar")}))),
        about="Territories are drawn at approximate real-world positions with their troops.")
