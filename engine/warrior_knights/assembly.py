"""The Assembly (summary, "Special Phases" 3, and "Assembly Voting for 2 Players"): attendance
and votes received, the acting Chairman, the private motion, the order of the Agendas, hidden
votes revealed together (commitments), declarations from the Chairman clockwise, ties, and what
a passed Agenda does (motions, laws, charges, offices, concessions)."""

from __future__ import annotations

from collections import Counter

from engine.core.commit import matches_commitment
from engine.warrior_knights.common import (
    Ctx, clockwise_from, discard_to, draw_from, kingdom_cities_of, noble_of, read_fate, seat_of,
    set_baron, set_noble,
)
from engine.warrior_knights.setup import reveal_agendas
from engine.warrior_knights.state import Assembly, State, Vote, evolve

PRIVATE = "private-motion"
MAX_CHARGES = 3                  # "Assigned to a Baron who can have up to 3 at a time"


def _done(s: State) -> State:
    return evolve(s, assembly=None, flow=s.flow._replace(step="done"))


def _set(s: State, **changes) -> State:
    return evolve(s, assembly=s.assembly._replace(**changes))


def bars(s: State, seat: str) -> bool:
    """Is `seat` kept from the Assembly: banned, or holding a charge that bars attendance?"""
    b = s.barons[seat]
    return b.banned or any(getattr(s.agenda_cards.get(a), "bars_attendance", False) for a in b.charges)


def begin_assembly(s: State, c: Ctx) -> State:
    attending = tuple(q for q in clockwise_from(s, s.chairman) if not bars(s, q))
    got = {}
    for seat in attending:
        n = 1 + len(kingdom_cities_of(s, seat))
        got[seat] = n
        s = set_baron(s, seat, votes=s.barons[seat].votes + n)
    c.note("Votes received: " + (", ".join(f"{q} {n}" for q, n in got.items()) or "nobody attends"))
    absent = [q for q in s.seats if q not in attending]
    if absent:
        c.note(f"Absent: {', '.join(absent)}")
    a = Assembly(step="private", attending=attending, chairman=s.chairman)
    if s.chairman not in attending and attending:
        a = a._replace(step="acting", chairman=None)
    s = evolve(s, assembly=a)
    if not attending:
        return _set(s, step="new")
    return s


def _expect(s: State, step: str, c: Ctx, what: str) -> bool:
    a = s.assembly
    if s.flow.step != "assembly" or a is None or a.step != step:
        now = f"the Assembly is at {a.step}" if a is not None and s.flow.step == "assembly" else "there is no Assembly now"
        c.skip("WK-FLOW", f"{what} is not expected: {now}")
        return False
    return True


def acting_chairman_appointed(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "acting", c, "ActingChairmanAppointed"):
        return None
    if e.actor != s.chairman:
        return c.skip("WK-ASSEMBLY", f"the absent Chairman ({s.chairman}) appoints the acting Chairman, not {e.actor}")
    acting = seat_of(s, e.payload.baron)
    if acting not in s.assembly.attending:
        return c.skip("WK-ASSEMBLY", f"the acting Chairman is an attending Baron ({', '.join(s.assembly.attending)}), "
                      f"not {e.payload.baron!r}")
    c.note(f"{acting} is the acting Chairman")
    return _set(s, step="private", chairman=acting)


# --- private motions ---------------------------------------------------------------------------------

def private_motion_drawn(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "private", c, "PrivateMotionDrawn"):
        return None
    deck = s.fate
    caller = None
    used = []
    for i, card in enumerate(e.payload.cards):
        f = read_fate(s, card, c)
        if f is None:
            return None
        deck = draw_from(deck, f.id, "Fate card", c)
        used.append(f.id)
        caller = seat_of(s, f.baron)
        if caller is not None:
            if i != len(e.payload.cards) - 1:
                c.bad("WK-ASSEMBLY-PRIVATE", f"the card {i + 1} already names {caller}; more are drawn")
            break
    if caller is None:
        return c.skip("WK-ASSEMBLY-PRIVATE", "the Fate cards drawn name no colour in play")
    c.note(f"{caller} may force a private motion")
    return evolve(_set(s, step="private_call", agendas=(caller,)), fate=discard_to(deck, used))


def private_motion_called(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "private_call", c, "PrivateMotionCalled"):
        return None
    caller = s.assembly.agendas[0]
    if e.actor != caller:
        return c.skip("WK-ASSEMBLY-PRIVATE", f"{caller} was chosen to call the private motion, not {e.actor}")
    m, target = e.payload.motion, e.payload.target
    if m is None:
        return _set(s, step="order", agendas=())
    if m == "rescind_ban":
        seat = seat_of(s, target)
        if seat is None or not s.barons[seat].banned:
            return c.skip("WK-ASSEMBLY-PRIVATE", f"{target!r} is not a banned Baron")
    elif m == "discard":
        if not _in_effect(s, target):
            return c.skip("WK-ASSEMBLY-PRIVATE", f"{target!r} is no law, charge or office in effect")
    elif m == "revote":
        if target not in s.agenda_discards:
            return c.skip("WK-ASSEMBLY-PRIVATE", f"{target!r} is not an Agenda in the discard pile "
                          f"({', '.join(s.agenda_discards) or 'empty'})")
    c.note(f"{caller} calls a private motion: {m}" + (f" {target}" if target else ""))
    s = evolve(s, setup={**s.setup, "private": (m, target)})
    return _set(s, step="hide", agendas=(target if m == "revote" else PRIVATE,), at=0, votes={})


def _in_effect(s: State, agenda: object) -> bool:
    if agenda in s.laws:
        return True
    if any(agenda in b.charges for b in s.barons.values()):
        return True
    return any(n.office == agenda for n in s.nobles.values())


# --- the order and the votes -----------------------------------------------------------------------------

def agenda_order_declared(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "order", c, "AgendaOrderDeclared"):
        return None
    a = s.assembly
    if e.actor != a.chairman:
        return c.skip("WK-ASSEMBLY-ORDER", f"the Chairman ({a.chairman}) declares the Agenda order, not {e.actor}")
    order = tuple(e.payload.order)
    if sorted(order) != sorted(s.agendas):
        return c.skip("WK-ASSEMBLY-ORDER", f"the order names {', '.join(order)}; the current Agendas are "
                      f"{', '.join(s.agendas) or 'none'}")
    c.note(f"Agenda order: {', '.join(order)}")
    return _set(s, step="hide", agendas=order, at=0, votes={})


def _current(s: State) -> str:
    a = s.assembly
    return a.agendas[a.at]


def _key(agenda: str, seat: str) -> str:
    return f"{agenda}|{seat}"


def _open_agendas(s: State) -> tuple[str, ...]:
    """The Agendas whose votes may be hidden now: the current one; with 2 players every one not
    yet revealed ("each player secretly writes down ... for each of the 3 Agendas")."""
    a = s.assembly
    if len(s.seats) == 2 and a.agendas != (PRIVATE,):
        return a.agendas[a.at:]
    return (_current(s),)


def votes_hidden(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "hide", c, "VotesHidden"):
        return None
    a = s.assembly
    seat = e.actor
    if seat not in a.attending:
        return c.skip("WK-VOTES", f"{seat} does not attend the Assembly")
    agenda = e.payload.agenda
    if agenda not in _open_agendas(s):
        return c.skip("WK-VOTES", f"votes are hidden now for {', '.join(_open_agendas(s))}, not {agenda!r}")
    if _key(agenda, seat) in a.votes:
        return c.skip("WK-VOTES", f"{seat} has already hidden his votes for {agenda}")
    return _set(s, votes={**a.votes, _key(agenda, seat): Vote(commitment=e.payload.commitment.lower())})


def votes_revealed(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "hide", c, "VotesRevealed"):
        return None
    a = s.assembly
    seat = e.actor
    agenda = e.payload.agenda
    if seat not in a.attending:
        return c.skip("WK-VOTES", f"{seat} does not attend the Assembly")
    if agenda != _current(s):
        return c.skip("WK-VOTES", f"the votes revealed now are for {_current(s)}, not {agenda!r}")
    key = _key(agenda, seat)
    old = a.votes.get(key, Vote())
    if old.votes is not None:
        return c.skip("WK-VOTES", f"{seat} has already revealed his votes for {agenda}")
    n = e.payload.votes
    if old.commitment is not None and not matches_commitment(old.commitment, n, e.payload.salt):
        c.bad("WK-VOTES", f"{seat} reveals {n} votes for {agenda}; with its salt that is not the number he hid")
    if len(s.seats) == 2 and a.agendas != (PRIVATE,) and old.commitment is not None:
        unwritten = sorted({q for q in a.attending for ag in a.agendas[a.at:] if _key(ag, q) not in a.votes})
        if unwritten:
            c.bad("WK-VOTES", "with 2 players each Baron writes down his votes for every Agenda before they "
                  f"are revealed; {', '.join(unwritten)} had not")
    held = s.barons[seat].votes
    if n > held:
        c.bad("WK-VOTES", f"{seat} casts {n} votes; he holds {held}")
        n = held
    votes = {**a.votes, key: old._replace(votes=n)}
    s = _set(s, votes=votes)
    if all(votes.get(_key(agenda, q), Vote()).votes is not None for q in a.attending):
        # revealed together: the votes cast leave the Barons' hands now, all at once (a vote revealed
        # before the others stays hidden in hand: engine/warrior_knights/views.py)
        shown = {q: votes[_key(agenda, q)].votes for q in a.attending}
        for q, v in shown.items():
            s = set_baron(s, q, votes=s.barons[q].votes - v)
        c.note(f"Votes for {agenda}: " + ", ".join(f"{q} {v}" for q, v in shown.items()))
        order = tuple(q for q in clockwise_from(s, a.chairman) if shown.get(q))
        s = evolve(_set(s, step="declare"), flow=s.flow._replace(order=order, index=0))
        if not order:
            return _tally(s, c)
    return s


def _kind(s: State, agenda: str) -> str:
    if agenda == PRIVATE:
        return "yes_no"
    return s.agenda_cards[agenda].vote


def vote_declared(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "declare", c, "VoteDeclared"):
        return None
    agenda = _current(s)
    if e.payload.agenda != agenda:
        return c.skip("WK-VOTES", f"the votes declared now are for {agenda}, not {e.payload.agenda!r}")
    f = s.flow
    if e.actor != f.current:
        return c.skip("WK-VOTES", f"from the Chairman clockwise, {f.current} declares now, not {e.actor}")
    choice = e.payload.choice
    if _kind(s, agenda) == "yes_no":
        if choice not in ("yes", "no"):
            return c.skip("WK-VOTES", f"{agenda} is voted yes or no, not {choice!r}")
    else:
        seat = seat_of(s, choice)
        if seat is None:
            return c.skip("WK-VOTES", f"{agenda} is voted for a Baron; {choice!r} is none")
        choice = seat
    a = s.assembly
    key = _key(agenda, e.actor)
    s = _set(s, votes={**a.votes, key: a.votes[key]._replace(choice=choice)})
    s = evolve(s, flow=s.flow._replace(index=f.index + 1))
    if s.flow.index >= len(s.flow.order):
        return _tally(s, c)
    return s


def _tally(s: State, c: Ctx) -> State:
    a = s.assembly
    agenda = _current(s)
    count: Counter = Counter()
    for q in a.attending:
        v = a.votes.get(_key(agenda, q))
        if v is not None and v.votes and v.choice is not None:
            count[v.choice] += v.votes
    if _kind(s, agenda) == "yes_no":
        options = ["yes", "no"]
    else:
        options = list(s.seats)
    top = max((count[o] for o in options), default=0)
    tied = tuple(o for o in options if count[o] == top)
    c.note(f"{agenda}: " + (", ".join(f"{o} {count[o]}" for o in options if count[o]) or "no votes cast"))
    if len(tied) > 1:
        c.note(f"A tie ({', '.join(tied)}): the Chairman ({a.chairman}) breaks it")
        return evolve(_set(s, step="tie"), setup={**s.setup, "tied": tied})
    return _carry(s, tied[0], c)


def tie_broken(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "tie", c, "TieBroken"):
        return None
    a = s.assembly
    if e.actor != a.chairman:
        return c.skip("WK-VOTE-RESULT", f"the Chairman ({a.chairman}) breaks ties, not {e.actor}")
    choice = e.payload.choice
    tied = s.setup.get("tied", ())
    seat = seat_of(s, choice)
    pick = seat if seat is not None else choice
    if pick not in tied:
        return c.skip("WK-VOTE-RESULT", f"the tie is between {', '.join(tied)}; {choice!r} is not one of them")
    return _carry(s, pick, c)


def _carry(s: State, choice: str, c: Ctx) -> State:
    """What the Agenda voted does (Motions, Laws, Charges, Offices, concessions)."""
    agenda = _current(s)
    if agenda == PRIVATE or (s.setup.get("private") and agenda == s.setup["private"][1]):
        return _private_result(s, choice, c)
    card = s.agenda_cards[agenda]
    kind = card.kind
    if card.vote == "yes_no":
        if choice == "no":
            c.note(f"{card.title} ({agenda}) fails and is discarded")
            return _next_agenda(_discard(s, agenda), c)
        if kind == "law":
            c.note(f"{card.title} ({agenda}) passes: a law in effect")
            return _next_agenda(evolve(s, laws=s.laws + (agenda,)), c)
        c.note(f"{card.title} ({agenda}) passes" + (f": {card.text}" if card.text else ""))
        return _next_agenda(_discard(s, agenda), c)
    seat = choice
    if kind == "charge":
        charges = s.barons[seat].charges + (agenda,)
        s = set_baron(s, seat, charges=charges)
        c.note(f"{card.title} ({agenda}): a charge on {seat}")
        if len(charges) > MAX_CHARGES:
            return evolve(_set(s, step="charge"), setup={**s.setup, "charged": seat})
        return _next_agenda(s, c)
    if kind == "office":
        if not any(not n.dead and n.owner == seat for n in s.nobles.values()):
            c.note(f"{card.title} ({agenda}) goes to {seat}, who has no Noble: it is discarded")
            return _next_agenda(_discard(s, agenda), c)
        c.note(f"{card.title} ({agenda}): an office for one of {seat}'s Nobles")
        return evolve(_set(s, step="office"), setup={**s.setup, "office_to": seat})
    if kind == "concession":
        s = set_baron(s, seat, concessions=s.barons[seat].concessions + (agenda,))
        c.note(f"{card.title} ({agenda}): a concession for {seat}")
        return _next_agenda(s, c)
    c.note(f"{card.title} ({agenda}) goes to {seat}" + (f": {card.text}" if card.text else ""))
    return _next_agenda(_discard(s, agenda), c)


def _discard(s: State, agenda: str) -> State:
    return evolve(s, agenda_discards=s.agenda_discards + (agenda,),
                  agenda_deck=discard_to(s.agenda_deck, [agenda]) if s.agenda_deck is not None else None)


def _private_result(s: State, choice: str, c: Ctx) -> State:
    m, target = s.setup["private"]
    setup = {k: v for k, v in s.setup.items() if k != "private"}
    s = evolve(s, setup=setup)
    if m == "revote":
        s = evolve(s, agenda_discards=tuple(a for a in s.agenda_discards if a != target))
        s = _set(s, agendas=(target,), at=0)
        s = evolve(s, setup={**s.setup, "revote": True})
        return _carry(s, choice, c)
    if choice != "yes":
        c.note("The private motion fails")
        return _set(s, step="order", agendas=(), at=0, votes={})
    if m == "rescind_ban":
        seat = seat_of(s, target)
        s = set_baron(s, seat, banned=False)
        c.note(f"{seat}'s ban is rescinded")
    elif m == "discard":
        s = _remove_in_effect(s, target)
        c.note(f"{target} is discarded")
    elif m == "postpone":
        c.note("The Assembly is postponed: the current Agendas are voted at the next one")
        return _done(s)
    return _set(s, step="order", agendas=(), at=0, votes={})


def _remove_in_effect(s: State, agenda: str) -> State:
    s = evolve(s, laws=tuple(a for a in s.laws if a != agenda))
    for seat, b in s.barons.items():
        if agenda in b.charges:
            s = set_baron(s, seat, charges=tuple(a for a in b.charges if a != agenda))
    for n in s.nobles.values():
        if n.office == agenda:
            s = set_noble(s, n.id, office=None)
    return _discard(s, agenda)


def office_assigned(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "office", c, "OfficeAssigned"):
        return None
    seat = s.setup.get("office_to")
    if e.actor != seat:
        return c.skip("WK-AGENDA", f"{seat} assigns the office to one of his Nobles, not {e.actor}")
    agenda = _current(s)
    nid = noble_of(s, e.payload.noble, seat, c, "WK-AGENDA")
    if nid is None:
        return None
    n = s.nobles[nid]
    if n.owner != seat or n.dead:
        return c.skip("WK-AGENDA", f"{nid} is not a living Noble of {seat}")
    if n.office:
        s = _discard(s, n.office)
        c.note(f"{n.office} is replaced")
    s = set_noble(s, nid, office=agenda)
    c.note(f"{nid} holds the office {agenda}")
    return _next_agenda(s, c)


def charge_discarded(s: State, e, c: Ctx) -> State | None:
    if not _expect(s, "charge", c, "ChargeDiscarded"):
        return None
    seat = s.setup.get("charged")
    if e.actor != seat:
        return c.skip("WK-AGENDA", f"{seat} discards one of his charges, not {e.actor}")
    charges = s.barons[seat].charges
    original = charges[:-1]
    if e.payload.agenda not in original:
        return c.skip("WK-AGENDA", f"a fourth charge makes the Baron discard one of the original 3 "
                      f"({', '.join(original)}), not {e.payload.agenda!r}")
    s = set_baron(s, seat, charges=tuple(a for a in charges if a != e.payload.agenda))
    return _next_agenda(_discard(s, e.payload.agenda), c)


def _next_agenda(s: State, c: Ctx) -> State:
    a = s.assembly
    if s.setup.get("revote"):
        s = evolve(s, setup={k: v for k, v in s.setup.items() if k != "revote"})
        return _set(s, step="order", agendas=(), at=0, votes={})
    if a.agendas == (PRIVATE,):
        return _set(s, step="order", agendas=(), at=0, votes={})
    voted = a.agendas[a.at]
    s = evolve(s, agendas=tuple(x for x in s.agendas if x != voted))
    if a.at + 1 < len(a.agendas):
        return _set(s, step="hide", at=a.at + 1)
    return _set(s, step="new")


def agendas_revealed(s: State, e, c: Ctx) -> State | None:
    in_assembly = s.flow.step == "assembly" and s.assembly is not None and s.assembly.step == "new"
    if not in_assembly:
        return c.skip("WK-FLOW", "new Agendas are revealed at the end of an Assembly, not now")
    want = 3
    d = s.agenda_deck
    if d is not None:
        want = min(want, len(d.pile) + len(d.bottom) + len(d.discard))
    if len(e.payload.cards) != want:
        c.bad("WK-ASSEMBLY", f"3 new Agendas are revealed (as many as the deck holds: {want}); the log "
              f"reveals {len(e.payload.cards)}")
    out = reveal_agendas(s, e.payload.cards, c, add=True)
    if out is None:
        return None
    return _done(out)
