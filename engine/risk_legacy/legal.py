"""What may happen next in a Risk Legacy game: the decisions the engine accepts, and the chance
events it waits for.

    legal_moves(state) -> [Move]            every decision offered now (no blocking violation)
    actors(state) -> (player, ...)          whose decision the game waits for (RULESET.actors)
    candidate_moves(state) -> [Move]        the same before the engine's check (cheap)
    chance_needed(state) -> ChanceSpec|None the dice or cards the game waits for
    defence_options(state) -> [int]         how many dice the defender may roll now

A Move is (actor, event type, payload). Troop counts are combinatorial, so only meaningful
choices are offered: recruits all in one territory (with and without the best card trade), moves
of one troop, half, or all but one. Dice and card draws are chance, not moves: `chance_needed`
says which (and the pool a card is drawn from), and for an attack roll the defender first chooses
how many dice (`defence_options`; the decision DefenceDeclared). After the roll every holder of a
Missile fires one or holds (MissilesHeld). A Scar card dealt face down is played by its holder, who alone
knows it and its salt: it is not among the moves offered. The troops removed after a roll
(CasualtiesRemoved) are the table's to record once every Missile has been played:
`casualties_payload` gives them.

Pure: no I/O, no clock, no random.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from engine.core.events import Event
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTIONS
from engine.risk_legacy.events import PAYLOADS
from engine.risk_legacy.attack import city_cost
from engine.risk_legacy.common import (
    connected, face_up_choices, has_power, legal_starts, may_draw, recruit_total, resources_of, roll_result,
    territories_of, trade_value,
)
from engine.risk_legacy.end_of_game import namer
from engine.risk_legacy.engine import step
from engine.risk_legacy.setup import layout_pool, reveal_pool, scar_cards_available, scar_pool
from engine.risk_legacy.state import END, FACE_DOWN, MAIN, START, PlayerId, State


class ChanceSpec(NamedTuple):
    """What chance must bring now: kind, and for dice who rolls how many (seat order); for a
    random draw (engine.core.chance), `draw` items from `pool` (the data files' order), or, for an
    Event or Mission card, one of the `deck` cards left (which ones the engine does not know)."""

    kind: str                                      # rolloff | attack | scars | layout | reveal | event | mission
    dice: tuple[tuple[PlayerId, int], ...] = ()
    event_type: str = "DiceRolled"
    pool: tuple[str, ...] = ()                     # a draw: what it is drawn from
    draw: int = 0                                  # a draw: how many are drawn
    deck: int = 0                                  # an Event or Mission card: the cards left in its deck


class Move(NamedTuple):
    actor: PlayerId | None
    type: str
    payload: dict

    def event(self, seq: int = 0) -> Event:
        return Event(seq, self.type, self.actor, PAYLOADS[self.type].model_validate(self.payload))


def is_accepted(s: State, m: Move) -> bool:
    """Does the engine take `m` without a blocking violation?"""
    violations, nxt = step(s, m.event())
    return nxt is not None and not any(v.blocking for v in violations)


def legal_moves(s: State) -> list[Move]:
    """Every decision offered in `s` that the engine accepts."""
    return [m for m in candidate_moves(s) if is_accepted(s, m)]


# ---------------------------------------------------------------------------------------------
# chance
# ---------------------------------------------------------------------------------------------

def chance_needed(s: State) -> ChanceSpec | None:
    """The chance event the game waits for, or None when a player must decide."""
    f = s.flow
    if s.result is not None:
        return None
    side = s.side
    if f.phase == "setup":
        if not s.scars_dealt and sum(scar_cards_available(s).values()) >= len(s.seats):
            return ChanceSpec("scars", event_type="ScarCardsDealt", pool=scar_pool(s), draw=len(s.seats))
        if not s.laid_out:
            pool = layout_pool(s)
            return ChanceSpec("layout", event_type="CardsLaidOut", pool=pool, draw=min(4, len(pool)))
        if side.missions_left > 0 and side.mission is None:
            return ChanceSpec("mission", event_type="MissionRevealed", deck=side.missions_left)
        return ChanceSpec("rolloff", tuple((p, 1) for p in s.seats))
    if f.phase == "rolloff":
        return ChanceSpec("rolloff", tuple((p, 1) for p in s.seats if p in f.tied))
    if f.phase != "turn":
        return None
    if f.pending == "reveal":
        return ChanceSpec("reveal", event_type="CardRevealed", pool=reveal_pool(s), draw=1)
    if f.pending == "event":
        return ChanceSpec("event", event_type="EventCardDrawn", deck=side.events_left)
    if f.pending == "mission":
        return ChanceSpec("mission", event_type="MissionRevealed", deck=side.missions_left)
    return None


def actors(s: State) -> tuple[PlayerId, ...]:
    """RULESET.actors: whose decision the game waits for now, in seat order; () for chance (the
    setup's deals and roll-offs, a card revealed into slot 1, an attack roll, the troops a roll
    removes) and once nothing is left to decide.

    - the factions ("Before the First Turn"): the player choosing; a turn ("Turn Overview"): its
      player, until TurnEnded;
    - an attack declared ("How to Attack"): the defender, who chooses 1 or 2 defending troops
      (DefenceDeclared, the roll follows), and before that every player holding a Scar card who
      may still play it on the defending territory (ScarPlaced; RL-SCAR-PLACE);
    - an attack rolled ("Missiles": "Any player ... may discard Missile(s) after dice are rolled,
      but before troops are removed"; "may respond to another player using a Missile"): every
      player holding a Missile who has not fired or held (MissilesHeld) since the last Missile;
      when none is left, the troops are removed;
    - a territory conquered: the attacker, who moves in;
    - the game won ("End of Game"): the next player to choose a reward, and every player whose
      Scar card, dealt face down and not played, is still to be turned over; after the 15th
      game's rewards, the player who names the world when it is settled who does and that
      person is at this table (`world_namer`; RL-WORLD-NAME)."""
    f = s.flow
    if s.result is not None:
        face_down = tuple(p for p in s.seats if s.players[p].scar == FACE_DOWN)
        chooser = f.choosers[:1] if f.phase == "rewards" else (world_namer(s),)
        return tuple(p for p in s.seats if p in chooser or p in face_down)
    if f.phase == "choose":
        return (f.current,)
    if f.phase != "turn" or f.pending is not None:
        return ()
    cb = s.combat
    if cb is None:
        return (f.current,)
    if cb.stage == "declared":
        if cb.defend:
            return ()
        free = W.marks(s.world, cb.to).scar is None
        return tuple(p for p in s.seats if p == cb.defender
                     or (free and not s.players[p].eliminated and s.players[p].scar is not None))
    if cb.stage == "rolled":
        return tuple(p for p in s.seats if not s.players[p].eliminated and s.players[p].missiles > 0
                     and p not in cb.held)
    return (cb.attacker,)


def world_namer(s: State) -> PlayerId | None:
    """The player of this game who names the world now (RL-WORLD-NAME: after the 15th game's
    rewards, the person who signed the victors' section most often): None before or after the
    naming, while the most signatures are tied (the tied roll off first: chance), or when that
    person is not at this table (the table records the name: an event without an actor)."""
    if s.result is None or s.flow.phase != "naming":
        return None
    tied, who = namer(s.world, s.data, None)
    return who if who in s.seats else None


def defence_options(s: State) -> list[int]:
    """Dice the defender may roll against the declared attack (1 or 2, no more than the troops)."""
    cb = s.combat
    if cb is None or cb.stage != "declared":
        return []
    return list(range(1, min(2, s.terr[cb.to].troops) + 1))


def attack_dice(s: State, defend: int) -> ChanceSpec:
    """The dice of the declared attack, the defender rolling `defend` (seat order)."""
    cb = s.combat
    want = {cb.attacker: cb.dice, cb.defender: defend}
    return ChanceSpec("attack", tuple((p, want[p]) for p in s.seats if p in want))


def casualties_payload(s: State) -> dict:
    """The troops the rolled dice (with modifiers and Missiles) remove: the table's record."""
    _, _, a, d = roll_result(s, s.combat)
    return {"attacker": a, "defender": d}


# ---------------------------------------------------------------------------------------------
# decisions
# ---------------------------------------------------------------------------------------------

def candidate_moves(s: State) -> list[Move]:
    f = s.flow
    if s.result is not None:
        if f.phase == "rewards":
            return reward_moves(s)
        namer = world_namer(s)
        if namer is not None:
            return [Move(namer, "WorldNamed", {"name": f"The World of {namer}", "by": namer})]
        return []
    if f.phase == "choose":
        return faction_moves(s)
    if f.phase != "turn" or f.pending is not None:
        return []
    cb = s.combat
    if cb is not None:
        return combat_moves(s)
    return turn_moves(s)


def faction_moves(s: State) -> list[Move]:
    p = s.flow.current
    taken = {ps.faction for ps in s.players.values()}
    free = [f for f in FACTIONS if f not in taken]
    starts = legal_starts(s, p, with_hq=True)
    return [Move(p, "FactionChosen", {"faction": f, "territory": t}) for f in free for t in starts]


def combat_moves(s: State) -> list[Move]:
    cb = s.combat
    out: list[Move] = []
    if cb.stage == "declared":
        m = W.marks(s.world, cb.to)
        if m.scar is None and not cb.defend:
            for p in s.active_players:
                scar = s.players[p].scar
                if scar and scar != FACE_DOWN:       # a face-down card: only its holder knows it
                    out.append(Move(p, "ScarPlaced", {"scar": scar, "territory": cb.to}))
        if not cb.defend:
            out.extend(Move(cb.defender, "DefenceDeclared", {"troops": n}) for n in defence_options(s))
    elif cb.stage == "rolled":
        for p in s.active_players:
            if s.players[p].missiles > 0:
                for side, dice in (("attacker", cb.rolls[0]), ("defender", cb.rolls[1])):
                    for i in range(len(dice)):
                        if not any(x[0] == side and x[1] == i for x in cb.missiles):
                            out.append(Move(p, "MissileFired", {"side": side, "die": i}))
                if p not in cb.held:
                    out.append(Move(p, "MissilesHeld", {}))
    elif cb.stage == "conquered":
        src = s.terr[cb.frm].troops
        for n in sorted({cb.survivors, max(cb.survivors, src // 2), src - 1}):
            if cb.survivors <= n <= src - 1 and n >= 1:
                out.append(Move(cb.attacker, "MovedIn", {"troops": n}))
    return out


def best_trade(s: State, p: PlayerId) -> list[str]:
    """The cards to turn in for the most troops (at most 10 resources), or [] below 2."""
    hand = sorted(s.players[p].hand, key=lambda c: (-W.card_resources(s.world, c), c))[:10]
    best: tuple[int, int, list[str]] = (0, 0, [])
    for k in range(1, min(len(hand), 10) + 1):
        for combo in set(combinations(hand, k)):
            r = resources_of(s, combo)
            if 2 <= r <= 10:
                troops = trade_value(s, r)
                key = (troops, -k)
                if key > best[:2]:
                    best = (troops, -k, sorted(combo))
    return best[2]


def star_purchase(s: State, p: PlayerId) -> list[str]:
    """Four cards for a Red Star: the ones with the fewest resources."""
    hand = sorted(s.players[p].hand, key=lambda c: (W.card_resources(s.world, c), c))
    return hand[:4] if len(hand) >= 4 else []


def turn_moves(s: State) -> list[Move]:
    f = s.flow
    p = f.current
    out: list[Move] = []
    mine = territories_of(s, p)
    if f.step == START and not f.recruited:
        cards = star_purchase(s, p)
        if cards:
            out.append(Move(p, "RedStarBought", {"cards": cards}))
        if not mine:
            return out + [Move(p, "JoinedWar", {"territory": t}) for t in legal_starts(s, p, with_hq=False)]
        trades = [[]]
        if best_trade(s, p):
            trades.append(best_trade(s, p))
        for trade in trades:
            total = recruit_total(s, p, trade)
            for t in mine:
                out.append(Move(p, "Recruited", {"cards": trade, "placements": {t: total}}))
        return out
    if f.step <= MAIN and f.recruited:
        for t in mine:
            n = s.terr[t].troops
            if n < 2:
                continue
            for to in sorted(s.data.neighbours[t]):
                x = s.terr[to]
                if x.troops == 0:
                    cost = city_cost(s, to)
                    for k in sorted({1 + cost, (n - 1 + cost + 1) // 2, n - 1}):
                        if 1 + cost <= k <= n - 1:
                            out.append(Move(p, "Expanded", {"from": t, "to": to, "troops": k}))
                elif x.owner != p and x.troops > 0 and to not in f.immune:
                    out.append(Move(p, "AttackDeclared", {"from": t, "to": to, "troops": min(3, n - 1)}))
    if not f.maneuvered and f.recruited and (f.step <= MAIN or has_power(s, p, "sahara-maneuver-anytime")):
        out.extend(maneuver_moves(s, p, mine))
    if f.recruited and f.step < END and may_draw(s, p):
        choices = face_up_choices(s, p)
        if choices:
            troop = has_power(s, p, "khan-card-troop")
            out.extend(Move(p, "CardDrawn", {"card": c, "troop": troop}) for c in choices)
        elif s.side.coins > 0:
            out.append(Move(p, "CardDrawn", {"card": COIN}))
    out.append(Move(p, "TurnEnded", {}))
    return out


def maneuver_moves(s: State, p: PlayerId, mine: list[str]) -> list[Move]:
    out = []
    anywhere = has_power(s, p, "sahara-maneuver-anywhere")
    for a in mine:
        n = s.terr[a].troops
        if n < 2:
            continue
        for b in mine:
            if b != a and (anywhere or b in s.data.neighbours[a] or connected(s, p, a, b)):
                out.append(Move(p, "Maneuvered", {"from": a, "to": b, "troops": n - 1}))
    return out


def reward_moves(s: State) -> list[Move]:
    f = s.flow
    if not f.choosers:
        return []
    p = f.choosers[0]
    w = s.world
    out = [Move(p, "RewardChosen", {"reward": "pass"})]
    if s.outcomes.get(p) == "won":
        for c in s.data.continents:
            if not W.continent_marks(w, c).name:
                out.append(Move(p, "RewardChosen", {"reward": "name_continent", "continent": c,
                                                    "name": f"{s.data.continent_names[c]} of {p}"}))
            if W.continent_marks(w, c).modifier == 0:
                for mod, item in ((1, "continent_plus"), (-1, "continent_minus")):
                    if w.supply.get(item, 0) > 0:
                        out.append(Move(p, "RewardChosen", {"reward": "change_continent_bonus",
                                                            "continent": c, "modifier": mod}))
        for t in s.data.territories:
            m = W.marks(w, t)
            if m.city is None and w.supply.get("major_city", 0) > 0:
                out.append(Move(p, "RewardChosen", {"reward": "found_major_city", "territory": t,
                                                    "name": f"{s.data.names[t]} City"}))
            if m.scar is not None and w.supply.get("scar_cancel", 0) > 0:
                out.append(Move(p, "RewardChosen", {"reward": "cancel_scar", "territory": t}))
            if m.city is not None and w.supply.get("fortification", 0) > 0:
                out.append(Move(p, "RewardChosen", {"reward": "fortify_city", "territory": t}))
        for card in sorted(w.resources):
            out.append(Move(p, "RewardChosen", {"reward": "destroy_card", "card": card}))
    else:
        for t in sorted(s.end_holdings.get(p, ())):
            if W.marks(w, t).city is None and w.supply.get("minor_city", 0) > 0:
                out.append(Move(p, "RewardChosen", {"reward": "found_minor_city", "territory": t,
                                                    "name": f"{s.data.names[t]} Town"}))
            card = s.data.card_of[t]
            if card in w.resources and w.resources[card] < s.data.inventory["max_resources"]:
                out.append(Move(p, "RewardChosen", {"reward": "upgrade_card", "card": card}))
    return out
