"""A live table's reads are kept per seat between appends (issue #12: an append and the read of
its events cost what the new events cost, not what the game's length does). What a seat is
shown must be, byte for byte, what the log redacted from scratch as of the current state shows:
these tests build live tables event by event over whole sample games with hidden information in
clear (Risk Europe's King's Orders cards, bids and missions; Risk Legacy's Scar cards dealt face
up; a commitment the engine skipped; rulings on hidden events) and compare, after every event,
for every seat and a spectator, the kept reads with `from_scratch` (the reads as they were
computed before they were kept: every step redacted again at every read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import views as V
from engine.core.record import seal
from engine.core.rulings import RULING_EVENT
from ledger.service.live import LiveTable
from ledger.service.tables import ServiceGame
from tests.test_views import open_legacy, simulated

ROOT = Path(__file__).resolve().parent.parent


class LinesStore:
    """The store calls a live table makes to read (`events`, with `since`), over lines in memory;
    `stored` grows as the test appends."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.stored = 1
        self.since: list[int] = []

    def events(self, game_id: str, since: int = 0) -> list[str]:
        self.since.append(since)
        return self.lines[since:self.stored]


def from_scratch(t: LiveTable, seat: str | None, since: int = 0) -> list[dict]:
    """The envelopes from `since` on as `seat` may read them now, every step redacted again (the
    live table's reads before they were kept)."""
    out = []
    chain_shown = True
    now = t.state
    redacted: set[int] = set()
    for step in t.steps:
        envelope = step.envelope
        payload = envelope.get("payload")
        if step.raw.type == RULING_EVENT and isinstance(payload, dict):
            if payload.get("seq") in redacted:
                envelope = {**envelope, "payload": {**payload, "text": V.HIDDEN}}
        elif step.raw.seq > 0 and isinstance(payload, dict):
            shown = V.redact_payload(t.rs, step.raw.type, step.raw.actor, payload, seat,
                                     step.before, step.after, now)
            if shown != payload:
                chain_shown = False
                redacted.add(step.raw.seq)
                envelope = {**envelope, "payload": shown}
        if not chain_shown:
            envelope = {**envelope, "prev": None, "hash": None}
        if step.raw.seq >= since:
            out.append(envelope)
    return out


def as_json(envelopes: list[dict]) -> str:
    return json.dumps(envelopes, separators=(",", ":"))


def table_over(lines: list[str]) -> tuple[LiveTable, LinesStore]:
    """A live table holding the game's first event, and the store it reads the rest from."""
    first = json.loads(lines[0])
    players = tuple(p["id"] for p in first["payload"]["players"])
    game = ServiceGame(first["game"], first["payload"]["ruleset"], "record", "table", None, "-",
                       players, "2026-01-01T00:00:00Z")
    store = LinesStore(lines)
    return LiveTable.load(store, game), store


def check_reads(lines: list[str], every: int = 1) -> dict[str, int]:
    """Play the log into a live table, reading as every seat and a spectator after each `every`
    events (the steps between are caught up at once), and compare each read with the reads
    from scratch, including the head and the chain shown; what was seen, counted."""
    t, store = table_over(lines)
    seats = [*t.game.seats, None]
    seen = {"redacted": 0, "withheld": 0, "texts": 0}
    for n in range(1, len(lines)):
        store.stored = n + 1
        t.resync(store)
        assert store.since[-1] == n             # only the new line was read
        if n % every and n != len(lines) - 1:
            continue
        for seat in seats:
            full = from_scratch(t, seat)
            for since in {0, max(0, n - every), n}:
                assert as_json(t.events_for(seat, since)) == as_json(full[since:]), (n, seat, since)
            last = full[-1]
            assert t.head_for(seat) == {"seq": last["seq"], "next_seq": last["seq"] + 1,
                                        "hash": last.get("hash")}
            assert t.chain_shown_to(seat) == (last.get("hash") is not None)
            seen["redacted"] += sum(e["payload"] != s.envelope["payload"] and e["type"] != RULING_EVENT
                                    for e, s in zip(full, t.steps))
            seen["withheld"] += last.get("hash") is None
            seen["texts"] += sum(e["type"] == RULING_EVENT and e["payload"]["text"] == V.HIDDEN
                                 for e in full)
        assert t.finished == (t.over and (t.rs.result_event is None or any(
            s.raw.type == t.rs.result_event for s in t.steps)) and not V.actors_now(t.rs, t.state))
        assert t.seed_shown == (t.game.seed is None or any(s.raw.type == t.rs.seed_event
                                                           for s in t.steps))
    return seen


def sample_lines(name: str) -> list[str]:
    return (ROOT / "sample_logs" / name).read_text(encoding="utf-8").splitlines()


def with_rulings(lines: list[str]) -> list[str]:
    """The log with a ruling noted after every committing of cards and bid placed in clear, on
    that event (its words name the cards), and the chain sealed again."""
    envelopes = [json.loads(line) for line in lines]
    out: list[dict] = []
    for e in envelopes:
        out.append(e)
        p = e["payload"]
        if e["type"] in ("CardsCommitted", "BidPlaced") and ("cards" in p or "amount" in p):
            text = f"noted: {p.get('cards') or p.get('amount')} stands"
            out.append({"v": e.get("v", 1), "game": e["game"], "type": RULING_EVENT, "actor": None,
                        "payload": {"seq": len(out) - 1, "decision": "note", "text": text}})
    return [json.dumps(e, separators=(",", ":"))
            for e in seal([{**e, "seq": n} for n, e in enumerate(out)])]


@pytest.mark.parametrize("name", ["var-mercenaries-2p-table.jsonl", "var-basic-missions-table.jsonl",
                                  "game42.jsonl", "broken-card-twice.jsonl"])
@pytest.mark.parametrize("every", [1, 7])
def test_kept_reads_are_the_reads_from_scratch_for_risk_europe_samples(name, every):
    seen = check_reads(sample_lines(name), every)
    assert seen["redacted"] > 0 and seen["withheld"] > 0


def test_kept_reads_of_a_three_player_mercenaries_game_with_missions_in_clear():
    _, table = simulated("risk-europe", 3, "mercenaries-3p+missions")
    seen = check_reads(table.splitlines(), every=1)
    assert seen["redacted"] > 0 and seen["withheld"] > 0


def test_kept_reads_withhold_the_words_of_a_ruling_on_a_hidden_event_until_it_is_revealed():
    seen = check_reads(with_rulings(sample_lines("game42.jsonl")), every=1)
    assert seen["texts"] > 0


@pytest.mark.parametrize("name", ["game-01.jsonl", "game-02.jsonl"])
def test_kept_reads_of_risk_legacy_with_scar_cards_dealt_face_up(name):
    envelopes = [json.loads(line) for line in sample_lines(f"legacy/{name}")]
    lines = [json.dumps(e, separators=(",", ":")) for e in open_legacy(envelopes)]
    seen = check_reads(lines, every=1)
    assert seen["redacted"] > 0


def test_a_read_after_an_append_looks_only_at_the_new_steps():
    """The redaction hook is asked about the new step (and the few shown redacted) after each
    event, not about the whole game, while nothing hidden changes."""
    lines = sample_lines("var-mercenaries-2p-table.jsonl")
    t, store = table_over(lines)
    calls = []
    redact = t.rs.redact
    t.rs = _counting(t.rs, calls)
    asked = []
    for n in range(1, len(lines)):
        store.stored = n + 1
        t.resync(store)
        before = len(calls)
        key = t.reads.get("blue") and t.reads["blue"].key
        t.events_for("blue", n)
        if key == V.redaction_key(t.rs, t.state, "blue"):
            asked.append(len(calls) - before)
    assert redact is not None and asked
    assert max(asked) <= 1 + 8                  # the new step, and the few shown redacted
    assert sum(asked) < 3 * len(asked)


def _counting(rs, calls: list):
    import dataclasses
    inner = rs.redact

    def redact(*args):
        calls.append(args[0])
        return inner(*args)
    return dataclasses.replace(rs, redact=redact)


@pytest.mark.parametrize("name", ["game-2p-short.jsonl", "game-4p.jsonl"])
def test_kept_reads_of_warrior_knights(name):
    """Fate cards drawn face up whose names are secret again once the deck deals them face down,
    discards hidden until the end, plans and votes revealed later."""
    lines = sample_lines(f"warrior_knights/{name}")
    seen = check_reads(lines, every=1 if len(lines) < 400 else 9)
    assert seen["redacted"] > 0
