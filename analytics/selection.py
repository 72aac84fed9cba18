"""Which stored games the statistics count: each real game once, and only games judged clean.

    sel = select_games(store, scope)                # a Selection (analytics.load does this)
    sel.counted_ids                                 # the games every table is cut to
    sel.note(ruleset_name)                          # "5 of 10 stored ... games counted; left out: ..."

A stored game is **left out** of every statistic, for one reason (the first that applies):

- `findings`: the judge found something in it (a rule broken, a wrong claim, a log problem), or
  could not judge it at all (a fatal problem): its numbers may be wrong, so they are not mixed in;
- `campaign`: it has campaign findings (the store's `campaign_findings`): a campaign game played
  from the wrong world, or another game of a number its campaign counts already;
- `copy`: it is a copy of a game that is counted. Two logs are the same game when
  * their events, in order, have the same type, actor and payload (the envelope is not compared:
    game id, time stamp, hash chain), one log's events being all of the other's or the first of
    them (a copy stored under another id; a log cut short); or
  * their dice are the same: at least MIN_COPY_DICE dice, rolled by the same players for the same
    reasons in the same order and showing the same faces (the same game recorded twice, once in
    digital play and once as a table writes it down: the events differ, the dice cannot by
    chance).
  A game that starts like another and then goes its own way (a sample log replays another up to
  its round 6, then plays on differently) is a game of its own.

Of a game and its copies, the one counted is the finished one, then the longest, then the first
by id; a game is compared with the games counted before it in that order, so that a short log can
never tie two different games together. With `include_broken` every game is counted and the
selection still says which ones would have been left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import polars as pl

MIN_COPY_DICE = 30          # dice two logs must share to be the same game by their dice alone
OPENING = 4                 # events that group the logs compared with each other
REASONS = ("findings", "campaign", "copy")
REASON_WORDS = {"findings": "its findings", "campaign": "its campaign findings",
                "copy": "a copy"}      # "left out for ..."
COUNT_WORDS = {"findings": ("with findings", "with findings"),
               "campaign": ("with campaign findings", "with campaign findings"),
               "copy": ("copy", "copies")}
SEP_FIELD, SEP_EVENT = "\x1f", "\x1e"


@dataclass(frozen=True)
class LeftOut:
    """A game the statistics leave out (or, with include_broken, count although they would not)."""

    game_id: str
    ruleset: str | None
    reason: str                    # findings | campaign | copy
    detail: str                    # "RE-CARDS-HAND ×2", "copy of game42 (the same events)"
    copy_of: str | None = None

    def as_dict(self) -> dict:
        return {"game_id": self.game_id, "ruleset": self.ruleset, "reason": self.reason,
                "detail": self.detail, "copy_of": self.copy_of}


@dataclass(frozen=True)
class Selection:
    """The stored games in scope, which are counted, and why the others are not."""

    rulesets: dict[str, str | None]                # every game in scope -> its ruleset
    left_out: tuple[LeftOut, ...] = ()
    include_broken: bool = False
    db: str | None = None                                  # the store, or the lake, read
    titles: dict[str, str] = field(default_factory=dict)   # ruleset name -> its title
    option: str = "--db"                                   # how a command names `db`

    @property
    def counted_ids(self) -> list[str]:
        """The games the tables hold: all in scope with include_broken, else the clean ones."""
        if self.include_broken:
            return sorted(self.rulesets)
        out = {g.game_id for g in self.left_out}
        return sorted(g for g in self.rulesets if g not in out)

    def _of(self, ruleset: str | None) -> tuple[int, list[LeftOut]]:
        stored = sum(1 for r in self.rulesets.values() if ruleset is None or r == ruleset)
        left = [g for g in self.left_out if ruleset is None or g.ruleset == ruleset]
        return stored, left

    def counts(self, ruleset: str | None = None) -> dict:
        """stored, counted, left_out, and the left-out games by reason (of one ruleset, or all)."""
        stored, left = self._of(ruleset)
        by = {r: sum(1 for g in left if g.reason == r) for r in REASONS}
        return {"stored": stored, "counted": stored if self.include_broken else stored - len(left),
                "left_out": 0 if self.include_broken else len(left), "by_reason": by,
                "include_broken": self.include_broken}

    def note(self, ruleset: str | None = None, listing: bool = True) -> str:
        """What the statistics counted and left out, in one sentence ("" when nothing is stored):
        "5 of 10 stored Risk Legacy games counted; left out: 4 with findings, 1 with campaign
        findings (`ledger stats --db X --left-out` lists them)"; `listing` False leaves out the
        command in brackets."""
        stored, left = self._of(ruleset)
        if not stored:
            return ""
        what = f"{self.titles.get(ruleset, ruleset)} " if ruleset else ""
        games = "game" if stored == 1 else "games"
        reasons = _reasons(left)
        listing = f" (`{self.listing_command()}` lists them)" if left and listing else ""
        if self.include_broken:
            return (f"All {stored:,} stored {what}{games} counted (--include-broken)"
                    + (f", {reasons} among them{listing}" if left else
                       ": none has findings or is a copy"))
        if not left:
            return f"{stored:,} stored {what}{games} counted: none has findings or is a copy"
        return (f"{stored - len(left):,} of {stored:,} stored {what}{games} counted; left out: "
                f"{reasons}{listing}")

    def listing_command(self) -> str:
        db = f" {self.option} {self.db}" if self.db else ""
        return f"ledger stats{db} --left-out"

    def games_left_out(self, ruleset: str | None = None) -> list[LeftOut]:
        return self._of(ruleset)[1]

    def as_dict(self) -> dict:
        """For `ledger stats --json`: the counts, and every game left out with why."""
        return {**self.counts(), "left_out_games": [g.as_dict() for g in self.left_out]}


def _reasons(left: Iterable[LeftOut]) -> str:
    left = list(left)
    parts = []
    for r in REASONS:
        n = sum(1 for g in left if g.reason == r)
        if n:
            one, many = COUNT_WORDS[r]
            parts.append(f"{n:,} {one if n == 1 else many}")
    return ", ".join(parts)


# --- reading the store --------------------------------------------------------------------------


def select_games(store, scope: pl.DataFrame, include_broken: bool = False,
                 titles: dict[str, str] | None = None) -> Selection:
    """The selection among the stored games of `scope` (a frame of game_id, ruleset, finished;
    analytics.load reads it): each left out for its findings, its campaign findings, or as a copy
    of a counted game."""
    rulesets = dict(zip(scope["game_id"].to_list(), scope["ruleset"].to_list()))
    ids = list(rulesets)
    left: list[LeftOut] = []
    if ids:
        own = _own_findings(store, ids)
        campaign = _campaign_findings(store, ids)
        for gid in ids:
            if gid in own:
                left.append(LeftOut(gid, rulesets[gid], "findings", own[gid]))
            elif gid in campaign:
                left.append(LeftOut(gid, rulesets[gid], "campaign", campaign[gid]))
        broken = {g.game_id for g in left}
        clean = scope.filter(~pl.col("game_id").is_in(list(broken)))
        left += _copies(store, clean)
    left.sort(key=lambda g: (REASONS.index(g.reason), g.game_id))
    return Selection(rulesets, tuple(left), include_broken, getattr(store, "path", None) and
                     str(store.path), dict(titles or {}), getattr(store, "option", "--db"))


def _ids_param(ids: list[str]) -> dict:
    return {"ids": ids}


def _rules_text(rows: list[tuple[str, int]], fatal: str | None = None) -> str:
    parts = [f"{rule} ×{n}" if n > 1 else rule for rule, n in rows]
    if fatal:
        parts.insert(0, "could not be judged")
    return ", ".join(parts)


def _own_findings(store, ids: list[str]) -> dict[str, str]:
    """game -> its findings ("RE-CARDS-HAND ×2, RE-CLAIM"), for the games with any or a fatal
    problem."""
    games = store.query("SELECT game_id, finding_count, fatal FROM games WHERE game_id IN "
                        "(SELECT unnest($ids::VARCHAR[])) AND (finding_count > 0 OR fatal IS NOT NULL)",
                        _ids_param(ids))
    if not games.height:
        return {}
    found = games["game_id"].to_list()
    rules = store.query("SELECT game_id, rule, count(*) AS n FROM findings WHERE game_id IN "
                        "(SELECT unnest($ids::VARCHAR[])) GROUP BY game_id, rule ORDER BY game_id, "
                        "min(idx)", _ids_param(found))
    by: dict[str, list[tuple[str, int]]] = {}
    for gid, rule, n in rules.iter_rows():
        by.setdefault(gid, []).append((rule, n))
    return {gid: _rules_text(by.get(gid, []), fatal) or f"{n} findings"
            for gid, n, fatal in games.iter_rows()}


def _campaign_findings(store, ids: list[str]) -> dict[str, str]:
    if not store._has_campaign_tables():
        return {}
    rules = store.query("SELECT game_id, rule, count(*) AS n FROM campaign_findings WHERE "
                        "game_id IN (SELECT unnest($ids::VARCHAR[])) GROUP BY game_id, rule "
                        "ORDER BY game_id, min(idx)", _ids_param(ids))
    by: dict[str, list[tuple[str, int]]] = {}
    for gid, rule, n in rules.iter_rows():
        by.setdefault(gid, []).append((rule, n))
    return {gid: _rules_text(r) for gid, r in by.items()}


_CONTENT = (f"md5(type || '{SEP_FIELD}' || coalesce(actor, '') || '{SEP_FIELD}' || "
            f"coalesce(payload::VARCHAR, ''))")


def _copies(store, clean: pl.DataFrame) -> list[LeftOut]:
    """The clean games that are copies of another clean game counted before them."""
    if clean.height < 2:
        return []
    ids = clean["game_id"].to_list()
    ruleset = dict(zip(ids, clean["ruleset"].to_list()))
    openings = _openings(store, ids)
    dice_key = _dice_keys(store, ids)
    # a log is compared, event by event, only with the logs that share its first events (all
    # of them when it is shorter than OPENING): read the events of those logs alone
    index = _Openings(openings, ruleset)
    for gid in openings:
        index.add(gid)
    compared = set()
    for gid in openings:
        others = index.candidates(gid) - {gid}
        if others:
            compared.update({gid, *others})
    events = _event_hashes(store, sorted(compared)) if compared else {}
    # in the order of the game counted first: finished, longest, first by id
    order = sorted(clean.to_dicts(), key=lambda r: (not r["finished"], -(r["events"] or 0),
                                                   r["game_id"]))
    kept = _Openings(openings, ruleset)
    kept_by_dice: dict[tuple, str] = {}
    out: list[LeftOut] = []
    for r in order:
        gid = r["game_id"]
        copy_of, how = None, ""
        mine = events.get(gid)
        if mine is not None:
            # of the counted logs it starts (or that start it), the nearest in length
            matches = [o for o in kept.candidates(gid)
                       if o in events and _one_starts_the_other(mine, events[o])]
            if matches:
                copy_of = min(matches, key=lambda o: (abs(len(events[o]) - len(mine)), o))
                theirs = events[copy_of]
                how = "the same events" if len(mine) == len(theirs) else \
                    f"its {len(mine):,} events are the first of {copy_of}'s {len(theirs):,}" \
                    if len(mine) < len(theirs) else \
                    f"{copy_of}'s {len(theirs):,} events are the first of its {len(mine):,}"
        if copy_of is None and gid in dice_key:
            copy_of = kept_by_dice.get((ruleset[gid], dice_key[gid]))
            how = "the same dice, rolled by the same players in the same order"
        if copy_of is not None:
            out.append(LeftOut(gid, ruleset[gid], "copy", f"copy of {copy_of} ({how})", copy_of))
            continue
        if gid in openings:
            kept.add(gid)
        if gid in dice_key:
            kept_by_dice.setdefault((ruleset[gid], dice_key[gid]), gid)
    return out


class _Openings:
    """Logs by their first events: `candidates(g)` are the logs added that could start `g` or
    be started by it (the same ruleset, the same first min(OPENING, length) events)."""

    def __init__(self, openings: dict[str, dict], ruleset: dict[str, str | None]):
        self.openings, self.ruleset = openings, ruleset
        self.starting: dict[tuple, set[str]] = {}   # (ruleset, k, first k) -> logs of >= k events
        self.whole: dict[tuple, set[str]] = {}      # (ruleset, k, all k) -> logs of k < OPENING

    def _key(self, gid: str, k: int) -> tuple:
        return (self.ruleset[gid], k, self.openings[gid][f"o{k}"])

    def _length(self, gid: str) -> int:
        return min(self.openings[gid]["n"], OPENING)

    def add(self, gid: str) -> None:
        m = self._length(gid)
        for k in range(1, m + 1):
            self.starting.setdefault(self._key(gid, k), set()).add(gid)
        if m < OPENING:
            self.whole.setdefault(self._key(gid, m), set()).add(gid)

    def candidates(self, gid: str) -> set[str]:
        m = self._length(gid)
        found = set(self.starting.get(self._key(gid, m), ()))
        for k in range(1, m):
            found |= self.whole.get(self._key(gid, k), set())
        return found


def _openings(store, ids: list[str]) -> dict[str, dict]:
    """game -> n (its events, up to OPENING) and o1..oOPENING: a hash of its first k events."""
    rows = store.query(
        "SELECT game_id, count(*) AS n, " + ", ".join(
            f"md5(string_agg({_CONTENT}, '{SEP_EVENT}' ORDER BY seq) FILTER (WHERE seq < {k})) "
            f"AS o{k}" for k in range(1, OPENING + 1))
        + f" FROM events WHERE game_id IN (SELECT unnest($ids::VARCHAR[])) AND seq < {OPENING} "
          "GROUP BY game_id", _ids_param(ids))
    return {r["game_id"]: r for r in rows.to_dicts()}


def _dice_keys(store, ids: list[str]) -> dict[str, str]:
    """game -> a hash of its dice (who rolled, what for, the faces, in order), for the games
    with at least MIN_COPY_DICE dice."""
    rows = store.query(
        "SELECT game_id, sum(dice) AS dice, md5(string_agg(coalesce(player, '') || ':' || "
        "coalesce(why, '') || ':' || coalesce(faces::VARCHAR, ''), '|' ORDER BY seq, player)) "
        "AS key FROM dice WHERE game_id IN (SELECT unnest($ids::VARCHAR[])) GROUP BY game_id",
        _ids_param(ids))
    return {gid: key for gid, n, key in rows.iter_rows() if (n or 0) >= MIN_COPY_DICE}


def _one_starts_the_other(a: list[str], b: list[str]) -> bool:
    n = min(len(a), len(b))
    return n > 0 and a[:n] == b[:n]


def _event_hashes(store, ids: list[str]) -> dict[str, list[str]]:
    """Each game's events as hashes of their type, actor and payload, in order."""
    rows = store.query(f"SELECT game_id, {_CONTENT} AS h FROM events WHERE game_id IN "
                       f"(SELECT unnest($ids::VARCHAR[])) ORDER BY game_id, seq", _ids_param(ids))
    out: dict[str, list[str]] = {}
    for gid, h in rows.iter_rows():
        out.setdefault(gid, []).append(h)
    return out
