"""The engine contract: a ruleset is a plain record of pure functions (a "decider"), and the only
door through which the rest of the product reaches a game.

`replay/`, `ledger/` and `analytics/` call only this record, never a ruleset's internals:

    state = rs.initial_state(start_payload, data)      # from the game's first event
    problems = rs.check(state, event)                  # every violation, [] when legal
    state = rs.apply(state, event)                     # a new state; the old one is untouched
    problems, nxt = rs.step(state, event)              # both at once; nxt None if the event is skipped
    state = rs.conclude(state)                         # the log ended: settle what needs no decision
    rs.result(state)                                   # None while the game goes on
    rs.digest(state)                                   # stable hash of the state, one per step

Rulesets are found through the Python entry-point group `ledger.rulesets` (name -> "module:RULESET"),
so a game can ship as its own installed distribution; the built-in ones register the same way in
pyproject.toml. `register_ruleset` adds one for the life of the process (tests, embedding apps).
"""

from __future__ import annotations

import difflib
import importlib
import sys
from contextlib import contextmanager
from importlib.metadata import entry_points
from dataclasses import MISSING, dataclass, fields
from types import ModuleType
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping

from engine.core.events import Event
from engine.core.rules import RuleBook, Violation

State = Any


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winner(s) (several only for a documented shared win), and why."""

    winners: tuple[str, ...]
    reason: str
    round: int
    detail: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "round": self.round,
                "detail": dict(self.detail)}


@dataclass(frozen=True)
class DataOption:
    """A data file a ruleset can judge with instead of its shipped one: `--<key> FILE` on the
    command line, `load_data(<key>=path)` in code."""

    key: str
    help: str
    schema: str | None = None
    """The value of the top-level "schema" key that marks a file of this kind (a file that names
    its own schema is recognised by `ledger data check` without --ruleset and --kind)."""


@dataclass(frozen=True)
class Feature:
    """A named thing a game can show (an order, a battle rank, a way to win), for choosing samples
    that between them show every rule: `required` unless bots seldom reach it."""

    name: str
    text: str
    required: bool = True


def declared_winners_of(payload: Any) -> tuple[str, ...]:
    """The winners a result claim names: `{"winners": [..]}` or `{"winner": ".."}` (the log format's
    GameEnded claim; docs/log-format.md)."""
    if not isinstance(payload, dict):
        return ()
    names = payload.get("winners")
    if isinstance(names, list):
        return tuple(str(n) for n in names)
    return (payload["winner"],) if isinstance(payload.get("winner"), str) else ()


def refuse_options(title: str, options: Mapping[str, str], takes: Iterable[str]) -> None:
    """For a `new_game` hook: ValueError naming the first of `options` the game `title` does not
    take (`takes`, the names of its `simulate_options` or its own)."""
    unknown = sorted(set(options) - set(takes))
    if unknown:
        raise ValueError(f"{title} takes no option {unknown[0]!r} (only {', '.join(map(repr, takes))})")


def check_seats(players: tuple[str, ...], fewest: int, most: int, game: str, seats: str = "players") -> None:
    """For a `new_game` hook: ValueError unless `players` are `fewest` to `most` ids, each its
    own; `game` and `seats` name what is played and by whom ("Warrior Knights", "Barons")."""
    if not fewest <= len(players) <= most:
        count = str(fewest) if fewest == most else f"{fewest} to {most}"
        raise ValueError(f"{game} is played by {count} {seats}, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("two players have the same id")


@dataclass(frozen=True)
class Ruleset:
    """One ruleset's decider record. Every function is pure: same inputs, same outputs."""

    name: str
    version: str
    title: str
    payload_models: Mapping[str, type]
    rules: RuleBook
    load_data: Callable[..., Any]
    default_data: Callable[[], Any]
    """The shipped data, loaded once per process (`load_data()` reads the files every time)."""
    data_digest: Callable[[Any], str]
    check_start: Callable[[Any, Any], list[Violation]]
    initial_state: Callable[[Any, Any], State]
    step: Callable[[State, Event], tuple[list[Violation], State | None]]
    digest: Callable[[State], str]
    snapshot: Callable[[State], dict]
    start_event: str = "GameStarted"
    """The event type that opens a game's log; its payload is what `initial_state` starts from."""
    conclude: Callable[[State], State] = lambda s: s
    """The log has ended: the state once what needs no decision is settled (default: the state
    as it is)."""
    result: Callable[[State], GameResult | None] = lambda s: s.result
    """How the game ended, None while it goes on (default: the state's `result`)."""
    notes: Callable[[State], tuple[str, ...]] = lambda s: s.notes
    """What the last event caused, for readers (default: the state's `notes`)."""
    position: Callable[[State], tuple[str, int, int]] = lambda s: s.at
    """(phase, round, turn) in which the last event happened (default: the state's `at`): a claim
    about something past (who won a battle) is placed where that happened, so a replay shows each
    event in its own round. By convention the turn counts in the phase "turn" (what `ledger replay
    --turn N` selects); in other phases it is what the turn was last."""
    reveal_seed: Callable[[State, str], State] | None = None
    legal_moves: Callable[[State], list] | None = None
    describe: Callable[[str, str | None, Any, dict | None], str] | None = None
    """One line of text for an event, for replays: (type, actor, payload as logged, the board view
    after it — `snapshot` — or None when the replay keeps no boards). None: the type, actor and
    payload as they are."""
    board_lines: Callable[..., list[str]] | None = None
    """The compact board (`snapshot`'s view) as lines of text, for replays: (view, indent="    ").
    None: the view's keys and values, a line each."""
    data_options: tuple[DataOption, ...] = ()
    """The data files a user may correct (`load_data(**{key: path})`), offered by the CLI."""
    check_data: Callable[[str, Any], Any] | None = None
    """One data file checked alone, for `ledger data check`: (data option key, path) ->
    engine.core.data.DataCheck (what it holds, its digest, notes), or a DataShapeError (a
    DataErrors with every problem) naming file, key and what is wrong. None: the file is checked
    by loading it (`load_data(**{key: path})`)."""
    data_notes: Callable[[Any], tuple[str, ...]] = lambda data: ()
    """What every report of a game judged with `data` must say of it, besides its digest: an
    invented example board, a card section judged in observed mode. () for the shipped data of
    a published game."""
    result_event: str | None = "GameEnded"
    """The event type whose payload declares the result (a claim the judge checks), if any."""
    declared_winners: Callable[[Any], tuple[str, ...]] = declared_winners_of
    """The winners a `result_event` payload declares."""
    seed_event: str | None = "SeedRevealed"
    """The event type that reveals the dice seed (payload `{"seed": ...}`), when the game has seeded
    chance (engine/core/dice.py); `reveal_seed` checks it against the published commitment."""

    # --- beyond judging: what the rest of the product asks of a game (None: the game has none) ---
    section: Callable[[str, int, int], Hashable] | None = None
    """The part of the game a (phase, round, turn) position belongs to, as a key: a replay puts a
    heading (`phase_heading`) wherever the key changes from one event to the next. None: one
    section per phase of each round."""
    phase_heading: Callable[[str, int, int], str] | None = None
    """The replay's heading of the section a (phase, round, turn) position opens, e.g. "== Round
    6: battles =="; None: a generic heading from the position."""
    turn_key: Callable[[str, str | None, tuple[str, int, int]], Hashable | None] | None = None
    """The player's turn an event opens or belongs to: (type, actor, position) -> a key, or None
    for an event that opens none (it belongs to the turn under way while the section lasts). A
    replay shows the board after each turn, where the key changes. None: no board between turns."""
    start_lines: Callable[[dict], list[str]] | None = None
    """What a replay says of the game under its title, from the board view at the start
    (`snapshot` of the initial state): a variant, special seats. None: nothing."""
    features: Callable[[Iterable[tuple[str, tuple[str, ...]]], GameResult | None], set[str]] | None = None
    """The named features a judged game shows (a rule, an order, a way to win): (the type and
    notes of each event the rules accepted, in log order; the result) -> names from
    `feature_catalogue`. Used to pick sample games that between them show every rule."""
    feature_catalogue: tuple["Feature", ...] = ()
    """Every feature `features` can name, with what it shows and whether the samples must."""
    view: Callable[[State, str | None], dict] | None = None
    """The state as one seat (a player id) or a spectator (None) may see it: face-down cards,
    secret bids, hidden missions and unrevealed scar cards redacted. None: nothing is hidden, the
    view is `snapshot`.

    The contract (tests/test_views.py checks it for every ruleset that has the hook): JSON-able
    and deterministic; `snapshot(state)` (the public board) is part of it, key for key; a value
    the seat may not see is shown as engine.core.views.HIDDEN (or as a count); the seat's own
    secrets are shown to it; once the game is over every seat's view is the same. Optional keys
    the shared code reads: `notes` (the last event's notes as the seat may read them) and
    `acts_for` (the actors whose moves the seat makes besides its own). Shared code calls it
    through engine.core.views.view_of."""
    redact: Callable[[str, str | None, Any, str | None, State, State, State], Any] | None = None
    """(event type, actor, payload as logged, seat, before, after, now) -> the payload as `seat`
    may see it at `now`: a new dict with the values it may not see replaced by HIDDEN (the
    payload itself is never changed). `before`, `after`: the states the event was judged against
    and left (the same state when it was skipped), which give its context; `now`: the state the
    seat looks from (`after` for "when it was appended", a later state once the secret may have
    been revealed). A secret logged only as a
    commitment (sha256 of value and salt) is public as it is: the secret is not in it. None:
    every payload is public. Shared code calls it through engine.core.views.redact_payload."""
    secrets: Callable[[State], tuple] | None = None
    """The secrets a state holds in clear and has not revealed yet, as engine.core.views.Secret
    (owner, kind, value, the events that reveal it): what `view` and `redact` must keep from
    every other seat. Shared code withholds digests and hashes while one is pending, and the leak
    tests search every route for their values. None: the game has no hidden information."""
    simulate: Callable[[int, str, Mapping[str, str]], Any] | None = None
    """Seeded bots play one whole game with the engine's legal moves: (seed, game id, options such
    as {"variant": "teams"}) -> engine.core.projection.SimulatedGame. Same seed, same bytes."""
    simulate_options: tuple[DataOption, ...] = ()
    """The options `simulate` accepts (e.g. "variant"), for the CLI."""
    new_game: Callable[[tuple[str, ...], Mapping[str, str], dict], dict] | None = None
    """The start event's payload of a new game (`ledger serve` creates games with it): (player
    ids in seat order, options such as {"variant": "teams"} — the names of `simulate_options` —,
    the dice spec {"mode": "seeded", "seed_hash": ...} or {"mode": "table"}) -> the payload,
    "ruleset" included. ValueError naming an option, variant or player count it cannot start.
    None: the game cannot be started by the service."""
    actors: Callable[[State], tuple[str, ...]] | None = None
    """The actors (players, or armies a player acts for) whose decision the game may take now, in
    seat order. None: the actors of `legal_moves` (engine.core.views.actors_now)."""
    chance: Callable[[State, Any], tuple[str, str | None, dict] | None] | None = None
    """The chance event the game waits for now, made with seeded dice: (state, a
    engine.core.dice.DiceTape of the game's seed, read from the state's own count of dice drawn)
    -> (event type, actor, payload), or None when the next event is no roll or draw. A server
    that keeps the seed rolls with it (`ledger serve`, play mode)."""
    with_dice: Callable[[State, str, str | None, dict, Any], dict] | None = None
    """A decision's payload with the dice it brings (a castle re-roll), read from the tape as
    `chance` reads them: (state, type, actor, payload, tape) -> payload (unchanged when the
    decision brings none)."""
    table_chance: Callable[[State, Any], dict | None] | None = None
    """A draw or roll the server makes from the seed for an event whose other content only the
    table knows (a card whose text is not in the game's data): (state, tape) -> None, or
    {"type": the event type, "fills": the payload keys the server adds (its dice), "shows": what
    the draw gives, for the table to act on (which card to turn over, who won a roll-off)}. The
    game waits for that event from the table (or the seat the rules name); the server publishes
    the draw with the state (no decision is due before it is used) and adds `fills` to the event
    it is sent."""
    bot: Callable[[str, str], Any] | None = None
    """A seeded player for live play (seat clients of `ledger serve`): (actor, seed) -> an object
    whose `choose(log, moves)` returns one of `moves` — the actor's legal moves as the service
    lists them, dicts of actor, type and payload — or None where the actor may let the moment
    pass (a Scar card not played): `log` is the game's envelopes as the actor's seat reads them,
    other seats' secrets redacted (engine.core.seat_fold folds it). The policy of the game's own
    bots (`simulate`); same seed, log and moves, same choice. None: no bots for live play."""
    projections: tuple[Any, ...] = ()
    """The analytics tables the fold fills (engine.core.projection.Projection), created by the store."""
    fold: Callable[[Any, Any], Any] | None = None
    """The analytics fold: (engine.core.projection.Rows, data) -> a Fold whose `observe` and
    `finish` append rows to the projections' tables."""
    odds: Callable[[str], Any] | None = None
    """Exact odds of a battle described in words (`ledger odds "..."`): -> an object with
    `as_dict()` and `lines()`; ValueError naming what could not be read. Its docstring is the
    battle's help in `ledger odds --help`, and an `examples` attribute (the words after `ledger
    odds`) gives the help's examples."""
    campaign: Any = None
    """Campaign hooks, for a game played as one of a series on an evolving world (Risk Legacy):
    an object the store and the `campaign` commands call; None for a game that stands alone."""
    page: Callable[[Any, Any], Any] | None = None
    """The page of one judged game as plain data (engine.core.page): (PageGame, data) ->
    PageSpec, the board after each turn (on a map when the game has one) and the numbers to chart
    by round; ValueError when there is nothing to draw. None: analytics shows the board after
    each event as `board_lines` prints it."""
    report: Callable[[], Any] | None = None
    """The game's analytics beyond its tables, loaded when first asked for (so judging never
    imports polars): () -> engine.core.report.Report, its named queries (`ledger stats`) and its
    sections of the dashboard as plain data."""
    scoring: Any = None
    """How a finished game scores in an event (engine.core.scoring.Scoring): points for a win, a
    shared win and a loss, tie-breaks, and the per-player values the game yields (`ledger
    tournament`: a results sheet's score columns, the standings). None: a win scores 1, nothing
    else, no score columns."""

    @classmethod
    def from_package(cls, package: str, **given: Any) -> "Ruleset":
        """The record of the ruleset package `package` (its `__name__`, called at the end of its
        `__init__.py`): each field of PACKAGE_NAMES taken from the package's conventional name for
        it, where the package defines one, the rest given as keywords (`name`, `title`, and the
        hooks `hooks(...)` and `deferred(...)` gather). TypeError naming the package and the name:
        a required field neither defined nor given, a keyword that is no field of the record, a
        field both defined and given, a conventional name that is a submodule."""
        module = sys.modules[package]
        known = {f.name for f in fields(cls)}
        for key in given:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise TypeError(f"{package}: the Ruleset record has no field {key!r}{hint}")
        found: dict[str, Any] = {}
        for field_name, name in PACKAGE_NAMES.items():
            if not hasattr(module, name):
                continue
            value = getattr(module, name)
            if isinstance(value, ModuleType):
                raise TypeError(f"{package}.{name} is a module, not the record's {field_name}: "
                                f"bind {name} in {package} to it")
            if field_name in given:
                raise TypeError(f"{package}: {field_name} is both defined ({name}) and given as a keyword")
            found[field_name] = value
        for f in fields(cls):
            if f.default is MISSING and f.default_factory is MISSING \
                    and f.name not in found and f.name not in given:
                raise TypeError(f"{package} {_not_found(f.name)}")
        return cls(**found, **given)

    def check(self, state: State, event: Event) -> list[Violation]:
        """Every violation `event` commits against `state` ([] when it is legal)."""
        return self.step(state, event)[0]

    def apply(self, state: State, event: Event) -> State:
        """The state after `event`, as recorded (an illegal event the rules cannot carry out
        leaves it unchanged); `state` itself is never changed."""
        after = self.step(state, event)[1]
        return state if after is None else after


# --- a record's fields, by the names a ruleset package gives them -----------------------------

PACKAGE_NAMES: Mapping[str, str] = {
    # field of the record    name in the ruleset's package (its __init__.py)
    "version":               "VERSION",           # the engine's version, stored with each judged game
    "payload_models":        "PAYLOADS",          # event type -> pydantic model of its payload
    "rules":                 "RULES",             # the RuleBook
    "load_data":             "load_data",         # (**{data option key: path}) -> the game's data
    "default_data":          "default_data",      # () -> the shipped data, loaded once
    "data_digest":           "data_digest",       # data -> the digest stored with each game
    "data_options":          "DATA_OPTIONS",      # the data files a user may correct
    "check_data":            "check_data",        # one data file checked alone (`ledger data check`)
    "data_notes":            "data_notes",        # what every report says of the data
    "digest":                "digest",            # state -> its stable hash, one per step
    "snapshot":              "board_view",        # state -> the public board, as plain data
    "features":              "features_of",       # the features a judged game shows
    "feature_catalogue":     "FEATURES",          # every feature `features` can name
    "simulate_options":      "SIMULATE_OPTIONS",  # the options of the bots' `simulate`
    "projections":           "PROJECTIONS",       # the analytics tables the fold fills
    "odds":                  "odds_of",           # `ledger odds "..."`
    "campaign":              "CAMPAIGN",          # a game played on an evolving world
    "scoring":               "SCORING",           # how a finished game scores in an event
}
"""Where `Ruleset.from_package` finds each of these fields: a ruleset's package binds the name
in its `__init__.py` (defined there, or imported from the module that has it). The names are not
those of the package's modules (`odds_of`, not `odds`; `board_view`, not `snapshot`), so that a
submodule never stands in for the hook. The other fields come as keywords: `name` and `title`,
the hooks of HOOK_GROUPS (`hooks(...)`), the deferred ones (`deferred(...)`), and any hook the
package keeps elsewhere."""


# --- a record's hooks, gathered from the ruleset's modules ------------------------------------

HOOK_GROUPS: Mapping[str, tuple[str, ...]] = {
    "engine": ("check_start", "initial_state", "step", "conclude", "result", "reveal_seed"),
    "views": ("view", "redact", "secrets"),
    "play": ("legal_moves", "actors", "new_game", "chance", "with_dice", "table_chance", "bot"),
    "narration": ("describe", "board_lines", "section", "phase_heading", "turn_key", "start_lines"),
}
"""The record's hooks by the part of a ruleset that defines them: the decider, what one seat may
see, live play, and the replay's words."""


def hooks(**groups: Any) -> dict[str, Any]:
    """The hooks of each group of HOOK_GROUPS that a ruleset's modules define under the record's
    own names, as keyword arguments of `Ruleset(...)`: `hooks(engine=engine, play=(legal, live))`.
    A group names one module or several; where several define a hook, the last one's is taken
    (a live module that wraps the engine's `step`). A hook no module defines keeps its default."""
    out: dict[str, Any] = {}
    for group, modules in groups.items():
        if group not in HOOK_GROUPS:
            raise TypeError(f"no hook group {group!r} (groups: {', '.join(HOOK_GROUPS)})")
        for module in modules if isinstance(modules, tuple) else (modules,):
            out.update((name, getattr(module, name)) for name in HOOK_GROUPS[group]
                       if hasattr(module, name))
    return out


def _not_found(field_name: str) -> str:
    """What a package lacks that a record needs, for from_package's error."""
    if field_name in PACKAGE_NAMES:
        return f"defines no {PACKAGE_NAMES[field_name]} (the record's {field_name})"
    group = next((g for g, names in HOOK_GROUPS.items() if field_name in names), None)
    return f"gives no {field_name}" + (f" (a hook of hooks({group}=...))" if group else "")


DEFERRED_HOOKS: Mapping[str, str] = {"simulate": "sim", "fold": "fold", "page": "page", "report": "report"}
"""Hooks judging never calls, by the module of a ruleset's package that defines each under its
own name: the simulator, the analytics fold, the page of a game, the report (which needs polars)."""


def deferred(package: str, *names: str) -> dict[str, Callable[..., Any]]:
    """The hooks `names` (keys of DEFERRED_HOOKS) of the ruleset package `package`, each importing
    its module when first called, as keyword arguments of `Ruleset(...)`: judging a game loads
    none of them."""
    return {name: _imported_when_called(f"{package}.{DEFERRED_HOOKS[name]}", name) for name in names}


def _imported_when_called(module: str, name: str) -> Callable[..., Any]:
    def hook(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)
    hook.__doc__ = f"RULESET.{name}: {module}.{name}, imported when first asked for."
    return hook


_BUILT_IN = {
    # The built-in rulesets, as pyproject.toml registers them, for a source tree that was not
    # installed (an installed ledger finds them through the entry points like any other).
    "risk-europe": "engine.risk_europe:RULESET",
    "risk-legacy": "engine.risk_legacy:RULESET",
    "warrior-knights": "engine.warrior_knights:RULESET",
}
ENTRY_POINT_GROUP = "ledger.rulesets"

_registered: dict[str, Ruleset] = {}
_found: dict[str, str] | None = None


def _targets() -> dict[str, str]:
    """Every ruleset the installed distributions register: name -> "module:attribute"."""
    global _found
    if _found is None:
        found = dict(_BUILT_IN)
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            found[ep.name] = ep.value
        _found = found
    return _found


def ruleset_names() -> list[str]:
    """The names a log may declare in its first event."""
    return sorted(set(_targets()) | set(_registered))


def get_ruleset(name: str) -> Ruleset:
    """The ruleset record registered under `name`; KeyError if there is none."""
    if name in _registered:
        return _registered[name]
    target = _targets()[name]
    module, _, attr = target.partition(":")
    rs = getattr(importlib.import_module(module), attr or "RULESET")
    if not isinstance(rs, Ruleset) or rs.name != name:
        raise KeyError(f"{target} is not the Ruleset record of {name!r}")
    _registered[name] = rs
    return rs


def rulesets() -> list[Ruleset]:
    """Every registered ruleset's record, by name."""
    return [get_ruleset(n) for n in ruleset_names()]


def register_ruleset(rs: Ruleset) -> None:
    """Make `rs` known under `rs.name` for the life of the process (as an entry point would)."""
    _registered[rs.name] = rs


@contextmanager
def registered(rs: Ruleset) -> Iterator[Ruleset]:
    """`rs` registered inside a `with` block only (tests)."""
    before = _registered.get(rs.name)
    _registered[rs.name] = rs
    try:
        yield rs
    finally:
        if before is None:
            _registered.pop(rs.name, None)
        else:
            _registered[rs.name] = before
