"""Risk Europe, "Game Setup" (p.6) and "Steps for Kingdom Placement" (p.7): the start of a log,
the bid for the First Player Marker and its roll-off, the kingdoms (placement or city draft), and
the Mercenary Armies of the 2- and 3-player variants ("Mercenaries", p.20-21): their City Bonus
Tiles drawn at setup and the bids for their control each round.
"""

from __future__ import annotations

from engine.core.commit import matches_commitment
from engine.core.dice import DiceState
from engine.core.events import Event
from engine.core.judging import acting, roll_off
from engine.core.rules import Violation
from engine.core.text import plural
from engine.risk_europe.board import GameData, Territory
from engine.risk_europe.state import Flow, Player, PlayerId, State, Terr, Units, evolve as replace
from engine.risk_europe.variants import VariantError, parse_variant, seat_armies
from engine.risk_europe.common import _check_draw, _Ctx, _resolve, _roll, _rotate, V
from engine.risk_europe.rounds import _start_round, _start_turns
from engine.risk_europe.tables import TABLES


def check_start(payload, data: GameData) -> list[Violation]:
    """Violations of the game's first event (variant, players, Mercenary Armies, declared data)."""
    out: list[Violation] = []
    ids = [p.id for p in payload.players]
    mercs = [m.id for m in payload.mercenaries]
    try:
        v = parse_variant(payload.variant)
    except VariantError as exc:
        out.append(V("RE-START-VARIANT", str(exc)))
    else:
        if len(ids) != v.players:
            what = "the basic game" if v.name.split("+")[0] == "basic" else v.name
            out.append(V("RE-START-PLAYERS", f"{what} has {v.players} players, the log names {len(ids)}: {ids!r}"))
        if len(mercs) != v.mercenaries:
            out.append(V("RE-START-PLAYERS", f"{v.name} has {v.mercenaries} Mercenary Arm"
                         f"{'y' if v.mercenaries == 1 else 'ies'}, the log names {len(mercs)}: {mercs!r}"))
    if len(set(ids + mercs)) != len(ids + mercs):
        out.append(V("RE-START-PLAYERS", f"player ids must be distinct: {ids + mercs!r}"))
    if payload.data is not None:
        if payload.data.board and payload.data.board != data.board_digest:
            out.append(V("RE-START-DATA", f"the log was recorded with board {payload.data.board[:12]}..., "
                         f"this judge uses board {data.board_digest[:12]}... (load the matching board file)",
                         blocking=False))
        if payload.data.cards and payload.data.cards != data.cards_digest:
            out.append(V("RE-START-DATA", f"the log was recorded with cards {payload.data.cards[:12]}..., "
                         f"this judge uses cards {data.cards_digest[:12]}...", blocking=False))
        if payload.data.missions and data.missions is not None and payload.data.missions != data.missions.digest:
            out.append(V("RE-START-DATA", f"the log was recorded with missions {payload.data.missions[:12]}..., "
                         f"this judge uses missions {data.missions.digest[:12]}...", blocking=False))
    return out


def initial_state(payload, data: GameData) -> State:
    """The state before the first bid: five coins, a full hand, an empty board; with Mercenary
    Armies, their City Bonus Tiles are drawn first."""
    players = tuple(p.id for p in payload.players)
    mercs = tuple(m.id for m in payload.mercenaries)
    seats = players + mercs
    hand = frozenset(data.cards)
    names = {p.id: (p.name or p.id) for p in [*payload.players, *payload.mercenaries]}
    return State(
        data=data,
        variant=payload.variant,
        seats=seats,
        names=names,
        dice=DiceState(payload.dice.mode, payload.dice.seed_hash),
        players={p: Player(coins=TABLES.starting_coins, hand=hand) for p in seats},
        terr={t: Terr() for t in data.territories},
        marker=None,
        castles_left=data.castles,
        crown_cards_left=data.crown_cards,
        flow=Flow(phase="tiles", order=mercs) if mercs else Flow(phase="bidding"),
        battle=None,
        fought=(),
        last_battle=None,
        result=None,
        step=0,
        notes=(),
        mercenaries=mercs,
    )


# The two kinds of bid share their events and their flow; their rules differ.
_BID_RULES = {
    None: {"amount": "RE-BID-AMOUNT", "once": "RE-BID-ONCE", "reveal": "RE-BID-REVEAL"},
    "merc": {"amount": "RE-MERC-BID", "once": "RE-MERC-BID", "reveal": "RE-BID-REVEAL"},
}

_BID_PHASES = ("bidding", "control")


def _bid_kind(s: State) -> str | None:
    return "merc" if s.flow.phase == "control" else None


def _bid_checks(s: State, e: Event, c: _Ctx) -> bool:
    """Is a bid event at its place (the setup bid, or a bid for a Mercenary Army this round)?"""
    f = s.flow
    if f.phase not in _BID_PHASES:
        what = "bids for first player are over" if f.round == 0 else "no bid is open"
        c.skip("RE-FLOW", f"{what} (now: {f.phase})")
        return False
    if s.is_mercenary(e.actor):
        c.skip("RE-MERC-BID", f"{e.actor} is a Mercenary Army; only players bid")
        return False
    army = e.payload.army
    if army is not None and army != f.merc:
        rule = "RE-MERC-BID" if f.merc is not None else "RE-FLOW"
        want = f"for control of {f.merc}" if f.merc else "for the First Player Marker"
        c.skip(rule, f"{e.actor}'s bid is labelled for {army!r}; the bid now open is {want}")
        return False
    return True


def _bid_placed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bid_checks(s, e, c):
        return None
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    rules = _BID_RULES[_bid_kind(s)]
    ps = s.players[e.actor]
    if ps.bid is not None or ps.bid_commitment is not None:
        return c.skip(rules["once"], f"{e.actor} has already bid" + (f" for {s.flow.merc} this round" if s.flow.merc else ""))
    amount = e.payload.amount
    if amount is not None and amount > ps.coins:
        return c.skip(rules["amount"], f"{e.actor} bids {plural(amount, 'coin')} but holds {ps.coins}")
    players = dict(s.players)
    players[e.actor] = ps._replace(bid=amount, bid_commitment=e.payload.commitment)
    return _resolve_bids(replace(s, players=players), c)


def _bid_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bid_checks(s, e, c):
        return None
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    rules = _BID_RULES[_bid_kind(s)]
    ps = s.players[e.actor]
    if ps.bid_commitment is None or ps.bid is not None:
        return c.skip(rules["reveal"], f"{e.actor} has no hidden bid to reveal")
    amount = e.payload.amount
    if amount > ps.coins:
        return c.skip(rules["amount"], f"{e.actor} reveals a bid of {plural(amount, 'coin')} but holds {ps.coins}")
    if not matches_commitment(ps.bid_commitment, amount, e.payload.salt):
        c.bad(rules["reveal"], f"{e.actor} reveals {plural(amount, 'coin')} with salt {e.payload.salt!r}, which does "
              "not match the bid committed earlier")
    players = dict(s.players)
    players[e.actor] = ps._replace(bid=amount)
    return _resolve_bids(replace(s, players=players), c)


def bidders(s: State) -> tuple[PlayerId, ...]:
    """Who bids now: every player still in the game (never a Mercenary Army)."""
    return s.active_players


def _resolve_bids(s: State, c: _Ctx) -> State:
    bids: dict[PlayerId, int] = {}
    for p in bidders(s):
        bid = s.players[p].bid
        if bid is None:                 # not everyone has bid (or revealed) yet
            return s
        bids[p] = bid
    top = max(bids.values())
    tied = tuple(p for p in bids if bids[p] == top)
    merc = s.flow.merc
    c.note("Bids revealed" + (f" for control of the Mercenary Army {merc}" if merc else "") + ": "
           + ", ".join(f"{p} {b}" for p, b in bids.items()))
    if len(tied) == 1:
        return _award_bid(s, tied[0], c)
    c.note(f"Tied at {top}: {', '.join(tied)} roll off")
    return replace(s, flow=s.flow._replace(phase="rolloff", tied=tied))


def _award_bid(s: State, winner: PlayerId, c: _Ctx) -> State:
    return _award_control(s, winner, c) if s.flow.merc else _award_marker(s, winner, c)


def _award_marker(s: State, winner: PlayerId, c: _Ctx) -> State:
    """RE-BID-WINNER: the winner pays the reserve and takes the marker; the kingdoms (the city
    draft) are placed from them; the Mercenary decks take their seats (RE-MERC-SEAT)."""
    ps = s.players[winner]
    players = dict(s.players)
    players[winner] = ps._replace(coins=ps.coins - (ps.bid or 0))
    v = s.variant_rules
    seats = s.seats
    if s.mercenaries:
        placed_players = tuple(p for p in s.seats if not s.is_mercenary(p))
        seats = seat_armies(v, placed_players, s.mercenaries, winner)
        c.note("Seats, clockwise from the first player: " + ", ".join(
            f"{p} (Mercenary Army)" if s.is_mercenary(p) else p for p in seats))
    c.note(f"{winner} pays {ps.bid or 0} and takes the First Player Marker; kingdoms are placed from {winner}")
    draft = tuple(p for p in _rotate(seats, winner) if not s.is_mercenary(p))
    return replace(s, players=players, marker=winner, seats=seats,
                   flow=Flow(phase="placement", order=draft * len(v.draft_castles), index=0))


def _award_control(s: State, winner: PlayerId, c: _Ctx) -> State:
    """RE-MERC-BID-WINNER: the winner pays the Mercenary Army and plays its turns this round."""
    army = s.flow.merc
    assert army is not None             # _award_bid comes here for a Mercenary Army's bid
    ps = s.players[winner]
    paid = ps.bid or 0
    players = dict(s.players)
    players[winner] = ps._replace(coins=ps.coins - paid)
    merc = players[army]
    players[army] = merc._replace(coins=merc.coins + paid, controller=winner)
    c.note(f"{winner} pays {paid} coin{'s' if paid != 1 else ''} to the Mercenary Army {army} and "
           f"plays its turns in round {s.flow.round}")
    s = replace(s, players=players)
    queue = s.flow.queue
    if queue:
        return _open_control(s, queue[0], queue[1:])
    return _start_turns(s)


def _rolloff(s: State, e: Event, c: _Ctx) -> State | None:
    tied = s.flow.tied
    rule = "RE-MERC-BID-TIE" if s.flow.merc else "RE-BID-TIE"
    rolled = roll_off(s, e.payload.rolls, tied, c, rule, "RE-DICE-FACES",
                      "each tied player rolls one die", _roll)
    if rolled is None:
        return None
    s, best, _ = rolled
    if len(best) == 1:
        return _award_bid(s, best[0], c)
    return replace(s, flow=s.flow._replace(tied=best))


def _tiles_drawn(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MERC-SETUP: a Mercenary Army's random City Bonus Tiles, and its cities set up."""
    f = s.flow
    if f.phase != "tiles":
        return c.skip("RE-FLOW", f"City Bonus Tiles are drawn for the Mercenary Armies before the bids (now: {f.phase})")
    army = f.order[f.index]
    p = e.payload
    if p.army != army:
        return c.skip("RE-MERC-SETUP", f"the tiles drawn now are {army}'s (Mercenary Armies draw in the "
                      f"order GameStarted names them), not {p.army!r}'s")
    v = s.variant_rules
    cities: list[Territory] = []
    for name in p.tiles:
        t = _resolve(s, name, c, "city")
        if t is None:
            return None
        info = s.data.cities.get(t)
        if info is None or not info.gold:
            return c.skip("RE-MERC-SETUP", f"{name!r} is not a Gold Crown City; City Bonus Tiles are theirs")
        if s.terr[t].owner is not None or t in cities:
            return c.skip("RE-MERC-SETUP", f"the {info.name} tile is already drawn")
        cities.append(t)
    if len(cities) != v.merc_tiles:
        c.bad("RE-MERC-SETUP", f"a Mercenary Army of {v.name} draws {v.merc_tiles} City Bonus "
              f"Tile{'s' if v.merc_tiles > 1 else ''}; the log draws {len(cities)}")
    pool = [t for t in s.data.gold_cities if s.terr[t].owner is None]
    s = _check_draw(s, [s.data.cities[t].name for t in pool], len(cities),
                    [s.data.cities[t].name for t in cities], p.dice, f"{army}'s City Bonus Tiles", c)
    terr = dict(s.terr)
    castles = 0
    coins = 0
    for i, t in enumerate(cities):
        castle = v.merc_castles[min(i, len(v.merc_castles) - 1)]
        castles += castle
        coins += s.data.cities[t].tax
        terr[t] = Terr(owner=army, units=Units(footman=v.merc_footmen), castle=castle, since=0)
        role = "starting city" if i == 0 else "outpost"
        c.note(f"Mercenary Army {army} draws {s.data.cities[t].name} ({role}): a crown, "
               f"{v.merc_footmen} Mercenary Footmen{', a castle' if castle else ''}, +{s.data.cities[t].tax} coins")
    players = dict(s.players)
    players[army] = players[army]._replace(coins=players[army].coins + coins)
    s = replace(s, terr=terr, players=players, castles_left=s.castles_left - castles)
    if f.index + 1 < len(f.order):
        return replace(s, flow=f._replace(index=f.index + 1))
    return replace(s, flow=Flow(phase="bidding"))


def _after_commits(s: State, c: _Ctx) -> State:
    """Every player's cards are down: the bids for the Mercenary Armies (RE-MERC-BID), then the turns."""
    armies = s.active_mercenaries
    if not armies:
        return _start_turns(s)
    if len(armies) == 1:
        return _open_control(s, armies[0], ())
    c.note(f"{s.marker} chooses which Mercenary Army is bid for first")
    return replace(s, flow=s.flow._replace(phase="merc_order"))


def _open_control(s: State, army: PlayerId, queue: tuple[PlayerId, ...]) -> State:
    players = dict(s.players)
    for p in bidders(s):
        players[p] = players[p]._replace(bid=None, bid_commitment=None)
    return replace(s, players=players, flow=s.flow._replace(phase="control", merc=army, queue=queue, tied=()))


def _merc_bids_ordered(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MERC-BID-ORDER: the marker holder picks the order of the two bids (2 players)."""
    f = s.flow
    if f.phase != "merc_order":
        return c.skip("RE-FLOW", f"the order of the Mercenary bids is chosen once the cards are down and "
                      f"two Mercenary Armies are in the game (now: {f.phase})")
    if e.actor != s.marker:
        return c.skip("RE-MERC-BID-ORDER", f"{s.marker} holds the First Player Marker and chooses the "
                      f"order of the bids, not {e.actor}")
    armies = tuple(e.payload.armies)
    if sorted(armies) != sorted(s.active_mercenaries):
        return c.skip("RE-MERC-BID-ORDER", f"the bids are for {', '.join(s.active_mercenaries)}, each once; "
                      f"got {list(armies)!r}")
    c.note(f"{e.actor} has the Mercenary Armies bid for in this order: {', '.join(armies)}")
    return _open_control(s, armies[0], armies[1:])


def _kingdom_placed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if not acting(f, e.actor, c, "placement", "RE-FLOW", "kingdoms are placed after the bid for first player "
                  "(now: {phase})", "RE-ACTOR", "it is {current}'s turn to place a kingdom, not {actor}'s"):
        return None
    assert e.actor is not None          # a player's event: engine.step admits it only with an actor
    v = s.variant_rules
    draft_round = f.index // max(1, len(f.order) // len(v.draft_castles))
    castle = v.draft_castles[draft_round]
    p = e.payload
    city = _resolve(s, p.city, c, "city")
    if city is None:
        return None
    info = s.data.cities.get(city)
    if info is None or not info.gold:
        return c.skip("RE-PLACE-CITY", f"{p.city!r} is not a Gold Crown City")
    if s.terr[city].owner is not None:
        return c.skip("RE-PLACE-CITY", f"{info.name} is already {s.terr[city].owner}'s "
                      + ("Mercenary city" if s.is_mercenary(s.terr[city].owner) else "kingdom"))
    split: dict[Territory, int] = {}
    for name, n in p.footmen.items():
        t = _resolve(s, name, c)
        if t is None:
            return None
        split[t] = split.get(t, 0) + n
    total = sum(split.values())
    need = v.draft_footmen
    if total != need:
        what = "a kingdom starts with" if len(v.draft_castles) == 1 else f"each city of the {v.name} draft comes with"
        c.bad(v.placement_rule, f"{what} {need} Footmen; {e.actor} places {total}")
    if split.get(city, 0) < 1:
        c.bad("RE-PLACE-FOOTMEN", f"the starting city territory {city} must hold Footmen")
    others = [t for t in split if t != city and split[t] > 0]
    if len(others) > 1:
        c.bad("RE-PLACE-FOOTMEN", f"Footmen go to the city and ONE adjacent non-city territory; got {others!r}")
    for t in others:
        if t not in s.data.neighbours[city]:
            c.bad("RE-PLACE-FOOTMEN", f"{t} is not adjacent to {city}")
        if t in s.data.cities:
            c.bad("RE-PLACE-FOOTMEN", f"{t} is a city territory; the second territory must be a non-city one")
        if s.terr[t].owner is not None:
            return c.skip("RE-PLACE-FOOTMEN", f"{t} is already held by {s.terr[t].owner}")
    if total > s.data.supply["footman"]:
        return c.skip("RE-PLACE-FOOTMEN", f"{total} Footmen is more than an army has")
    terr = dict(s.terr)
    for t, n in split.items():
        if n > 0:
            terr[t] = Terr(owner=e.actor, units=Units(footman=n), castle=terr[t].castle or (castle and t == city), since=0)
    ps = s.players[e.actor]
    players = dict(s.players)
    players[e.actor] = ps._replace(coins=ps.coins + info.tax)
    if p.coins is not None and p.coins != info.tax:
        c.claim("RE-CLAIM", f"{e.actor} claims {plural(p.coins, 'coin')} for {info.name}; its Tax Value is {info.tax}")
    if len(v.draft_castles) == 1:
        c.note(f"{e.actor} founds a kingdom at {info.name} ({city}): crown, castle, tile, +{info.tax} coins; "
               + ", ".join(f"{n} Footmen in {t}" for t, n in split.items() if n))
    else:
        c.note(f"{e.actor} drafts {info.name} ({city}), city {draft_round + 1} of {len(v.draft_castles)}: crown, "
               + ("castle, " if castle else "no castle, ") + f"tile, +{info.tax} coins; "
               + ", ".join(f"{n} Footmen in {t}" for t, n in split.items() if n))
    s = replace(s, terr=terr, players=players, castles_left=s.castles_left - (1 if castle else 0))
    if f.index + 1 < len(f.order):
        return replace(s, flow=f._replace(index=f.index + 1))
    return _start_round(s, 1, c)
