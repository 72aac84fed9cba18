"""Risk Legacy, "Setup Before Every Game" and "Before the First Turn": the start of a log, the Scar
cards dealt (openly or face down) and returned, the sideboard's Territory cards laid out, the
roll-off, and each faction chosen with its starting territory and HQ; the pools the random
draws come from (`scar_pool`, `layout_pool`, `reveal_pool`).
"""

from __future__ import annotations

import dataclasses
from itertools import count as count_from
from engine.core.chance import draw
from engine.core.commit import matches_commitment
from engine.core.dice import DiceState
from engine.core.events import Event
from engine.core.judging import acting, roll_off
from engine.core.rules import Violation
from engine.core.text import plural
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, FACTIONS, FACTION_NAMES, GameData
from engine.risk_legacy.state import (
    FACE_DOWN, Flow, Player, PlayerId, ScarDeal, Sideboard, State, Terr, evolve as replace,
)
from engine.risk_legacy.common import (
    _a, _cards, _check_blind_draw, _check_draw, _Ctx, is_legal_start, is_next_to_hq, _nth, _resolve,
    _roll, _set_terr, _tname, V,
)
from engine.risk_legacy.turns import _begin_turn


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
                         f"world has {plural(world.games, 'game')} played, so this is game {world.games + 1}",
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
        dice=DiceState(payload.dice.mode, payload.dice.seed_hash),
        players=players,
        terr={t: Terr() for t in data.territories},
        side=side,
        flow=Flow(phase="setup"),
        combat=None,
        end_holdings=None,
        outcomes=None,
        result=None,
    )


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
        return c.skip("RL-SETUP-SCARS", f"{plural(sum(avail.values()), 'Scar card')} for {len(s.seats)} players: "
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
            return c.skip("RL-SETUP-SCARS", f"{plural(n, kind + ' card')} dealt; {avail[kind]} {'is' if avail[kind] == 1 else 'are'} left")
    s = _check_draw(s, pool, len(s.seats), [dealt[p] for p in s.seats], pay.dice, "the Scar cards dealt", c)
    for p, kind in dealt.items():
        players[p] = players[p]._replace(scar=kind)
    c.note("Scar cards dealt: " + ", ".join(f"{p} {k.replace('_', ' ')}" for p, k in dealt.items()))
    return replace(s, players=players, scars_dealt=True)


def _deal_face_down(s: State, pool: tuple[str, ...], pay, c: _Ctx) -> State:
    """A face-down deal (RL-RULING-HIDDEN-SCARS): its dice are the stream's next `hidden_dice`,
    not logged. With the seed known, the deal is drawn from them now (and the number checked)."""
    count = pay.hidden_dice
    if not s.dice.is_seeded:
        if count:
            c.bad("RL-CHANCE-DRAW", f"hidden_dice counts dice of a seeded stream; this game's dice are "
                  f"rolled at the table (hidden_dice {count})")
        return replace(s, scar_deal=ScarDeal(pool, dict(pay.commitments), s.dice.count, 0))
    drawn = None
    tape = s.dice.tape
    if tape is not None:
        stream = (tape.take(i, 1)[0] for i in count_from(s.dice.count))
        cards, used = draw(pool, len(s.seats), stream.__next__)
        drawn = dict(zip(s.seats, cards))
        if count is not None and count != len(used):
            c.bad("RL-CHANCE-DRAW", f"the face-down Scar deal says it used {plural(count, 'die', 'dice')} of the stream; "
                  f"the seed's dice make the deal with {len(used)}")
        count = len(used)
    if count is None:
        c.bad("RL-CHANCE-DRAW", "Scar cards dealt face down in a seeded game must say how many dice of "
              "the stream the deal used (hidden_dice)")
        count = 0
    deal = ScarDeal(pool, dict(pay.commitments), s.dice.count, count, drawn)
    return replace(s, scar_deal=deal, dice=dataclasses.replace(s.dice, count=s.dice.count + count))   # counted, not logged


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
    rolled = roll_off(s, e.payload.rolls, tied, c, "RL-SETUP-ROLLOFF", "RL-DICE-FACES",
                      "each player rolls one die", _roll)
    if rolled is None:
        return None
    s, best, top = rolled
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
    if not acting(f, e.actor, c, "choose", "RL-FLOW", "factions are chosen after the roll-off (now: {phase})",
                  "RL-SETUP-FACTION", "it is {current}'s turn to choose a faction, not {actor}'s"):
        return None
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
           + f": HQ and {plural(troops, 'troop')} in {_tname(s, t)}")
    if f.index + 1 < len(f.order):
        return replace(s, flow=f._replace(index=f.index + 1))
    c.note(f"Every faction is on the board: {f.order[0]} takes the first turn")
    return _begin_turn(replace(s, flow=Flow(phase="turn", round=1, order=f.order, index=0)), c)
