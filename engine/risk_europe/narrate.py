"""Risk Europe in words, for replays: one line per event (`describe`), the board as a few lines
(`board_lines`), the replay's sections and their headings (`section`, `phase_heading`), the turn
a King's Orders card opens (`turn_key`) and what the start of a variant game holds (`start_lines`).

Each reads only what the log and the board view (`engine.risk_europe.snapshot.board_view`) hold,
so a replay needs nothing else of the engine."""

from __future__ import annotations

from typing import Any, Hashable

from engine.core.narration import lines_per_player, log_format_line, template_line
from engine.core.text import plural
from engine.core.views import HIDDEN

_SHORT = {"footman": "F", "archer": "A", "cavalry": "C", "siege": "S"}

# phases of the setup and of the Mercenary Armies' bids at the start of a round (engine.risk_europe.state.Flow)
_SETUP_PHASES = frozenset({"bidding", "placement", "tiles"})
_MERCENARY_PHASES = frozenset({"control", "merc_order", "rolloff"})

# the events whose line is only their payload's fields in words (engine.core.narration.template_line)
_LINES = {
    "Fortified": "{who} bonus FORTIFY {territory}",
    "SiegeAssaulted": "{who} bonus SIEGE ASSAULT {from} → {target}",
    "RerollDeclined": "{who} keeps the castle's dice (no re-roll)",
    "TurnEnded": "{who} ends the turn",
    "BattleStarted": "{who} starts the battle in {territory}",
    "BattleEnded": "claim: battle in {territory} won by {winner}",
}


def units_short(units: dict[str, int]) -> str:
    """An army in short: {"footman": 8, "archer": 2} -> "8F 2A" ("0" for none)."""
    return " ".join(f"{n}{_SHORT[k]}" for k, n in units.items() if n) or "0"


def mercenaries_in(view: dict | None) -> set[str]:
    """The Mercenary Armies of a game, from a board view (none when there is no view)."""
    return {p for p, info in (view or {}).get("players", {}).items() if info.get("mercenary")}


def _who(actor: str | None, view: dict | None) -> str:
    """The actor, a Mercenary Army labelled as one (with the player who controls it this round)."""
    who = actor or "table"
    info = ((view or {}).get("players", {}).get(actor) or {}) if actor else {}
    if info.get("mercenary"):
        ctrl = info.get("controller")
        who = f"{actor} [Mercenary Army" + (f", played by {ctrl}]" if ctrl else "]")
    return who


def describe(type_: str, actor: str | None, payload: Any, view: dict | None = None) -> str:
    """One line for an event, from its payload as logged; `view` (the board after the event, when
    the replay keeps boards) labels the Mercenary Armies."""
    p = payload if isinstance(payload, dict) else {}
    t = type_
    who = _who(actor, view)

    def u(x: Any) -> str:
        return units_short(x) if isinstance(x, dict) else str(x)

    line = template_line(_LINES, t, p, who)
    if line is not None:
        return line
    army = f" for control of Mercenary Army {p['army']}" if p.get("army") else ""
    if t == "BidPlaced":
        amount = p.get("amount")
        return f"{who} bids " + ("(hidden)" if amount in (None, HIDDEN) else str(amount)) + army
    if t == "BidRevealed":
        return f"{who} reveals a bid of {p.get('amount')}{army}"
    if t == "TilesDrawn":
        tiles = p.get("tiles") or []
        roles = ["starting city", "outpost"]
        named = ", ".join(f"{x} ({roles[i]})" if len(tiles) > 1 and i < 2 else str(x) for i, x in enumerate(tiles))
        return f"Mercenary Army {p.get('army')} draws its City Bonus Tile{'s' if len(tiles) != 1 else ''}: {named}" + (
            f" (dice {p['dice']})" if p.get("dice") else "")
    if t == "MercenaryBidsOrdered":
        return f"{who} orders the Mercenary bids: {', '.join(p.get('armies') or [])}"
    if t == "KingdomPlaced":
        return f"{who} places a kingdom at {p.get('city')}: " + ", ".join(f"{k} {v}F" for k, v in (p.get('footmen') or {}).items())
    if t == "CardsCommitted":
        cards = p.get("cards")
        if isinstance(cards, str):          # the whole list withheld from a seat, as one word
            cards = [cards]
        return f"{who} commits two cards face down" + (f" ({', '.join(map(str, cards))})" if cards else "")
    if t == "CardRevealed":
        if actor in mercenaries_in(view) or p.get("dice"):
            return f"{who} flips {p.get('card')} from the Mercenary deck" + (f" (dice {p['dice']})" if p.get("dice") else "")
        return f"{who} reveals {p.get('card')}"
    if t == "Expanded":
        return f"{who} EXPAND {u(p.get('units'))} {p.get('from')} → {p.get('to')}"
    if t == "SplitExpanded":
        moves = "; ".join(f"{u(m.get('units'))} → {m.get('to')}" for m in p.get("moves") or [] if isinstance(m, dict))
        return f"{who} SPLIT EXPAND from {p.get('from')}: {moves}"
    if t == "Maneuvered":
        via = f" via {', '.join(p['path'])}" if p.get("path") else ""
        return f"{who} MANEUVER {u(p.get('units'))} {p.get('from')} → {p.get('to')}{via}"
    if t == "Taxed":
        return f"{who} TAX from {p.get('city')}" + (f" (claims {p['coins']})" if p.get("coins") is not None else "")
    if t == "Spent":
        items = ", ".join(f"{x.get('count', 1)}×{x.get('item')}" + (f" in {x['territory']}" if x.get("territory") else "")
                          for x in p.get("purchases") or [] if isinstance(x, dict))
        return f"{who} SPEND: {items or 'nothing'}"
    if t in ("DiceRolled", "DiceRerolled"):
        rolls = "; ".join(f"{k} {v}" for k, v in (p.get("rolls") or {}).items())
        return ("re-roll " if t == "DiceRerolled" else "dice ") + rolls
    if t == "CasualtiesRemoved":
        return f"{who} removes {u(p.get('units'))} in {p.get('territory')}"
    return log_format_line(t, p, who)


def board_lines(view: dict | None, indent: str = "    ") -> list[str]:
    """A compact board: a line per player (coins, crowns, territories), then their territories."""
    def held(t: str, x: dict) -> str:
        tags = [x["city"]] if x.get("city") else []
        if x.get("castle"):
            tags.append("castle")
        if x.get("attacker"):
            tags.append(f"attacked by {x['attacker']} {units_short(x['attacker_units'])}")
        return f"{t} {units_short(x['units'])}" + (f" [{', '.join(tags)}]" if tags else "")

    def player(p: str, info: dict) -> str:
        marker = " ★marker" if view.get("marker") == p else ""
        if info.get("mercenary"):
            ctrl = f", played by {info['controller']}" if info.get("controller") else ""
            marker += f" (Mercenary Army{ctrl})"
        return (f"{p}{marker}: {plural(info['coins'], 'coin')}, {plural(info['crowns'], 'crown')}, "
                f"{plural(info['territories'], 'territory', 'territories')}")

    out = lines_per_player(view, indent, held, player)
    for team in (view or {}).get("teams") or []:
        out.append(f"{indent}team: {' and '.join(team)}")
    return out


def start_lines(view: dict | None) -> list[str]:
    """What the start of a variant game holds: the variant and its Mercenary Armies ([] for the
    basic game)."""
    if not view or not view.get("variant"):
        return []
    mercs = mercenaries_in(view)
    return [f"variant: {view['variant']}"
            + (f"; Mercenary Armies: {', '.join(sorted(mercs))}" if mercs else "")]


def section(phase: str, round_: int, turn: int) -> Hashable:
    """The part of the game a position belongs to: the setup, a round's bids for the Mercenary
    Armies, its cards (committed face down), each of its two turns, its battles, after the end."""
    if phase in _SETUP_PHASES or round_ == 0:
        return ("setup",)
    if phase in _MERCENARY_PHASES:
        return ("mercenary bids", round_)
    if phase == "battles":
        return ("battles", round_)
    if phase == "over":
        return ("over",)
    return ("round", round_, turn if phase == "turn" else 0)


def phase_heading(phase: str, round_: int, turn: int) -> str:
    """The heading of the section a position opens, e.g. "== Round 6: battles =="."""
    sec = section(phase, round_, turn)
    if sec[0] == "setup":
        return "== Setup: bids and kingdoms =="
    if sec[0] == "battles":
        return f"== Round {sec[1]}: battles =="
    if sec[0] == "mercenary bids":
        return f"== Round {sec[1]}: bids for the Mercenary Armies =="
    if sec[0] == "over":
        return "== After the end =="
    if sec[2] == 0:
        return f"== Round {sec[1]}: cards =="
    return f"== Round {sec[1]}, turn {sec[2]} =="


def turn_key(type_: str, actor: str | None, position: tuple[str, int, int]) -> Hashable | None:
    """A player's turn opens with the King's Orders card they reveal: (round, turn, who);
    None for every other event (it belongs to the turn under way, if any)."""
    phase, round_, turn = position
    if type_ == "CardRevealed" and section(phase, round_, turn)[0] == "round":
        return (round_, turn, actor)
    return None
