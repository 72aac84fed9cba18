"""Risk Legacy campaigns: an ordered list of game logs played on one evolving world.

    new_campaign(name, powers, stickers) -> (problems, Campaign)   the world before game 1
    load_campaign(path) / save_campaign(campaign, path)            the campaign file (JSON)
    add_game(campaign, log_path, base) -> AddResult                  judge a game and append it
    audit_campaign(campaign, base, extra) -> [GameAudit]             re-judge every game in order

and the same campaigns as the store holds them (ledger.store links each stored game):

    campaign_game(read, judgement) -> (CampaignGame, record) | None  what linking needs of a game
    link_campaign(name, games, world0) -> [Link]                     game N against game N-1
    stored_history(store, name) / stored_history_lines(store, name)  `campaign show NAME --db`
    audit_stored_campaign(store, name, extra) -> [GameAudit]         `campaign audit NAME --db`

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

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.risk_legacy import RULESET, world_of
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTION_NAMES, GameData, default_data
from engine.risk_legacy.chronicle import describe_world, world_changes, world_diff
from engine.risk_legacy.rules import RULES
from replay.logfile import LogFileError, read_log, read_log_text
from replay.judge import Finding, Judgement, judge

FORMAT = "ledger-campaign"
VERSION = 1
SUFFIX = ".campaign.json"


class CampaignError(Exception):
    """A campaign file that cannot be read or used (missing, not JSON, wrong format)."""


@dataclass
class Campaign:
    name: str
    data_digest: str
    setup: dict
    world0: W.World
    games: list[dict] = field(default_factory=list)
    world: W.World | None = None

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
    return RULESET.data_digest(data)


def campaign_path(arg: str | Path) -> Path:
    """A campaign file named on the command line: a path, or a name (NAME.campaign.json)."""
    p = Path(arg)
    if p.suffix == ".json" or p.exists():
        return p
    return Path(f"{arg}{SUFFIX}")


def new_campaign(name: str, powers: dict, stickers: dict, data: GameData | None = None) -> tuple[list[str], Campaign]:
    """A campaign whose world is the box customized "Before your first game" (RL-CUSTOMIZE)."""
    data = data or default_data()
    problems, world0 = W.customize(W.pristine_world(data), data, powers, stickers)
    setup = {"powers": {f: world0.powers.get(f) for f in sorted(world0.powers)},
             "stickers": {data.resolve_card(k) or k: v for k, v in sorted(stickers.items())}}
    return problems, Campaign(name=name, data_digest=_data_digest(data), setup=setup, world0=world0)


def load_campaign(path: str | Path) -> Campaign:
    path = Path(path)
    try:
        raw = json.loads(path.read_text("utf-8"))
    except FileNotFoundError as exc:
        raise CampaignError(f"{path}: no such campaign file") from exc
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CampaignError(f"{path}: not a campaign file ({exc})") from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise CampaignError(f"{path}: not a campaign file (no \"format\": \"{FORMAT}\")")
    if raw.get("version") != VERSION:
        raise CampaignError(f"{path}: campaign format version {raw.get('version')!r}; this ledger reads {VERSION}")
    try:
        return Campaign(name=raw["name"], data_digest=raw["data"], setup=raw.get("setup", {}),
                        world0=W.world_from_dict(raw["world0"]), games=list(raw.get("games", [])),
                        world=W.world_from_dict(raw["world"]))
    except (KeyError, W.WorldError) as exc:
        raise CampaignError(f"{path}: {exc}") from exc


def save_campaign(c: Campaign, path: str | Path) -> None:
    """Write the campaign file atomically (a temp file, then os.replace)."""
    path = Path(path)
    text = json.dumps(c.as_dict(), indent=1, ensure_ascii=False) + "\n"
    fd, temp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


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


@dataclass
class AddResult:
    judgement: Judgement
    findings: list[Finding]          # the game's own findings, then the campaign's
    entry: dict | None               # the record appended (None when refused)


def _rel(path: Path, base: Path) -> str:
    try:
        return str(Path(os.path.relpath(path.resolve(), base.resolve())))
    except ValueError:
        return str(path.resolve())


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


def add_game(c: Campaign, log_path: str | Path, base: str | Path = ".", *, force: bool = False,
             data: GameData | None = None) -> AddResult:
    """Judge `log_path` as the campaign's next game and append it when it fits.

    Refused (entry None) when the game does not fit the campaign (wrong world, number or name; not
    over) or, unless `force`, when it has any finding. LogFileError when the file cannot be read.
    """
    data = data or default_data()
    read = read_log(log_path)
    j = judge(read, data=data if read.events and _is_legacy(read) else None)
    start = read.events[0].payload if read.events and isinstance(read.events[0].payload, dict) else {}
    own = list(j.findings)
    camp = campaign_findings(c, j, start, c.next_game, c.world, data) if j.fatal is None else [
        _finding(j.file, "RL-CAMPAIGN-ORDER", f"the game cannot be judged: {j.fatal}")]
    if camp or (own and not force):
        return AddResult(j, own + camp, None)
    after = world_of(j.final_state)
    entry = _game_record(j, _rel(Path(log_path), Path(base)), c.next_game, c.world, after, data)
    c.games.append(entry)
    c.world = after
    return AddResult(j, own, entry)


def _is_legacy(read) -> bool:
    p = read.events[0].payload
    return isinstance(p, dict) and p.get("ruleset") == "risk-legacy"


@dataclass
class GameAudit:
    game: int
    log: str
    findings: list[Finding]
    judgement: Judgement | None


def audit_campaign(c: Campaign, base: str | Path = ".", extra: list[Path] = (),
                   data: GameData | None = None) -> list[GameAudit]:
    """Re-judge every game of the campaign in order (and then `extra` logs as the games that would
    follow): each game's own findings, its chain head against the recorded one, and whether it
    starts from the world the games before it left (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER)."""
    data = data or default_data()
    base = Path(base)
    world = c.world0
    out: list[GameAudit] = []
    logs = [(g["game"], base / g["log"], g) for g in c.games]
    logs += [(len(c.games) + i + 1, Path(p), None) for i, p in enumerate(extra)]
    for game_no, path, rec in logs:
        try:
            read = read_log(path)
        except LogFileError as exc:
            out.append(GameAudit(game_no, str(path), [Finding(str(path), None, None, "RL-CAMPAIGN-ORDER", str(exc),
                                                              RULES["RL-CAMPAIGN-ORDER"].section, "log")], None))
            continue
        j = judge(read, data=data if read.events and _is_legacy(read) else None)
        start = read.events[0].payload if read.events and isinstance(read.events[0].payload, dict) else {}
        findings = list(j.findings)
        if j.fatal is None:
            findings += campaign_findings(c, j, start, game_no, world, data)
        else:
            findings.append(_finding(j.file, "RL-CAMPAIGN-ORDER", f"the game cannot be judged: {j.fatal}"))
        if rec is not None and rec.get("head") != j.head:
            findings.append(Finding(str(path), None, None, "RL-CAMPAIGN-ORDER",
                                    f"the log's chain head is {str(j.head)[:16]}..., not the "
                                    f"{str(rec.get('head'))[:16]}... recorded when game {game_no} was added: "
                                    "the log was changed since", RULES["RL-CAMPAIGN-ORDER"].section, "log"))
        out.append(GameAudit(game_no, str(path), findings, j))
        if j.ruleset == "risk-legacy" and j.final_state is not None and j.result is not None:
            world = world_of(j.final_state)
    if not extra and out and all(a.judgement is not None for a in out):
        if W.world_digest(world) != W.world_digest(c.world):
            out[-1].findings.append(Finding(out[-1].log, None, None, "RL-CAMPAIGN-WORLD",
                                            "the campaign file's world is not the world its games leave",
                                            RULES["RL-CAMPAIGN-WORLD"].section, "log", None, None))
    return out


def world_before_game(c: Campaign, game_no: int, base: str | Path = ".",
                      data: GameData | None = None) -> W.World | None:
    """The world the campaign stood at before its game `game_no` (None past the next game): the
    first world, the current one, or the world left by replaying the recorded games before it."""
    if game_no == 1:
        return c.world0
    if game_no == c.next_game:
        return c.world
    if not 1 < game_no < c.next_game:
        return None
    data = data or default_data()
    world = c.world0
    for g in c.games[:game_no - 1]:
        j = judge(read_log(Path(base) / g["log"]), data=data, keep_steps=False)
        if j.final_state is None:
            return None
        world = world_of(j.final_state)
    return world


def game_findings_in(c: Campaign, j: Judgement, start: dict, base: str | Path = ".",
                     data: GameData | None = None) -> list[Finding]:
    """A judged Risk Legacy game checked against a campaign: does it start from the world the
    campaign stood at before the game number it claims (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER)?"""
    data = data or default_data()
    game_no = (start.get("campaign") or {}).get("game")
    if not isinstance(game_no, int):
        return [_finding(j.file, "RL-CAMPAIGN-ORDER", "the game names no game number of a campaign")]
    before = world_before_game(c, game_no, base, data)
    if before is None:
        return [_finding(j.file, "RL-CAMPAIGN-ORDER", f"the game calls itself game {game_no}; campaign "
                         f"{c.name!r} has {len(c.games)} games, so its next is game {c.next_game}")]
    return campaign_findings(c, j, start, game_no, before, data)


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


def campaign_game(read: Any, j: Judgement, data: GameData | None = None) -> tuple[CampaignGame, dict] | None:
    """A judged Risk Legacy game whose GameStarted names a campaign: what linking needs of it, and
    its history record (players, factions and outcomes, the winner, what it changed, as
    `campaign show` tells it). None for any other log, or one whose start cannot be judged."""
    if j.ruleset != "risk-legacy" or j.fatal is not None or j.final_state is None or not read.events:
        return None
    start = read.events[0].payload if isinstance(read.events[0].payload, dict) else {}
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
    for n in sorted(by_no):
        claim = by_no[n]
        prev = counted.get(n - 1)
        waiting = _waiting(name, n, prev)
        found = {i: [] if waiting else _start_findings(name, games[i], prev, first, data)
                 for i in claim}
        chosen = min(claim, key=lambda i: (bool(found[i]), games[i].end_digest is None,
                                           games[i].own_findings > 0, games[i].stored, i))
        counted[n] = games[chosen]
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


def _waiting(name: str, n: int, prev: CampaignGame | None) -> str | None:
    """Why game `n` cannot be checked yet (its predecessor `prev` is missing or not over), or None."""
    if n == 1:
        return None
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


def _registered(store: Any, name: str) -> Any:
    return next((c for c in store.campaigns() if c.name == name), None)


def stored_findings(store: Any, game_id: str, file: str | None = None) -> list[Finding]:
    """A stored game's campaign findings as the store last linked it (none for a game of no
    campaign), named `file` (default: the game id)."""
    return [Finding(file or game_id, f.line, f.seq, f.rule, f.message, f.section, f.kind, None, f.event)
            for f in store.campaign_findings(game_id)]


@dataclass
class StoredCampaign:
    """A campaign as the store holds it: `campaign` is its history so far (the counted games 1, 2,
    ... in a row that are over, and the world they leave); `games` every stored game of it with its
    link (game, game_id, status, waiting_for, in_history, findings)."""

    campaign: Campaign
    games: list[dict]
    registered: bool


def stored_campaign(store: Any, name: str, data: GameData | None = None) -> StoredCampaign:
    """Campaign `name` from the store; CampaignError when the store knows no such campaign."""
    data = data or default_data()
    reg = _registered(store, name)
    rows = store.campaign_games(name)
    if reg is None and not rows:
        known = ", ".join(repr(c.name) for c in store.campaigns()) or "none"
        raise CampaignError(f"no campaign {name!r} in {store.name} (campaigns there: {known})")
    findings = {r.game_id: stored_findings(store, r.game_id) for r in rows if r.finding_count}
    counted = {r.game_no: r for r in rows if r.status != "duplicate"}
    chain = []
    while (r := counted.get(len(chain) + 1)) is not None and r.world_after is not None:
        chain.append(r)
    world0 = W.world_from_dict(reg.world0) if reg is not None and reg.world0 is not None else (
        W.world_from_dict(chain[0].start_world) if chain and chain[0].start_world is not None else None)
    if reg is not None and reg.setup:
        setup = reg.setup
    else:
        setup = setup_of(world0) if world0 is not None else {}
    records = []
    for r in chain:
        rec = dict(r.record)
        own = store.game(r.game_id)
        rec["findings"] = (own.finding_count if own is not None else 0) + r.finding_count
        rec["campaign_findings"] = [f"{f.rule}: {f.message}" for f in findings.get(r.game_id, [])]
        records.append(rec)
    first_game = store.game(chain[0].game_id) if chain else None
    c = Campaign(name=name, data_digest=(first_game.data_digest if first_game is not None and
                                         first_game.data_digest else _data_digest(data)),
                 setup=setup, world0=world0 or W.pristine_world(data), games=records,
                 world=W.world_from_dict(chain[-1].end_world) if chain else world0)
    in_history = {r.game_id for r in chain}
    games = [{"game": r.game_no, "game_id": r.game_id, "status": r.status,
              "waiting_for": r.waiting_for, "in_history": r.game_id in in_history,
              "world_before": r.world_before, "world_after": r.world_after,
              "findings": [f.as_dict() for f in findings.get(r.game_id, [])]} for r in rows]
    return StoredCampaign(c, games, reg is not None and reg.world0 is not None)


def stored_history(store: Any, name: str, data: GameData | None = None) -> dict:
    """What `ledger campaign show NAME --db` tells: `history` of the games in a row, and every
    stored game of the campaign with its link."""
    sc = stored_campaign(store, name, data)
    return {**history(sc.campaign, data), "store": store.name, "stored_games": sc.games}


def stored_history_lines(store: Any, name: str, data: GameData | None = None) -> list[str]:
    sc = stored_campaign(store, name, data)
    out = history_lines(sc.campaign, data)
    out[0] += f", from the store {store.name}"
    others = [g for g in sc.games if not g["in_history"]]
    if others:
        out.append("Also stored, not in the history:")
        for g in others:
            why = {"duplicate": "a duplicate", "waiting": f"waiting for game {g['waiting_for']}"}.get(
                g["status"], "after a gap or an unfinished game")
            out.append(f"    game {g['game']}: {g['game_id']} ({why})")
            out.extend(f"        ! {f['rule']}: {f['message']}" for f in g["findings"]
                       if g["status"] != "waiting")
    return out


def _stored_log(store: Any, game_id: str, name: str) -> Any:
    """A stored game read back from its lines as a file would be (the store is passed in: this
    module never imports ledger.store, which imports it to link campaigns)."""
    return read_log_text("".join(line + "\n" for line in store.events(game_id)), name)


def audit_stored_campaign(store: Any, name: str, extra: list[Path] = (),
                          data: GameData | None = None) -> list[GameAudit]:
    """Judge every stored game of campaign `name` again from its stored events, and `extra` logs
    as candidates (checked as the games they claim to be, as if stored last), and link them all
    afresh; nothing is written. Each game's own findings, then its campaign findings."""
    data = data or default_data()
    reg = _registered(store, name)
    rows = store.campaign_games(name)
    if reg is None and not rows:
        raise CampaignError(f"no campaign {name!r} in {store.name}")
    out: list[GameAudit] = []
    linked: list[tuple[GameAudit, CampaignGame]] = []
    sources: list[tuple[int, str, Any, tuple]] = []
    for r in rows:
        g = store.game(r.game_id)
        sources.append((r.game_no, f"{store.name}:{r.game_id}",
                        lambda gid=r.game_id: _stored_log(store, gid, f"{store.name}:{gid}"),
                        (0, g.ingested_at.isoformat() if g is not None else "", r.game_id)))
    for i, p in enumerate(extra):
        sources.append((0, str(p), lambda p=p: read_log(p), (1, "", f"{i:06d}")))
    for number, label, load, stored in sources:
        try:
            read = load()
        except LogFileError as exc:
            out.append(GameAudit(number, label, [_finding(label, "RL-CAMPAIGN-ORDER", str(exc), None, None)], None))
            continue
        j = judge(read, data=data if read.events and _is_legacy(read) else None, keep_steps=False)
        got = campaign_game(read, j, data)
        audit = GameAudit(got[0].game if got else number, j.file, list(j.findings), j)
        out.append(audit)
        if got is None:
            audit.findings.append(_finding(j.file, "RL-CAMPAIGN-ORDER", f"not a game of campaign {name!r}: "
                                           + (f"it cannot be judged: {j.fatal}" if j.fatal else
                                              "its GameStarted names no Risk Legacy campaign")))
        elif got[0].campaign != name:
            audit.findings.append(_finding(j.file, "RL-CAMPAIGN-ORDER", f"the game names campaign "
                                           f"{got[0].campaign!r}, not {name!r}"))
        else:
            linked.append((audit, replace(got[0], stored=stored)))
    links = link_campaign(name, [g for _, g in linked], reg.world0 if reg is not None else None, data)
    for (audit, _), link in zip(linked, links):
        audit.findings.extend(link.findings)
    return sorted(out, key=lambda a: a.game or 10 ** 9)  # stable: stored order within a number


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
