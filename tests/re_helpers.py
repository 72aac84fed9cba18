"""Given/when/then helpers for Risk Europe rule tests: build events, fold them, read the state."""

from __future__ import annotations

from dataclasses import replace as _replace

from engine.core.events import Event
from engine.risk_europe import RULESET
from engine.risk_europe.board import default_data
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.state import Terr, Units

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

ROUND_CARDS = (
    DEFAULT_CARDS,
    {p: ("expand-maneuver-fortify-2", "tax-spend-2") for p in SEATS},
    {p: ("split-maneuver-1", "expand-maneuver-siege") for p in SEATS},
    {p: ("split-maneuver-2", "tax-spend-king") for p in SEATS},
)
"""Four rounds of commitments that play each player's eight cards once (round 4 ends in King Me)."""


# --- focused positions -----------------------------------------------------------------------
# A rule test may build its position directly: replace territories or players on a State, then
# play one event against it. The turn flow still comes from real events (cards, reveals).

EXPAND_CARD = "expand-maneuver-fortify-1"
SIEGE_CARD = "expand-maneuver-siege"
SPLIT_CARD = "split-maneuver-1"
TAX_CARD = "tax-spend-1"
KING_CARD = "tax-spend-king"


def held(owner, footman=0, archer=0, cavalry=0, siege=0, *, castle=False, since=0) -> Terr:
    """A territory `owner` controls with these units (no dispute)."""
    return Terr(owner=owner, units=Units(footman, archer, cavalry, siege), castle=castle, since=since)


def disputed(owner, units: Units, attacker, attacker_units: Units, *, castle=False, since=0) -> Terr:
    """A territory `owner` defends against `attacker`."""
    return Terr(owner=owner, units=units, attacker=attacker, attacker_units=attacker_units,
                castle=castle, since=since)


def with_board(state, board: dict, *, clear=False):
    """The state with these territories (name -> Terr) replaced; `clear` empties the rest first."""
    terr = {t: Terr() for t in state.terr} if clear else dict(state.terr)
    for name, x in board.items():
        assert name in terr, f"no territory {name!r}"
        terr[name] = x
    return _replace(state, terr=terr)


def with_player(state, player, **fields):
    """The state with some of `player`'s fields (coins, crown_cards...) replaced."""
    players = dict(state.players)
    players[player] = players[player]._replace(**fields)
    return _replace(state, players=players)


def _slots(state):
    n = len(state.flow.order)
    return [(t, i) for t in (1, 2) for i in range(n)]


def _card_for(state, p, turn):
    """The card `p` reveals on `turn`: the committed one, or a Mercenary deck's first card left."""
    if state.is_mercenary(p):
        from engine.risk_europe.orders import mercenary_pool
        return mercenary_pool(state, p)[0]
    return state.players[p].stack[turn - 1]


def reveal_to(state, player, turn=1):
    """Reveal every committed card (those players pass) up to and including `player`'s card
    for `turn`; `player` is then to act."""
    f = state.flow
    slots = _slots(state)
    here = slots.index((f.turn, f.index)) + (1 if f.card is not None else 0)
    target = slots.index((turn, f.order.index(player)))
    assert here <= target, f"{player}'s turn {turn} has passed"
    for t, i in slots[here:target + 1]:
        p = state.flow.order[i]
        state = fold(state, ev("CardRevealed", p, card=_card_for(state, p, t)))
    return state


def turn_of(player, card=EXPAND_CARD, state=None, *, bottom=None, turn=1, cards=None):
    """`player` to act on `turn` with `card` revealed (everyone before them passed).

    From `state` (default: `placed()`) in the commit phase, every player commits: `player`
    commits (`card`, `bottom`) (or (`bottom`, `card`) for turn 2), the others `cards` or
    DEFAULT_CARDS."""
    s = placed() if state is None else state
    if s.flow.phase == "commit":
        deck = dict(DEFAULT_CARDS if cards is None else cards)
        other = bottom or (TAX_CARD if card != TAX_CARD else "tax-spend-2")
        deck[player] = (card, other) if turn == 1 else (other, card)
        s = commit_all(s, {p: deck[p] for p in s.flow.order})
    return reveal_to(s, player, turn)


def finish_turns(state):
    """Reveal every card still to come (the players pass) and close the last turn: the state
    is then in the battles (if any territory is disputed) or in the next round."""
    f = state.flow
    if f.phase == "turn":
        slots = _slots(state)
        here = slots.index((f.turn, f.index)) + (1 if f.card is not None else 0)
        for t, i in slots[here:]:
            p = state.flow.order[i]
            state = fold(state, ev("CardRevealed", p, card=_card_for(state, p, t)))
    return RULESET.conclude(state)


def play_round(state, cards=None):
    """A whole round in which everybody reveals their cards and passes."""
    state = commit_all(state, {p: (cards or DEFAULT_CARDS)[p] for p in state.flow.order})
    return finish_turns(state)


def in_battles(state):
    """The state moved to the battles at the end of its round (a focused position)."""
    f = state.flow
    return _replace(state, flow=f._replace(phase="battles", card=None, order_done=None, pending=None),
                    step=f.round * 1000 + 999)


def units_in(state, territory) -> Units:
    return state.terr[territory].units



# --- variants (docs/variants.md) --------------------------------------------------------------

MERC3_PLAYERS, MERC3_ARMY = ("blue", "orange", "red"), "green"
MERC2_PLAYERS, MERC2_ARMIES = ("blue", "orange"), ("red", "green")


def start_variant(variant, players=SEATS, mercenaries=(), *, seed_hash=None, data=None):
    """The state after GameStarted of `variant` (seeded dice when `seed_hash` is given), judged
    with `data` (default: the shipped board and deck, no mission file)."""
    payload = {"ruleset": "risk-europe", "variant": variant, "players": [{"id": x} for x in players],
               "mercenaries": [{"id": x} for x in mercenaries]}
    if seed_hash is not None:
        payload["dice"] = {"mode": "seeded", "seed_hash": seed_hash}
    return RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(payload), data or default_data())


MERC3_DRAFT = (("blue", "Berlin", {"Saxony": 3, "Bohemia": 2}), ("orange", "Paris", {"France": 5}),
               ("red", "Rome", {"Rome": 5}), ("blue", "Stockholm", {"Sweden": 5}),
               ("orange", "Madrid", {"Leon Castile": 5}), ("red", "Constantinople", {"Turkey": 5}))


def merc3_setup_events():
    """Green, the Mercenary Army, draws Kiev then London; blue wins the bid (2) and drafts first."""
    out = [ev("TilesDrawn", None, army="green", tiles=["Kiev", "London"])]
    out += [ev("BidPlaced", p, amount=a) for p, a in (("blue", 2), ("orange", 1), ("red", 0))]
    out += [ev("KingdomPlaced", p, city=c, footmen=f) for p, c, f in MERC3_DRAFT]
    return out


def merc3_placed():
    """A 3-player game after setup: round 1, waiting for the players' cards."""
    return fold(start_variant("mercenaries-3p", MERC3_PLAYERS, (MERC3_ARMY,)), *merc3_setup_events())


MERC2_DRAFT = (("blue", "Berlin", {"Saxony": 5}), ("orange", "Paris", {"France": 5}),
               ("blue", "Stockholm", {"Sweden": 5}), ("orange", "Madrid", {"Leon Castile": 5}),
               ("blue", "Constantinople", {"Turkey": 5}), ("orange", "Rome", {"Rome": 5}))


def merc2_placed():
    """A 2-player game after setup: red draws Kiev, green London; blue wins the bid and drafts
    Berlin, Stockholm, Constantinople; orange Paris, Madrid, Rome."""
    s = start_variant("mercenaries-2p", MERC2_PLAYERS, MERC2_ARMIES)
    return fold(s, ev("TilesDrawn", None, army="red", tiles=["Kiev"]),
                ev("TilesDrawn", None, army="green", tiles=["London"]),
                ev("BidPlaced", "blue", amount=1), ev("BidPlaced", "orange", amount=0),
                *[ev("KingdomPlaced", p, city=c, footmen=f) for p, c, f in MERC2_DRAFT])


def control_bids(state, bids: dict, army=None):
    """Everyone's bid for control of the Mercenary Army now open (plain amounts)."""
    army = army or state.flow.merc
    return fold(state, *[ev("BidPlaced", p, amount=a, army=army) for p, a in bids.items()])


TEAM_DRAFT = (("blue", "Berlin", {"Saxony": 5}), ("orange", "Kiev", {"Rusland": 5}),
              ("red", "Paris", {"France": 5}), ("green", "Rome", {"Rome": 5}),
              ("blue", "Stockholm", {"Sweden": 5}), ("orange", "Constantinople", {"Turkey": 5}),
              ("red", "Madrid", {"Leon Castile": 5}), ("green", "London", {"England": 5}))


def teams_placed(variant="teams"):
    """A team game after the draft: blue and red against orange and green; blue holds the marker."""
    s = start_variant(variant)
    return fold(s, *[ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, (2, 0, 1, 0))],
                *[ev("KingdomPlaced", p, city=c, footmen=f) for p, c, f in TEAM_DRAFT])
