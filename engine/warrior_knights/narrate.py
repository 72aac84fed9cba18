"""Warrior Knights in words, for replays: one line per event, the board as lines, the headings of
a round's parts."""

from __future__ import annotations

from typing import Any

from engine.core.narration import template_line

# the events whose line is only their payload's fields in words (engine.core.narration.template_line)
_LINES = {
    "EventCardDrawn": "{who} draws the Event {card}",
    "TieBroken": "{who} breaks the tie on {agenda}: {choice}",
    "NobleReturned": "{who} brings {noble} back at {area}",
    "CommanderDeclared": "{who} names {noble} to command",
    "ActingChairmanAppointed": "{who} appoints {baron} acting Chairman",
    "OfficeAssigned": "{who} gives the office {agenda} to {noble}",
    "AdvancementSwapped": "{who} discards the Advancement {discard} from those face up; {card} replaces it",
}


def _card(card: Any) -> str:
    if isinstance(card, dict):
        return card.get("id") or ", ".join(f"{k} {v}" for k, v in card.items() if k != "expeditions")
    return str(card)


def _cards(cards: Any) -> str:
    return ", ".join(_card(x) for x in cards or [])


def describe(type_: str, actor: str | None, payload: Any, view: dict | None) -> str:
    """One line for an event as logged."""
    p = payload if isinstance(payload, dict) else {}
    who = actor or "the table"
    match type_:
        case "TroopsDealt":
            return "Mercenaries dealt: " + "; ".join(f"{q} {_cards(v)}" for q, v in p.get("mercenaries", {}).items())
        case "TroopsAssigned":
            return f"{who} assigns troops: " + "; ".join(f"{k} {', '.join(v)}" for k, v in p.get("armies", {}).items())
        case "CitiesRazed":
            return f"Fate cards drawn to raze cities: {_cards(p.get('cards'))}"
        case "MarketRevealed":
            return f"Mercenaries face up: {_cards(p.get('mercenaries'))}; Agendas: {_cards(p.get('agendas'))}"
        case "OfficesChosen":
            return f"Fate cards for the Chairman: {_cards(p.get('chairman'))}; for the Head of the Church: {_cards(p.get('head_of_church'))}"
        case "StrongholdPlaced":
            return f"{who} places his stronghold at {p.get('area')}"
        case "NoblePlaced":
            return f"{who} places {p.get('noble')} at {p.get('area')}"
        case "StacksPlanned":
            if p.get("stacks") is not None:
                return f"{who} plans " + " | ".join(", ".join(x) or "-" for x in p["stacks"])
            return f"{who} plans {p.get('counts')} cards face down (committed)"
        case "PlanOpened":
            return f"{who} opens his plan: " + " | ".join(", ".join(x) or "-" for x in p.get("stacks", []))
        case "CardRevealed":
            return f"Stack {p.get('stack')}: {p.get('owner') or 'Neutral'} {p.get('card')}"
        case "ActionDeclined":
            return f"{who} declines the action"
        case "TaxesLevied":
            return f"{who} levies taxes"
        case "SoldiersDrafted":
            return f"{who} puts a marker on space {p.get('spot')} of the Mercenary Track"
        case "SupportRallied":
            return f"{who} rallies support"
        case "ChurchServed":
            return f"{who} serves the Church"
        case "ForcesMobilized":
            moves = "; ".join(f"{m.get('noble')} {'by sea ' if m.get('sea') else ''}to {' -> '.join(m.get('path', []))}"
                              for m in p.get("moves", []))
            att = p.get("attack")
            fight = (f"; attacks {att.get('defender')} ({att.get('kind')}) with {', '.join(att.get('armies', []))}"
                     if att else "")
            return f"{who} mobilizes in {p.get('area')}: {moves or 'no move'}{fight}"
        case "FateDrawn":
            return f"Fate cards for the {p.get('side')}: {_cards(p.get('cards'))}"
        case "FateDiscarded":
            return f"{who} discards {len(p.get('discard', []))} Fate cards face down"
        case "CasualtiesAssigned":
            toks = ", ".join(f"{k} {v}" for k, v in p.get("tokens", {}).items())
            return f"{who} takes casualties: {toks or 'none'}" + (f", {p['breaches']} breaches" if p.get("breaches") else "")
        case "WagesPaid":
            return f"{who} pays wages" + (f"; lets {', '.join(p['unpaid'])} go" if p.get("unpaid") else "")
        case "VotesHidden":
            return f"{who} hides his votes for {p.get('agenda')}"
        case "VotesRevealed":
            return f"{who} reveals {p.get('votes')} votes for {p.get('agenda')}"
        case "VoteDeclared":
            return f"{who} casts his votes on {p.get('agenda')}: {p.get('choice')}"
        case "MercenaryHired":
            hires = p.get("hires", {})
            return f"{who} hires " + (", ".join(f"{m} to {h}" for m, h in hires.items()) if hires else "nobody")
        case "RevoltDrawn":
            return f"Revolt card for {p.get('city')}: {_card(p.get('card'))}"
        case "Adjusted":
            return f"{who} records an adjustment for {p.get('source')}"
        case "KingsArmyAssigned":
            return f"{who}, King, assigns the King's Army: " + ", ".join(f"{n} to {h}" for h, n in p.get("armies", {}).items())
        case "MissionDealt":
            return f"{who} is dealt a Mission card, face down" + (" (committed)" if p.get("commitment") else "")
        case "MissionRevealed":
            return (f"{who} reveals his Mission {p.get('mission')}: "
                    + ("fulfilled, +2 Influence (signed by him)" if p.get("fulfilled") else "not fulfilled"))
        case "AdvancementsRevealed":
            return f"Advancements face up: {_cards(p.get('cards'))}"
        case "ScholarChosen":
            return f"Fate cards for the Scholar: {_cards(p.get('cards'))}"
        case "MindEnriched":
            return f"{who} enriches his mind (the card to the {str(p.get('area')).capitalize()} stack)"
        case "AdvancementBought":
            back = p.get("returned") or []
            return f"{who} buys the Advancement {p.get('advancement')}" + (f", {', '.join(back)} to the bottom" if back else "")
        case "AdvancementResearched":
            return f"{who} researches: {_card(p.get('card'))}, " + ("bought" if p.get("buy") else "discarded")
        case "MarchForced":
            return f"{who} forces a march: refreshes {', '.join(p.get('nobles') or []) or 'no Noble'}"
        case "AdvancementUsed":
            return f"{who} activates the Advancement {p.get('advancement')}"
        case "RetreatChosen":
            return f"{who} " + ("retreats from the battle" if p.get("retreat") else "fights on")
        case "GameEnded":
            return f"The game ends: {p.get('winner') or 'no winner'} declared"
        case "DesertersDrawn":
            return f"Fate card for {p.get('noble')}'s deserters: {_card(p.get('card'))}"
        case "MercenariesRevealed":
            return f"Mercenaries turned face up: {_cards(p.get('cards'))}"
        case "AgendasRevealed":
            return f"Agendas turned face up: {_cards(p.get('cards'))}"
        case "PrivateMotionDrawn":
            return f"Fate cards for a private motion: {_cards(p.get('cards'))}"
        case "ExpeditionFateDrawn":
            return f"Fate cards for the expedition to {p.get('expedition')}: {_cards(p.get('cards'))}"
        case "EventDrawerChosen":
            drawer = p.get("drawer")
            return f"{who} names {'himself' if drawer == actor else drawer} to draw the {p.get('colour')} Event"
        case "CityTaken":
            return f"{who} takes the city" + (" and razes it" if p.get("raze") else "")
        case "StrongholdCityGiven":
            return f"{who} gives up " + (f"the city {p['city']} for his stronghold" if p.get("city") else "no city")
        case "ExpeditionFunded":
            if not p.get("expedition"):
                return f"{who} funds no expedition"
            stakes = ", ".join(f"{q} {n}" for q, n in (p.get("stakes") or {}).items()) or "none"
            return (f"{who} funds the expedition to {p['expedition']}: stakes {stakes}"
                    + ("; blessed by the Church" if p.get("blessed") else ""))
        case "DefensesUpgraded":
            done = [f"repairs {p['repair']} at {p.get('city')}" if p.get("repair") else "",
                    f"fortifies {p.get('city')}" if p.get("fortify") else "",
                    f"garrisons {p['garrison']}" if p.get("garrison") else ""]
            return f"{who} " + ("; ".join(d for d in done if d) or "upgrades no defense")
        case "PrivateMotionCalled":
            if not p.get("motion"):
                return f"{who} calls no private motion"
            return f"{who} calls the private motion {p['motion'].replace('_', ' ')}" + (f" on {p['target']}" if p.get("target") else "")
        case "AgendaOrderDeclared":
            return f"{who} sets the Agendas' order: {', '.join(p.get('order') or [])}"
        case "RevoltSettled":
            return f"{who} settles the revolt in {p.get('city')}" + (f" with {p['pay']}" if p.get("pay") else " without paying")
        case "NobleLost":
            return (f"{who} loses {p.get('noble')}" + (f"; {p['deserter']} deserts" if p.get("deserter") else "")
                    + (f"; discards {', '.join(p['discarded'])}" if p.get("discarded") else ""))
        case "Retreated":
            return (f"{who} retreats {p.get('noble')} to {p.get('to') or 'his stronghold'}"
                    + (f"; {p['deserter']} deserts" if p.get("deserter") else ""))
        case "TroopsMustered":
            done = ([f"{p['tokens']} troop token{'s' if p['tokens'] != 1 else ''} to {p.get('army')}"] if p.get("tokens") else [])
            done += [f"the Town Levy {x.get('levy')} for {x.get('noble')}" for x in p.get("levies") or [] if isinstance(x, dict)]
            return f"{who} musters " + (", ".join(done) or "nothing")
        case "TroopsTransferred":
            return f"{who} moves {', '.join(p.get('troops') or [])} from {p.get('from')} to {p.get('to')}"
        case "EventCancelled":
            return "The Event is cancelled: " + ", ".join(f"{q} spends {n} Faith" for q, n in (p.get("faith") or {}).items())
    line = template_line(_LINES, type_, p, who)
    if line is not None:
        return line
    rest = ", ".join(f"{k} {v}" for k, v in p.items() if v not in (None, [], {}, False))
    return f"{who}: {type_}" + (f" ({rest})" if rest else "")


def board_lines(view: dict, indent: str = "    ") -> list[str]:
    """The board view as lines: each Baron's holdings, then the Nobles on the board."""
    out = []
    for seat, b in view.get("barons", {}).items():
        cities = [c for c, cs in view.get("cities", {}).items() if cs.get("owner") == seat]
        out.append(f"{indent}{seat} ({b['color']}): {b['crowns']} crowns, {b['influence']} Influence, "
                   f"{b['faith']} Faith, {b['votes']} Votes; stronghold {b['stronghold'] or 'off the board'}; "
                   f"cities {', '.join(cities) or 'none'}")
    nobles = [f"{k} at {n['area']}{' (exhausted)' if n['exhausted'] else ''}{' (at sea)' if n['at_sea'] else ''}"
              for k, n in view.get("nobles", {}).items() if n.get("area") and not n.get("dead")]
    if nobles:
        out.append(f"{indent}Nobles: " + "; ".join(nobles))
    out.append(f"{indent}Influence pool: {view.get('influence_pool')}; Chairman {view.get('chairman')}, "
               f"Head of the Church {view.get('head_of_church')}")
    g = view.get("glory")
    if g:
        parts = [f"Crown & Glory ({', '.join(g.get('variants', []))})"]
        if g.get("king"):
            parts.append(f"King {g['king']}")
        if g.get("garrisons"):
            parts.append("Garrisons " + ", ".join(f"{c} ({o})" for c, o in g["garrisons"].items()))
        if g.get("riots"):
            parts.append("rioting " + ", ".join(g["riots"]))
        if g.get("scholar"):
            parts.append(f"Scholar {g['scholar']}")
        if g.get("knowledge"):
            parts.append("Knowledge " + ", ".join(f"{q} {n}" for q, n in g["knowledge"].items()))
        if any(g.get("advancements", {}).values()):
            parts.append("Advancements " + "; ".join(f"{q} {', '.join(v)}" for q, v in g["advancements"].items() if v))
        out.append(indent + "; ".join(parts))
    return out


def section(phase: str, round_: int, turn: int):
    return (round_, phase if phase != "special" else "actions")


def phase_heading(phase: str, round_: int, turn: int) -> str:
    names = {"setup": "setup", "planning": "Planning", "actions": "Actions", "upkeep": "Upkeep", "over": "the end"}
    if phase == "setup":
        return "== Setup =="
    return f"== Round {round_}: {names.get(phase, phase)} =="


def start_lines(view: dict) -> list[str]:
    return ["Barons: " + ", ".join(f"{q} ({b['color']})" for q, b in view.get("barons", {}).items()),
            f"Influence pool: {view.get('influence_pool')}"]
