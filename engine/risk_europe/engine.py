"""The Risk Europe decider: `step(state, event) -> (violations, next state | None)`.

Judging policy (docs/rulings.md, "Events after an illegal one"): every violation of an event is
reported. An illegal event that can still be carried out on the board (a card not in hand, a
castle entered without a Siege Weapon, a wrong number of casualties...) is applied as recorded,
so that the rest of the game is judged against what really happened at the table; one that
cannot be carried out (unknown territory, units that are not there, a move out of turn) is
skipped and changes nothing. Wrong claims (coins, winners) are reported and the rules' own
values are used.
"""

from __future__ import annotations

from engine.risk_europe.state import evolve as replace
from typing import Callable

from engine.core.canonical import sha256_hex
from engine.core.commit import matches_commitment
from engine.core.dice import DiceTape, first_wrong_die, logged_dice, record_dice
from engine.core.events import Event
from engine.core.rules import Verdicts, Violation
from engine.core.ruleset import GameResult
from engine.risk_europe.board import GameData, Territory
from engine.core.chance import judge_draw
from engine.risk_europe.rules import RULES
from engine.risk_europe.state import (
    NO_UNITS, Battle, Flow, Player, PlayerId, State, Terr, Units, new_units,
)
from engine.risk_europe.variants import VariantError, parse_variant, seat_armies

V = RULES.violation

COST = {"footman": 1, "archer": 2, "cavalry": 3, "siege": 10, "castle": 12, "crown_card": 10}
RANK_UNIT = {1: "siege", 2: "archer", 3: "cavalry"}
RANK_DICE_PER_UNIT = {1: 2, 2: 1, 3: 1}
RANK_HITS_ON = {1: 3, 2: 5, 3: 3}
RANK_NAME = {1: "Rank 1 siege attack", 2: "Rank 2 archer volley", 3: "Rank 3 cavalry charge",
             4: "Rank 4 general attack"}
SIEGE_HITS_ON = 3
BATTLE_SLOT = 999
TAX_TILE_UNITS = {"London": Units(archer=2), "Paris": Units(footman=1, cavalry=1),
                  "Madrid": Units(footman=4)}
TURN_EVENTS = frozenset({"Expanded", "SplitExpanded", "Maneuvered", "Taxed", "Spent",
                         "Fortified", "SiegeAssaulted", "MissionCompleted"})


class _Ctx(Verdicts):
    """What judging one event produced: violations citing this ruleset's rules, and notes."""

    __slots__ = ()
    book = RULES


# ---------------------------------------------------------------------------------------------
# start
# ---------------------------------------------------------------------------------------------

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
        dice_mode=payload.dice.mode,
        seed_hash=payload.dice.seed_hash,
        players={p: Player(coins=5, hand=hand) for p in seats},
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
        dice_log=None,
        notes=(),
        mercenaries=mercs,
    )


# ---------------------------------------------------------------------------------------------
# derived facts (questions about the state)
# ---------------------------------------------------------------------------------------------

def crowns(s: State, p: PlayerId) -> int:
    """Crowns on the Crown Tracker: cities held (Rome 2) plus Crown Cards."""
    n = s.players[p].crown_cards
    for t, city in s.data.cities.items():
        if s.terr[t].owner == p:
            n += city.crowns
    return n


def crowns_by_army(s: State) -> dict[PlayerId, int]:
    """`crowns(s, p)` of every army, in one pass over the cities."""
    n = {p: ps.crown_cards for p, ps in s.players.items()}
    terr = s.terr
    for t, city in s.data.cities.items():
        owner = terr[t].owner
        if owner in n:
            n[owner] += city.crowns
    return n


def territories_of(s: State, p: PlayerId) -> list[Territory]:
    return [t for t, x in s.terr.items() if x.owner == p]


def cities_of(s: State, p: PlayerId) -> list[Territory]:
    return [t for t in s.data.cities if s.terr[t].owner == p]


def units_on_board(s: State, p: PlayerId) -> Units:
    fo = ar = ca = si = 0          # summed as ints: a Units per territory costs 3x as much
    for x in s.terr.values():
        if x.owner == p:
            u = x.units
        elif x.attacker == p:
            u = x.attacker_units
        else:
            continue
        fo += u[0]
        ar += u[1]
        ca += u[2]
        si += u[3]
    return new_units(Units, (fo, ar, ca, si))


def reserve(s: State, p: PlayerId) -> Units:
    """Units still in the player's army reserve."""
    sup = s.data.supply
    on = units_on_board(s, p)
    return new_units(Units, (sup["footman"] - on.footman, sup["archer"] - on.archer,
                             sup["cavalry"] - on.cavalry, sup["siege"] - on.siege))


def tile_territory(s: State, city_name: str) -> Territory | None:
    for t, c in s.data.cities.items():
        if c.name == city_name and c.gold:
            return t
    return None


def has_tile(s: State, p: PlayerId, city_name: str) -> bool:
    """Does `p` hold this City Bonus Tile with its bonus available now (RE-TILE-TIMING)?"""
    t = tile_territory(s, city_name)
    if t is None:
        return False
    x = s.terr[t]
    return x.owner == p and x.since < s.step


def supply_line(s: State, p: PlayerId, start: Territory) -> list[Territory]:
    """Territories connected to `start` through undisputed territories `p` controls."""
    terr = s.terr
    nb = s.data.neighbours
    if terr[start].owner != p or terr[start].is_disputed:
        return []
    seen = {start}
    out = [start]
    i = 0
    while i < len(out):
        for n in nb[out[i]]:
            if n not in seen:
                x = terr[n]
                if x.owner == p and x.attacker is None:
                    seen.add(n)
                    out.append(n)
        i += 1
    return out


def tax_value(s: State, p: PlayerId, city: Territory) -> tuple[int, list[Territory]]:
    """Coins a tax from `city` collects, and the supply line it collects from (RE-TAX-AMOUNT)."""
    line = supply_line(s, p, city)
    coins = 0
    for t in line:
        c = s.data.cities.get(t)
        coins += c.tax if c else 1
    return coins, line


def _units(u) -> Units:
    return new_units(Units, (u.footman, u.archer, u.cavalry, u.siege))


def _rotate(seats: tuple[PlayerId, ...], first: PlayerId | None) -> tuple[PlayerId, ...]:
    if first is None or first not in seats:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]


def _name(s: State, p: PlayerId | None) -> str:
    return "nobody" if p is None else p


def _resolve(s: State, name: str, c: _Ctx, what: str = "territory") -> Territory | None:
    t = s.data.resolve(name)
    if t is None:
        c.skip("RE-NAME", f"{what} {name!r} is not on the board")
    return t


def _step_of(round_: int, turn: int, index: int, n: int) -> int:
    return round_ * 1000 + 1 + (turn - 1) * n + index


def _roll(s: State, values: list[int], c: _Ctx) -> State:
    """Record dice in the game's dice log; in a seeded game whose seed the judge already knows,
    check each die against the seed's stream here, at its own line (RE-DICE-SEED)."""
    log, count, wrong = record_dice(s.dice_log, s.dice_count, s.dice_tape, values)
    if wrong is not None:
        i, got, want, seed_faces = wrong
        c.bad("RE-DICE-SEED", f"die #{i + 1} of the game shows {got}; the revealed seed gives {want} "
              f"(dice here {list(values)}, seed {seed_faces})")
    return replace(s, dice_log=log, dice_count=count)


def _seat_ordered_rolls(s: State, rolls: dict[str, list[int]]) -> list[int]:
    out: list[int] = []
    for p in s.seats:
        out.extend(rolls.get(p, ()))
    return out


def _bad_faces(rolls: dict[str, list[int]]) -> list[int]:
    return [d for dice in rolls.values() for d in dice if not (1 <= d <= 6)]


# ---------------------------------------------------------------------------------------------
# the flow: implicit turn ends, round ends
# ---------------------------------------------------------------------------------------------

def _turn_closable(f: Flow) -> bool:
    return f.card is not None and f.pending is None


def _close_turn(s: State, c: _Ctx, lenient: bool) -> State:
    """End the current turn; after the last Turn 2 go to the battles (or end the round)."""
    f = s.flow
    if lenient:
        who = f.current
        if f.card is None and s.is_mercenary(who):
            c.claim("RE-MERC-SEAT", f"the Mercenary Army {who} plays turn {f.turn} of round {f.round} in "
                    "its seat, but the log flips no card for it there; the turn is taken as passed")
        elif f.card is None:
            c.claim("RE-TURN-ORDER", f"{who}'s turn {f.turn} of round {f.round} has no card revealed "
                    "in the log; the turn is taken as passed")
        elif f.pending is not None:
            if f.pending[0] == "mission":
                c.claim("RE-MISSION-DRAW", f"{who} drew Crown Cards with King Me but kept none in the log; "
                        "the draw is dropped")
            else:
                c.claim("RE-FLOW", f"{who}'s {f.pending[0].replace('_', ' ')} on {f.pending[2] if f.pending[0] == 'siege_dice' else f.pending[1]} "
                        "was never resolved in the log; it is dropped")
    index, turn = f.index + 1, f.turn
    if index >= len(f.order):
        if turn == 1:
            index, turn = 0, 2
        else:
            return _enter_battles(replace(s, flow=f._replace(card=None, pending=None)), c)
    nf = f._replace(index=index, turn=turn, card=None, order_done=None, bonus_used=False,
                    berlin_used=False, pending=None)
    return replace(s, flow=nf, step=_step_of(f.round, turn, index, len(f.order)))


def _enter_battles(s: State, c: _Ctx) -> State:
    s = replace(s, flow=s.flow._replace(phase="battles", order_done=None), step=s.flow.round * 1000 + BATTLE_SLOT)
    disputed = [t for t, x in s.terr.items() if x.attacker is not None]   # is_disputed, inlined
    if not disputed:
        return _end_round(s, c)
    c.note(f"Battles to fight in round {s.flow.round}: {', '.join(disputed)}; {s.marker} chooses the order")
    return s


def _last_turn(f: Flow) -> bool:
    return f.turn == 2 and f.index == len(f.order) - 1


def _next_slot(f: Flow, player: PlayerId) -> tuple[int, int] | None:
    """The (turn, index) of `player`'s next turn in this round after the current one, if any."""
    order = f.order
    if f.turn == 1:
        for i in range(f.index + 1, len(order)):
            if order[i] == player:
                return 1, i
        start = 0
    else:
        start = f.index + 1
    for i in range(start, len(order)):
        if order[i] == player:
            return 2, i
    return None


def _resync(s: State, e: Event, c: _Ctx) -> State:
    """Close the current turn when the event shows it is over (turns end implicitly)."""
    f = s.flow
    if f.phase == "commit" and e.type == "CardRevealed":
        missing = [p for p in f.order if not s.players[p].committed and not s.is_mercenary(p)]
        if missing:
            for p in missing:
                c.claim("RE-CARDS-COMMIT", f"{p} committed no cards for round {f.round} in the log; "
                        "their reveals are checked against their hand only")
            return _start_turns(s)
        return s
    if f.phase != "turn":
        return s
    if e.type == "CardRevealed":
        if f.card is None and e.actor == f.current:
            return s
        # find the actor's next turn slot in this round
        target = _next_slot(f, e.actor)
        if target is None:
            return s
        while s.flow.phase == "turn" and (s.flow.turn, s.flow.index) < target:
            s = _close_turn(s, c, lenient=not _turn_closable(s.flow))
        return s
    if e.type in TURN_EVENTS or (f.pending is not None and e.type in ("DiceRolled", "CasualtiesRemoved", "MissionKept")):
        return s
    if e.type in ("BattleStarted", "CardsCommitted", "GameEnded", "BattleEnded", "SeedRevealed"):
        if _last_turn(f):
            return _close_turn(s, c, lenient=not _turn_closable(f))
    return s


def _start_round(s: State, round_: int, c: _Ctx) -> State:
    players = dict(s.players)
    refill = round_ > 1 and (round_ - 1) % 4 == 0
    full = frozenset(s.data.cards)
    for p, ps in players.items():
        mine = refill and not ps.eliminated and not s.is_mercenary(p)   # a Mercenary deck is reshuffled when it runs out
        players[p] = ps._replace(stack=(), commitments=(), committed=False, revealed=(),
                                 hand=full if mine else ps.hand, controller=None)
    if refill:
        c.note(f"Round {round_}: every player takes their eight King's Orders cards back into hand")
    order = _rotate(tuple(p for p in s.seats if not players[p].eliminated), s.marker)
    return replace(s, players=players, fought=(), battle=None,
                   flow=Flow(phase="commit", round=round_, order=order),
                   step=round_ * 1000)


def _start_turns(s: State) -> State:
    f = s.flow._replace(phase="turn", turn=1, index=0, card=None, order_done=None, tied=(),
                        bonus_used=False, berlin_used=False, pending=None, merc=None, queue=())
    return replace(s, flow=f, step=_step_of(f.round, 1, 0, len(f.order)))


def _game_over(s: State, res: GameResult) -> State:
    return replace(s, result=res, flow=s.flow._replace(phase="over"))


def _end_round(s: State, c: _Ctx) -> State:
    """Win check, eliminations, then the next round (RE-WIN, RE-ELIMINATION, RE-SAVED-BY-CROWN;
    the variant's own end: RE-MERC-WIN, RE-TEAM-END)."""
    v = s.variant_rules
    res = _crown_win(s, c) if v.win_crowns else _team_win(s, c)
    if res is not None:
        return _game_over(s, res)
    s = _eliminate(s, c)
    res = _last_standing(s, c)
    if res is not None:
        return _game_over(s, res)
    return _start_round(s, s.flow.round + 1, c)


def _tie_key(s: State, ps: tuple[PlayerId, ...]) -> tuple[int, int]:
    """The tie-break (p.19): territories, then coins with the First Player Marker worth 10."""
    return (sum(len(territories_of(s, p)) for p in ps),
            sum(s.players[p].coins + (10 if s.marker == p else 0) for p in ps))


def _crown_win(s: State, c: _Ctx) -> GameResult | None:
    """A player with the variant's crowns (7; 8 or 10 with Mercenaries) wins; ties broken (p.19)."""
    r = s.flow.round
    active = s.active_players
    need = s.variant_rules.win_crowns
    tally = crowns_by_army(s)
    score = {p: tally[p] for p in active}
    contenders = [p for p in active if score[p] >= need]
    if not contenders:
        return None

    def key(p: PlayerId) -> tuple[int, int, int]:
        return (score[p], *_tie_key(s, (p,)))
    best = max(key(p) for p in contenders)
    winners = tuple(p for p in contenders if key(p) == best)
    reason = "crowns" if len(contenders) == 1 else "crowns with tie-break"
    detail = {p: {"crowns": score[p], "territories": len(territories_of(s, p)),
                  "coins": s.players[p].coins, "marker": s.marker == p} for p in contenders}
    c.note(f"End of round {r}: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'} "
           f"with {score[winners[0]]} crowns")
    if len(contenders) > 1:
        c.note("Decided with tie-break (crowns, then territories, then coins with the marker worth 10): "
               + "; ".join(f"{p} {score[p]} crowns, {detail[p]['territories']} territories, "
                           f"{detail[p]['coins']} coins{' + marker' if detail[p]['marker'] else ''}"
                           for p in contenders))
    return GameResult(winners, reason, r, detail)


def teams(s: State) -> list[tuple[PlayerId, ...]]:
    """The teams of a team game (opposite seats), in seat order of their first player."""
    out: list[tuple[PlayerId, ...]] = []
    for p in s.seats:
        t = s.team_of(p)
        if t not in out:
            out.append(t)
    return out


def crown_cities_of(s: State, ps: tuple[PlayerId, ...]) -> int:
    """Crown city territories held by these players (Rome counts once: it is one territory)."""
    return sum(1 for t in s.data.cities if s.terr[t].owner in ps)


def _team_win(s: State, c: _Ctx) -> GameResult | None:
    """Team play (RE-TEAM-END): after the last round the team with the most crown city
    territories wins (ties: territories, then coins, RE-RULING-TEAM-TIE); in the long form a team
    holding every crown city wins at the end of any round."""
    v = s.variant_rules
    r = s.flow.round
    held = {t: crown_cities_of(s, t) for t in teams(s)}
    detail = {" and ".join(t): {"crown_cities": n, "territories": _tie_key(s, t)[0], "coins": _tie_key(s, t)[1]}
              for t, n in held.items()}
    if v.all_cities_win:
        full = [t for t, n in held.items() if n == len(s.data.cities)]
        if full:
            c.note(f"End of round {r}: {' and '.join(full[0])} hold all {len(s.data.cities)} crown cities and win")
            return GameResult(full[0], "all crown cities", r, detail)
    if v.rounds is None or r < v.rounds:
        return None
    most = max(held.values())
    top = [t for t, n in held.items() if n == most]
    if len(top) > 1:
        best = max(_tie_key(s, t) for t in top)
        top = [t for t in top if _tie_key(s, t) == best]
    winners = tuple(p for t in top for p in t)
    reason = "crown cities" if len([n for n in held.values() if n == most]) == 1 else "crown cities with tie-break"
    c.note(f"End of round {r}, the last of team play: " + "; ".join(
        f"{' and '.join(t)} hold {n} crown cit{'y' if n == 1 else 'ies'}" for t, n in held.items())
        + f" — {' and '.join(winners)} {'win' if len(top) == 1 else 'share the win'}")
    return GameResult(winners, reason, r, detail)


def _eliminate(s: State, c: _Ctx) -> State:
    """Every army without a city is eliminated, unless saved by the crown (RE-ELIMINATION)."""
    r = s.flow.round
    players = dict(s.players)
    terr = dict(s.terr)
    eliminated: list[PlayerId] = []
    city_holders = {s.terr[t].owner for t in s.data.cities}   # `cities_of(s, p)` is not empty
    for p in s.active_armies:
        ps = players[p]
        if p in city_holders:
            if ps.saved_until:
                players[p] = ps._replace(saved_until=0)
            continue
        if ps.saved_until == 0 and ps.crown_cards > 0:
            players[p] = ps._replace(saved_until=r + 1)
            c.note(f"{p} holds no city but owns a Crown Card: saved by the crown for one more round")
            continue
        eliminated.append(p)
        players[p] = ps._replace(eliminated=True, coins=0, crown_cards=0, hand=frozenset(),
                                 saved_until=0, controller=None, kept_missions=(), kept_commitments=())
        for t, x in terr.items():
            if x.owner == p:
                terr[t] = Terr(castle=x.castle, since=s.step)
        what = "The Mercenary Army " if s.is_mercenary(p) else ""
        c.note(f"{what}{p} holds no city at the end of round {r} and is eliminated"
               + (" (their Crown Cards leave the game)" if ps.crown_cards else ""))
    marker = s.marker
    if marker in eliminated:
        seats = s.seats
        i = seats.index(marker)
        marker = next((q for q in (seats[(i + k) % len(seats)] for k in range(1, len(seats)))
                       if not players[q].eliminated and not s.is_mercenary(q)), None)
        c.note(f"The First Player Marker passes to {_name(s, marker)}")
    return replace(s, players=players, terr=terr, marker=marker)


def _last_standing(s: State, c: _Ctx) -> GameResult | None:
    """The last player (team) with an army in the game wins; Mercenary Armies do not count."""
    r = s.flow.round
    left = s.active_players
    if s.variant_rules.teams:
        standing = [t for t in teams(s) if any(p in left for p in t)]
        if len(standing) > 1:
            return None
        winners = standing[0] if standing else ()
        c.note(f"End of round {r}: " + (f"{' and '.join(winners)} are the last team standing and win"
                                        if winners else "no player is left; no winner"))
        return GameResult(winners, "last team standing" if winners else "everyone eliminated", r, {})
    if len(left) > 1:
        return None
    c.note(f"End of round {r}: " + (f"{left[0]} is the last king standing and wins" if left
                                    else "no player is left; no winner"))
    return GameResult(left, "last player standing" if left else "everyone eliminated", r, {})


# ---------------------------------------------------------------------------------------------
# setup: bids, roll-off, kingdom placement
# ---------------------------------------------------------------------------------------------

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
    rules = _BID_RULES[_bid_kind(s)]
    ps = s.players[e.actor]
    if ps.bid is not None or ps.bid_commitment is not None:
        return c.skip(rules["once"], f"{e.actor} has already bid" + (f" for {s.flow.merc} this round" if s.flow.merc else ""))
    amount = e.payload.amount
    if amount is not None and amount > ps.coins:
        return c.skip(rules["amount"], f"{e.actor} bids {amount} coins but holds {ps.coins}")
    players = dict(s.players)
    players[e.actor] = ps._replace(bid=amount, bid_commitment=e.payload.commitment)
    return _resolve_bids(replace(s, players=players), c)


def _bid_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bid_checks(s, e, c):
        return None
    rules = _BID_RULES[_bid_kind(s)]
    ps = s.players[e.actor]
    if ps.bid_commitment is None or ps.bid is not None:
        return c.skip(rules["reveal"], f"{e.actor} has no hidden bid to reveal")
    amount = e.payload.amount
    if amount > ps.coins:
        return c.skip(rules["amount"], f"{e.actor} reveals a bid of {amount} coins but holds {ps.coins}")
    if not matches_commitment(ps.bid_commitment, amount, e.payload.salt):
        c.bad(rules["reveal"], f"{e.actor} reveals {amount} coins with salt {e.payload.salt!r}, which does "
              "not match the bid committed earlier")
    players = dict(s.players)
    players[e.actor] = ps._replace(bid=amount)
    return _resolve_bids(replace(s, players=players), c)


def bidders(s: State) -> tuple[PlayerId, ...]:
    """Who bids now: every player still in the game (never a Mercenary Army)."""
    return s.active_players


def _resolve_bids(s: State, c: _Ctx) -> State:
    bids = {p: s.players[p].bid for p in bidders(s)}
    if any(b is None for b in bids.values()):
        return s
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
    rolls = e.payload.rolls
    if set(rolls) != set(tied):
        return c.skip(rule, f"the roll-off is between {', '.join(tied)}; the log rolls for "
                      f"{', '.join(rolls) or 'nobody'}")
    if any(len(d) != 1 for d in rolls.values()):
        return c.skip(rule, f"each tied player rolls one die; got {dict(rolls)!r}")
    if _bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    s = _roll(s, _seat_ordered_rolls(s, rolls), c)
    top = max(d[0] for d in rolls.values())
    best = tuple(p for p in tied if rolls[p][0] == top)
    c.note("Roll-off: " + ", ".join(f"{p} {rolls[p][0]}" for p in tied))
    if len(best) == 1:
        return _award_bid(s, best[0], c)
    return replace(s, flow=s.flow._replace(tied=best))


# --- Mercenary Armies: their tiles at setup, the bids for control each round -------------------

def _check_draw(s: State, pool: list, n: int, got: list, dice: list[int] | None, what: str,
                c: _Ctx) -> State:
    """A random draw of `n` from `pool` that came out as `got` (RE-CHANCE-DRAW): with dice, they
    must give `got` by the draw rule, and are recorded as dice of the game (so a seeded game
    checks them against its stream); a seeded game's draw must carry its dice."""
    problem, message = judge_draw(pool, n, got, dice, seeded=s.dice_mode == "seeded", what=what)
    if problem is not None:
        c.bad("RE-DICE-FACES" if problem == "faces" else "RE-CHANCE-DRAW", message)
    if dice is None or problem == "faces":
        return s
    return _roll(s, dice, c)


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


# --- kingdoms: the placement (basic) or the city draft (every other variant) -------------------

def _kingdom_placed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase != "placement":
        return c.skip("RE-FLOW", f"kingdoms are placed after the bid for first player (now: {f.phase})")
    if e.actor != f.current:
        return c.skip("RE-ACTOR", f"it is {f.current}'s turn to place a kingdom, not {e.actor}'s")
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
        c.claim("RE-CLAIM", f"{e.actor} claims {p.coins} coins for {info.name}; its Tax Value is {info.tax}")
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


# ---------------------------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------------------------

def _cards_committed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase != "commit":
        return c.skip("RE-FLOW", f"cards are committed at the start of a round (now: {f.phase})")
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
    if f.phase != "turn":
        return c.skip("RE-FLOW", f"cards are revealed during the turns of a round (now: {f.phase})")
    if e.actor != f.current:
        return c.skip("RE-TURN-ORDER", f"it is {f.current}'s turn {f.turn}, not {e.actor}'s")
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
    if f.phase != "turn":
        c.skip("RE-FLOW", f"orders are given during the turns of a round (now: {f.phase})")
        return False
    if e.actor != f.current:
        c.skip("RE-TURN-ORDER", f"it is {f.current}'s turn {f.turn}, not {e.actor}'s")
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
    card = s.data.cards[f.card]
    if order not in card.orders:
        c.bad("RE-ORDER-ON-CARD", f"{order.replace('_', ' ')} is not an order on {f.card!r} "
              f"({' / '.join(o.replace('_', ' ') for o in card.orders)})")
    return True


# ---------------------------------------------------------------------------------------------
# moving units: expand, split expand, maneuver
# ---------------------------------------------------------------------------------------------

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
        c.bad("RE-EXPAND-DEFENDER-LEAVE", f"{actor} leaves {left.total} units in disputed {frm}; the "
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
    berlin = (f.phase == "turn" and e.actor == f.current and f.order_done in ("expand", "split_expand")
              and not f.berlin_used and f.pending is None)
    if berlin:
        if not _turn_precheck(s, e, c):
            return None
        if not has_tile(s, actor, "Berlin"):
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


# ---------------------------------------------------------------------------------------------
# coins: tax and spend
# ---------------------------------------------------------------------------------------------

def _capped(units: Units, room: Units) -> Units:
    return Units(*(max(0, min(a, b)) for a, b in zip(units, room)))


def _taxed(s: State, e: Event, c: _Ctx) -> State | None:
    if not _order_precheck(s, e, c, "tax"):
        return None
    actor = e.actor
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
        cities = [s.data.cities[t].name for t in line if t in s.data.cities]
        c.note(f"{actor} taxes from {s.data.cities[city].name}: {coins} coins from {len(line)} territories "
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
        c.claim("RE-CLAIM", f"{actor} claims {e.payload.coins} coins of tax from {s.data.cities[city].name}; "
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
            price = COST["castle"] - (3 if has_tile(s, actor, "Berlin") else 0)
            total += price
            castles_left -= 1
            terr[t] = x._replace(castle=True)
            bought.append(f"a castle in {t} ({price})")
            if price < COST["castle"]:
                c.note(f"Berlin tile: the castle in {t} costs {price} coins instead of {COST['castle']}")
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
            escort = _capped(Units(footman=4 * n), room)
            room = room.minus(escort)
            add = add + escort
            if escort.total:
                c.note(f"Constantinople tile: {escort.footman} Footmen escort the Siege Weapon{'s' if n > 1 else ''} for free")
        terr[t] = terr[t]._replace(units=terr[t].units + add)
        bought.append(f"{u.describe()} in {t}")
    if total > ps.coins:
        return c.skip("RE-SPEND-COST", f"{actor} spends {total} coins but holds {ps.coins}")
    if e.payload.coins is not None and e.payload.coins != total:
        c.claim("RE-CLAIM", f"{actor} claims to pay {e.payload.coins} coins; the purchases cost {total}")
    players = dict(s.players)
    players[actor] = ps._replace(coins=ps.coins - total, crown_cards=crown_cards,
                                 crown_card_round=bought_card_round)
    c.note(f"{actor} spends {total} coins: " + ("; ".join(bought) if bought else "nothing"))
    return replace(s, terr=terr, players=players, castles_left=castles_left, crown_cards_left=cards_left,
                   flow=s.flow._replace(order_done="spend"))


# ---------------------------------------------------------------------------------------------
# bonus actions
# ---------------------------------------------------------------------------------------------

def _bonus_precheck(s: State, e: Event, c: _Ctx, bonus: str) -> bool:
    if not _turn_precheck(s, e, c):
        return False
    f = s.flow
    card = s.data.cards[f.card]
    if card.bonus != bonus:
        c.bad("RE-BONUS-CARD", f"{f.card!r} carries no {bonus.replace('_', ' ')} bonus action")
    if f.bonus_used:
        c.bad("RE-BONUS-CARD", f"{e.actor} has already used the bonus action of {f.card!r}"
              + (" (the Berlin free maneuver comes after all other actions)" if f.berlin_used else ""))
    return True


def _fortified(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bonus_precheck(s, e, c, "fortify"):
        return None
    actor = e.actor
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    x = s.terr[t]
    if x.attacker == actor:
        return c.skip("RE-FORTIFY", f"{actor} attacks {t}; only the defender may fortify a disputed territory")
    if x.owner != actor:
        return c.skip("RE-FORTIFY", f"{actor} does not control {t} (held by {_name(s, x.owner)})")
    if not (t in s.data.cities or x.castle):
        c.bad("RE-FORTIFY", f"{t} is neither a city nor a castle territory")
    want = 4 if x.castle else 3
    add = min(want, reserve(s, actor).footman)
    if e.payload.footmen is not None and e.payload.footmen != add:
        c.claim("RE-CLAIM", f"{actor} claims {e.payload.footmen} Footmen fortify {t}; the rules give {add}")
    terr = dict(s.terr)
    terr[t] = x._replace(units=x.units + Units(footman=add))
    c.note(f"{actor} fortifies {t}: +{add} Footmen" + (" (castle territory)" if x.castle else ""))
    return replace(s, terr=terr, flow=s.flow._replace(bonus_used=True))


def _siege_assaulted(s: State, e: Event, c: _Ctx) -> State | None:
    if not _bonus_precheck(s, e, c, "siege_assault"):
        return None
    actor = e.actor
    frm = _resolve(s, e.payload.from_, c)
    target = _resolve(s, e.payload.target, c)
    if frm is None or target is None:
        return None
    src, dst = s.terr[frm], s.terr[target]
    if src.owner != actor:
        return c.skip("RE-SIEGE-FROM", f"{actor} does not control {frm}")
    if src.units.siege < 1:
        return c.skip("RE-SIEGE-FROM", f"{frm} holds no Siege Weapon of {actor}'s")
    if src.is_disputed:
        c.bad("RE-SIEGE-FROM", f"{frm} is in dispute; siege assaults may not be made from a disputed territory")
    if dst.owner is None or dst.owner == actor:
        return c.skip("RE-SIEGE-TARGET", f"{target} is not an enemy territory (held by {_name(s, dst.owner)})")
    if s.is_teammate(actor, dst.owner):
        return c.skip("RE-TEAM-TERRITORY", f"{target} is held by {actor}'s teammate {dst.owner}; a Siege "
                      "Assault is never made on a teammate")
    if target not in s.data.land_neighbours[frm]:
        if target in s.data.neighbours[frm]:
            c.bad("RE-SIEGE-TARGET", f"{frm} and {target} are joined by a sea-line; siege assaults cross land borders only")
        else:
            c.bad("RE-SIEGE-TARGET", f"{target} is not adjacent to {frm}")
    if dst.is_disputed:
        c.bad("RE-SIEGE-TARGET", f"{target} is in dispute; siege assaults may not be made into a disputed territory")
    n = 2 * src.units.siege
    c.note(f"{actor} siege-assaults {target} ({dst.owner}) from {frm}: {n} dice, hits on 3+")
    return replace(s, flow=s.flow._replace(bonus_used=True, pending=("siege_dice", frm, target, n)))


def _siege_dice(s: State, e: Event, c: _Ctx) -> State | None:
    _, frm, target, n = s.flow.pending
    rolls = e.payload.rolls
    roller = s.flow.current
    if set(rolls) != {roller}:
        return c.skip("RE-SIEGE-DICE", f"the siege assault dice are rolled by {roller} alone; got "
                      f"rolls for {', '.join(rolls) or 'nobody'}")
    dice = rolls[roller]
    if _bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dice!r}")
    if len(dice) != n:
        c.bad("RE-SIEGE-DICE", f"the siege assault rolls {n} dice (2 per Siege Weapon); the log has {len(dice)}")
    if e.payload.territory is not None and s.data.resolve(e.payload.territory) != target:
        c.claim("RE-CLAIM", f"the dice are labelled for {e.payload.territory!r}; the siege assault is on {target}")
    hits = sum(1 for d in dice if d >= SIEGE_HITS_ON)
    x = s.terr[target]
    owed = min(hits, x.units.total)
    c.note(f"Siege assault dice {dice}: {hits} hit{'s' if hits != 1 else ''} on {x.owner} in {target}")
    s = _roll(s, dice, c)
    pending = ("casualties", target, x.owner, owed) if owed else None
    return replace(s, flow=s.flow._replace(pending=pending))


def _siege_casualties(s: State, e: Event, c: _Ctx) -> State | None:
    _, target, victim, owed = s.flow.pending
    if e.actor != victim:
        return c.skip("RE-CASUALTIES", f"{victim} chooses the casualties of the siege assault on {target}, not {e.actor}")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if t != target:
        return c.skip("RE-CASUALTIES", f"the siege assault hit {target}, not {t}")
    x = s.terr[t]
    units = _units(e.payload.units)
    if not x.units.covers(units):
        return c.skip("RE-CASUALTIES", f"{victim} removes {units.describe()} from {t}, which holds {x.units.describe()}")
    if units.total != owed:
        c.bad("RE-CASUALTIES", f"{victim} must remove {owed} unit{'s' if owed != 1 else ''} from {t}; "
              f"the log removes {units.total}")
    left = x.units.minus(units)
    terr = dict(s.terr)
    if left.total == 0:
        terr[t] = Terr(castle=x.castle, since=s.step)
        c.note(f"{victim} loses {units.describe()} in {t}; {t} is left empty and becomes unclaimed "
               "(RE-RULING-SIEGE-EMPTIES)")
    else:
        terr[t] = x._replace(units=left)
        c.note(f"{victim} removes {units.describe()} from {t}")
    return replace(s, terr=terr, flow=s.flow._replace(pending=None))


# ---------------------------------------------------------------------------------------------
# Kingdom Missions
# ---------------------------------------------------------------------------------------------

def missions_taken(s: State) -> set[str]:
    """Missions whose ids are known to be out of the Crown Card deck: kept openly or completed."""
    return {m for ps in s.players.values() for m in (*ps.kept_missions, *ps.missions_done)}


def _mission_kept(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MISSION-DRAW: one of the Crown Cards drawn with King Me is kept face down."""
    f = s.flow
    if f.phase != "turn" or f.pending is None or f.pending[0] != "mission":
        return c.skip("RE-MISSION-DRAW", "Crown Cards are drawn only when King Me is revealed in a game with "
                      "Kingdom Missions" + ("" if s.missions else f" ({s.variant} has none)"))
    _, drawer, n = f.pending
    if e.actor != drawer:
        return c.skip("RE-MISSION-DRAW", f"{drawer} drew the Crown Cards, not {e.actor}")
    ps = s.players[e.actor]
    mission = e.payload.mission
    if mission is not None:
        if mission not in s.data.mission_ids:
            return c.skip("RE-NAME", f"no Kingdom Mission {mission!r} (missions: {', '.join(s.data.mission_ids)})")
        if mission in missions_taken(s):
            c.bad("RE-MISSION-DRAW", f"{mission} is not in the Crown Card deck: it was kept or completed before")
        ps = ps._replace(kept_missions=ps.kept_missions + (mission,))
    else:
        ps = ps._replace(kept_commitments=ps.kept_commitments + (e.payload.commitment,))
    players = dict(s.players)
    players[e.actor] = ps
    c.note(f"{e.actor} keeps a mission face down" + (f" ({mission})" if mission else "")
           + (" and returns the other Crown Card to the bottom of the deck" if n > 1 else ""))
    return replace(s, players=players, crown_cards_left=s.crown_cards_left - 1,
                   flow=f._replace(pending=None))


def _mission_completed(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-MISSION-REVEAL, RE-MISSION-COMPLETE, RE-MISSION-UNVERIFIED: a kept mission turned over."""
    if not s.missions:
        return c.skip("RE-MISSION-REVEAL", f"{s.variant} is played without Kingdom Missions")
    if not _turn_precheck(s, e, c):
        return None
    actor, mission = e.actor, e.payload.mission
    if mission not in s.data.mission_ids:
        return c.skip("RE-NAME", f"no Kingdom Mission {mission!r} (missions: {', '.join(s.data.mission_ids)})")
    ps = s.players[actor]
    if mission in ps.kept_missions:
        ps = ps._replace(kept_missions=tuple(m for m in ps.kept_missions if m != mission))
    else:
        hit = next((h for h in ps.kept_commitments if matches_commitment(h, mission, e.payload.salt)), None)
        if hit is None:
            return c.skip("RE-MISSION-REVEAL", f"{actor} kept no mission {mission!r}"
                          + (" (no kept commitment matches it with that salt)" if ps.kept_commitments else ""))
        ps = ps._replace(kept_commitments=tuple(h for h in ps.kept_commitments if h != hit))
    done_by = next((p for p, x in s.players.items() if mission in x.missions_done), None)
    if done_by is not None:
        return c.skip("RE-MISSION-REVEAL", f"{mission} was already completed by {done_by}")
    book = s.data.missions
    info = book.missions.get(mission) if book is not None else None
    if info is None or info.condition is None:
        why = "no mission file was given" if book is None else "the mission file gives no condition for it"
        c.claim("RE-MISSION-UNVERIFIED", f"{actor} declares {mission} completed; {why}, so the completion "
                "is the player's unverified claim")
    else:
        from engine.risk_europe.missions import condition_holds
        if not condition_holds(info.condition, s, actor):
            return c.skip("RE-MISSION-COMPLETE", f"{actor} declares {mission} ({info.title or info.text or mission}) "
                          f"completed, but its condition {dict(info.condition)!r} does not hold on the board")
    players = dict(s.players)
    players[actor] = ps._replace(missions_done=ps.missions_done + (mission,), crown_cards=ps.crown_cards + 1)
    title = f" — {info.title}" if info is not None and info.title else ""
    bonus = f"; bonus from round {s.flow.round + 1}: {info.bonus}" if info is not None and info.bonus else ""
    check = "verified" if info is not None and info.condition is not None else "unverified"
    c.note(f"{actor} completes {mission}{title} ({check}): a permanent crown{bonus}")
    return replace(s, players=players)


# ---------------------------------------------------------------------------------------------
# battles
# ---------------------------------------------------------------------------------------------

def _first_rank(att: Units, dfn: Units, start: int) -> int:
    for r in range(start, 4):
        unit = RANK_UNIT[r]
        if getattr(att, unit) or getattr(dfn, unit):
            return r
    return 4


def expected_dice(rank: int, att: Units, dfn: Units) -> tuple[int, int]:
    """Dice each side rolls in a rank of the Ranked Attack Order (RE-BATTLE-DICE)."""
    if rank == 4:
        return min(3, att.total), min(2, dfn.total)
    unit = RANK_UNIT[rank]
    k = RANK_DICE_PER_UNIT[rank]
    return k * getattr(att, unit), k * getattr(dfn, unit)


def rank_hits(rank: int, att_dice, def_dice) -> tuple[int, int]:
    """(hits scored by the attacker, hits scored by the defender) in one rank (RE-BATTLE-HITS)."""
    if rank == 4:
        a = sorted(att_dice, reverse=True)
        d = sorted(def_dice, reverse=True)
        ah = dh = 0
        for x, y in zip(a, d):
            if x > y:
                ah += 1
            else:
                dh += 1
        return ah, dh
    need = RANK_HITS_ON[rank]
    return sum(1 for x in att_dice if x >= need), sum(1 for y in def_dice if y >= need)


def _battle_started(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.phase != "battles":
        return c.skip("RE-FLOW", f"battles are fought after both turns of a round (now: {s.flow.phase})")
    if s.battle is not None:
        return c.skip("RE-FLOW", f"the battle in {s.battle.territory} is not over")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    x = s.terr[t]
    if not x.is_disputed:
        return c.skip("RE-BATTLE-ORDER", f"{t} is not a disputed territory"
                      + (" (its battle was already fought)" if t in s.fought else ""))
    if e.actor != s.marker:
        c.bad("RE-BATTLE-ORDER", f"{s.marker} holds the First Player Marker and chooses the order of "
              f"battles, not {e.actor}")
    rank = _first_rank(x.attacker_units, x.units, 1)
    b = Battle(territory=t, attacker=x.attacker, defender=x.owner, castle=x.castle, rank=rank)
    c.note(f"Battle for {t}: {x.attacker} ({x.attacker_units.describe()}) attacks {x.owner} "
           f"({x.units.describe()}){' behind a castle' if x.castle else ''}")
    s = replace(s, battle=b)
    if x.units.total == 0 or x.attacker_units.total == 0:
        return _battle_end(s, c)        # an army already gone (RE-RULING-EMPTY-SIDE): no dice
    return s


def _can_reroll(s: State, b: Battle) -> bool:
    return b.castle and not b.reroll_used and len(b.rolls[1]) > 0 and b.stage == "rolled"


def _battle_owed(s: State, b: Battle, ah: int, dh: int) -> tuple[tuple[PlayerId, int], ...]:
    """The casualties each side owes after a rank with these hits (`rank_hits`)."""
    x = s.terr[b.territory]
    owed = []
    if ah:
        owed.append((b.defender, min(ah, x.units.total)))
    if dh:
        owed.append((b.attacker, min(dh, x.attacker_units.total)))
    return tuple((p, n) for p, n in owed if n > 0)


def _battle_dice(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    if b.stage != "roll":
        if b.owed:
            return c.skip("RE-FLOW", f"casualties of {RANK_NAME[b.rank]} in {b.territory} must be removed "
                          "before the next roll: " + ", ".join(f"{p} {n}" for p, n in b.owed))
        s = _battle_next(s, c)      # the defender did not re-roll
        b = s.battle
        if b is None:
            return c.skip("RE-FLOW", "the battle is over")
    x = s.terr[b.territory]
    rolls = e.payload.rolls
    extra = set(rolls) - {b.attacker, b.defender}
    if extra:
        return c.skip("RE-BATTLE-DICE", f"only {b.attacker} and {b.defender} roll in {b.territory}; got "
                      f"rolls for {', '.join(sorted(extra))}")
    if _bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    if e.payload.territory is not None and s.data.resolve(e.payload.territory) != b.territory:
        return c.skip("RE-FLOW", f"the battle being fought is in {b.territory}, not {e.payload.territory!r}")
    if e.payload.rank is not None and e.payload.rank != b.rank:
        c.bad("RE-BATTLE-DICE", f"the next roll in {b.territory} is {RANK_NAME[b.rank]}, the log labels it rank {e.payload.rank}")
    att = list(rolls.get(b.attacker, ()))
    dfn = list(rolls.get(b.defender, ()))
    na, nd = expected_dice(b.rank, x.attacker_units, x.units)
    if len(att) != na or len(dfn) != nd:
        c.bad("RE-BATTLE-DICE", f"{RANK_NAME[b.rank]} in {b.territory}: {b.attacker} rolls {na} and "
              f"{b.defender} rolls {nd} dice; the log has {len(att)} and {len(dfn)}")
    s = _roll(s, _seat_ordered_rolls(s, rolls), c)
    ah, dh = rank_hits(b.rank, att, dfn)
    owed = _battle_owed(s, b, ah, dh)
    c.note(f"{RANK_NAME[b.rank]} in {b.territory} (cycle {b.cycle}): {b.attacker} {att or '-'} "
           f"→ {ah} hit{'s' if ah != 1 else ''}; {b.defender} {dfn or '-'} → {dh} hit{'s' if dh != 1 else ''}")
    b = b._replace(stage="rolled", rolls=(tuple(att), tuple(dfn)), owed=owed)
    s = replace(s, battle=b)
    if not owed and not _can_reroll(s, b):
        return _battle_next(s, c)
    return s


def _dice_rerolled(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    if b is None or s.flow.phase != "battles":
        return c.skip("RE-CASTLE-DEFENSE", "a castle defense re-roll happens in a battle")
    if e.actor != b.defender:
        return c.skip("RE-CASTLE-DEFENSE", f"only the defender ({b.defender}) may re-roll with a castle")
    if not b.castle:
        return c.skip("RE-CASTLE-DEFENSE", f"there is no castle in {b.territory}")
    if b.stage != "rolled":
        return c.skip("RE-CASTLE-DEFENSE", "the re-roll comes right after a rank is rolled, before any casualty is removed")
    if b.reroll_used:
        return c.skip("RE-CASTLE-DEFENSE", f"{b.defender} has already re-rolled in cycle {b.cycle} of this battle")
    rolls = e.payload.rolls
    if set(rolls) != {b.defender}:
        return c.skip("RE-CASTLE-DEFENSE", f"the re-roll is {b.defender}'s alone; got rolls for {', '.join(rolls)}")
    dice = list(rolls[b.defender])
    if _bad_faces(rolls):
        return c.skip("RE-DICE-FACES", f"dice must show 1-6; got {dice!r}")
    if not b.rolls[1]:
        return c.skip("RE-CASTLE-DEFENSE", f"{b.defender} rolled no dice in {RANK_NAME[b.rank]}")
    if len(dice) != len(b.rolls[1]):
        c.bad("RE-CASTLE-DEFENSE", f"a re-roll is of all {len(b.rolls[1])} dice of the rank; the log has {len(dice)}")
    s = _roll(s, dice, c)
    ah, dh = rank_hits(b.rank, b.rolls[0], dice)
    owed = _battle_owed(s, b, ah, dh)
    c.note(f"Castle defense: {b.defender} re-rolls {list(b.rolls[1])} → {dice}; now {b.attacker} scores "
           f"{ah} and {b.defender} {dh} hit{'s' if dh != 1 else ''}")
    b = b._replace(reroll_used=True, rolls=(b.rolls[0], tuple(dice)), owed=owed, stage="removing")
    s = replace(s, battle=b)
    if not owed:
        return _battle_next(s, c)
    return s


def _battle_casualties(s: State, e: Event, c: _Ctx) -> State | None:
    b = s.battle
    owed = dict(b.owed)
    if b.stage == "roll" or e.actor not in owed:
        return c.skip("RE-CASUALTIES", f"{e.actor} has no hits to take in {b.territory} now"
                      + (f" (owed: {', '.join(f'{p} {n}' for p, n in b.owed)})" if b.owed else ""))
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if t != b.territory:
        return c.skip("RE-CASUALTIES", f"the battle being fought is in {b.territory}, not {t}")
    x = s.terr[t]
    side = x.units if e.actor == b.defender else x.attacker_units
    units = _units(e.payload.units)
    if not side.covers(units):
        return c.skip("RE-CASUALTIES", f"{e.actor} removes {units.describe()} from {t}, having {side.describe()} there")
    need = owed.pop(e.actor)
    if units.total != need:
        c.bad("RE-CASUALTIES", f"{e.actor} must remove {need} unit{'s' if need != 1 else ''} in {t}; "
              f"the log removes {units.total}")
    terr = dict(s.terr)
    if e.actor == b.defender:
        terr[t] = x._replace(units=x.units.minus(units))
    else:
        terr[t] = x._replace(attacker_units=x.attacker_units.minus(units))
    c.note(f"{e.actor} removes {units.describe()} in {t}")
    b = b._replace(owed=tuple(owed.items()), stage="removing")
    s = replace(s, terr=terr, battle=b)
    if not owed:
        return _battle_next(s, c)
    return s


def _battle_next(s: State, c: _Ctx) -> State:
    """After a rank: end the battle if an army is gone, else go on to the next rank or cycle."""
    b = s.battle
    x = s.terr[b.territory]
    if x.units.total == 0 or x.attacker_units.total == 0:
        return _battle_end(s, c)
    if b.rank < 4:
        rank = _first_rank(x.attacker_units, x.units, b.rank + 1)
        b = b._replace(rank=rank, stage="roll", rolls=((), ()), owed=())
    else:
        rank = _first_rank(x.attacker_units, x.units, 1)
        b = b._replace(rank=rank, cycle=b.cycle + 1, reroll_used=False, stage="roll", rolls=((), ()), owed=())
    return replace(s, battle=b)


def _battle_end(s: State, c: _Ctx) -> State:
    b = s.battle
    t = b.territory
    x = s.terr[t]
    terr = dict(s.terr)
    players = dict(s.players)
    city = s.data.cities.get(t)
    if x.units.total == 0 and x.attacker_units.total == 0:
        winner = None
        terr[t] = Terr(castle=x.castle, since=s.step)
        c.note(f"Both armies are eliminated in {t}: it becomes unclaimed"
               + (f"; {city.name}'s crown returns to the reserve" if city else ""))
    elif x.attacker_units.total == 0:
        winner = b.defender
        terr[t] = Terr(owner=x.owner, units=x.units, castle=x.castle, since=x.since)
        c.note(f"{b.defender} holds {t}")
    else:
        winner = b.attacker
        terr[t] = Terr(owner=b.attacker, units=x.attacker_units, castle=x.castle, since=s.step)
        taken = []
        if city:
            taken.append(f"{city.name} ({city.crowns} crown{'s' if city.crowns > 1 else ''}, no tax bonus)")
        if x.castle:
            taken.append("the castle")
        c.note(f"{b.attacker} takes {t} from {b.defender}" + (": " + ", ".join(taken) if taken else ""))
        if has_tile(s, b.attacker, "Stockholm"):
            ps = players[b.attacker]
            players[b.attacker] = ps._replace(coins=ps.coins + 4)
            c.note(f"Stockholm tile (Raid & Pillage): {b.attacker} collects 4 coins")
    s = replace(s, terr=terr, players=players, battle=None, fought=s.fought + (t,), last_battle=(t, winner))
    if all(v.attacker is None for v in terr.values()):     # nothing is disputed any more
        return _end_round(s, c)
    return s


# ---------------------------------------------------------------------------------------------
# claims and the end
# ---------------------------------------------------------------------------------------------

def _battle_ended(s: State, e: Event, c: _Ctx) -> State | None:
    t = s.data.resolve(e.payload.territory)
    if s.last_battle is None or s.last_battle[0] != t:
        c.claim("RE-CLAIM", f"the log declares the battle in {e.payload.territory!r} over, but the last battle "
                f"that ended was {s.last_battle[0] if s.last_battle else 'none'}")
    elif s.last_battle[1] != e.payload.winner:
        c.claim("RE-CLAIM", f"the log declares {_name(s, e.payload.winner)} the winner in {t}; the dice give "
                f"{_name(s, s.last_battle[1])}")
    return s


def _game_ended(s: State, e: Event, c: _Ctx) -> State | None:
    declared = e.payload.declared
    said = " and ".join(declared) or "no winner"
    rule = s.variant_rules.win_rule
    if s.result is None:
        c.claim(rule, f"the log declares the game over ({said}), but by the rules it goes on: "
                "no one has won yet")
        return s
    winners = s.result.winners
    if sorted(declared) != sorted(winners):
        c.claim(rule, f"the log declares {said}; the rules give "
                f"{' and '.join(winners) if winners else 'no winner'}" + _why_not(s, declared))
    return s


def _why_not(s: State, declared: tuple[PlayerId, ...]) -> str:
    """Why a declared winner is not one, when the variant's own win rule says so."""
    v = s.variant_rules
    bits = []
    for p in declared:
        if s.is_mercenary(p):
            bits.append(f"{p} is a Mercenary Army and never wins")
        elif v.win_crowns and p in s.players and crowns(s, p) < v.win_crowns:
            bits.append(f"{p} has {crowns(s, p)} crowns; {v.name} needs {v.win_crowns}")
    return f" ({'; '.join(bits)})" if bits else ""


def _seed_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    if s.dice_mode != "seeded":
        return c.skip("RE-DICE-SEED", "this game's dice were rolled at the table; there is no seed to reveal")
    seed = e.payload.seed
    if sha256_hex(seed) != (s.seed_hash or "").lower():
        c.bad("RE-DICE-SEED", "the revealed seed does not match the seed hash published at the start")
        return s
    if s.dice_tape is not None:
        c.note(f"Seed revealed: its hash matches; all {s.dice_count} dice were checked at their own lines")
        return s
    dice = logged_dice(s.dice_log)
    wrong = first_wrong_die(dice, seed)
    if wrong is not None:
        i, got, want = wrong
        c.bad("RE-DICE-SEED", f"die #{i + 1} of the game shows {got}; the seed gives {want}")
    c.note(f"Seed revealed: all {len(dice)} dice checked against it")
    return s


def _dice_rolled(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase == "rolloff":
        return _rolloff(s, e, c)
    if f.phase == "turn" and f.pending is not None and f.pending[0] == "siege_dice":
        return _siege_dice(s, e, c)
    if f.phase == "battles" and s.battle is not None:
        return _battle_dice(s, e, c)
    if f.phase == "battles":
        return c.skip("RE-BATTLE-ORDER", f"no battle has been started; {s.marker} first chooses which "
                      "disputed territory is fought (BattleStarted)")
    return c.skip("RE-FLOW", f"no dice are due now ({f.phase})")


def _casualties_removed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase == "turn" and f.pending is not None and f.pending[0] == "casualties":
        return _siege_casualties(s, e, c)
    if f.phase == "battles" and s.battle is not None:
        return _battle_casualties(s, e, c)
    return c.skip("RE-CASUALTIES", "no hits are waiting to be taken")


HANDLERS: dict[str, Callable[[State, Event, _Ctx], State | None]] = {
    "BidPlaced": _bid_placed,
    "BidRevealed": _bid_revealed,
    "DiceRolled": _dice_rolled,
    "DiceRerolled": _dice_rerolled,
    "KingdomPlaced": _kingdom_placed,
    "TilesDrawn": _tiles_drawn,
    "MercenaryBidsOrdered": _merc_bids_ordered,
    "MissionKept": _mission_kept,
    "MissionCompleted": _mission_completed,
    "CardsCommitted": _cards_committed,
    "CardRevealed": _card_revealed,
    "Expanded": _expanded,
    "SplitExpanded": _split_expanded,
    "Maneuvered": _maneuvered,
    "Taxed": _taxed,
    "Spent": _spent,
    "Fortified": _fortified,
    "SiegeAssaulted": _siege_assaulted,
    "CasualtiesRemoved": _casualties_removed,
    "BattleStarted": _battle_started,
    "BattleEnded": _battle_ended,
    "GameEnded": _game_ended,
    "SeedRevealed": _seed_revealed,
}

_AFTER_END = frozenset({"GameEnded", "SeedRevealed", "BattleEnded"})
_TABLE_EVENTS = frozenset({"BattleEnded", "GameEnded", "SeedRevealed", "DiceRolled", "TilesDrawn"})


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """Judge one event: every violation, and the next state (None when the event is skipped)."""
    c = _Ctx()
    if s.flow.phase == "over" and e.type not in _AFTER_END:
        c.skip("RE-GAME-OVER", f"the game ended in round {s.result.round if s.result else '?'}; "
               f"nothing more is played ({e.type})")
        return c.v, None
    handler = HANDLERS.get(e.type)
    if handler is None or e.type == "GameStarted":
        c.skip("RE-FLOW", f"{e.type} is not expected here" if handler is None else "the game has already started")
        return c.v, None
    if e.actor is not None and e.actor not in s.players:
        c.skip("RE-ACTOR", f"{e.actor!r} is not a player of this game ({', '.join(s.seats)})")
        return c.v, None
    if e.type not in _TABLE_EVENTS:
        if e.actor is None:
            c.skip("RE-ACTOR", f"{e.type} must name the acting player; {e.actor!r} is not a player "
                   f"of this game ({', '.join(s.seats)})")
            return c.v, None
        if s.players[e.actor].eliminated:
            c.skip("RE-ACTOR", f"{e.actor} has been eliminated and no longer plays")
            return c.v, None
    s2 = _resync(s, e, c)
    out = handler(s2, e, c)
    if out is None:
        return c.v, None
    f = s2.flow
    notes, at = tuple(c.notes), (f.phase, f.round, f.turn)
    if out is s:
        return c.v, replace(out, notes=notes, at=at)
    # `out` was made during this step and no one else holds it yet: stamp it in place (through
    # its dict: a frozen dataclass refuses setattr)
    d = out.__dict__
    d["notes"] = notes
    d["at"] = at
    return c.v, out


def conclude(s: State) -> State:
    """The log has ended: close the last turn if it is complete (the round may end with it)."""
    f = s.flow
    if f.phase == "turn" and _last_turn(f) and _turn_closable(f):
        c = _Ctx()
        out = _close_turn(s, c, lenient=False)
        return replace(out, notes=tuple(c.notes))
    return s


def result(s: State) -> GameResult | None:
    return s.result


def reveal_seed(s: State, seed: str) -> State:
    """A judge that has read the whole log knows the seed revealed at its end: with it, every die
    is checked at its own line. A seed that does not match the published hash changes nothing
    (SeedRevealed reports it)."""
    if s.dice_mode != "seeded" or sha256_hex(seed) != (s.seed_hash or "").lower():
        return s
    return replace(s, dice_tape=DiceTape(seed))
