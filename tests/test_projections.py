"""The analytics tables rulesets declare (engine.core.projection.Projection) are the tables the
store creates and analytics.extract fills: same names, same columns, same order, same keys, and a
ruleset's new projection gets its table (or a stored table its new column) with no change in the
store."""

from __future__ import annotations

from dataclasses import replace

from analytics.extract import COLUMNS, POLARS_TYPES, projections
from engine.core import ruleset as registry
from engine.core.projection import Projection
from engine.core.ruleset import rulesets
from ledger.store import ANALYTICS_TABLES, open_store
from ledger.store.analytics_tables import SQL_TYPES


def stored_columns(store, table: str) -> list[tuple[str, str]]:
    """(column, SQL type) of a stored table, in the table's order."""
    return [(r["column_name"], r["data_type"]) for r in store.query(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
        "ORDER BY ordinal_position", [table]).iter_rows(named=True)]


def stored_key(store, table: str) -> list[str]:
    keys = store.query("SELECT constraint_column_names AS k FROM duckdb_constraints() "
                       "WHERE table_name = ? AND constraint_type = 'PRIMARY KEY'", [table])
    return list(keys["k"][0]) if keys.height else []


def test_the_store_creates_each_projection_with_its_columns_in_order_and_its_key(tmp_path):
    declared = projections()
    assert declared, "no ruleset declares an analytics table"
    assert ANALYTICS_TABLES == tuple(declared)
    with open_store(tmp_path / "s.duckdb") as store:
        for table, p in declared.items():
            assert stored_columns(store, table) == [(c, SQL_TYPES[t]) for c, t in p.columns.items()]
            assert stored_key(store, table) == list(p.key), table


def test_the_polars_schemas_are_the_projections_column_types():
    for table, p in projections().items():
        assert COLUMNS[table] == {c: POLARS_TYPES[t] for c, t in p.columns.items()}


def test_a_table_several_rulesets_list_is_declared_the_same_by_each():
    seen = {}
    for rs in rulesets():
        for p in rs.projections:
            assert seen.setdefault(p.table, p.columns) == p.columns, (rs.name, p.table)


def test_a_new_projection_gets_its_table_and_a_new_column_is_added(tmp_path, monkeypatch):
    """A ruleset that declares another table, or another column of a table a store already
    holds, gets them when the store opens; the rows stored before hold null there."""
    rs = next(r for r in rulesets() if r.projections)
    old = rs.projections[0]
    grown = Projection(old.table, {**old.columns, "extra_note": "str"}, old.key, old.doc)
    fresh = Projection("a_new_table", {"game_id": "str", "n": "int", "when": "date"},
                       ("game_id", "n"))
    db = tmp_path / "s.duckdb"
    with open_store(db):
        pass
    monkeypatch.setitem(registry._registered, rs.name,
                        replace(rs, projections=(grown, *rs.projections[1:], fresh)))
    with open_store(db) as store:
        assert stored_columns(store, old.table)[-1] == ("extra_note", "VARCHAR")
        assert stored_columns(store, "a_new_table") == [
            ("game_id", "VARCHAR"), ("n", "INTEGER"), ("when", "DATE")]
        assert stored_key(store, "a_new_table") == ["game_id", "n"]
