"""Risk Legacy, "5 End of Turn": drawing a card (and "When the Deck of Coin Cards Runs Out"), the
sideboard's card revealed into slot 1, "Event Cards" and "Mission Cards", and the turn ended.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.judging import acting
from engine.core.text import plural
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN
from engine.risk_legacy.state import END, State, evolve as replace
from engine.risk_legacy.common import (
    _check_blind_draw, _check_draw, _Ctx, face_up_choices, has_power, may_draw, _set_terr,
    territories_of, _tname,
)
from engine.risk_legacy.setup import reveal_pool
from engine.risk_legacy.turns import _check_win, _my_turn, _next_turn


def _card_drawn(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    p = e.actor
    f = s.flow
    card = s.data.resolve_card(e.payload.card)
    if card is None:
        return c.skip("RL-NAME", f"no card {e.payload.card!r}")
    if f.drew or f.mission_done:
        return c.skip("RL-DRAW-ELIGIBLE", f"{p} has already " + ("drawn a card" if f.drew else "completed a mission")
                      + " this turn: one card per turn, and none with a mission")
    side = s.side
    choices = face_up_choices(s, p)
    if card == COIN:
        if side.coins <= 0:
            return c.skip("RL-DRAW-CHOICE", "there are no face-up Coin cards left")
    elif card not in side.slots:
        return c.skip("RL-DRAW-CHOICE", f"{card} ({_tname(s, s.data.territory_of_card[card])}) is not face up "
                      f"(face up: {', '.join(x for x in side.slots if x) or 'none'})")
    if not f.recruited:
        c.bad("RL-TURN-STEPS", "the card is drawn at the end of the turn")
    if not may_draw(s, p):
        c.bad("RL-DRAW-ELIGIBLE", f"{p} took no territory from an opponent this turn and may not draw a card")
    if card == COIN and choices:
        c.bad("RL-DRAW-CHOICE", f"{p} controls a territory shown face up ({', '.join(choices)}) and must take "
              "one of those cards, not a Coin card")
    if card != COIN and card not in choices:
        c.bad("RL-DRAW-CHOICE", f"{p} does not control {_tname(s, s.data.territory_of_card[card])}; "
              + (f"they must take one of {', '.join(choices)}" if choices else "they must take a Coin card"))
    terr = s.terr
    if e.payload.troop:
        t = s.data.territory_of_card.get(card)
        if not has_power(s, p, "khan-card-troop"):
            c.bad("RL-POWER-KHAN-CARD-TROOP", "only Khan Industries with this power places a troop with a card")
        elif t is None or s.terr[t].owner != p:
            return c.skip("RL-POWER-KHAN-CARD-TROOP", "the troop goes into the card's territory, which must be theirs")
        if t is not None and s.terr[t].owner == p:
            terr = _set_terr(s, **{t: s.terr[t]._replace(troops=s.terr[t].troops + 1)})
            c.note(f"Khan Industries' power: one troop placed in {_tname(s, t)}")
    players = dict(s.players)
    players[p] = players[p]._replace(hand=tuple(sorted(players[p].hand + (card,))))
    if card == COIN:
        discarded = side.slots[3]
        slots = (None,) + side.slots[:3]
        side = side._replace(slots=slots, coins=side.coins - 1,
                             discard=side.discard | ({discarded} if discarded else set()))
        c.note(f"{p} draws a Coin card" + (f"; {discarded} in slot 4 is discarded" if discarded else "")
               + f"; {side.coins} Coin cards left")
    else:
        k = side.slots.index(card)
        slots = (None,) + side.slots[:k] + side.slots[k + 1:]
        side = side._replace(slots=slots)
        c.note(f"{p} draws {card} ({_tname(s, s.data.territory_of_card[card])}, "
               f"{plural(W.card_resources(s.world, card), 'resource')}) from slot {k + 1}")
    pending = "reveal" if side.draw or side.discard else None
    if pending is None:
        c.note("The Territory deck and its discard pile are empty: slot 1 stays empty")
    s = replace(s, terr=terr, players=players, side=side,
                flow=f._replace(drew=True, step=END, pending=pending))
    if card == COIN and side.coins == 0 and not side.coin_star_given:
        s = _coin_deck_out(s, c)
    return s


def _coin_deck_out(s: State, c: _Ctx) -> State:
    """The first time the Coin deck runs out: a Red Star token for the player with the most
    territories, no one on a tie (RL-COIN-DEPLETED)."""
    s = replace(s, side=s.side._replace(coin_star_given=True))
    counts = {p: len(territories_of(s, p)) for p in s.active_players}
    top = max(counts.values())
    leaders = [p for p, n in counts.items() if n == top]
    if len(leaders) != 1:
        c.note(f"The Coin deck has run out: {', '.join(leaders)} tie with {plural(top, 'territory', 'territories')}, no Red Star is given")
        return s
    p = leaders[0]
    players = dict(s.players)
    players[p] = players[p]._replace(tokens=players[p].tokens + 1)
    c.note(f"The Coin deck has run out: {p} controls the most territories ({top}) and takes a Red Star token")
    return _check_win(replace(s, players=players), c)


def _card_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.pending != "reveal":
        return c.skip("RL-SIDEBOARD-SHIFT", "slot 1 is filled after a card is drawn; no card is to be revealed now")
    card = s.data.resolve_card(e.payload.card)
    side = s.side
    if card is None or card == COIN:
        return c.skip("RL-NAME", f"no Territory card {e.payload.card!r}")
    pool = reveal_pool(s)
    if not side.draw:
        side = side._replace(draw=side.discard, discard=frozenset())
        c.note("The Territory deck is empty: the discard pile is shuffled into a new deck")
    if card not in side.draw:
        where = ("face up" if card in side.slots else "in the discard pile" if card in side.discard
                 else "in a hand or destroyed")
        return c.skip("RL-SIDEBOARD-SHIFT", f"{card} is not in the Territory deck ({where})")
    s = _check_draw(s, pool, 1, [card], e.payload.dice, "the card revealed into slot 1", c)
    res = W.card_resources(s.world, card)
    side = side._replace(slots=(card,) + side.slots[1:], draw=side.draw - {card})
    c.note(f"Slot 1: {card} ({_tname(s, s.data.territory_of_card[card])}, {res} resource{'s' if res > 1 else ''})")
    pending = None
    if res % 2 == 0 and side.events_left > 0:
        pending = "event"
        c.note("An even number of resources in slot 1: an Event card is drawn")
    return replace(s, side=side, flow=s.flow._replace(pending=pending))


def _event_card_drawn(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.pending != "event":
        return c.skip("RL-EVENT-TRIGGER", "an Event card is drawn only when the card newly revealed in slot 1 "
                      "has an even number of resources (and Event cards are in play)")
    pay = e.payload
    terr = dict(s.terr)
    players = dict(s.players)
    done = []
    for eff in pay.effects:
        if eff.kind == "troops":
            t = s.data.resolve(eff.territory) if eff.territory else None
            if t is None:
                return c.skip("RL-NAME", f"an Event effect on troops names territory {eff.territory!r}")
            x = terr[t]
            n = max(0, x.troops + eff.delta)
            terr[t] = x._replace(troops=n, owner=x.owner if n else None)
            done.append(f"{_signed(eff.delta, 'troops')} in {_tname(s, t)}")
        else:
            if eff.player not in players:
                return c.skip("RL-NAME", f"an Event effect names player {eff.player!r}")
            ps = players[eff.player]
            if eff.kind == "red_stars":
                players[eff.player] = ps._replace(tokens=max(0, ps.tokens + eff.delta))
            else:
                players[eff.player] = ps._replace(missiles=max(0, ps.missiles + eff.delta))
            done.append(f"{eff.player} {_signed(eff.delta, eff.kind.replace('_', ' '))}")
    s = _check_blind_draw(s, s.side.events_left, pay.dice, f"the Event card {pay.card}", c)
    left = s.side.events_left - 1 + (1 if pay.placed == "deck" else 0)
    c.note(f"Event {pay.card}" + (f" — {pay.text}" if pay.text else "")
           + (f"; claimed effects, applied as recorded: {'; '.join(done)}" if done else "")
           + f"; the card goes to the {pay.placed.replace('_', ' ')}")
    s = replace(s, terr=terr, players=players, side=s.side._replace(events_left=left),
                flow=s.flow._replace(pending=None))
    return _check_win(s, c)


def _mission_completed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    side = s.side
    f = s.flow
    p = e.actor
    if side.mission is None:
        return c.skip("RL-MISSION", "there is no face-up mission")
    if f.mission_done:
        return c.skip("RL-MISSION", f"{p} has already completed a mission this turn")
    if f.drew:
        c.bad("RL-MISSION", f"{p} drew a Resource card this turn and cannot also complete a mission")
    card, reward = side.mission
    if e.payload.reward is not None and e.payload.reward != reward:
        c.claim("RL-CLAIM", f"{p} claims {e.payload.reward} Red Stars for {card}; it gives {reward}")
    players = dict(s.players)
    players[p] = players[p]._replace(tokens=players[p].tokens + reward)
    c.note(f"{p} completes the mission {card} (a claim) and takes {reward} Red Star token{'s' if reward > 1 else ''}")
    pending = "mission" if side.missions_left > 0 else None
    s = replace(s, players=players, side=side._replace(mission=None),
                flow=f._replace(mission_done=True, step=END, pending=pending))
    return _check_win(s, c)


def _turn_ended(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if not acting(f, e.actor, c, "turn", "RL-FLOW", "no turn is being played (now: {phase})",
                  "RL-TURN-ORDER", "it is {current}'s turn, not {actor}'s"):
        return None
    if s.combat is not None or f.pending is not None:
        return c.skip("RL-TURN-END", "the turn cannot end while "
                      + (f"the attack on {_tname(s, s.combat.to)} is unfinished" if s.combat else f"the {f.pending} is owed"))
    if not f.recruited and not f.warned:
        if territories_of(s, e.actor):
            c.bad("RL-RECRUIT-MUST", f"{e.actor} ends the turn without recruiting")
        else:
            c.bad("RL-JOIN-WAR", f"{e.actor} controls no territory and ends the turn without joining the war")
    return _next_turn(s, c)


def _signed(delta: int, nouns: str) -> str:
    """'+1 missile', '-2 red stars': a change and its noun (`nouns` the plural), agreeing."""
    return f"{delta:+d} {nouns[:-1] if abs(delta) == 1 else nouns}"
