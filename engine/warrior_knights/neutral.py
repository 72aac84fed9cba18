"""The Neutral Action cards (summary, "Neutral Actions" 1-5), resolved by the Chairman: an
Important Event, Fund Expedition, Upgrade Defenses, Muster Troops, Uncertain Times; and For
Glory's A Pressing Agenda and Assemble Troops ("New Neutral Action Cards"), each a card drawn
from another deck."""

from __future__ import annotations

from engine.warrior_knights.cards import EXPEDITION_RESULTS
from engine.warrior_knights.common import (
    Ctx, army_of, besieged, city_of, cities_of, clockwise_from, discard_to, draw_from, gain,
    noble_of, pay, read_event, read_fate, read_mercenary, reshuffled, seat_of, set_army, set_baron,
    set_city,
)
from engine.warrior_knights import glory as G
from engine.warrior_knights.setup import reveal_agendas
from engine.warrior_knights.state import CASUALTY_TOKEN, STRONGHOLD, Deck, Expedition, State, evolve

MAX_STAKE = 5                 # Fund Expedition: "may invest up to 5 crowns"
REPAIR_COST = 2               # Upgrade Defenses: "pay 2 crowns per breach counter removed"
FORTIFY_COST = 4              # "pay 4 crowns to flip the control marker to the fortified side"
MUSTER_COST = 2               # Muster Troops: "at the cost of 2 crowns per token"
DRAW_SPOT = 3                 # "If an expedition marker is on the 3 spot draw a Fate card"

# The events that may follow a Neutral card whose resolution has no fixed end (an Event's
# cancelling and effects, Barons acting one by one): any other event closes the card.
FOLLOW_UPS = {
    "effects": frozenset({"EventTargetDrawn", "EventCancelled", "Adjusted", "CrownsGiven"}),
    "upgrade": frozenset({"DefensesUpgraded", "Adjusted", "CrownsGiven"}),
    "muster": frozenset({"TroopsMustered", "Adjusted", "CrownsGiven"}),
    "research": frozenset({"AdvancementResearched", "Adjusted", "CrownsGiven"}),
    "swap": frozenset({"AdvancementSwapped", "Adjusted", "CrownsGiven"}),
}


def _stage(s: State, stage: str, **detail) -> State:
    p = s.flow.pending
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage=stage, detail={**p.detail, **detail})))


def open_neutral(s: State, c: Ctx) -> State:
    """A Neutral card just revealed: what its resolution waits for."""
    card = s.flow.pending.card
    if card == "important_event":
        return _stage(s, "drawer")
    if card == "fund_expedition":
        return _stage(s, "fund")
    if card == "upgrade_defenses":
        return _stage(s, "upgrade", order=clockwise_from(s, s.chairman))
    if card == "muster_troops":
        return _stage(s, "muster", order=clockwise_from(s, s.chairman))
    if card == "uncertain_times":
        c.note("Uncertain Times: the Fate deck is shuffled")
        s = evolve(s, fate=reshuffled(s.fate, with_discards=False))
        if G.has(s, G.FOR_GLORY) and s.glory.scholar is not None and s.glory.offer:
            return _stage(s, "swap")          # For Glory: the Scholar may swap an Advancement face up
        return _stage(s, "done")
    if card == "pressing_agenda":
        return _stage(s, "press") if _cards_left(s.agenda_deck) else _pressed(s, (), c)
    if card == "assemble_troops":
        return _stage(s, "assemble") if _cards_left(s.mercs) else _assembled(s, None, c)
    if card == "research" and G.has(s, G.FOR_GLORY):
        if s.glory.scholar is None:
            c.note("Research: there is no Scholar to research")
            return _stage(s, "done")
        return _stage(s, "research")
    c.note(f"{card}: a Crown & Glory Neutral card; its effect is recorded as adjustments")
    return _stage(s, "effects")


# The For Glory cards that draw one card from another deck: the draw event each waits for.
DRAWS = {"press": "AgendasRevealed", "assemble": "MercenariesRevealed"}


def closable(s: State, event_type: str) -> bool:
    """Does `event_type` close the Neutral card being resolved (it is no follow-up of it)?"""
    p = s.flow.pending
    return (p is not None and p.owner is None and p.stage in FOLLOW_UPS
            and event_type not in FOLLOW_UPS[p.stage])


def _expect(s: State, card: str, stage: str, c: Ctx, what: str) -> bool:
    p = s.flow.pending
    if p is None or p.owner is not None or p.card != card or p.stage != stage:
        doing = f"{p.card} ({p.stage})" if p is not None else "no card"
        c.skip("WK-FLOW", f"{what} is not expected now: the card being resolved is {doing}")
        return False
    return True


# --- 1) Important Event ----------------------------------------------------------------------------

def event_drawer_chosen(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "important_event", "drawer", c, "EventDrawerChosen"):
        return None
    head = s.head_of_church
    if e.actor != head:
        return c.skip("WK-EVENT", f"the Head of the Church ({head}) chooses who draws the Event, not {e.actor}")
    drawer = seat_of(s, e.payload.drawer)
    if drawer is None:
        return c.skip("WK-EVENT", f"{e.payload.drawer!r} is not a Baron of this game")
    colour = e.payload.colour
    cost = 0
    if colour == "red" and drawer != head:
        cost = 1
    elif colour == "green" and drawer == head:
        cost = 1
    G.red_event_first(s, colour, c)
    if cost and s.barons[head].faith < cost:
        return c.skip("WK-EVENT", f"a {colour} Event: the Head of the Church {'draws it himself' if drawer == head else 'chooses another drawer'} "
                      f"for 1 Faith, and {head} has none")
    if cost:
        s = set_baron(s, head, faith=s.barons[head].faith - cost)
        c.note(f"{head} spends 1 Faith")
    c.note(f"{drawer} draws the {colour} Event")
    return _stage(s, "draw", drawer=drawer, colour=colour)


def event_card_drawn(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "important_event", "draw", c, "EventCardDrawn"):
        return None
    d = s.flow.pending.detail
    if e.actor != d["drawer"]:
        return c.skip("WK-EVENT", f"{d['drawer']} draws the Event, not {e.actor}")
    card = read_event(s, e.payload.card, c)
    if card is None:
        return None
    if card.color != d["colour"]:
        c.bad("WK-EVENT", f"the Event drawn, {card.title!r}, is {card.color}; its drawer was chosen "
              f"for a {d['colour']} card")
    deck = discard_to(draw_from(s.events, card.id, "Event card", c), [card.id])
    if s.glory is not None and not s.glory.event_seen:
        s = G.set_glory(s, event_seen=True)
    c.note(f"Event: {card.title} ({card.color})" + (f": {card.text}" if card.text else ""))
    return _stage(evolve(s, events=deck), "effects", event=card)


def event_target_drawn(s: State, e, c: Ctx) -> State | None:
    """An Event whose random target a Fate card chooses ("If an Event card requires a Fate card to
    be drawn to determine a random target, it may be cancelled *after* the Fate card is drawn"):
    the cards come from the Fate deck, once, for an Event that prints the need (WK-EVENT-TARGET)."""
    p = s.flow.pending
    if p is None or p.card != "important_event" or p.stage != "effects" or p.detail.get("event") is None:
        return c.skip("WK-FLOW", "no Event has been drawn whose target could be drawn now")
    card = p.detail["event"]
    if not card.needs_fate_target:
        return c.skip("WK-EVENT-TARGET", f"{card.title!r} needs no random target (the card does not say so)")
    if p.detail.get("target") is not None:
        return c.skip("WK-EVENT-TARGET", f"the target of {card.title!r} is already drawn ({p.detail['target']})")
    if p.detail.get("cancelled"):
        return c.skip("WK-EVENT-TARGET", f"{card.title!r} is cancelled: no target is drawn")
    deck, ids, last = s.fate, [], None
    for x in e.payload.cards:
        f = read_fate(s, x, c)
        if f is None:
            return None
        deck = draw_from(deck, f.id, "Fate card", c)
        ids.append(f.id)
        last = f
    named = ", ".join(x for x in (f"city {last.city}" if last.city else "", f"Baron {last.baron}" if last.baron else "",
                                  f"Noble {last.noble}" if last.noble else "") if x)
    c.note(f"The target of {card.title!r} is drawn: {named or 'the card names nothing'}")
    return _stage(evolve(s, fate=discard_to(deck, ids)), "effects", target=last.id or "printed")


def event_cancelled(s: State, e, c: Ctx) -> State | None:
    p = s.flow.pending
    if p is None or p.card != "important_event" or p.stage != "effects":
        return c.skip("WK-FLOW", "no Event has been drawn that could be cancelled now")
    if p.detail.get("cancelled"):
        return c.skip("WK-EVENT-CANCEL", "the Event is already cancelled")
    card = p.detail["event"]
    if card.cancel_faith is None:
        return c.skip("WK-EVENT-CANCEL", f"{card.title!r} cannot be cancelled (it lists no Faith cost)")
    payers = {}
    for who, n in e.payload.faith.items():
        seat = seat_of(s, who)
        if seat is None:
            return c.skip("WK-EVENT-CANCEL", f"{who!r} is not a Baron of this game")
        payers[seat] = n
    if card.color == "red" and set(payers) != {p.detail["drawer"]}:
        return c.skip("WK-EVENT-CANCEL", f"a red Event is cancelled only by its drawer ({p.detail['drawer']})")
    if sum(payers.values()) != card.cancel_faith:
        return c.skip("WK-EVENT-CANCEL", f"cancelling {card.title!r} costs {card.cancel_faith} Faith; "
                      f"the log pays {sum(payers.values())}")
    for seat, n in payers.items():
        if s.barons[seat].faith < n:
            return c.skip("WK-EVENT-CANCEL", f"{seat} pays {n} Faith but has {s.barons[seat].faith}")
    for seat, n in payers.items():
        s = set_baron(s, seat, faith=s.barons[seat].faith - n)
    c.note(f"The Event {card.title!r} is cancelled and discarded")
    return _stage(s, "effects", cancelled=True)


# --- 2) Fund Expedition ------------------------------------------------------------------------------

def expedition_funded(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "fund_expedition", "fund", c, "ExpeditionFunded"):
        return None
    if e.actor != s.chairman:
        return c.skip("WK-EXPEDITION", f"the Chairman ({s.chairman}) starts an expedition, not {e.actor}")
    p = e.payload
    exps = dict(s.expeditions)
    new = p.expedition
    if new is not None:
        if new not in exps:
            return c.skip("WK-EXPEDITION", f"{new!r} is not an expedition of the board ({', '.join(exps)})")
        if exps[new].spot:
            return c.skip("WK-EXPEDITION", f"the {new} expedition is already under way")
        stakes = {}
        for who, n in p.stakes.items():
            seat = seat_of(s, who)
            if seat is None:
                return c.skip("WK-EXPEDITION", f"{who!r} is not a Baron of this game")
            if n > MAX_STAKE:
                return c.skip("WK-EXPEDITION", f"{seat} invests {n} crowns; at most {MAX_STAKE}")
            if n > s.barons[seat].crowns:
                return c.skip("WK-EXPEDITION", f"{seat} invests {n} crowns but has {s.barons[seat].crowns}")
            if n:
                stakes[seat] = n
        if p.blessed:
            if s.barons[s.head_of_church].faith < 1:
                return c.skip("WK-EXPEDITION", f"the Head of the Church ({s.head_of_church}) blesses the "
                              "expedition with 1 Faith and has none")
            s = set_baron(s, s.head_of_church, faith=s.barons[s.head_of_church].faith - 1)
        for seat, n in stakes.items():
            s = pay(s, seat, n)
    elif p.stakes or p.blessed:
        return c.skip("WK-EXPEDITION", "no expedition is started, so nobody invests or blesses")
    moved = []
    for x, exp in exps.items():
        if exp.spot and x != new and exp.spot < DRAW_SPOT:
            exps[x] = exp._replace(spot=exp.spot + 1)
            moved.append(x)
    if new is not None:
        exps[new] = Expedition(1, stakes, p.blessed)
        c.note(f"Expedition to {new}: " + (", ".join(f"{q} {n}" for q, n in stakes.items()) or "no stakes")
               + (", blessed" if p.blessed else ""))
    if moved:
        c.note(f"Expeditions advance: {', '.join(f'{x} to {exps[x].spot}' for x in moved)}")
    owed = tuple(x for x, exp in exps.items() if exp.spot >= DRAW_SPOT)
    s = evolve(s, expeditions=exps)
    return _stage(s, "fate" if owed else "done", owed=owed)


def _better(a: str, b: str) -> str:
    return a if EXPEDITION_RESULTS.index(a) <= EXPEDITION_RESULTS.index(b) else b


def expedition_fate_drawn(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "fund_expedition", "fate", c, "ExpeditionFateDrawn"):
        return None
    owed = s.flow.pending.detail["owed"]
    x = e.payload.expedition
    if x != owed[0]:
        return c.skip("WK-EXPEDITION", f"the Fate card owed now is the {owed[0]} expedition's, not {x!r}'s")
    exp = s.expeditions[x]
    want = 2 if exp.blessed else 1
    if len(e.payload.cards) != want:
        return c.skip("WK-EXPEDITION", f"the {x} expedition is {'blessed: 2 cards are drawn' if exp.blessed else 'not blessed: 1 card is drawn'}, "
                      f"not {len(e.payload.cards)}")
    deck = s.fate
    results = []
    for card in e.payload.cards:
        f = read_fate(s, card, c)
        if f is None:
            return None
        if not f.expeditions or x not in f.expeditions:
            return c.skip("WK-CARD", f"a Fate card drawn for an expedition gives its result for {x}")
        deck = draw_from(deck, f.id, "Fate card", c)
        deck = discard_to(deck, [f.id])
        results.append(f.expeditions[x])
    result = results[0] if len(results) == 1 else _better(results[0], results[1])
    s = evolve(s, fate=deck)
    exps = dict(s.expeditions)
    if result == "no_news":
        c.note(f"{x}: no news; the expedition stays on the 3 spot")
    elif result == "funds_needed":
        for seat, n in exp.stakes.items():
            if e.payload.funds.get(seat) and s.barons[seat].crowns >= 2:
                s = pay(s, seat, 2)
            else:
                exp = exp._replace(stakes={q: v for q, v in exp.stakes.items() if q != seat})
        exps[x] = exp
        c.note(f"{x}: funds needed; investors who paid 2 crowns stay in")
    elif result == "fleet_lost":
        exps[x] = Expedition()
        c.note(f"{x}: fleet lost; the stakes go to the treasury")
    else:
        mult = int(result[0])
        for seat, n in exp.stakes.items():
            s = gain(s, seat, n * mult)
        exps[x] = Expedition()
        c.note(f"{x}: {result}: " + (", ".join(f"{q} receives {n * mult}" for q, n in exp.stakes.items()) or "nobody invested"))
    s = evolve(s, expeditions=exps)
    rest = owed[1:]
    return _stage(s, "fate" if rest else "done", owed=rest)


# --- 3) Upgrade Defenses, 4) Muster Troops -----------------------------------------------------------

def _in_turn(s: State, seat: str, c: Ctx, rule: str) -> bool:
    p = s.flow.pending
    order = p.detail["order"]
    if seat in p.acted:
        c.skip(rule, f"{seat} has already used this card")
        return False
    later = [q for q in p.acted if order.index(q) > order.index(seat)]
    if later:
        c.skip(rule, f"starting with the Chairman and going clockwise ({', '.join(order)}): {seat} comes "
               f"before {later[0]}, who has already acted")
        return False
    return True


def _acted(s: State, seat: str) -> State:
    p = s.flow.pending
    return evolve(s, flow=s.flow._replace(pending=p._replace(acted=p.acted + (seat,))))


def defenses_upgraded(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "upgrade_defenses", "upgrade", c, "DefensesUpgraded"):
        return None
    seat = e.actor
    if not _in_turn(s, seat, c, "WK-UPGRADE"):
        return None
    p = e.payload
    if p.garrison is not None:                 # For Glory's Upgrade Defenses: a Garrison too (WK-GARRISON)
        s = G.hire_garrison(s, seat, p.garrison, c)
        if s is None:
            return None
    if p.city is None:
        return _acted(s, seat)
    city = city_of(s, p.city, c, "WK-UPGRADE")
    if city is None:
        return None
    if city not in cities_of(s, seat):
        return c.skip("WK-UPGRADE", f"{seat} does not control {city}")
    if besieged(s, city):
        return c.skip("WK-UPGRADE", f"{city} is besieged: it may not be fortified or repaired")
    cs = s.cities[city]
    if bool(p.repair) == bool(p.fortify):
        return c.skip("WK-UPGRADE", "a Baron repairs or fortifies one city (one of the two)")
    if p.repair:
        if p.repair > cs.breaches:
            return c.skip("WK-UPGRADE", f"{city} has {cs.breaches} breaches; {p.repair} cannot be removed")
        cost = REPAIR_COST * p.repair
        if s.barons[seat].crowns < cost:
            return c.skip("WK-UPGRADE", f"repairing {p.repair} breaches costs {cost} crowns; {seat} has {s.barons[seat].crowns}")
        s = set_city(pay(s, seat, cost), city, breaches=cs.breaches - p.repair)
        c.note(f"{seat} repairs {p.repair} breaches of {city} ({cost} crowns)")
    else:
        if cs.fortified:
            return c.skip("WK-UPGRADE", f"{city} is already fortified")
        if s.barons[seat].crowns < FORTIFY_COST:
            return c.skip("WK-UPGRADE", f"fortifying costs {FORTIFY_COST} crowns; {seat} has {s.barons[seat].crowns}")
        s = set_city(pay(s, seat, FORTIFY_COST), city, fortified=True)
        c.note(f"{seat} fortifies {city}")
    return _acted(s, seat)


def troops_mustered(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "muster_troops", "muster", c, "TroopsMustered"):
        return None
    seat = e.actor
    if not _in_turn(s, seat, c, "WK-MUSTER"):
        return None
    p = e.payload
    if p.levies:                               # For Glory's Muster Forces: Town Levies (WK-TOWN-LEVY)
        s = G.recruit_levies(s, seat, p.levies, c)
        if s is None:
            return None
    if p.army is None or not p.tokens:
        return _acted(s, seat)
    holder = STRONGHOLD if p.army == STRONGHOLD else noble_of(s, p.army, seat, c, "WK-MUSTER")
    if holder is None:
        return None
    if holder != STRONGHOLD and s.nobles[holder].owner != seat:
        return c.skip("WK-MUSTER", f"{holder} is not {seat}'s Noble")
    army = army_of(s, seat, holder)
    if p.tokens > army.casualties:
        return c.skip("WK-MUSTER", f"{holder}'s army has {army.casualties} casualty tokens; {p.tokens} cannot be removed")
    cost = MUSTER_COST * p.tokens
    if s.barons[seat].crowns < cost:
        return c.skip("WK-MUSTER", f"removing {p.tokens} tokens costs {cost} crowns; {seat} has {s.barons[seat].crowns}")
    s = set_army(pay(s, seat, cost), seat, holder, army._replace(casualties=army.casualties - p.tokens))
    c.note(f"{seat} removes {p.tokens} casualty tokens from {holder} ({cost} crowns)")
    return _acted(s, seat)


# --- For Glory: A Pressing Agenda, Assemble Troops ---------------------------------------------------

def _cards_left(deck: Deck | None) -> bool:
    """Can a card be drawn from `deck` (its discards reshuffled if need be)? Observed mode: the
    deck is not known, the table's record says (True)."""
    return deck is None or bool(deck.pile or deck.bottom or deck.discard)


def draws(s: State, stage: str) -> bool:
    """Does the Neutral card being resolved wait for its draw at `stage` ("press", "assemble")?"""
    p = s.flow.pending
    return (s.flow.phase == "actions" and p is not None and p.owner is None and p.stage == stage
            and s.battle is None)


def _one_card(cards, rule: str, what: str, c: Ctx) -> bool:
    if len(cards) != 1:
        c.skip(rule, f"the card draws the top {what} card: one card, not {len(cards)}")
        return False
    return True


def _pressed(s: State, ids: tuple, c: Ctx) -> State:
    """A Pressing Agenda resolved: the card goes to the Assembly stack (WK-PRESSING-AGENDA)."""
    if not ids:
        c.note("A Pressing Agenda: the Agenda deck and its discards are out; no Agenda is added")
    p = s.flow.pending
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage="done", area="assembly")))


def agenda_pressed(s: State, e, c: Ctx) -> State | None:
    """A Pressing Agenda: "Draw the top card of the Agenda deck and place it faceup with the current
    Agendas. This Agenda will be voted on (with the rest of the current Agendas) during the next
    Assembly. It is then placed in the Assembly stack, possibly triggering an Assembly."""
    if not _one_card(e.payload.cards, "WK-PRESSING-AGENDA", "Agenda", c):
        return None
    out = reveal_agendas(s, e.payload.cards, c, add=True)
    if out is None:
        return None
    added = out.agendas[-1]
    c.note(f"A Pressing Agenda: {out.agenda_cards[added].title} ({added}) joins the current Agendas")
    return _pressed(out, (added,), c)


def _assembled(s: State, hired: str | None, c: Ctx) -> State:
    """Assemble Troops, after its draw: "1 casualty token is placed on the first available spot of
    the Mercenary Draft track; this spot is now full (which may immediately trigger a Mercenary
    Draft)" (WK-ASSEMBLE-TROOPS)."""
    if hired is None:
        c.note("Assemble Troops: the Mercenary deck and its discards are out; no Mercenary is added")
    spots = [t.spot for t in s.data.board.usable_spots(len(s.seats)) if s.track[t.spot - 1] is None]
    draft = False
    if spots:
        i = spots[0] - 1
        track = tuple(CASUALTY_TOKEN if k == i else x for k, x in enumerate(s.track))
        s = evolve(s, track=track)
        full = sum(1 for x in track if x is not None)
        draft = full >= len(s.seats) + 1
        c.note(f"Assemble Troops: a casualty token fills space {spots[0]} of the Mercenary Track "
               f"({full} of {len(s.seats) + 1})" + ("; a Mercenary Draft follows" if draft else ""))
    p = s.flow.pending
    return evolve(s, flow=s.flow._replace(pending=p._replace(stage="done", detail={**p.detail, "draft": draft})))


def troops_assembled(s: State, e, c: Ctx) -> State | None:
    """Assemble Troops: "Draw the top card of the Mercenary deck and place it faceup with the
    Mercenaries available for drafting", then the casualty token."""
    if not _one_card(e.payload.cards, "WK-ASSEMBLE-TROOPS", "Mercenary", c):
        return None
    t = read_mercenary(s, e.payload.cards[0], c)
    if t is None:
        return None
    deck = draw_from(s.mercs, t.id if s.mercs is not None else None, "Mercenary", c)
    c.note(f"Assemble Troops: {t.id} ({t.strength}, {t.nationality}) joins the Mercenaries available")
    return _assembled(evolve(s, mercs=deck, market=s.market + (t,)), t.id, c)


def draw_never_made(s: State, event_type: str, c: Ctx) -> State:
    """A Pressing Agenda or Assemble Troops whose draw the log leaves out before `event_type`: a
    claim, and the card resolves as with its deck out (WK-RULING-AFTER-ILLEGAL)."""
    p = s.flow.pending
    if p.stage == "press":
        c.claim("WK-PRESSING-AGENDA", f"A Pressing Agenda never draws its Agenda in the log before {event_type}")
        return _pressed(s, ("?",), c)
    c.claim("WK-ASSEMBLE-TROOPS", f"Assemble Troops never draws its Mercenary in the log before {event_type}")
    return _assembled(s, "?", c)
