"""Risk Europe, "The King's Orders Cards" (p.10-12) and "Collecting and Spending Coins" (p.12, 14):
the two cards committed for a round and revealed turn by turn (a Mercenary Army's card flipped),
then the order played: Expand and Split Expand (p.10-11), Maneuver (p.11-12), Tax (p.12), Spend
(p.14).
"""

from __future__ import annotations

from engine.core.commit import matches_commitment
from engine.core.events import Event
from engine.core.judging import acting
from engine.core.text import plural
from engine.risk_europe.board import Territory
from engine.risk_europe.state import NO_UNITS, PlayerId, State, Terr, Units, evolve as replace
from engine.risk_europe.common import (
    _check_draw, COST, _Ctx, has_tile, _name, reserve, _resolve, supply_line, TAX_TILE_UNITS, tax_value,
    tile_territory, _units,
)
from engine.risk_europe.setup import _after_commits
from engine.risk_europe.tables import TABLES


def _cards_committed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase != "commit":
        return c.skip("RE-FLOW", f"cards are committed at the start of a round (now: {f.phase})")
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    ps = s.players[e.actor]
    if ps.eliminated:
        return c.skip("RE-ACTOR", f"{e.actor} has been eliminated")
    if s.is_mercenary(e.actor):
        return c.skip("RE-MERC-DECK", f"{e.actor} is a Mercenary Army: it commits no cards, the top card "
                      "of its deck is flipped on each of its turns")
    if ps.committed:
        return c.skip("RE-CARDS-COMMIT", f"{e.actor} has already committed two cards this round")
    p = e.payload
    stack: tuple[str, ...] = ()
    if p.cards is not None:
        for card in p.cards:
            if card not in s.data.cards:
                return c.skip("RE-NAME", f"no King's Orders card {card!r} (cards: {', '.join(s.data.cards)})")
        if p.cards[0] == p.cards[1]:
            c.bad("RE-CARDS-COMMIT", f"{e.actor} commits the same card {p.cards[0]!r} twice")
        for card in p.cards:
            if card not in ps.hand:
                c.bad("RE-CARDS-HAND", f"{e.actor} commits {card!r}, which is not in hand (already played "
                      "since the last refill)")
        stack = tuple(p.cards)
    players = dict(s.players)
    players[e.actor] = ps._replace(stack=stack, commitments=tuple(p.commitments or ()), committed=True)
    s = replace(s, players=players)
    if all(players[q].committed for q in f.order if not s.is_mercenary(q)):
        return _after_commits(s, c)
    return s


def _card_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if not acting(f, e.actor, c, "turn", "RE-FLOW", "cards are revealed during the turns of a round (now: {phase})",
                  "RE-TURN-ORDER", "it is {current}'s turn {turn}, not {actor}'s"):
        return None
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    if f.card is not None:
        return c.skip("RE-CARDS-REVEAL", f"{e.actor} has already revealed {f.card!r} this turn")
    card = e.payload.card
    info = s.data.cards.get(card)
    if info is None:
        return c.skip("RE-NAME", f"no King's Orders card {card!r}")
    if s.is_mercenary(e.actor):
        return _merc_card_flipped(s, e, c)
    if e.payload.dice is not None:
        c.bad("RE-CHANCE-DRAW", f"{e.actor} chose the card for turn {f.turn}; only a Mercenary Army's "
              "card is drawn with dice")
    ps = s.players[e.actor]
    slot = f.turn - 1
    if ps.stack:
        if ps.stack[slot] != card:
            c.bad("RE-CARDS-REVEAL", f"{e.actor} reveals {card!r} on turn {f.turn} but committed "
                  f"{ps.stack[slot]!r} for it")
    elif ps.commitments:
        if not matches_commitment(ps.commitments[slot], card, e.payload.salt):
            c.bad("RE-CARDS-REVEAL", f"{e.actor} reveals {card!r} (salt {e.payload.salt!r}) on turn "
                  f"{f.turn}, which does not match the card committed for it")
    if card not in ps.hand:
        if card in ps.revealed:
            c.bad("RE-CARDS-HAND", f"{e.actor} plays {card!r} twice in round {f.round}")
        else:
            c.bad("RE-CARDS-HAND", f"{e.actor} plays {card!r}, which is not in hand: it was already "
                  f"played since the hand was last refilled")
    players = dict(s.players)
    players[e.actor] = ps._replace(hand=ps.hand - {card}, revealed=ps.revealed + (card,))
    extra = f" (bonus: {info.bonus.replace('_', ' ')})" if info.bonus else ""
    c.note(f"{e.actor} reveals {card}: {info.orders[0].replace('_', ' ')} or {info.orders[1].replace('_', ' ')}{extra}")
    if info.bonus != "king_me":
        return replace(s, players=players, flow=f._replace(card=card))
    c.note(f"King Me: {e.actor} takes the First Player Marker"
           + (f" from {s.marker}" if s.marker and s.marker != e.actor else ""))
    pending = f.pending
    if s.missions and s.crown_cards_left > 0:
        n = min(2, s.crown_cards_left)
        c.note(f"Kingdom Missions: {e.actor} draws the top {n} Crown Card{'s' if n > 1 else ''} and "
               "keeps one face down")
        pending = ("mission", e.actor, n)
    return replace(s, players=players, marker=e.actor,
                   flow=f._replace(card=card, bonus_used=True, pending=pending))


def mercenary_pool(s: State, army: PlayerId) -> tuple[str, ...]:
    """The cards a Mercenary Army's next flip is drawn from, in the deck file's order: those
    still in its deck, or the whole deck reshuffled when it has run out (RE-MERC-DECK)."""
    hand = s.players[army].hand
    return tuple(cid for cid in s.data.cards if cid in hand) or tuple(s.data.cards)


def _merc_card_flipped(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MERC-DECK: the top card of the Mercenary deck, flipped by the army's controller."""
    f = s.flow
    army = e.actor
    assert army is not None             # _card_revealed: the army whose turn it is
    card = e.payload.card
    ps = s.players[army]
    pool = mercenary_pool(s, army)
    if not ps.hand:
        c.note(f"The Mercenary deck of {army} has run out: it is reshuffled")
    if card not in pool:
        c.bad("RE-MERC-DECK", f"{card!r} is not in {army}'s Mercenary deck, which holds "
              f"{', '.join(pool)} (the others were flipped since it was last shuffled)")
    s = _check_draw(s, list(pool), 1, [card], e.payload.dice, f"the card flipped for {army}", c)
    info = s.data.cards[card]
    players = dict(s.players)
    players[army] = ps._replace(hand=frozenset(pool) - {card}, revealed=ps.revealed + (card,))
    s = replace(s, players=players, flow=f._replace(card=card))
    extra = f" (bonus: {info.bonus.replace('_', ' ')})" if info.bonus else ""
    by = f" (played by {ps.controller})" if ps.controller else ""
    c.note(f"Mercenary Army {army}{by} flips {card}: {info.orders[0].replace('_', ' ')} or "
           f"{info.orders[1].replace('_', ' ')}{extra}")
    if info.bonus == "king_me":
        c.note(f"King Me on a Mercenary card: the First Player Marker stays with {s.marker} "
               "(RE-RULING-MERC-KING-ME)")
        s = replace(s, flow=s.flow._replace(bonus_used=True))
    return s


def _turn_precheck(s: State, e: Event, c: _Ctx) -> bool:
    f = s.flow
    if not acting(f, e.actor, c, "turn", "RE-FLOW", "orders are given during the turns of a round (now: {phase})",
                  "RE-TURN-ORDER", "it is {current}'s turn {turn}, not {actor}'s"):
        return False
    if f.card is None:
        c.skip("RE-FLOW", f"{e.actor} must reveal a card before acting on turn {f.turn}")
        return False
    if f.pending is not None and f.pending[0] == "mission":
        c.skip("RE-MISSION-DRAW", f"{f.pending[1]} must first keep one of the Crown Cards drawn with King Me (MissionKept)")
        return False
    if f.pending is not None:
        c.skip("RE-FLOW", f"the siege assault on {f.pending[2] if f.pending[0] == 'siege_dice' else f.pending[1]} "
               f"must be resolved first ({'dice' if f.pending[0] == 'siege_dice' else 'casualties'})")
        return False
    return True


def _order_precheck(s: State, e: Event, c: _Ctx, order: str) -> bool:
    if not _turn_precheck(s, e, c):
        return False
    f = s.flow
    if f.order_done is not None:
        c.skip("RE-ORDER-ON-CARD", f"{e.actor} has already played an order ({f.order_done.replace('_', ' ')}) "
               "this turn; one order per card")
        return False
    assert f.card is not None           # _turn_precheck: a card is revealed
    card = s.data.cards[f.card]
    if order not in card.orders:
        c.bad("RE-ORDER-ON-CARD", f"{order.replace('_', ' ')} is not an order on {f.card!r} "
              f"({' / '.join(o.replace('_', ' ') for o in card.orders)})")
    return True


def _enter(s: State, terr: dict, players: dict, t: Territory, p: PlayerId, units: Units, c: _Ctx) -> None:
    """Units of `p` enter `t` by expanding: claim it, attack it, or reinforce (as recorded)."""
    x = terr[t]
    if x.owner is None:
        terr[t] = Terr(owner=p, units=units, castle=x.castle, since=s.step)
        city = s.data.cities.get(t)
        if city is not None:
            ps = players[p]
            players[p] = ps._replace(coins=ps.coins + city.tax)
            tile = " and its City Bonus Tile" if city.gold else ""
            c.note(f"{p} claims {city.name} ({t}): a crown{tile}, +{city.tax} coins")
        else:
            c.note(f"{p} claims {t}" + (" and its empty castle" if x.castle else ""))
    elif x.owner == p:
        terr[t] = x._replace(units=x.units + units)
    elif x.attacker == p:
        terr[t] = x._replace(attacker_units=x.attacker_units + units)
    else:
        terr[t] = x._replace(attacker=p, attacker_units=units)
        c.note(f"{p} attacks {x.owner} in {t} with {units.describe()}: {t} is disputed")


def _expansion(s: State, e: Event, c: _Ctx, frm_name: str, moves: list[tuple[str, Units]],
               split: bool) -> State | None:
    actor = e.actor
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    frm = _resolve(s, frm_name, c)
    if frm is None:
        return None
    src = s.terr[frm]
    if src.attacker == actor:
        return c.skip("RE-EXPAND-FROM", f"{actor} attacks {frm}; only the defending player may expand "
                      "out of a disputed territory")
    if src.owner != actor:
        return c.skip("RE-EXPAND-FROM", f"{actor} does not control {frm} (held by {_name(s, src.owner)})")
    targets: list[tuple[Territory, Units]] = []
    for name, units in moves:
        t = _resolve(s, name, c)
        if t is None:
            return None
        targets.append((t, units))
    if split and len({t for t, _ in targets}) != len(targets):
        c.bad("RE-SPLIT-TARGETS", f"a split expand goes into two DIFFERENT territories; got {[t for t, _ in targets]!r}")
    moving = NO_UNITS
    for _, u in targets:
        moving = moving + u
    if not src.units.covers(moving):
        return c.skip("RE-EXPAND-UNITS", f"{actor} moves {moving.describe()} out of {frm}, which holds "
                      f"{src.units.describe()}")
    left = src.units.minus(moving)
    if moving.total and left.total < 1:
        c.bad("RE-EXPAND-LEAVE", f"{actor} empties {frm}; at least one unit must stay behind")
    if src.is_disputed and left.total < src.attacker_units.total:
        c.bad("RE-EXPAND-DEFENDER-LEAVE", f"{actor} leaves {plural(left.total, 'unit')} in disputed {frm}; the "
              f"defender must leave as many as the attacker has there ({src.attacker_units.total})")
    for t, u in targets:
        x = s.terr[t]
        if s.is_teammate(actor, x.owner) or s.is_teammate(actor, x.attacker):
            return c.skip("RE-TEAM-TERRITORY", f"{t} is held by {actor}'s teammate "
                          f"{x.owner if s.is_teammate(actor, x.owner) else x.attacker}; a player never "
                          "expands into a teammate's territory nor joins a teammate's battle")
        if t not in s.data.neighbours[frm]:
            c.bad("RE-EXPAND-ADJACENT", f"{t} is not adjacent to {frm}")
        if x.is_disputed and actor not in (x.owner, x.attacker):
            return c.skip("RE-EXPAND-TARGET", f"{t} is already disputed between {x.owner} and {x.attacker}; "
                          "a third player's army may not enter it")
        if x.is_disputed:
            c.bad("RE-EXPAND-TARGET", f"{t} is already in dispute; units are moved into it with a "
                  "maneuver order, not an expand")
        elif x.owner == actor:
            c.bad("RE-EXPAND-TARGET", f"{actor} already controls {t}; use a maneuver order to move there")
        if x.castle and x.owner not in (None, actor) and u.total and u.siege < 1:
            c.bad("RE-EXPAND-CASTLE", f"{t} holds {x.owner}'s castle; the expanding army "
                  f"({u.describe()}) has no Siege Weapon")
    terr = dict(s.terr)
    players = dict(s.players)
    terr[frm] = src._replace(units=left)
    if left.total == 0 and not src.is_disputed:
        terr[frm] = Terr(castle=src.castle, since=s.step)
    if moving.total == 0:
        c.note(f"{actor} expands with no units (nothing moves)")
    for t, u in targets:
        if u.total:
            c.note(f"{actor} expands {u.describe()} from {frm} into {t}")
            _enter(s, terr, players, t, actor, u, c)
    order = "split_expand" if split else "expand"
    return replace(s, terr=terr, players=players, flow=s.flow._replace(order_done=order))


def _expanded(s: State, e: Event, c: _Ctx) -> State | None:
    if not _order_precheck(s, e, c, "expand"):
        return None
    p = e.payload
    return _expansion(s, e, c, p.from_, [(p.to, _units(p.units))], split=False)


def _split_expanded(s: State, e: Event, c: _Ctx) -> State | None:
    if not _order_precheck(s, e, c, "split_expand"):
        return None
    p = e.payload
    return _expansion(s, e, c, p.from_, [(m.to, _units(m.units)) for m in p.moves], split=True)


def _maneuver_route_ok(s: State, p: PlayerId, frm: Territory, to: Territory,
                       path: list[Territory] | None) -> bool:
    nb = s.data.neighbours

    def passable(m: Territory) -> bool:
        x = s.terr[m]
        return x.owner == p and not x.is_disputed

    if path is not None:
        hops = [frm, *path, to]
        if len(path) > 1:
            return False
        return all(b in nb[a] for a, b in zip(hops, hops[1:])) and all(passable(m) for m in path)
    if to in nb[frm]:
        return True
    return any(passable(m) and to in nb[m] for m in nb[frm])


def _maneuvered(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    actor = e.actor
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    berlin = (f.phase == "turn" and e.actor == f.current and f.order_done in ("expand", "split_expand")
              and not f.berlin_used and f.pending is None)
    if berlin:
        if not _turn_precheck(s, e, c):
            return None
        if not has_tile(s, actor, "Berlin"):
            assert f.order_done is not None     # berlin: after an expand or split expand
            return c.skip("RE-ORDER-ON-CARD", f"{actor} has already played an order ({f.order_done.replace('_', ' ')}) "
                          "this turn; a free maneuver after an expand needs the Berlin tile (RE-TILE-BERLIN)")
    elif not _order_precheck(s, e, c, "maneuver"):
        return None
    p = e.payload
    frm = _resolve(s, p.from_, c)
    to = _resolve(s, p.to, c)
    if frm is None or to is None:
        return None
    path: list[Territory] | None = None
    if p.path is not None:
        path = []
        for name in p.path:
            m = _resolve(s, name, c)
            if m is None:
                return None
            path.append(m)
    src, dst = s.terr[frm], s.terr[to]
    units = _units(p.units)
    if src.attacker == actor:
        return c.skip("RE-MANEUVER-FROM", f"{actor}'s units in {frm} are committed to battle; no unit "
                      "may maneuver out of a disputed territory")
    if src.owner != actor:
        return c.skip("RE-MANEUVER-FROM", f"{actor} does not control {frm} (held by {_name(s, src.owner)})")
    if src.is_disputed:
        c.bad("RE-MANEUVER-FROM", f"{frm} is in dispute; no unit may maneuver out of a disputed territory")
    if to == frm:
        return c.skip("RE-MANEUVER-TO", f"a maneuver moves units to another territory; {frm} to {to}")
    if not (dst.owner == actor or dst.attacker == actor):
        return c.skip("RE-MANEUVER-TO", f"{to} is not {actor}'s territory nor a battle {actor} fights in "
                      f"(held by {_name(s, dst.owner)}); moving there is an expand")
    if not src.units.covers(units):
        return c.skip("RE-EXPAND-UNITS", f"{actor} moves {units.describe()} out of {frm}, which holds "
                      f"{src.units.describe()}")
    left = src.units.minus(units)
    if (frm in s.data.cities or src.castle) and units.total and left.total < 1:
        c.bad("RE-MANEUVER-LEAVE", f"{actor} empties {'city' if frm in s.data.cities else 'castle'} "
              f"territory {frm}; one unit must stay behind")
    if not _maneuver_route_ok(s, actor, frm, to, path):
        via = f" via {' and '.join(path)}" if path else ""
        c.bad("RE-MANEUVER-PATH", f"{to} is not within two territories of {frm}{via} through "
              f"territories {actor} controls (units stop on entering a dispute)")
    terr = dict(s.terr)
    emptied = left.total == 0 and not src.is_disputed     # the attacker stays in a dispute left empty
    terr[frm] = Terr(castle=src.castle, since=s.step) if emptied else src._replace(units=left)
    if dst.owner == actor:
        terr[to] = dst._replace(units=dst.units + units)
    else:
        terr[to] = dst._replace(attacker_units=dst.attacker_units + units)
    label = "free maneuver (Berlin: Advanced Mobility)" if berlin else "maneuvers"
    c.note(f"{actor} {label}: {units.describe()} from {frm} to {to}")
    nf = f._replace(berlin_used=True, bonus_used=True) if berlin else f._replace(order_done="maneuver")
    return replace(s, terr=terr, flow=nf)


def _capped(units: Units, room: Units) -> Units:
    return Units(*(max(0, min(a, b)) for a, b in zip(units, room)))


def _taxed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _order_precheck(s, e, c, "tax"):
        return None
    actor = e.actor
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    city = _resolve(s, e.payload.city, c, "city")
    if city is None:
        return None
    if city not in s.data.cities:
        return c.skip("RE-TAX-CITY", f"{city} has no city; tax is levied from a city territory")
    x = s.terr[city]
    if x.owner != actor:
        return c.skip("RE-TAX-CITY", f"{actor} does not control {s.data.cities[city].name} ({city}); "
                      f"it is held by {_name(s, x.owner)}")
    coins, line = tax_value(s, actor, city)
    terr = dict(s.terr)
    players = dict(s.players)
    ps = players[actor]
    players[actor] = ps._replace(coins=ps.coins + coins)
    if x.is_disputed:
        c.note(f"{actor} taxes from {s.data.cities[city].name}, which is disputed: nothing is collected")
    else:
        # the taxing city, then the others by name (the supply line's order follows set iteration)
        cities = [s.data.cities[city].name] + sorted(s.data.cities[t].name for t in line
                                                     if t in s.data.cities and t != city)
        c.note(f"{actor} taxes from {s.data.cities[city].name}: {plural(coins, 'coin')} from {plural(len(line), 'territory', 'territories')} "
               f"({', '.join(cities)} and {len(line) - len(cities)} non-city)")
        room = reserve(s, actor)
        for name, bonus in TAX_TILE_UNITS.items():
            t = tile_territory(s, name)
            if t is not None and t in line and has_tile(s, actor, name):
                add = _capped(bonus, room)
                room = room.minus(add)
                terr[t] = terr[t]._replace(units=terr[t].units + add)
                c.note(f"{name} tile: {add.describe()} join {t} for free")
    if e.payload.coins is not None and e.payload.coins != coins:
        c.claim("RE-CLAIM", f"{actor} claims {plural(e.payload.coins, 'coin')} of tax from {s.data.cities[city].name}; "
                f"the rules give {coins}")
    return replace(s, terr=terr, players=players, flow=s.flow._replace(order_done="tax"))


def crown_card_ban(s: State, p: PlayerId) -> tuple[str, str] | None:
    """Why `p` may not buy Crown Cards in this game, as (rule id, reason); None when they may."""
    v = s.variant_rules
    if not v.crown_cards:
        return ("RE-TEAM-NO-CROWNS", f"{v.name} sets the War Banners and Crown Cards aside")
    if s.missions:
        return ("RE-MISSION-NO-PURCHASE", "with Kingdom Missions a Crown Card is earned by completing its "
                "mission, never bought")
    if s.is_mercenary(p):
        return ("RE-MERC-CROWNS", f"{p} is a Mercenary Army: its crowns are not tracked and it buys no Crown Cards")
    return None


def _kiev_ok(s: State, p: PlayerId, t: Territory) -> bool:
    if not has_tile(s, p, "Kiev"):
        return False
    kiev = tile_territory(s, "Kiev")
    return kiev is not None and t in supply_line(s, p, kiev)


def _spent(s: State, e: Event, c: _Ctx) -> State | None:
    if not _order_precheck(s, e, c, "spend"):
        return None
    actor = e.actor
    assert actor is not None            # a player's event: engine.step admits it only with an actor
    terr = dict(s.terr)
    ps = s.players[actor]
    room = reserve(s, actor)
    total = 0
    castles_left = s.castles_left
    cards_left = s.crown_cards_left
    crown_cards = ps.crown_cards
    bought_card_round = ps.crown_card_round
    bought: list[str] = []
    for item in e.payload.purchases:
        kind, n = item.item, item.count
        if kind == "crown_card":
            if item.territory is not None:
                c.bad("RE-SPEND-CROWN-CARD", "a Crown Card is not placed on a territory")
            ban = crown_card_ban(s, actor)
            if ban is not None:
                return c.skip(*ban)
            if n > 1 or bought_card_round == s.flow.round:
                c.bad("RE-SPEND-CROWN-CARD", f"{actor} buys a second Crown Card in round {s.flow.round}; "
                      "one per player per round")
            if cards_left < n:
                return c.skip("RE-SPEND-CROWN-CARD", f"only {cards_left} Crown Cards are left")
            cards_left -= n
            crown_cards += n
            bought_card_round = s.flow.round
            total += COST["crown_card"] * n
            bought.append(f"{n} Crown Card{'s' if n > 1 else ''}")
            continue
        if item.territory is None:
            return c.skip("RE-SPEND-PLACE", f"{kind} needs a territory to be placed in")
        t = _resolve(s, item.territory, c)
        if t is None:
            return None
        x = terr[t]
        if x.owner != actor:
            return c.skip("RE-SPEND-PLACE", f"{actor} does not control {t} (held by {_name(s, x.owner)})")
        if kind == "castle":
            if n > 1 or x.castle:
                return c.skip("RE-SPEND-CASTLE", f"{t} already has a castle; one castle per territory")
            if castles_left < 1:
                return c.skip("RE-SPEND-CASTLE", "all eight castles are on the board")
            if x.is_disputed:
                c.bad("RE-SPEND-CASTLE", f"{t} is in dispute; no castle can be built there")
            price = COST["castle"] - (TABLES.berlin_castle_discount if has_tile(s, actor, "Berlin") else 0)
            total += price
            castles_left -= 1
            terr[t] = x._replace(castle=True)
            bought.append(f"a castle in {t} ({price})")
            if price < COST["castle"]:
                c.note(f"Berlin tile: the castle in {t} costs {plural(price, 'coin')} instead of {COST['castle']}")
            continue
        if x.is_disputed:
            c.bad("RE-SPEND-PLACE", f"{t} is in dispute; recruits cannot be placed there")
        elif not (t in s.data.cities or x.castle):
            if _kiev_ok(s, actor, t):
                c.note(f"Kiev tile: {actor} recruits in {t}, connected to Kiev by a supply line")
            else:
                c.bad("RE-SPEND-PLACE", f"{t} is neither a city nor a castle territory"
                      + (" connected to Kiev" if has_tile(s, actor, "Kiev") else ""))
        u = Units(**{kind: n})
        if not room.covers(u):
            return c.skip("RE-SPEND-RESERVE", f"{actor} recruits {u.describe()} but the army reserve "
                          f"holds {getattr(room, kind)}")
        room = room.minus(u)
        total += COST[kind] * n
        add = u
        if kind == "siege" and has_tile(s, actor, "Constantinople"):
            escort = _capped(Units(footman=TABLES.constantinople_footmen * n), room)
            room = room.minus(escort)
            add = add + escort
            if escort.total:
                c.note(f"Constantinople tile: {escort.footman} Footmen escort the Siege Weapon{'s' if n > 1 else ''} for free")
        terr[t] = terr[t]._replace(units=terr[t].units + add)
        bought.append(f"{u.describe()} in {t}")
    if total > ps.coins:
        return c.skip("RE-SPEND-COST", f"{actor} spends {plural(total, 'coin')} but holds {ps.coins}")
    if e.payload.coins is not None and e.payload.coins != total:
        c.claim("RE-CLAIM", f"{actor} claims to pay {plural(e.payload.coins, 'coin')}; the purchases cost {total}")
    players = dict(s.players)
    players[actor] = ps._replace(coins=ps.coins - total, crown_cards=crown_cards,
                                 crown_card_round=bought_card_round)
    c.note(f"{actor} spends {plural(total, 'coin')}: " + ("; ".join(bought) if bought else "nothing"))
    return replace(s, terr=terr, players=players, castles_left=castles_left, crown_cards_left=cards_left,
                   flow=s.flow._replace(order_done="spend"))
