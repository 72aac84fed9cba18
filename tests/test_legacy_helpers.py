"""Given/when/then helpers for the Risk Legacy rule tests: build events and worlds, fold them, read
the state; a few tests of the helpers themselves at the end."""

from __future__ import annotations

from dataclasses import replace as _replace

from engine.core.events import Event
from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.state import MAIN, START, Flow, Terr

DATA = default_data()
SEATS = ("ann", "bob", "cat")
STARTS = {"ann": ("enclave_of_the_bear", "brazil"), "bob": ("die_mechaniker", "china"),
          "cat": ("imperial_balkania", "western_united_states")}
_seq = [0]


def ev(type_: str, actor: str | None = None, **payload) -> Event:
    """An event with a validated payload ('from' may be written from_)."""
    if "from_" in payload:
        payload["from"] = payload.pop("from_")
    _seq[0] += 1
    return Event(_seq[0], type_, actor, PAYLOADS[type_].model_validate(payload))


def world(powers: dict | None = None, **changes) -> W.World:
    """The box world with no starting powers (or the given ones: faction -> power id)."""
    w = W.pristine_world(DATA)
    if powers:
        w = w.model_copy(update={"powers": {**w.powers, **powers}})
    if changes:
        w = w.model_copy(update=changes)
    return w


def start(players=SEATS, w: W.World | None = None, **extra):
    payload = {"ruleset": "risk-legacy", "players": [{"id": p} for p in players], **extra}
    if w is not None:
        payload["world"] = W.world_to_dict(w)
    return RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(payload), DATA)


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


def setup_events(players=SEATS, starts=None, *, scars=True, rolls=None):
    """The events from the deal of the Scar cards to the last faction placed (the first seat rolls
    highest and chooses first)."""
    starts = starts or STARTS
    out = []
    if scars:
        kinds = ["bunker", "ammo_shortage", "bunker", "ammo_shortage", "bunker"]
        out.append(ev("ScarCardsDealt", None, cards={p: kinds[i] for i, p in enumerate(players)}))
    out.append(ev("CardsLaidOut", None, cards=["A1", "A2", "A3", "A4"]))
    rolls = rolls or {p: [6 if i == 0 else 1] for i, p in enumerate(players)}
    out.append(ev("DiceRolled", None, rolls=rolls))
    for p in players:
        f, t = starts[p]
        out.append(ev("FactionChosen", p, faction=f, territory=t))
    return out


def placed(players=SEATS, w: W.World | None = None, starts=None, **extra):
    """A game after setup: the first player's turn, at its start."""
    s = start(players, w, **extra)
    return fold(s, *setup_events(players, starts, scars=sum(W.world_to_dict(s.world)["supply"].get(f"scar:{k}", 0)
                                                                for k in DATA.scar_cards) >= len(players)))


def with_board(state, board: dict, *, clear=False):
    """The state with these territories (id -> Terr) replaced; `clear` empties the rest first."""
    terr = {t: Terr() for t in state.terr} if clear else dict(state.terr)
    for name, x in board.items():
        assert name in terr, f"no territory {name!r}"
        terr[name] = x
    return _replace(state, terr=terr)


def with_player(state, player, **fields):
    players = dict(state.players)
    players[player] = players[player]._replace(**fields)
    return _replace(state, players=players)


def with_world(state, w: W.World):
    return _replace(state, world=w)


def with_powers(state, **powers):
    """The state's world with these starting powers (faction -> power id)."""
    return with_world(state, state.world.model_copy(update={"powers": {**state.world.powers, **powers}}))


def with_marks(state, territory, **marks):
    return with_world(state, W.with_marks(state.world, territory, **marks))


def turn_of(state, player, *, step=MAIN, recruited=True, **flow):
    """A focused position: `player`'s turn, at `step` (default: expanding and attacking)."""
    order = state.flow.order or state.seats
    f = Flow(phase="turn", round=max(1, state.flow.round), order=order, index=order.index(player),
             step=step, recruited=recruited and step != START, **flow)
    return _replace(state, flow=f, combat=None)


def held(owner, troops, hq=None) -> Terr:
    return Terr(owner, troops, hq)


def board(state, territory) -> Terr:
    return state.terr[territory]


# --- the helpers work ---------------------------------------------------------------------------

def test_placed_gives_the_first_players_turn():
    s = placed()
    assert s.flow.phase == "turn" and s.flow.current == "ann" and s.flow.round == 1
    assert board(s, "brazil") == Terr("ann", 8, "enclave_of_the_bear")


def test_turn_of_builds_a_focused_position():
    s = turn_of(placed(), "bob")
    assert s.flow.current == "bob" and s.flow.step == MAIN and s.flow.recruited
