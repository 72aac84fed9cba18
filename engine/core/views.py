"""Hidden information: the game as one seat (a player id) or a spectator (None) may see it.

Shared code never asks a ruleset's `view`, `redact` or `secrets` hook directly; it calls these
helpers, which fall back to "everything is public" for a game without hidden information (its
view is its `snapshot`, its events are shown as logged):

    view_of(rs, state, seat)                       the state as `seat` may see it (JSON-able)
    notes_for(rs, state, seat)                     what the last event caused, as `seat` may read it
    redact_payload(rs, type, actor, payload, seat, before, after, now=None)
                                                   an event's payload as `seat` may see it at `now`
    hidden_from(rs, state, seat)                   the secrets the state holds that `seat` may not see
    redaction_key(rs, state, seat)                 what the redaction of past events for `seat` depends on
    digest_for(rs, state, seat)                    the state digest, or None while it would tell a secret
    moves_for(rs, state, seat)                     the legal moves `seat` makes
    actors_now(rs, state)                          the actors whose decision the game may take now
    withheld(text, hidden)                         does a text (a finding's message) name a hidden value?

Two kinds of secret, and what a log can hold of each (docs/views.md):

- **in clear**: a table recording after the fact logs the choice itself (`CardsCommitted.cards`, a
  `BidPlaced.amount`, `MissionKept.mission`, a face-up `ScarCardsDealt`). The log holds the secret,
  so every route that shows the log to a seat must pass through these helpers until the reveal;
  so must anything computed from it: a state digest or an envelope hash can be brute-forced over
  the few values a secret can take (8 x 7 card stacks, a bid of 0-20 coins), so both are withheld
  from a seat while a secret is hidden from it (`digest_for`; replay.seat for the hash chain).
- **as a commitment**: digital play logs sha256("<value>:<salt>") and reveals value and salt later.
  The commitment is public and the secret is not in the log at all (nor in the state), so there is
  nothing to redact; a seat's own secret is then visible to it only through its own records. The
  salt must be unguessable (16 random bytes, say): a short one lets anyone try every value.

`before`, `after` and `now` in `redact_payload`: the states the event was judged against and left
(the same state when it was skipped as illegal) tell its context and whether it took effect: a
bid belongs to the bidding open before it, though the last bid closes it (and, with two
Mercenary Armies, opens the next); cards committed belong to the round after them, though the
commitment that follows a round's last turn closes that round. `now` is the moment the seat
looks: `after` for "as seen when it was appended", a later state for "as seen now" (a card
committed face down is shown once it is revealed). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any, NamedTuple

HIDDEN = "hidden"
"""What a view or a redacted payload shows in place of a value the seat may not see."""


class Secret(NamedTuple):
    """One piece of hidden information a state holds in clear: whose it is, what kind, its value.

    `revealed_by`: the event types that turn it over for everyone (docs and tests: after one of
    them the value is visible to every seat). `distinct`: the value names this secret alone (a
    mission id), so no view of another seat may contain it anywhere; a value several players can
    hold (a card id of everyone's deck, a bid amount) is searched only in the owner's part of a
    view (its player entry, its own events)."""

    owner: str
    kind: str
    value: Any
    revealed_by: tuple[str, ...] = ()
    distinct: bool = False


def view_of(rs: Any, state: Any, seat: str | None) -> dict:
    """The state as `seat` (a player id, or None for a spectator) may see it: the ruleset's `view`
    hook, or its public `snapshot` when the game hides nothing."""
    if rs.view is None:
        return rs.snapshot(state)
    return rs.view(state, seat)


def notes_for(rs: Any, state: Any, seat: str | None) -> tuple[str, ...]:
    """What the last event caused (the replay's notes), as `seat` may read them: a view may carry
    its own `notes` (with secrets of other seats taken out); otherwise the ruleset's notes."""
    if rs.view is not None:
        notes = rs.view(state, seat).get("notes")
        if notes is not None:
            return tuple(notes)
    return tuple(rs.notes(state))


def redact_payload(rs: Any, type_: str, actor: str | None, payload: Any, seat: str | None,
                   before: Any, after: Any, now: Any = None) -> Any:
    """An event's payload as `seat` may see it at `now` (default `after`: when it was appended).

    `before`, `after`: the states the event was judged against and left (see the module
    docstring). The payload is never changed in place; a game without a `redact` hook shows
    every payload as logged."""
    if rs.redact is None or not isinstance(payload, dict):
        return payload
    return rs.redact(type_, actor, payload, seat, before, after, after if now is None else now)


def secrets_of(rs: Any, state: Any) -> tuple[Secret, ...]:
    """Every secret the state holds in clear and has not revealed (none for a game without a
    `secrets` hook)."""
    if rs.secrets is None:
        return ()
    return tuple(rs.secrets(state))


def hidden_from(rs: Any, state: Any, seat: str | None) -> tuple[Secret, ...]:
    """The secrets of the state that `seat` may not see (all of them for a spectator)."""
    return tuple(x for x in secrets_of(rs, state) if x.owner != seat)


def redaction_key(rs: Any, state: Any, seat: str | None) -> tuple:
    """What the redaction of past events for `seat` depends on in the state it looks from: whether
    the game is over, and the secrets hidden from it (`hidden_from`). The contract a `redact`
    hook keeps, which lets a reader keep the events it showed `seat` and look again only at the
    new ones (ledger.service.live): while this key is the same, an event `redact` showed as
    logged stays shown as logged. (One it showed redacted may come out later without the key
    changing, e.g. a bid logged as a commitment with an extra key, once its bidding closes: a
    reader looks again at those.) When the key changes, every event may read differently: a
    card revealed, or a value shown before (a card drawn face up) secret again once a reshuffled
    deck deals it face down."""
    return (rs.result(state) is not None, hidden_from(rs, state, seat))


def digest_for(rs: Any, state: Any, seat: str | None) -> str | None:
    """The state digest, for `seat`: None while the state holds a secret hidden from it (the
    digest of the full state would let the seat try every value of the secret)."""
    return None if hidden_from(rs, state, seat) else rs.digest(state)


def moves_for(rs: Any, state: Any, seat: str | None) -> list:
    """The legal moves `seat` makes now: those whose actor is `seat` or an army the view says it
    acts for (`acts_for`, e.g. a Mercenary Army it plays this round), and whose decision the game
    waits for (`actors_now`: the next player's reveal is not offered while a turn runs). Another
    seat's moves are never shown: they are built from that seat's secrets (its face-down card to
    reveal). A spectator makes no moves."""
    if seat is None or rs.legal_moves is None:
        return []
    acts = set(view_of(rs, state, seat).get("acts_for") or ()) | {seat}
    if rs.actors is not None:           # (without the hook the actors are those of the moves)
        acts &= set(rs.actors(state))
        if not acts:
            return []
    return [m for m in rs.legal_moves(state) if getattr(m, "actor", None) in acts]


def actors_now(rs: Any, state: Any) -> tuple[str, ...]:
    """The actors (players, or armies a player acts for) who may decide something now: the
    ruleset's `actors` hook, or the actors of its legal moves in the order first offered (none
    for a game without either)."""
    if rs.actors is not None:
        return tuple(rs.actors(state))
    if rs.legal_moves is None:
        return ()
    out: dict[str, None] = {}
    for m in rs.legal_moves(state):
        actor = getattr(m, "actor", None)
        if actor is not None:
            out.setdefault(actor, None)
    return tuple(out)


def seats_acting_for(rs: Any, state: Any, actor: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats that make `actor`'s moves: the actor itself when it is a seat, and every seat
    whose view says it `acts_for` it (a Mercenary Army its controller plays)."""
    out = [actor] if actor in seats else []
    if rs.view is not None:
        out += [s for s in seats if s != actor and actor in (view_of(rs, state, s).get("acts_for") or ())]
    return tuple(out)


def spellings(value: Any) -> set[str]:
    """How a secret value may be written in a text: as is, and with `_`, `-` read as spaces."""
    text = str(value)
    return {text, text.replace("_", " "), text.replace("-", " ")}


def withheld(text: str, hidden: tuple[Secret, ...]) -> bool:
    """Does `text` name the value of one of the `hidden` secrets? Numbers (bid amounts) are not
    searched in prose: a text about a hidden bid is withheld by its event, not by its words."""
    for x in hidden:
        if isinstance(x.value, str) and any(s in text for s in spellings(x.value)):
            return True
    return False


def has_value(obj: Any, value: Any) -> bool:
    """Is `value` one of the leaves of the JSON-able `obj` (or a substring of a string leaf)?"""
    if isinstance(obj, dict):
        return any(has_value(k, value) or has_value(v, value) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return any(has_value(v, value) for v in obj)
    if isinstance(value, str) and isinstance(obj, str):
        return any(s in obj for s in spellings(value))
    return type(obj) is type(value) and obj == value
