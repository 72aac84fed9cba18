"""Risk Legacy's hidden information: the state and the events as one seat or a spectator may see
them (RULESET.view, .redact, .secrets; the contract: engine/core/ruleset.py and engine/core/views.py;
the list with the rulebook's passages: docs/views.md).

The one secret of a game is each player's Scar card ("Setup Before Every Game: Scar Cards":
"Shuffle the available Scar cards and randomly deal ONE to each player"), held in hand
(RL-RULING-HIDDEN-SCARS) and hidden from the others until it is played (its scar placed, "Scar
Cards") or, unplayed, until the game ends. Dealt face up in the log (`ScarCardsDealt.cards`, a
table recording after the fact) it is redacted for the other seats, with the deal's `dice`
(which would tell every card); dealt face down (`commitments`) the log does not hold it and the
commitments are public. A judge given the whole log knows the seed up front, and so the
face-down deal: that knowledge is shown only to each card's holder.

Public: the Resource cards in every hand, card by card, because each is taken face up in front of
the table ("5 End of Turn: Drawing a Card": one of the face-up Territory cards, or a face-up Coin
card) and turned in openly; faction, HQ and starting territory ("Before the First Turn": the
Faction cards laid out face up, chosen in turn); Red Star tokens, Missiles, the face-up Mission
and Territory cards. The Territory draw pile is shown as its size: its order is decided by each
draw. When the game is won everything is public.
"""

from __future__ import annotations

import re

from engine.core.views import HIDDEN, Secret
from engine.risk_legacy.snapshot import board_view
from engine.risk_legacy.state import FACE_DOWN, STEP_NAMES, PlayerId, State


def is_over(s: State) -> bool:
    """Is the game over (won)? Then nothing is hidden any more."""
    return s.result is not None


def _known_scar(s: State, p: PlayerId) -> str | None:
    """`p`'s Scar card as the state knows it: the card, None if none is held or a face-down card
    whose identity the state does not know (the seed not yet revealed)."""
    scar = s.players[p].scar
    if scar is None:
        return None
    if scar != FACE_DOWN:
        return scar
    deal = s.scar_deal
    if deal is not None and deal.drawn is not None and p not in deal.revealed:
        return deal.drawn.get(p)
    return None


def secrets(s: State) -> tuple[Secret, ...]:
    """RULESET.secrets: every Scar card held whose identity the state knows."""
    if is_over(s):
        return ()
    out = []
    for p in s.seats:
        kind = _known_scar(s, p)
        if kind is not None:
            reveals = ("ScarPlaced",) if s.players[p].scar != FACE_DOWN else ("ScarPlaced", "ScarCardReturned")
            out.append(Secret(p, "scar", kind, reveals))
    return tuple(out)


def view(s: State, seat: PlayerId | None) -> dict:
    """RULESET.view: the board (`snapshot`'s compact view, unchanged) with the turn, the sideboard,
    every hand and each Scar card as `seat` may see them (None: a spectator)."""
    out = board_view(s)
    over = is_over(s)
    f = s.flow
    cb = s.combat
    side = s.side
    deal = s.scar_deal
    out["seat"] = seat
    out["acts_for"] = [] if seat is None else [seat]
    out["turn"] = {"phase": f.phase, "round": f.round, "order": list(f.order), "current": f.current,
                   "step": STEP_NAMES.get(f.step, f.step), "pending": f.pending,
                   "choosers": list(f.choosers), "tied": list(f.tied)}
    out["combat"] = None if cb is None else {
        "from": cb.frm, "to": cb.to, "attacker": cb.attacker, "defender": cb.defender,
        "dice": cb.dice, "stage": cb.stage, "rolls": [list(cb.rolls[0]), list(cb.rolls[1])],
        "missiles": [list(m) for m in cb.missiles], "defend": cb.defend, "held": list(cb.held)}
    out["cards"] = {"draw": len(side.draw), "discard": sorted(side.discard), "coins": side.coins,
                    "events_left": side.events_left, "missions_left": side.missions_left,
                    "mission": list(side.mission) if side.mission else None}
    for p in s.seats:
        ps = s.players[p]
        entry = out["players"][p]
        entry["hand"] = list(ps.hand)
        entry["start"] = ps.start
        if ps.scar is None:
            entry["scar"] = None
        elif over or p == seat:
            entry["scar"] = _known_scar(s, p) or HIDDEN
        else:
            entry["scar"] = HIDDEN
        if ps.scar == FACE_DOWN and deal is not None:
            entry["scar_commitment"] = deal.commitments.get(p)
    out["notes"] = _notes(s, seat)
    return out


def _notes(s: State, seat: PlayerId | None) -> list[str]:
    """The last event's notes as `seat` may read them: a face-up deal names every card ("Scar
    cards dealt: ann bunker, bob ammo shortage"); the cards of the others are taken out."""
    hidden = [x for x in secrets(s) if x.owner != seat]
    out = []
    for note in s.notes:
        for x in hidden:
            spelled = re.escape(x.value.replace("_", " "))
            note = re.sub(rf"\b{re.escape(x.owner)} (?:an? )?{spelled}", f"{x.owner} {HIDDEN}", note)
        out.append(note)
    return out


_DEAL_PUBLIC = frozenset({"commitments", "hidden_dice"})


def redact(type_: str, actor: str | None, payload: dict, seat: str | None, before: State,
           at: State, now: State) -> dict:
    """RULESET.redact: an event's payload as `seat` may see it at `now` (`before`, `at`: the
    states the event was judged against and left). Only a Scar deal logged face up carries secrets: each card is shown to its
    holder, and to everyone once played or the game is over; its `dice` once every card is."""
    if type_ != "ScarCardsDealt" or is_over(now) or payload.get("cards") is None:
        return payload
    cards = payload["cards"]
    if not isinstance(cards, dict):
        return {k: (v if k in _DEAL_PUBLIC else HIDDEN) for k, v in payload.items()}
    shown = {p: p == seat or _played(p, kind, at, now) for p, kind in cards.items()}
    if all(shown.values()):
        return payload
    out = {k: (v if k in _DEAL_PUBLIC else HIDDEN) for k, v in payload.items()}
    out["cards"] = {p: (kind if shown[p] else HIDDEN) for p, kind in cards.items()}
    return out


def _played(p: str, kind: object, at: State, now: State) -> bool:
    """Has `p` played the card the deal gave them, by `now`? (Only a deal the engine took: a
    skipped one never became anyone's hand, and stays hidden until the game is over.)"""
    ps_at = at.players.get(p)
    ps_now = now.players.get(p)
    return (ps_at is not None and ps_now is not None and at.scars_dealt and ps_at.scar == kind
            and ps_now.scar is None)
