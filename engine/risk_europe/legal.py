"""What may happen next in a Risk Europe game: the decisions the engine accepts, and the dice it waits for.

    legal_moves(state, secrets=None) -> [Move]      every decision the engine accepts now
    actors(state) -> (player, ...)                  whose decision the game waits for (RULESET.actors)
    chance_needed(state) -> ChanceSpec | None       who rolls how many dice (or what is drawn), for what
    can_end_turn(state) -> bool                     may the current player stop acting?
    turn_end_chance(state) -> ChanceSpec | None     the draw that ends the turn (a Mercenary card flip)
    dice_for(state, move) -> ChanceSpec | None      the dice a move brings (the castle re-roll)

A Move is (actor, event type, payload): the event that records a decision, in its open form (a bid
as an amount, cards as card ids); a recorder that keeps them hidden turns them into commitments.
Candidates are built from the rules (one generator per order, bonus action and battle decision)
and then filtered through `engine.step`, so no returned move carries a blocking violation. Unit
counts are combinatorial, so only the meaningful splits are offered: everything that may move,
about half (the strongest units first), a single unit, and a Siege Weapon with the army where an
enemy castle needs one; purchases come as bundles; casualties as one choice per order of
sacrificing the unit types; cards as one choice per kind of card (the two tax-spend cards are the
same choice).

Not decisions, so not moves: dice and random draws (see `chance_needed`: a Mercenary Army's City
Bonus Tiles, the card flipped from a Mercenary deck), the reveal of a face-down commitment
(offered only when `secrets` holds what the player committed to: a simulator knows every player's,
a UI only its own), and claims (coins, winners). The end of a turn is the player's decision,
TurnEnded, offered once the card is revealed and nothing is pending (`can_end_turn`); a table's
log may leave it to the next event, and `turn_end_moves` gives those moves (the next player's
reveal; after the last turn of a round the first battle to fight or the next round's cards),
which the engine takes but the game does not wait for. `actors` says whose decision the game
waits for: while a turn runs, its player's alone. The castle defense re-roll is a decision that carries
dice: `dice_for` says which, and `Move.event(rolls=...)` puts them in. Orders that would do nothing
(an expand of no units, a spend of no coins) are legal but not offered: ending the turn is the
same.

For speed, a bot may score `candidate_moves` (or `turn_actions` and `turn_end_moves`, the two
halves of a turn's moves) and check only the one it picks with `is_accepted`.

Pure: no I/O, no clock, no random.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Iterator, Mapping, NamedTuple

from engine.core.commit import commitment
from engine.core.events import Event
from engine.risk_europe import engine
from engine.risk_europe.board import UNIT_TYPES, Territory
from engine.risk_europe.battles import _can_reroll, expected_dice
from engine.risk_europe.common import COST, RANK_UNIT, has_tile, reserve, supply_line
from engine.risk_europe.tables import TABLES
from engine.risk_europe.kingdom_missions import missions_taken
from engine.risk_europe.orders import crown_card_ban, mercenary_pool
from engine.risk_europe.setup import bidders
from engine.risk_europe.missions import condition_holds
from engine.risk_europe.events import PAYLOADS
from engine.risk_europe.state import PlayerId, State, Units

STRONGEST_FIRST = ("siege", "cavalry", "archer", "footman")
CHEAPEST_FIRST = ("footman", "archer", "cavalry", "siege")


class ChanceSpec(NamedTuple):
    """Chance the game waits for: dice (who rolls how many, in seat order, the order the dice are
    drawn from a seeded stream), or a random draw of `draw` items from `pool` (engine.risk_europe.
    chance: the number of dice it takes is known only as they are read); for what, and the event
    that records it."""

    kind: str                                  # rolloff | siege_assault | battle | reroll | tiles | mercenary_card
    dice: tuple[tuple[PlayerId, int], ...]     # (player, number of dice), seat order
    territory: Territory | None = None
    rank: int | None = None
    event_type: str = "DiceRolled"
    actor: PlayerId | None = None              # the army a draw is for (a Mercenary Army)
    pool: tuple[str, ...] = ()                 # a draw: what it is drawn from, in the data files' order
    draw: int = 0                              # a draw: how many are drawn

    def payload(self, rolls: Mapping[PlayerId, list[int]]) -> dict:
        """The event payload recording `rolls` (one list of faces per player of `dice`)."""
        out: dict = {"rolls": {p: list(rolls[p]) for p, _ in self.dice}}
        if self.territory is not None:
            out["territory"] = self.territory
        if self.rank is not None:
            out["rank"] = self.rank
        return out

    def draw_payload(self, drawn: list[str], dice: list[int] | None) -> dict:
        """The event payload recording a draw (with its dice in digital play)."""
        out: dict = ({"army": self.actor, "tiles": list(drawn)} if self.kind == "tiles"
                     else {"card": drawn[0]})
        if dice is not None:
            out["dice"] = list(dice)
        return out


class Move(NamedTuple):
    """One decision: (actor, event type, payload), the event that records it."""

    actor: PlayerId | None
    type: str
    payload: dict

    def event(self, seq: int = 0, rolls: Mapping[PlayerId, list[int]] | None = None) -> Event:
        """The engine event for this move; `rolls` are the dice of a move that brings dice
        (see `dice_for`)."""
        payload = self.payload
        if rolls is not None:
            payload = {**payload, "rolls": {p: list(d) for p, d in rolls.items()}}
        return Event(seq, self.type, self.actor, PAYLOADS[self.type].model_validate(payload))


class Hidden(NamedTuple):
    """What one player committed to face down: their bid (amount, salt), their two cards
    ((card, salt) for Turn 1 and Turn 2) and the Kingdom Missions they keep ((mission, salt)).
    Known to that player, not to the table."""

    bid: tuple[int, str] | None = None
    cards: tuple[tuple[str, str], ...] = ()
    missions: tuple[tuple[str, str], ...] = ()


Secrets = Mapping[PlayerId, Hidden]


# ---------------------------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------------------------

def legal_moves(s: State, secrets: Secrets | None = None) -> list[Move]:
    """Every decision the engine accepts in `s` (no blocking violation), built from the rules."""
    return [m for m in candidate_moves(s, secrets) if is_accepted(s, m)]


def candidate_moves(s: State, secrets: Secrets | None = None) -> list[Move]:
    """The decisions the rules allow in `s`, before the engine's check (what `legal_moves`
    filters). Cheap: bots score these and check only the one they pick with `is_accepted`."""
    phase = s.flow.phase
    secrets = secrets or {}
    if phase == "bidding":
        return _bids(s, secrets)
    if phase == "placement":
        return _placements(s)
    if phase == "commit":
        return _commits(s)
    if phase == "merc_order":
        return [Move(s.marker, "MercenaryBidsOrdered", {"armies": list(order)})
                for order in permutations(s.active_mercenaries)]
    if phase == "control":
        return _bids(s, secrets)
    if phase == "turn":
        return _turn_moves(s, secrets)
    if phase == "battles":
        return _battle_moves(s)
    return []   # tiles, rolloff (chance only), over


def actors(s: State) -> tuple[PlayerId, ...]:
    """RULESET.actors: whose decision the game waits for now, from the rules; () when it waits
    for chance (dice, a draw, a Mercenary card's flip) or is over. A Mercenary Army's decisions
    are its own (the player controlling it this round makes them).

    - the bids ("Game Setup" 3; "Mercenaries" 4): every bidder who has not bid, secretly and
      at once; when all have, every bid still a commitment is revealed ("All players will then
      reveal their bids at the same time"), so no bid is revealed before the last is placed;
    - the kingdoms (placement): the player placing; the cards (commit): every player who has
      not laid two cards down; the order of the Mercenary bids: the First Player Marker's holder;
    - a turn ("Round Overview" 2-3): its player, from the reveal of the card until they end the
      turn (TurnEnded): the next player's reveal waits for it (RE-TURN-END); a Siege Assault's
      casualties are the victim's, a Kingdom Mission to keep the player's who drew it;
    - the battles: the marker's holder chooses the next one; after a rank a castle could
      re-roll, the defender decides first (re-roll or keep, "Castle Defense": before any unit is
      removed); then every side that owes casualties."""
    f = s.flow
    phase = f.phase
    if s.result is not None:
        return ()
    if phase in ("bidding", "control"):
        who = bidders(s)
        bidding = tuple(p for p in who if s.players[p].bid is None and s.players[p].bid_commitment is None)
        return bidding or tuple(p for p in who if s.players[p].bid is None)
    if phase == "placement":
        return (f.current,)
    if phase == "commit":
        return tuple(p for p in f.order if not s.players[p].committed and not s.is_mercenary(p)
                     and not s.players[p].eliminated)
    if phase == "merc_order":
        return (s.marker,)
    if phase == "turn":
        p = f.current
        if f.pending is not None:
            kind = f.pending[0]
            return (f.pending[2],) if kind == "casualties" else (f.pending[1],) if kind == "mission" else ()
        if f.card is None and s.is_mercenary(p):
            return ()
        return (p,)
    if phase == "battles":
        b = s.battle
        if b is None:
            return (s.marker,)
        if b.stage == "roll":
            return ()
        if _can_reroll(s, b):
            return (b.defender,)
        owed = dict(b.owed)
        return tuple(p for p in s.seats if owed.get(p))
    return ()    # tiles and roll-offs are chance; over


def is_accepted(s: State, move: Move) -> bool:
    """Does the engine carry out `move` in `s` without a blocking violation? (A move that brings
    dice is tried with sixes: what the dice show does not make it legal or not.)"""
    spec = dice_for(s, move)
    rolls = None if spec is None else {p: [6] * n for p, n in spec.dice}
    violations, nxt = engine.step(s, move.event(rolls=rolls))
    return nxt is not None and not any(v.blocking for v in violations)


def dice_for(s: State, move: Move) -> ChanceSpec | None:
    """The dice `move` brings with it: the castle defense re-roll (all the defender's dice of the
    rank just rolled); None for every other move."""
    b = s.battle
    if move.type != "DiceRerolled" or b is None:
        return None
    return ChanceSpec("reroll", ((b.defender, len(b.rolls[1])),), territory=b.territory, rank=b.rank,
                      event_type="DiceRerolled")


def is_last_turn(s: State) -> bool:
    """Is this the round's last turn (Turn 2 of the last player)? Ending it ends the round's
    turns; `engine.conclude` gives the state that follows (battles, the next round, the end)."""
    f = s.flow
    return f.phase == "turn" and f.turn == 2 and f.index == len(f.order) - 1


def can_end_turn(s: State) -> bool:
    """May the current player end their turn now (card revealed, nothing left pending)?"""
    f = s.flow
    return f.phase == "turn" and f.card is not None and f.pending is None


def chance_needed(s: State) -> ChanceSpec | None:
    """The dice the game waits for in `s`, or None when the next event is a decision.

    After a rank with no hits that a castle could re-roll, the defender may still choose to
    re-roll (a Move); these are the dice of the next rank, rolled if they do not."""
    f = s.flow
    if f.phase == "rolloff":
        return ChanceSpec("rolloff", tuple((p, 1) for p in s.seats if p in f.tied))
    if f.phase == "tiles":
        army = f.order[f.index]
        pool = tuple(s.data.cities[t].name for t in s.data.gold_cities if s.terr[t].owner is None)
        return ChanceSpec("tiles", (), event_type="TilesDrawn", actor=army, pool=pool,
                          draw=s.variant_rules.merc_tiles)
    if f.phase == "turn" and f.card is None and s.is_mercenary(f.current):
        return _flip(s, f.current)
    if f.phase == "turn" and f.pending is not None and f.pending[0] == "siege_dice":
        _, _, target, n = f.pending
        return ChanceSpec("siege_assault", ((f.current, n),), territory=target)
    b = s.battle
    if f.phase != "battles" or b is None:
        return None
    x = s.terr[b.territory]
    if b.stage == "roll":
        rank = b.rank
    elif b.stage == "rolled" and not b.owed:
        rank = _next_rank(b.rank, x.attacker_units, x.units)
    else:
        return None
    na, nd = expected_dice(rank, x.attacker_units, x.units)
    count = {b.attacker: na, b.defender: nd}
    dice = tuple((p, count[p]) for p in s.seats if count.get(p))
    return ChanceSpec("battle", dice, territory=b.territory, rank=rank)


def _flip(s: State, army: PlayerId) -> ChanceSpec:
    return ChanceSpec("mercenary_card", (), event_type="CardRevealed", actor=army,
                      pool=mercenary_pool(s, army), draw=1)


def turn_end_chance(s: State) -> ChanceSpec | None:
    """The chance event that ends the current turn, when the next seat is a Mercenary Army: the
    flip of its top card (`turn_end_moves` offers no move then)."""
    f = s.flow
    if f.phase != "turn" or is_last_turn(s):
        return None
    nxt = f.order[f.index + 1] if f.index + 1 < len(f.order) else f.order[0]
    return _flip(s, nxt) if s.is_mercenary(nxt) else None


# ---------------------------------------------------------------------------------------------
# setup and cards
# ---------------------------------------------------------------------------------------------

def _bids(s: State, secrets: Secrets) -> list[Move]:
    """The bids still to make (the setup bid, or for the Mercenary Army now open) and reveals."""
    label = {"army": s.flow.merc} if s.flow.merc else {}
    out = []
    for p in bidders(s):
        ps = s.players[p]
        if ps.bid is None and ps.bid_commitment is None:
            out += [Move(p, "BidPlaced", {"amount": a, **label}) for a in range(ps.coins + 1)]
        elif ps.bid is None and p in secrets and secrets[p].bid is not None:
            amount, salt = secrets[p].bid
            out.append(Move(p, "BidRevealed", {"amount": amount, "salt": salt, **label}))
    return out


# Footmen in the city placed (the rest go next door), by the Footmen that come with a city
PLACEMENT_SPLITS = {10: (10, 7, 5, 3), 5: (5, 4, 3, 2)}


def _placements(s: State) -> list[Move]:
    p = s.flow.current
    total = s.variant_rules.draft_footmen
    splits = PLACEMENT_SPLITS.get(total, (total,))
    out = []
    for city in s.data.gold_cities:
        if s.terr[city].owner is not None:
            continue
        out.append(Move(p, "KingdomPlaced", {"city": s.data.cities[city].name, "footmen": {city: total}}))
        for t in sorted(s.data.neighbours[city]):
            if t in s.data.cities or s.terr[t].owner is not None:
                continue
            for n in splits[1:]:
                out.append(Move(p, "KingdomPlaced", {"city": s.data.cities[city].name,
                                                     "footmen": {city: n, t: total - n}}))
    return out


def card_kinds(s: State, hand) -> list[list[str]]:
    """The cards of `hand` grouped by what they do (same orders and bonus), ids sorted."""
    groups: dict[tuple, list[str]] = {}
    for cid in sorted(hand):
        card = s.data.cards[cid]
        groups.setdefault((card.orders, card.bonus), []).append(cid)
    return list(groups.values())


def _commits(s: State) -> list[Move]:
    out = []
    for p in s.flow.order:
        ps = s.players[p]
        if ps.committed or s.is_mercenary(p):
            continue
        kinds = card_kinds(s, ps.hand)
        for a, b in permutations(kinds, 2):
            out.append(Move(p, "CardsCommitted", {"cards": [a[0], b[0]]}))
        for k in kinds:
            if len(k) > 1:
                out.append(Move(p, "CardsCommitted", {"cards": [k[0], k[1]]}))
    return out


def _reveal(s: State, p: PlayerId, turn: int, secrets: Secrets) -> list[Move]:
    if s.is_mercenary(p):
        return []       # a Mercenary card is flipped: chance (see `turn_end_chance`)
    ps = s.players[p]
    slot = turn - 1
    if ps.stack:
        return [Move(p, "CardRevealed", {"card": ps.stack[slot]})]
    if ps.commitments:
        hidden = secrets.get(p)
        if hidden is None or len(hidden.cards) <= slot:
            return []
        card, salt = hidden.cards[slot]
        return [Move(p, "CardRevealed", {"card": card, "salt": salt})]
    return [Move(p, "CardRevealed", {"card": c}) for c in sorted(ps.hand)]


# ---------------------------------------------------------------------------------------------
# a turn
# ---------------------------------------------------------------------------------------------

def _turn_moves(s: State, secrets: Secrets) -> list[Move]:
    f = s.flow
    p = f.current
    if f.card is None:
        return _reveal(s, p, f.turn, secrets)
    if f.pending is not None:
        if f.pending[0] == "casualties":
            _, target, victim, owed = f.pending
            return _casualties(victim, target, s.terr[target].units, owed)
        if f.pending[0] == "mission":
            return [Move(p, "MissionKept", {"mission": m}) for m in s.data.mission_ids
                    if m not in missions_taken(s)]
        return []   # siege assault dice
    return turn_actions(s, secrets) + [Move(p, "TurnEnded", {})]


def turn_actions(s: State, secrets: Secrets | None = None) -> list[Move]:
    """The current player's optional actions (candidates, see `candidate_moves`): the order if
    not played yet, the bonus action if not used, the Berlin free maneuver after an expand, a
    kept Kingdom Mission whose condition holds (turned over as completed)."""
    f = s.flow
    if not can_end_turn(s):
        return []
    p = f.current
    card = s.data.cards[f.card]
    out: list[Move] = _completions(s, p, secrets or {})
    if f.order_done is None:
        for order in card.orders:
            out += ORDER_MOVES[order](s, p)
    elif f.order_done in ("expand", "split_expand") and not f.berlin_used and has_tile(s, p, "Berlin"):
        out += _maneuvers(s, p)
    if not f.bonus_used and card.bonus == "fortify":
        out += _fortify(s, p)
    if not f.bonus_used and card.bonus == "siege_assault":
        out += _siege_assaults(s, p)
    return out


def turn_end_moves(s: State, secrets: Secrets | None = None) -> list[Move]:
    """The moves that end the current turn (candidates): the next player's reveal, or, after the
    last turn of the round, what follows the round's turns (see `is_last_turn`)."""
    secrets = secrets or {}
    f = s.flow
    n = len(f.order)
    if f.index + 1 < n:
        turn, index = f.turn, f.index + 1
    elif f.turn == 1:
        turn, index = 2, 0
    else:
        return candidate_moves(engine.conclude(s), secrets)
    return _reveal(s, f.order[index], turn, secrets)


# --- unit splits -----------------------------------------------------------------------------

def take(units: Units, n: int, order: tuple[str, ...]) -> Units:
    """`n` units of `units`, taken type by type in `order`."""
    got = dict.fromkeys(UNIT_TYPES, 0)
    for kind in order:
        k = min(n, getattr(units, kind))
        got[kind] = k
        n -= k
    return Units(**got)


def unit_choices(units: Units, keep: int, need_siege: bool = False) -> list[Units]:
    """The meaningful groups to move out of `units` leaving `keep` behind (the cheapest stay):
    everything movable, about half (strongest first), one unit (cheapest first). With
    `need_siege` every group carries a Siege Weapon (or there is no group)."""
    movable = units.minus(take(units, keep, CHEAPEST_FIRST))
    m = movable.total
    if m <= 0:
        return []
    groups = [movable, take(movable, (m + 1) // 2, STRONGEST_FIRST), take(movable, 1, CHEAPEST_FIRST)]
    if need_siege:
        if movable.siege < 1:
            return []
        groups = [g if g.siege else g.minus(take(g, 1, CHEAPEST_FIRST)) + Units(siege=1) for g in groups]
        escort = take(movable.minus(Units(siege=1)), max(0, m // 2 - 1), CHEAPEST_FIRST)
        groups.append(Units(siege=1) + escort)
    return _unique(g for g in groups if g.total > 0)


def _unique(groups) -> list:
    out = []
    for g in groups:
        if g not in out:
            out.append(g)
    return out


def _keep(s: State, t: Territory) -> int:
    """Units that must stay when expanding out of `t`: one, or as many as the attacker has."""
    x = s.terr[t]
    return max(1, x.attacker_units.total)


def _expand_targets(s: State, p: PlayerId, frm: Territory) -> list[tuple[Territory, bool]]:
    """Adjacent territories `p` may expand into from `frm`, and whether a Siege Weapon is needed."""
    out = []
    for t in sorted(s.data.neighbours[frm]):
        y = s.terr[t]
        if y.owner == p or y.is_disputed or s.is_teammate(p, y.owner):
            continue
        out.append((t, y.castle and y.owner is not None))
    return out


def _expand_sources(s: State, p: PlayerId) -> Iterator[tuple[Territory, int]]:
    for t in s.data.territories:
        x = s.terr[t]
        if x.owner == p and x.units.total > _keep(s, t):
            yield t, _keep(s, t)


def _expands(s: State, p: PlayerId) -> list[Move]:
    out = []
    for frm, keep in _expand_sources(s, p):
        units = s.terr[frm].units
        for t, siege in _expand_targets(s, p, frm):
            for g in unit_choices(units, keep, siege):
                out.append(Move(p, "Expanded", {"from": frm, "to": t, "units": g.as_dict()}))
    return out


def _split_expands(s: State, p: PlayerId) -> list[Move]:
    """Into one territory (as an expand) or two: half and half, one each, all but one and one."""
    out = []
    for frm, keep in _expand_sources(s, p):
        units = s.terr[frm].units
        targets = _expand_targets(s, p, frm)
        for t, siege in targets:
            for g in unit_choices(units, keep, siege):
                out.append(Move(p, "SplitExpanded",
                                {"from": frm, "moves": [{"to": t, "units": g.as_dict()}]}))
        movable = units.minus(take(units, keep, CHEAPEST_FIRST))
        if movable.total < 2:
            continue
        for (t1, s1), (t2, s2) in combinations(targets, 2):
            for g1, g2 in _pairs(movable, s1, s2):
                out.append(Move(p, "SplitExpanded", {"from": frm, "moves": [
                    {"to": t1, "units": g1.as_dict()}, {"to": t2, "units": g2.as_dict()}]}))
    return out


def _pairs(movable: Units, siege1: bool, siege2: bool) -> list[tuple[Units, Units]]:
    """Ways to share `movable` between two targets (each group non-empty, Siege Weapons where needed)."""
    m = movable.total
    half = take(movable, (m + 1) // 2, STRONGEST_FIRST)
    one = take(movable, 1, CHEAPEST_FIRST)
    rest_one = take(movable.minus(one), 1, CHEAPEST_FIRST)
    options = [
        (half, movable.minus(half)),
        (movable.minus(half), half),
        (movable.minus(one), one),
        (one, movable.minus(one)),
        (one, rest_one),
    ]
    if siege1 or siege2:
        if movable.siege >= (int(siege1) + int(siege2)):
            s = Units(siege=1)
            rest = movable.minus(s)
            if siege1 and siege2:
                rest = rest.minus(s)
                h = take(rest, rest.total // 2, STRONGEST_FIRST)
                options.append((s + h, s + rest.minus(h)))
            elif siege1:
                o = take(rest, 1, CHEAPEST_FIRST)
                options += [(s + rest.minus(o), o), (movable.minus(o), o)] if rest.total else []
            else:
                o = take(rest, 1, CHEAPEST_FIRST)
                options += [(o, s + rest.minus(o)), (o, movable.minus(o))] if rest.total else []
    return _unique((a, b) for a, b in options
                   if a.total and b.total and (a.siege or not siege1) and (b.siege or not siege2))


def maneuver_destinations(s: State, p: PlayerId, frm: Territory) -> list[Territory]:
    """Where `p` may maneuver from `frm`: a territory of theirs or a battle they fight in, next
    door or two away through a territory of theirs that is not in dispute."""
    nb = s.data.neighbours
    reach = set(nb[frm])
    for m in nb[frm]:
        y = s.terr[m]
        if y.owner == p and not y.is_disputed:
            reach |= nb[m]
    out = []
    for t in sorted(reach):
        y = s.terr[t]
        if t != frm and (y.owner == p or y.attacker == p):
            out.append(t)
    return out


def _maneuvers(s: State, p: PlayerId) -> list[Move]:
    out = []
    for frm in s.data.territories:
        x = s.terr[frm]
        if x.owner != p or x.is_disputed or x.units.total == 0:
            continue
        keep = 1 if (frm in s.data.cities or x.castle) else 0
        groups = unit_choices(x.units, keep) if keep else _unique(
            [x.units] + unit_choices(x.units, 1))
        if not groups:
            continue
        for t in maneuver_destinations(s, p, frm):
            for g in groups:
                out.append(Move(p, "Maneuvered", {"from": frm, "to": t, "units": g.as_dict()}))
    return out


def _taxes(s: State, p: PlayerId) -> list[Move]:
    return [Move(p, "Taxed", {"city": c.name}) for t, c in s.data.cities.items() if s.terr[t].owner == p]


# --- spending ----------------------------------------------------------------------------------

RECRUIT_MIXES = ("balanced", "footman", "archer", "cavalry")


def recruit(coins: int, room: Units, mix: str) -> Units:
    """Units that `coins` buy within the army reserve `room`: all of one type, or a balanced mix
    (a Cavalry, an Archer and a Footman in turn while they can be paid)."""
    got = dict.fromkeys(UNIT_TYPES, 0)
    kinds = ("cavalry", "archer", "footman") if mix == "balanced" else (mix,)
    bought = True
    while bought:
        bought = False
        for kind in kinds:
            if coins >= COST[kind] and getattr(room, kind) > got[kind]:
                got[kind] += 1
                coins -= COST[kind]
                bought = True
    return Units(**got)


def recruit_sites(s: State, p: PlayerId) -> list[Territory]:
    """Where `p` may place recruits: their undisputed city and castle territories (and, with
    the Kiev tile, non-city territories connected to Kiev)."""
    kiev_line: set[Territory] = set()
    if has_tile(s, p, "Kiev"):
        kiev = s.data.city_territory_of("Kiev")
        kiev_line = set(supply_line(s, p, kiev))
    out = []
    for t in s.data.territories:
        x = s.terr[t]
        if x.owner == p and not x.is_disputed and (t in s.data.cities or x.castle or t in kiev_line):
            out.append(t)
    return out


def _units_purchases(units: Units, t: Territory) -> list[dict]:
    return [{"item": k, "territory": t, "count": n} for k, n in units.as_dict().items()]


def _spends(s: State, p: PlayerId) -> list[Move]:
    """Purchase bundles: a Crown Card (alone or with recruits), a castle, a Siege Weapon, and
    recruits of one type or mixed, for all the coins or half of them, per placement site."""
    ps = s.players[p]
    coins = ps.coins
    room = reserve(s, p)
    sites = recruit_sites(s, p)
    bundles: list[list[dict]] = []

    def with_recruits(base: list[dict], left: int, t: Territory, mixes=RECRUIT_MIXES, room=room) -> None:
        for mix in mixes:
            u = recruit(left, room, mix)
            if u.total:
                bundles.append(base + _units_purchases(u, t))

    crown = (crown_card_ban(s, p) is None and s.crown_cards_left > 0 and ps.crown_card_round != s.flow.round
             and coins >= COST["crown_card"])
    if crown:
        card = [{"item": "crown_card"}]
        bundles.append(card)
        for t in sites:
            with_recruits(card, coins - COST["crown_card"], t, ("balanced",))
    castle_price = COST["castle"] - (TABLES.berlin_castle_discount if has_tile(s, p, "Berlin") else 0)
    if s.castles_left > 0 and coins >= castle_price:
        for t in s.data.territories:
            x = s.terr[t]
            if x.owner == p and not x.is_disputed and not x.castle:
                build = [{"item": "castle", "territory": t}]
                bundles.append(build)
                with_recruits(build, coins - castle_price, t, ("balanced",))
    for t in sites:
        if coins >= COST["siege"] and room.siege > 0:
            siege = [{"item": "siege", "territory": t}]
            bundles.append(siege)
            after = room.minus(Units(siege=1))
            if has_tile(s, p, "Constantinople"):      # four free Footmen come with it
                after = after.minus(Units(footman=min(4, after.footman)))
            with_recruits(siege, coins - COST["siege"], t, ("balanced",), after)
        with_recruits([], coins, t)
        if coins >= 4:
            with_recruits([], coins // 2, t, ("balanced",))
    out = []
    for b in bundles:
        if b not in [m.payload["purchases"] for m in out]:
            out.append(Move(p, "Spent", {"purchases": b}))
    return out


def _completions(s: State, p: PlayerId, secrets: Secrets) -> list[Move]:
    """Kept missions `p` may turn over: those whose condition holds (or cannot be checked)."""
    if not s.missions:
        return []
    ps = s.players[p]
    kept = [(m, None) for m in ps.kept_missions]
    hidden = secrets.get(p)
    if hidden is not None:
        kept += [(m, salt) for m, salt in hidden.missions if commitment(m, salt) in ps.kept_commitments]
    book = s.data.missions
    out = []
    for m, salt in kept:
        info = book.missions.get(m) if book is not None else None
        if info is not None and info.condition is not None and not condition_holds(info.condition, s, p):
            continue
        out.append(Move(p, "MissionCompleted", {"mission": m} if salt is None else {"mission": m, "salt": salt}))
    return out


ORDER_MOVES = {"expand": _expands, "split_expand": _split_expands, "maneuver": _maneuvers,
               "tax": _taxes, "spend": _spends}


# --- bonus actions -----------------------------------------------------------------------------

def _fortify(s: State, p: PlayerId) -> list[Move]:
    return [Move(p, "Fortified", {"territory": t}) for t in s.data.territories
            if s.terr[t].owner == p and (t in s.data.cities or s.terr[t].castle)]


def _siege_assaults(s: State, p: PlayerId) -> list[Move]:
    out = []
    for frm in s.data.territories:
        x = s.terr[frm]
        if x.owner != p or x.is_disputed or x.units.siege < 1:
            continue
        for t in sorted(s.data.land_neighbours[frm]):
            y = s.terr[t]
            if y.owner not in (None, p) and not y.is_disputed and not s.is_teammate(p, y.owner):
                out.append(Move(p, "SiegeAssaulted", {"from": frm, "target": t}))
    return out


# ---------------------------------------------------------------------------------------------
# battles
# ---------------------------------------------------------------------------------------------

def casualty_choices(units: Units, owed: int) -> list[Units]:
    """The distinct ways to lose `owed` of `units`: one per order of sacrificing the unit types
    present (cheapest first is the first choice)."""
    kinds = [k for k in CHEAPEST_FIRST if getattr(units, k)]
    return _unique(take(units, owed, order) for order in permutations(kinds)) if owed else []


def _casualties(p: PlayerId, t: Territory, units: Units, owed: int) -> list[Move]:
    return [Move(p, "CasualtiesRemoved", {"territory": t, "units": u.as_dict()})
            for u in casualty_choices(units, min(owed, units.total))]


def _battle_moves(s: State) -> list[Move]:
    b = s.battle
    if b is None:
        return [Move(s.marker, "BattleStarted", {"territory": t})
                for t in s.data.territories if s.terr[t].is_disputed]
    if b.stage == "roll":
        return []
    out = []
    x = s.terr[b.territory]
    if b.castle and not b.reroll_used and b.stage == "rolled" and b.rolls[1]:
        out.append(Move(b.defender, "DiceRerolled", {"territory": b.territory, "rank": b.rank}))
        out.append(Move(b.defender, "RerollDeclined", {"territory": b.territory, "rank": b.rank}))
    for p, n in b.owed:
        units = x.units if p == b.defender else x.attacker_units
        out += _casualties(p, b.territory, units, n)
    return out


def _next_rank(rank: int, att: Units, dfn: Units) -> int:
    """The rank rolled after `rank` (the Ranked Attack Order starts over after Rank 4)."""
    start = rank + 1 if rank < 4 else 1
    for r in range(start, 4):
        if getattr(att, RANK_UNIT[r]) or getattr(dfn, RANK_UNIT[r]):
            return r
    return 4
