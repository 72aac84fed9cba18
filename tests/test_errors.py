"""One base error type for the project (issue #11): every error the product raises on purpose
derives from engine.core.errors.LedgerError and carries the exit code (ledger/exitcodes.py) a
command ends with; the CLI turns any LedgerError a command did not catch into its message and
that code (ledger/cli_base.py, LedgerTyper)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from analytics.lake import LakeError
from engine.core.chance import DrawError
from engine.core.data import DataErrors, DataShapeError
from engine.core.errors import LedgerError
from engine.core.record import SimulationError
from ledger import exitcodes
from ledger.app.campaign import WorldRefused
from ledger.app.errors import NoSuchError, UsageError
from ledger.campaign import CampaignError
from ledger.cli_base import LedgerTyper
from ledger.datafiles import DataFileError
from ledger.rulings import RulingRefused
from ledger.store import GameNotFound, StoreBusy, StoreError
from ledger.tournament import ReportError
from ledger.tournament_scoring import ScoringError
from ledger.tournament_sheet import SheetError
from replay.logfile import LogFileError
from engine.risk_europe.missions import MissionDataError
from engine.risk_europe.odds import BattleParseError
from engine.risk_europe.variants import VariantError
from engine.risk_legacy.odds import AttackParseError
from engine.risk_legacy.world import WorldError

EXIT_CODES = [
    (LogFileError, exitcodes.UNREADABLE),
    (StoreError, exitcodes.UNREADABLE),
    (CampaignError, exitcodes.UNREADABLE),
    (DataFileError, exitcodes.UNREADABLE),
    (ScoringError, exitcodes.UNREADABLE),
    (SheetError, exitcodes.UNREADABLE),
    (ReportError, exitcodes.UNREADABLE),
    (LakeError, exitcodes.UNREADABLE),
    (DrawError, exitcodes.UNREADABLE),
    (SimulationError, exitcodes.UNREADABLE),
    (DataShapeError, exitcodes.INVALID_DATA),
    (DataErrors, exitcodes.INVALID_DATA),
    (UsageError, exitcodes.USAGE),
    (NoSuchError, exitcodes.NO_SUCH),
    (WorldRefused, exitcodes.FINDINGS),
    (MissionDataError, exitcodes.INVALID_DATA),
    (VariantError, exitcodes.UNREADABLE),
    (BattleParseError, exitcodes.USAGE),
    (AttackParseError, exitcodes.USAGE),
    (WorldError, exitcodes.UNREADABLE),
]


@pytest.mark.parametrize("cls,code", EXIT_CODES, ids=[c.__name__ for c, _ in EXIT_CODES])
def test_every_error_is_a_ledger_error_with_its_exit_code(cls, code):
    assert issubclass(cls, LedgerError)
    assert cls.exit_code == code


def test_the_errors_keep_their_older_bases():
    # code that catches ValueError / KeyError / RuntimeError around them still catches them
    assert issubclass(DataFileError, ValueError) and issubclass(DataShapeError, ValueError)
    assert issubclass(GameNotFound, KeyError) and issubclass(StoreBusy, StoreError)
    assert issubclass(SimulationError, RuntimeError) and issubclass(DrawError, ValueError)


def test_a_refused_ruling_says_its_exit_code():
    assert RulingRefused("x", no_such=True).exit_code == exitcodes.NO_SUCH
    assert RulingRefused("x", malformed=True).exit_code == exitcodes.MALFORMED
    assert RulingRefused("x").exit_code == exitcodes.USAGE


def test_a_command_ends_on_a_ledger_error_with_its_message_and_code():
    app = LedgerTyper()

    @app.command()
    def boom(kind: str) -> None:
        if kind == "store":
            raise StoreError("the store x.duckdb is broken")
        if kind == "such":
            raise NoSuchError("no round 99 (rounds 1-8)")
        raise ValueError("a bug, not an input problem")

    @app.command()
    def other() -> None:
        raise typer.Exit(0)

    runner = CliRunner()
    res = runner.invoke(app, ["boom", "store"])
    assert res.exit_code == exitcodes.UNREADABLE
    assert "ledger: the store x.duckdb is broken" in res.output
    res = runner.invoke(app, ["boom", "such"])
    assert res.exit_code == exitcodes.NO_SUCH and "ledger: no round 99" in res.output
    res = runner.invoke(app, ["boom", "bug"])          # anything else is a crash, as before
    assert isinstance(res.exception, ValueError)


def test_the_cli_ends_an_unreadable_log_with_exit_2(tmp_path):
    from ledger.cli import app
    res = CliRunner().invoke(app, ["verify", str(tmp_path / "missing.jsonl")])
    assert res.exit_code == exitcodes.UNREADABLE
    assert "missing.jsonl" in res.output
