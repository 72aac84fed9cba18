"""Risk Legacy, "Turn Overview; A Note on Timing" and "Goal": the start and end of a turn, whose turn
it is and which step of it, the win at four Red Stars or when everyone else is knocked out, and
the order the players then choose their rewards in.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.judging import acting
from engine.core.ruleset import GameResult
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTIONS
from engine.risk_legacy.state import Flow, MAIN, PlayerId, STEP_NAMES, State, evolve as replace
from engine.risk_legacy.common import (
    _Ctx, faction_name, has_power, hqs_of, legal_starts, _open_pack, stars, territories_of, _tname,
    troops_of, WIN_STARS,
)


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
    if not acting(f, e.actor, c, "turn", "RL-FLOW", e.type + " is played in a player's turn (now: {phase})",
                  "RL-TURN-ORDER", "it is {current}'s turn, not {actor}'s"):
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
