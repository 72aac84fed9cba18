"""Warrior Knights played live through a service (`ledger serve`): a new game, whose decision the
game waits for, the cards the server draws from the game's seed, the decisions the engine accepts
now, and the simulator's bots playing from them.

    new_game(players, options, dice) -> GameStarted payload        RULESET.new_game
    actors(state) -> (seat, ...)                                     RULESET.actors
    chance(state, tape) -> (type, actor, payload) | None             RULESET.chance
    legal_moves(state) -> [Move]                                     RULESET.legal_moves
    bot(seat, seed).choose(log, moves) -> move                       RULESET.bot
    step / initial_state / reveal_seed: the engine's, plus the seed  RULESET.step ...

**Seeded draws.** Warrior Knights draws cards; it rolls no dice. A server that keeps the seed
draws every card the table would (the troops dealt, razed cities, the market, the offices, each
card revealed from a stack, Fate cards, deserters, Mercenaries, Agendas, Events, Revolts) with
the draw rule of engine.core.chance, over the pool in sorted order, reading dice from the stream
of the seed `"<seed>:<digest of the state before the draw>"` (engine.core.dice). The state digest
makes each draw's dice its own without a count of dice in the state, and once the seed is
revealed (SeedRevealed, its hash published in GameStarted's `dice`) every drawn card is checked
against it at its own line (rule WK-SEED): a server cannot have chosen a card.

**Crown & Glory.** `new_game` takes the `variants` option (`ledger simulate`'s vocabulary) and
writes GameStarted.variants. The server also draws the Town Levies that raze the cities, the
Advancements face up (at the setup and after each purchase), the Scholar's Fate cards, each
Baron's Mission (in clear, to him: views.py hides it from the others) and For Glory's Neutral
deck; the King's Army, Enrich Mind, Forced March, Garrisons, Town Levies, the For Glory retreat
and the Missions' reveal are decisions. Research and Uncertain Times are not offered (their
event carries a card the Scholar would draw, and `legal_moves` has no seed): the card closes.

**Hidden information in live play.** A plan is sent in clear (StacksPlanned.stacks: the server
keeps it from the other seats until each card is revealed, engine.warrior_knights.views), so the
server can reveal a Baron's cards; votes are sent in clear with VotesRevealed (kept hidden until
every attending Baron has revealed for that Agenda). The two-player rule that each Baron writes
his votes for every Agenda before the first is revealed is not enforced in live play (the
server has no commitment to open).

**Legal moves.** Candidates are built for the decision due (one generator per step of the game)
and kept only when `engine.step` accepts them with no finding. Where the choices are
combinatorial only some are offered: plans (every way to put the hand's cards in three stacks
of at most two, up to `MAX_PLANS`), moves (each ready Noble to each area he can reach this
action, by land or sea, with each battle he may start there), casualties (spread, or all on one
army), wages (as many Mercenaries paid as the Baron can, cheapest or strongest first, or none).
An Important Event: the Head of the Church names the drawer and the colour of the top card's
back (the server cannot show the back before the draw: a limitation of live play), and the
server draws among the cards of that colour; its drawer then cancels it with Faith or signs
its effect (an adjustment: the invented texts of the example cards as the simulator applies
them, otherwise "no change"). Pure: the tape is an input.
"""

from __future__ import annotations

import json
from hashlib import sha256
from collections import Counter
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any, Mapping, NamedTuple

from engine.core.chance import draw
from engine.core.dice import DiceTape, TapeReader
from engine.core.events import Event
from engine.core.ruleset import check_seats, refuse_options
from engine.core.rules import Violation
from engine.core.views import HIDDEN
from engine.warrior_knights import battles as B
from engine.warrior_knights import engine as E
from engine.warrior_knights import glory as G
from engine.warrior_knights.assembly import PRIVATE, _current, _open_agendas
from engine.warrior_knights.common import Ctx, cities_of, deal, deal_until, stronghold_spot_problem
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.gamedata import default_data
from engine.warrior_knights.neutral import FOLLOW_UPS
from engine.warrior_knights.phases import may_receive, regular_wages
from engine.warrior_knights.rounds import advance, neutral_copies, neutral_decks
from engine.warrior_knights.rules import RULES
from engine.warrior_knights.snapshot import digest
from engine.warrior_knights.state import STRONGHOLD, Deck, State, evolve

COLOURS = ("red", "blue", "green", "yellow", "purple", "white")
MAX_PLANS = 90
SEED_EVENT = "SeedRevealed"


class Move(NamedTuple):
    """A decision the engine accepts now: (actor, event type, payload)."""

    actor: str | None
    type: str
    payload: dict


# --- a new game -----------------------------------------------------------------------------------

def new_game(players: tuple[str, ...], options: Mapping[str, str], dice: dict) -> dict:
    """The GameStarted payload of a new game for `players` (2 to 6, in seat order) on the shipped
    example board and cards, each Baron given the colour of his seat in the box's order (a
    player named after a colour gets it when it is free). ValueError naming what cannot start."""
    refuse_options("Warrior Knights", options, ("players", "variants"))
    check_seats(players, 2, 6, "Warrior Knights", "Barons")
    variants = variants_of(options)
    free = [c for c in COLOURS if c not in players]
    specs = []
    for p in players:
        colour = p if p in COLOURS else free.pop(0)
        specs.append({"id": p, "color": colour})
    data = default_data()
    start = {"ruleset": "warrior-knights", "players": specs, "dice": dict(dice),
             "data": {"board": data.board.digest, "cards": data.cards.digest}}
    if variants:
        start["variants"] = list(variants)
    return start


def variants_of(options: Mapping[str, str]) -> tuple[str, ...]:
    """The Crown & Glory variants of the `variants` option, in `ledger simulate`'s vocabulary
    (for_glory, missions, king, comma-separated; all; none). ValueError naming an unknown one."""
    from engine.warrior_knights.sim import variants_of as simulated
    try:
        return simulated(options)
    except ValueError as err:
        raise ValueError(str(err).removeprefix("--")) from None


# --- the engine with the seed ---------------------------------------------------------------------

def initial_state(start: Any, data: Any) -> State:
    """The engine's first state, with the seed's commitment (GameStarted `dice`) kept aside."""
    s = E.initial_state(start, data)
    dice = getattr(start, "dice", None)
    if dice:
        s = evolve(s, setup={**s.setup, "dice": dict(dice)})
    return s


def reveal_seed(s: State, seed: str) -> State:
    """The state that checks every card drawn against `seed` (when it is the committed one)."""
    dice = s.setup.get("dice") or {}
    if dice.get("seed_hash") != sha256(seed.encode("utf-8")).hexdigest():
        return s
    return evolve(s, setup={**s.setup, "seed": seed})


def _seed_revealed(s: State, e: Event) -> tuple[list[Violation], State]:
    dice = s.setup.get("dice") or {}
    seed = e.payload.seed
    problems = []
    if dice.get("mode") != "seeded":
        problems.append(RULES.violation("WK-SEED", "the seed is revealed, but the game published no "
                                        "seed's hash when it started (GameStarted has no seeded dice)"))
    elif dice.get("seed_hash") != sha256(seed.encode("utf-8")).hexdigest():
        problems.append(RULES.violation("WK-SEED", "the seed revealed is not the one whose hash the game "
                                        f"published when it started ({dice.get('seed_hash')})"))
    return problems, evolve(s, notes=(f"The seed of the game's draws is revealed: {seed}",))


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """RULESET.step: the engine's step, the seed's reveal, and (the seed known) each card the
    server drew checked against it."""
    if e.type == SEED_EVENT:
        return _seed_revealed(s, e)
    problems, nxt = E.step(s, e)
    seed = s.setup.get("seed")
    if seed and e.type in CHANCE_TYPES:
        due = chance(s, DiceTape(seed))
        if due is not None and due[0] == e.type and _plain(e.payload) != _plain(due[2]):
            problems = [*problems, RULES.violation(
                "WK-SEED", f"{e.type} is not the draw the seed gives: {_short(due[2])}")]
        elif due is not None and due[0] == e.type and due[1] is not None and e.actor != due[1]:
            problems = [*problems, RULES.violation(
                "WK-SEED", f"{e.type} is {due[1]}'s draw by the seed, not {e.actor}'s")]
    if nxt is not None:
        keep = {k: s.setup[k] for k in ("dice", "seed") if k in s.setup and k not in nxt.setup}
        if keep:
            nxt = evolve(nxt, setup={**nxt.setup, **keep})
    return problems, nxt


def _plain(payload: Any) -> Any:
    if hasattr(payload, "model_dump"):
        payload = payload.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True)
    elif hasattr(payload, "__struct_fields__"):     # a fast payload (engine/core/fast_payloads.py)
        from msgspec import to_builtins
        payload = {k: v for k, v in to_builtins(payload).items() if v is not None}
    elif isinstance(payload, dict):
        payload = {k: v for k, v in payload.items() if v is not None}
    return json.loads(json.dumps(payload, sort_keys=True))


def _short(payload: dict) -> str:
    text = json.dumps(payload, sort_keys=True)
    return text if len(text) < 160 else text[:157] + "..."


# --- whose decision -------------------------------------------------------------------------------

def _settled(s: State) -> State:
    """The state once a Neutral card resolved seat by seat is closed, every seat having acted
    (the engine closes it the same way when the next event is none of its follow-ups)."""
    p = s.flow.pending
    if (s.flow.phase == "actions" and p is not None and p.owner is None and p.stage in FOLLOW_UPS
            and not _neutral_actors(s)):
        return advance(evolve(s, flow=s.flow._replace(pending=p._replace(stage="done"))), Ctx())
    if (s.flow.phase == "actions" and p is not None and p.owner is not None and p.stage == "enrich"
            and not s.glory.refill_owed and not _purchases(s)):
        return advance(evolve(s, flow=s.flow._replace(pending=p._replace(stage="done"))), Ctx())
    return s


def _neutral_actors(s: State) -> tuple[str, ...]:
    p = s.flow.pending
    d = p.detail
    if p.card == "important_event":
        if p.stage == "drawer":
            return (s.head_of_church,)
        if p.stage == "effects":
            done = d.get("cancelled") or any(n.startswith("Adjustment signed by") for n in s.notes)
            return () if done or d.get("event") is None else (d["drawer"],)
        return ()
    if p.card == "fund_expedition":
        return (s.chairman,) if p.stage == "fund" else ()
    if p.stage in ("upgrade", "muster"):
        order = d.get("order", ())
        start = max((order.index(q) for q in p.acted if q in order), default=-1) + 1
        return tuple(order[start:start + 1])
    return ()


def _return_actor(s: State) -> str | None:
    """Upkeep: the first Baron (in turn) with a stronghold to rebuild or a Noble to bring back."""
    f = s.flow
    for seat in f.order[f.index:]:
        if _return_moves(s, seat):
            return seat
    return None


def _glory_setup_draw(s: State) -> str | None:
    """The Crown & Glory draw owed before the strongholds are placed (None: none): the 3
    Advancements face up and the Scholar (For Glory), then each Baron's Mission card (Missions)."""
    if G.has(s, G.FOR_GLORY) and not s.glory.offer_laid:
        return "AdvancementsRevealed"
    if G.has(s, G.FOR_GLORY) and not s.glory.scholar_drawn and len(s.seats) > 2:
        return "ScholarChosen"
    if G.missions_undealt(s):
        return "MissionDealt"
    return None


def actors(s: State) -> tuple[str, ...]:
    """RULESET.actors: the Barons whose decision the game waits for now, in seat order (several
    while plans are made and votes revealed); () while it waits for a draw or is over."""
    if s.result is not None:
        return ()
    g = s.glory
    if g is not None and g.king_army_owed is not None:         # The King: his army, before anything
        return (g.king_army_owed,)
    if g is not None and g.refill_owed:                        # For Glory: an Advancement replaced
        return ()
    s = _settled(s)
    f = s.flow
    b = s.battle
    if f.phase == "setup":
        if f.step == "strongholds" and _glory_setup_draw(s):
            return ()
        if f.step == "assign":
            return tuple(q for q in s.seats if not s.setup.get(f"assigned:{q}"))[:1]
        if f.step in ("strongholds", "nobles"):
            return (f.current,) if f.current else ()
        return ()
    if b is not None:
        if b.stage == "commanders":
            return (b.defender.baron,) if b.defender.baron else ()
        if b.stage == "discard":
            return tuple(q for q in s.seats for side in (b.attacker, b.defender)
                         if side.baron == q and not side.discarded and side.drawn)
        if b.stage == "casualties":
            return tuple(q for q in s.seats for side in (b.attacker, b.defender)
                         if side.baron == q and not side.assigned)
        if b.stage == "retreat_offer":                          # For Glory: retreat or fight on
            return (b.defender.baron,)
        if b.stage == "aftermath" and b.after:
            kind, who = b.after[0]
            if kind in ("die", "retreat"):
                return (s.nobles[who].owner,) if who in b.deserters else ()
            if kind == "take":
                return (b.attacker.baron,)
            if kind == "stronghold":
                return (who,)
        return ()
    if f.phase == "planning":
        return tuple(q for q in s.seats if q not in s.plans)
    if f.phase == "actions":
        p = f.pending
        if p is None or p.stage == "done":
            return ()
        if p.owner is not None:
            return (p.owner,)
        return _neutral_actors(s)
    if f.phase == "special":
        if f.step in ("wages", "draft"):
            return (f.current,) if f.current else ()
        if f.step == "assembly" and s.assembly is not None:
            a = s.assembly
            if a.step == "acting":
                return (s.chairman,)
            if a.step == "private_call":
                return a.agendas[:1]
            if a.step in ("order", "tie"):
                return (a.chairman,)
            if a.step == "hide":
                ag = _current(s)
                return tuple(q for q in s.seats if q in a.attending
                             and (a.votes.get(f"{ag}|{q}") is None or a.votes[f"{ag}|{q}"].votes is None))
            if a.step == "declare":
                return (f.current,) if f.current else ()
            if a.step == "office":
                return (s.setup["office_to"],)
            if a.step == "charge":
                return (s.setup["charged"],)
        return ()
    if f.phase == "upkeep":
        if f.step == "missions":                                # Missions: revealed at the end
            return (f.current,) if f.current else ()
        if f.step == "revolts":
            return (s.cities[f.revolt_owed].owner,) if f.revolt_owed is not None else ()
        if f.step == "return":
            seat = _return_actor(s)
            return (seat,) if seat else tuple(q for q in s.seats)
    return ()


# --- the server's draws ---------------------------------------------------------------------------

CHANCE_TYPES = frozenset({"TroopsDealt", "CitiesRazed", "MarketRevealed", "OfficesChosen", "CardRevealed",
                          "FateDrawn", "DesertersDrawn", "ExpeditionFateDrawn", "MercenariesRevealed",
                          "PrivateMotionDrawn", "AgendasRevealed", "RevoltDrawn", "EventCardDrawn",
                          "AdvancementsRevealed", "ScholarChosen", "MissionDealt"})     # the last: Crown & Glory


class _Draws:
    """Cards drawn with the seed's dice, kept in step with the engine's decks within one event."""

    def __init__(self, reader: TapeReader):
        self.reader = reader

    def index(self, n: int) -> int:
        return draw(range(n), 1, self.reader.die)[0][0]

    def one(self, pool: list) -> Any:
        return pool[self.index(len(pool))]

    def cards(self, deck: Deck, n: int, keep=lambda card: True) -> list[str]:
        return deal(deck, n, self.one, keep)

    def until_colour(self, s: State) -> list[str]:
        """Fate cards drawn until one names a Baron's colour in play."""
        colours = {b.color for b in s.barons.values()}
        return deal_until(s.fate, lambda card: s.data.cards.fate[card].baron in colours, self.one)


def chance(s: State, tape: Any) -> tuple[str, str | None, dict] | None:
    """RULESET.chance: the draw the game waits for now, made with the seed's dice (see the
    module); None while a decision is due, or when the draw needs cards the data does not list."""
    if s.result is not None or tape is None or actors(s):
        return None
    cards = s.data.cards
    if any(x is None for x in (cards.fate, cards.mercenaries, cards.agendas, cards.events)):
        return None                     # observed mode: the table's draws are its own record
    key = digest(s)
    t = _Draws(TapeReader(DiceTape(f"{tape.seed}:{key}"), 0))
    if s.glory is not None and s.glory.refill_owed:
        return "AdvancementsRevealed", None, {"cards": t.cards(s.glory.adv_deck, s.glory.refill_owed)}
    s = _settled(s)
    f, b = s.flow, s.battle
    mercs = cards.mercenaries
    if f.phase == "setup" and f.step == "strongholds":
        return _glory_setup(s, t)
    if f.phase == "setup" and f.step == "raze" and G.has(s, G.FOR_GLORY):
        # For Glory: Town Levy cards, not Fate cards, choose the razed cities (back to the box)
        want = {2: 11, 3: 7, 4: 5, 5: 3}.get(len(s.seats), 0)
        levies = sorted((cards.crown_and_glory or {}).get("town_levies") or {})
        drawn = []
        for _ in range(min(want, len(levies))):
            drawn.append(levies.pop(t.index(len(levies))))
        return ("CitiesRazed", None, {"cards": drawn}) if drawn else None
    if f.phase == "setup":
        if f.step == "troops":
            dealt, d = {}, s.mercs
            for seat in s.seats:
                hand = []
                for size in (50, 100):
                    card = t.cards(d, 1, lambda m: mercs[m].strength == size and mercs[m].kind == "troop")[0]
                    d = d._replace(pile=d.pile - {card})
                    hand.append(card)
                dealt[seat] = hand
            return "TroopsDealt", None, {"mercenaries": dealt}
        if f.step == "raze":
            want = {2: 11, 3: 7, 4: 5, 5: 3}.get(len(s.seats), 0)
            razed, drawn, d = [], [], s.fate
            while len(razed) < want:
                card = t.cards(d, 1)[0]
                d = Deck(d.pile - {card}, (), d.discard)
                if cards.fate[card].city not in razed:
                    razed.append(cards.fate[card].city)
                drawn.append(card)
            return ("CitiesRazed", None, {"cards": drawn}) if drawn else None
        if f.step == "market":
            return "MarketRevealed", None, {
                "mercenaries": t.cards(s.mercs, len(s.seats) + 1, lambda x: mercs[x].kind == "troop"),
                "agendas": t.cards(s.agenda_deck, 3)}
        if f.step == "offices":
            chair = t.until_colour(s)
            rest = evolve(s, fate=Deck(s.fate.pile - set(chair), s.fate.bottom, s.fate.discard | set(chair)))
            return "OfficesChosen", None, {"chairman": chair, "head_of_church": t.until_colour(rest)}
        return None
    if b is not None:
        if b.stage in ("draw", "draw1"):
            for w, side in (("attacker", b.attacker), ("defender", b.defender)):
                n = B.fate_count(s, b, w) if b.stage == "draw" and not side.drawn else \
                    side.owed_draws if b.stage == "draw1" else 0
                if n:
                    return "FateDrawn", None, {"side": w, "cards": t.cards(s.fate, n)}
        if b.stage == "aftermath" and b.after and b.after[0][0] in ("die", "retreat"):
            who = b.after[0][1]
            if who not in b.deserters:
                return "DesertersDrawn", None, {"noble": who, "card": t.cards(s.fate, 1)[0]}
        return None
    if f.phase == "actions":
        p = f.pending
        if p is None:
            return _reveal(s, t)
        if p.owner is None and p.card == "important_event" and p.stage == "draw":
            colour = p.detail["colour"]
            card = t.cards(s.events, 1, lambda x: cards.events[x].color == colour)
            return "EventCardDrawn", p.detail["drawer"], {"card": card[0]}
        if p.owner is None and p.stage == "press":           # For Glory, A Pressing Agenda
            return "AgendasRevealed", None, {"cards": t.cards(s.agenda_deck, 1)}
        if p.owner is None and p.stage == "assemble":        # For Glory, Assemble Troops
            return "MercenariesRevealed", None, {"cards": t.cards(s.mercs, 1)}
        if p.owner is None and p.card == "fund_expedition" and p.stage == "fate":
            x = p.detail["owed"][0]
            n = 2 if s.expeditions[x].blessed else 1
            return "ExpeditionFateDrawn", None, {"expedition": x, "cards": t.cards(s.fate, n)}
        return None
    if f.phase == "special":
        if f.step == "draft_reveal":
            return "MercenariesRevealed", None, {
                "cards": t.cards(s.mercs, len(s.seats) + 1, lambda m: mercs[m].kind == "troop")}
        a = s.assembly
        if f.step == "assembly" and a is not None:
            if a.step == "private":
                return "PrivateMotionDrawn", None, {"cards": t.until_colour(s)}
            if a.step == "new":
                return "AgendasRevealed", None, {"cards": t.cards(s.agenda_deck, 3)}
        return None
    if f.phase == "upkeep" and f.step == "revolts" and f.revolts and f.revolt_owed is None:
        return "RevoltDrawn", None, {"city": f.revolts[0], "card": t.cards(s.fate, 1)[0]}
    return None


def _glory_setup(s: State, t: _Draws) -> tuple[str, str | None, dict] | None:
    """The Crown & Glory draws before the strongholds (see _glory_setup_draw)."""
    due = _glory_setup_draw(s)
    if due == "AdvancementsRevealed":
        return due, None, {"cards": t.cards(s.glory.adv_deck, G.OFFER)}
    if due == "ScholarChosen":
        ok = {s.barons[q].color for q in s.seats if q not in (s.chairman, s.head_of_church)}
        return due, None, {"cards": deal_until(s.fate, lambda card: s.data.cards.fate[card].baron in ok, t.one)}
    if due == "MissionDealt":
        listed = (s.data.cards.crown_and_glory or {}).get("missions") or {}
        taken = {m.mission for m in s.glory.missions.values()}
        pool = sorted(m for m in listed if m not in taken)
        if not pool:
            return None
        return due, G.missions_undealt(s)[0], {"mission": t.one(pool)}
    return None


def _reveal(s: State, t: _Draws) -> tuple[str, None, dict] | None:
    """The next card of the stack: any of the cards left in it, each as likely (a Neutral card
    is one of the Neutral deck's cards not revealed this round)."""
    f = s.flow
    if f.phase != "actions" or f.stack > len(f.left):
        return None
    left = f.left[f.stack - 1]
    pool: list[tuple[str | None, str | None]] = []
    for owner in sorted((o for o, n in left.items() if n and o is not None)):
        plan = s.plans.get(owner)
        if plan is None or plan.stacks is None:
            return None                 # a committed plan: its owner's record says which card
        rest = list(plan.stacks[f.stack - 1])
        for shown in plan.revealed[f.stack - 1]:
            if shown in rest:
                rest.remove(shown)
        pool += [(owner, c) for c in sorted(rest)]
    pool += [(None, None)] * left.get(None, 0)
    if not pool:
        return None
    owner, card = t.one(pool)
    if owner is None:
        kinds = s.data.cards.neutral_actions
        deck = []
        if G.has(s, G.FOR_GLORY):       # For Glory's Neutral deck (rounds.neutral_decks)
            for kind in sorted({k.type for k in kinds.values() if k.deck in neutral_decks(s, k.type)}):
                deck += [kind] * max(0, (neutral_copies(s, kind) or 0) - s.neutral_used.get(kind, 0))
        for k in sorted(kinds.values(), key=lambda k: k.type):
            if k.deck == "base" and not G.has(s, G.FOR_GLORY):
                deck += [k.type] * max(0, k.copies - s.neutral_used.get(k.type, 0))
        if not deck:
            return None
        card = t.one(deck)
    return "CardRevealed", None, {"stack": f.stack, "owner": owner, "card": card}


# --- the decisions the engine accepts -------------------------------------------------------------

def accepted(s: State, m: Move) -> bool:
    """Does the engine take `m` now with no finding at all?"""
    model = PAYLOADS.get(m.type)
    if model is None:
        return False
    try:
        value = model.model_validate(m.payload)
        problems, nxt = E.step(s, Event(0, m.type, m.actor, value))
    except Exception:
        return False
    return nxt is not None and not problems


def legal_moves(s: State) -> list[Move]:
    """RULESET.legal_moves: the decisions the engine accepts now, of every Baron whose decision
    the game waits for (see the module for which choices are offered)."""
    out: list[Move] = []
    seen: set[str] = set()
    for seat in actors(s):
        for m in _candidates(_settled(s), seat):
            key = json.dumps([m.actor, m.type, m.payload], sort_keys=True)
            if key not in seen and accepted(s, m):
                seen.add(key)
                out.append(m)
    return out


def _candidates(s: State, seat: str) -> list[Move]:
    f, b = s.flow, s.battle
    if s.glory is not None and s.glory.king_army_owed == seat:
        return _kings_army_moves(s, seat)
    if f.phase == "setup":
        return _setup_moves(s, seat)
    if b is not None:
        return _battle_moves(s, seat)
    if f.phase == "planning" or (f.phase == "upkeep" and f.step == "return" and _return_actor(s) is None):
        return _plans(s, seat)
    if f.phase == "actions":
        p = f.pending
        return _card_moves(s, seat) if p.owner is not None else _neutral_moves(s, seat)
    if f.phase == "special":
        return _special_moves(s, seat)
    if f.phase == "upkeep":
        if f.step == "missions":
            held = s.glory.missions[seat]
            return [Move(seat, "MissionRevealed", {"mission": held.mission, "fulfilled": ok})
                    for ok in (True, False)] if held.mission is not None else []
        if f.step == "revolts":
            return [Move(seat, "RevoltSettled", {"city": f.revolt_owed, "pay": pay})
                    for pay in ("faith", "crowns", None)]
        return _return_moves(s, seat)
    return []


def _setup_moves(s: State, seat: str) -> list[Move]:
    f, board = s.flow, s.data.board
    if f.step == "assign":
        troops = sorted(s.barons[seat].troops.values(), key=lambda t: (-t.strength, t.id))
        ids = [t.id for t in troops]
        out = []
        for shapes in (("star", "square", "triangle"), ("star", "square"), ("star",),
                       ("circle", "star", "square", "triangle")):
            armies: dict[str, list[str]] = {}
            for i, t in enumerate(ids):
                armies.setdefault(shapes[i % len(shapes)], []).append(t)
            out.append(Move(seat, "TroopsAssigned", {"armies": armies}))
            keep = {**armies}
            last = keep[shapes[-1]]
            if len(last) > 1:
                keep[shapes[-1]] = last[:-1]
                keep[STRONGHOLD] = last[-1:]
                out.append(Move(seat, "TroopsAssigned", {"armies": keep}))
        return out
    if f.step == "strongholds":
        return [Move(seat, "StrongholdPlaced", {"area": a}) for a in sorted(board.areas)
                if stronghold_spot_problem(s, a, seat, True) is None]
    if f.step == "nobles":
        nobles = sorted(n.id for n in s.nobles.values() if n.owner == seat and n.area is None and n.army.troops)
        return [Move(seat, "NoblePlaced", {"noble": n, "area": a}) for n in nobles[:1]
                for a in sorted(board.areas) if board.areas[a].is_kingdom]
    return []


def _plans(s: State, seat: str) -> list[Move]:
    """Ways to put the hand's cards in three stacks of at most two (each stack's cards sorted):
    every one when they are at most MAX_PLANS, else MAX_PLANS spread evenly over them all (stacks
    of two first, then plans that keep cards in hand). Built over the hand's distinct cards, in
    the order of the stacks' cards, so a hand with many copies costs no more than its plans."""
    hand = Counter(s.barons[seat].hand or ())
    plans: list[list[list[str]]] = []
    for sizes in ((2, 2, 2), (2, 2, 1), (2, 1, 2), (1, 2, 2), (1, 1, 1)):
        if sum(sizes) > sum(hand.values()):
            continue
        for first in _picks(hand, sizes[0]):
            rest = hand - Counter(first)
            for second in _picks(rest, sizes[1]):
                rest2 = rest - Counter(second)
                for third in _picks(rest2, sizes[2]):
                    plans.append([list(first), list(second), list(third)])
    if len(plans) > MAX_PLANS:
        plans = [plans[i * len(plans) // MAX_PLANS] for i in range(MAX_PLANS)]
    return [Move(seat, "StacksPlanned", {"stacks": p}) for p in plans]


def _picks(cards: Counter, n: int) -> list[tuple[str, ...]]:
    """The distinct sorted ways to take `n` of `cards` (a multiset), in order."""
    return [c for c in combinations_with_replacement(sorted(+cards), n)
            if all(c.count(x) <= cards[x] for x in set(c))]


def _bots(s: State):
    from random import Random
    from engine.warrior_knights.sim import Bots
    return Bots(s.data, Random(digest(s)))


def _card_moves(s: State, seat: str) -> list[Move]:
    p = s.flow.pending
    card = p.card
    if card == "enrich_mind" and p.stage == "enrich":
        return _purchases(s)
    if card == "enrich_mind":
        return [Move(seat, "MindEnriched", {"area": a}) for a in ("taxation", "assembly")]
    if card == "forced_march":
        tired = [n.id for n in sorted(s.nobles.values()) if n.owner == seat and n.exhausted]
        return [Move(seat, "MarchForced", {"nobles": tired[:k]}) for k in range(len(tired) + 1)]
    printed = s.data.cards.baron_actions[card].area if s.data.cards.baron_actions else None
    declined = {"area": printed["move"]} if isinstance(printed, dict) else {}
    out = [Move(seat, "ActionDeclined", declined)]
    if isinstance(printed, dict):
        out.append(Move(seat, "ActionDeclined", {"area": printed["battle"]}))
    actions = ["levy_taxes", "rally_support", "serve_the_church", "draft_soldiers", "mobilize_forces"] \
        if card == "versatile" else [card]
    for action in actions:
        out += _action_moves(s, seat, action)
    return out


def _action_moves(s: State, seat: str, action: str) -> list[Move]:
    if action == "levy_taxes":
        areas = {n.area for n in s.nobles.values() if n.owner == seat and not n.dead and n.area and not n.at_sea}
        return [Move(seat, "TaxesLevied", {"crowns": len(areas)})]
    if action == "rally_support":
        return [Move(seat, "SupportRallied", {})]
    if action == "serve_the_church":
        return [Move(seat, "ChurchServed", {})]
    if action == "draft_soldiers":
        return [Move(seat, "SoldiersDrafted", {"spot": t.spot})
                for t in s.data.board.usable_spots(len(s.seats)) if s.track[t.spot - 1] is None]
    if action == "mobilize_forces":
        return _mobilize(s, seat)
    return []


def _mobilize(s: State, seat: str) -> list[Move]:
    """Each ready Noble to each area he can reach, with each battle he may start there, or a
    battle where he stands."""
    board = s.data.board
    bots = _bots(s)
    printed = s.data.cards.baron_actions["mobilize_forces"].area if s.data.cards.baron_actions else None
    out: list[Move] = []
    ready = sorted(n.id for n in s.nobles.values() if n.owner == seat and not n.dead and n.area
                   and not n.at_sea and not n.exhausted and n.army.troops)
    for nid in ready:
        n = s.nobles[nid]
        strength = bots._strength(s, nid)
        for _, att in bots._attacks(s, seat, n.area, [nid], strength):
            out.append(Move(seat, "ForcesMobilized", {"area": n.area, "moves": [], "attack": att}))
        for area, path in bots._reach(s, seat, n.area):
            move = {"noble": nid, "path": path}
            out.append(Move(seat, "ForcesMobilized", {"area": area, "moves": [move]}))
            for _, att in bots._attacks(s, seat, area, [nid], strength):
                areas = [printed["move"], printed["battle"]] if isinstance(printed, dict) else [None]
                for card_area in areas:
                    payload = {"area": area, "moves": [move], "attack": att}
                    if card_area is not None:
                        payload["card_area"] = card_area
                    out.append(Move(seat, "ForcesMobilized", payload))
        if board.areas[n.area].port:
            for port in sorted(board.ports):
                if port != n.area:
                    out.append(Move(seat, "ForcesMobilized", {"area": port, "moves": [
                        {"noble": nid, "path": [port], "sea": True}]}))
    return out


def _purchases(s: State) -> list[Move]:
    """Enrich Mind: each Advancement face up the card's owner may buy (one, or more as the
    Scholar), putting back one he owns when he would own more than 3."""
    p = s.flow.pending
    seat, g = p.owner, s.glory
    owned = g.owned.get(seat, ())
    backs = [[x] for x in owned] if len(owned) >= G.MAX_ADVANCEMENTS else [[]]
    moves = [Move(seat, "AdvancementBought", {"advancement": a, "returned": r}) for a in g.offer for r in backs]
    return [m for m in moves if accepted(s, m)]


def _kings_army_moves(s: State, seat: str) -> list[Move]:
    """The King's Army (as many cards as players): to his stronghold, or to one Noble of his at his
    stronghold or a city he controls."""
    n = len(s.seats)
    homes = {s.data.board.cities[c].area for c in cities_of(s, seat)} | {s.barons[seat].stronghold}
    out = [Move(seat, "KingsArmyAssigned", {"armies": {STRONGHOLD: n}})]
    out += [Move(seat, "KingsArmyAssigned", {"armies": {nb.id: n}}) for nb in sorted(s.nobles.values())
            if nb.owner == seat and nb.area in homes and not nb.dead and not nb.at_sea]
    return out


def _garrison_options(s: State, seat: str) -> list[dict]:
    """For Glory, Upgrade Defenses: no Garrison, or one for any city of his without one."""
    if not G.has(s, G.FOR_GLORY):
        return [{}]
    return [{}] + [{"garrison": c} for c in cities_of(s, seat) if c not in s.glory.garrisons]


def _levy_options(s: State, seat: str) -> list[dict]:
    """For Glory, Muster Forces: no Town Levy, or each Town Levy of a city of his where one of
    his Nobles stands (alone, and all of them)."""
    if not G.has(s, G.FOR_GLORY):
        return [{}]
    listed = (s.data.cards.crown_and_glory or {}).get("town_levies") or {}
    held = {x for b in s.barons.values() for x in b.troops}
    board = s.data.board
    each = []
    for n in sorted(s.nobles.values()):
        if n.owner != seat or n.area is None or n.dead or n.at_sea:
            continue
        city = board.areas[n.area].city
        if city is None or s.cities[city].owner != seat:
            continue
        each += [{"levy": lid, "noble": n.id} for lid in sorted(listed)
                 if listed[lid]["city"] == city and lid not in held]
    return [{}] + [{"levies": [x]} for x in each] + ([{"levies": each}] if len(each) > 1 else [])


def _neutral_moves(s: State, seat: str) -> list[Move]:
    p = s.flow.pending
    d = p.detail
    cards = s.data.cards
    if p.card == "important_event":
        if p.stage == "drawer":
            colours = sorted({cards.events[x].color for x in (s.events.pile | set(s.events.bottom))}
                             or {cards.events[x].color for x in s.events.discard}) if cards.events else []
            return [Move(seat, "EventDrawerChosen", {"drawer": q, "colour": c}) for q in s.seats for c in colours]
        ev = d.get("event")
        out = []
        if ev is not None and ev.cancel_faith is not None:
            out.append(Move(seat, "EventCancelled", {"faith": {seat: ev.cancel_faith}}))
        if ev is not None:
            effect = _bots(s)._effects(s)
            out += [Move(a, t, pl) for t, a, pl in effect if t == "Adjusted"]
            out.append(Move(seat, "Adjusted", {"source": ev.id, "text": "no change"}))
        return out
    if p.card == "fund_expedition":
        out = [Move(seat, "ExpeditionFunded", {"expedition": None})]
        for x in sorted(x for x, e in s.expeditions.items() if not e.spot):
            for stake in (0, 1, 3):
                stakes = {q: min(stake, b.crowns) for q, b in s.barons.items() if min(stake, b.crowns)}
                out.append(Move(seat, "ExpeditionFunded", {"expedition": x, "stakes": stakes}))
                if s.barons[s.head_of_church].faith >= 1:
                    out.append(Move(seat, "ExpeditionFunded", {"expedition": x, "stakes": stakes, "blessed": True}))
        return out
    b = s.barons[seat]
    if p.stage == "upgrade":
        out = []
        for extra in _garrison_options(s, seat):
            out.append(Move(seat, "DefensesUpgraded", {**extra}))
            for city in cities_of(s, seat):
                cs = s.cities[city]
                for n in range(1, cs.breaches + 1):
                    out.append(Move(seat, "DefensesUpgraded", {"city": city, "repair": n, **extra}))
                if not cs.fortified:
                    out.append(Move(seat, "DefensesUpgraded", {"city": city, "fortify": True, **extra}))
        return out
    if p.stage == "muster":
        out = []
        holders = [(STRONGHOLD, b.stronghold_army)] + [(n.id, n.army) for n in sorted(s.nobles.values())
                                                        if n.owner == seat]
        for extra in _levy_options(s, seat):
            out.append(Move(seat, "TroopsMustered", {**extra}))
            for holder, army in holders:
                for k in range(1, army.casualties + 1):
                    out.append(Move(seat, "TroopsMustered", {"army": holder, "tokens": k, **extra}))
        return out
    return []


def _battle_moves(s: State, seat: str) -> list[Move]:
    b = s.battle
    if b.stage == "commanders":
        return [Move(seat, "CommanderDeclared", {"noble": k}) for k in B._nobles(b.defender)]
    side = b.attacker if b.attacker.baron == seat else b.defender
    which = "attacker" if side is b.attacker else "defender"
    if b.stage == "discard":
        n = len(side.drawn)
        out = []
        for k in range(n + 1):
            out += [Move(seat, "FateDiscarded", {"discard": list(c)}) for c in combinations(range(n), k)]
        return out
    if b.stage == "retreat_offer":
        return [Move(seat, "RetreatChosen", {"retreat": r}) for r in (True, False)]
    if b.stage == "casualties":
        owed = B.casualties_to(s, b, which)
        splits = []
        for breaches in range(0, owed + 1) if which == "defender" and b.kind == "assault" else (0,):
            rest = owed - breaches
            armies = list(side.armies)
            spread: dict[str, int] = {}
            for i in range(rest):
                if armies:
                    k = armies[i % len(armies)]
                    spread[k] = spread.get(k, 0) + 1
            splits.append((spread, breaches))
            for k in armies:
                splits.append(({k: rest} if rest else {}, breaches))
        return [Move(seat, "CasualtiesAssigned", {"tokens": t, "breaches": br}) for t, br in splits]
    if b.stage == "aftermath" and b.after:
        kind, who = b.after[0]
        if kind in ("die", "retreat"):
            n = s.nobles[who]
            troops = s.barons[n.owner].troops
            nat = b.deserters.get(who)
            match = sorted(t for t in n.army.troops if troops[t].mercenary and troops[t].nationality == nat)
            deserters = match or [None]
            if kind == "retreat":
                spots = B._retreat_spots(s, n) or [None]
                return [Move(seat, "Retreated", {"noble": who, "to": to, "deserter": d})
                        for to in spots for d in deserters]
            sim = _bots(s).battle(s)
            return [Move(sim[1], sim[0], sim[2])] if sim[0] == "NobleLost" else []
        if kind == "take":
            return [Move(seat, "CityTaken", {"raze": r}) for r in (False, True)]
        if kind == "stronghold":
            held = cities_of(s, who)
            return [Move(seat, "StrongholdCityGiven", {"city": c}) for c in held] or \
                [Move(seat, "StrongholdCityGiven", {"city": None})]
    return []


def _special_moves(s: State, seat: str) -> list[Move]:
    f = s.flow
    b = s.barons[seat]
    if f.step == "wages":
        regular, _ = regular_wages(s, seat)
        mercs = [t for t in b.troops.values() if t.mercenary]
        out = []
        garrisons = G.garrisons_of(s, seat)            # For Glory: each Garrison's wage, after them
        for order in (lambda t: (t.wage, t.id), lambda t: (-t.strength, t.id), lambda t: (t.wage / t.strength, t.id)):
            unpaid, total = [], 0
            for t in sorted(mercs, key=order):
                if total + t.wage <= b.crowns - regular:
                    total += t.wage
                else:
                    unpaid.append(t.id)
            bare = []
            for city in garrisons:
                if total + G.garrison_wage(s) <= b.crowns - regular:
                    total += G.garrison_wage(s)
                else:
                    bare.append(city)
            out.append(Move(seat, "WagesPaid", {"unpaid": sorted(unpaid), "crowns": regular + total,
                                                **({"unpaid_garrisons": bare} if bare else {})}))
        out.append(Move(seat, "WagesPaid", {"unpaid": sorted(t.id for t in mercs), "crowns": regular,
                                            **({"unpaid_garrisons": list(garrisons)} if garrisons else {})}))
        return out
    if f.step == "draft":
        holders = ([STRONGHOLD] if b.stronghold else []) + [
            n.id for n in sorted(s.nobles.values()) if n.owner == seat and not n.dead
            and may_receive(s, seat, n.id) is None]
        out = [Move(seat, "MercenaryHired", {})]
        for t in sorted(s.market, key=lambda t: t.id):
            for h in holders:
                out.append(Move(seat, "MercenaryHired", {"hires": {t.id: h}}))
        return out
    a = s.assembly
    if f.step != "assembly" or a is None:
        return []
    if a.step == "acting":
        return [Move(seat, "ActingChairmanAppointed", {"baron": q}) for q in a.attending]
    if a.step == "private_call":
        out = [Move(seat, "PrivateMotionCalled", {})]
        for motion in ("rescind_ban", "discard", "postpone", "revote"):
            targets = {"rescind_ban": [seat], "discard": list(b.charges), "postpone": [None],
                       "revote": list(s.agenda_discards)}[motion]
            for t in targets:
                out.append(Move(seat, "PrivateMotionCalled", {"motion": motion, **({"target": t} if t else {})}))
        return out
    if a.step == "order":
        return [Move(seat, "AgendaOrderDeclared", {"order": list(o)}) for o in permutations(s.agendas)]
    if a.step == "hide":
        ag = _current(s)
        return [Move(seat, "VotesRevealed", {"agenda": ag, "votes": n}) for n in range(b.votes + 1)]
    if a.step == "declare":
        ag = _current(s)
        choices = ["yes", "no"] + list(s.seats)
        return [Move(seat, "VoteDeclared", {"agenda": ag, "choice": c}) for c in choices]
    if a.step == "tie":
        return [Move(seat, "TieBroken", {"agenda": _current(s), "choice": c}) for c in s.setup.get("tied", ())]
    if a.step == "office":
        return [Move(seat, "OfficeAssigned", {"agenda": _current(s), "noble": n.id})
                for n in sorted(s.nobles.values()) if n.owner == seat and not n.dead]
    if a.step == "charge":
        return [Move(seat, "ChargeDiscarded", {"agenda": c}) for c in b.charges]
    return []


def _return_moves(s: State, seat: str) -> list[Move]:
    b = s.barons[seat]
    board = s.data.board
    out: list[Move] = []
    if b.stronghold is None:
        out += [Move(seat, "StrongholdPlaced", {"area": a}) for a in sorted(board.areas)
                if stronghold_spot_problem(s, a, seat, setup=False) is None]
        if out:
            return out
    homes = ([b.stronghold] if b.stronghold else []) + [
        board.cities[c].area for c in cities_of(s, seat) if s.cities[c].siege is None]
    for n in sorted(s.nobles.values()):
        if n.owner == seat and (n.area is None or n.dead) and n.army.troops:
            out += [Move(seat, "NobleReturned", {"noble": n.id, "area": h}) for h in homes]
    if b.stronghold_army.troops and not b.stronghold_army.casualties:
        for n in sorted(s.nobles.values()):
            if n.owner == seat and (n.area is None or n.dead) and not n.army.troops and homes:
                out.append(Move(seat, "TroopsTransferred", {"from": STRONGHOLD, "to": n.id,
                                                            "troops": list(b.stronghold_army.troops)}))
    return [m for m in out if accepted(s, m)]


# --- bots that play live --------------------------------------------------------------------------

def _foldable(type_: str, payload: dict) -> dict:
    """A payload as a seat reads it, other seats' secrets redacted, in a form the engine judges:
    a plan in clear shown face down becomes a committed plan (counts and a commitment the log
    does not open); hidden Fate cards or votes cannot be judged and the event is skipped."""
    if type_ == "StacksPlanned" and isinstance(payload.get("stacks"), list):
        return {"counts": [len(x) for x in payload["stacks"]], "commitment": HIDDEN}
    return payload


class LiveBot:
    """RULESET.bot: the simulator's bot (engine.warrior_knights.sim.Bots) playing one Baron live,
    from the moves a service offers and the log as his seat reads it: its choice where the
    moves offer it (its plan, votes and battles chosen the simulator's way), else a seeded pick
    among the offered moves of the same kind."""

    def __init__(self, actor: str, seed: str):
        import random
        from engine.core.seat_fold import SeatFold
        from engine.warrior_knights import RULESET
        from engine.warrior_knights.sim import Bots
        self.actor = actor
        self.rng = random.Random(f"warrior-knights-live:{seed}")
        self.bots = Bots(default_data(), self.rng)
        self.fold = SeatFold(RULESET, _foldable)

    def choose(self, log: list[dict], moves: list[dict]) -> dict | None:
        mine = [m for m in moves if m["actor"] == self.actor]
        if not mine:
            return None
        s = self.fold.state(log)
        want = self._want(s, mine)
        if want is not None:
            key = _key(want)
            for m in mine:
                if _key(m) == key:
                    return m
            same = [m for m in mine if m["type"] == want["type"]]
            if same:
                return self.rng.choice(same)
        return self.rng.choice(mine) if mine[0]["type"] in ("StacksPlanned", "EventDrawerChosen") else mine[0]

    def _want(self, s: State, moves: list[dict]) -> dict | None:
        kinds = {m["type"] for m in moves}
        if "StacksPlanned" in kinds:
            return None
        if "VotesRevealed" in kinds:
            ag = moves[0]["payload"]["agenda"]
            n = 0
            if s.assembly is not None:          # with 2 players the private motion is not open
                open_ = tuple(_open_agendas(s))
                n = self.bots._votes_for(s, self.actor, ag, open_ if ag in open_ else (*open_, ag))
            return {"actor": self.actor, "type": "VotesRevealed", "payload": {"agenda": ag, "votes": n}}
        if "MissionRevealed" in kinds:          # his reading of his own Mission, as the simulator's
            mission = moves[0]["payload"]["mission"]
            return {"actor": self.actor, "type": "MissionRevealed",
                    "payload": {"mission": mission, "fulfilled": self.bots.fulfils(s, self.actor, mission)}}
        try:
            type_, actor, payload = self.bots.next(s)
        except Exception:             # the simulator's bot needs what the seat cannot see
            return None
        if actor != self.actor:
            return None
        return {"actor": actor, "type": type_, "payload": payload}


def _key(m: dict) -> str:
    return json.dumps([m["actor"], m["type"], m["payload"]], sort_keys=True, default=str)


def bot(actor: str, seed: str) -> LiveBot:
    """RULESET.bot: a seeded Warrior Knights bot for live play (see LiveBot)."""
    return LiveBot(actor, seed)
