"""An append judges only the new events (the game's live judge, kept in memory and as a carry in
game_states), and the store ends as if the whole file had been ingested: the game row, findings,
snapshot, events and analytics rows; a store opened afresh (a restart, a crash) resumes the game
from what is stored."""

from __future__ import annotations

import json
import math

import pytest

from ledger.store import ANALYTICS_TABLES, open_store
from ledger.store.judging import CARRY_EVERY
from replay import judge as judge_module
from replay.logfile import read_log
from tests.test_store_support import SAMPLES

# Carries an older engine made (at commit 69cc55d, before the states kept their dice as one
# engine.core.dice.DiceState): game42 at seq 96, as a store keeps it after appending the first
# half of the game; Risk Legacy's game-01 at seq 11.
OLD_CARRIES = SAMPLES.parent / "tests" / "golden" / "carries"

GAMES = ["game42.jsonl", "var-mercenaries-3p.jsonl", "legacy/game-01.jsonl",
         "broken-castle-no-siege.jsonl"]

# columns that say when or from where, not what the judge found
_STAMPS = {"ingested_at", "updated_at", "judged_at", "source"}


def _rows(store, sql: str, game_id: str) -> list[tuple]:
    frame = store.query(sql, [game_id])
    rows = [tuple(_plain(v) for v in row) for row in frame.iter_rows()]
    return sorted(rows, key=repr)


def _plain(value):
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


def stored(store, game_id: str) -> dict:
    """Everything the store holds of one game, stamps left out."""
    game = store.game(game_id).model_dump()
    out = {"game": {k: v for k, v in game.items() if k not in _STAMPS},
           "findings": [f.model_dump() for f in store.findings(game_id)],
           "events": store.events(game_id)}
    snap = store.snapshot(game_id)
    out["snapshot"] = (snap.seq, snap.digest, json.dumps(snap.state, sort_keys=True)) \
        if snap else None
    for table in ANALYTICS_TABLES:
        out[table] = _rows(store, f"SELECT * FROM {table} WHERE game_id = ?", game_id)
    out["campaign_games"] = _rows(
        store, "SELECT game_id, campaign, game_no, world_before, world_after, status, "
        "waiting_for, finding_count FROM campaign_games WHERE game_id = ?", game_id)
    out["campaign_findings"] = _rows(
        store, "SELECT * EXCLUDE (idx) FROM campaign_findings WHERE game_id = ?", game_id)
    return out


def envelopes_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def ingested(tmp_path, path):
    with open_store(tmp_path / "whole.duckdb") as store:
        outcome = store.ingest_read(read_log(path))
        assert outcome.status == "new"
        return stored(store, outcome.game_id)


def carry_seq(store, game_id: str) -> int:
    return store.query("SELECT seq FROM game_states WHERE game_id = ?", [game_id]).item()


@pytest.mark.parametrize("sample", GAMES)
def test_appending_a_game_event_by_event_stores_what_ingesting_it_does(tmp_path, sample):
    path = SAMPLES / sample
    whole = ingested(tmp_path, path)
    game_id = whole["game"]["game_id"]
    with open_store(tmp_path / "appended.duckdb") as store:
        for seq, envelope in enumerate(envelopes_of(path)):
            head = store.append(game_id, seq, [envelope])
            assert head.seq == seq
            if seq == 0:   # the carry is kept from the first append on
                assert carry_seq(store, game_id) == 0
            # and saved every CARRY_EVERY events: a restart judges at most that many again
            assert seq - CARRY_EVERY < carry_seq(store, game_id) <= seq
        assert stored(store, game_id) == whole
        assert store.check().ok
    with open_store(tmp_path / "appended.duckdb") as store:     # closing saved it at the head
        assert carry_seq(store, game_id) == len(whole["events"]) - 1


@pytest.mark.parametrize("sample", GAMES)
def test_a_store_opened_afresh_resumes_the_game_from_what_is_stored(tmp_path, sample):
    """Store objects on one file, each with its own live judges (as processes taking turns, or a
    restart after a crash: a store saves its carry only every CARRY_EVERY events): each goes on
    from what is stored; one whose live judge is behind gets a conflict, and closing one writes
    no carry over a newer judgement."""
    from ledger.store import ConcurrencyConflict

    path = SAMPLES / sample
    envelopes = envelopes_of(path)
    whole = ingested(tmp_path, path)
    game_id = whole["game"]["game_id"]
    cut = min(len(envelopes) - 5, CARRY_EVERY + 7)       # the carry is behind the head here
    db = tmp_path / "appended.duckdb"
    first, third = open_store(db), open_store(db)
    for seq in range(cut):
        first.append(game_id, seq, [envelopes[seq]])
    assert carry_seq(first, game_id) < cut - 1
    third.append(game_id, cut, [envelopes[cut]])          # resumed from the carry: now live
    with open_store(db) as second:
        for seq in range(cut + 1, len(envelopes) - 1):
            second.append(game_id, seq, [envelopes[seq]])
        other = {k: v for k, v in envelopes[cut + 1].items() if k not in ("prev", "hash")}
        with pytest.raises(ConcurrencyConflict):     # third's live judge is behind the head
            third.append(game_id, cut + 1, [dict(other, at="2026-01-01T00:00:00Z")])
        kept = second.query("SELECT seq, carry FROM game_states").rows()
        first.close()                                 # its unsaved carry is behind: not written
        third.close()
        assert second.query("SELECT seq, carry FROM game_states").rows() == kept
        second.append(game_id, len(envelopes) - 1, [envelopes[-1]])
        assert stored(second, game_id) == whole
        assert second.check().ok


def test_a_live_game_is_not_read_back_from_its_carry(tmp_path, monkeypatch):
    """Appends to a game this store holds live judge only their events: nothing is unpickled."""
    envelopes = envelopes_of(SAMPLES / "game42.jsonl")
    whole = ingested(tmp_path, SAMPLES / "game42.jsonl")
    with open_store(tmp_path / "appended.duckdb") as store:
        store.append("game42", 0, envelopes[:10])
        resumed = []
        real = judge_module.Judge.resume.__func__
        monkeypatch.setattr(judge_module.Judge, "resume",
                            classmethod(lambda cls, blob: resumed.append(1) or real(cls, blob)))
        for seq in range(10, len(envelopes)):
            store.append("game42", seq, [envelopes[seq]])
        assert resumed == []
        assert stored(store, "game42") == whole


def test_findings_on_the_way_are_those_of_the_prefix(tmp_path):
    """After each append the game's findings are what judging the log up to there finds."""
    path = SAMPLES / "broken-castle-no-siege.jsonl"
    envelopes = envelopes_of(path)
    whole = ingested(tmp_path, path)
    bad = {f["seq"] for f in whole["findings"]}
    with open_store(tmp_path / "appended.duckdb") as store:
        for seq, envelope in enumerate(envelopes):
            store.append(whole["game"]["game_id"], seq, [envelope])
            if seq in bad:
                said = [(f.seq, f.rule) for f in store.findings(whole["game"]["game_id"])]
                assert said == [(f["seq"], f["rule"]) for f in whole["findings"]
                                if f["seq"] <= seq]


@pytest.mark.parametrize("how", ["deleted", "unreadable", "stale version", "behind the head",
                                 "made by an older engine"])
def test_an_append_without_a_usable_carry_judges_the_whole_game(tmp_path, how):
    path = SAMPLES / "game42.jsonl"
    envelopes = envelopes_of(path)
    whole = ingested(tmp_path, path)
    game_id = whole["game"]["game_id"]
    half = len(envelopes) // 2
    with open_store(tmp_path / "appended.duckdb") as store:
        store.append(game_id, 0, envelopes[:half])
    with open_store(tmp_path / "appended.duckdb") as store:     # no live judge: the carry is read
        if how == "deleted":
            store.query("DELETE FROM game_states")
        elif how == "unreadable":
            store.query("UPDATE game_states SET carry = ?", [b"risk-europe\n\x80\x05garbage"])
        elif how == "made by an older engine":
            store.query("UPDATE game_states SET carry = ?",
                        [(OLD_CARRIES / "game42-seq96-engine-69cc55d.carry").read_bytes()])
        elif how == "stale version":
            store.query("UPDATE game_states SET ruleset_version = '0.0.1'")
        else:
            store.query("UPDATE game_states SET seq = seq - 1")
        for seq in range(half, len(envelopes)):
            store.append(game_id, seq, [envelopes[seq]])
        assert stored(store, game_id) == whole


def test_an_append_after_an_ingest_continues_the_ingested_game(tmp_path):
    """Ingest keeps the carry at the head: the first append after it resumes the game from it."""
    path = SAMPLES / "game42.jsonl"
    envelopes = envelopes_of(path)
    whole = ingested(tmp_path, path)
    game_id = whole["game"]["game_id"]
    db = tmp_path / "appended.duckdb"
    with open_store(db) as store:
        store.ingest_read(read_log(_prefix(tmp_path, path, 40)))
        assert carry_seq(store, game_id) == 39
    with open_store(db) as store:
        for seq in range(40, len(envelopes), 7):
            store.append(game_id, seq, envelopes[seq:seq + 7])
        assert stored(store, game_id) == whole


def _prefix(tmp_path, path, n: int):
    """The file of the first `n` lines of a log."""
    out = tmp_path / f"first-{n}-{path.name}"
    out.write_text("".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:n]),
                   encoding="utf-8")
    return out


def test_re_sending_and_conflicts_still_hold_with_a_carry(tmp_path):
    from ledger.store import ConcurrencyConflict

    envelopes = envelopes_of(SAMPLES / "game42.jsonl")
    with open_store(tmp_path / "s.duckdb") as store:
        store.append("game42", 0, envelopes[:5])
        head = store.append("game42", 3, envelopes[3:5])      # a re-send: nothing written
        assert head.seq == 4 and len(store.events("game42")) == 5
        with pytest.raises(ConcurrencyConflict):
            store.append("game42", 4, envelopes[5:6])
        assert store.append("game42", 5, envelopes[5:6]).seq == 5


def test_the_carry_of_a_game_with_thousands_of_dice_is_made_and_resumed():
    """The dice log is a chain of (face, previous cell) as deep as the game has dice; the carry
    pickles it flat, so a long game's judge is carried past Python's recursion limit (a served
    2-player Mercenaries game failed to store its carry at about 1,700 events)."""
    import dataclasses
    import pickle
    import sys

    from engine.core.dice import logged_dice, record_dice
    faces = [1 + i % 6 for i in range(3 * sys.getrecursionlimit())]
    log, count = None, 0
    for k in range(0, len(faces), 3):
        log, count, wrong = record_dice(log, count, None, faces[k:k + 3])
        assert wrong is None
    back = pickle.loads(pickle.dumps(log, protocol=pickle.HIGHEST_PROTOCOL))
    assert logged_dice(back) == faces and count == len(faces)
    read = read_log(SAMPLES / "sim-0010.jsonl")
    j = judge_module.Judge(keep_steps=False)
    j.start(read)
    for raw in read.events[1:-1]:
        j.feed(raw)
    j.state = dataclasses.replace(j.state, dice=j.state.dice.rolled(log, count))
    again = judge_module.Judge.resume(j.carry())
    assert logged_dice(again.state.dice.log) == faces


@pytest.mark.parametrize("name", ["game42-seq96-engine-69cc55d.carry",
                                  "legacy-game-01-seq11-engine-69cc55d.carry"])
def test_a_carry_an_older_engine_made_is_refused_not_resumed_wrongly(name):
    """Its state would load into today's classes field by field (a slotted State: each value into
    the field at its position), or without the fields they have now; the carry names the fields
    of its records, so it is refused, and the store judges the whole game."""
    import pickle

    with pytest.raises(pickle.UnpicklingError, match="an older engine made it"):
        judge_module.Judge.resume((OLD_CARRIES / name).read_bytes())


def test_a_carry_whose_records_had_other_fields_is_refused():
    import pickle

    read = read_log(SAMPLES / "game42.jsonl")
    j = judge_module.Judge(keep_steps=False)
    j.start(read)
    for raw in read.events[1:40]:
        j.feed(raw)
    name, layout, body = j.carry().split(b"\n", 2)
    records = json.loads(layout)
    assert records["engine.core.dice:DiceState"] == ["mode", "seed_hash", "log", "count", "tape"]
    assert judge_module.Judge.resume(j.carry()).last_seq == j.last_seq
    records["engine.core.dice:DiceState"] = ["mode", "seed_hash", "log", "count"]
    with pytest.raises(pickle.UnpicklingError, match="engine.core.dice:DiceState had the fields"):
        judge_module.Judge.resume(b"\n".join((name, json.dumps(records).encode(), body)))
