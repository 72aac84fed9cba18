"""The analytics tables rulesets declare (engine.core.projection.Projection) are the tables the
store creates and analytics.extract fills: same names, same columns, same order."""

from __future__ import annotations

from analytics.extract import COLUMNS, POLARS_TYPES, projections
from engine.core.ruleset import rulesets
from ledger.store import ANALYTICS_MODELS


def test_the_store_models_have_exactly_the_columns_the_projections_declare():
    models = {m.__tablename__: m for m in ANALYTICS_MODELS}
    declared = projections()
    assert declared, "no ruleset declares an analytics table"
    for table, p in declared.items():
        assert table in models, f"the store has no table {table!r}"
        # the same set of columns (the store's models put their primary key first)
        stored = [c.name for c in models[table].__table__.columns]
        assert sorted(stored) == sorted(p.columns) and len(stored) == len(p.columns), table


def test_the_polars_schemas_are_the_projections_column_types():
    for table, p in projections().items():
        assert COLUMNS[table] == {c: POLARS_TYPES[t] for c, t in p.columns.items()}


def test_a_table_several_rulesets_list_is_declared_the_same_by_each():
    seen = {}
    for rs in rulesets():
        for p in rs.projections:
            assert seen.setdefault(p.table, p.columns) == p.columns, (rs.name, p.table)
