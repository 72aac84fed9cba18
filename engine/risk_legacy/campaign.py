"""Risk Legacy campaigns, the pure part: a campaign's games on one evolving world, how a game fits
it (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER, RL-CUSTOMIZE), how stored games link, the history and
the next game's start. Reached through `RULESET.campaign` (engine.core.campaign.CampaignHooks);
reading logs, judging them and the campaign file are ledger.campaign's.

A judgement `j` is duck-typed: game_id, file, head, events, findings, fatal, result, final_state.
The campaign file (format "ledger-campaign", version 1) is one JSON document:

    {"format": "ledger-campaign", "version": 1, "name": "earth", "ruleset": "risk-legacy",
     "data": "board:<sha256> rules:<sha256>",
     "setup": {"powers": {...}, "stickers": {"A5": 2, ...}},       # "Before your first game"
     "world0": {...world...},                                       # the world game 1 starts from
     "games": [{"game": 1, "log": "game-01.jsonl", "game_id": "...", "head": "<chain head>",
                "events": 244, "world_before": "<sha256>", "world_after": "<sha256>",
                "winner": "ann", "reason": "4 red stars", "players": {"ann": {"faction": ..., "outcome": ...}},
                "changes": ["ann signs ...", ...], "findings": 0}, ...],
     "world": {...world...}}                                         # the world now

Log paths are kept relative to the campaign file's folder when they are inside it. Games are only
appended; `audit_campaign` re-reads every log and checks that each game starts from the world the
one before it left (RL-CAMPAIGN-WORLD), that it is the next game (RL-CAMPAIGN-ORDER) and that its
chain head is the one recorded when it was added.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from engine.core.campaign import CampaignHooks
from engine.core.rules import Finding
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTION_NAMES, FACTIONS, GameData, default_data
from engine.risk_legacy.chronicle import describe_world, world_changes, world_diff
from engine.risk_legacy.rules import RULES

Judgement = Any

FORMAT = "ledger-campaign"
VERSION = 1
SUFFIX = ".campaign.json"



@dataclass
class Campaign:
    name: str
    data_digest: str
    setup: dict
    world0: W.World
    games: list[dict] = field(default_factory=list)
    world: W.World | None = None
    ruleset = "risk-legacy"

    def __post_init__(self) -> None:
        if self.world is None:
            self.world = self.world0

    @property
    def next_game(self) -> int:
        return len(self.games) + 1

    def as_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "name": self.name, "ruleset": "risk-legacy",
                "data": self.data_digest, "setup": self.setup, "world0": W.world_to_dict(self.world0),
                "games": self.games, "world": W.world_to_dict(self.world)}


def _data_digest(data: GameData) -> str:
    return f"board:{data.board_digest} rules:{data.rules_digest}"


def world_of(state: Any) -> W.World:
    """The world a game's state has now (after a finished game: the world the next starts from)."""
    return state.world


def campaign_from_dict(raw: dict) -> Campaign:
    """A campaign from its file's document; ValueError (KeyError, WorldError) naming what is wrong."""
    try:
        return Campaign(name=raw["name"], data_digest=raw["data"], setup=raw.get("setup", {}),
                        world0=W.world_from_dict(raw["world0"]), games=list(raw.get("games", [])),
                        world=W.world_from_dict(raw["world"]))
    except KeyError as exc:
        raise ValueError(f"no {exc} in the campaign") from exc
    except W.WorldError as exc:
        raise ValueError(str(exc)) from exc


def claim(start: Any) -> tuple[str, int] | None:
    """(campaign name, game number) a GameStarted payload claims, or None."""
    camp = start.get("campaign") if isinstance(start, dict) else None
    if not isinstance(camp, dict) or not isinstance(camp.get("name"), str) \
            or not isinstance(camp.get("game"), int) or isinstance(camp.get("game"), bool):
        return None
    return camp["name"], camp["game"]


def new_campaign(name: str, powers: dict, stickers: dict, data: GameData | None = None) -> tuple[list[str], Campaign]:
    """A campaign whose world is the box customized "Before your first game" (RL-CUSTOMIZE)."""
    data = data or default_data()
    problems, world0 = W.customize(W.pristine_world(data), data, powers, stickers)
    setup = {"powers": {f: world0.powers.get(f) for f in sorted(world0.powers)},
             "stickers": {data.resolve_card(k) or k: v for k, v in sorted(stickers.items())}}
    return problems, Campaign(name=name, data_digest=_data_digest(data), setup=setup, world0=world0)


# ---------------------------------------------------------------------------------------------
# judging a game against the campaign
# ---------------------------------------------------------------------------------------------

def _finding(file: str, rule: str, message: str, line: int | None = 1, seq: int | None = 0) -> Finding:
    """A game that does not fit the campaign: its GameStarted's claim to be game N of the campaign,
    from the world the campaign left, is wrong (kind "claim": `verify` exits 1 on it)."""
    return Finding(file, line, seq, rule, message, RULES[rule].section, "claim", None, "GameStarted")


def start_world_findings(file: str, game_no: int, world_doc: object, before: W.World, data: GameData,
                         left: str = "the world the campaign left") -> list[Finding]:
    """Does the world a game carries (`world_doc`, its GameStarted's `world`) equal `before`, the
    world it should start from? RL-CAMPAIGN-WORLD, naming every difference."""
    try:
        started = W.world_from_dict(world_doc) if world_doc is not None else None
    except W.WorldError as exc:
        return [_finding(file, "RL-CAMPAIGN-WORLD", f"the game's world cannot be read: {exc}")]
    if started is None:
        return [_finding(file, "RL-CAMPAIGN-WORLD", "the game does not carry the world it starts from")]
    if W.world_digest(started) == W.world_digest(before):
        return []
    diff = world_diff(before, started, data)
    detail = "; ".join(diff[:6]) + (f"; and {len(diff) - 6} more" if len(diff) > 6 else "")
    return [_finding(file, "RL-CAMPAIGN-WORLD", f"game {game_no} starts from world "
                     f"{W.world_digest(started)[:12]}..., not from {left} "
                     f"({W.world_digest(before)[:12]}...)" + (f": {detail}" if detail else ""))]


def campaign_findings(c: Campaign, j: Judgement, start: dict, game_no: int, world_before: W.World,
                      data: GameData) -> list[Finding]:
    """Does this judged game fit the campaign as game `game_no`, after `world_before`?"""
    out: list[Finding] = []
    if j.ruleset != "risk-legacy":
        return [_finding(j.file, "RL-CAMPAIGN-ORDER", f"a campaign holds Risk Legacy games; this log is "
                         f"{j.ruleset or 'not a game log'}")]
    camp = start.get("campaign") or {}
    if camp.get("name") != c.name:
        out.append(_finding(j.file, "RL-CAMPAIGN-ORDER", f"the game names campaign {camp.get('name')!r}, "
                            f"not {c.name!r}"))
    if camp.get("game") != game_no:
        out.append(_finding(j.file, "RL-CAMPAIGN-ORDER", f"the game calls itself game {camp.get('game')!r}; "
                            f"it would be game {game_no} of {c.name!r}"))
    out += start_world_findings(j.file, game_no, start.get("world"), world_before, data)
    if j.result is None:
        out.append(Finding(j.file, None, None, "RL-CAMPAIGN-ORDER", "the game is not over: only finished games "
                           "are added to a campaign", RULES["RL-CAMPAIGN-ORDER"].section, "claim", None, None))
    return out


def _game_record(j: Judgement, log: str, game_no: int, before: W.World, after: W.World,
                 data: GameData) -> dict:
    st = j.final_state
    res = j.result
    players = {p: {"faction": st.players[p].faction, "start": st.players[p].start,
                   "outcome": (st.outcomes or {}).get(p)} for p in st.seats}
    return {"game": game_no, "log": log, "game_id": j.game_id, "head": j.head, "events": j.events,
            "world_before": W.world_digest(before), "world_after": W.world_digest(after),
            "winner": res.winners[0] if res and res.winners else None, "reason": res.reason if res else None,
            "rounds": res.round if res else None, "players": players,
            "changes": world_changes(before, after, data),
            "findings": len(j.findings)}


# ---------------------------------------------------------------------------------------------
# campaigns in the store: each stored game linked to the game before it
# ---------------------------------------------------------------------------------------------
#
# The store keeps no campaign file: a Risk Legacy game names its campaign and number in its
# GameStarted, and the store links each such game to the stored game before it. Linking is a pure
# function of what is stored (`link_campaign`), so it is run again whenever a game of the campaign
# is stored, extended or judged again: a game that came before its predecessor is re-checked when
# the predecessor arrives.

LINK_STATUSES = ("fits", "wrong-world", "waiting", "duplicate")


@dataclass(frozen=True)
class CampaignGame:
    """A game that names a campaign, as linking needs it: its number, the world it starts from and
    the world it leaves (digests, and the documents for naming differences), its own findings, and
    its place in the order games were stored."""

    game_id: str
    campaign: str
    game: int
    start_digest: str | None           # None: it carries no (readable) world
    end_digest: str | None             # None: it is not over, the world it leaves is not known
    start_world: dict | None = None
    end_world: dict | None = None
    own_findings: int = 0
    stored: tuple = ()                 # sorts first for the game stored first
    file: str = ""                     # how its findings name it (default: the game id)

    @property
    def label(self) -> str:
        return self.file or self.game_id


@dataclass
class Link:
    """How a game fits its campaign: fits | wrong-world | waiting (for game `waiting_for`) |
    duplicate (another stored game is the campaign's game with that number), and the findings."""

    status: str
    waiting_for: int | None
    findings: list[Finding]


def setup_of(world: W.World) -> dict:
    """The choices made "Before your first game" as a world shows them: each faction's starting
    power and the coin stickers (a territory card's resources above 1)."""
    return {"powers": {f: world.powers.get(f) for f in sorted(world.powers)},
            "stickers": {c: n - 1 for c, n in sorted(world.resources.items()) if n > 1}}


def first_world_findings(file: str, name: str, world_doc: object, data: GameData) -> list[Finding]:
    """Game 1 of a campaign whose first world is not known otherwise: it must start from the box
    customized "Before your first game" — a starting power per faction, the 12 coin stickers, no
    card above 3 resources (RL-CUSTOMIZE) — with nothing else changed (RL-CAMPAIGN-WORLD). The
    trade chart is the campaign's own choice and is not checked."""
    try:
        world = W.world_from_dict(world_doc) if world_doc is not None else None
    except W.WorldError:
        world = None
    if world is None:
        return start_world_findings(file, 1, world_doc, W.pristine_world(data), data)
    setup = setup_of(world)
    powers = {f: p for f, p in setup["powers"].items() if p is not None}
    problems, c = new_campaign(name, powers, setup["stickers"], data)
    out = [_finding(file, "RL-CUSTOMIZE", f"game 1 of {name!r} starts from a world not customized "
                    f"as the rulebook says: {p}") for p in problems]
    box = c.world0.model_copy(update={"trade_chart": world.trade_chart})
    return out + start_world_findings(file, 1, world_doc, box, data,
                                      left="the box customized before the first game")


def campaign_game(start: Any, j: Judgement, data: GameData | None = None) -> tuple[CampaignGame, dict] | None:
    """A judged Risk Legacy game whose GameStarted names a campaign: what linking needs of it, and
    its history record (players, factions and outcomes, the winner, what it changed, as
    `campaign show` tells it). None for any other log, or one whose start cannot be judged."""
    if j.ruleset != "risk-legacy" or j.fatal is not None or j.final_state is None:
        return None
    start = start if isinstance(start, dict) else {}
    camp = start.get("campaign")
    if not isinstance(camp, dict) or not isinstance(camp.get("name"), str) \
            or not isinstance(camp.get("game"), int):
        return None
    data = data or getattr(j.final_state, "data", None) or default_data()
    try:
        started = W.world_from_dict(start["world"]) if start.get("world") is not None else None
    except W.WorldError:
        started = None
    end = world_of(j.final_state)
    over = j.result is not None
    record = _game_record(j, str(j.game_id), camp["game"], started or W.pristine_world(data), end, data)
    record["world_before"] = W.world_digest(started) if started is not None else None
    record["world_after"] = W.world_digest(end) if over else None
    game = CampaignGame(
        game_id=str(j.game_id), campaign=camp["name"], game=camp["game"],
        start_digest=record["world_before"], end_digest=record["world_after"],
        start_world=W.world_to_dict(started) if started is not None else None,
        end_world=W.world_to_dict(end) if over else None,
        own_findings=len(j.findings), file=j.file)
    return game, record


def link_campaign(name: str, games: list[CampaignGame], world0: dict | None = None,
                  data: GameData | None = None) -> list[Link]:
    """Link every game of campaign `name` to the game before it; one Link per game, in order.

    The campaign's game N is, among the games that call themselves game N, the one that starts from
    the world game N-1 left, is over and has no findings of its own; among equals, the one stored
    first. The others with that number are duplicates (RL-CAMPAIGN-ORDER). Game N must start from
    the world the campaign's game N-1 left (RL-CAMPAIGN-WORLD); game 1 from `world0` when the
    campaign was created with one, else from the box customized before the first game
    (`first_world_findings`). While game N-1 is not stored, or not over, game N is waiting for it
    (RL-CAMPAIGN-ORDER): its start cannot be checked yet, and is when the campaign is linked again.
    """
    data = data or default_data()
    first = W.world_from_dict(world0) if world0 is not None else None
    by_no: dict[int, list[int]] = {}
    for i, g in enumerate(games):
        by_no.setdefault(g.game, []).append(i)
    links: list[Link] = [Link("fits", None, [])] * len(games)
    counted: dict[int, CampaignGame] = {}
    misfits: dict[int, CampaignGame] = {}
    for n in sorted(by_no):
        claim = by_no[n]
        prev = counted.get(n - 1)
        waiting = _waiting(name, n, prev, misfits.get(n - 1))
        found = {i: [] if waiting else _start_findings(name, games[i], prev, first, data)
                 for i in claim}
        chosen = min(claim, key=lambda i: (bool(found[i]), games[i].end_digest is None,
                                           games[i].own_findings > 0, games[i].stored, i))
        if not found[chosen]:
            # only a game that starts from the right world (or waits to be checked) advances the
            # campaign's world: after a wrong-world game N, game N+1 waits for a game N that fits
            # (RL-CAMPAIGN-WORLD)
            counted[n] = games[chosen]
        else:
            misfits[n] = games[chosen]
        for i in claim:
            g = games[i]
            if i != chosen:
                links[i] = Link("duplicate", None, [_finding(
                    g.label, "RL-CAMPAIGN-ORDER",
                    f"game {n} of {name!r} is {games[chosen].game_id}; this is another game {n}, not "
                    f"counted (the campaign counts the game {n} that starts from the right world, is "
                    f"over and has no findings of its own, else the first stored)")] + found[i])
            elif waiting is not None:
                links[i] = Link("waiting", n - 1, [_finding(g.label, "RL-CAMPAIGN-ORDER", waiting)])
            else:
                links[i] = Link("wrong-world" if found[i] else "fits", None, found[i])
    return links


def _waiting(name: str, n: int, prev: CampaignGame | None, misfit: CampaignGame | None = None) -> str | None:
    """Why game `n` cannot be checked yet (its predecessor `prev` is missing or not over, or the
    only game n-1 stored, `misfit`, does not fit the campaign), or None."""
    if n == 1:
        return None
    if prev is None and misfit is not None:
        return (f"waiting for game {n - 1} of {name!r}: the stored game {n - 1} ({misfit.game_id}) "
                f"does not start from the world game {n - 2} left, so it does not continue the "
                f"campaign, and the world game {n} should start from is not known")
    if prev is None:
        return (f"waiting for game {n - 1} of {name!r}: the store holds no game {n - 1}, so the world "
                f"game {n} starts from cannot be checked yet (it is, when game {n - 1} is stored)")
    if prev.end_digest is None:
        return (f"waiting for game {n - 1} of {name!r} ({prev.game_id}) to end: it is not over in the "
                f"store, so the world it leaves is not known yet")
    return None


def _start_findings(name: str, g: CampaignGame, prev: CampaignGame | None, first: W.World | None,
                    data: GameData) -> list[Finding]:
    """Does game `g` start from the world it should: the one its predecessor `prev` left, or for
    game 1 the campaign's first world `first` (else the customized box)?"""
    if g.game > 1:
        if g.start_digest == prev.end_digest:
            return []
        return start_world_findings(g.label, g.game, g.start_world, W.world_from_dict(prev.end_world),
                                    data, left=f"the world game {g.game - 1} ({prev.game_id}) left")
    if first is None:
        return first_world_findings(g.label, name, g.start_world, data)
    if g.start_digest == W.world_digest(first):
        return []
    return start_world_findings(g.label, 1, g.start_world, first, data, left="the campaign's first world")


# ---------------------------------------------------------------------------------------------
# the history
# ---------------------------------------------------------------------------------------------

def history(c: Campaign, data: GameData | None = None) -> dict:
    """Everything `ledger campaign show` tells: the setup, each game, the world now."""
    data = data or default_data()
    return {"name": c.name, "ruleset": "risk-legacy", "data": c.data_digest, "games_played": len(c.games),
            "setup": c.setup, "world0": W.world_digest(c.world0), "games": c.games,
            "world_digest": W.world_digest(c.world), "world": W.world_to_dict(c.world),
            "world_now": describe_world(c.world, data),
            "next_game": c.next_game,
            "reward_games_left": max(0, data.inventory["reward_games"] - len(c.games))}


def history_lines(c: Campaign, data: GameData | None = None) -> list[str]:
    data = data or default_data()
    out = [f"Campaign {c.name!r} (Risk Legacy): {len(c.games)} game{'s' if len(c.games) != 1 else ''} played"]
    if c.setup.get("powers"):
        out.append("Before the first game: starting powers " + ", ".join(
            f"{FACTION_NAMES.get(f, f)} {p}" for f, p in sorted(c.setup.get("powers", {}).items()))
            + "; coin stickers on " + ", ".join(f"{k} +{v}" for k, v in sorted(c.setup.get("stickers", {}).items())))
    else:
        out.append("Before the first game: not known (no game 1 is stored)")
    for g in c.games:
        def who(p: str) -> str:
            info = g["players"].get(p, {})
            return f"{p} ({FACTION_NAMES.get(info.get('faction'), info.get('faction'))})"
        held = [who(p) for p, i in g["players"].items() if i.get("outcome") == "held_on"]
        gone = [who(p) for p, i in g["players"].items() if i.get("outcome") == "eliminated"]
        out.append(f"Game {g['game']} ({g['log']}, {g['events']} events): "
                   + (f"{who(g['winner'])} won ({g['reason']}, round {g.get('rounds')})" if g["winner"] else "no winner")
                   + (f"; held on: {', '.join(held)}" if held else "") + (f"; eliminated: {', '.join(gone)}" if gone else ""))
        for ch in g["changes"]:
            out.append(f"    - {ch}")
        for problem in g.get("campaign_findings", []):
            out.append(f"    ! {problem}")
    out.append(f"The world now (digest {W.world_digest(c.world)[:16]}...):")
    out.extend(f"    {line}" for line in describe_world(c.world, data))
    left = max(0, data.inventory["reward_games"] - len(c.games))
    out.append(f"Next: game {c.next_game}" + (f" ({left} game{'s' if left != 1 else ''} with rewards left)"
                                            if left else " (the reward window of 15 games is closed)"))
    return out


def next_game_start(c: Campaign, players: list[str], *, dice: dict | None = None, data: GameData | None = None) -> dict:
    """The GameStarted payload of the campaign's next game (players in clockwise seat order)."""
    data = data or default_data()
    payload: dict[str, Any] = {"ruleset": "risk-legacy", "players": [{"id": p} for p in players],
                               "campaign": {"name": c.name, "game": c.next_game, "world": W.world_digest(c.world)},
                               "data": {"board": data.board_digest, "rules": data.rules_digest},
                               "world": W.world_to_dict(c.world)}
    if dice:
        payload["dice"] = dice
    return payload


def customize(name: str, seed: int, powers: Mapping[str, str] | None = None,
              stickers: Mapping[str, str] | None = None,
              data: GameData | None = None) -> tuple[list[str], Campaign]:
    """A campaign customized "Before your first game": each faction's starting power (a power id,
    or "0"/"1" for the first or second of its two cards) where `powers` names one, else a coin
    flip; the 12 coin stickers as `stickers` places them (card -> count), else at random as the
    rulebook suggests. The flips and the random stickers come from `seed` (same seed, same world).
    (problems, campaign): each problem names RL-CUSTOMIZE."""
    from engine.risk_legacy.sim import random_world
    data = data or default_data()
    drawn = random_world(data, random.Random(f"ledger-campaign-new:{seed}:{name}"))
    chosen: dict[str, Any] = {f: drawn.powers[f] for f in FACTIONS}
    for f, p in (powers or {}).items():
        chosen[f] = int(p) if p in ("0", "1") else p
    if stickers:
        placed = {k: int(v) if str(v).isdigit() else -1 for k, v in stickers.items()}
    else:
        placed = {c: n - 1 for c, n in drawn.resources.items() if n > 1}
    problems, c = new_campaign(name, chosen, placed, data)
    return [f"RL-CUSTOMIZE: {p}" for p in problems], c


def from_store(name: str, data_digest: str | None, setup: dict | None, world0: dict | None,
               records: list[dict], world: dict | None, data: GameData | None = None) -> Campaign:
    """A campaign as a store holds it: its first world and setup (when known), the history
    records of its games in a row, and the world the last one left."""
    data = data or default_data()
    first = W.world_from_dict(world0) if world0 is not None else None
    if not setup:
        setup = setup_of(first) if first is not None else {}
    return Campaign(name=name, data_digest=data_digest or _data_digest(data), setup=setup,
                    world0=first or W.pristine_world(data), games=records,
                    world=W.world_from_dict(world) if world is not None else first)


def simulate(name: str, games: int, seed: int) -> tuple[Campaign, Iterator[Any]]:
    """Seeded bots play a campaign: (the campaign before game 1, its finished games in order)."""
    from engine.risk_legacy.sim import campaign_world, play_campaign
    data = default_data()
    world0 = campaign_world(name, seed)
    stickers = {c: n - 1 for c, n in world0.resources.items() if n > 1}
    c = Campaign(name=name, data_digest=_data_digest(data),
                 setup={"powers": dict(sorted(world0.powers.items())), "stickers": dict(sorted(stickers.items()))},
                 world0=world0)
    return c, play_campaign(name, games, seed)


HOOKS = CampaignHooks(
    claim=claim, from_dict=campaign_from_dict, new=new_campaign, customize=customize,
    world_of=world_of, world_digest=W.world_digest, world_doc=W.world_to_dict,
    fits=campaign_findings, game_record=_game_record, game_of=campaign_game, link=link_campaign,
    from_store=from_store, history=history, history_lines=history_lines, next_start=next_game_start,
    finding=_finding, game_type=CampaignGame, order_rule="RL-CAMPAIGN-ORDER",
    world_rule="RL-CAMPAIGN-WORLD", simulate=simulate,
)
