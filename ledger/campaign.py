"""Campaigns, the shell: the campaign file, judging a game into a campaign, and campaigns as the
store holds them. The game's part (worlds, how a game fits, linking, the history) is reached only
through `get_ruleset(name).campaign` (engine.core.campaign.CampaignHooks); a campaign file names
its ruleset.

    load_campaign(path) / save_campaign(campaign, path)            the campaign file (JSON)
    add_game(campaign, log_path, base) -> AddResult                  judge a game and append it
    audit_campaign(campaign, base, extra) -> [GameAudit]             re-judge every game in order
    campaign_game(read, judgement) -> (CampaignGame, record) | None  what the store links
    link_campaign(name, games, world0) -> [Link]                     game N against game N-1
    stored_history(store, name) / audit_stored_campaign(store, name, extra)
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.core.data import DataShapeError, parse_json
from engine.core.errors import LedgerError
from engine.core.ruleset import get_ruleset, rulesets
from engine.core.text import plural
from replay.logfile import LogFileError, path_problem, read_log, read_log_text
from replay.judge import Finding, Judgement, judge

FORMAT = "ledger-campaign"
VERSION = 1
SUFFIX = ".campaign.json"
Campaign = Any


def hooks_of(ruleset: str | None) -> Any:
    """The campaign hooks of `ruleset` (None: the one ruleset that has campaigns); CampaignError
    when it has none."""
    if ruleset is None:
        found = [rs for rs in rulesets() if rs.campaign is not None]
        if len(found) != 1:
            raise CampaignError("name the ruleset of the campaign")
        return found[0].campaign
    try:
        hooks = get_ruleset(ruleset).campaign
    except KeyError:
        hooks = None
    if hooks is None:
        raise CampaignError(f"the ruleset {ruleset!r} plays no campaigns")
    return hooks


def _h(c: Any) -> Any:
    return hooks_of(getattr(c, "ruleset", None))


def _finding(c_or_hooks: Any, *args: Any) -> Finding:
    return (c_or_hooks if hasattr(c_or_hooks, "finding") else _h(c_or_hooks)).finding(*args)


def new_campaign(name: str, powers: dict, stickers: dict, data: Any = None, ruleset: str | None = None):
    """A campaign at the world customized before its first game: (problems, campaign)."""
    return hooks_of(ruleset).new(name, powers, stickers, data)


def history(c: Any, data: Any = None) -> dict:
    """Everything `ledger campaign show` tells of a campaign."""
    return _h(c).history(c, data)


def history_lines(c: Any, data: Any = None) -> list[str]:
    """`history` as lines of text."""
    return _h(c).history_lines(c, data)


def next_game_start(c: Any, players: list[str], *, dice: dict | None = None, data: Any = None) -> dict:
    """The start payload of the campaign's next game."""
    return _h(c).next_start(c, players, dice=dice, data=data)


def link_campaign(name: str, games: list, world0: dict | None = None, data: Any = None,
                  ruleset: str | None = None) -> list:
    """Link every stored game of campaign `name` to the game before it (the ruleset's `link`)."""
    return hooks_of(ruleset).link(name, games, world0, data)


def campaign_game(read: Any, j: Judgement, data: Any = None) -> tuple[Any, dict] | None:
    """What the store links of a judged game that names a campaign, or None."""
    rs = get_ruleset(j.ruleset) if j.ruleset else None
    if rs is None or rs.campaign is None or not read.events:
        return None
    return rs.campaign.game_of(read.events[0].payload, j, data)


class CampaignError(LedgerError):
    """A campaign file that cannot be read or used (missing, not JSON, wrong format)."""


def _log_finding(c: Any, file: str, rule: str, message: str) -> Finding:
    """A finding about a campaign's log as a whole (unreadable, changed since it was added, or the
    campaign file's world not the one its games leave): kind "log", no line."""
    return Finding(file, None, None, rule, message, get_ruleset(c.ruleset).rules[rule].section, "log")


def campaign_path(arg: str | Path) -> Path:
    """A campaign file named on the command line: a path, or a name (NAME.campaign.json)."""
    p = Path(arg)
    if p.suffix == ".json" or p.is_file():
        return p
    return Path(f"{arg}{SUFFIX}")


def load_campaign(path: str | Path) -> Campaign:
    path = Path(path)
    problem = path_problem(path, "a campaign file")
    if problem is not None:
        if not path.exists() and not path.is_symlink():
            raise CampaignError(f"{path}: no such campaign file")
        raise CampaignError(problem)
    try:
        raw = parse_json(path.read_text("utf-8"), str(path))
    except FileNotFoundError as exc:
        raise CampaignError(f"{path}: no such campaign file") from exc
    except IsADirectoryError as exc:
        raise CampaignError(f"{path}: is a directory, not a campaign file") from exc
    except DataShapeError as exc:
        why = str(exc).removeprefix(f"{path}: ")
        raise CampaignError(f"{path}: not a campaign file ({why})") from exc
    except UnicodeDecodeError as exc:
        raise CampaignError(f"{path}: not a campaign file (not UTF-8 text)") from exc
    except OSError as exc:
        raise CampaignError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise CampaignError(f"{path}: not a campaign file (no \"format\": \"{FORMAT}\")")
    if raw.get("version") != VERSION:
        raise CampaignError(f"{path}: campaign format version {raw.get('version')!r}; this ledger reads {VERSION}")
    try:
        return hooks_of(raw.get("ruleset")).from_dict(raw)
    except ValueError as exc:
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


def add_game(c: Campaign, log_path: str | Path, base: str | Path = ".", *, force: bool = False,
             data: Any = None) -> AddResult:
    """Judge `log_path` as the campaign's next game and append it when it fits.

    Refused (entry None) when the game does not fit the campaign (wrong world, number or name; not
    over) or, unless `force`, when it has any finding. LogFileError when the file cannot be read.
    """
    data = data or get_ruleset(c.ruleset).default_data()
    read = read_log(log_path)
    j = judge(read, data=data if read.events and _plays(read, c.ruleset) else None)
    start = read.events[0].payload if read.events and isinstance(read.events[0].payload, dict) else {}
    own = list(j.findings)
    camp = _h(c).fits(c, j, start, c.next_game, c.world, data) if j.fatal is None else [
        _finding(c, j.file, _h(c).order_rule, f"the game cannot be judged: {j.fatal}")]
    if camp or (own and not force):
        return AddResult(j, own + camp, None)
    after = _h(c).world_of(j.final_state)
    entry = _h(c).game_record(j, _rel(Path(log_path), Path(base)), c.next_game, c.world, after, data)
    c.games.append(entry)
    c.world = after
    return AddResult(j, own, entry)


def _plays(read: Any, ruleset: str) -> bool:
    """Does the read log's first event name `ruleset`?"""
    p = read.events[0].payload
    return isinstance(p, dict) and p.get("ruleset") == ruleset


@dataclass
class GameAudit:
    game: int
    log: str
    findings: list[Finding]
    judgement: Judgement | None


def audit_campaign(c: Campaign, base: str | Path = ".", extra: list[Path] = (),
                   data: Any = None) -> list[GameAudit]:
    """Re-judge every game of the campaign in order (and then `extra` logs as the games that would
    follow): each game's own findings, its chain head against the recorded one, and whether it
    starts from the world the games before it left (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER)."""
    data = data or get_ruleset(c.ruleset).default_data()
    h = _h(c)
    base = Path(base)
    world = c.world0
    out: list[GameAudit] = []
    logs = [(g["game"], base / g["log"], g) for g in c.games]
    logs += [(len(c.games) + i + 1, Path(p), None) for i, p in enumerate(extra)]
    for game_no, path, rec in logs:
        try:
            read = read_log(path)
        except LogFileError as exc:
            out.append(GameAudit(game_no, str(path), [_log_finding(c, str(path), h.order_rule, str(exc))], None))
            continue
        j = judge(read, data=data if read.events and _plays(read, c.ruleset) else None)
        start = read.events[0].payload if read.events and isinstance(read.events[0].payload, dict) else {}
        findings = list(j.findings)
        fits: list[Finding] = []
        if j.fatal is None:
            fits = h.fits(c, j, start, game_no, world, data)
        else:
            fits = [h.finding(j.file, h.order_rule, f"the game cannot be judged: {j.fatal}")]
        findings += fits
        if rec is not None and rec.get("head") != j.head:
            findings.append(_log_finding(c, str(path), h.order_rule,
                                         f"the log's chain head is {str(j.head)[:16]}..., not the "
                                         f"{str(rec.get('head'))[:16]}... recorded when game {game_no} "
                                         "was added: the log was changed since"))
        out.append(GameAudit(game_no, str(path), findings, j))
        # only a game that is this campaign's game N, from the world game N-1 left, advances it
        if not fits and j.ruleset == c.ruleset and j.final_state is not None and j.result is not None:
            world = h.world_of(j.final_state)
    if not extra and out and all(a.judgement is not None for a in out):
        if h.world_digest(world) != h.world_digest(c.world):
            out[-1].findings.append(_log_finding(c, out[-1].log, h.world_rule,
                                                 "the campaign file's world is not the world its games leave"))
    return out


def world_before_game(c: Campaign, game_no: int, base: str | Path = ".",
                      data: Any = None) -> Any:
    """The world the campaign stood at before its game `game_no` (None past the next game): the
    first world, the current one, or the world left by replaying the recorded games before it."""
    if game_no == 1:
        return c.world0
    if game_no == c.next_game:
        return c.world
    if not 1 < game_no < c.next_game:
        return None
    data = data or get_ruleset(c.ruleset).default_data()
    world = c.world0
    for g in c.games[:game_no - 1]:
        j = judge(read_log(Path(base) / g["log"]), data=data, keep_steps=False)
        if j.final_state is None:
            return None
        world = _h(c).world_of(j.final_state)
    return world


def game_findings_in(c: Campaign, j: Judgement, start: dict, base: str | Path = ".",
                     data: Any = None) -> list[Finding]:
    """A judged Risk Legacy game checked against a campaign: does it start from the world the
    campaign stood at before the game number it claims (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER)?"""
    data = data or get_ruleset(c.ruleset).default_data()
    game_no = (start.get("campaign") or {}).get("game")
    if not isinstance(game_no, int):
        return [_finding(c, j.file, _h(c).order_rule, "the game names no game number of a campaign")]
    before = world_before_game(c, game_no, base, data)
    if before is None:
        return [_finding(c, j.file, _h(c).order_rule, f"the game calls itself game {game_no}; campaign "
                         f"{c.name!r} has {plural(len(c.games), 'game')}, so its next is game {c.next_game}")]
    return _h(c).fits(c, j, start, game_no, before, data)


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


def stored_campaign(store: Any, name: str, data: Any = None) -> StoredCampaign:
    """Campaign `name` from the store; CampaignError when the store knows no such campaign."""
    reg = _registered(store, name)
    rows = store.campaign_games(name)
    if reg is None and not rows:
        known = ", ".join(repr(c.name) for c in store.campaigns()) or "none"
        raise CampaignError(f"no campaign {name!r} in {store.name} (campaigns there: {known})")
    findings = {r.game_id: stored_findings(store, r.game_id) for r in rows if r.finding_count}
    counted = {r.game_no: r for r in rows if r.status == "fits"}  # a wrong-world game never advances it
    chain = []
    while (r := counted.get(len(chain) + 1)) is not None and r.world_after is not None:
        chain.append(r)
    world0 = reg.world0 if reg is not None and reg.world0 is not None else (
        chain[0].start_world if chain else None)
    setup = reg.setup if reg is not None and reg.setup else None
    records = []
    for r in chain:
        rec = dict(r.record)
        own = store.game(r.game_id)
        rec["findings"] = (own.finding_count if own is not None else 0) + r.finding_count
        rec["campaign_findings"] = [f"{f.rule}: {f.message}" for f in findings.get(r.game_id, [])]
        records.append(rec)
    first_game = store.game(chain[0].game_id) if chain else None
    ruleset = reg.ruleset if reg is not None else (first_game or store.game(rows[0].game_id)).ruleset
    c = hooks_of(ruleset).from_store(
        name, first_game.data_digest if first_game is not None and first_game.data_digest else None,
        setup, world0, records, chain[-1].end_world if chain else None, data)
    in_history = {r.game_id for r in chain}
    games = [{"game": r.game_no, "game_id": r.game_id, "status": r.status,
              "waiting_for": r.waiting_for, "in_history": r.game_id in in_history,
              "world_before": r.world_before, "world_after": r.world_after,
              "findings": [f.as_dict() for f in findings.get(r.game_id, [])]} for r in rows]
    return StoredCampaign(c, games, reg is not None and reg.world0 is not None)


def stored_history(store: Any, name: str, data: Any = None) -> dict:
    """What `ledger campaign show NAME --db` tells: `history` of the games in a row, and every
    stored game of the campaign with its link."""
    sc = stored_campaign(store, name, data)
    return {**history(sc.campaign, data), "store": store.name, "stored_games": sc.games}


def stored_history_lines(store: Any, name: str, data: Any = None) -> list[str]:
    sc = stored_campaign(store, name, data)
    out = history_lines(sc.campaign, data)
    out[0] += f", from the store {store.name}"
    others = [g for g in sc.games if not g["in_history"]]
    if others:
        out.append("Also stored, not in the history:")
        for g in others:
            why = {"duplicate": "a duplicate", "waiting": f"waiting for game {g['waiting_for']}",
                   "wrong-world": "it does not start from the world the game before it left"}.get(
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
                          data: Any = None) -> list[GameAudit]:
    """Judge every stored game of campaign `name` again from its stored events, and `extra` logs
    as candidates (checked as the games they claim to be, as if stored last), and link them all
    afresh; nothing is written. Each game's own findings, then its campaign findings."""
    reg = _registered(store, name)
    rows = store.campaign_games(name)
    if reg is None and not rows:
        raise CampaignError(f"no campaign {name!r} in {store.name}")
    ruleset = reg.ruleset if reg is not None else store.game(rows[0].game_id).ruleset
    h = hooks_of(ruleset)
    data = data or get_ruleset(ruleset).default_data()
    out: list[GameAudit] = []
    linked: list[tuple[GameAudit, Any]] = []
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
            out.append(GameAudit(number, label, [_finding(h, label, h.order_rule, str(exc), None, None)], None))
            continue
        j = judge(read, data=data if read.events and _plays(read, ruleset) else None, keep_steps=False)
        got = campaign_game(read, j, data)
        audit = GameAudit(got[0].game if got else number, j.file, list(j.findings), j)
        out.append(audit)
        if got is None:
            audit.findings.append(_finding(h, j.file, h.order_rule, f"not a game of campaign {name!r}: "
                                           + (f"it cannot be judged: {j.fatal}" if j.fatal else
                                              "its GameStarted names no campaign")))
        elif got[0].campaign != name:
            audit.findings.append(_finding(h, j.file, h.order_rule, f"the game names campaign "
                                           f"{got[0].campaign!r}, not {name!r}"))
        else:
            linked.append((audit, replace(got[0], stored=stored)))
    links = h.link(name, [g for _, g in linked], reg.world0 if reg is not None else None, data)
    for (audit, _), link in zip(linked, links):
        audit.findings.extend(link.findings)
    return sorted(out, key=lambda a: a.game or 10 ** 9)  # stable: stored order within a number


