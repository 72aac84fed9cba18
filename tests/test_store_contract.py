"""The event store's contract, written once: every backend subclasses StoreContract with a
`location` fixture (where an empty store is) and passes these: DuckDB (a file) and PostgreSQL (a
database on a real server, tests/pg_support.py: skipped saying why where none can be started, a
failure on CI)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from freezegun import freeze_time

from engine.risk_europe import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.campaign import setup_of
from ledger.ingest import ingest_paths
from replay.logfile import format_line, read_log, read_log_text
from ledger.store import (
    ConcurrencyConflict, EventStore, GameNotFound, InvalidAppend, StoreError, load_log_from_store,
    open_store,
)
from tests.pg_support import pg_server, pg_url  # noqa: F401  (fixtures)
from tests.test_store_support import SAMPLES, game, text_of

LEGACY = SAMPLES / "legacy"
CAMPAIGN = [LEGACY / f"game-0{n}.jsonl" for n in range(1, 6)]     # Risk Legacy, games 1-5
WRONG_WORLD = LEGACY / "broken-wrong-world.jsonl"                   # game 6, ignoring game 2's scars


def read_of(envelopes: list[dict], name: str = "game.jsonl", tail: str = ""):
    return read_log_text(text_of(envelopes) + tail, name)


def lines_of(envelopes: list[dict]) -> list[str]:
    return [format_line(e) for e in envelopes]


def other_history(game_id: str, from_seq: int) -> list[dict]:
    """The same game with a different event at `from_seq` (its time), re-sealed."""
    envelopes = game(game_id)
    envelopes[from_seq] = dict(envelopes[from_seq], at="2026-03-14T21:00:00Z")
    from replay.logfile import seal
    return seal(envelopes)


class StoreContract:
    """What every store does. Subclasses provide the `location` fixture (where an empty store
    is: a file, a database URL)."""

    @pytest.fixture
    def location(self) -> str:  # pragma: no cover - provided by each backend
        raise NotImplementedError

    @pytest.fixture
    def store(self, location) -> EventStore:
        store = open_store(location)
        yield store
        store.close()

    # -- ingest

    def test_a_new_game_is_stored_whole_with_its_judgement(self, store):
        envelopes = game("g1")
        outcome = store.ingest_read(read_of(envelopes))
        assert (outcome.status, outcome.events_added, outcome.winners) == ("new", 195, ["blue"])
        assert store.events("g1") == lines_of(envelopes)
        assert store.head("g1").seq == 194 and store.head("g1").hash == envelopes[-1]["hash"]
        stored = store.game("g1")
        assert stored.players == ["blue", "orange", "red", "green"]
        assert stored.winners == ["blue"] and stored.rounds == 7 and stored.finding_count == 0
        assert stored.ruleset == "risk-europe" and stored.ruleset_version == RULESET.version
        assert stored.data_digest and stored.played_on == date(2026, 3, 14)
        assert store.snapshot("g1").seq == 194 and store.snapshot("g1").state["round"] == 7
        assert [g.game_id for g in store.games()] == ["g1"]

    def test_reingesting_the_same_log_is_a_no_op(self, store):
        store.ingest_read(read_of(game("g1")))
        before = store.game("g1")
        outcome = store.ingest_read(read_of(game("g1"), name="copy.jsonl"))
        assert (outcome.status, outcome.events_added, outcome.event_count) == ("present", 0, 195)
        assert store.game("g1") == before and len(store.events("g1")) == 195

    def test_a_longer_log_extends_the_stored_game_with_only_its_new_events(self, store):
        full = game("g1")
        first = store.ingest_read(read_of(full[:100]))
        assert first.status == "new" and first.winners is None  # not over yet
        outcome = store.ingest_read(read_of(full))
        assert (outcome.status, outcome.events_added, outcome.event_count) == ("extended", 95, 195)
        assert outcome.winners == ["blue"] and store.game("g1").winners == ["blue"]
        assert store.events("g1") == lines_of(full)
        assert store.snapshot("g1").seq == 194

    def test_a_shorter_log_of_a_stored_game_is_already_present(self, store):
        store.ingest_read(read_of(game("g1")))
        assert store.ingest_read(read_of(game("g1")[:50])).status == "present"

    def test_a_log_that_contradicts_the_stored_game_is_refused_at_its_first_differing_seq(
            self, store):
        store.ingest_read(read_of(game("g1")))
        outcome = store.ingest_read(read_of(other_history("g1", 50), name="other.jsonl"))
        assert outcome.status == "rejected"
        reject = outcome.rejects[0]
        assert (reject.rule, reject.file, reject.seq, reject.line) == \
            ("STORE-CONTRADICTS", "other.jsonl", 50, 51)
        assert "seq 50" in reject.message and "unchanged" in reject.message
        assert store.events("g1") == lines_of(game("g1"))

    def test_a_contradicting_longer_log_is_refused_too(self, store):
        store.ingest_read(read_of(game("g1")[:100]))
        outcome = store.ingest_read(read_of(other_history("g1", 20)))
        assert outcome.status == "rejected" and outcome.rejects[0].seq == 20
        assert len(store.events("g1")) == 100

    def test_a_game_with_rule_findings_is_stored_with_them(self, store):
        outcome = store.ingest_read(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
        assert outcome.status == "new" and outcome.findings == 1
        [finding] = store.findings("game42-castle-no-siege")
        assert (finding.rule, finding.seq, finding.line, finding.kind, finding.applied) == \
            ("RE-EXPAND-CASTLE", 148, 149, "illegal", True)
        assert store.game("game42-castle-no-siege").finding_count == 1

    def test_an_unsealed_log_is_refused(self, store):
        unsealed = [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in game("u")]
        outcome = store.ingest_read(read_of(unsealed, name="u.jsonl"))
        assert outcome.status == "rejected" and outcome.rejects[0].rule == "STORE-UNSEALED"
        assert "ledger seal u.jsonl" in outcome.reason
        assert store.head("u") is None

    def test_a_broken_chain_is_refused_and_every_problem_kept(self, store):
        outcome = store.ingest_read(read_log(SAMPLES / "broken-edited-line.jsonl"))
        assert outcome.status == "rejected"
        assert [(r.rule, r.line) for r in outcome.rejects] == \
            [("STORE-CHAIN", None), ("LOG-HASH", 71)]
        assert store.head("game42-edited-line") is None
        assert [(r.rule, r.line) for r in store.rejects()] == [("STORE-CHAIN", None),
                                                              ("LOG-HASH", 71)]

    def test_a_cut_off_last_line_is_kept_in_rejects_and_the_events_before_it_stored(self, store):
        envelopes = game("g1", 30)
        cut = format_line(game("g1", 31)[30])[:40]
        outcome = store.ingest_read(read_of(envelopes, tail=cut),
                                    lines=(text_of(envelopes) + cut).split("\n"))
        assert (outcome.status, outcome.event_count) == ("new", 30)
        [reject] = store.rejects()
        assert (reject.rule, reject.line, reject.raw, reject.game_id) == \
            ("LOG-TRUNCATED", 31, cut, "g1")

    def test_a_rejected_line_is_not_kept_twice_when_the_log_is_ingested_again(self, store):
        read = read_of(game("g1", 30), tail=format_line(game("g1", 31)[30])[:40])
        store.ingest_read(read)
        outcome = store.ingest_read(read)
        assert outcome.status == "present" and len(outcome.rejects) == 1
        assert len(store.rejects()) == 1

    def test_rejects_without_events_are_kept(self, store):
        outcome = store.ingest_read(read_log_text("", "empty.jsonl"))
        assert outcome.status == "rejected" and outcome.rejects[0].rule == "STORE-NO-EVENTS"
        assert [r.file for r in store.rejects()] == ["empty.jsonl"]

    # -- append

    def test_append_seals_the_envelopes_onto_the_head_and_judges_the_game(self, store):
        envelopes = game("live")
        unsealed = [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in envelopes]
        head = store.append("live", 0, unsealed[:10])
        assert (head.seq, head.next_seq) == (9, 10)
        head = store.append("live", 10, unsealed[10:])
        assert head.hash == envelopes[-1]["hash"]
        assert store.events("live") == lines_of(envelopes)
        assert store.game("live").winners == ["blue"]

    def test_append_at_a_stale_seq_is_a_concurrency_conflict(self, store):
        envelopes = game("live")
        store.append("live", 0, envelopes[:10])
        with pytest.raises(ConcurrencyConflict) as caught:
            store.append("live", 9, [dict(envelopes[9], at="2026-03-14T20:00:00Z", hash=None)])
        assert (caught.value.expected_seq, caught.value.actual_seq) == (9, 10)
        with pytest.raises(ConcurrencyConflict):
            store.append("live", 11, envelopes[11:12])
        assert len(store.events("live")) == 10

    def test_resending_events_already_stored_is_a_no_op(self, store):
        envelopes = game("live")
        store.append("live", 0, envelopes[:10])
        head = store.append("live", 5, envelopes[5:10])
        assert head.seq == 9 and len(store.events("live")) == 10

    def test_an_envelope_that_does_not_continue_the_chain_is_refused(self, store):
        envelopes = game("live")
        store.append("live", 0, envelopes[:10])
        with pytest.raises(InvalidAppend):
            store.append("live", 10, [dict(envelopes[10], prev="0" * 64)])
        with pytest.raises(InvalidAppend):
            store.append("live", 10, [dict(envelopes[10], seq=12)])
        with pytest.raises(InvalidAppend):
            store.append("live", 10, [{"v": 1, "type": "Noted", "actor": None}])  # no payload
        assert len(store.events("live")) == 10

    # -- reading back

    def test_export_jsonl_gives_back_the_log_byte_for_byte(self, store, tmp_path):
        store.ingest_read(read_log(SAMPLES / "game42.jsonl"))
        out = store.export_jsonl("game42", tmp_path / "out" / "game42.jsonl")
        assert out.read_bytes() == (SAMPLES / "game42.jsonl").read_bytes()

    def test_load_log_from_store_reads_like_the_file(self, store):
        store.ingest_read(read_log(SAMPLES / "game42.jsonl"))
        read = load_log_from_store(store, "game42")
        assert read.chain_ok and not read.problems and read.name == "game42"
        assert [e.raw for e in read.events] == [e.raw for e in read_log(SAMPLES / "game42.jsonl").events]

    def test_events_since_a_seq_are_the_lines_from_it_on(self, store):
        store.ingest_read(read_log(SAMPLES / "game42.jsonl"))
        store.append("live", 0, game("live")[:10])
        lines = store.events("game42")
        assert lines == (SAMPLES / "game42.jsonl").read_text(encoding="utf-8").splitlines()
        for since in (0, 1, 57, len(lines) - 1):
            assert store.events("game42", since=since) == lines[since:]
        assert store.events("game42", since=len(lines)) == []
        assert store.events("live", since=8) == store.events("live")[8:] != []
        with pytest.raises(GameNotFound):
            store.events("nope", since=3)

    def test_an_unknown_game_is_not_found(self, store):
        with pytest.raises(GameNotFound):
            store.events("nope")
        assert store.head("nope") is None and store.game("nope") is None

    def test_recheck_of_games_judged_by_this_engine_changes_nothing(self, store):
        store.ingest_read(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
        assert store.recheck() == []
        assert store.game("game42-castle-no-siege").finding_count == 1

    def test_memo_values_another_writer_stored_first_are_kept_once(self, store):
        from engine.core.memo import Memo
        ingest_paths(store, [SAMPLES / "sim-0001.jsonl"])
        memo = "SELECT kind, key, value FROM memo ORDER BY kind, key"
        kept = store.query(memo).rows()
        assert kept
        store._memo = Memo()     # as if another writer had stored them since this one read the table
        assert store.recheck() == []
        assert store.query(memo).rows() == kept

    def test_check_passes_on_stored_games(self, store):
        store.ingest_read(read_of(game("g1")))
        store.ingest_read(read_of(game("g2")[:60]))
        report = store.check()
        assert report.ok, report.problems
        assert (report.games, report.events) == (2, 255)

    def test_stamps_are_utc_when_stored_and_when_extended(self, store):
        with freeze_time("2026-03-15 12:00:00"):
            store.ingest_read(read_of(game("g1")[:50]))
        with freeze_time("2026-03-16 08:30:00"):
            store.ingest_read(read_of(game("g1")))
        stored = store.game("g1")
        assert stored.ingested_at == datetime(2026, 3, 15, 12, 0)
        assert stored.updated_at == stored.judged_at == datetime(2026, 3, 16, 8, 30)


    # -- many writers: a second store on the same database

    def test_a_second_writer_behind_the_head_gets_a_conflict_then_catches_up(self, store,
                                                                            location):
        envelopes = game("live")
        store.append("live", 0, envelopes[:10])
        with open_store(location) as other:
            other.append("live", 10, envelopes[10:12])       # past the first store's live judge
        with pytest.raises(ConcurrencyConflict) as caught:
            store.append("live", 10, [dict(envelopes[10], at="2026-03-14T20:00:00Z", hash=None)])
        assert (caught.value.expected_seq, caught.value.actual_seq) == (10, 12)
        head = store.append("live", 12, envelopes[12:])
        assert head.hash == envelopes[-1]["hash"] and store.events("live") == lines_of(envelopes)
        assert store.game("live").winners == ["blue"] and store.check().ok

    def test_two_stores_appending_the_same_new_game_one_wins(self, store, location):
        envelopes = game("new")
        with open_store(location) as other:
            other.append("new", 0, envelopes[:5])
            with pytest.raises(ConcurrencyConflict):
                store.append("new", 0, [dict(envelopes[0], at="2026-03-14T20:00:00Z", hash=None)])
            assert store.append("new", 0, envelopes[:5]).seq == 4    # the same events: no-op
        assert len(store.events("new")) == 5

    # -- rejects kept once

    def test_recorded_rejects_are_kept_once(self, store):
        from ledger.store import Reject
        reject = Reject("x.jsonl", 3, 2, "g", "LOG-JSON", "line 3 is not JSON", "{oops")
        store.record_rejects([reject, reject])
        store.record_rejects([reject])
        [kept] = store.rejects()
        assert (kept.file, kept.line, kept.seq, kept.rule, kept.raw) == \
            ("x.jsonl", 3, 2, "LOG-JSON", "{oops")

    # -- check finds what is broken

    def test_check_finds_an_event_gone_missing(self, store):
        store.ingest_read(read_of(game("g1")))
        store.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", ["g1", 50])
        report = store.check()
        assert not report.ok
        assert any("events are not contiguous" in p for p in report.problems), report.problems
        assert any("the games table counts 195 events" in p for p in report.problems)

    # -- export

    def test_export_parquet_writes_one_file_per_game_in_its_partition(self, store, tmp_path):
        import polars as pl
        store.ingest_read(read_of(game("g1")))
        store.ingest_read(read_of(game("g/2")[:40]))
        lake = store.export_parquet(tmp_path / "lake")
        files = sorted(p.relative_to(lake).as_posix() for p in lake.rglob("*.parquet"))
        assert files[0] == "ruleset=risk-europe/date=2026-03-14/g1.parquet" and len(files) == 2
        frame = pl.read_parquet(lake / files[0])
        assert frame.height == 195 and frame["seq"].to_list() == list(range(195))
        assert frame["raw"].to_list() == lines_of(game("g1"))
        assert {"game_id", "type", "actor", "payload", "prev", "hash", "ruleset_version"} <= \
            set(frame.columns)
        assert store.export_parquet(tmp_path / "lake") == lake           # again: the same lake
        assert sorted(p.relative_to(lake).as_posix() for p in lake.rglob("*.parquet")) == files

    # -- recheck

    def test_recheck_tells_a_game_whose_judgement_changed(self, store):
        store.ingest_read(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
        store.execute("DELETE FROM findings WHERE game_id = ?", ["game42-castle-no-siege"])
        store.execute("UPDATE games SET finding_count = 0, winners = NULL, result = NULL "
                      "WHERE game_id = ?", ["game42-castle-no-siege"])
        [change] = store.recheck()
        assert (change.game_id, change.findings_before, change.findings_after) == \
            ("game42-castle-no-siege", 0, 1)
        assert change.result_changed and store.game("game42-castle-no-siege").finding_count == 1
        assert store.recheck() == [] and store.check().ok

    # -- campaigns

    def test_campaign_games_are_linked_to_the_game_before_them(self, store):
        report = ingest_paths(store, list(reversed(CAMPAIGN)))        # stored in game order
        assert [o.status for o in report.outcomes] == ["new"] * 5
        rows = store.campaign_games("earth")
        assert [(r.game_id, r.game_no, r.status) for r in rows] == \
            [(f"earth-0{n}", n, "fits") for n in range(1, 6)]
        assert [r.world_before for r in rows[1:]] == [r.world_after for r in rows[:-1]]
        assert [c.name for c in store.campaigns()] == ["earth"] and store.check().ok

    def test_a_campaign_game_waits_for_its_predecessor_then_is_flagged(self, store):
        ingest_paths(store, [CAMPAIGN[0], WRONG_WORLD])
        [waiting] = store.campaign_findings("earth-06-wrong-world")
        assert waiting.rule == "RL-CAMPAIGN-ORDER"
        [*_, last] = ingest_paths(store, CAMPAIGN[1:]).outcomes
        assert [(c["game_id"], c["status"]) for c in last.relinked] == \
            [("earth-06-wrong-world", "wrong-world")]
        [finding] = store.campaign_findings("earth-06-wrong-world")
        assert finding.rule == "RL-CAMPAIGN-WORLD" and finding.seq == 0
        assert [o.status for o in ingest_paths(store, CAMPAIGN).outcomes] == ["present"] * 5
        assert store.recheck() == [] and store.check().ok

    def test_a_created_campaign_fixes_the_world_its_game_1_starts_from(self, store):
        world0 = read_log(CAMPAIGN[0]).events[0].payload["world"]
        world = W.world_from_dict(world0)
        store.create_campaign("earth", "risk-legacy", world0, W.world_digest(world),
                              setup_of(world))
        ingest_paths(store, [CAMPAIGN[0]])
        [row] = store.campaign_games("earth")
        assert (row.status, store.campaign_findings("earth-01")) == ("fits", [])
        [campaign] = store.campaigns()
        assert campaign.world0 == world0 and campaign.world0_digest == W.world_digest(world)
        with pytest.raises(StoreError):
            store.create_campaign("earth", "risk-legacy", world0, W.world_digest(world),
                                  setup_of(world))

    # -- analytics read the store the same way on every backend

    def test_the_analytics_tables_load_from_the_store(self, store):
        from analytics.load import load_tables
        ingest_paths(store, [SAMPLES / "game42.jsonl", SAMPLES / "broken-castle-no-siege.jsonl"])
        tables = load_tables(store)
        assert tables.games.collect()["game_id"].to_list() == ["game42"]      # the clean one
        assert [g.game_id for g in tables.selection.left_out] == ["game42-castle-no-siege"]
        assert tables.players.collect().height == 4


class TestDuckDBStore(StoreContract):
    @pytest.fixture
    def location(self, tmp_path):
        return str(tmp_path / "store.duckdb")


class TestPostgresStore(StoreContract):
    """The same contract on a real PostgreSQL server (tests/pg_support.py; skipped, saying why,
    where none can be started, and a failure on CI)."""

    @pytest.fixture
    def location(self, pg_url):
        return pg_url
