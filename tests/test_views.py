"""Hidden information (issue #11's `view(state, seat)`, the ground of #12's leak tests): for every
registered ruleset with hidden information, every sample log, bot games and logs that carry the
secrets in clear are judged, and at every step, for every seat and a spectator:

(a) the seat's own secrets are in its view;
(b) no other seat's secret is in its view, in the payload of any event so far as redacted for it
    now, in its notes or its legal moves: the JSON is searched for the secret's value (a card id,
    a bid amount, a mission id, a Scar card), not for a key; and a state or a payload with the
    secret changed gives the seat the very same view (non-interference);
(c) once a secret is revealed its value is in every seat's view;
(d) views and redacted payloads are deterministic and JSON-serialisable, and the public board
    (`snapshot`) is part of every view, key for key;
(e) when the game is over every seat and the spectator see the same, and every event as logged.

A value several players can hold (a card of everyone's deck, a bid of 2 coins) is searched only in
the owner's part of a view (its player entry, its own events): the same card id in another
player's discards is no leak. In a legal game a face-down card cannot also be among its owner's
played or revealed cards, so there its id anywhere in the owner's entry is a leak; an illegal log
can hold it there openly (the same card committed twice), so that search runs on legal games.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core import views as V
from engine.core.commit import commitment
from engine.core.dice import DiceTape
from engine.core.record import seal
from engine.core.ruleset import get_ruleset, registered, rulesets
from replay.judge import judge
from replay.logfile import format_line, read_log, read_log_text
from replay.seat import WITHHELD, StateRecorder, as_seen_by, seat_log

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_logs").glob("*.jsonl")) + sorted((ROOT / "sample_logs" / "legacy").glob("*.jsonl"))
HIDDEN = V.HIDDEN


# --------------------------------------------------------------------------------------------
# a judged game with every state
# --------------------------------------------------------------------------------------------

class Game:
    """A log judged with its states kept: (step, before, after) for every event after the first."""

    def __init__(self, read):
        self.read = read
        self.rec = StateRecorder()
        self.j = judge(read, observer=self.rec)
        self.rs = get_ruleset(self.j.ruleset)
        self.initial, states = self.rec.states(self.j)
        self.steps = [(step, before, after) for step, (before, after) in zip(self.j.steps, states)]
        self.final = self.rec.final
        self.seats = list(self.j.players) + [None]

    @property
    def clean(self) -> bool:
        """No illegal event (a wrong claim changes nothing a seat holds)."""
        return not any(f.kind == "illegal" for f in self.j.findings)


def game_of_text(text: str, name: str = "<test>") -> Game:
    return Game(read_log_text(text, name))


def text_of(envelopes: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envelopes)


def owner_part(view: dict, owner: str):
    """The owner's entry of a view."""
    return (view.get("players") or {}).get(owner)


def payload_parts(payload, actor, owner):
    """The owner's parts of an event payload: all of it for the owner's own event, else every
    value under a key naming the owner (a deal {"cards": {"ann": ...}})."""
    if actor == owner:
        yield payload
        return
    if isinstance(payload, dict):
        for k, v in payload.items():
            if k == owner:
                yield v
            else:
                yield from payload_parts(v, None, owner)
    elif isinstance(payload, list):
        for v in payload:
            yield from payload_parts(v, None, owner)


def in_payload(payload, actor, x: V.Secret) -> bool:
    if x.distinct:
        return V.has_value(payload, x.value)
    return any(V.has_value(part, x.value) for part in payload_parts(payload, actor, x.owner))


def in_view(view: dict, x: V.Secret) -> bool:
    if x.distinct:
        return V.has_value(view, x.value)
    return V.has_value(owner_part(view, x.owner), x.value)


def note_names(notes, x: V.Secret) -> bool:
    """Does a note name the secret: a distinct value anywhere, another right after its owner's
    name ("Scar cards dealt: ann bunker", "ann a bunker", "ann holds the bunker")?"""
    if not isinstance(x.value, str):
        return False
    for spelled in V.spellings(x.value):
        pattern = (re.escape(spelled) if x.distinct else
                   rf"\b{re.escape(x.owner)}\b[\s:(]+(?:(?:an?|the|holds?|keeps?)\s+)*{re.escape(spelled)}")
        if any(re.search(pattern, n) for n in notes):
            return True
    return False


def jsonable(obj) -> str:
    """The canonical JSON of `obj`, which must survive a round trip unchanged."""
    text = json.dumps(obj, sort_keys=True, allow_nan=False)
    assert json.loads(text) == obj, "not plain JSON data (a tuple, a set, a non-string key?)"
    return text


def is_part(small, big) -> bool:
    """Is `small` part of `big`: every key of every dict with an equal value (recursively)?"""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(k in big and is_part(v, big[k]) for k, v in small.items())
    return small == big


def without(view: dict, *keys: str) -> dict:
    return {k: v for k, v in view.items() if k not in keys}


# --------------------------------------------------------------------------------------------
# changing a secret (non-interference), per ruleset: the state with the secret's value replaced
# by another value it could have had; None when it could have had no other
# --------------------------------------------------------------------------------------------

def _other_re(s, x: V.Secret):
    if x.kind == "bid":
        return x.value + 7
    ps = s.players[x.owner]
    if x.kind == "card":
        down = ps.stack[len(ps.revealed):]
        return next((c for c in s.data.cards if c in ps.hand and c not in down), None)
    taken = {m for q in s.players.values() for m in (*q.kept_missions, *q.missions_done)}
    return next((m for m in s.data.mission_ids if m not in taken), None)


def _perturb_re(s, x: V.Secret, other):
    ps = s.players[x.owner]
    if x.kind == "bid":
        ps = ps._replace(bid=other)
    elif x.kind == "card":
        n = len(ps.revealed)
        ps = ps._replace(stack=ps.stack[:n] + tuple(other if c == x.value else c for c in ps.stack[n:]))
    else:
        ps = ps._replace(kept_missions=tuple(other if m == x.value else m for m in ps.kept_missions))
    return dataclasses.replace(s, players={**s.players, x.owner: ps})


def _other_rl(s, x: V.Secret):
    return next((k for k in sorted(s.data.scar_cards) if k != x.value), None)


def _perturb_rl(s, x: V.Secret, other):
    from engine.risk_legacy.state import FACE_DOWN
    ps = s.players[x.owner]
    if ps.scar == FACE_DOWN:
        deal = s.scar_deal
        return dataclasses.replace(s, scar_deal=deal._replace(drawn={**deal.drawn, x.owner: other}))
    return dataclasses.replace(s, players={**s.players, x.owner: ps._replace(scar=other)})


PERTURB = {"risk-europe": (_other_re, _perturb_re), "risk-legacy": (_other_rl, _perturb_rl)}


def swap_in(payload, actor, x: V.Secret, other):
    """`payload` with the secret's value replaced by `other` in the owner's parts."""
    def swap(obj, mine):
        if isinstance(obj, dict):
            return {k: swap(v, mine or k == x.owner) for k, v in obj.items()}
        if isinstance(obj, list):
            return [swap(v, mine) for v in obj]
        return other if mine and obj == x.value and type(obj) is type(x.value) else obj
    return swap(payload, actor == x.owner)


# --------------------------------------------------------------------------------------------
# the checks
# --------------------------------------------------------------------------------------------

def check_game(g: Game, *, every: int = 1, moves_every: int = 0) -> dict:
    """Every check of the module docstring on one judged game; counts of what was checked.

    Each event's payload is checked for every seat at every step; the views (and the change
    test) at every `every`-th step, and at every step where a secret appears or is revealed."""
    rs = g.rs
    other_of, perturb = PERTURB.get(rs.name, (None, None))
    search = g.clean                # see the module docstring: value search in the owner's entry
    counts = {"secrets": 0, "revealed": 0, "perturbed": 0, "redacted": 0, "views": 0}
    bearing: list[tuple] = []       # (event, its states, seat): redacted for the seat when appended
    revealed: list[tuple] = []      # ... and shown as logged since
    last = len(g.steps) - 1
    for k, (step, before, after) in enumerate(g.steps):
        secrets = V.secrets_of(rs, after)
        was = V.secrets_of(rs, before)
        counts["secrets"] += len(secrets)
        gone = [x for x in was if x not in secrets and step.type in x.revealed_by]
        full = k % every == 0 or secrets != was or k == last
        views = {}
        for seat in g.seats:
            payload = V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after)
            assert jsonable(payload) == jsonable(
                V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after))
            if payload != step.payload:
                bearing.append((step, before, after, seat))
            for x in secrets:
                if x.owner != seat:                                       # (b) the event
                    assert not in_payload(payload, step.actor, x), \
                        f"seq {step.seq} ({step.type}): {x} leaks to {seat or 'a spectator'} in {payload}"
            if not full:
                continue
            counts["views"] += 1
            view = views[seat] = V.view_of(rs, after, seat)
            # (d)
            assert jsonable(view) == jsonable(V.view_of(rs, after, seat))
            assert is_part(rs.snapshot(after), view), f"seq {step.seq}: the public board is not in {seat}'s view"
            notes = V.notes_for(rs, after, seat)
            for x in secrets:
                if x.owner == seat:                                       # (a)
                    assert in_view(view, x), f"seq {step.seq}: {seat} does not see its own {x}"
                    continue
                where = f"seq {step.seq} ({step.type}): {x} of {x.owner} leaks to {seat or 'a spectator'}"
                if (search or x.distinct) and isinstance(x.value, str):  # (b) the value
                    # (a number is no needle in a board of numbers: the change test covers it)
                    assert not in_view(view, x), where + " in the view"
                    assert not note_names(notes, x), where + f" in the notes {notes}"
            for x in gone:                                                # (c)
                assert in_view(view, x) or in_payload(payload, step.actor, x) or any(
                    in_payload(V.redact_payload(rs, old.type, old.actor, old.payload, seat, b, a, after),
                               old.actor, x) for old, b, a, _ in bearing + revealed[-16:] if old.actor == x.owner), \
                    f"seq {step.seq}: {x} was revealed by {step.type} but {seat} cannot see it"
                counts["revealed"] += 1
            d = V.digest_for(rs, after, seat)          # withheld while a secret is hidden from it
            assert (d is None) == any(x.owner != seat for x in secrets)
        # (b) the events so far, as each seat sees them now (once an event is shown as logged it
        # stays so: the others are checked again at every step)
        live = []
        for old, was_, at, seat in bearing:
            now_payload = V.redact_payload(rs, old.type, old.actor, old.payload, seat, was_, at, after)
            if now_payload == old.payload:
                revealed.append((old, was_, at, seat))
                continue
            live.append((old, was_, at, seat))
            for x in secrets:
                if x.owner != seat and (search or x.distinct):
                    assert not in_payload(now_payload, old.actor, x), \
                        f"seq {step.seq}: {x} leaks to {seat} through seq {old.seq} ({now_payload})"
        bearing = live
        counts["redacted"] = len(bearing) + len(revealed)
        # (b) non-interference: another value of the secret, the same view and event for the others
        if perturb is not None and full:
            for x in secrets:
                if k % every and x in was:      # a secret is changed where it comes, and every `every`
                    continue
                other = other_of(after, x)
                if other is None:
                    continue
                changed = perturb(after, x, other)
                counts["perturbed"] += 1
                for seat in g.seats:
                    mine = V.view_of(rs, changed, seat)
                    if seat == x.owner:
                        assert without(mine, "notes") != without(views[seat], "notes"), \
                            f"seq {step.seq}: {seat} does not see its {x} changed"
                        continue
                    assert without(mine, "notes") == without(views[seat], "notes"), \
                        f"seq {step.seq}: {seat}'s view depends on {x}"
                    if in_payload(step.payload, step.actor, x):
                        a = V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after)
                        b = V.redact_payload(rs, step.type, step.actor,
                                             swap_in(step.payload, step.actor, x, other), seat, before, changed)
                        assert a == b, f"seq {step.seq}: {seat}'s copy of {step.type} depends on {x}"
        # (b) legal moves: only the seat's own, none naming another's secret
        if moves_every and k % moves_every == 0 and rs.legal_moves is not None:
            for seat in g.seats:
                acts = set(V.view_of(rs, after, seat).get("acts_for") or ())
                for m in V.moves_for(rs, after, seat):
                    assert m.actor in acts
                    for x in secrets:
                        if x.owner != seat:
                            assert not in_payload(m.payload, m.actor, x), f"{m} names {x}"
    # (e) a finished game: one view for all, every event as logged
    final = g.final if g.final is not None else g.j.final_state
    if final is not None and rs.result(final) is not None:
        seen = {json.dumps(without(V.view_of(rs, final, seat), "seat", "acts_for"), sort_keys=True)
                for seat in g.seats}
        assert len(seen) == 1, "a finished game still looks different to different seats"
        assert not V.secrets_of(rs, final)
        assert is_part(rs.snapshot(final), V.view_of(rs, final, None))
        for step, before, after in g.steps:
            for seat in g.seats:
                assert V.redact_payload(rs, step.type, step.actor, step.payload, seat, before, after, final) == step.payload
    return counts


# --------------------------------------------------------------------------------------------
# logs with the secrets in clear: a digital game's commitments opened, as a table would log it
# --------------------------------------------------------------------------------------------

def open_europe(envelopes: list[dict]) -> list[dict]:
    """A Risk Europe log with its commitments opened: bids as amounts (the reveals dropped), the
    cards committed as ids, each mission kept as its id when it is completed in the log."""
    out = []
    later = list(envelopes)
    for i, e in enumerate(envelopes):
        p, t, who = dict(e["payload"]), e["type"], e["actor"]
        rest = later[i + 1:]
        if t == "BidPlaced" and "commitment" in p:
            reveal = next(r for r in rest if r["type"] == "BidRevealed" and r["actor"] == who)
            p = {"amount": reveal["payload"]["amount"], **({"army": p["army"]} if "army" in p else {})}
        elif t == "BidRevealed":
            continue
        elif t == "CardsCommitted" and "commitments" in p:
            cards = [r["payload"]["card"] for r in rest if r["type"] == "CardRevealed" and r["actor"] == who][:2]
            p = {"cards": cards}
        elif t == "CardRevealed" and "salt" in p:
            p.pop("salt")
        elif t == "MissionKept" and "commitment" in p:
            done = [r["payload"] for r in rest if r["type"] == "MissionCompleted" and r["actor"] == who]
            hit = next((d["mission"] for d in done if commitment(d["mission"], d.get("salt") or "") == p["commitment"]), None)
            if hit is not None:
                p = {"mission": hit}
        elif t == "MissionCompleted" and "salt" in p:
            kept = [r for r in out if r["type"] == "MissionKept" and r["actor"] == who]
            if any(r["payload"].get("mission") == p["mission"] for r in kept):
                p.pop("salt")
        out.append({**e, "payload": p})
    return seal([{**e, "seq": n} for n, e in enumerate(out)])


def open_legacy(envelopes: list[dict]) -> list[dict]:
    """A Risk Legacy log with its Scar cards dealt face up: the cards the seed dealt, with the
    dice the deal took; the salts and the returns of unplayed cards dropped."""
    g = game_of_text(text_of(envelopes))
    deal = g.final.scar_deal
    if deal is None or deal.drawn is None:
        return envelopes
    seed = next(e["payload"]["seed"] for e in envelopes if e["type"] == "SeedRevealed")
    dice = DiceTape(seed).take(deal.start, deal.count)
    out = []
    for e in envelopes:
        p, t = dict(e["payload"]), e["type"]
        if t == "ScarCardsDealt":
            p = {"cards": dict(deal.drawn), "dice": dice}
        elif t == "ScarPlaced":
            p.pop("salt", None)
        elif t == "ScarCardReturned":
            continue
        out.append({**e, "payload": p})
    return seal([{**e, "seq": n} for n, e in enumerate(out)])


@lru_cache(maxsize=None)
def simulated(name: str, seed: int, variant: str = "") -> tuple[str, str]:
    """(the bots' log, the same game with its secrets in clear), as text."""
    rs = get_ruleset(name)
    game = rs.simulate(seed, f"v{seed}", {"variant": variant} if variant else {})
    opened = open_europe(game.envelopes) if name == "risk-europe" else open_legacy(game.envelopes)
    return text_of(game.envelopes), text_of(opened)


# --------------------------------------------------------------------------------------------
# the tests
# --------------------------------------------------------------------------------------------

def _judged_samples():
    for path in SAMPLES:
        read = read_log(path)
        first = read.events[0].payload if read.events else {}
        name = first.get("ruleset") if isinstance(first, dict) else None
        if name in {rs.name for rs in rulesets() if rs.view is not None}:
            yield path


# every step of these (the others: one step in fifteen, and every step where a secret comes or goes)
FULLY_CHECKED = {"game42.jsonl", "var-basic-missions-table.jsonl", "var-mercenaries-2p-table.jsonl",
                 "broken-card-twice.jsonl", "game-02.jsonl"}


@pytest.mark.parametrize("path", list(_judged_samples()), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_sample_as_every_seat_and_a_spectator(path):
    g = Game(read_log(path))
    full = path.name in FULLY_CHECKED
    counts = check_game(g, every=1 if full else 15, moves_every=23 if full else 0)
    if g.rs.name == "risk-europe" and any(s.type == "CardsCommitted" and "cards" in s.payload for s, _, _ in g.steps):
        assert counts["secrets"] and counts["revealed"] and counts["redacted"]


@pytest.mark.parametrize("variant", ["mercenaries-3p+missions", "mercenaries-2p", "teams", "basic+missions"])
def test_bot_games_with_their_secrets_in_clear(variant):
    seed = {"mercenaries-3p+missions": 3, "mercenaries-2p": 2, "teams": 4, "basic+missions": 11}[variant]
    digital, table = simulated("risk-europe", seed, variant)
    g, t = game_of_text(digital), game_of_text(table)
    assert t.j.result == g.j.result and t.clean
    assert [f.rule for f in t.j.findings] == [f.rule for f in g.j.findings]
    check_game(g, every=25)
    counts = check_game(t, every=5, moves_every=41)
    assert counts["secrets"] > 0 and counts["revealed"] > 0 and counts["perturbed"] > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_legacy_bot_games_with_scar_cards_dealt_face_up(seed):
    digital, table = simulated("risk-legacy", seed)
    g, t = game_of_text(digital), game_of_text(table)
    assert t.j.result == g.j.result and t.clean, [f.format() for f in t.j.findings][:3]
    check_game(g, every=25)
    counts = check_game(t, every=5, moves_every=37)
    assert counts["secrets"] > 0 and counts["perturbed"] > 0


@pytest.mark.parametrize("path", ["sample_logs/legacy/game-01.jsonl", "sample_logs/legacy/game-02.jsonl"])
def test_legacy_samples_with_scar_cards_dealt_face_up(path):
    envelopes = [json.loads(line) for line in (ROOT / path).read_text().splitlines()]
    t = game_of_text(text_of(open_legacy(envelopes)))
    assert t.clean and t.j.result == Game(read_log(ROOT / path)).j.result
    counts = check_game(t, every=3)
    assert counts["secrets"] > 0 and counts["revealed"] > 0


def test_a_game_without_hidden_information_shows_everything():
    """The toy Nim ruleset declares no view: its view is its snapshot, its events as logged."""
    from tests.toy_nim import RULESET as nim
    from engine.core.record import make_envelope
    assert nim.view is None and nim.redact is None and nim.secrets is None
    envs = [make_envelope("n", 0, "GameStarted", None,
                          {"ruleset": "toy-nim", "players": [{"id": "ann"}, {"id": "bob"}], "stones": 5}),
            make_envelope("n", 1, "StonesTaken", "ann", {"count": 3}),
            make_envelope("n", 2, "StonesTaken", "bob", {"count": 2})]
    with registered(nim):
        rec = StateRecorder()
        j = judge(read_log_text(text_of(seal(envs))), digests=True, views=True, observer=rec)
        for seat in ("ann", "bob", None):
            _, states = rec.states(j)
            for step, (before, after) in zip(j.steps, states):
                assert V.view_of(nim, after, seat) == nim.snapshot(after) == step.view
                assert V.redact_payload(nim, step.type, step.actor, step.payload, seat, before, after) is step.payload
                assert V.digest_for(nim, after, seat) == nim.digest(after) == step.digest
                assert V.notes_for(nim, after, seat) == tuple(nim.notes(after))
                assert V.hidden_from(nim, after, seat) == ()
            mine = as_seen_by(j, rec, seat)
            assert [(s.payload, s.view, s.digest, s.notes) for s in mine.steps] == \
                   [(s.payload, s.view, s.digest, s.notes) for s in j.steps]


# ---- the rulebook's cases, one by one ----------------------------------------------------------

def _game42(upto: int | None = None) -> Game:
    lines = (ROOT / "sample_logs" / "game42.jsonl").read_text().splitlines(keepends=True)
    return game_of_text("".join(lines[:upto]) if upto else "".join(lines), "game42")


def _step(g: Game, seq: int):
    return next(x for x in g.steps if x[0].seq == seq)


def seen(g: Game, x, seat, now=None):
    """The payload of the judged event `x` (step, before, after) as `seat` sees it at `now`."""
    step, before, after = x
    return V.redact_payload(g.rs, step.type, step.actor, step.payload, seat, before, after, now)


def test_bids_for_first_player_are_hidden_until_all_are_revealed_together():
    """"Game Setup" 3: bids are chosen secretly and revealed at the same time."""
    g = _game42(8)
    rs = g.rs
    for seq in (1, 2, 3):
        x = step, _, after = _step(g, seq)
        assert seen(g, x, "green") == {"amount": HIDDEN}
        assert seen(g, x, step.actor) == step.payload
        assert V.view_of(rs, after, None)["players"][step.actor]["bid"] == HIDDEN
        assert V.view_of(rs, after, step.actor)["players"][step.actor]["bid"] == step.payload["amount"]
    last = step, _, after = _step(g, 4)          # green's bid, the last: every bid is revealed
    assert seen(g, last, "blue") == step.payload
    assert {p: v["bid"] for p, v in V.view_of(rs, after, None)["players"].items()} == \
        {"blue": 2, "orange": 1, "red": 0, "green": 0}
    assert seen(g, _step(g, 1), "green", after) == {"amount": 2}


def test_bids_for_two_mercenary_armies_are_revealed_army_by_army():
    """"2-Player Variant": two bids a round, one per Mercenary Army; the last bid for the first
    army reveals that bidding (and opens the next) in one step."""
    g = Game(read_log(ROOT / "sample_logs" / "var-mercenaries-2p-table.jsonl"))
    bids = [x for x in g.steps if x[0].type == "BidPlaced" and x[1].flow.phase == "control"][:4]
    first, second = bids[0], bids[1]                 # the two players' bids for the first army
    assert first[0].payload.get("army") == second[0].payload.get("army")
    other = next(p for p in g.j.players if p != first[0].actor)
    assert seen(g, first, other) == {**first[0].payload, "amount": HIDDEN}
    assert seen(g, second, first[0].actor) == second[0].payload      # the last: both revealed
    assert seen(g, first, other, second[2]) == first[0].payload
    third = bids[2]                                  # the first bid for the second army
    assert seen(g, third, next(p for p in g.j.players if p != third[0].actor))["amount"] == HIDDEN


def test_face_down_cards_are_hidden_until_each_is_revealed_on_its_turn():
    """"Round Overview" 1: two cards face down; each is turned over on its turn."""
    g = _game42()
    rs = g.rs
    commit = step, _, at = _step(g, 9)           # blue's two cards for round 1
    assert step.type == "CardsCommitted" and step.actor == "blue"
    top, bottom = step.payload["cards"]
    reveals = [x for x in g.steps if x[0].type == "CardRevealed" and x[0].actor == "blue"][:2]
    assert [r[0].payload["card"] for r in reveals] == [top, bottom]
    for seat in ("orange", None):
        assert seen(g, commit, seat) == {"cards": [HIDDEN, HIDDEN]}
        view = V.view_of(rs, at, seat)["players"]["blue"]
        assert view["facedown"] == [HIDDEN, HIDDEN] and view["hand"] == 6
        assert seen(g, commit, seat, reveals[0][2]) == {"cards": [top, HIDDEN]}
        assert seen(g, commit, seat, reveals[1][2]) == step.payload
    assert V.view_of(rs, at, "blue")["players"]["blue"]["facedown"] == [top, bottom]
    # a commitment that follows the last turn of a round closes that round: it belongs to the next
    later = next(x for x in g.steps if x[0].type == "CardsCommitted" and x[1].flow.round == 1
                 and x[2].flow.round == 2)
    assert seen(g, later, None) == {"cards": [HIDDEN, HIDDEN]}


def test_a_kept_mission_is_secret_until_completed():
    """"Kingdom Missions Play Variant": the mission kept is face down and secret until completed."""
    g = Game(read_log(ROOT / "sample_logs" / "var-basic-missions-table.jsonl"))
    rs = g.rs
    kept = step, _, at = next(x for x in g.steps if x[0].type == "MissionKept" and "mission" in x[0].payload)
    mission = step.payload["mission"]
    for seat in (p for p in g.seats if p != step.actor):
        assert seen(g, kept, seat) == {"mission": HIDDEN}
        assert not V.has_value(V.view_of(rs, at, seat), mission)
        assert not any(mission in n for n in V.notes_for(rs, at, seat))
    assert mission in V.view_of(rs, at, step.actor)["players"][step.actor]["missions"]
    assert any(mission in n for n in V.notes_for(rs, at, step.actor))
    done = next((x for x in g.steps if x[0].type == "MissionCompleted" and x[0].payload["mission"] == mission), None)
    end = g.final if done is None else done[2]
    assert seen(g, kept, None, end) == step.payload         # completed, or the game is over


def test_a_scar_card_dealt_face_up_in_the_log_is_hidden_from_the_others_until_played():
    """"Scars Cards": one dealt to each player, secret until played (or the game ends)."""
    envelopes = [json.loads(line) for line in (ROOT / "sample_logs/legacy/game-01.jsonl").read_text().splitlines()]
    g = game_of_text(text_of(open_legacy(envelopes)))
    rs = g.rs
    deal = step, _, at = next(x for x in g.steps if x[0].type == "ScarCardsDealt")
    cards = step.payload["cards"]
    for seat in cards:
        mine = seen(g, deal, seat)
        assert mine["cards"] == {p: (k if p == seat else HIDDEN) for p, k in cards.items()}
        assert mine["dice"] == HIDDEN             # the dice would tell every card
        assert V.view_of(rs, at, seat)["players"][seat]["scar"] == cards[seat]
        assert {V.view_of(rs, at, seat)["players"][p]["scar"] for p in cards if p != seat} == {HIDDEN}
    assert set(seen(g, deal, None)["cards"].values()) == {HIDDEN}
    placed = next(x for x in g.steps if x[0].type == "ScarPlaced")
    assert seen(g, deal, None, placed[2])["cards"][placed[0].actor] == cards[placed[0].actor]
    # Resource cards are taken face up: every hand is public
    last = g.steps[-1][2]
    assert all(isinstance(v["hand"], list) for v in V.view_of(rs, last, None)["players"].values())


def test_a_finding_about_a_secret_event_is_withheld_from_the_others():
    g = Game(read_log(ROOT / "sample_logs" / "broken-card-twice.jsonl"))
    bad = next(s for s, _, _ in g.steps if s.type == "CardsCommitted" and s.findings)
    mine = as_seen_by(g.j, g.rec, bad.actor)
    theirs = as_seen_by(g.j, g.rec, next(p for p in g.j.players if p != bad.actor))
    at = [s.seq for s in g.j.steps].index(bad.seq)
    assert [f.message for f in mine.steps[at].findings] == [f.message for f in bad.findings]
    assert [f.message for f in theirs.steps[at].findings] == [WITHHELD] * len(bad.findings)
    assert [f.rule for f in theirs.steps[at].findings] == [f.rule for f in bad.findings]
    assert theirs.steps[at].payload["cards"] == [HIDDEN, HIDDEN]
    assert g.j.steps[at].payload == bad.payload            # the referee's judgement is untouched


def test_the_log_as_one_seat_may_read_it():
    g = _game42(12)                                  # round 1: blue, orange and red have committed
    read = g.read
    original = [json.loads(e.raw) for e in read.events]
    orange = seat_log(read, "orange")
    assert [e["seq"] for e in orange] == [e["seq"] for e in original]
    blue_cards = next(e for e in orange if e["type"] == "CardsCommitted" and e["actor"] == "blue")
    assert blue_cards["payload"] == {"cards": [HIDDEN, HIDDEN]}
    own = next(e for e in orange if e["type"] == "CardsCommitted" and e["actor"] == "orange")
    assert own["payload"] == next(e for e in original if e["seq"] == own["seq"])["payload"]
    first = orange.index(blue_cards)
    assert orange[:first] == original[:first]         # the bids are revealed by now: as logged
    assert all(e["hash"] is None and e["prev"] is None for e in orange[first:])
    for seat in ("blue", "red", "green", None):
        for x in V.secrets_of(g.rs, g.final):
            if x.owner != seat:
                for e in seat_log(read, seat):
                    assert not in_payload(e["payload"], e["actor"], x)
    done = Game(read_log(ROOT / "sample_logs" / "game42.jsonl"))
    assert seat_log(done.read, None) == [json.loads(e.raw) for e in done.read.events]


def test_as_seen_by_changes_no_verdict_and_no_digest():
    path = ROOT / "sample_logs" / "var-mercenaries-3p-table.jsonl"
    plain = judge(read_log(path), digests=True, views=True)
    rec = StateRecorder()
    j = judge(read_log(path), digests=True, views=True, observer=rec)
    assert [s.digest for s in j.steps] == [s.digest for s in plain.steps]
    assert [f.format() for f in j.findings] == [f.format() for f in plain.findings]
    mine = as_seen_by(j, rec, "blue")
    assert [s.digest for s in j.steps] == [s.digest for s in plain.steps]
    assert [s.payload for s in j.steps] == [s.payload for s in plain.steps]
    assert mine.result == j.result and [f.rule for f in mine.findings] == [f.rule for f in j.findings]
    shown = [s.digest for s in mine.steps]
    assert None in shown and any(d is not None for d in shown)
    assert all(d is None or d == j.steps[i].digest for i, d in enumerate(shown))


# ---- ledger replay FILE --as SEAT ---------------------------------------------------------------

runner = CliRunner()


def _replay(*args):
    from ledger.cli import app
    return runner.invoke(app, ["replay", *map(str, args)])


def test_replay_as_a_seat_shows_the_game_as_that_seat_saw_it():
    path = ROOT / "sample_logs" / "game42.jsonl"
    r = _replay(path, "--as", "orange", "--json")
    assert r.exit_code == 0, r.output
    steps = json.loads(r.output)["steps"]
    by_seq = {s["seq"]: s for s in steps}
    assert by_seq[1]["payload"] == {"amount": HIDDEN}                  # blue's bid, before the reveal
    assert by_seq[9]["payload"] == {"cards": [HIDDEN, HIDDEN]}         # blue's cards
    assert by_seq[10]["payload"]["cards"][0] != HIDDEN                 # orange's own
    assert by_seq[9]["digest"] is None and by_seq[9]["board"]["players"]["blue"]["facedown"] == [HIDDEN, HIDDEN]
    assert by_seq[10]["board"]["players"]["orange"]["facedown"] == by_seq[10]["payload"]["cards"]
    assert by_seq[5]["digest"] is not None                             # nothing hidden then
    text = _replay(path, "--as", "orange", "--round", "1").output
    assert "blue commits two cards face down (hidden, hidden)" in text
    blue = _replay(path, "--as", "blue", "--round", "1").output
    assert "blue commits two cards face down (expand-maneuver-fortify-1, split-maneuver-1)" in blue
    spectator = _replay(path, "--as", "spectator", "--json")
    assert json.loads(spectator.output)["steps"][9]["payload"] == {"cards": [HIDDEN, HIDDEN]}
    # the game is over: as every seat saw it at the time, but the result and findings are the same
    plain = json.loads(_replay(path, "--json").output)
    assert json.loads(r.output)["result"] == plain["result"]


def test_replay_as_someone_who_is_not_a_player_is_refused():
    r = _replay(ROOT / "sample_logs" / "game42.jsonl", "--as", "purple")
    assert r.exit_code == 2
    assert "not a player" in r.output and "blue, orange, red, green" in r.output
    # a log that cannot be judged has no players to check: it is reported as without --as
    plain = _replay(ROOT / "sample_logs" / "broken-not-a-log.jsonl")
    mine = _replay(ROOT / "sample_logs" / "broken-not-a-log.jsonl", "--as", "blue")
    assert (mine.exit_code, mine.output) == (plain.exit_code, plain.output)


def test_replay_as_a_seat_of_a_legacy_game():
    r = _replay(ROOT / "sample_logs" / "legacy" / "game-01.jsonl", "--as", "ann", "--json")
    assert r.exit_code in (0, 1), r.output
    board = json.loads(r.output)["steps"][0]["board"]["players"]
    assert board["ann"]["scar"] not in (None, HIDDEN)                   # the judge knows the seed
    assert {board[p]["scar"] for p in ("bob", "cat", "dan")} == {HIDDEN}
