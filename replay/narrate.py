"""The game as a judge reads it: round by round, turn by turn, each event, what it caused, any
finding, and the board after each turn. Also the JSON form for tools."""

from __future__ import annotations

from typing import Any, Iterable

from engine.core.ruleset import get_ruleset, ruleset_names
from engine.core.text import plural
from replay.judge import Judgement, StepRecord

_SHORT = {"footman": "F", "archer": "A", "cavalry": "C", "siege": "S"}


def units_short(units: dict[str, int]) -> str:
    return " ".join(f"{n}{_SHORT[k]}" for k, n in units.items() if n) or "0"


def mercenaries_of(j: Judgement) -> set[str]:
    """The Mercenary Armies of a judged game (from the board views, when kept)."""
    view = j.start_view or {}
    return {p for p, info in view.get("players", {}).items() if info.get("mercenary")}


def _who(step: StepRecord, mercs: set[str]) -> str:
    who = step.actor or "table"
    if step.actor in mercs:
        ctrl = ((step.view or {}).get("players", {}).get(step.actor) or {}).get("controller")
        who = f"{step.actor} [Mercenary Army" + (f", played by {ctrl}]" if ctrl else "]")
    return who


def describe_event(step: StepRecord, mercs: set[str] = frozenset()) -> str:
    """One line for an event, from its payload (`mercs`: the Mercenary Armies, labelled so)."""
    p = step.payload if isinstance(step.payload, dict) else {}
    t = step.type
    who = _who(step, mercs)

    def u(x: Any) -> str:
        return units_short(x) if isinstance(x, dict) else str(x)

    army = f" for control of Mercenary Army {p['army']}" if p.get("army") else ""
    if t == "BidPlaced":
        return f"{who} bids " + (str(p.get("amount")) if p.get("amount") is not None else "(hidden)") + army
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
        return f"{who} commits two cards face down" + (f" ({', '.join(p['cards'])})" if p.get("cards") else "")
    if t == "CardRevealed":
        if step.actor in mercs or p.get("dice"):
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
    if t == "Fortified":
        return f"{who} bonus FORTIFY {p.get('territory')}"
    if t == "SiegeAssaulted":
        return f"{who} bonus SIEGE ASSAULT {p.get('from')} → {p.get('target')}"
    if t in ("DiceRolled", "DiceRerolled"):
        rolls = "; ".join(f"{k} {v}" for k, v in (p.get("rolls") or {}).items())
        return ("re-roll " if t == "DiceRerolled" else "dice ") + rolls
    if t == "CasualtiesRemoved":
        return f"{who} removes {u(p.get('units'))} in {p.get('territory')}"
    if t == "BattleStarted":
        return f"{who} starts the battle in {p.get('territory')}"
    if t == "BattleEnded":
        return f"claim: battle in {p.get('territory')} won by {p.get('winner')}"
    if t == "GameEnded":
        if isinstance(p.get("winners"), list):
            return f"claim: game won by {' and '.join(map(str, p['winners']))}"
        return f"claim: game won by {p.get('winner')}"
    if t == "SeedRevealed":
        return "dice seed revealed"
    return f"{who} {t} {p}"


def board_lines(view: dict | None, indent: str = "    ") -> list[str]:
    """A compact board: a line per player, then their territories."""
    if not view:
        return []
    out = []
    board = view.get("board", {})
    for p, info in view.get("players", {}).items():
        if info.get("eliminated"):
            out.append(f"{indent}{p}: eliminated")
            continue
        held = []
        for t, x in board.items():
            if x.get("owner") == p:
                tags = []
                if x.get("city"):
                    tags.append(x["city"])
                if x.get("castle"):
                    tags.append("castle")
                if x.get("attacker"):
                    tags.append(f"attacked by {x['attacker']} {units_short(x['attacker_units'])}")
                held.append(f"{t} {units_short(x['units'])}" + (f" [{', '.join(tags)}]" if tags else ""))
        marker = " ★marker" if view.get("marker") == p else ""
        if info.get("mercenary"):
            ctrl = f", played by {info['controller']}" if info.get("controller") else ""
            marker += f" (Mercenary Army{ctrl})"
        out.append(f"{indent}{p}{marker}: {plural(info['coins'], 'coin')}, "
                   f"{plural(info['crowns'], 'crown')}, "
                   f"{plural(info['territories'], 'territory', 'territories')} — " + "; ".join(held))
    for team in view.get("teams") or []:
        out.append(f"{indent}team: {' and '.join(team)}")
    return out


def _section(step: StepRecord) -> tuple:
    phase, rnd, turn = step.position
    if phase in ("bidding", "placement", "tiles") or rnd == 0:
        return ("setup",)
    if phase in ("control", "merc_order", "rolloff"):
        return ("mercenary bids", rnd)
    if phase == "battles":
        return ("battles", rnd)
    if phase == "over":
        return ("over",)
    return ("round", rnd, turn if phase == "turn" else 0)


def narrate(j: Judgement, *, round_: int | None = None, turn: int | None = None,
            player: str | None = None) -> list[str]:
    """The replay as lines of text; filters narrow it to a round, a turn, a player."""
    out: list[str] = []
    title = f"{j.file}: game {j.game_id!r}, {j.ruleset or '?'} (ruleset {j.ruleset_version or '?'})"
    out.append(title)
    if j.data_digest:
        out.append("  judged with " + " ".join(part[:part.index(":") + 13] + "…" if ":" in part else part
                                           for part in j.data_digest.split()))
    if j.players:
        out.append(f"  players, clockwise: {', '.join(j.players)}")
    mercs = mercenaries_of(j)
    rs = get_ruleset(j.ruleset) if j.ruleset in ruleset_names() else None
    # a ruleset may narrate its own events and board; Risk Europe's are the defaults here
    describe = ((lambda st: rs.describe(st.type, st.actor, st.payload)) if rs is not None and rs.describe
                else (lambda st: describe_event(st, mercs)))
    lines_of = rs.board_lines if rs is not None and rs.board_lines else board_lines
    if j.start_view and j.start_view.get("variant"):
        out.append(f"  variant: {j.start_view['variant']}"
                   + (f"; Mercenary Armies: {', '.join(sorted(mercs))}" if mercs else ""))
    selected = [s for s in j.steps if _matches(s, round_, turn, player)]
    filtered = round_ is not None or turn is not None or player is not None
    if filtered:
        if not selected:
            out.append("  (no events match the filter)")
            return out
        first = j.steps.index(selected[0])
        before = j.steps[first - 1].view if first > 0 else j.start_view
        out.append("  board before:")
        out.extend(lines_of(before))
    last_section = None
    last_turn_key = None
    prev_step: StepRecord | None = None
    for s in selected:
        sec = _section(s)
        tkey = (s.position[1], s.position[2], s.actor) if s.type == "CardRevealed" else last_turn_key
        if prev_step is not None and (sec != last_section or (s.type == "CardRevealed")) and last_turn_key \
                and turn is None and player is None:
            out.append("    board after the turn:")
            out.extend(lines_of(prev_step.view, "      "))
        if sec != last_section:
            out.append(_heading(sec, j.ruleset))
            last_section = sec
        last_turn_key = tkey if sec[0] == "round" else None
        flag = {"ok": "", "claim": " ⚠", "illegal-applied": " ✗", "skipped": " ✗", "unreadable": " ✗"}[s.status]
        out.append(f"  L{s.line} #{s.seq}{flag} {describe(s)}")
        for n in s.notes:
            out.append(f"      → {n}")
        for f in s.findings:
            what = {"illegal": "ILLEGAL", "claim": "WRONG CLAIM", "log": "LOG"}[f.kind]
            extra = "" if f.applied is None else (" (applied as recorded)" if f.applied else " (skipped)")
            out.append(f"      !! {what} {f.rule}: {f.message}{extra} [{f.section}]")
        prev_step = s
    if filtered:
        out.append("  board after:")
        out.extend(lines_of(selected[-1].view))
    out.append("== Result ==")
    out.extend(result_lines(j))
    return out


_SETUP_HEADING = {"risk-europe": "== Setup: bids and kingdoms ==",
                  "risk-legacy": "== Setup: Scar cards, face-up cards, roll-off, factions and HQs =="}


def _heading(sec: tuple, ruleset: str | None = None) -> str:
    if sec[0] == "setup":
        return _SETUP_HEADING.get(ruleset or "", "== Setup ==")
    if sec[0] == "battles":
        return f"== Round {sec[1]}: battles =="
    if sec[0] == "mercenary bids":
        return f"== Round {sec[1]}: bids for the Mercenary Armies =="
    if sec[0] == "over":
        return "== After the end =="
    if sec[2] == 0:
        return f"== Round {sec[1]}: cards =="
    return f"== Round {sec[1]}, turn {sec[2]} =="


def _matches(s: StepRecord, round_: int | None, turn: int | None, player: str | None) -> bool:
    phase, rnd, t = s.position
    if round_ is not None and rnd != round_:
        return False
    if turn is not None and not (phase == "turn" and t == turn):
        return False
    if player is not None and s.actor != player:
        return False
    return True


def result_lines(j: Judgement) -> list[str]:
    out = []
    if j.fatal:
        out.append(f"  cannot judge the game: {j.fatal}")
    if j.result:
        w = " and ".join(j.result.winners) or "nobody"
        out.append(f"  {w} {'wins' if len(j.result.winners) == 1 else 'win'} at the end of round "
                   f"{j.result.round} ({j.result.reason})")
    elif not j.fatal:
        out.append("  the game is not over at the end of the log")
    if j.has_declared_winner:
        out.append(f"  the log declares: {j.declared_winner or 'no winner'}")
    n_illegal = sum(1 for f in j.findings if f.kind == "illegal")
    n_claim = sum(1 for f in j.findings if f.kind == "claim")
    n_log = sum(1 for f in j.findings if f.kind == "log")
    out.append(f"  findings: {n_illegal} illegal, {plural(n_claim, 'wrong claim')}, "
               f"{plural(n_log, 'log problem')}; "
               f"chain {'intact' if j.chain_ok else 'NOT intact'}")
    return out


def steps_json(j: Judgement, steps: Iterable[StepRecord]) -> list[dict]:
    return [{"line": s.line, "seq": s.seq, "type": s.type, "actor": s.actor, "payload": s.payload,
             "status": s.status, "phase": s.position[0], "round": s.position[1], "turn": s.position[2],
             "notes": list(s.notes), "findings": [f.as_dict() for f in s.findings],
             "digest": s.digest, "board": s.view} for s in steps]
