"""The services the commands call (ledger/app/, issue #11: a thin CLI) work without the CLI:
plain values in, plain values out, and a LedgerError with its exit code where a command would
exit. And they never depend on the CLI: no typer, no ledger.cli* module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.core.errors import LedgerError
from ledger import exitcodes
from ledger.app import audit, campaign, db, judging, replay, verify
from ledger.app.errors import NoSuchError, UsageError
from ledger.store import StoreError
from replay.logfile import LogFileError

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
GAME42 = SAMPLES / "game42.jsonl"


def test_the_services_import_nothing_of_the_cli():
    for path in sorted((ROOT / "ledger" / "app").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in ("typer", "rich"), (path.name, name)
                assert not name.startswith("ledger.cli"), (path.name, name)


def test_verify_a_log_without_the_cli():
    j = judging.judge_file(GAME42, keep_steps=False)
    v = verify.verdict(j)
    assert v["verified"] and v["exit_code"] == exitcodes.OK
    assert [c["name"] for c in v["checks"]][:2] == ["log readable", "hash chain"]


def test_a_missing_log_is_a_log_file_error(tmp_path):
    with pytest.raises(LogFileError) as caught:
        judging.judge_file(tmp_path / "nope.jsonl")
    assert caught.value.exit_code == exitcodes.UNREADABLE


def test_audit_of_a_folder_judges_its_logs_and_sums_them_up():
    files = audit.log_files([SAMPLES / "legacy"])
    assert files and all(f.suffix == ".jsonl" for f in files)
    reports = [audit.audit_dict(j) for j in audit.judged_files(files[:3], None, False, None, 1, ())]
    assert [r["file"] for r in reports] == [str(f) for f in files[:3]]
    head = audit.audit_summary(reports)[1]
    assert head.startswith("audited 3 files")


def test_replay_filters_name_what_the_game_has():
    j = replay.judged_for_replay(GAME42)
    replay.check_filters(j, 1, None, None)
    with pytest.raises(NoSuchError) as caught:
        replay.check_filters(j, 999, None, None)
    assert caught.value.exit_code == exitcodes.NO_SUCH
    with pytest.raises(UsageError):
        replay.judged_for_replay(GAME42, seat="nobody")
    lines = replay.replay_lines(j, None, None, None)
    assert "== Result ==" in lines
    assert replay.replay_dict(j, 1, None, None)["steps"]


def test_a_store_that_must_exist_and_does_not(tmp_path):
    with pytest.raises(StoreError) as caught:
        db.open_db(str(tmp_path / "none.duckdb"), must_exist=True)
    assert "no such file" in str(caught.value) and caught.value.exit_code == exitcodes.UNREADABLE


def test_a_wait_that_is_no_number_is_a_usage_error(monkeypatch):
    monkeypatch.setenv("LEDGER_DB_WAIT", "soon")
    with pytest.raises(UsageError, match="LEDGER_DB_WAIT"):
        db.busy_wait()


def test_a_new_campaign_without_the_cli(tmp_path):
    hooks, c, path = campaign.new_campaign("earth", 7, None, None, out=tmp_path / "earth.campaign.json")
    assert Path(path).is_file() and c.name == "earth"
    with pytest.raises(UsageError, match="created once"):
        campaign.new_campaign("earth", 7, None, None, out=tmp_path / "earth.campaign.json")
    with pytest.raises(UsageError, match="key=value"):
        campaign.pairs("A1", "--stickers")
    with pytest.raises(campaign.WorldRefused) as caught:
        campaign.new_campaign("mars", 7, "nobody=power", None, out=tmp_path / "mars.campaign.json")
    assert caught.value.problems and caught.value.exit_code == exitcodes.FINDINGS
    assert isinstance(caught.value, LedgerError)
