"""The Warrior Knights decider: `step(state, event) -> (violations, next state | None)`.

Judging policy: every violation of an event is reported. An event that can still be carried out is
applied as recorded (a card drawn that was not in its deck, a discard of the wrong number of Fate
cards); one that cannot (an unknown area, a move across a mountain, a marker on an occupied space,
a decision out of turn) is skipped and changes nothing. Claims (crowns levied, wages paid, the
winner) are checked and the rules' own values are used.

The chapters, each a module (imports run one way: `common` <- the chapters <- `rounds` (the hub)
<- this dispatcher): `setup` (Setup 1-7), `rounds` (Planning, reveals, allocation, the Special
Phases' order, `advance`), `actions` (the Baron actions), `moves` (Movement), `battles` (battles,
sieges, retreats, deaths), `neutral` (the Neutral actions), `phases` (Taxation, Wages, Mercenary
Draft), `assembly` (the Assembly), `upkeep` (the Upkeep and winning).
"""

from __future__ import annotations

from typing import Callable

from engine.core.events import Event
from engine.core.judging import is_over_for
from engine.core.rules import Violation
from engine.warrior_knights import actions as A
from engine.warrior_knights import assembly as AS
from engine.warrior_knights import battles as B
from engine.warrior_knights import glory as G
from engine.warrior_knights import moves as M
from engine.warrior_knights import neutral as N
from engine.warrior_knights import phases as P
from engine.warrior_knights import rounds as R
from engine.warrior_knights import setup as S
from engine.warrior_knights import upkeep as U
from engine.warrior_knights.common import Ctx, area_of, city_of, gain, pay, seat_of, set_baron, set_city
from engine.warrior_knights.state import State, evolve

# The start of a game, for the RULESET record, beside step. Nothing is settled when the log
# ends: the record's default `conclude`, and its default `result`, the state's.
check_start = S.check_start
initial_state = S.initial_state


def _stronghold_placed(s: State, e: Event, c: Ctx) -> State | None:
    if s.flow.phase == "upkeep":
        return U.stronghold_replaced(s, e, c)
    undealt = G.missions_undealt(s)
    if undealt and s.flow.phase == "setup" and s.flow.step == "strongholds":
        c.claim("WK-MISSION-DEAL", f"the strongholds are placed before {', '.join(undealt)} "
                "is dealt a Mission card (Missions Variant: \"Before setting up stronghold locations\")")
    return S.stronghold_placed(s, e, c)


def _stronghold_city_given(s: State, e: Event, c: Ctx) -> State | None:
    """Attacking a Stronghold; with The King, the King's stronghold eliminated is usurped."""
    b = s.battle
    item = b.after[0] if b is not None and b.after else None
    out = B.stronghold_city_given(s, e, c)
    if out is not None and item is not None and item[0] == "stronghold":
        out = G.usurp(out, b.attacker.baron, item[1], c)
    return out


def _agendas_revealed(s: State, e: Event, c: Ctx) -> State | None:
    """New Agendas: the Assembly's 3 (Special Phases 3.6), or A Pressing Agenda's one (For Glory)."""
    if N.draws(s, "press"):
        return N.agenda_pressed(s, e, c)
    return AS.agendas_revealed(s, e, c)


def _mercenaries_revealed(s: State, e: Event, c: Ctx) -> State | None:
    """New Mercenaries: a Draft's players + 1 (Special Phases 4), or Assemble Troops' one (For Glory)."""
    if N.draws(s, "assemble"):
        return N.troops_assembled(s, e, c)
    return P.mercenaries_revealed(s, e, c)


def _crowns_given(s: State, e: Event, c: Ctx) -> State | None:
    """Setup: "Money and favors may be traded freely between Barons"."""
    to = seat_of(s, e.payload.to)
    if to is None or to == e.actor:
        return c.skip("WK-TRADE", f"{e.payload.to!r} is not another Baron")
    n = e.payload.crowns
    if s.barons[e.actor].crowns < n:
        return c.skip("WK-TRADE", f"{e.actor} gives {n} crowns but has {s.barons[e.actor].crowns}")
    c.note(f"{e.actor} gives {to} {n} crowns")
    return gain(pay(s, e.actor, n), to, n)


def _adjusted(s: State, e: Event, c: Ctx) -> State | None:
    """A free-text card's effect as the seat that applied it records it (WK-ADJUST)."""
    p = e.payload
    seat = seat_of(s, p.baron) if p.baron is not None else e.actor
    if seat is None:
        return c.skip("WK-ADJUST", f"{p.baron!r} is not a Baron of this game")
    if not G.leader_ability_used(s, e, c):       # For Glory: a Leader's or Herald's ability
        return None
    parts = []
    b = s.barons[seat]
    changes = {}
    for key, delta in (("crowns", p.crowns), ("faith", p.faith), ("votes", p.votes), ("influence", p.influence)):
        if delta:
            now = getattr(b, key) + delta
            if now < 0:
                c.bad("WK-ADJUST", f"{seat} would have {now} {key}: a Baron never has fewer than 0 (0 is used)")
                now = 0
            changes[key] = now
            parts.append(f"{seat} {delta:+d} {key}")
    if changes:
        s = set_baron(s, seat, **changes)
        if "influence" in changes:
            s = evolve(s, influence_pool=max(0, s.influence_pool - p.influence))
    if p.city is not None:
        city = city_of(s, p.city, c, "WK-ADJUST")
        if city is None:
            return None
        cs = s.cities[city]
        if p.breaches:
            most = s.data.board.cities[city].strength // 100
            n = min(max(0, cs.breaches + p.breaches), most)
            s = set_city(s, city, breaches=n)
            parts.append(f"{city} {p.breaches:+d} breaches")
        if p.owner is not None:
            owner = None if p.owner == "neutral" else seat_of(s, p.owner)
            if owner is None and p.owner != "neutral":
                return c.skip("WK-ADJUST", f"{p.owner!r} is not a Baron (or \"neutral\")")
            s = set_city(s, city, owner=owner, fortified=cs.fortified if owner else False)
            parts.append(f"{city} to {owner or 'neutral'}")
        if p.raze:
            s = set_city(s, city, owner=None, razed=True, fortified=False, breaches=0, siege=None)
            parts.append(f"{city} razed")
    c.note(f"Adjustment signed by {e.actor} for {p.source}: " + ("; ".join(parts) or "no change")
           + (f" ({p.text})" if p.text else ""))
    return s


def _game_ended(s: State, e: Event, c: Ctx) -> State | None:
    said = e.payload.winner
    if s.result is None:
        c.claim("WK-RESULT", f"the log declares the game over ({said or 'no winner'}), but by the rules it "
                "goes on")
        return s
    rules = s.result.winners
    if (said is None and rules) or (said is not None and (said,) != rules):
        c.claim("WK-RESULT", f"the log declares {said or 'no winner'}; the rules give "
                f"{' and '.join(rules) or 'no winner'} ({s.result.reason})")
    return s


HANDLERS: dict[str, Callable[[State, Event, Ctx], State | None]] = {
    "TroopsDealt": S.troops_dealt,
    "TroopsAssigned": S.troops_assigned,
    "CitiesRazed": S.cities_razed,
    "MarketRevealed": S.market_revealed,
    "OfficesChosen": S.offices_chosen,
    "StrongholdPlaced": _stronghold_placed,
    "NoblePlaced": S.noble_placed,
    "StacksPlanned": R.stacks_planned,
    "PlanOpened": R.plan_opened,
    "CardRevealed": R.card_revealed,
    "ActionDeclined": A.action_declined,
    "TaxesLevied": A.taxes_levied,
    "SoldiersDrafted": A.soldiers_drafted,
    "SupportRallied": A.support_rallied,
    "ChurchServed": A.church_served,
    "ForcesMobilized": A.forces_mobilized,
    "PermissionGiven": A.permission_given,
    "TroopsTransferred": M.troops_transferred,
    "CommanderDeclared": B.commander_declared,
    "FateDrawn": B.fate_drawn,
    "FateDiscarded": B.fate_discarded,
    "CasualtiesAssigned": B.casualties_assigned,
    "DesertersDrawn": B.deserters_drawn,
    "Retreated": B.retreated,
    "NobleLost": B.noble_lost,
    "CityTaken": B.city_taken,
    "StrongholdCityGiven": _stronghold_city_given,
    "EventDrawerChosen": N.event_drawer_chosen,
    "EventCardDrawn": N.event_card_drawn,
    "EventTargetDrawn": N.event_target_drawn,
    "EventCancelled": N.event_cancelled,
    "ExpeditionFunded": N.expedition_funded,
    "ExpeditionFateDrawn": N.expedition_fate_drawn,
    "DefensesUpgraded": N.defenses_upgraded,
    "TroopsMustered": N.troops_mustered,
    "WagesPaid": P.wages_paid,
    "MercenaryHired": P.mercenary_hired,
    "MercenariesRevealed": _mercenaries_revealed,
    "ActingChairmanAppointed": AS.acting_chairman_appointed,
    "PrivateMotionDrawn": AS.private_motion_drawn,
    "PrivateMotionCalled": AS.private_motion_called,
    "AgendaOrderDeclared": AS.agenda_order_declared,
    "VotesHidden": AS.votes_hidden,
    "VotesRevealed": AS.votes_revealed,
    "VoteDeclared": AS.vote_declared,
    "TieBroken": AS.tie_broken,
    "OfficeAssigned": AS.office_assigned,
    "ChargeDiscarded": AS.charge_discarded,
    "AgendasRevealed": _agendas_revealed,
    "RevoltDrawn": U.revolt_drawn,
    "RevoltSettled": U.revolt_settled,
    "NobleReturned": U.noble_returned,
    "CrownsGiven": _crowns_given,
    "Adjusted": _adjusted,
    "GameEnded": _game_ended,
    "KingsArmyAssigned": G.kings_army_assigned,
    "MissionDealt": G.mission_dealt,
    "MissionRevealed": G.mission_revealed,
    "AdvancementsRevealed": G.advancements_revealed,
    "ScholarChosen": G.scholar_chosen,
    "MindEnriched": G.mind_enriched,
    "AdvancementBought": G.advancement_bought,
    "AdvancementResearched": G.advancement_researched,
    "MarchForced": G.march_forced,
    "AdvancementUsed": G.advancement_used,
    "RetreatChosen": B.retreat_chosen,
    "AdvancementSwapped": G.advancement_swapped,
}

# Chance and the Chairman's handling of the table: events no Baron decides (actor may be null).
TABLE_EVENTS = frozenset({"TroopsDealt", "CitiesRazed", "MarketRevealed", "OfficesChosen", "CardRevealed", "EventTargetDrawn",
                          "FateDrawn", "DesertersDrawn", "ExpeditionFateDrawn", "PrivateMotionDrawn",
                          "AgendasRevealed", "MercenariesRevealed", "RevoltDrawn", "GameEnded",
                          "AdvancementsRevealed", "ScholarChosen"})


# A committed plan may still be opened, and the result declared, once the game is over.
_AFTER_END = frozenset({"GameEnded", "PlanOpened"})


# What may still come while a Baron's card waits to be resolved, or while a battle is fought:
# any other event means the log left it unfinished (_resync).
_CARD_EVENTS = frozenset({"ActionDeclined", "TaxesLevied", "SoldiersDrafted", "SupportRallied", "ChurchServed",
                          "ForcesMobilized", "PermissionGiven", "TroopsTransferred", "CrownsGiven", "Adjusted",
                          "PlanOpened", "KingsArmyAssigned", "MindEnriched", "MarchForced", "AdvancementUsed"})
_BATTLE_EVENTS = frozenset({"CommanderDeclared", "FateDrawn", "FateDiscarded", "CasualtiesAssigned",
                            "DesertersDrawn", "Retreated", "NobleLost", "CityTaken", "StrongholdCityGiven",
                            "CrownsGiven", "Adjusted", "PlanOpened", "KingsArmyAssigned", "AdvancementUsed",
                            "AdvancementsRevealed", "RetreatChosen"})


def _resync(s: State, e: Event, c: Ctx) -> State:
    """Settle what the log left unfinished before `e` (WK-RULING-AFTER-ILLEGAL): a Neutral card
    whose resolution has no fixed end is closed by any other event; a Baron's card never resolved
    is declined, and a battle never finished is dropped, each a claim, so that one mistake in a log
    is one finding and not a finding for every later event."""
    f = s.flow
    p = f.pending
    if p is None or f.phase != "actions":
        return s
    if N.closable(s, e.type):
        return R.advance(evolve(s, flow=f._replace(pending=p._replace(stage="done"))), c)
    if p.owner is None and p.stage in N.DRAWS and e.type not in (N.DRAWS[p.stage], "PlanOpened", "CrownsGiven", "Adjusted"):
        return R.advance(N.draw_never_made(s, e.type, c), c)
    if p.owner is not None and p.stage == "enrich" and e.type not in G.BOUGHT_AFTER:
        # Enrich Mind's purchases are over when another event comes
        return R.advance(evolve(s, flow=f._replace(pending=p._replace(stage="done"))), c)
    if p.owner is not None and p.stage == "open" and e.type not in _CARD_EVENTS:
        printed = R.printed_area(s, p)
        area = "hand" if p.card == "versatile" else (
            printed["move"] if isinstance(printed, dict) else printed[0] if isinstance(printed, tuple) else printed)
        c.claim("WK-ACTION", f"{p.owner}'s {p.card} card is never resolved in the log before {e.type}: it is "
                f"taken as declined (to {area})")
        return R.advance(evolve(s, flow=f._replace(pending=p._replace(stage="done", area=area))), c)
    if s.battle is not None and e.type not in _BATTLE_EVENTS:
        c.claim("WK-FLOW", f"the battle in {s.battle.area} ({s.battle.stage}) is never finished in the log before "
                f"{e.type}: it is dropped as it stands")
        return R.advance(evolve(s, battle=None, flow=f._replace(pending=p._replace(stage="done"))), c)
    return s


def _glory_owed(s: State, e: Event, c: Ctx) -> State:
    """What For Glory owes that the log has left out (each a claim, settled so that it is one finding):
    the Advancement replacing one bought; at round 1's first plan, the 3 face up and the Scholar."""
    g = s.glory
    if g.refill_owed and e.type not in ("AdvancementsRevealed", "PlanOpened", "CrownsGiven", "Adjusted"):
        c.claim("WK-ADVANCEMENT-BUY", f"the Advancement bought is never replaced from the deck before {e.type}")
        s = G.set_glory(s, refill_owed=0)
    if e.type == "StacksPlanned" and G.has(s, G.FOR_GLORY) and s.flow.round <= 1 and not s.plans:
        if not g.offer_laid:
            c.claim("WK-ADVANCEMENT-BUY", "the setup never lays out the 3 Advancements face up (For Glory setup 7)")
            s = G.set_glory(s, offer_laid=True)
        if not g.scholar_drawn and len(s.seats) > 2:
            c.claim("WK-SCHOLAR", "the setup never gives the Scholar token to a random Baron (For Glory setup 8)")
            s = G.set_glory(s, scholar_drawn=True)
    return s


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """Judge one event: every violation, and the next state (None when the event is skipped)."""
    c = Ctx()
    if is_over_for(s, e, c, "WK-GAME-OVER", _AFTER_END, "the game has ended"):
        return c.v, None
    handler = HANDLERS.get(e.type)
    if handler is None or e.type == "GameStarted":
        c.skip("WK-FLOW", "the game has already started" if e.type == "GameStarted" else f"{e.type} is not expected here")
        return c.v, None
    if e.actor is not None and e.actor not in s.barons:
        c.skip("WK-ACTOR", f"{e.actor!r} is not a Baron of this game ({', '.join(s.seats)})")
        return c.v, None
    if e.actor is None and e.type not in TABLE_EVENTS:
        c.skip("WK-ACTOR", f"{e.type} is a Baron's decision: it names him as its actor")
        return c.v, None
    settled = _resync(s, e, c)
    if settled.glory is not None:
        settled = _glory_owed(settled, e, c)
    if (settled.glory is not None and settled.glory.king_army_owed is not None
            and e.type not in ("KingsArmyAssigned", "PlanOpened", "GameEnded", "CrownsGiven", "Adjusted")):
        settled = G.assign_owed_army(settled, c, e.type)
    out = handler(settled, e, c)
    if out is None:
        if settled is s:
            return c.v, None
        out = settled
    out = G.after_event(out, c)
    out = R.advance(out, c)
    # an event happens where the game stood when it came (a round's first plan opens its Planning)
    at = ("planning", out.flow.round, 0) if e.type == "StacksPlanned" else position(settled)
    return c.v, evolve(out, notes=tuple(c.notes), at=at)


def position(s: State) -> tuple[str, int, int]:
    """(phase, round, stack): the stack is the one being revealed (0 outside the Actions)."""
    f = s.flow
    phase = f.phase if f.phase != "special" else "actions"
    return phase, f.round, f.stack if f.phase in ("actions", "special") else 0


__all__ = ["check_start", "initial_state", "position", "step", "area_of"]
