"""Given/when/then helpers for Risk Europe rule tests: build events, fold them, read the state."""

from __future__ import annotations

from engine.core.events import Event
from engine.risk_europe import RULESET
from engine.risk_europe.board import default_data
from engine.risk_europe.events import PAYLOADS

SEATS = ("blue", "orange", "red", "green")
_seq = [0]


def ev(type_: str, actor: str | None = None, **payload) -> Event:
    """An event with a validated payload ('from' may be written from_)."""
    if "from_" in payload:
        payload["from"] = payload.pop("from_")
    _seq[0] += 1
    return Event(_seq[0], type_, actor, PAYLOADS[type_].model_validate(payload))


def start(players=SEATS, variant="basic"):
    p = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "risk-europe", "variant": variant, "players": [{"id": x} for x in players]})
    return RULESET.initial_state(p, default_data())


def fold(state, *events, allow=()):
    """Apply events in order; fail on any violation whose rule is not in `allow`."""
    for e in events:
        violations, nxt = RULESET.step(state, e)
        unexpected = [v for v in violations if v.rule not in allow]
        assert not unexpected, f"{e.type} by {e.actor}: {[v.as_dict() for v in unexpected]}"
        if nxt is not None:
            state = nxt
    return state


def rules_of(state, event) -> list[str]:
    return [v.rule for v in RULESET.check(state, event)]


KINGDOMS = {
    "blue": ("Berlin", {"Saxony": 5, "Bohemia": 5}),
    "orange": ("Kiev", {"Rusland": 6, "Galicia": 4}),
    "red": ("Paris", {"France": 6, "Burgundy": 4}),
    "green": ("Rome", {"Rome": 6, "Lombardy": 4}),
}


def setup_events(kingdoms=KINGDOMS, bids=None):
    bids = bids or {"blue": 2, "orange": 0, "red": 1, "green": 0}
    out = [ev("BidPlaced", p, amount=bids[p]) for p in SEATS]
    first = max(SEATS, key=lambda p: bids[p])
    order = SEATS[SEATS.index(first):] + SEATS[:SEATS.index(first)]
    for p in order:
        city, footmen = kingdoms[p]
        out.append(ev("KingdomPlaced", p, city=city, footmen=footmen))
    return out


def placed(kingdoms=KINGDOMS, bids=None):
    """A game after bids and kingdom placement: round 1, waiting for cards."""
    return fold(start(), *setup_events(kingdoms, bids))


def commit_all(state, cards: dict[str, tuple[str, str]]):
    return fold(state, *[ev("CardsCommitted", p, cards=list(c)) for p, c in cards.items()])


DEFAULT_CARDS = {
    "blue": ("expand-maneuver-fortify-1", "tax-spend-1"),
    "orange": ("expand-maneuver-fortify-1", "tax-spend-1"),
    "red": ("expand-maneuver-fortify-1", "tax-spend-1"),
    "green": ("expand-maneuver-fortify-1", "tax-spend-1"),
}
