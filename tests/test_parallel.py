"""Logs judged in worker processes (ledger.parallel): ingest and audit give exactly what they give
in one process, in the same order, and the store only takes work judged ahead that fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ledger.ingest as ingest_module
import ledger.parallel as parallel
from ledger.cli import app
from ledger.ingest import ingest_paths, log_paths
from replay.logfile import read_log
from ledger.parallel import ordered_map
from ledger.store import judge_for_store, open_store, read_fingerprint

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def _square(x: int) -> int:
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def test_ordered_map_keeps_the_input_order_in_worker_processes():
    assert list(ordered_map(_square, range(25), 2, window=3)) == [x * x for x in range(25)]
    assert list(ordered_map(_square, range(5), 1)) == [0, 1, 4, 9, 16]


def test_ordered_map_raises_a_workers_error_at_its_item():
    got = []
    with pytest.raises(ValueError, match="three"):
        for x in ordered_map(_fail_on_three, range(6), 2, window=2):
            got.append(x)
    assert got == [0, 1, 2]


def _store_contents(db: Path) -> dict:
    with open_store(db, read_only=True) as store:
        tables = {}
        for table in ("games", "findings", "events", "players", "snapshots", "battles", "dice",
                      "outcomes", "legacy_outcomes", "legacy_games", "campaign_games", "rejects"):
            frame = store.query(f"SELECT * FROM {table}")
            # the columns stamped with the time of the ingest differ between any two ingests, and
            # so do surrogate ids numbered by the database as it inserts a batch in parallel
            frame = frame.drop([c for c in frame.columns if c.endswith("_at") or c == "id"])
            tables[table] = sorted(json.dumps(row, default=str) for row in frame.rows())
        return tables


@pytest.fixture
def always_parallel(monkeypatch):
    """Workers for any amount of work (the sample logs are small)."""
    monkeypatch.setattr(parallel, "MIN_FILES", 1)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(ingest_module, "MIN_FILES", 1)


def test_ingest_with_workers_stores_exactly_what_one_process_stores(tmp_path, always_parallel):
    files = log_paths([SAMPLES])
    assert len(files) > 30                       # Risk Europe, variants, Legacy, broken logs
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    with open_store(one) as store:
        report1 = ingest_paths(store, files, jobs=1)
    with open_store(two) as store:
        report2 = ingest_paths(store, files, jobs=2)
        again = ingest_paths(store, files, jobs=2)
    assert [o.as_dict() for o in report1.outcomes] == [o.as_dict() for o in report2.outcomes]
    assert report2.counts()["files rejected"] > 0 and report2.counts()["games with findings"] > 0
    assert _store_contents(one) == _store_contents(two)
    assert again.counts()["games already there"] == len([o for o in report2.outcomes if o.is_stored])


def test_the_store_uses_work_judged_ahead_only_when_it_fits_the_read(tmp_path):
    read = read_log(SAMPLES / "game42.jsonl")
    ahead = judge_for_store(read)
    assert ahead is not None and ahead[0] == read_fingerprint(read)
    fingerprint, judged = ahead
    judged.game["finding_count"] = 99            # a marker: stored only if the work is used
    with open_store(tmp_path / "a.duckdb") as store:
        out = store.ingest_reads([read], prejudged=lambda r: (fingerprint, judged))[0]
        assert out.findings == 99
    stale = ((fingerprint[0] - 1, fingerprint[1]), judged)   # judged from another version of the file
    with open_store(tmp_path / "b.duckdb") as store:
        out = store.ingest_reads([read], prejudged=lambda r: stale)[0]
        assert out.findings == 0                 # judged again by the store itself


def test_a_refused_log_is_not_judged_ahead():
    read = read_log(SAMPLES / "broken-die-edited.jsonl")
    assert judge_for_store(read) is None


def test_audit_with_workers_prints_what_one_process_prints(always_parallel):
    files = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    runner = CliRunner()
    one = runner.invoke(app, ["audit", "--jobs", "1", *files])
    two = runner.invoke(app, ["audit", "--jobs", "2", *files])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout
    assert "broken-die-edited.jsonl" in two.stdout
    js1 = runner.invoke(app, ["audit", "--json", "--jobs", "1", *files])
    js2 = runner.invoke(app, ["audit", "--json", "--jobs", "2", *files])
    assert json.loads(js1.stdout) == json.loads(js2.stdout)


def test_audit_takes_a_folder(always_parallel):
    runner = CliRunner()
    res = runner.invoke(app, ["audit", "--json", str(SAMPLES / "legacy")])
    files = [r["file"] for r in json.loads(res.stdout)]
    assert files == [str(p) for p in log_paths([SAMPLES / "legacy"])]
    assert res.exit_code == 1                    # the broken copies
