"""Risk Legacy events and boards as text, for replays: one line per event, a few lines per board,
the replay's sections (the setup, each player's turn of each round, after the end) and their
headings."""

from __future__ import annotations

from typing import Any, Hashable

from engine.core.narration import lines_per_player, log_format_line, template_line
from engine.core.text import plural


# the events whose line is only their payload's fields in words (engine.core.narration.template_line)
_LINES = {
    "FactionChosen": "{who} takes {faction} and starts in {territory}",
    "JoinedWar": "{who} JOINS THE WAR in {territory}",
    "Expanded": "{who} EXPANDS {troops} {from} → {to}",
    "AttackDeclared": "{who} ATTACKS {to} from {from} with {troops}",
    "ScarPlaced": "{who} places a {scar} scar on {territory}",
    "MissileFired": "{who} fires a MISSILE at the {side}'s die #{die}",
    "CasualtiesRemoved": "troops removed: attacker {attacker}, defender {defender}",
    "MovedIn": "{who} moves in {troops}",
    "Maneuvered": "{who} MANEUVERS {troops} {from} → {to}",
    "CardRevealed": "slot 1: {card}",
    "ScarCardReturned": "{who} turns over the Scar card not played: {scar}",
    "TurnEnded": "{who} ends the turn",
    "DefenceDeclared": "{who} defends with {troops}",
    "MissilesHeld": "{who} fires no Missile",
    "WorldNamed": "{by} names the world {name!r}",
    "PackOpened": "claim: {pack} opened",
}


def describe(type_: str, actor: str | None, payload: Any, view: dict | None = None) -> str:
    """One line for an event, from its payload (as logged); the board `view` is not needed."""
    p = payload if isinstance(payload, dict) else {}
    who = actor or "table"
    line = template_line(_LINES, type_, p, who)
    if line is not None:
        return line
    if type_ == "ScarCardsDealt":
        if p.get("commitments"):
            return "Scar cards dealt face down to " + ", ".join(p["commitments"])
        return "Scar cards dealt: " + ", ".join(f"{k} {v}" for k, v in (p.get("cards") or {}).items())
    if type_ == "CardsLaidOut":
        return "face up: " + ", ".join(map(str, p.get("cards") or []))
    if type_ == "MissionRevealed":
        return f"mission face up: {p.get('card')} (reward {p.get('reward', 1)})"
    if type_ == "DiceRolled":
        return "dice " + "; ".join(f"{k} {v}" for k, v in (p.get("rolls") or {}).items())
    if type_ == "RedStarBought":
        return f"{who} buys a Red Star with {', '.join(map(str, p.get('cards') or []))}"
    if type_ == "Recruited":
        cards = f" turning in {', '.join(map(str, p['cards']))}" if p.get("cards") else ""
        where = ", ".join(f"{n} {t}" for t, n in (p.get("placements") or {}).items())
        return f"{who} RECRUITS{cards}: {where}"
    if type_ == "CardDrawn":
        return f"{who} draws {p.get('card')}" + (" (and places a troop)" if p.get("troop") else "")
    if type_ == "EventCardDrawn":
        return f"EVENT {p.get('card')}" + (f": {p['text']}" if p.get("text") else "")
    if type_ == "MissionCompleted":
        return f"{who} completes the mission {p.get('card') or ''}".rstrip()
    if type_ == "RewardChosen":
        what = ", ".join(f"{k} {v}" for k, v in p.items() if k != "reward" and v is not None)
        return f"{who} REWARD {p.get('reward')}" + (f" ({what})" if what else "")
    return log_format_line(type_, p, who)


def board_lines(view: dict | None, indent: str = "    ") -> list[str]:
    """A compact board: a line per player (Red Stars, cards, territories), then their territories."""
    return lines_per_player(
        view, indent, lambda t, x: f"{t} {x.get('troops')}" + (f" [{x['city']}]" if x.get("city") else ""),
        lambda p, info: (f"{p} ({info.get('faction')}): {_count(info, 'red_stars', 'Red Star')}, "
                         f"{_count(info, 'missiles', 'missile')}, {_count(info, 'cards', 'card')} "
                         f"({_count(info, 'resources', 'resource')}), "
                         f"{_count(info, 'territories', 'territory', 'territories')}"))


def section(phase: str, round_: int, turn: int) -> Hashable:
    """The part of the game a position belongs to: the setup (round 0), one player's turn of a
    round, after the end."""
    if round_ == 0 or phase in ("placement", "rolloff"):
        return ("setup",)
    if phase == "over":
        return ("over",)
    return ("turn", round_, turn)


def phase_heading(phase: str, round_: int, turn: int) -> str:
    """The heading of the section a position opens, e.g. "== Round 3, turn 2 =="."""
    sec = section(phase, round_, turn)
    if sec[0] == "setup":
        return "== Setup: Scar cards, face-up cards, roll-off, factions and HQs =="
    if sec[0] == "over":
        return "== After the end =="
    return f"== Round {sec[1]}, turn {sec[2]} =="


def turn_key(type_: str, actor: str | None, position: tuple[str, int, int]) -> Hashable | None:
    """Each turn of a round is one player's (engine.risk_legacy.engine.position): every event of
    the phase "turn" belongs to the turn of its position; None outside turns."""
    phase, round_, turn = position
    return (round_, turn) if phase == "turn" and round_ > 0 else None


def _count(info: dict, key: str, noun: str, nouns: str | None = None) -> str:
    """info[key] with its noun, agreeing ('1 missile', '3 Red Stars'); '? missiles' if absent."""
    n = info.get(key)
    return plural(n, noun, nouns) if isinstance(n, int) else f"{n} {nouns or noun + 's'}"
