"""The game as a judge reads it: round by round, turn by turn, each event, what it caused, any
finding, and the board after each turn. Also the JSON form for tools.

What a game's events, board, sections and turns look like comes from its `Ruleset` record
(`describe`, `board_lines`, `section`, `phase_heading`, `turn_key`, `start_lines`); a ruleset
without them is shown plainly: each event's type and payload, the board view's keys, a heading
per phase of each round."""

from __future__ import annotations

import json
from typing import Any, Callable, Hashable, Iterable

from engine.core.rulings import ACCEPT, NOTE, REPLAY_FROM, RULING_EVENT, VOID, Ruling, ruling_line
from engine.core.ruleset import Ruleset, get_ruleset, ruleset_names
from engine.core.text import plural
from replay.judge import Judgement, StepRecord

# The phase whose position counts turns (engine.core.ruleset.Ruleset.position): `--turn N`.
TURN_PHASE = "turn"


def _plain_describe(type_: str, actor: str | None, payload: Any, view: dict | None = None) -> str:
    """An event as logged: who, its type, its payload."""
    return f"{actor or 'table'} {type_} {payload}"


def _plain_board_lines(view: dict | None, indent: str = "    ") -> list[str]:
    """A board view as it is: a line per key."""
    if not view:
        return []
    return [f"{indent}{k}: {v if isinstance(v, (str, int, float)) else json.dumps(v, sort_keys=True, default=str)}"
            for k, v in view.items()]


def _plain_section(phase: str, round_: int, turn: int) -> Hashable:
    return (round_, phase)


def _plain_heading(phase: str, round_: int, turn: int) -> str:
    return f"== Round {round_}: {phase} =="


def _sturdy(describe: Callable[..., str]) -> Callable[..., str]:
    """A ruleset's `describe` that never fails on a payload of the wrong shape (an unreadable
    event of a log, one a table recorded): such an event is shown as logged."""
    if describe is _plain_describe:
        return describe

    def sturdy(type_: str, actor: str | None, payload: Any, view: dict | None = None) -> str:
        try:
            return describe(type_, actor, payload, view)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            return _plain_describe(type_, actor, payload, view)
    return sturdy


class _Voice:
    """How a replay speaks of one game: the ruleset's narration hooks, or the plain ones."""

    def __init__(self, rs: Ruleset | None):
        def hook(name: str, plain: Any) -> Any:
            found = getattr(rs, name, None) if rs is not None else None
            return found if found is not None else plain
        self.describe: Callable[..., str] = _sturdy(hook("describe", _plain_describe))
        self.board_lines: Callable[..., list[str]] = hook("board_lines", _plain_board_lines)
        self.section: Callable[[str, int, int], Hashable] = hook("section", _plain_section)
        self.heading: Callable[[str, int, int], str] = hook("phase_heading", _plain_heading)
        self.turn_key: Callable[..., Hashable | None] = hook("turn_key", lambda type_, actor, position: None)
        self.start_lines: Callable[[dict], list[str]] = hook("start_lines", lambda view: [])


def event_line(rs: Ruleset | None, type_: str, actor: str | None, payload: Any,
               view: dict | None = None) -> str:
    """One event in words, as `ledger replay` prints it ("blue reveals expand-tax-1"): the
    ruleset's `describe`, else the event as logged; `view`: the board after it, if known."""
    return _Voice(rs).describe(type_, actor, payload, view)


def position_heading(rs: Ruleset | None, position: tuple[str, int, int]) -> str:
    """The part of the game a (phase, round, turn) position is in, as the replay's heading says
    it without its rules: "Round 6: battles"."""
    return _Voice(rs).heading(*position).strip("= ")


def _ruleset_of(j: Judgement) -> Ruleset | None:
    return get_ruleset(j.ruleset) if j.ruleset in ruleset_names() else None


def narrate(j: Judgement, *, round_: int | None = None, turn: int | None = None,
            player: str | None = None) -> list[str]:
    """The replay as lines of text; filters narrow it to a round, a turn, a player (a filter that
    names nothing the game has: `filter_problem`)."""
    out: list[str] = []
    title = f"{j.file}: game {j.game_id!r}, {j.ruleset or '?'} (ruleset {j.ruleset_version or '?'})"
    out.append(title)
    if j.data_digest:
        out.append("  judged with " + " ".join(part[:part.index(":") + 13] + "…" if ":" in part else part
                                           for part in j.data_digest.split()))
    out.extend(f"  note: {note}" for note in j.data_notes)
    if j.players:
        out.append(f"  players, clockwise: {', '.join(j.players)}")
    voice = _Voice(_ruleset_of(j))
    if j.start_view:
        out.extend(f"  {line}" for line in voice.start_lines(j.start_view))
    selected = [s for s in j.steps if step_matches(s, round_, turn, player)]
    filtered = round_ is not None or turn is not None or player is not None
    if filtered:
        if not selected:
            out.append("  (no events match the filter)")
            return out
        first = j.steps.index(selected[0])
        before = j.steps[first - 1].view if first > 0 else j.start_view
        out.append("  board before:")
        out.extend(voice.board_lines(before))
    boards_between_turns = turn is None and player is None
    rulings = _rulings_by_seq(j)
    last_section: Hashable = None
    turn_now: Hashable | None = None        # the player's turn under way, if any
    prev_step: StepRecord | None = None
    view = j.start_view                     # the latest board known (an unreadable event has none)
    for s in selected:
        sec = voice.section(*s.position)
        opened = voice.turn_key(s.type, s.actor, s.position)
        key = opened if opened is not None else (turn_now if sec == last_section else None)
        if prev_step is not None and turn_now is not None and key != turn_now and boards_between_turns:
            out.append("    board after the turn:")
            out.extend(voice.board_lines(prev_step.view, "      "))
        if prev_step is None or sec != last_section:
            out.append(voice.heading(*s.position))
            last_section = sec
        turn_now = key
        view = s.view if s.view is not None else view
        flag = {"ok": "", "claim": " ⚠", "illegal-applied": " ✗", "skipped": " ✗", "unreadable": " ✗",
                "ruling": " ⚖", "voided": " ⊘"}[s.status]
        said = (ruling_line(s.payload) if s.type == RULING_EVENT
                else voice.describe(s.type, s.actor, s.payload, view))
        out.append(f"  L{s.line} #{s.seq}{flag} {said}")
        for n in s.notes:
            out.append(f"      → {n}")
        for f in s.findings:
            what = {"illegal": "ILLEGAL", "claim": "WRONG CLAIM", "log": "LOG"}[f.kind]
            extra = "" if f.applied is None else (" (applied as recorded)" if f.applied else " (skipped)")
            ruled = " — ruled: accepted" if j.accepted_by(f) is not None else ""
            out.append(f"      !! {what} {f.rule}: {f.message}{extra} [{f.section}]{ruled}")
        for r in rulings.get(s.seq, ()):
            out.append(f"      {ruled_line(r)}")
        prev_step = s
    if filtered:
        out.append("  board after:")
        out.extend(voice.board_lines(selected[-1].view))
    out.append("== Result ==")
    out.extend(result_lines(j))
    return out


def _rulings_by_seq(j: Judgement) -> dict[int, list[Ruling]]:
    """The rulings of a game by the seq of the event each answers."""
    out: dict[int, list[Ruling]] = {}
    for r in j.rulings:
        out.setdefault(r.answers, []).append(r)
    return out


_DECIDED = {ACCEPT: "accepted as recorded", VOID: "taken out of the game", NOTE: "noted"}


def ruled_line(r: Ruling) -> str:
    """A ruling beside the event it answers: '⚖ accepted as recorded by the ruling at #198
    (J. Smith): "..."'."""
    decided = (f"the game replayed from #{r.replay_from}" if r.decision == REPLAY_FROM
               else _DECIDED.get(r.decision, r.decision))
    if r.decision == VOID and len(r.voids) > 1:
        decided += f" with #{r.voids[0]}-#{r.voids[-1]}"
    by = f" ({r.by})" if r.by else ""
    return f"⚖ {decided} by the ruling at #{r.seq}{by}: {r.text!r}"


def ruling_summary(r: Ruling) -> str:
    """A ruling on a line of its own: '#198 on #148: accept by J. Smith — "..."'."""
    decision = f"replay from #{r.replay_from}" if r.decision == REPLAY_FROM else r.decision
    by = f" by {r.by}" if r.by else ""
    out = f"#{r.seq} on #{r.answers}: {decision}{by} — {r.text!r}"
    if r.voids:
        out += (f" (took out #{r.voids[0]})" if len(r.voids) == 1 else
                f" (took out {len(r.voids)} events, #{r.voids[0]}-#{r.voids[-1]})")
    return out


def rulings_lines(j: Judgement) -> list[str]:
    """What the rulings did to the game, for the end of a replay (none without rulings)."""
    if not j.rulings:
        return []
    kinds = ", ".join(f"{d} {n}" for d in (ACCEPT, VOID, REPLAY_FROM, NOTE)
                      if (n := sum(1 for r in j.rulings if r.decision == d)))
    answered = sum(1 for f in j.findings if j.accepted_by(f) is not None)
    out = [f"  rulings: {len(j.rulings)} ({kinds}); {plural(answered, 'finding')} accepted, "
           f"{plural(len(j.voided), 'event')} taken out"]
    if j.ruled:
        out.append("  the game is ruled: every finding is accepted by a ruling")
    elif j.open_findings:
        out.append(f"  open findings (no ruling answers them): {len(j.open_findings)}")
    return out


def step_matches(s: StepRecord, round_: int | None, turn: int | None, player: str | None) -> bool:
    """Does the step pass the filters: its round, its turn (counted in the phase "turn"), its actor?"""
    phase, rnd, t = s.position
    if round_ is not None and rnd != round_:
        return False
    if turn is not None and not (phase == TURN_PHASE and t == turn):
        return False
    if player is not None and s.actor != player:
        return False
    return True


def filter_problem(j: Judgement, round_: int | None = None, turn: int | None = None,
                   player: str | None = None) -> str | None:
    """Why a filter names nothing the game has — no such round, no such turn (in that round), no
    such player — naming what there is; None when each names something the game has (together
    they may still select no event: a player's round without a move). A log without judged
    events has nothing to filter: None."""
    if not j.steps:
        return None
    rounds = sorted({s.position[1] for s in j.steps})
    if round_ is not None and round_ not in rounds:
        return (f"{j.file} has no round {round_}: its rounds are {_span(rounds)}"
                + (" (0: before round 1)" if rounds[0] == 0 else ""))
    turns = sorted({s.position[2] for s in j.steps if s.position[0] == TURN_PHASE
                    and (round_ is None or s.position[1] == round_)})
    if turn is not None and turn not in turns:
        where = f"round {round_} of {j.file}" if round_ is not None else j.file
        return (f"{where} has no turn {turn}: "
                + (f"its turns are {_span(turns)}" if turns else "no turn is played in it"))
    players = list(j.players) + sorted({s.actor for s in j.steps if s.actor and s.actor not in j.players})
    if player is not None and player not in players:
        return f"{j.file} has no player {player!r}: its players are {', '.join(players) or 'none'}"
    return None


def _span(numbers: list[int]) -> str:
    """Sorted whole numbers in short: [0, 1, 2, 3, 5] -> "0-3, 5"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


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
    out.extend(rulings_lines(j))
    return out


def steps_json(j: Judgement, steps: Iterable[StepRecord]) -> list[dict]:
    """Each step for tools; a finding with "ruling" (the seq of the ruling that accepts it, or
    None), and "rulings": the rulings that answer the step's event."""
    rulings = _rulings_by_seq(j)

    def finding(f: Any) -> dict:
        by = j.accepted_by(f)
        return {**f.as_dict(), "ruling": by.seq if by is not None else None}

    return [{"line": s.line, "seq": s.seq, "type": s.type, "actor": s.actor, "payload": s.payload,
             "status": s.status, "phase": s.position[0], "round": s.position[1], "turn": s.position[2],
             "notes": list(s.notes), "findings": [finding(f) for f in s.findings],
             "rulings": [r.as_dict() for r in rulings.get(s.seq, ())],
             "digest": s.digest, "board": s.view} for s in steps]
