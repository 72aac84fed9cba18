"""Risk Legacy campaigns: an ordered list of game logs played on one evolving world.

    new_campaign(name, powers, stickers) -> (problems, Campaign)   the world before game 1
    load_campaign(path) / save_campaign(campaign, path)            the campaign file (JSON)
    add_game(campaign, log_path, base) -> AddResult                  judge a game and append it
    audit_campaign(campaign, base, extra) -> [GameAudit]             re-judge every game in order

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.risk_legacy import RULESET, world_of
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTION_NAMES, GameData, default_data
from engine.risk_legacy.chronicle import describe_world, world_changes, world_diff
from engine.risk_legacy.rules import RULES
from ledger.logfile import LogFileError, read_log
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
    """A game that does not fit the campaign: a finding about the record (kind "log")."""
    return Finding(file, line, seq, rule, message, RULES[rule].section, "log", None, "GameStarted")


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
    try:
        started = W.world_from_dict(start.get("world")) if start.get("world") is not None else None
    except W.WorldError as exc:
        started = None
        out.append(_finding(j.file, "RL-CAMPAIGN-WORLD", f"the game's world cannot be read: {exc}"))
    if started is None:
        out.append(_finding(j.file, "RL-CAMPAIGN-WORLD", "the game does not carry the world it starts from"))
    elif W.world_digest(started) != W.world_digest(world_before):
        diff = world_diff(world_before, started, data)
        detail = "; ".join(diff[:6]) + (f"; and {len(diff) - 6} more" if len(diff) > 6 else "")
        out.append(_finding(j.file, "RL-CAMPAIGN-WORLD", f"game {game_no} starts from world "
                            f"{W.world_digest(started)[:12]}..., not from the world the campaign left "
                            f"({W.world_digest(world_before)[:12]}...)" + (f": {detail}" if detail else "")))
    if j.result is None:
        out.append(Finding(j.file, None, None, "RL-CAMPAIGN-ORDER", "the game is not over: only finished games "
                           "are added to a campaign", RULES["RL-CAMPAIGN-ORDER"].section, "log", None, None))
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
    out.append("Before the first game: starting powers " + ", ".join(
        f"{FACTION_NAMES.get(f, f)} {p}" for f, p in sorted(c.setup.get("powers", {}).items()))
        + "; coin stickers on " + ", ".join(f"{k} +{v}" for k, v in sorted(c.setup.get("stickers", {}).items())))
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
