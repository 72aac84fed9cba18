"""Risk Europe, "How to Play: Round Overview" (p.8) and "Winning the Game" (p.19): turns that end
implicitly, the close of a round (battles, then the win check, eliminations and the next round),
the crown, team and last-standing wins, and the declared result checked against them.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.judging import acting
from engine.core.ruleset import GameResult
from engine.core.text import plural
from engine.risk_europe.state import Flow, PlayerId, State, Terr, evolve as replace
from engine.risk_europe.common import (
    BATTLE_SLOT, crowns, crowns_by_army, _Ctx, _name, _rotate, _step_of, territories_of, TURN_EVENTS,
)


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


_PENDING_WORDS = {"siege_dice": "Siege Assault's dice", "casualties": "Siege Assault's casualties",
                  "mission": "Kingdom Mission to keep"}


def _turn_ended(s: State, e: Event, c: _Ctx) -> State | None:
    """RE-TURN-END: the current player ends their turn once their card is revealed and nothing is
    pending; play passes to the left (after the round's last turn: the battles, or the round's end)."""
    f = s.flow
    if not acting(f, e.actor, c, "turn", "RE-FLOW", "a turn is ended during the turns of a round (now: {phase})",
                  "RE-TURN-ORDER", "it is {current}'s turn {turn}, not {actor}'s"):
        return None
    if f.card is None:
        return c.skip("RE-TURN-END", f"{e.actor} has revealed no card for turn {f.turn} of round {f.round}: "
                      "the turn has not begun")
    if f.pending is not None:
        return c.skip("RE-TURN-END", f"{e.actor}'s {_PENDING_WORDS.get(f.pending[0], f.pending[0])} must be "
                      "settled before the turn ends")
    c.note(f"{_name(s, e.actor)} ends turn {f.turn} of round {f.round}")
    return _close_turn(s, c, lenient=False)


def _enter_battles(s: State, c: _Ctx) -> State:
    s = replace(s, flow=s.flow._replace(phase="battles", order_done=None), step=s.flow.round * 1000 + BATTLE_SLOT)
    disputed = [t for t, x in s.terr.items() if x.attacker is not None]   # is_disputed, inlined
    if not disputed:
        return _end_round(s, c)
    c.note(f"Battles to fight in round {s.flow.round}: {', '.join(disputed)}; {s.marker} chooses the order")
    return s


def _last_turn(f: Flow) -> bool:
    return f.turn == 2 and f.index == len(f.order) - 1


def _next_slot(f: Flow, player: PlayerId | None) -> tuple[int, int] | None:
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
    assert need is not None             # asked only of a variant won by crowns (_end_round)
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
           f"with {plural(score[winners[0]], 'crown')}")
    if len(contenders) > 1:
        c.note("Decided with tie-break (crowns, then territories, then coins with the marker worth 10): "
               + "; ".join(f"{p} {plural(score[p], 'crown')}, "
                           f"{plural(detail[p]['territories'], 'territory', 'territories')}, "
                           f"{plural(detail[p]['coins'], 'coin')}{' + marker' if detail[p]['marker'] else ''}"
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
            bits.append(f"{p} has {plural(crowns(s, p), 'crown')}; {v.name} needs {v.win_crowns}")
    return f" ({'; '.join(bits)})" if bits else ""
