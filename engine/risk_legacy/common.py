"""What every chapter of the Risk Legacy rules asks of the state, and the small helpers they share.

Derived facts (territories, troops, HQs, Red Stars, continents, recruits and card trades,
starting territories, combat modifiers and a roll's result), the judging context (`_Ctx`), and the
helpers for names, cards in hand, dice, random draws and the sealed packs ("Opening New
Packages"). Imports no chapter module.
"""

from __future__ import annotations

from engine.core.chance import DrawError, draw_with, judge_draw
from engine.core.judging import record_roll, resolve_name
from engine.core.rules import Verdicts
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTION_NAMES, SCAR_EFFECTS, Territory
from engine.risk_legacy.combat import FIRST_STRIKE, FORTIFICATION, Modifier, casualties, final_dice
from engine.risk_legacy.rules import RULES
from engine.risk_legacy.state import Combat, PlayerId, Sideboard, State, Terr, evolve as replace


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
        mods.append(FORTIFICATION)
    if has_power(s, cb.attacker, "bear-first-strike") and s.flow.first_attack == cb.to:
        mods.append(FIRST_STRIKE)
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


def _resolve(s: State, name: str, c: _Ctx, what: str = "territory", **expect) -> Territory | None:
    """A territory named in an event (engine.core.judging.resolve_name: `expect`, `wrong_rule`
    and `wrong` ask for one territory in particular)."""
    return resolve_name(s.data, name, c, "RL-NAME", what, **expect)


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
    return record_roll(s, values, c, "RL-DICE-SEED", replace)


def _check_draw(s: State, pool, n: int, got: list, dice: list[int] | None, what: str, c: _Ctx) -> State:
    """A random draw of `n` from `pool` that came out as `got` (RL-CHANCE-DRAW): with dice, they
    must give `got` by the draw rule, and are recorded as dice of the game (so a seeded game
    checks them against its stream); a seeded game's draw must carry its dice."""
    problem, message = judge_draw(pool, n, got, dice, seeded=s.dice.is_seeded, what=what,
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


def _a(kind: str) -> str:
    name = kind.replace("_", " ")
    return ("an " if name[:1] in "aeiou" else "a ") + name


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
