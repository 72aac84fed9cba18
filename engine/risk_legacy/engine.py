"""The Risk Legacy decider: `step(state, event) -> (violations, next state | None)`.

Judging policy (docs/risk-legacy.md, RL-RULING-AFTER-ILLEGAL): every violation of an event is
reported. An illegal event that can still be carried out on the board (a marked starting
territory, a second maneuver, an attack after the maneuver, a wrong number of troops recruited) is
applied as recorded, so that the rest of the game is judged against what really happened at the
table; one that cannot be carried out (an unknown territory, troops that are not there, a card not
in hand, a move out of turn) is skipped and changes nothing. Wrong claims (troops recruited, troops
lost, the winner) are reported and the rules' own values are used. A step the log leaves out that
the rules settle alone (the troops removed after a roll, the move-in after a conquest, the end of a
turn) is settled by the rules with one claim finding (RL-RULING-IMPLICIT-STEPS).

The world (cities, scars, fortification wear, names, marks, card resources, signatures) is part
of the state: scars placed and fortifications worn during play change it at once, the end of the
game records the faction cards and the signature, and the rewards change it last. Event and
Mission cards are content the rulebook does not print: their draws are checked, their effects are
claims applied as recorded (RL-RULING-EVENT-EFFECTS).

Random draws are chance events (RL-CHANCE-DRAW): the Scar deal, the Territory cards laid out and
each card revealed into slot 1 are drawn from pools the engine knows (`scar_pool`, `layout_pool`,
`reveal_pool`), so their dice are checked against the draw rule (engine.core.chance) and counted as
dice of the game, checked against the seed like any die. A Scar card dealt face down is a
commitment, checked when it is turned over (RL-SCAR-REVEAL, RL-RULING-HIDDEN-SCARS).
"""

from __future__ import annotations

from itertools import count as count_from
from typing import Callable

from engine.core.canonical import sha256_hex
from engine.core.chance import DrawError, draw, draw_with, judge_draw
from engine.core.commit import matches_commitment
from engine.core.dice import DiceTape, logged_dice, record_dice
from engine.core.events import Event
from engine.core.rules import Verdicts, Violation
from engine.core.ruleset import GameResult
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTION_NAMES, FACTIONS, SCAR_EFFECTS, GameData, Territory
from engine.risk_legacy.combat import (
    Modifier, casualties, final_dice, is_double_six, is_three_of_a_kind,
)
from engine.risk_legacy.rules import RULES
from engine.risk_legacy.state import (
    END, FACE_DOWN, MAIN, MANEUVERED, START, STEP_NAMES, Combat, Flow, Player, PlayerId, ScarDeal,
    Sideboard, State, Terr,
)
from engine.risk_legacy.state import evolve as replace

V = RULES.violation

WIN_STARS = 4
WINNER_REWARDS = frozenset({"name_continent", "found_major_city", "cancel_scar", "change_continent_bonus",
                            "fortify_city", "destroy_card"})
HELD_ON_REWARDS = frozenset({"found_minor_city", "upgrade_card"})
PACK_CONDITIONS = {
    "pack_1": "the 9th Minor City is founded",
    "pack_2": "a faction is eliminated",
    "pack_3": "a person signs the victors' section for the second time",
    "pack_4": "the World Capital mark is placed",
    "pocket_1": "3 Missiles are used in the same combat roll",
    "pocket_2": "a player holding a Missile is about to place 30 or more troops",
}


class _Ctx(Verdicts):
    """What judging one event produced: violations citing this ruleset's rules, and notes."""

    __slots__ = ()
    book = RULES


# ---------------------------------------------------------------------------------------------
# start
# ---------------------------------------------------------------------------------------------

def start_world(payload, data: GameData) -> W.World:
    """The world a game starts from: the one its GameStarted carries, or the uncustomized box."""
    return payload.world if payload.world is not None else W.pristine_world(data)


def check_start(payload, data: GameData) -> list[Violation]:
    """Violations of the game's first event (players, data, world, campaign)."""
    out: list[Violation] = []
    ids = [p.id for p in payload.players]
    if not 3 <= len(ids) <= 5:
        out.append(V("RL-START-PLAYERS", f"Risk Legacy is for 3 to 5 players; the log names {len(ids)}: {ids!r}"))
    if len(set(ids)) != len(ids):
        out.append(V("RL-START-PLAYERS", f"player ids must be distinct: {ids!r}"))
    if payload.data is not None:
        if payload.data.board and payload.data.board != data.board_digest:
            out.append(V("RL-START-DATA", f"the log was recorded with board {payload.data.board[:12]}..., "
                         f"this judge uses board {data.board_digest[:12]}...", blocking=False))
        if payload.data.rules and payload.data.rules != data.rules_digest:
            out.append(V("RL-START-DATA", f"the log was recorded with rules data {payload.data.rules[:12]}..., "
                         f"this judge uses {data.rules_digest[:12]}...", blocking=False))
    world = start_world(payload, data)
    for problem in W.check_world(world, data):
        out.append(V("RL-START-WORLD", problem))
    camp = payload.campaign
    if camp is not None:
        if payload.world is None:
            out.append(V("RL-START-WORLD", f"game {camp.game} of campaign {camp.name!r} must carry the "
                         "world it starts from"))
        elif camp.world != W.world_digest(world):
            out.append(V("RL-START-WORLD", f"the log declares world {camp.world[:12]}... but the world it "
                         f"carries has digest {W.world_digest(world)[:12]}...", blocking=False))
        if camp.game != world.games + 1:
            out.append(V("RL-CAMPAIGN-ORDER", f"the log calls this game {camp.game} of {camp.name!r}; its "
                         f"world has {world.games} games played, so this is game {world.games + 1}",
                         blocking=False))
    return out


def initial_state(payload, data: GameData) -> State:
    """The state before setup: tokens from the victors' section, the decks, an empty board."""
    world = start_world(payload, data)
    seats = tuple(p.id for p in payload.players)
    players = {}
    for p in seats:
        signed = W.signatures_of(world, p)
        players[p] = Player(tokens=0 if signed else 1, missiles=signed)
    side = Sideboard(draw=frozenset(world.resources), coins=data.inventory["coin_cards"],
                     events_left=payload.events, missions_left=payload.missions)
    return State(
        data=data,
        world=world,
        world_start=W.world_digest(world),
        game_no=world.games + 1,
        campaign=payload.campaign.name if payload.campaign else None,
        seats=seats,
        names={p.id: (p.name or p.id) for p in payload.players},
        dice_mode=payload.dice.mode,
        seed_hash=payload.dice.seed_hash,
        players=players,
        terr={t: Terr() for t in data.territories},
        side=side,
        flow=Flow(phase="setup"),
        combat=None,
        end_holdings=None,
        outcomes=None,
        result=None,
        dice_log=None,
    )


# ---------------------------------------------------------------------------------------------
# derived facts (questions about the state)
# ---------------------------------------------------------------------------------------------

def territories_of(s: State, p: PlayerId) -> list[Territory]:
    return [t for t, x in s.terr.items() if x.owner == p]


def troops_of(s: State, p: PlayerId) -> int:
    return sum(x.troops for x in s.terr.values() if x.owner == p)


def hqs_of(s: State, p: PlayerId) -> list[Territory]:
    """Territories holding an HQ that `p` controls (RL-STARS)."""
    return [t for t, x in s.terr.items() if x.hq is not None and x.owner == p]


def stars(s: State, p: PlayerId) -> int:
    """Red Star tokens plus HQs controlled (RL-STARS)."""
    return s.players[p].tokens + len(hqs_of(s, p))


def population_of(s: State, p: PlayerId) -> int:
    return sum(W.population(s.world, s.data, t) for t in territories_of(s, p))


def has_power(s: State, p: PlayerId, power: str) -> bool:
    """Does `p`'s faction have this starting power on this world?"""
    f = s.players[p].faction
    return f is not None and s.world.powers.get(f) == power


def faction_name(s: State, p: PlayerId) -> str:
    f = s.players[p].faction
    return f"{p} ({FACTION_NAMES[f]})" if f else p


def continents_of(s: State, p: PlayerId) -> dict[str, int]:
    """The continents `p` controls and what each gives them (RL-CONTINENT)."""
    out = {}
    for c, ts in s.data.continents.items():
        if all(s.terr[t].owner == p for t in ts):
            out[c] = W.continent_bonus(s.world, s.data, c, p)
    return out


def recruit_base(s: State, p: PlayerId) -> int:
    """(territories + population) / 3, rounded down (up for Imperial Balkania's power), at least 3."""
    n = len(territories_of(s, p)) + population_of(s, p)
    base = -(-n // 3) if has_power(s, p, "balk-round-up") else n // 3
    return max(3, base)


def trade_value(s: State, resources: int) -> int:
    """Troops for turning in cards worth `resources` (the trade chart; 0 below its first row;
    the top row above it)."""
    chart = W.trade_chart(s.world, s.data)
    if resources in chart:
        return chart[resources]
    if resources > max(chart):
        return chart[max(chart)]
    return 0


def resources_of(s: State, cards) -> int:
    return sum(W.card_resources(s.world, c) for c in cards)


def recruit_total(s: State, p: PlayerId, cards=()) -> int:
    """Every troop `p` recruits now, turning in `cards` (RL-RECRUIT-COUNT)."""
    bonus = sum(continents_of(s, p).values())
    return recruit_base(s, p) + bonus + (trade_value(s, resources_of(s, cards)) if cards else 0)


def is_legal_start(s: State, p: PlayerId, t: Territory) -> bool:
    """Unoccupied, and unmarked or a Major City `p` founded (RL-START-TERRITORY)."""
    if s.terr[t].is_occupied:
        return False
    m = W.marks(s.world, t)
    if m.city is not None and m.city.kind == "major" and m.city.founder == p:
        return True
    return W.is_unmarked_for_start(s.world, t)


def is_next_to_hq(s: State, t: Territory) -> bool:
    return any(s.terr[n].hq is not None for n in s.data.neighbours[t])


def legal_starts(s: State, p: PlayerId, *, with_hq: bool) -> list[Territory]:
    """Where `p` may start (with an HQ: not next to another HQ) or Join the War."""
    return [t for t in s.data.territories if is_legal_start(s, p, t)
            and not (with_hq and is_next_to_hq(s, t))]


def connected(s: State, p: PlayerId, a: Territory, b: Territory) -> bool:
    """Is there a path from `a` to `b` through territories `p` controls (RL-MANEUVER-PATH)?"""
    seen = {a}
    todo = [a]
    while todo:
        t = todo.pop()
        for n in s.data.neighbours[t]:
            if n not in seen and s.terr[n].owner == p:
                if n == b:
                    return True
                seen.add(n)
                todo.append(n)
    return False


def face_up_choices(s: State, p: PlayerId) -> list[str]:
    """The face-up Territory cards of territories `p` controls (RL-DRAW-CHOICE)."""
    return [card for card in s.side.slots if card is not None
            and s.terr[s.data.territory_of_card[card]].owner == p]


def may_draw(s: State, p: PlayerId) -> bool:
    """Is `p` eligible for a Resource card this turn (RL-DRAW-ELIGIBLE, Balkania's power)?"""
    f = s.flow
    return f.conquered > 0 or (f.expanded >= 4 and has_power(s, p, "balk-expansion-card"))


def defence_modifiers(s: State, cb: Combat) -> list[Modifier]:
    """What changes the defender's dice in `cb`: the scar, a fortification, the Enclave's first strike."""
    mods: list[Modifier] = []
    m = W.marks(s.world, cb.to)
    if m.scar in SCAR_EFFECTS:
        die, delta = SCAR_EFFECTS[m.scar]
        mods.append(Modifier(die, delta, m.scar.replace("_", " ")))
    if is_fortified_for(s, cb):
        mods.append(Modifier("each", +1, "fortification"))
    if has_power(s, cb.attacker, "bear-first-strike") and s.flow.first_attack == cb.to:
        mods.append(Modifier("lower", -1, "Enclave first strike"))
    return mods


def is_fortified_for(s: State, cb: Combat) -> bool:
    """Is the defended territory fortified: a city with boxes left, or Die Mechaniker's starting HQ
    defended by them (RL-FORTIFICATION, RL-POWER-MECH-FORTIFIED-HQ; one fortification, not two)."""
    if W.is_fortified(s.world, cb.to):
        return True
    return _mech_hq(s, cb)


def _mech_hq(s: State, cb: Combat) -> bool:
    d = s.players[cb.defender]
    x = s.terr[cb.to]
    return (has_power(s, cb.defender, "mech-fortified-hq") and d.faction is not None
            and x.hq == d.faction and d.start == cb.to)


def roll_result(s: State, cb: Combat) -> tuple[list[int], list[int], int, int]:
    """The final dice (attacker, defender) and the troops each side loses for `cb`'s roll."""
    att, dfn = cb.rolls
    miss_a = [i for side, i, _ in cb.missiles if side == "attacker"]
    miss_d = [i for side, i, _ in cb.missiles if side == "defender"]
    fa = final_dice(att, (), miss_a)
    fd = final_dice(dfn, defence_modifiers(s, cb), miss_d)
    a_lost, d_lost = casualties(fa, fd)
    return fa, fd, a_lost, d_lost


def _name(p: PlayerId | None) -> str:
    return "nobody" if p is None else p


def _tname(s: State, t: Territory) -> str:
    return s.data.names.get(t, t)


def _resolve(s: State, name: str, c: _Ctx, what: str = "territory") -> Territory | None:
    t = s.data.resolve(name)
    if t is None:
        c.skip("RL-NAME", f"{what} {name!r} is not on the board")
    return t


def _cards(s: State, names, c: _Ctx) -> list[str] | None:
    out = []
    for n in names:
        card = s.data.resolve_card(n)
        if card is None:
            c.skip("RL-NAME", f"no resource card {n!r} (a card id such as 'A12', a territory, or 'coin')")
            return None
        out.append(card)
    return out


def _take_from_hand(hand: tuple[str, ...], cards: list[str]) -> tuple[str, ...] | None:
    """The hand without `cards`; None if a card is not there (as many times as it is named)."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return tuple(rest)


def _turn_in(side: Sideboard, cards: list[str]) -> Sideboard:
    """Cards turned in: Territory cards to the discard pile, Coin cards back to the Coin pile."""
    coins = sum(1 for card in cards if card == COIN)
    return side._replace(discard=side.discard | {card for card in cards if card != COIN},
                         coins=side.coins + coins)


def _roll(s: State, values: list[int], c: _Ctx) -> State:
    """Record dice; with the seed already known, check each against its stream (RL-DICE-SEED)."""
    log, count, wrong = record_dice(s.dice_log, s.dice_count, s.dice_tape, values)
    if wrong is not None:
        i, got, want, seed_faces = wrong
        c.bad("RL-DICE-SEED", f"die #{i + 1} of the game shows {got}; the revealed seed gives {want} "
              f"(dice here {list(values)}, seed {seed_faces})")
    return replace(s, dice_log=log, dice_count=count)


def _check_draw(s: State, pool, n: int, got: list, dice: list[int] | None, what: str, c: _Ctx) -> State:
    """A random draw of `n` from `pool` that came out as `got` (RL-CHANCE-DRAW): with dice, they
    must give `got` by the draw rule, and are recorded as dice of the game (so a seeded game
    checks them against its stream); a seeded game's draw must carry its dice."""
    problem, message = judge_draw(pool, n, got, dice, seeded=s.dice_mode == "seeded", what=what,
                                  show=_listed)
    if problem is not None:
        c.bad("RL-DICE-FACES" if problem == "faces" else "RL-CHANCE-DRAW", message)
    if dice is None or problem == "faces":
        return s
    return _roll(s, list(dice), c)


def _check_blind_draw(s: State, left: int, dice: list[int] | None, what: str, c: _Ctx) -> State:
    """A card drawn from a deck whose cards the engine does not know (Event, Mission): the card
    is a claim; with dice, they are exactly the dice a draw of one card from the `left` cards
    takes (RL-CHANCE-DRAW), and are dice of the game."""
    if dice is None:
        return s
    if any(not 1 <= d <= 6 for d in dice):
        c.bad("RL-DICE-FACES", f"dice must show 1-6; got {dice!r}")
        return s
    try:
        draw_with(range(left), 1, dice)
    except DrawError as exc:
        c.bad("RL-CHANCE-DRAW", f"{what}, one of {left} cards: {exc} (dice {dice!r})")
    return _roll(s, list(dice), c)


def _listed(items) -> str:
    return "[" + ", ".join(str(x) for x in items) + "]"


def _seat_ordered(s: State, rolls: dict[str, list[int]]) -> list[int]:
    out: list[int] = []
    for p in s.seats:
        out.extend(rolls.get(p, ()))
    return out


def _bad_faces(rolls: dict[str, list[int]]) -> bool:
    return any(not (1 <= d <= 6) for dice in rolls.values() for d in dice)


def _open_pack(s: State, pack: str, c: _Ctx, why: str = "") -> State:
    """Record a sealed pack's opening condition the moment it is met (once per world)."""
    if W.pack_opened(s.world, pack):
        return s
    cond = PACK_CONDITIONS[pack]
    c.note(f"Sealed {pack.replace('_', ' ')} opens now: {cond}{why} (its contents are not part of "
           "this engine)")
    return replace(s, world=W.with_pack(s.world, pack, s.game_no, cond))


def _set_terr(s: State, **changes: Terr) -> dict:
    terr = dict(s.terr)
    terr.update(changes)
    return terr


# ---------------------------------------------------------------------------------------------
# setup: scar cards, the sideboard, the roll-off, factions
# ---------------------------------------------------------------------------------------------

def scar_cards_available(s: State) -> dict[str, int]:
    return {kind: s.world.supply.get(f"scar:{kind}", 0) for kind in s.data.scar_cards}


def scar_pool(s: State) -> tuple[str, ...]:
    """The Scar deck a deal draws from: every available card, by kind in the rules data's order
    (bunker, bunker, ..., ammo_shortage, ...). Dealt in seat order: the first card drawn goes to
    the first seat."""
    return tuple(kind for kind, n in scar_cards_available(s).items() for _ in range(n))


def layout_pool(s: State) -> tuple[str, ...]:
    """The Territory deck the face-up cards are laid out from, in the board file's order."""
    return tuple(card for card in s.data.territory_of_card if card in s.side.draw)


def reveal_pool(s: State) -> tuple[str, ...]:
    """The cards slot 1 is filled from, in the board file's order: the Territory deck, or, once it
    has run out, the discard pile shuffled into a new deck (RL-SIDEBOARD-SHIFT)."""
    deck = s.side.draw or s.side.discard
    return tuple(card for card in s.data.territory_of_card if card in deck)


def _scar_cards_dealt(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.phase != "setup" or s.scars_dealt:
        return c.skip("RL-FLOW", "Scar cards are dealt once, during the setup before the roll-off")
    avail = scar_cards_available(s)
    if sum(avail.values()) < len(s.seats):
        return c.skip("RL-SETUP-SCARS", f"{sum(avail.values())} Scar cards for {len(s.seats)} players: "
                      "not enough for everyone, so no one gets one")
    pay = e.payload
    dealt = pay.cards if pay.cards is not None else pay.commitments
    if set(dealt) != set(s.seats):
        return c.skip("RL-SETUP-SCARS", f"one Scar card for each of {', '.join(s.seats)}; the log deals to "
                      f"{', '.join(dealt) or 'nobody'}")
    pool = scar_pool(s)
    players = dict(s.players)
    if pay.commitments is not None:
        for p in s.seats:
            players[p] = players[p]._replace(scar=FACE_DOWN)
        c.note(f"Scar cards dealt face down to {', '.join(s.seats)}: each is revealed when played or returned")
        return _deal_face_down(replace(s, players=players, scars_dealt=True), pool, pay, c)
    for p, kind in dealt.items():
        if kind not in avail:
            return c.skip("RL-NAME", f"no scar {kind!r} (scars: {', '.join(avail)})")
    for kind in set(dealt.values()):
        n = sum(1 for k in dealt.values() if k == kind)
        if n > avail[kind]:
            return c.skip("RL-SETUP-SCARS", f"{n} {kind} cards dealt; {avail[kind]} are left")
    s = _check_draw(s, pool, len(s.seats), [dealt[p] for p in s.seats], pay.dice, "the Scar cards dealt", c)
    for p, kind in dealt.items():
        players[p] = players[p]._replace(scar=kind)
    c.note("Scar cards dealt: " + ", ".join(f"{p} {k.replace('_', ' ')}" for p, k in dealt.items()))
    return replace(s, players=players, scars_dealt=True)


def _deal_face_down(s: State, pool: tuple[str, ...], pay, c: _Ctx) -> State:
    """A face-down deal (RL-RULING-HIDDEN-SCARS): its dice are the stream's next `hidden_dice`,
    not logged. With the seed known, the deal is drawn from them now (and the number checked)."""
    count = pay.hidden_dice
    if s.dice_mode != "seeded":
        if count:
            c.bad("RL-CHANCE-DRAW", f"hidden_dice counts dice of a seeded stream; this game's dice are "
                  f"rolled at the table (hidden_dice {count})")
        return replace(s, scar_deal=ScarDeal(pool, dict(pay.commitments), s.dice_count, 0))
    drawn = None
    if s.dice_tape is not None:
        stream = (s.dice_tape.take(i, 1)[0] for i in count_from(s.dice_count))
        cards, used = draw(pool, len(s.seats), stream.__next__)
        drawn = dict(zip(s.seats, cards))
        if count is not None and count != len(used):
            c.bad("RL-CHANCE-DRAW", f"the face-down Scar deal says it used {count} dice of the stream; "
                  f"the seed's dice make the deal with {len(used)}")
        count = len(used)
    if count is None:
        c.bad("RL-CHANCE-DRAW", "Scar cards dealt face down in a seeded game must say how many dice of "
              "the stream the deal used (hidden_dice)")
        count = 0
    deal = ScarDeal(pool, dict(pay.commitments), s.dice_count, count, drawn)
    return replace(s, scar_deal=deal, dice_count=s.dice_count + count)


def _reveal_scar(s: State, p: PlayerId, kind: str, salt: str | None, e: Event, c: _Ctx) -> State:
    """A face-down Scar card turned over, played or returned: the commitment (RL-SCAR-REVEAL), the
    cards the deal had (RL-SETUP-SCARS) and, with the seed known, the deal's dice (RL-CHANCE-DRAW)."""
    deal = s.scar_deal
    name = kind.replace("_", " ")
    if salt is None:
        c.bad("RL-SCAR-REVEAL", f"{p}'s Scar card was dealt face down: it is turned over with the salt "
              f"of its commitment (the log shows {name} without one)")
    elif not matches_commitment(deal.commitments[p], kind, salt):
        c.bad("RL-SCAR-REVEAL", f"{p} turns over {kind!r} with salt {salt!r}, which does not match the "
              "Scar card dealt to them face down")
    shown = 1 + sum(1 for k, _ in deal.revealed.values() if k == kind)
    had = deal.pool.count(kind)
    if shown > had:
        c.bad("RL-SETUP-SCARS", f"the deal was made from {had} {name} card{'s' if had != 1 else ''}; "
              f"{p}'s is the {_nth(shown)} {name} turned over")
    if deal.drawn is not None and deal.drawn[p] != kind:
        c.bad("RL-CHANCE-DRAW", f"the deal's dice gave {p} {_a(deal.drawn[p])}, not {_a(kind)}")
    c.note(f"{p} turns over the Scar card dealt face down: {_a(kind)}")
    return replace(s, scar_deal=deal._replace(revealed={**deal.revealed, p: (kind, e.seq)}))


def _a(kind: str) -> str:
    name = kind.replace("_", " ")
    return ("an " if name[:1] in "aeiou" else "a ") + name


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _scar_card_returned(s: State, e: Event, c: _Ctx) -> State | None:
    """A face-down Scar card not played, turned over when the game ends (RL-RULING-SCAR-CARDS:
    it goes back to the available cards; the world does not change)."""
    if s.result is None:
        return c.skip("RL-SCAR-REVEAL", "a Scar card that was not played goes back when the game ends; "
                      "the game goes on")
    p = e.actor
    if s.players[p].scar != FACE_DOWN:
        return c.skip("RL-SCAR-REVEAL", f"{p} holds no face-down Scar card")
    kind = e.payload.scar.casefold().replace(" ", "_")
    if kind not in s.data.scar_cards:
        return c.skip("RL-NAME", f"no scar {e.payload.scar!r} (scars: {', '.join(s.data.scar_cards)})")
    s = _reveal_scar(s, p, kind, e.payload.salt, e, c)
    players = dict(s.players)
    players[p] = players[p]._replace(scar=None)
    c.note(f"{p} did not play it: it goes back to the available Scar cards")
    return replace(s, players=players)


def _cards_laid_out(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.phase != "setup" or s.laid_out:
        return c.skip("RL-FLOW", "the four face-up Territory cards are laid out once, during the setup")
    cards = _cards(s, e.payload.cards, c)
    if cards is None:
        return None
    side = s.side
    want = min(4, len(side.draw))
    if len(set(cards)) != len(cards) or any(card == COIN or card not in side.draw for card in cards):
        return c.skip("RL-SETUP-SIDEBOARD", f"the face-up cards come from the Territory deck "
                      f"(destroyed cards and Coin cards are not in it): {e.payload.cards!r}")
    if len(cards) != want:
        c.bad("RL-SETUP-SIDEBOARD", f"{want} Territory cards are laid out face up; the log lays out {len(cards)}")
    s = _check_draw(s, layout_pool(s), len(cards), cards, e.payload.dice, "the Territory cards laid out", c)
    slots = tuple(cards) + (None,) * (4 - len(cards))
    c.note("Face up: " + ", ".join(f"slot {i + 1} {card} {_tname(s, s.data.territory_of_card[card])} "
                                   f"({W.card_resources(s.world, card)})" for i, card in enumerate(cards)))
    return replace(s, side=side._replace(slots=slots[:4], draw=side.draw - set(cards)), laid_out=True)


def _mission_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    side = s.side
    setup_time = f.phase == "setup" and side.mission is None
    if not (setup_time or f.pending == "mission"):
        return c.skip("RL-MISSION", "a Mission card is revealed at the start of the game, and after one is "
                      "completed")
    if side.missions_left <= 0:
        return c.skip("RL-MISSION", "no Mission cards are in play (or none are left)")
    s = _check_blind_draw(s, side.missions_left, e.payload.dice, f"the Mission card {e.payload.card}", c)
    c.note(f"Mission face up: {e.payload.card}" + (f" — {e.payload.text}" if e.payload.text else "")
           + f" (reward {e.payload.reward} Red Star{'s' if e.payload.reward > 1 else ''})")
    side = side._replace(mission=(e.payload.card, e.payload.reward), missions_left=side.missions_left - 1)
    return replace(s, side=side, flow=f._replace(pending=None) if f.pending == "mission" else f)


def _rolloff(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase == "setup":
        if not s.laid_out:
            c.bad("RL-SETUP-SIDEBOARD", "the face-up Territory cards must be laid out before the game begins")
        if not s.scars_dealt and sum(scar_cards_available(s).values()) >= len(s.seats):
            c.bad("RL-SETUP-SCARS", "there are Scar cards for every player: one must be dealt to each "
                  "before the game begins")
        if s.side.missions_left > 0 and s.side.mission is None:
            c.bad("RL-MISSION", "a Mission card is placed face up at the start of the game")
        tied = s.seats
    else:
        tied = f.tied
    rolls = e.payload.rolls
    if set(rolls) != set(tied):
        return c.skip("RL-SETUP-ROLLOFF", f"the roll-off is between {', '.join(tied)}; the log rolls for "
                      f"{', '.join(rolls) or 'nobody'}")
    if any(len(d) != 1 for d in rolls.values()):
        return c.skip("RL-SETUP-ROLLOFF", f"each player rolls one die; got {dict(rolls)!r}")
    if _bad_faces(rolls):
        return c.skip("RL-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    s = _roll(s, _seat_ordered(s, rolls), c)
    top = max(d[0] for d in rolls.values())
    best = tuple(p for p in tied if rolls[p][0] == top)
    c.note("Roll-off: " + ", ".join(f"{p} {rolls[p][0]}" for p in tied))
    if len(best) > 1:
        c.note(f"Tied at {top}: {', '.join(best)} roll again")
        return replace(s, flow=Flow(phase="rolloff", tied=best))
    first = best[0]
    i = s.seats.index(first)
    order = s.seats[i:] + s.seats[:i]
    c.note(f"{first} chooses first; factions are chosen clockwise: {', '.join(order)}")
    return replace(s, flow=Flow(phase="choose", order=order, index=0))


def _faction_chosen(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase != "choose":
        return c.skip("RL-FLOW", f"factions are chosen after the roll-off (now: {f.phase})")
    if e.actor != f.current:
        return c.skip("RL-SETUP-FACTION", f"it is {f.current}'s turn to choose a faction, not {e.actor}'s")
    faction = e.payload.faction.casefold().replace(" ", "_")
    if faction not in FACTIONS:
        return c.skip("RL-NAME", f"no faction {e.payload.faction!r} (factions: {', '.join(FACTIONS)})")
    taken = {ps.faction: p for p, ps in s.players.items() if ps.faction}
    if faction in taken:
        return c.skip("RL-SETUP-FACTION", f"{FACTION_NAMES[faction]} was chosen by {taken[faction]}")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if s.terr[t].is_occupied:
        return c.skip("RL-START-TERRITORY", f"{_tname(s, t)} is occupied")
    if not is_legal_start(s, e.actor, t):
        m = W.marks(s.world, t)
        what = (f"a {m.city.kind} city ({m.city.name})" if m.city else f"a {m.scar.replace('_', ' ')} scar")
        c.bad("RL-START-TERRITORY", f"{_tname(s, t)} is marked ({what}); a marked territory is a legal "
              "start only if it holds a Major City the player founded")
    if is_next_to_hq(s, t):
        nb = sorted(n for n in s.data.neighbours[t] if s.terr[n].hq is not None)
        c.bad("RL-START-HQ-ADJACENT", f"{_tname(s, t)} is adjacent to the HQ in {', '.join(_tname(s, n) for n in nb)}")
    troops = s.data.starting_troops
    players = dict(s.players)
    players[e.actor] = players[e.actor]._replace(faction=faction, start=t)
    s = replace(s, players=players, terr=_set_terr(s, **{t: Terr(e.actor, troops, faction)}))
    power = s.world.powers.get(faction)
    c.note(f"{e.actor} takes {FACTION_NAMES[faction]}"
           + (f" (starting power: {s.data.power_text(power)})" if power else "")
           + f": HQ and {troops} troops in {_tname(s, t)}")
    if f.index + 1 < len(f.order):
        return replace(s, flow=f._replace(index=f.index + 1))
    c.note(f"Every faction is on the board: {f.order[0]} takes the first turn")
    return _begin_turn(replace(s, flow=Flow(phase="turn", round=1, order=f.order, index=0)), c)


# ---------------------------------------------------------------------------------------------
# the turn flow
# ---------------------------------------------------------------------------------------------

def _begin_turn(s: State, c: _Ctx) -> State:
    """The current player's turn begins: eliminate them if they must Join the War and cannot;
    Khan Industries' HQ reinforcement."""
    for _ in range(len(s.seats) + 1):
        f = s.flow
        p = f.current
        s = replace(s, flow=Flow(phase="turn", round=f.round, order=f.order, index=f.index,
                                 turns=f.turns + 1))
        if s.players[p].eliminated:
            s = _advance(s)
            continue
        if not territories_of(s, p) and not legal_starts(s, p, with_hq=False):
            c.note(f"{faction_name(s, p)} controls no territory and no legal starting territory is open: "
                   "eliminated")
            players = dict(s.players)
            players[p] = players[p]._replace(eliminated=True)
            s = replace(s, players=players)
            s = _open_pack(s, "pack_2", c, f" ({p} is eliminated)")
            left = s.active_players
            if len(left) == 1:
                return _game_over(s, left, "last player standing", c)
            s = _advance(s)
            continue
        if has_power(s, p, "khan-hq-reinforcement"):
            held = hqs_of(s, p)
            if held:
                terr = dict(s.terr)
                for t in held:
                    terr[t] = terr[t]._replace(troops=terr[t].troops + 1)
                s = replace(s, terr=terr)
                c.note(f"Khan Industries' power: one troop in each HQ they control ({', '.join(_tname(s, t) for t in held)})")
        return s
    return s


def _advance(s: State) -> State:
    """Move to the next seat clockwise (a new round when the order comes round)."""
    f = s.flow
    index = (f.index + 1) % len(f.order)
    return replace(s, flow=f._replace(index=index, round=f.round + (1 if index == 0 else 0)))


def _next_turn(s: State, c: _Ctx) -> State:
    s = _advance(s)
    for _ in range(len(s.seats)):
        if not s.players[s.flow.current].eliminated:
            break
        s = _advance(s)
    return _begin_turn(s, c)


def _check_win(s: State, c: _Ctx) -> State:
    """A player with 4 Red Stars wins at once (RL-WIN)."""
    if s.result is not None:
        return s
    for p in s.active_players:
        n = stars(s, p)
        if n >= WIN_STARS:
            c.note(f"{faction_name(s, p)} has {n} Red Stars ({s.players[p].tokens} token"
                   f"{'s' if s.players[p].tokens != 1 else ''}, {len(hqs_of(s, p))} HQ"
                   f"{'s' if len(hqs_of(s, p)) != 1 else ''}) and wins")
            return _game_over(s, (p,), "4 red stars", c)
    return s


def _game_over(s: State, winners: tuple[PlayerId, ...], reason: str, c: _Ctx) -> State:
    """The game ends: faction cards record the outcomes, the winner signs (first 15 games), the
    rewards begin (RL-END-OUTCOMES, RL-REWARD-WINDOW)."""
    winner = winners[0] if winners else None
    outcomes: dict[PlayerId, str] = {}
    for p in s.seats:
        if p == winner:
            outcomes[p] = "won"
        elif s.players[p].eliminated or troops_of(s, p) == 0:
            outcomes[p] = "eliminated"
        else:
            outcomes[p] = "held_on"
    holdings = {p: frozenset(territories_of(s, p)) for p in s.seats}
    world = s.world
    by_faction = {s.players[p].faction: p for p in s.seats if s.players[p].faction}
    records = {f: list(recs) for f, recs in world.factions.items()}
    for fac in FACTIONS:
        p = by_faction.get(fac)
        rec = W.FactionGame(game=s.game_no, player=p, territory=s.players[p].start if p else None,
                            outcome=outcomes[p] if p else "absent")
        records[fac] = [*records.get(fac, []), rec]
    world = world.model_copy(update={"factions": records, "games": s.game_no})
    window = s.data.inventory["reward_games"]
    in_window = s.game_no <= window
    if winner is not None and in_window:
        sig = W.Signature(game=s.game_no, player=winner, faction=s.players[winner].faction)
        world = world.model_copy(update={"signatures": [*world.signatures, sig]})
    s = replace(s, world=world, outcomes=outcomes, end_holdings=holdings, combat=None,
                result=GameResult(tuple(winners), reason, s.flow.round,
                                  {p: {"outcome": outcomes[p], "stars": stars(s, p),
                                       "faction": s.players[p].faction} for p in s.seats}))
    c.note("Game over: " + "; ".join(f"{faction_name(s, p)} {o.replace('_', ' ')}" for p, o in outcomes.items()))
    if any(o == "eliminated" for o in outcomes.values()):
        s = _open_pack(s, "pack_2", c, " (a faction is eliminated or knocked out at the end)")
    if winner is not None and in_window:
        c.note(f"{winner} signs the victors' section (game {s.game_no})")
        if W.signatures_of(s.world, winner) == 2:
            s = _open_pack(s, "pack_3", c, f" ({winner})")
    if not in_window:
        c.note(f"Game {s.game_no} is past the first {window} games: no signature, no rewards")
        return replace(s, flow=s.flow._replace(phase="over", choosers=()))
    choosers = _reward_order(s, winner, outcomes)
    s = replace(s, flow=s.flow._replace(phase="rewards", choosers=choosers, pending=None))
    if not choosers:
        return _after_rewards(s, c)
    c.note("Rewards, in order: " + ", ".join(choosers))
    return s


def _reward_order(s: State, winner: PlayerId | None, outcomes) -> tuple[PlayerId, ...]:
    if winner is None:
        return ()
    i = s.seats.index(winner)
    clockwise = s.seats[i + 1:] + s.seats[:i]
    return (winner,) + tuple(p for p in clockwise if outcomes[p] == "held_on")


def _after_rewards(s: State, c: _Ctx) -> State:
    if s.game_no == s.data.inventory["reward_games"] and s.world.name is None:
        c.note(f"The {s.game_no}th game's rewards are chosen: the world is named next")
        return replace(s, flow=s.flow._replace(phase="naming", choosers=()))
    return replace(s, flow=s.flow._replace(phase="over", choosers=()))


def _my_turn(s: State, e: Event, c: _Ctx) -> bool:
    f = s.flow
    if f.phase != "turn":
        c.skip("RL-FLOW", f"{e.type} is played in a player's turn (now: {f.phase})")
        return False
    if e.actor != f.current:
        c.skip("RL-TURN-ORDER", f"it is {f.current}'s turn, not {e.actor}'s")
        return False
    if s.combat is not None:
        c.skip("RL-FLOW", f"the attack from {_tname(s, s.combat.frm)} on {_tname(s, s.combat.to)} must be "
               "finished first")
        return False
    if f.pending is not None:
        c.skip("RL-FLOW", f"the {f.pending} owed must be recorded first")
        return False
    return True


def _main_step(s: State, e: Event, c: _Ctx, what: str) -> State:
    """Expanding and attacking come after recruiting and before the maneuver and the card."""
    f = s.flow
    if not f.recruited:
        if not f.warned:
            if territories_of(s, e.actor):
                c.bad("RL-RECRUIT-MUST", f"{e.actor} must recruit before {what}")
            else:
                c.bad("RL-JOIN-WAR", f"{e.actor} controls no territory and must Join the War before {what}")
        return replace(s, flow=f._replace(step=MAIN, warned=True))
    if f.step > MAIN:
        c.bad("RL-TURN-STEPS", f"{what} comes before the maneuver and the end of the turn (now: "
              f"{STEP_NAMES[f.step]})")
    return s


# ---------------------------------------------------------------------------------------------
# 1 start of turn, 2 join the war or recruit
# ---------------------------------------------------------------------------------------------

def _red_star_bought(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    cards = _cards(s, e.payload.cards, c)
    if cards is None:
        return None
    ps = s.players[e.actor]
    rest = _take_from_hand(ps.hand, cards)
    if rest is None:
        return c.skip("RL-CARDS-HAND", f"{e.actor} turns in {cards!r}; their hand is {list(ps.hand)!r}")
    if s.flow.step != START or s.flow.recruited:
        c.bad("RL-RED-STAR-BUY", "Red Stars are bought at the very start of the turn, before recruiting")
    if len(cards) != 4:
        c.bad("RL-RED-STAR-BUY", f"a Red Star costs 4 Resource cards; {e.actor} turns in {len(cards)}")
    players = dict(s.players)
    players[e.actor] = ps._replace(hand=rest, tokens=ps.tokens + 1)
    c.note(f"{e.actor} turns in {', '.join(cards)} for a Red Star token ({stars(s, e.actor) + 1} Red Stars)")
    s = replace(s, players=players, side=_turn_in(s.side, cards))
    return _check_win(s, c)


def _joined_war(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    f = s.flow
    if f.recruited:
        return c.skip("RL-JOIN-WAR", f"{e.actor} has already joined the war or recruited this turn")
    if territories_of(s, e.actor):
        return c.skip("RL-RECRUIT-MUST", f"{e.actor} controls a territory and must recruit, not Join the War")
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if s.terr[t].is_occupied:
        return c.skip("RL-JOIN-WAR", f"{_tname(s, t)} is occupied; the war is joined in a legal starting territory")
    if not is_legal_start(s, e.actor, t):
        c.bad("RL-JOIN-WAR", f"{_tname(s, t)} is marked: not a legal starting territory for {e.actor}")
    troops = s.data.starting_troops // 2
    c.note(f"{faction_name(s, e.actor)} joins the war with {troops} troops in {_tname(s, t)}")
    return replace(s, terr=_set_terr(s, **{t: Terr(e.actor, troops, s.terr[t].hq)}),
                   flow=f._replace(recruited=True, step=MAIN))


def _recruited(s: State, e: Event, c: _Ctx) -> State | None:
    if not _my_turn(s, e, c):
        return None
    f = s.flow
    p = e.actor
    if f.recruited:
        return c.skip("RL-RECRUIT-MUST", f"{p} has already recruited this turn")
    if not territories_of(s, p):
        return c.skip("RL-JOIN-WAR", f"{p} controls no territory and must Join the War instead")
    if f.step != START and not f.warned:
        c.bad("RL-TURN-STEPS", f"recruiting comes before expanding and attacking (now: {STEP_NAMES[f.step]})")
    pay = e.payload
    cards = _cards(s, pay.cards, c)
    if cards is None:
        return None
    ps = s.players[p]
    rest = _take_from_hand(ps.hand, cards)
    if rest is None:
        return c.skip("RL-CARDS-HAND", f"{p} turns in {cards!r}; their hand is {list(ps.hand)!r}")
    resources = resources_of(s, cards)
    if cards and not 2 <= resources <= 10:
        c.bad("RL-TRADE", f"cards turned in for troops total 2 to 10 resources; {p}'s total {resources}")
    placements: dict[Territory, int] = {}
    for name, n in pay.placements.items():
        t = _resolve(s, name, c)
        if t is None:
            return None
        if s.terr[t].owner != p:
            return c.skip("RL-RECRUIT-PLACE", f"{p} places troops in {_tname(s, t)}, which they do not control")
        placements[t] = placements.get(t, 0) + n
    base = recruit_base(s, p)
    conts = continents_of(s, p)
    traded = trade_value(s, resources) if cards else 0
    total = base + sum(conts.values()) + traded
    placed = sum(placements.values())
    parts = [f"{len(territories_of(s, p))} territories + {population_of(s, p)} population → {base}"]
    parts += [f"{s.data.continent_names[k]} +{v}" for k, v in conts.items()]
    if cards:
        parts.append(f"{len(cards)} card{'s' if len(cards) > 1 else ''} ({resources} resources) +{traded}")
    if placed != total:
        c.bad("RL-RECRUIT-COUNT", f"{p} recruits {total} troops ({'; '.join(parts)}); the log places {placed}")
    if pay.troops is not None and pay.troops != total:
        c.claim("RL-CLAIM", f"{p} claims {pay.troops} troops recruited; the rules give {total} ({'; '.join(parts)})")
    if placed >= 30 and ps.missiles > 0:
        s = _open_pack(s, "pocket_2", c, f" ({p}: {placed} troops, {ps.missiles} Missile"
                       f"{'s' if ps.missiles > 1 else ''})")
    terr = dict(s.terr)
    for t, n in placements.items():
        terr[t] = terr[t]._replace(troops=terr[t].troops + n)
    players = dict(s.players)
    players[p] = players[p]._replace(hand=rest)
    c.note(f"{p} recruits {total}: {'; '.join(parts)}; places "
           + ", ".join(f"{n} in {_tname(s, t)}" for t, n in placements.items()))
    return replace(s, terr=terr, players=players, side=_turn_in(s.side, cards) if cards else s.side,
                   flow=s.flow._replace(recruited=True, step=MAIN))


# ---------------------------------------------------------------------------------------------
# 3 expand and attack
# ---------------------------------------------------------------------------------------------

def city_cost(s: State, t: Territory) -> int:
    """Troops lost expanding into unoccupied `t`: its population, two more if fortified."""
    return W.population(s.world, s.data, t) + (2 if W.is_fortified(s.world, t) else 0)


def _move_from_to(s: State, e: Event, c: _Ctx, rule: str, detail: bool = True):
    """The common start of an expansion, attack or maneuver: the acting player's turn, both
    territories on the board, and the source held by the actor (else `rule`). (player,
    payload, from, to, source, destination), or None when the event is skipped."""
    if not _my_turn(s, e, c):
        return None
    p = e.actor
    pay = e.payload
    frm = _resolve(s, pay.from_, c)
    to = frm and _resolve(s, pay.to, c)
    if frm is None or to is None:
        return None
    src, dst = s.terr[frm], s.terr[to]
    if src.owner != p:
        return c.skip(rule, f"{p} does not control {_tname(s, frm)}"
                      + (f" (held by {_name(src.owner)})" if detail else ""))
    return p, pay, frm, to, src, dst


def _expanded(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-EXPAND-FROM")
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if pay.troops > src.troops:
        return c.skip("RL-EXPAND-FROM", f"{p} moves {pay.troops} troops out of {_tname(s, frm)}, which holds {src.troops}")
    if dst.owner == p:
        return c.skip("RL-EXPAND-TARGET", f"{p} already controls {_tname(s, to)} (moving there is a maneuver)")
    if dst.troops > 0:
        return c.skip("RL-EXPAND-TARGET", f"{_tname(s, to)} is occupied by {_name(dst.owner)}: it is attacked, "
                      "not expanded into")
    s = _main_step(s, e, c, "expanding")
    if pay.troops == src.troops:
        c.bad("RL-EXPAND-FROM", f"{p} must leave at least one troop in {_tname(s, frm)}")
    if not s.data.is_adjacent(frm, to):
        c.bad("RL-EXPAND-ADJACENT", f"{_tname(s, to)} is not adjacent to {_tname(s, frm)}")
    lost = city_cost(s, to)
    if pay.troops - lost < 1:
        return c.skip("RL-EXPAND-CITY", f"expanding into {_tname(s, to)} costs {lost} troops; {pay.troops} "
                      "moving would not keep control of it")
    if pay.lost is not None and pay.lost != lost:
        c.claim("RL-CLAIM", f"{p} claims {pay.lost} troops lost entering {_tname(s, to)}; the rules give {lost}")
    terr = _set_terr(s, **{frm: src._replace(troops=src.troops - pay.troops,
                                            owner=p if src.troops > pay.troops else None),
                           to: Terr(p, pay.troops - lost, dst.hq)})
    city = W.marks(s.world, to).city
    extra = f" ({city.name}: {lost} troops lost to the city)" if city else ""
    c.note(f"{p} expands into {_tname(s, to)} with {pay.troops}{extra}")
    return replace(s, terr=terr, flow=s.flow._replace(expanded=s.flow.expanded + 1))


def _attack_declared(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-ATTACK-FROM")
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if pay.troops > src.troops - 1:
        return c.skip("RL-ATTACK-FROM", f"{p} attacks with {pay.troops} from {_tname(s, frm)}, which holds "
                      f"{src.troops}: one must stay behind")
    if dst.owner is None or dst.troops == 0:
        return c.skip("RL-ATTACK-TARGET", f"{_tname(s, to)} holds no enemy troops: it is expanded into, not attacked")
    if dst.owner == p:
        return c.skip("RL-ATTACK-TARGET", f"{p} cannot attack their own territory {_tname(s, to)}")
    s = _main_step(s, e, c, "attacking")
    if not s.data.is_adjacent(frm, to):
        c.bad("RL-ATTACK-TARGET", f"{_tname(s, to)} is not adjacent to {_tname(s, frm)}")
    if to in s.flow.immune:
        c.bad("RL-POWER-MECH-DOUBLE-SIXES", f"{_tname(s, to)} rolled two natural 6s for Die Mechaniker: "
              "immune to further attacks this turn")
    f = s.flow
    cb = Combat(frm=frm, to=to, attacker=p, defender=dst.owner, dice=pay.troops)
    c.note(f"{faction_name(s, p)} attacks {faction_name(s, dst.owner)} in {_tname(s, to)} ({dst.troops} troops) "
           f"from {_tname(s, frm)} with {pay.troops}")
    return replace(s, combat=cb, flow=f._replace(first_attack=f.first_attack or to))


def _scar_placed(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "declared":
        return c.skip("RL-SCAR-PLACE", "a Scar card is played before an attack roll, onto the defending territory")
    ps = s.players[e.actor]
    kind = e.payload.scar.casefold().replace(" ", "_")
    if kind not in s.data.scar_cards:
        return c.skip("RL-NAME", f"no scar {e.payload.scar!r} (scars: {', '.join(s.data.scar_cards)})")
    if ps.scar not in (kind, FACE_DOWN):
        return c.skip("RL-SCAR-PLACE", f"{e.actor} holds no {kind.replace('_', ' ')} Scar card"
                      + (f" (they hold {ps.scar.replace('_', ' ')})" if ps.scar else ""))
    t = _resolve(s, e.payload.territory, c)
    if t is None:
        return None
    if t != cb.to:
        return c.skip("RL-SCAR-PLACE", f"the scar goes onto the defending territory, {_tname(s, cb.to)}, not {_tname(s, t)}")
    m = W.marks(s.world, t)
    if m.scar is not None:
        return c.skip("RL-SCAR-PLACE", f"{_tname(s, t)} already has a scar ({m.scar.replace('_', ' ')}); it "
                      "cannot be covered")
    if ps.scar == FACE_DOWN:
        s = _reveal_scar(s, e.actor, kind, e.payload.salt, e, c)
    world = W.with_supply(W.with_marks(s.world, t, scar=kind), f"scar:{kind}", -1)
    players = dict(s.players)
    players[e.actor] = ps._replace(scar=None)
    c.note(f"{e.actor} scars {_tname(s, t)} with a {kind.replace('_', ' ')} (for this and every later game)")
    return replace(s, world=world, players=players)


def _attack_dice(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if cb is None or cb.stage != "declared":
        return c.skip("RL-FLOW", "no attack has been declared: no dice are due now")
    rolls = e.payload.rolls
    if set(rolls) - {cb.attacker, cb.defender} or cb.attacker not in rolls or cb.defender not in rolls:
        return c.skip("RL-ATTACK-DICE", f"{cb.attacker} and {cb.defender} roll in {_tname(s, cb.to)}; got "
                      f"rolls for {', '.join(rolls) or 'nobody'}")
    if _bad_faces(rolls):
        return c.skip("RL-DICE-FACES", f"dice must show 1-6; got {dict(rolls)!r}")
    att, dfn = list(rolls[cb.attacker]), list(rolls[cb.defender])
    if not att or not dfn:
        return c.skip("RL-ATTACK-DICE", f"both sides roll at least one die; got {dict(rolls)!r}")
    if len(att) != cb.dice:
        c.bad("RL-ATTACK-DICE", f"{cb.attacker} attacks with {cb.dice} troops and rolls {len(att)} dice")
    most = min(2, s.terr[cb.to].troops)
    if len(dfn) > most:
        c.bad("RL-ATTACK-DICE", f"{cb.defender} defends {_tname(s, cb.to)} with {len(dfn)} dice; at most {most}")
    s = _roll(s, _seat_ordered(s, rolls), c)
    cb = cb._replace(stage="rolled", rolls=(tuple(att), tuple(dfn)))
    s = replace(s, combat=cb)
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    mods = defence_modifiers(s, cb)
    c.note(f"Dice in {_tname(s, cb.to)}: {cb.attacker} {att} against {cb.defender} {dfn}"
           + (f"; defender's dice {' '.join(f'{m.delta:+d} {m.die} ({m.source})' for m in mods)} → {fd}" if mods else "")
           + f": {cb.attacker} would lose {a_lost}, {cb.defender} {d_lost}")
    return s


def _missile_fired(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "rolled":
        return c.skip("RL-MISSILE-TIMING", "a Missile is played after the dice of an attack are rolled and "
                      "before troops are removed; no roll is waiting now")
    ps = s.players[e.actor]
    if ps.missiles < 1:
        return c.skip("RL-MISSILE", f"{e.actor} has no Missile")
    side, i = e.payload.side, e.payload.die
    dice = cb.rolls[0] if side == "attacker" else cb.rolls[1]
    if i >= len(dice):
        return c.skip("RL-MISSILE", f"the {side} rolled {len(dice)} dice; there is no die #{i}")
    if any(m[0] == side and m[1] == i for m in cb.missiles):
        return c.skip("RL-MISSILE", f"the {side}'s die #{i} is already an unmodifiable 6")
    players = dict(s.players)
    players[e.actor] = ps._replace(missiles=ps.missiles - 1)
    cb = cb._replace(missiles=cb.missiles + ((side, i, e.actor),))
    s = replace(s, players=players, combat=cb)
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    c.note(f"{e.actor} fires a Missile: the {side}'s {dice[i]} becomes an unmodifiable 6 → {cb.attacker} "
           f"{fa} against {cb.defender} {fd}: {cb.attacker} would lose {a_lost}, {cb.defender} {d_lost}")
    if len(cb.missiles) == 3:
        s = _open_pack(s, "pocket_1", c, " (before the combat is resolved)")
    return s


def _casualties_removed(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "rolled":
        return c.skip("RL-CASUALTIES", "no attack roll is waiting for its troops to be removed")
    _, _, a_lost, d_lost = roll_result(s, cb)
    pay = e.payload
    if (pay.attacker, pay.defender) != (a_lost, d_lost):
        c.claim("RL-CASUALTIES", f"the log removes {pay.attacker} of {cb.attacker}'s and {pay.defender} of "
                f"{cb.defender}'s troops; the dice give {a_lost} and {d_lost}")
    return _resolve_roll(s, c)


def _resolve_roll(s: State, c: _Ctx) -> State:
    """Remove the troops the roll gives; powers and fortification wear; a conquest if the
    defender has no troops left."""
    cb = s.combat
    fa, fd, a_lost, d_lost = roll_result(s, cb)
    src, dst = s.terr[cb.frm], s.terr[cb.to]
    world = s.world
    flow = s.flow
    att_nat, def_nat = cb.rolls
    left = dst.troops - d_lost
    if has_power(s, cb.attacker, "bear-three-of-a-kind") and is_three_of_a_kind(att_nat) and d_lost >= 1 and left > 0:
        c.note(f"Enclave of the Bear rolled a natural three of a kind {list(att_nat)} and defeated a defender: "
               f"{_tname(s, cb.to)} falls outright ({left} more defender{'s' if left > 1 else ''} removed)")
        left = 0
    if has_power(s, cb.defender, "mech-double-sixes") and is_double_six(def_nat) and left > 0:
        flow = flow._replace(immune=flow.immune | {cb.to})
        c.note(f"Die Mechaniker rolled two natural 6s: {_tname(s, cb.to)} is immune to further attacks this turn")
    if len(att_nat) == 3 and W.is_fortified(world, cb.to):
        boxes = (W.marks(world, cb.to).fortification or 0) + 1
        world = W.with_marks(world, cb.to, fortification=boxes)
        c.note(f"An attack with 3 troops wears the fortification in {_tname(s, cb.to)}: box {boxes} of 10 marked"
               + ("; it is spent" if boxes >= 10 else ""))
    c.note(f"{cb.attacker} loses {a_lost}, {cb.defender} loses {dst.troops - left}")
    terr = _set_terr(s, **{cb.frm: src._replace(troops=src.troops - a_lost),
                           cb.to: dst._replace(troops=left, owner=dst.owner if left else None)})
    s = replace(s, terr=terr, world=world, flow=flow)
    if left == 0:
        survivors = cb.dice - a_lost
        return replace(s, combat=cb._replace(stage="conquered", survivors=survivors))
    return replace(s, combat=None)


def _moved_in(s: State, e: Event, c: _Ctx) -> State | None:
    cb = s.combat
    if s.flow.phase != "turn" or cb is None or cb.stage != "conquered":
        return c.skip("RL-CONQUER-MOVE", "troops move in after the defender's last troop is defeated; no "
                      "territory is waiting for them")
    if e.actor != cb.attacker:
        return c.skip("RL-ACTOR", f"the attacker, {cb.attacker}, moves in")
    n = e.payload.troops
    src = s.terr[cb.frm]
    if n > src.troops:
        return c.skip("RL-CONQUER-MOVE", f"{n} troops move in from {_tname(s, cb.frm)}, which holds {src.troops}")
    if n < cb.survivors:
        c.bad("RL-CONQUER-MOVE", f"the {cb.survivors} attacking troops must all move into {_tname(s, cb.to)}; "
              f"the log moves {n}")
    if n == src.troops:
        c.bad("RL-CONQUER-MOVE", f"at least one troop stays in {_tname(s, cb.frm)}")
    return _occupy(s, n, c)


def _occupy(s: State, n: int, c: _Ctx) -> State:
    """The attacker takes the territory with `n` troops: HQ, knock-out, win."""
    cb = s.combat
    src, dst = s.terr[cb.frm], s.terr[cb.to]
    terr = _set_terr(s, **{cb.frm: src._replace(troops=src.troops - n, owner=cb.attacker if src.troops > n else None),
                           cb.to: Terr(cb.attacker, n, dst.hq)})
    s = replace(s, terr=terr, combat=None, flow=s.flow._replace(conquered=s.flow.conquered + 1))
    c.note(f"{cb.attacker} takes {_tname(s, cb.to)} and moves in {n}")
    if dst.hq is not None:
        c.note(f"{cb.attacker} now controls the HQ of {FACTION_NAMES[dst.hq]} and its Red Star "
               f"({stars(s, cb.attacker)} Red Stars)")
    d = cb.defender
    if troops_of(s, d) == 0:
        players = dict(s.players)
        taken = players[d].hand
        players[d] = players[d]._replace(hand=())
        players[cb.attacker] = players[cb.attacker]._replace(hand=tuple(sorted(players[cb.attacker].hand + taken)))
        s = replace(s, players=players)
        c.note(f"{cb.attacker} knocks out {d} and takes their {len(taken)} resource card"
               f"{'s' if len(taken) != 1 else ''}")
    return _check_win(s, c)


# ---------------------------------------------------------------------------------------------
# 4 maneuver
# ---------------------------------------------------------------------------------------------

def _maneuvered(s: State, e: Event, c: _Ctx) -> State | None:
    got = _move_from_to(s, e, c, "RL-MANEUVER-PATH", detail=False)
    if got is None:
        return None
    p, pay, frm, to, src, dst = got
    if dst.owner != p or frm == to:
        return c.skip("RL-MANEUVER-PATH", f"a maneuver goes to another territory {p} controls; {_tname(s, to)} "
                      f"is {'the same territory' if frm == to else 'held by ' + _name(dst.owner)}")
    if pay.troops > src.troops:
        return c.skip("RL-MANEUVER-PATH", f"{p} moves {pay.troops} troops out of {_tname(s, frm)}, which holds {src.troops}")
    f = s.flow
    anytime = has_power(s, p, "sahara-maneuver-anytime")
    if f.maneuvered:
        c.bad("RL-MANEUVER-ONCE", f"{p} has already maneuvered this turn")
    if not anytime:
        if not f.recruited:
            c.bad("RL-TURN-STEPS", "the maneuver comes after recruiting, expanding and attacking")
        elif f.step == END:
            c.bad("RL-TURN-STEPS", "the maneuver comes before the end of the turn")
    if pay.troops == src.troops:
        c.bad("RL-MANEUVER-PATH", f"at least one troop stays in {_tname(s, frm)}")
    if not connected(s, p, frm, to) and not has_power(s, p, "sahara-maneuver-anywhere"):
        c.bad("RL-MANEUVER-PATH", f"{_tname(s, frm)} and {_tname(s, to)} are not connected through "
              f"territories {p} controls")
    terr = _set_terr(s, **{frm: src._replace(troops=src.troops - pay.troops, owner=p if src.troops > pay.troops else None),
                           to: dst._replace(troops=dst.troops + pay.troops)})
    c.note(f"{p} maneuvers {pay.troops} from {_tname(s, frm)} to {_tname(s, to)}")
    step = f.step if anytime else max(f.step, MANEUVERED)
    return replace(s, terr=terr, flow=f._replace(maneuvered=True, step=step))


# ---------------------------------------------------------------------------------------------
# 5 end of turn: the card, the sideboard, coins, events, missions
# ---------------------------------------------------------------------------------------------

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
               f"{W.card_resources(s.world, card)} resources) from slot {k + 1}")
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
        c.note(f"The Coin deck has run out: {', '.join(leaders)} tie with {top} territories, no Red Star is given")
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
            done.append(f"{eff.delta:+d} troops in {_tname(s, t)}")
        else:
            if eff.player not in players:
                return c.skip("RL-NAME", f"an Event effect names player {eff.player!r}")
            ps = players[eff.player]
            if eff.kind == "red_stars":
                players[eff.player] = ps._replace(tokens=max(0, ps.tokens + eff.delta))
            else:
                players[eff.player] = ps._replace(missiles=max(0, ps.missiles + eff.delta))
            done.append(f"{eff.player} {eff.delta:+d} {eff.kind.replace('_', ' ')}")
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
    if f.phase != "turn":
        return c.skip("RL-FLOW", f"no turn is being played (now: {f.phase})")
    if e.actor != f.current:
        return c.skip("RL-TURN-ORDER", f"it is {f.current}'s turn, not {e.actor}'s")
    if s.combat is not None or f.pending is not None:
        return c.skip("RL-TURN-END", "the turn cannot end while "
                      + (f"the attack on {_tname(s, s.combat.to)} is unfinished" if s.combat else f"the {f.pending} is owed"))
    if not f.recruited and not f.warned:
        if territories_of(s, e.actor):
            c.bad("RL-RECRUIT-MUST", f"{e.actor} ends the turn without recruiting")
        else:
            c.bad("RL-JOIN-WAR", f"{e.actor} controls no territory and ends the turn without joining the war")
    return _next_turn(s, c)


# ---------------------------------------------------------------------------------------------
# the end: rewards, naming the world, claims
# ---------------------------------------------------------------------------------------------

def _reward_chosen(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    p = e.actor
    if f.phase == "over" and s.result is not None and s.game_no > s.data.inventory["reward_games"]:
        return c.skip("RL-REWARD-WINDOW", f"game {s.game_no} is past the first {s.data.inventory['reward_games']} "
                      "games of this world: no more rewards")
    if f.phase != "rewards":
        return c.skip("RL-FLOW", f"rewards are chosen after the game ends (now: {f.phase})")
    if p != f.choosers[0]:
        why = ("eliminated players get no reward" if s.outcomes.get(p) == "eliminated" else
               "they have already chosen" if p not in f.choosers else f"it is {f.choosers[0]}'s choice first")
        return c.skip("RL-REWARD-ORDER", f"{p} cannot choose a reward now: {why}")
    pay = e.payload
    winner = s.outcomes.get(p) == "won"
    r = pay.reward
    if r != "pass":
        if winner and r not in WINNER_REWARDS:
            return c.skip("RL-REWARD-WINNER", f"the winner chooses one of {', '.join(sorted(WINNER_REWARDS))}; not {r}")
        if not winner and r not in HELD_ON_REWARDS:
            return c.skip("RL-REWARD-HELD-ON", f"a player who held on chooses one of {', '.join(sorted(HELD_ON_REWARDS))}; not {r}")
    world = s.world
    if winner and pay.slogan:
        sigs = list(world.signatures)
        if sigs and sigs[-1].player == p and sigs[-1].game == s.game_no:
            sigs[-1] = sigs[-1].model_copy(update={"slogan": pay.slogan})
            world = world.model_copy(update={"signatures": sigs})
    changed = _REWARDS[r](s, world, p, pay, c)
    if changed is None:
        return None
    world, text = changed
    s = replace(s, world=world, flow=f._replace(choosers=f.choosers[1:]))
    c.note(f"{p} {text}")
    if r == "found_minor_city" and world.supply.get("minor_city", 0) == 0:
        s = _open_pack(s, "pack_1", c)
    if not s.flow.choosers:
        return _after_rewards(s, c)
    return s


def _reward_territory(s: State, pay, c: _Ctx, rule: str) -> Territory | None:
    if not pay.territory:
        c.skip(rule, "this reward names a territory")
        return None
    return _resolve(s, pay.territory, c)


def _reward_continent(s: State, pay, c: _Ctx, rule: str) -> str | None:
    name = (pay.continent or "").casefold().replace(" ", "_")
    for cid, cname in s.data.continent_names.items():
        if name in (cid, cname.casefold().replace(" ", "_")):
            return cid
    for cid, m in s.world.continents.items():
        if m.name and m.name.casefold().replace(" ", "_") == name:
            return cid
    c.skip(rule if not pay.continent else "RL-NAME", f"no continent {pay.continent!r}")
    return None


def _supply(world, item: str) -> int:
    return world.supply.get(item, 0)


def _r_pass(s, world, p, pay, c):
    return world, "passes (no reward taken)"


def _r_name_continent(s, world, p, pay, c):
    cid = _reward_continent(s, pay, c, "RL-REWARD-NAME-CONTINENT")
    if cid is None:
        return None
    if not pay.name:
        return c.skip("RL-REWARD-NAME-CONTINENT", "a continent is named: give the name")
    m = W.continent_marks(world, cid)
    if m.name:
        return c.skip("RL-REWARD-NAME-CONTINENT", f"{s.data.continent_names[cid]} is already named {m.name!r} by {m.named_by}")
    return (W.with_continent(world, cid, name=pay.name, named_by=p),
            f"names {s.data.continent_names[cid]} {pay.name!r} (+1 troop for {p} alone when they control it)")


def _r_major_city(s, world, p, pay, c):
    t = _reward_territory(s, pay, c, "RL-REWARD-MAJOR-CITY")
    if t is None:
        return None
    if _supply(world, "major_city") < 1:
        return c.skip("RL-REWARD-MAJOR-CITY", "all five Major Cities are on the board")
    if W.marks(world, t).city is not None:
        return c.skip("RL-REWARD-MAJOR-CITY", f"{_tname(s, t)} already has a city ({W.marks(world, t).city.name})")
    if not pay.name:
        return c.skip("RL-REWARD-MAJOR-CITY", "a Major City is named: give the name")
    city = W.CityMark(kind="major", name=pay.name, founder=p, game=s.game_no)
    world = W.with_supply(W.with_marks(world, t, city=city), "major_city", -1)
    return world, f"founds the Major City {pay.name!r} in {_tname(s, t)} (population 2; a legal start for {p} alone)"


def _r_cancel_scar(s, world, p, pay, c):
    t = _reward_territory(s, pay, c, "RL-REWARD-CANCEL-SCAR")
    if t is None:
        return None
    if _supply(world, "scar_cancel") < 1:
        return c.skip("RL-REWARD-CANCEL-SCAR", "all four cancel stickers are used")
    m = W.marks(world, t)
    if m.scar is None:
        return c.skip("RL-REWARD-CANCEL-SCAR", f"{_tname(s, t)} has no scar to cancel (cities cannot be cancelled)")
    world = W.with_supply(W.with_marks(world, t, scar=None, scar_cancelled=m.scar_cancelled + 1), "scar_cancel", -1)
    return world, f"cancels the {m.scar.replace('_', ' ')} scar in {_tname(s, t)}"


def _r_continent_bonus(s, world, p, pay, c):
    cid = _reward_continent(s, pay, c, "RL-REWARD-CONTINENT-BONUS")
    if cid is None:
        return None
    if pay.modifier not in (1, -1):
        return c.skip("RL-REWARD-CONTINENT-BONUS", "the continent mark is +1 or -1: give `modifier`")
    item = "continent_plus" if pay.modifier == 1 else "continent_minus"
    if _supply(world, item) < 1:
        return c.skip("RL-REWARD-CONTINENT-BONUS", f"the {pay.modifier:+d} continent mark is already on the board")
    if W.continent_marks(world, cid).modifier != 0:
        return c.skip("RL-REWARD-CONTINENT-BONUS", f"{s.data.continent_names[cid]}'s bonus has already been changed")
    world = W.with_supply(W.with_continent(world, cid, modifier=pay.modifier), item, -1)
    return world, f"puts the {pay.modifier:+d} mark on {s.data.continent_names[cid]} (bonus {s.data.bonuses[cid] + pay.modifier})"


def _r_fortify(s, world, p, pay, c):
    t = _reward_territory(s, pay, c, "RL-REWARD-FORTIFY")
    if t is None:
        return None
    if _supply(world, "fortification") < 1:
        return c.skip("RL-REWARD-FORTIFY", "all five Fortification marks are used")
    m = W.marks(world, t)
    if m.city is None:
        return c.skip("RL-REWARD-FORTIFY", f"{_tname(s, t)} has no city; a Fortification goes on a city")
    world = W.with_supply(W.with_marks(world, t, fortification=0), "fortification", -1)
    return world, (f"fortifies {m.city.name} in {_tname(s, t)}"
                   + (" (the old Fortification's remaining uses are lost)" if m.fortification is not None else ""))


def _r_destroy_card(s, world, p, pay, c):
    card = s.data.resolve_card(pay.card or pay.territory or "")
    if card is None or card == COIN:
        return c.skip("RL-REWARD-DESTROY-CARD", f"name the Territory card to destroy (got {pay.card or pay.territory!r})")
    if card in world.destroyed:
        return c.skip("RL-REWARD-DESTROY-CARD", f"{card} is already destroyed")
    resources = {k: v for k, v in world.resources.items() if k != card}
    world = world.model_copy(update={"resources": resources, "destroyed": sorted([*world.destroyed, card])})
    return world, f"destroys Territory card {card} ({_tname(s, s.data.territory_of_card[card])}): an x is written by its name"


def _r_minor_city(s, world, p, pay, c):
    t = _reward_territory(s, pay, c, "RL-REWARD-MINOR-CITY")
    if t is None:
        return None
    if _supply(world, "minor_city") < 1:
        return c.skip("RL-REWARD-MINOR-CITY", "all nine Minor Cities are on the board")
    if t not in s.end_holdings.get(p, ()):
        return c.skip("RL-REWARD-MINOR-CITY", f"{p} did not control {_tname(s, t)} at the end of the game")
    if W.marks(world, t).city is not None:
        return c.skip("RL-REWARD-MINOR-CITY", f"{_tname(s, t)} already has a city")
    if not pay.name:
        return c.skip("RL-REWARD-MINOR-CITY", "a Minor City is named: give the name")
    city = W.CityMark(kind="minor", name=pay.name, founder=p, game=s.game_no)
    world = W.with_supply(W.with_marks(world, t, city=city), "minor_city", -1)
    return world, f"founds the Minor City {pay.name!r} in {_tname(s, t)} (population 1)"


def _r_upgrade(s, world, p, pay, c):
    card = s.data.resolve_card(pay.card or pay.territory or "")
    if card is None or card == COIN:
        return c.skip("RL-REWARD-UPGRADE", f"name a Territory card (Coin cards are never upgraded); got {pay.card or pay.territory!r}")
    t = s.data.territory_of_card[card]
    if t not in s.end_holdings.get(p, ()):
        return c.skip("RL-REWARD-UPGRADE", f"{p} did not control {_tname(s, t)} at the end of the game")
    if card in world.destroyed:
        return c.skip("RL-REWARD-UPGRADE", f"{card} has been destroyed")
    n = world.resources.get(card, 1)
    cap = s.data.inventory["max_resources"]
    if n >= cap:
        return c.skip("RL-REWARD-UPGRADE", f"{card} already has {n} resources; {cap} is the most")
    resources = dict(world.resources)
    resources[card] = n + 1
    return world.model_copy(update={"resources": resources}), f"upgrades {card} ({_tname(s, t)}) to {n + 1} resources"


_REWARDS = {
    "pass": _r_pass,
    "name_continent": _r_name_continent,
    "found_major_city": _r_major_city,
    "cancel_scar": _r_cancel_scar,
    "change_continent_bonus": _r_continent_bonus,
    "fortify_city": _r_fortify,
    "destroy_card": _r_destroy_card,
    "found_minor_city": _r_minor_city,
    "upgrade_card": _r_upgrade,
}


def namer(world: W.World, data: GameData, rolls: dict[str, list[int]] | None) -> tuple[list[str], str | None]:
    """Who names the world: the people with the most signatures, and (after the roll-off, each
    die +1 per continent they named) the one who names it; None while still tied."""
    counts: dict[str, int] = {}
    for sig in world.signatures:
        counts[sig.player] = counts.get(sig.player, 0) + 1
    if not counts:
        return [], None
    top = max(counts.values())
    tied = sorted(p for p, n in counts.items() if n == top)
    if len(tied) == 1:
        return tied, tied[0]
    named = {p: sum(1 for m in world.continents.values() if m.named_by == p) for p in tied}
    alive = list(tied)
    for k in range(max((len(v) for v in (rolls or {}).values()), default=0)):
        if any(len((rolls or {}).get(p, [])) <= k for p in alive):
            break
        scores = {p: rolls[p][k] + named[p] for p in alive}
        best = max(scores.values())
        alive = [p for p in alive if scores[p] == best]
        if len(alive) == 1:
            return tied, alive[0]
    return tied, None


def _world_named(s: State, e: Event, c: _Ctx) -> State | None:
    if s.flow.phase != "naming":
        return c.skip("RL-WORLD-NAME", "the world is named once, after the rewards of the 15th game")
    pay = e.payload
    if pay.rolls and _bad_faces(pay.rolls):
        return c.skip("RL-DICE-FACES", f"dice must show 1-6; got {pay.rolls!r}")
    tied, who = namer(s.world, s.data, pay.rolls)
    if who is None and len(tied) > 1:
        return c.skip("RL-WORLD-NAME", f"{', '.join(tied)} tie for the most signatures and roll off (+1 per "
                      f"continent named); the log's roll-off {pay.rolls!r} does not settle it")
    if pay.by != who:
        c.bad("RL-WORLD-NAME", f"{who} signed the victors' section most often and names the world, not {pay.by}")
    c.note(f"{pay.by} names the world {pay.name!r}")
    return replace(s, world=s.world.model_copy(update={"name": pay.name}), flow=s.flow._replace(phase="over"))


def _pack_opened(s: State, e: Event, c: _Ctx) -> State | None:
    pack = e.payload.pack.casefold().replace(" ", "_")
    if pack not in PACK_CONDITIONS:
        return c.skip("RL-NAME", f"no sealed pack {e.payload.pack!r} (packs: {', '.join(PACK_CONDITIONS)})")
    if not W.pack_opened(s.world, pack):
        c.claim("RL-PACK", f"the log opens {pack.replace('_', ' ')}, but its condition ({PACK_CONDITIONS[pack]}) "
                "has not been met")
    return s


def _dice_rolled(s: State, e: Event, c: _Ctx) -> State | None:
    f = s.flow
    if f.phase in ("setup", "rolloff"):
        return _rolloff(s, e, c)
    if f.phase == "turn" and s.combat is not None:
        return _attack_dice(s, e, c)
    return c.skip("RL-FLOW", f"no dice are due now ({f.phase})")


def _game_ended(s: State, e: Event, c: _Ctx) -> State | None:
    said = e.payload.winner or "no winner"
    if s.result is None:
        c.claim("RL-CLAIM", f"the log declares the game over ({said}), but by the rules it goes on")
        return s
    winners = s.result.winners
    if (e.payload.winner,) != tuple(winners) and not (e.payload.winner is None and not winners):
        c.claim("RL-CLAIM", f"the log declares {said}; the rules give {' and '.join(winners) or 'no winner'}")
    return s


def _seed_revealed(s: State, e: Event, c: _Ctx) -> State | None:
    if s.dice_mode != "seeded":
        return c.skip("RL-DICE-SEED", "this game's dice were rolled at the table; there is no seed to reveal")
    seed = e.payload.seed
    if sha256_hex(seed) != (s.seed_hash or "").lower():
        c.bad("RL-DICE-SEED", "the revealed seed does not match the seed hash published at the start")
        return s
    if s.dice_tape is not None:
        c.note(f"Seed revealed: its hash matches; all {s.dice_count} dice were checked at their own lines")
    else:
        s = _check_the_stream(s, seed, c)
    unopened = [p for p in s.seats if s.players[p].scar == FACE_DOWN]
    if unopened and s.result is not None:
        c.claim("RL-SCAR-REVEAL", f"the face-down Scar card{'s' if len(unopened) > 1 else ''} of "
                f"{', '.join(unopened)} {'were' if len(unopened) > 1 else 'was'} never turned over: the "
                "deal cannot be checked against the commitments")
    return s


def _check_the_stream(s: State, seed: str, c: _Ctx) -> State:
    """The seed revealed at the end, not known before: every logged die against its stream, and
    the face-down Scar deal (its dice were never logged) drawn from it and held against the
    cards turned over (RL-DICE-SEED, RL-CHANCE-DRAW)."""
    faces = DiceTape(seed).take(0, s.dice_count)
    deal = s.scar_deal
    lo, hi = (deal.start, deal.start + deal.count) if deal is not None else (0, 0)
    public = faces[:lo] + faces[hi:]
    dice = logged_dice(s.dice_log)
    for i, (got, want) in enumerate(zip(dice, public)):
        if got != want:
            c.bad("RL-DICE-SEED", f"die #{i + 1 + (hi - lo if i >= lo else 0)} of the game shows {got}; "
                  f"the seed gives {want}")
            break
    c.note(f"Seed revealed: all {len(dice)} dice checked against it"
           + (f", and the {hi - lo} secret dice of the face-down Scar deal" if deal is not None and hi > lo else ""))
    if deal is None or s.dice_mode != "seeded":
        return s
    try:
        cards = draw_with(deal.pool, len(s.seats), faces[lo:hi])
    except DrawError as exc:
        c.bad("RL-CHANCE-DRAW", f"the face-down Scar deal: {exc} (by the seed, dice {faces[lo:hi]})")
        return s
    drawn = dict(zip(s.seats, cards))
    c.note("The face-down Scar deal, by the seed's dice: " + ", ".join(f"{p} {_a(k)}" for p, k in drawn.items()))
    for p, (kind, seq) in deal.revealed.items():
        if drawn[p] != kind:
            c.bad("RL-CHANCE-DRAW", f"the deal's dice gave {p} {_a(drawn[p])}; {p} turned over {_a(kind)} "
                  f"(seq {seq})")
    return replace(s, scar_deal=deal._replace(drawn=drawn))


# ---------------------------------------------------------------------------------------------
# steps the log left out (RL-RULING-IMPLICIT-STEPS)
# ---------------------------------------------------------------------------------------------

_NEUTRAL = frozenset({"PackOpened", "GameEnded", "SeedRevealed"})
_COMBAT_EVENTS = {"declared": frozenset({"ScarPlaced", "DiceRolled", "MissileFired", "CasualtiesRemoved", "MovedIn"}),
                  "rolled": frozenset({"MissileFired", "CasualtiesRemoved", "ScarPlaced", "DiceRolled", "MovedIn"}),
                  "conquered": frozenset({"MovedIn", "MissileFired", "CasualtiesRemoved", "DiceRolled", "ScarPlaced"})}
_PENDING_EVENT = {"reveal": ("CardRevealed", "RL-SIDEBOARD-SHIFT"), "event": ("EventCardDrawn", "RL-EVENT-TRIGGER"),
                  "mission": ("MissionRevealed", "RL-MISSION")}


def _resync(s: State, e: Event, c: _Ctx) -> State:
    """Settle what the log left out before `e`: a roll's casualties, a move-in, a chance event
    that never came, a turn that was not ended."""
    if s.flow.phase != "turn" or e.type in _NEUTRAL:
        return s
    cb = s.combat
    if cb is not None and e.type not in _COMBAT_EVENTS[cb.stage]:
        if cb.stage == "declared":
            c.claim("RL-FLOW", f"the attack on {_tname(s, cb.to)} was declared but never rolled; it is dropped")
            s = replace(s, combat=None)
        else:
            if cb.stage == "rolled":
                _, _, a_lost, d_lost = roll_result(s, cb)
                c.claim("RL-CASUALTIES", f"the troops removed after the roll in {_tname(s, cb.to)} are not in the "
                        f"log; the rules remove {a_lost} attacking and {d_lost} defending")
                s = _resolve_roll(s, c)
                cb = s.combat
            if cb is not None and cb.stage == "conquered" and s.result is None:
                c.claim("RL-CONQUER-MOVE", f"the move into {_tname(s, cb.to)} is not in the log; the {cb.survivors} "
                        "attacking troops move in")
                s = _occupy(s, max(1, cb.survivors), c)
    f = s.flow
    if f.phase == "turn" and f.pending is not None and e.type != _PENDING_EVENT[f.pending][0]:
        want, rule = _PENDING_EVENT[f.pending]
        c.claim(rule, f"the {f.pending} owed now ({want}) is not in the log; it is dropped")
        s = replace(s, flow=f._replace(pending=None))
    f = s.flow
    if (f.phase == "turn" and e.actor is not None and e.actor != f.current and e.type in _TURN_START
            and s.combat is None and f.pending is None and f.recruited and _next_player(s) == e.actor):
        c.claim("RL-TURN-END", f"{f.current}'s turn is not ended in the log before {e.actor} plays; it ends here")
        if not f.recruited and territories_of(s, f.current):
            c.bad("RL-RECRUIT-MUST", f"{f.current} ends the turn without recruiting")
        s = _next_turn(s, c)
    return s


_TURN_START = frozenset({"RedStarBought", "JoinedWar", "Recruited"})


def _next_player(s: State) -> PlayerId | None:
    f = s.flow
    n = len(f.order)
    for k in range(1, n + 1):
        p = f.order[(f.index + k) % n]
        if not s.players[p].eliminated:
            return p
    return None


HANDLERS: dict[str, Callable[[State, Event, _Ctx], State | None]] = {
    "ScarCardsDealt": _scar_cards_dealt,
    "CardsLaidOut": _cards_laid_out,
    "MissionRevealed": _mission_revealed,
    "DiceRolled": _dice_rolled,
    "FactionChosen": _faction_chosen,
    "RedStarBought": _red_star_bought,
    "JoinedWar": _joined_war,
    "Recruited": _recruited,
    "Expanded": _expanded,
    "AttackDeclared": _attack_declared,
    "ScarPlaced": _scar_placed,
    "MissileFired": _missile_fired,
    "CasualtiesRemoved": _casualties_removed,
    "MovedIn": _moved_in,
    "Maneuvered": _maneuvered,
    "CardDrawn": _card_drawn,
    "CardRevealed": _card_revealed,
    "EventCardDrawn": _event_card_drawn,
    "MissionCompleted": _mission_completed,
    "TurnEnded": _turn_ended,
    "ScarCardReturned": _scar_card_returned,
    "RewardChosen": _reward_chosen,
    "WorldNamed": _world_named,
    "PackOpened": _pack_opened,
    "GameEnded": _game_ended,
    "SeedRevealed": _seed_revealed,
}

_AFTER_END = frozenset({"RewardChosen", "WorldNamed", "GameEnded", "SeedRevealed", "PackOpened",
                        "ScarCardReturned"})
_TABLE_EVENTS = frozenset({"ScarCardsDealt", "CardsLaidOut", "MissionRevealed", "DiceRolled", "CardRevealed",
                           "EventCardDrawn", "CasualtiesRemoved", "GameEnded", "SeedRevealed", "PackOpened",
                           "WorldNamed"})


def step(s: State, e: Event) -> tuple[list[Violation], State | None]:
    """Judge one event: every violation, and the next state (None when the event is skipped)."""
    c = _Ctx()
    if s.result is not None and e.type not in _AFTER_END:
        c.skip("RL-GAME-OVER", f"the game ended ({' and '.join(s.result.winners) or 'no winner'}, "
               f"{s.result.reason}); nothing more is played ({e.type})")
        return c.v, None
    handler = HANDLERS.get(e.type)
    if handler is None:
        c.skip("RL-FLOW", f"{e.type} is not expected here" if e.type != "GameStarted" else "the game has already started")
        return c.v, None
    if e.actor is not None and e.actor not in s.players:
        c.skip("RL-ACTOR", f"{e.actor!r} is not a player of this game ({', '.join(s.seats)})")
        return c.v, None
    if e.type not in _TABLE_EVENTS:
        if e.actor is None:
            c.skip("RL-ACTOR", f"{e.type} must name the acting player")
            return c.v, None
        if s.players[e.actor].eliminated and e.type not in ("RewardChosen", "ScarCardReturned"):
            c.skip("RL-ACTOR", f"{e.actor} has been eliminated and no longer plays")
            return c.v, None
    s2 = _resync(s, e, c)
    if s2.result is not None and e.type not in _AFTER_END:
        c.skip("RL-GAME-OVER", f"the game ended ({s2.result.reason}); nothing more is played ({e.type})")
        return c.v, replace(s2, notes=tuple(c.notes), at=position(s2))
    out = handler(s2, e, c)
    if out is None:
        if s2 is not s:
            return c.v, replace(s2, notes=tuple(c.notes), at=position(s2))
        return c.v, None
    return c.v, replace(out, notes=tuple(c.notes), at=position(s2))


def conclude(s: State) -> State:
    """The log has ended: nothing is settled without a decision (a turn ends with TurnEnded)."""
    return s


def result(s: State) -> GameResult | None:
    return s.result


def position(s: State) -> tuple[str, int, int]:
    """(phase, round, turn): the turn is the current player's place in the turn order (1-based)."""
    f = s.flow
    phase = {"setup": "placement", "rolloff": "rolloff", "choose": "placement", "turn": "turn",
             "rewards": "over", "naming": "over", "over": "over"}[f.phase]
    return phase, f.round, f.index + 1


def reveal_seed(s: State, seed: str) -> State:
    """With the seed known up front, every die is checked at its own line."""
    if s.dice_mode != "seeded" or sha256_hex(seed) != (s.seed_hash or "").lower():
        return s
    return replace(s, dice_tape=DiceTape(seed))
