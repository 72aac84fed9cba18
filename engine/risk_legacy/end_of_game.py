"""Risk Legacy, "End of Game" ("If You Won", "If You Held On but Did Not Win", "Completed World")
and "Opening New Packages": the rewards chosen and their effect on the world, the world named,
packs opened, and the declared result checked against the rules' own.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.judging import bad_faces
from engine.core.text import plural
from engine.risk_legacy import world as W
from engine.risk_legacy.board import COIN, GameData, Territory
from engine.risk_legacy.state import State, evolve as replace
from engine.risk_legacy.common import (
    _Ctx, HELD_ON_REWARDS, _open_pack, PACK_CONDITIONS, _resolve, _tname, WINNER_REWARDS,
)
from engine.risk_legacy.turns import _after_rewards


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
        return c.skip("RL-REWARD-UPGRADE", f"{card} already has {plural(n, 'resource')}; {cap} is the most")
    resources = dict(world.resources)
    resources[card] = n + 1
    return world.model_copy(update={"resources": resources}), f"upgrades {card} ({_tname(s, t)}) to {plural(n + 1, 'resource')}"


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
    if pay.rolls and bad_faces(pay.rolls):
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


def _game_ended(s: State, e: Event, c: _Ctx) -> State | None:
    said = e.payload.winner or "no winner"
    if s.result is None:
        c.claim("RL-CLAIM", f"the log declares the game over ({said}), but by the rules it goes on")
        return s
    winners = s.result.winners
    if (e.payload.winner,) != tuple(winners) and not (e.payload.winner is None and not winners):
        c.claim("RL-CLAIM", f"the log declares {said}; the rules give {' and '.join(winners) or 'no winner'}")
    return s
