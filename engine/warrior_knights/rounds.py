"""The game round (summary, "Game Round"): Planning with face-down stacks, the Actions revealed
stack by stack with each card resolved and allocated, the Special Phases an area triggers, and the
Upkeep. This module is the hub: `advance` carries the game on through every step the rules settle
without a decision (closing a resolved card, a Taxation, the next stack, the Upkeep), after every
event; the chapters (actions, neutral, battles, phases, assembly, upkeep) only mark what they
finish."""

from __future__ import annotations

from collections import Counter

from engine.core.canonical import canonical_json
from engine.core.commit import matches_commitment
from engine.warrior_knights.cards import BARON_ACTIONS, HAND, NEUTRAL_ACTIONS, SPECIAL_AREAS
from engine.warrior_knights.common import Ctx, clockwise_from, lift_sieges, set_baron
from engine.warrior_knights.neutral import open_neutral
from engine.warrior_knights.phases import begin_draft, begin_wages, taxation
from engine.warrior_knights.assembly import begin_assembly
from engine.warrior_knights.state import Flow, Pending, Planned, State, evolve
from engine.warrior_knights.upkeep import after_revolts, begin_upkeep, end_by_influence
from engine.warrior_knights import glory as G

STACKS = 3
PER_STACK = 2                  # Planning: "2 of their Action cards ... into each of 3 different stacks"
NEUTRAL_PER_STACK = 2          # "shuffles 2 cards into each stack"


def plan_text(stacks) -> str:
    """The text a plan's commitment is made of: the canonical JSON of the three lists of card
    types, each sorted (docs/log-format.md)."""
    return canonical_json([sorted(x) for x in stacks])


def begin_round(s: State, round_: int) -> State:
    """A new round: Planning, every hand as it stands."""
    return evolve(s, plans={}, neutral_used={},
                  flow=Flow(phase="planning", step="planning", round=round_))


# --- Planning --------------------------------------------------------------------------------------

def stacks_planned(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase == "upkeep" and f.step == "return":
        s = begin_round(s, f.round + 1)
        f = s.flow
    if f.phase != "planning":
        return c.skip("WK-FLOW", f"Action cards are planned at the start of a round, not now ({f.phase}: {f.step})")
    seat = e.actor
    if seat in s.plans:
        return c.skip("WK-PLAN", f"{seat} has already planned his stacks for round {f.round}")
    p = e.payload
    hand = s.barons[seat].hand
    if p.stacks is not None:
        stacks = tuple(tuple(x) for x in p.stacks)
        counts = tuple(len(x) for x in stacks)
        unknown = [t for x in stacks for t in x if t not in BARON_ACTIONS]
        if unknown:
            return c.skip("WK-PLAN", f"{', '.join(map(repr, unknown))} is not a Baron Action card")
        if hand is not None:
            short = Counter(t for x in stacks for t in x) - Counter(hand)
            if short:
                c.bad("WK-PLAN", f"{seat} plans {', '.join(sorted(short.elements()))} but holds "
                      f"{', '.join(hand) or 'no cards'}")
            left = list(hand)
            for t in (t for x in stacks for t in x):
                if t in left:
                    left.remove(t)
            s = set_baron(s, seat, hand=tuple(sorted(left)))
        planned = Planned(counts, None, stacks, hand or ())
    else:
        counts = tuple(p.counts)
        planned = Planned(counts, p.commitment.lower(), None, hand or ())
    if any(n > PER_STACK for n in counts):
        c.bad("WK-PLAN", f"{seat} puts {list(counts)} cards in the stacks; at most {PER_STACK} in each")
    if hand is not None and sum(counts) > len(hand):
        c.bad("WK-PLAN", f"{seat} puts {sum(counts)} cards in the stacks but holds {len(hand)}")
    plans = {**s.plans, seat: planned}
    s = evolve(s, plans=plans)
    if set(plans) == set(s.seats):
        neutral = G.neutral_per_stack(s)          # For Glory: 3 (WK-NEUTRAL-GLORY)
        left = tuple({**{q: plans[q].counts[i] for q in s.seats if plans[q].counts[i]},
                      None: neutral} for i in range(STACKS))
        c.note(f"The Chairman shuffles {neutral} Neutral cards into each stack")
        s = evolve(s, flow=s.flow._replace(phase="actions", step="reveal", stack=1, left=left))
    return s


def plan_opened(s: State, e, c: Ctx) -> State | None:
    seat = e.actor
    plan = s.plans.get(seat)
    if plan is None or plan.commitment is None:
        return c.skip("WK-PLAN-COMMIT", f"{seat} has no committed plan to open this round")
    if plan.opened:
        return c.skip("WK-PLAN-COMMIT", f"{seat}'s plan is already opened")
    stacks = tuple(tuple(x) for x in e.payload.stacks)
    if not matches_commitment(plan.commitment, plan_text(stacks), e.payload.salt):
        c.bad("WK-PLAN-COMMIT", f"{seat}'s opened plan {[sorted(x) for x in stacks]} with its salt does "
              "not make the commitment given at Planning")
    if tuple(len(x) for x in stacks) != plan.counts:
        c.bad("WK-PLAN-COMMIT", f"{seat}'s plan puts {[len(x) for x in stacks]} cards in the stacks; "
              f"{list(plan.counts)} were seen face down")
    for i, (have, shown) in enumerate(zip(stacks, plan.revealed), start=1):
        if Counter(shown) - Counter(have):
            c.bad("WK-PLAN-COMMIT", f"stack {i} revealed {sorted(shown)} of {seat}'s cards; his opened plan "
                  f"puts {sorted(have)} there")
    return evolve(s, plans={**s.plans, seat: plan._replace(stacks=stacks, opened=True)})


# --- Actions: reveal ---------------------------------------------------------------------------------

def card_revealed(s: State, e, c: Ctx) -> State | None:
    f = s.flow
    if f.phase == "special":
        return c.skip("WK-SPECIAL", f"the {f.step} Special Phase triggered is carried out entirely before the "
                      "next card is revealed")
    if f.phase != "actions" or f.pending is not None:
        what = f"the card {f.pending.card!r} is still being resolved" if f.pending is not None else \
            f"it is {f.phase} ({f.step})"
        return c.skip("WK-FLOW", f"no card is revealed now: {what}")
    p = e.payload
    if p.stack != f.stack:
        return c.skip("WK-REVEAL", f"the cards of stack {f.stack} are revealed now, not of stack {p.stack}")
    owner = p.owner
    if owner is not None and owner not in s.barons:
        return c.skip("WK-REVEAL", f"{owner!r} is not a Baron of this game")
    left = dict(f.left[f.stack - 1])
    if left.get(owner, 0) < 1:
        who = f"{owner}'s cards" if owner else "Neutral cards"
        return c.skip("WK-REVEAL", f"stack {f.stack} holds no more {who} ({_left_text(left)})")
    card = p.card
    printed = None
    if owner is None:
        if card not in NEUTRAL_ACTIONS:
            return c.skip("WK-REVEAL", f"{card!r} is not a Neutral Action card")
        copies = neutral_copies(s, card)
        if copies is not None and s.neutral_used.get(card, 0) + 1 > copies:
            c.bad("WK-NEUTRAL-DECK", f"a {card} card is revealed; the Neutral deck holds {copies} and "
                  f"{s.neutral_used.get(card, 0)} were revealed this round")
        s = evolve(s, neutral_used={**s.neutral_used, card: s.neutral_used.get(card, 0) + 1})
    else:
        if card not in BARON_ACTIONS:
            return c.skip("WK-REVEAL", f"{card!r} is not a Baron Action card")
        kinds = s.data.cards.baron_actions
        if kinds is None:
            if p.area is None:
                return c.skip("WK-CARD", "no cards file lists the Action cards: a revealed card carries the "
                              "Special Phase area it prints (\"area\"; observed mode)")
            printed = p.area
        s = _card_from_plan(s, owner, card, c)
    left[owner] -= 1
    lefts = tuple(left if i == f.stack - 1 else x for i, x in enumerate(f.left))
    pend = Pending(owner, card, printed_area=printed)
    s = evolve(s, flow=s.flow._replace(left=lefts, pending=pend))
    if owner is None:
        s = open_neutral(s, c)
    return s


def neutral_copies(s: State, card: str) -> int | None:
    """The copies of a Neutral card the round's stacks may hold: the cards file's (None: not
    listed, observed mode), less those waiting in a Special Phase area (A Pressing Agenda goes
    to the Assembly stack, not back to the deck, until that Assembly)."""
    kinds = s.data.cards.neutral_actions
    if kinds is None:
        return None
    copies = sum(k.copies for k in kinds.values() if k.type == card and k.deck in neutral_decks(s, card))
    waiting = sum(1 for held in s.allocated.values() for owner, x in held if owner is None and x == card)
    return copies - waiting


def neutral_decks(s: State, card: str) -> tuple[str, ...]:
    """The decks a Neutral card comes from: For Glory removes "Uncertain Times, Muster Forces, and
    Upgrade Defenses" and adds its 7 new cards (the cards file's "for_glory" Neutral cards)."""
    if not G.has(s, G.FOR_GLORY):
        return ("base",)
    if card in ("uncertain_times", "muster_troops", "upgrade_defenses"):
        return ("for_glory",)
    return ("base", "for_glory")


def _card_from_plan(s: State, owner: str, card: str, c: Ctx) -> State:
    """A Baron's revealed card: in his plan's stack (plan in clear) or his hand (committed)."""
    plan = s.plans[owner]
    i = s.flow.stack - 1
    if plan.stacks is not None:
        left = Counter(plan.stacks[i]) - Counter(plan.revealed[i])
        if left[card] < 1:
            c.bad("WK-PLAN", f"{owner} planned {sorted(plan.stacks[i])} in stack {i + 1}; {card} is "
                  "revealed" + (f" after {sorted(plan.revealed[i])}" if plan.revealed[i] else ""))
    elif s.barons[owner].hand is not None:
        hand = list(s.barons[owner].hand)
        if card in hand:
            hand.remove(card)
        else:
            c.bad("WK-PLAN", f"{owner}'s {card} is revealed, but he held no such card at Planning "
                  f"(his hand: {', '.join(s.barons[owner].hand) or 'empty'})")
        s = set_baron(s, owner, hand=tuple(hand))
    revealed = tuple(x + (card,) if k == i else x for k, x in enumerate(plan.revealed))
    return evolve(s, plans={**s.plans, owner: plan._replace(revealed=revealed)})


def _left_text(left: dict) -> str:
    parts = [f"{n} of {o or 'Neutral'}" for o, n in left.items() if n]
    return ", ".join(parts) or "nothing"


# --- allocation and the Special Phases ------------------------------------------------------------

def printed_area(s: State, p: Pending):
    kinds = s.data.cards.baron_actions
    if kinds is not None:
        return kinds[p.card].area if p.card in kinds else None
    return p.printed_area


def _allocate(s: State, c: Ctx) -> State:
    """The resolved card goes to its Special Phase area (or back to the hand); an area with
    players x 2 cards triggers its phase; a draft triggered by the card comes after."""
    p = s.flow.pending
    specials = list(s.flow.specials)
    area = p.area
    if p.owner is not None and area == HAND:
        s = _to_hand(s, p.owner, p.card)
        c.note(f"{p.owner}'s {p.card} card returns to his hand")
    elif area in SPECIAL_AREAS:         # a Baron's card, or a Neutral one that says so (A Pressing Agenda)
        n = s.areas.get(area, 0) + 1
        s = evolve(s, areas={**s.areas, area: n},
                   allocated={**s.allocated, area: s.allocated.get(area, ()) + ((p.owner, p.card),)})
        whose = f"{p.owner}'s" if p.owner is not None else "The Neutral"
        c.note(f"{whose} {p.card} card goes to the {area.capitalize()} area ({n} of {2 * len(s.seats)})")
        if n >= 2 * len(s.seats):
            specials.append(area)
    if p.detail.get("draft"):
        specials.append("draft")
    return evolve(s, flow=s.flow._replace(pending=None, specials=tuple(specials)))


def _to_hand(s: State, owner: str | None, card: str) -> State:
    """A card back to its owner: a Baron's to his hand, a Neutral one to the Neutral deck."""
    if owner is None:
        return s
    hand = s.barons[owner].hand
    return s if hand is None else set_baron(s, owner, hand=tuple(sorted(hand + (card,))))


def _return_cards(s: State, area: str, c: Ctx) -> State:
    held = s.allocated.get(area, ())
    for owner, card in held:
        s = _to_hand(s, owner, card)
    if held:
        c.note(f"The {len(held)} cards of the {area.capitalize()} area return to their owners")
    return evolve(s, areas={**s.areas, area: 0}, allocated={**s.allocated, area: ()})


def _start_special(s: State, c: Ctx) -> State:
    phase = s.flow.specials[0]
    c.note(f"Special Phase: {'Mercenary Draft' if phase == 'draft' else phase.capitalize()}")
    s = evolve(s, flow=s.flow._replace(phase="special", step=phase, order=(), index=0))
    if phase == "taxation":
        return evolve(taxation(s, c), flow=s.flow._replace(step="done"))
    if phase == "wages":
        return begin_wages(s, c)
    if phase == "assembly":
        return begin_assembly(s, c)
    return begin_draft(s, c)


def advance(s: State, c: Ctx) -> State:
    """Every step the rules settle without a decision, until one is needed (and a siege whose
    besiegers have gone is lifted: City Siege 3)."""
    s = lift_sieges(s, c)
    for _ in range(200):
        f = s.flow
        if s.result is not None or f.phase == "over":
            return s
        if f.phase == "setup" and f.step == "done":
            s = begin_round(s, 1)
            continue
        if f.phase == "special" and f.step == "done":
            phase = f.specials[0]
            if phase in SPECIAL_AREAS:
                s = _return_cards(s, phase, c)
            s = evolve(s, flow=s.flow._replace(phase="actions", step="reveal", specials=f.specials[1:],
                                               order=(), index=0))
            continue
        if f.phase == "actions":
            if f.pending is not None and f.pending.stage == "done":
                s = _allocate(s, c)
                continue
            if f.pending is None and f.specials:
                s = _start_special(s, c)
                continue
            if f.pending is None and not any(f.left[f.stack - 1].values()):
                if f.stack < 3:
                    c.note(f"Stack {f.stack + 1}")
                    s = evolve(s, flow=f._replace(stack=f.stack + 1))
                    continue
                s = begin_upkeep(s, c)
                continue
        if f.phase == "upkeep" and f.step == "revolts" and not f.revolts and f.revolt_owed is None:
            s = after_revolts(s, c)
            continue
        if f.phase == "upkeep" and f.step == "missions" and f.index >= len(f.order):
            s = end_by_influence(s, c)
            continue
        return s
    return s


__all__ = ["advance", "begin_round", "card_revealed", "clockwise_from", "neutral_copies", "plan_opened",
           "plan_text", "stacks_planned"]
