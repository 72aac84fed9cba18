"""Given / when / then for the Warrior Knights rules: a game started on the shipped (invented)
example data, a setup played to round 1, and states set up for one rule at a time.

    s = ready()                                        # 2 Barons, red and blue, round 1 Planning
    s = with_card(s, "red", "mobilize_forces")         # red's card revealed, waiting for him
    v, s2 = when(s, "ForcesMobilized", "red", area=..., moves=[...])
    assert rules(v) == ["WK-MOVE-CROSSING"]
"""

from __future__ import annotations

from engine.core.events import Event
from engine.warrior_knights import engine as E
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.gamedata import default_data
from engine.warrior_knights.rounds import advance
from engine.warrior_knights.common import Ctx
from engine.warrior_knights.state import Army, CityState, Deck, Flow, Pending, State, evolve

D = default_data()
SEATS = ("red", "blue", "green", "yellow", "purple", "white")


def start_payload(players: int = 2, **extra) -> dict:
    return {"ruleset": "warrior-knights", "players": [{"id": q} for q in SEATS[:players]], **extra}


def new(players: int = 2, data=None, **extra) -> State:
    model = PAYLOADS["GameStarted"].model_validate(start_payload(players, **extra))
    return E.initial_state(model, data or D)


def when(s: State, type_: str, actor: str | None = None, **payload):
    """(violations, the state after) of one event; the state is `s` itself when it was skipped."""
    if "from_" in payload:
        payload["from"] = payload.pop("from_")
    model = PAYLOADS[type_].model_validate(payload)
    v, nxt = E.step(s, Event(0, type_, actor, model))
    return v, (s if nxt is None else nxt)


def rules(violations) -> list[str]:
    return [v.rule for v in violations]


def ok(s: State, type_: str, actor: str | None = None, **payload) -> State:
    v, nxt = when(s, type_, actor, **payload)
    assert v == [], [x.as_dict() for x in v]
    return nxt


def refused(s: State, rule: str, type_: str, actor: str | None = None, **payload):
    """The event breaks `rule` (among its violations); the state after it."""
    v, nxt = when(s, type_, actor, **payload)
    assert rule in rules(v), [x.as_dict() for x in v]
    return v, nxt


# --- a setup played to round 1 -------------------------------------------------------------------------

MERCS = {"red": ["m01", "m03"], "blue": ["m08", "m10"], "green": ["m15", "m17"], "yellow": ["m22", "m24"],
         "purple": ["m02", "m04"], "white": ["m09", "m11"]}
RAZE = {2: 11, 3: 7, 4: 5, 5: 3}


def setup_until(players: int, step: str) -> State:
    """A game's setup played by fixed choices until its flow reaches `step`."""
    s = new(players)
    seats = SEATS[:players]
    if step == "troops":
        return s
    s = ok(s, "TroopsDealt", None, mercenaries={q: MERCS[q] for q in seats})
    if step == "assign":
        return s
    for q in seats:
        fifty, hundred = MERCS[q]
        s = ok(s, "TroopsAssigned", q, armies={"star": ["r4", hundred], "square": ["r1", fifty],
                                               "triangle": ["r2"], "circle": ["r3"]})
    if players < 6:
        if step == "raze":
            return s
        s = ok(s, "CitiesRazed", None, cards=[f"fate{i:02d}" for i in range(1, RAZE[players] + 1)])
    if step == "market":
        return s
    s = ok(s, "MarketRevealed", None, mercenaries=["m05", "m06", "m07", "m12", "m13", "m14", "m16"][:players + 1],
           agendas=["ag01", "ag02", "ag03"])
    if step == "offices":
        return s
    s = ok(s, "OfficesChosen", None, chairman=["fate01"], head_of_church=["fate02"])   # red, blue
    if step == "strongholds":
        return s
    for q in s.flow.order:
        area = next(a for a in sorted(D.board.areas) if _stronghold_ok(s, q, a))
        s = ok(s, "StrongholdPlaced", q, area=area)
    if step == "nobles":
        return s
    while s.flow.phase == "setup":
        q = s.flow.current
        noble = sorted(n.id for n in s.nobles.values() if n.owner == q and n.area is None and n.army.troops)[0]
        area = s.barons[q].stronghold
        s = ok(s, "NoblePlaced", q, noble=noble, area=area)
    return s


def _stronghold_ok(s: State, seat: str, area: str) -> bool:
    from engine.warrior_knights.common import stronghold_spot_problem
    return stronghold_spot_problem(s, area, seat, setup=True) is None


def ready(players: int = 2) -> State:
    """Round 1, Planning, after a full setup (red is the Chairman, blue the Head of the Church)."""
    return setup_until(players, "round")


# --- states set up for one rule --------------------------------------------------------------------------

def place(s: State, noble: str, area: str | None, **changes) -> State:
    nobles = dict(s.nobles)
    nobles[noble] = nobles[noble]._replace(area=area, **changes)
    return evolve(s, nobles=nobles)


def own(s: State, city: str, seat: str | None, **changes) -> State:
    cities = dict(s.cities)
    cities[city] = cities[city]._replace(owner=seat, razed=False, **changes)
    return evolve(s, cities=cities)


def baron(s: State, seat: str, **changes) -> State:
    barons = dict(s.barons)
    barons[seat] = barons[seat]._replace(**changes)
    return evolve(s, barons=barons)


def army(s: State, noble: str, troops: tuple, casualties: int = 0) -> State:
    nobles = dict(s.nobles)
    nobles[noble] = nobles[noble]._replace(army=Army(tuple(troops), casualties))
    return evolve(s, nobles=nobles)


def clear_board(s: State) -> State:
    """Every Noble off the board, every city neutral and unrazed, the Fate deck whole: a clean
    slate for one rule."""
    nobles = {k: n._replace(area=None, exhausted=False, at_sea=False) for k, n in s.nobles.items()}
    cities = {c: CityState() for c in s.cities}
    deck = "for_glory" if s.glory is not None and s.glory.has("for_glory") else "base"
    return evolve(s, nobles=nobles, cities=cities,
                  fate=Deck(frozenset(k for k, f in D.cards.fate.items() if f.deck == deck)))


def with_card(s: State, owner: str | None, card: str, **pending) -> State:
    """The Actions phase of round 1 with `owner`'s `card` revealed and waiting (owner None: a
    Neutral card, opened as the engine opens it); more cards are left in the stack."""
    left = ({q: 2 for q in s.seats} | {None: 2}, {None: 2}, {None: 2})
    flow = Flow(phase="actions", step="reveal", round=max(1, s.flow.round), stack=1, left=left,
                pending=Pending(owner, card, **pending))
    s = evolve(s, flow=flow, battle=None, assembly=None)
    if owner is None:
        from engine.warrior_knights.neutral import open_neutral
        s = open_neutral(s, Ctx())
    return s


def settle(s: State) -> State:
    return advance(s, Ctx())
