"""Warrior Knights' hidden information: the state and the events as one seat or a spectator may
see them (RULESET.view, .redact, .secrets; the contract: engine/core/ruleset.py and
engine/core/views.py; docs/views.md and docs/warrior-knights.md, "Hidden information").

What is hidden, from whom, until when:

- **the Action cards planned** ("Each player places 2 of their Action cards facedown into each of
  3 different stacks"): from every other seat until each card is revealed. A table's record logs
  the plan in clear (`StacksPlanned.stacks`): shown to its owner only until every card of it is
  out; digital play logs a commitment, public. Which cards a Baron holds follows: his hand is
  shown to him, its size to the others.
- **the Fate cards a side draws in battle** ("discard facedown to the bottom of the Fate deck 2
  cards ... Reveal Fate Cards"): from the other side and spectators until the cards are revealed
  (every side has discarded); the ones discarded face down stay hidden from all but their side
  while they lie at the bottom of the deck.
- **the votes a Baron casts** ("The attending Barons hide a number of Votes in hand and
  simultaneously reveal them"): a number revealed before the others' is hidden until the last
  attending Baron has revealed his for that Agenda (the votes leave the hand then: the Vote tokens
  in front of a Baron tell nothing before).

- **a Mission card** (Crown & Glory, Missions: "Each Baron may look at his own card, but may not
  show it to any other player"): a card dealt in clear (`MissionDealt.mission`) is shown to its
  owner only until he reveals it at the end (`MissionRevealed`); a commitment is public.

Public: everything else on the board, the decks' sizes and the face-up discards, the colour of the
top Event card. Once the game is over everything is public.
"""

from __future__ import annotations

from collections import Counter

from engine.core.views import HIDDEN, Secret
from engine.warrior_knights.snapshot import snapshot
from engine.warrior_knights.state import PlayerId, State

_PLAN_REVEALS = ("CardRevealed",)
_FATE_REVEALS = ("FateDiscarded", "FateDrawn", "CommanderDeclared")
_VOTE_REVEALS = ("VotesRevealed",)


def is_over(s: State) -> bool:
    return s.result is not None


def _unrevealed_plan(s: State, seat: PlayerId) -> list[str]:
    """The card types of `seat`'s plan in clear not yet revealed (none for a committed plan)."""
    p = s.plans.get(seat)
    if p is None or p.stacks is None or s.flow.phase not in ("planning", "actions", "special"):
        return []
    out: list[str] = []
    for planned, shown in zip(p.stacks, p.revealed):
        out += sorted((Counter(planned) - Counter(shown)).elements())
    return out


def _hidden_draws(s: State) -> list[tuple[PlayerId, str]]:
    """(owner, card) of the Fate cards a side of the battle drew and has not revealed."""
    b = s.battle
    if b is None or b.stage not in ("draw", "discard"):
        return []                      # revealed together once every side has discarded
    out = []
    for side in (b.attacker, b.defender):
        if side.baron is not None:
            out += [(side.baron, f.id) for f in side.drawn if f.id is not None]
    return out


def _face_down(s: State) -> list[tuple[PlayerId, str]]:
    """(owner, card) of the Fate cards discarded face down that still lie at the bottom."""
    bottom = set(s.fate.bottom) if s.fate is not None else set()
    last = dict(s.face_down)           # a card discarded again: its latest discard counts
    return [(who, card) for card, who in last.items() if card in bottom]


def _pending_votes(s: State) -> list[tuple[PlayerId, str, int]]:
    """(seat, agenda, votes) revealed before every attending Baron has revealed for that Agenda."""
    a = s.assembly
    if a is None:
        return []
    out = []
    by_agenda: dict[str, list] = {}
    for key, v in a.votes.items():
        agenda, seat = key.split("|")
        by_agenda.setdefault(agenda, []).append((seat, v))
    for agenda, entries in by_agenda.items():
        done = {seat for seat, v in entries if v.votes is not None}
        if done and not set(a.attending) <= done:
            out += [(seat, agenda, v.votes) for seat, v in entries if v.votes is not None]
    return out


def _hidden_missions(s: State) -> list[tuple[PlayerId, str]]:
    """(owner, mission) of the Mission cards dealt in clear and not yet revealed."""
    if s.glory is None:
        return []
    return [(q, m.mission) for q, m in sorted(s.glory.missions.items())
            if m.mission is not None and not m.revealed]


def secrets(s: State) -> tuple[Secret, ...]:
    """RULESET.secrets: every secret the state holds in clear and has not revealed."""
    if is_over(s):
        return ()
    out = [Secret(q, "plan", card, _PLAN_REVEALS) for q in s.seats for card in _unrevealed_plan(s, q)]
    out += [Secret(q, "fate", card, _FATE_REVEALS, distinct=True) for q, card in _hidden_draws(s)]
    out += [Secret(q, "fate", card, _FATE_REVEALS, distinct=True) for q, card in _face_down(s)]
    out += [Secret(q, "votes", n, _VOTE_REVEALS) for q, _, n in _pending_votes(s)]
    out += [Secret(q, "mission", m, ("MissionRevealed",), distinct=True) for q, m in _hidden_missions(s)]
    return tuple(out)


def view(s: State, seat: PlayerId | None) -> dict:
    """RULESET.view: the public board (`snapshot`, unchanged) with each Baron's hand, plan, Fate
    cards in battle, face-down discards and votes cast, as `seat` may see them."""
    out = snapshot(s)
    over = is_over(s)
    out["seat"] = seat
    out["acts_for"] = [] if seat is None else [seat]
    draws = _hidden_draws(s)
    down = _face_down(s)
    pending = _pending_votes(s)
    players = {}
    for q in s.seats:
        mine = over or q == seat
        b = s.barons[q]
        plan = s.plans.get(q)
        entry: dict = {"hand": (None if b.hand is None else list(b.hand)) if mine else
                       (None if b.hand is None else [HIDDEN] * len(b.hand))}
        if plan is not None:
            if plan.stacks is not None and (mine or not _unrevealed_plan(s, q)):
                entry["plan"] = [list(x) for x in plan.stacks]
            else:
                entry["plan"] = [[HIDDEN] * n for n in plan.counts]
        entry["fate_in_hand"] = [card if mine else HIDDEN for who, card in draws if who == q]
        entry["face_down"] = [card if mine else HIDDEN for who, card in down if who == q]
        entry["votes_cast"] = {agenda: (n if mine else HIDDEN) for who, agenda, n in pending if who == q}
        if s.glory is not None and q in s.glory.missions:
            m = s.glory.missions[q]
            entry["mission"] = m.mission if (mine or m.revealed) else HIDDEN
        players[q] = entry
    out["players"] = players
    out["decks"] = {name: None if d is None else {"pile": len(d.pile), "bottom": len(d.bottom),
                                                  "discard": sorted(d.discard)}
                    for name, d in (("fate", s.fate), ("events", s.events), ("mercenaries", s.mercs),
                                    ("agendas", s.agenda_deck))}
    if s.battle is not None:
        b = s.battle
        out["battle"]["sides"] = {w: {"armies": list(side.armies), "commander": side.commander,
                                      "drawn": len(side.drawn),
                                      "kept": [f.id or f.battle for f in side.kept]
                                      if b.stage not in ("draw", "discard") else [],
                                      "tokens": dict(side.tokens), "breaches": side.breaches}
                                  for w, side in (("attacker", b.attacker), ("defender", b.defender))}
    out["notes"] = list(s.notes)
    return out


def _plan_out(seat: PlayerId, now: State) -> bool:
    """Is every card of `seat`'s plan revealed at `now` (or the round over)?"""
    return not _unrevealed_plan(now, seat)


def redact(type_: str, actor: str | None, payload: dict, seat: str | None, before: State,
           at: State, now: State) -> dict:
    """RULESET.redact: an event's payload as `seat` may see it at `now`."""
    if is_over(now):
        return payload
    if type_ == "StacksPlanned" and payload.get("stacks") is not None and actor != seat:
        # every card of a round's plan is out by its Upkeep: a later round's view shows it all
        if now.flow.round > at.flow.round or _plan_out(actor, now):
            return payload
        return {**payload, "stacks": [[HIDDEN] * len(x) for x in payload["stacks"]]}
    if type_ == "FateDrawn":
        secret = {card for _, card in _hidden_draws(now)} | {card for who, card in _face_down(now) if who != seat}
        mine = {card for who, card in _hidden_draws(now) if who == seat}
        cards = payload.get("cards") or []
        shown = [c if not isinstance(c, str) or c not in secret or c in mine else HIDDEN for c in cards]
        return payload if shown == cards else {**payload, "cards": shown}
    if type_ == "FateDiscarded" and actor != seat:
        return {**payload, "discard": [HIDDEN] * len(payload.get("discard") or [])}
    if type_ == "MissionDealt" and payload.get("mission") is not None and actor != seat:
        held = now.glory.missions.get(actor) if now.glory is not None else None
        if held is None or not held.revealed:
            return {**payload, "mission": HIDDEN}
    if type_ == "VotesRevealed" and actor != seat:
        agenda = payload.get("agenda")
        if any(who == actor and a == agenda for who, a, _ in _pending_votes(now)):
            return {**payload, "votes": HIDDEN, "salt": HIDDEN}
    return payload
