"""A third ruleset that ships as its own distribution: Nim (tests/toy_nim), registered through the
`ledger.rulesets` entry-point group exactly as an installed package would register, and judged,
replayed, stored and counted by the unchanged `ledger` commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core import ruleset as registry
from ledger.cli import app
from ledger.store import open_store
from replay.logfile import make_envelope, read_log, seal, write_log

runner = CliRunner()


@pytest.fixture
def nim_installed(tmp_path, monkeypatch):
    """A dist-info folder on sys.path whose entry point names tests.toy_nim:RULESET."""
    site = tmp_path / "site"
    info = site / "toy_nim-0.0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-nim\nVersion: 0.0.1\n")
    (info / "entry_points.txt").write_text("[ledger.rulesets]\ntoy-nim = tests.toy_nim:RULESET\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_found", None)        # look the entry points up again
    monkeypatch.setattr(registry, "_registered", {})
    yield
    sys.modules.pop("tests.toy_nim", None)


def nim_log(path: Path, game: str, takes: list[tuple[str, int]], winner: str | None) -> Path:
    envs = [make_envelope(game, 0, "GameStarted", None,
                          {"ruleset": "toy-nim", "players": [{"id": "ann"}, {"id": "bob"}], "stones": 7})]
    for who, n in takes:
        envs.append(make_envelope(game, len(envs), "StonesTaken", who, {"count": n}))
    envs.append(make_envelope(game, len(envs), "GameEnded", None, {"winner": winner}))
    write_log(path, seal(envs))
    return path


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_the_toy_ruleset_is_found_through_its_entry_point(nim_installed):
    assert "toy-nim" in registry.ruleset_names()
    assert registry.get_ruleset("toy-nim").title == "Nim (a test ruleset)"


def test_audit_verify_replay_ingest_games_stats_work_on_the_toy_game(nim_installed, tmp_path):
    good = nim_log(tmp_path / "good.jsonl", "nim-1", [("ann", 3), ("bob", 1), ("ann", 3)], "ann")
    bad = nim_log(tmp_path / "bad.jsonl", "nim-2", [("ann", 3), ("ann", 2), ("bob", 4), ("bob", 2)], "bob")
    db = tmp_path / "nim.duckdb"

    r = run("verify", good)
    assert r.exit_code == 0, r.output
    assert "the rules give ann" in r.output

    r = run("audit", bad, "--json")
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    rules = [(f["line"], f["rule"]) for f in out["findings"]]
    assert rules == [(3, "NIM-TURN"), (4, "NIM-TAKE")]

    r = run("verify", bad, "--winner", "ann")
    assert r.exit_code == 1 and "NIM-TURN" in r.output

    r = run("replay", good)
    assert r.exit_code == 0, r.output
    assert "ann takes 3; 0 left: ann wins" in r.output

    r = run("replay", good, "--json")
    steps = json.loads(r.output)
    assert len(steps["steps"] if isinstance(steps, dict) else steps) == 4

    r = run("ingest", good, bad, "--db", db)
    assert r.exit_code in (0, 1), r.output
    r = run("games", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    games = {g["game"]: g for g in json.loads(r.output)}
    assert set(games) == {"nim-1", "nim-2"}
    assert games["nim-1"]["ruleset"] == "toy-nim" and games["nim-1"]["winners"] == ["ann"]
    assert games["nim-2"]["findings"] == 2

    r = run("verify", "nim-1", "--db", db)
    assert r.exit_code == 0, r.output

    r = run("stats", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)

    # its analytics tables, made by the store from its projections alone
    with open_store(db, read_only=True) as store:
        assert store.query("SELECT seq, player, taken, \"left\" FROM nim_takes "
                           "WHERE game_id = 'nim-1' ORDER BY seq").rows() == [
            (1, "ann", 3, 4), (2, "bob", 1, 3), (3, "ann", 3, 0)]
        assert store.query("SELECT winner, takes FROM nim_games ORDER BY game_id").rows() == [
            ("ann", 3), ("bob", 3)]   # bob's take of 4 was skipped


def test_the_toy_game_appended_event_by_event_is_stored_as_ingested(nim_installed, tmp_path):
    path = nim_log(tmp_path / "good.jsonl", "nim-1", [("ann", 3), ("bob", 1), ("ann", 3)], "ann")
    envelopes = [json.loads(line) for line in path.read_text().splitlines()]
    tables = ("nim_takes", "nim_games", "games", "findings", "events")

    def contents(store):
        return {t: store.query(f"SELECT * EXCLUDE (ingested_at, updated_at, judged_at, source) "
                               f"FROM {t}" if t == "games" else f"SELECT * FROM {t}").rows()
                for t in tables}

    with open_store(tmp_path / "whole.duckdb") as store:
        store.ingest_read(read_log(path))
        whole = contents(store)
    with open_store(tmp_path / "appended.duckdb") as store:
        for seq, envelope in enumerate(envelopes):
            store.append("nim-1", seq, [envelope])
            assert store.query("SELECT count(*) FROM nim_games").item() == 1
        assert contents(store) == whole


# --- the record made from the package's conventional names (Ruleset.from_package) --------------

def test_the_toy_record_is_made_from_its_packages_conventional_names():
    from tests import toy_nim

    rs = toy_nim.RULESET
    assert (rs.version, rs.payload_models, rs.rules) == (toy_nim.VERSION, toy_nim.PAYLOADS, toy_nim.RULES)
    assert (rs.snapshot, rs.digest, rs.projections) == (toy_nim.board_view, toy_nim.digest, toy_nim.PROJECTIONS)
    assert rs.odds is None and rs.data_options == ()      # what the package does not define keeps its default


def _package(monkeypatch, name: str = "toy_pkg", **names) -> str:
    """A module `name` in sys.modules with the toy's conventional names, changed by `names`
    (None: left out)."""
    import types

    from tests import toy_nim

    module = types.ModuleType(name)
    for key in ("VERSION", "PAYLOADS", "RULES", "load_data", "default_data", "data_digest", "digest",
                "board_view"):
        setattr(module, key, getattr(toy_nim, key))
    for key, value in names.items():
        if value is None:
            delattr(module, key)
        else:
            setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)
    return name


def _made(package: str, **given):
    from tests import toy_nim

    return registry.Ruleset.from_package(package, name="toy", title="Toy", check_start=toy_nim.check_start,
                                         initial_state=toy_nim.initial_state, step=toy_nim.step, **given)


def test_from_package_names_the_package_and_the_name_it_does_not_define(monkeypatch):
    with pytest.raises(TypeError, match=r"^toy_pkg defines no PAYLOADS \(the record's payload_models\)$"):
        _made(_package(monkeypatch, PAYLOADS=None))


def test_from_package_names_the_hook_no_one_gives_and_its_group(monkeypatch):
    from tests import toy_nim

    with pytest.raises(TypeError, match=r"^toy_pkg gives no step \(a hook of hooks\(engine=\.\.\.\)\)$"):
        registry.Ruleset.from_package(_package(monkeypatch), name="toy", title="Toy",
                                      check_start=toy_nim.check_start, initial_state=toy_nim.initial_state)


def test_from_package_names_a_keyword_that_is_no_field_and_the_closest_one(monkeypatch):
    with pytest.raises(TypeError, match=r"^toy_pkg: the Ruleset record has no field 'scorng' "
                                        r"\(did you mean 'scoring'\?\)$"):
        _made(_package(monkeypatch), scorng=None)


def test_from_package_refuses_a_field_both_defined_and_given(monkeypatch):
    with pytest.raises(TypeError, match=r"^toy_pkg: snapshot is both defined \(board_view\) and given"):
        _made(_package(monkeypatch), snapshot=lambda s: {})


def test_from_package_refuses_a_submodule_where_a_hook_is_expected(monkeypatch):
    import types

    with pytest.raises(TypeError, match=r"^toy_pkg\.odds_of is a module, not the record's odds"):
        _made(_package(monkeypatch, odds_of=types.ModuleType("toy_pkg.odds_of")))
