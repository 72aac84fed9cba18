"""Risk Europe's hidden information: the state and the events as one seat or a spectator may see
them (RULESET.view, .redact, .secrets; the contract: engine/core/ruleset.py and engine/core/views.py;
the list with the rulebook's passages: docs/views.md).

What the rulebook keeps from the other players, and until when:

- the bid for the First Player Marker ("Game Setup" 3, p.6: "secretly selecting an amount of coins
  ... All players will then reveal their bids at the same time") and, with Mercenaries, each bid
  for a Mercenary Army ("Mercenaries: 3-Player Variant" 4, p.20): hidden until every bidder has
  bid, when all are revealed together (a bid logged as a commitment is revealed by its BidRevealed);
- the two King's Orders cards of the round ("How to Play: Round Overview" 1, p.8: "secretly
  selects two cards from their hand and places them facedown"): each hidden until its
  CardRevealed on its turn;
- a kept Kingdom Mission ("Kingdom Missions Play Variant", p.19: "Place the mission you've selected
  facedown in front of you and keep it secret from your opponents"): hidden until its
  MissionCompleted ("you may turn it over and reveal your card to all players").

Public, though a player holds it: coins, Crown Cards, the number of cards in hand (which ones is
public knowledge too, every card played having been revealed, but the view gives the number so
that a face-down card is never listed beside the others), the cards played since the last
refill, a Mercenary deck's size (its order is decided by the draw when a card is flipped).
Teammates see no more of each other than opponents ("Team Gameplay", p.22: teammates may not
help each other choose their cards). When the game is over everything is public.
"""

from __future__ import annotations

from engine.core.views import HIDDEN, Secret
from engine.risk_europe.snapshot import board_view
from engine.risk_europe.state import PlayerId, State

_BID_PHASES = ("bidding", "control")
_BID_REVEALS = ("BidPlaced", "BidRevealed")

# The payload keys of each event that carries a secret: the public ones (commitments, labels),
# and the secret one. Any other key a recorder adds to such an event is hidden with the secret.
_PUBLIC_KEYS = {"BidPlaced": {"commitment", "army"}, "CardsCommitted": {"commitments"},
                "MissionKept": {"commitment"}}


def is_over(s: State) -> bool:
    """Is the game over? Then nothing is hidden any more."""
    return s.result is not None


def _bid_is_secret(s: State, p: PlayerId) -> bool:
    """Is `p`'s bid (placed as an amount) still to be revealed? Bids are revealed together once
    every bidder has bid; a bid revealed from its commitment is public at once."""
    ps = s.players[p]
    return (ps.bid is not None and ps.bid_commitment is None and s.flow.phase in _BID_PHASES
            and not is_over(s))


def _face_down(s: State, p: PlayerId) -> tuple[str, ...]:
    """`p`'s cards still face down this round, in turn order: ids (table), or HIDDEN for each
    card committed as a hash (the log does not hold it)."""
    ps = s.players[p]
    n = len(ps.revealed)
    if ps.stack:
        return ps.stack[n:]
    return (HIDDEN,) * max(0, len(ps.commitments) - n)


def secrets(s: State) -> tuple[Secret, ...]:
    """RULESET.secrets: bids not yet revealed, face-down cards, kept missions (held in clear)."""
    if is_over(s):
        return ()
    out: list[Secret] = []
    for p in s.seats:
        ps = s.players[p]
        if _bid_is_secret(s, p):
            out.append(Secret(p, "bid", ps.bid, _BID_REVEALS))
        for card in ps.stack[len(ps.revealed):]:
            out.append(Secret(p, "card", card, ("CardRevealed",)))
        for m in ps.kept_missions:
            out.append(Secret(p, "mission", m, ("MissionCompleted",), distinct=True))
    return tuple(out)


def view(s: State, seat: PlayerId | None) -> dict:
    """RULESET.view: the board (`snapshot`'s compact view, unchanged) with the turn, each army's
    cards, bids and missions as `seat` may see them (None: a spectator)."""
    out = board_view(s)
    over = is_over(s)
    f = s.flow
    out["seat"] = seat
    out["acts_for"] = [] if seat is None else [seat] + [
        a for a in s.mercenaries if s.players[a].controller == seat]
    out["turn"] = {"phase": f.phase, "round": f.round, "turn": f.turn, "order": list(f.order),
                   "current": f.current, "card": f.card, "order_done": f.order_done,
                   "bonus_used": f.bonus_used, "pending": list(f.pending) if f.pending else None,
                   "tied": list(f.tied), "merc": f.merc}
    b = s.battle
    out["battle"] = None if b is None else {
        "territory": b.territory, "attacker": b.attacker, "defender": b.defender, "rank": b.rank,
        "stage": b.stage, "rolls": [list(b.rolls[0]), list(b.rolls[1])],
        "owed": [list(o) for o in b.owed]}
    out["fought"] = list(s.fought)
    out["crown_cards_left"] = s.crown_cards_left
    out["castles_left"] = s.castles_left
    cards = tuple(s.data.cards)
    for p in s.seats:
        ps = s.players[p]
        mine = over or p == seat
        entry = out["players"][p]
        if s.is_mercenary(p):
            entry["deck"] = len(ps.hand) or len(cards)
            entry["revealed"] = list(ps.revealed)
            continue
        down = _face_down(s, p)
        in_hand = [c for c in cards if c in ps.hand and c not in down]
        if not ps.stack:                      # committed as hashes: which hand cards, not known
            in_hand = [c for c in cards if c in ps.hand]
        entry["hand"] = in_hand if mine else max(0, len(ps.hand) - len(down))
        entry["facedown"] = list(down) if mine else [HIDDEN] * len(down)
        entry["commitments"] = list(ps.commitments[len(ps.revealed):])
        entry["revealed"] = list(ps.revealed)
        entry["played"] = [c for c in cards if c not in ps.hand and c not in ps.revealed]
        entry["bid"] = HIDDEN if _bid_is_secret(s, p) and not mine else ps.bid
        entry["bid_commitment"] = ps.bid_commitment
        if s.missions:
            entry["missions"] = list(ps.kept_missions) if mine else [HIDDEN] * len(ps.kept_missions)
            entry["mission_commitments"] = list(ps.kept_commitments)
            entry["missions_done"] = list(ps.missions_done)
    out["notes"] = _notes(s, seat)
    return out


def _notes(s: State, seat: PlayerId | None) -> list[str]:
    """The last event's notes as `seat` may read them: a mission kept in clear by another player
    is named in its note ("keeps a mission face down (mission-3)"); the name is taken out."""
    hidden = [x.value for x in secrets(s) if x.kind == "mission" and x.owner != seat]
    out = []
    for note in s.notes:
        for m in hidden:
            note = note.replace(m, HIDDEN)
        out.append(note)
    return out


def redact(type_: str, actor: str | None, payload: dict, seat: str | None, before: State,
           at: State, now: State) -> dict:
    """RULESET.redact: an event's payload as `seat` may see it at `now` (`before`, `at`: the
    states the event was judged against and left). Only a bid amount, committed cards and a kept
    mission logged in clear carry a secret; their own actor sees them, and everyone once
    revealed or the game is over."""
    public = _PUBLIC_KEYS.get(type_)
    if public is None or (seat is not None and seat == actor) or is_over(now):
        return payload
    if type_ == "BidPlaced":
        shown = not _same_bid_open(before, now)
    elif type_ == "CardsCommitted":
        return _redact_cards(payload, actor, at, now, public)
    else:
        ps = now.players.get(actor) if actor is not None else None
        shown = ps is not None and payload.get("mission") in ps.missions_done
    if shown:
        return payload
    return {k: (v if k in public else HIDDEN) for k, v in payload.items()}


def _same_bid_open(before: State, now: State) -> bool:
    """Is the bidding a bid was placed in (the one open `before` it) still open at `now`? (The
    last bid closes it in its own step, and may open the next Mercenary Army's.)"""
    fa, fn = before.flow, now.flow
    return (fa.phase in _BID_PHASES and fn.phase == fa.phase and fn.round == fa.round
            and fn.merc == fa.merc)


def _redact_cards(payload: dict, actor: str | None, at: State, now: State, public: set) -> dict:
    """Committed cards: each shown once it has been revealed on its turn (or its round is over).
    Cards the engine did not take as the player's stack (the event was skipped) stay hidden."""
    cards = payload.get("cards")
    ps_at = at.players.get(actor) if actor is not None else None
    out = {k: (v if k in public else HIDDEN) for k, v in payload.items()}
    if not isinstance(cards, list) or ps_at is None or tuple(ps_at.stack) != tuple(cards):
        return out
    if now.flow.round > at.flow.round:
        shown = len(cards)
    elif now.flow.round == at.flow.round:
        shown = len(now.players[actor].revealed)
    else:
        shown = 0
    out["cards"] = [c if i < shown else HIDDEN for i, c in enumerate(cards)]
    return out

