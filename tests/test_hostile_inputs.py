"""Every bad input a hostile tester feeds `ledger`, to every command that reads a log or a store:
no traceback, the documented exit code (README, "Exit codes"; ledger/exitcodes.py), and a message
that names the file (#16).

The inputs: a malformed line, NaN, a 500-digit seq, JSON nested too deeply on line 1, a file cut
off mid-line, binary data, an empty DuckDB file, a directory, a FIFO (named pipe) and a missing
path; a file of concatenated games. A FIFO with no writer would make a naive open() wait forever:
a watcher unblocks it and fails the test, so a regression fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from ledger import exitcodes
from ledger.cli import app
from tests.test_store_support import SAMPLES, game, text_of

runner = CliRunner()
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")

OK, FINDINGS, UNREADABLE, MALFORMED = (exitcodes.OK, exitcodes.FINDINGS, exitcodes.UNREADABLE,
                                       exitcodes.MALFORMED)


@pytest.fixture(autouse=True)
def unblocker(inputs):
    """Fail, not hang, when a command blocks on the FIFO: after a while, feed it bytes and an
    end-of-file (whoever opened it, Python or DuckDB, then gets on), and fail the test."""
    fifo = inputs["fifo"]
    blocked = threading.Event()
    done = threading.Event()

    def watch() -> None:
        if done.wait(10):
            return
        while not done.is_set():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)   # fails while no one reads
            except OSError:
                done.wait(0.2)
                continue
            blocked.set()
            try:
                os.write(fd, b"\0" * 4096)
            except OSError:
                pass
            os.close(fd)
            done.wait(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    yield
    done.set()
    watcher.join()
    assert not blocked.is_set(), "a command opened the FIFO and waited for a writer"


def _lines() -> list[str]:
    return (SAMPLES / "game42.jsonl").read_text("utf-8").splitlines()


def _make_inputs(folder: Path) -> dict[str, Path]:
    lines = _lines()
    made = {}

    def put(name: str, text: str | bytes) -> None:
        path = folder / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        made[name.split(".")[0]] = path

    put("malformed.jsonl", "\n".join(lines[:50] + [lines[50][:40]] + lines[51:]) + "\n")
    put("nan.jsonl", "\n".join(lines[:5] + [lines[5].replace('"payload":{', '"payload":{"x":NaN,')]
                               + lines[6:]) + "\n")
    seq5 = json.loads(lines[5])["seq"]
    put("hugeint.jsonl", "\n".join(lines[:5] + [lines[5].replace(f'"seq":{seq5}', '"seq":' + "9" * 500)]
                                   + lines[6:]) + "\n")
    put("nested.jsonl", "[" * 100_000 + "]" * 100_000 + "\n" + "\n".join(lines[1:]) + "\n")
    put("truncated.jsonl", "\n".join(lines[:100]) + "\n" + lines[100][:30])
    put("binary.jsonl", bytes(range(256)) * 8)
    put("many.jsonl", "".join(text_of(game(f"g{i}")) for i in range(3)))
    empty_db = folder / "empty.duckdb"
    duckdb.connect(str(empty_db)).close()            # a DuckDB file with no ledger tables
    made["emptydb"] = empty_db
    (folder / "folder").mkdir()
    made["directory"] = folder / "folder"
    os.mkfifo(folder / "pipe.jsonl")
    made["fifo"] = folder / "pipe.jsonl"
    made["missing"] = folder / "missing.jsonl"
    return made


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    return _make_inputs(tmp_path_factory.mktemp("hostile"))


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def assert_handled(r, path: Path, code: int) -> None:
    """No traceback, the exit code, and the file named."""
    shown = r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), (
        f"{type(r.exception).__name__}: {r.exception}\n{shown}")
    assert "Traceback" not in shown, shown
    assert r.exit_code == code, f"exit {r.exit_code}, expected {code}:\n{shown[-2000:]}"
    assert path.name in shown, f"{path.name} is not named:\n{shown[-2000:]}"


# what each command that reads a log gives for each bad log (README, "Exit codes"): audit and
# replay 1 for findings, verify 3 for a malformed log; 2 for what cannot be read at all; ingest
# lists a file it cannot read among the rejected input (1); split copies any log's lines
LOGS = {
    #             audit       verify      replay      ingest      seal        split
    "malformed": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "nan": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "hugeint": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "nested": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "truncated": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "many": (FINDINGS, MALFORMED, FINDINGS, FINDINGS, MALFORMED, OK),
    "binary": (UNREADABLE, UNREADABLE, UNREADABLE, FINDINGS, UNREADABLE, UNREADABLE),
    "emptydb": (UNREADABLE, UNREADABLE, UNREADABLE, FINDINGS, UNREADABLE, UNREADABLE),
    "directory": (UNREADABLE, UNREADABLE, UNREADABLE, FINDINGS, UNREADABLE, UNREADABLE),
    "fifo": (UNREADABLE, UNREADABLE, UNREADABLE, FINDINGS, UNREADABLE, UNREADABLE),
    "missing": (UNREADABLE, UNREADABLE, UNREADABLE, FINDINGS, UNREADABLE, UNREADABLE),
}
LOG_COMMANDS = ("audit", "verify", "replay", "ingest", "seal", "split")


@pytest.mark.parametrize("kind", LOGS)
def test_every_log_command_handles_a_bad_log(inputs, kind, tmp_path):
    path = inputs[kind]
    for command, code in zip(LOG_COMMANDS, LOGS[kind]):
        extra = {"ingest": ["--db", tmp_path / "store.duckdb"],
                 "seal": ["-o", tmp_path / "sealed.jsonl"],
                 "split": ["--out", tmp_path / "split"]}.get(command, [])
        if command in ("audit", "verify", "replay"):
            extra = ["--db", tmp_path / "none.duckdb"]      # no store to look a game id up in
        r = run(command, path, *extra)
        assert_handled(r, path, code)


@pytest.mark.parametrize("kind", ["directory", "fifo", "missing", "nested", "binary", "hugeint"])
def test_campaign_files_and_data_files_that_are_bad_inputs(inputs, kind):
    path = inputs[kind]
    for args in (["campaign", "show", path], ["campaign", "audit", path],
                 ["audit", SAMPLES / "legacy" / "game-01.jsonl", "--campaign", path],
                 ["verify", SAMPLES / "game42.jsonl", "--cards", path],
                 ["verify", SAMPLES / "game42.jsonl", "--board", path],
                 ["verify", SAMPLES / "game42.jsonl", "--missions", path]):
        r = run(*args)
        assert_handled(r, path, UNREADABLE)
        assert "set_int_max_str_digits" not in r.output


# every command that reads a store, given something that is not one: exit 2, the file named
STORE_COMMANDS = (
    ["games"], ["games", "--json"], ["stats"], ["check-db"], ["recheck"],
    ["export", "--all", "--out", "{tmp}/out"], ["export", "--all", "--format", "parquet", "--out", "{tmp}/lake"],
    ["dashboard", "--out", "{tmp}/d.html"], ["campaign", "show", "earth"], ["campaign", "audit", "earth"],
    ["verify", "game42"], ["replay", "game42"], ["audit", "game42"],
)


@pytest.mark.parametrize("kind", ["emptydb", "directory", "fifo", "missing", "malformed", "binary",
                                  "truncated"])
def test_every_store_command_handles_what_is_not_a_store(inputs, kind, tmp_path):
    path = inputs[kind]
    for command in STORE_COMMANDS:
        db = path
        if kind == "emptydb":                  # a fresh copy: a writer would add the tables
            db = tmp_path / "empty.duckdb"
            shutil.copy(path, db)
        args = [a.replace("{tmp}", str(tmp_path)) for a in command]
        r = run(*args, "--db", db)
        if kind == "emptydb" and command == ["recheck"]:
            assert r.exit_code == OK and "rechecked 0 games" in r.output   # a writer: tables made
            continue
        assert_handled(r, db, UNREADABLE)
        if kind == "emptydb":
            assert "is not a ledger store (no ledger tables)" in r.output


def test_a_store_killed_in_its_first_second_is_named(tmp_path):
    """A DuckDB file with some other table and none of the ledger's."""
    path = tmp_path / "half.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE notes (x INTEGER)")
    for command in (["games"], ["stats"], ["check-db"]):
        r = run(*command, "--db", path)
        assert_handled(r, path, UNREADABLE)
        assert f"{path} is not a ledger store (no ledger tables)" in r.output


def test_a_writer_given_an_empty_duckdb_file_makes_it_a_store(inputs, tmp_path):
    db = tmp_path / "empty.duckdb"
    shutil.copy(inputs["emptydb"], db)
    assert run("ingest", SAMPLES / "game42.jsonl", "--db", db).exit_code == OK
    r = run("games", "--db", db)
    assert r.exit_code == OK and "game42" in r.output
