"""The msgspec fast path for payloads (engine/core/fast_payloads.py) takes only what the pydantic
models take, with the same values: every payload of every sample log, and each of them bent in
the ways a hand-written log bends them (a number as a string or a float, a bool for a number, a
negative count, an unknown key, a key missing, a field named by its Python name)."""

from __future__ import annotations

import copy
from pathlib import Path

import msgspec
import pytest
from pydantic import BaseModel, ValidationError

from engine.core.fast_payloads import fast_validators, validate_payload
from engine.core.ruleset import get_ruleset, ruleset_names
from replay.logfile import read_log

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_logs").rglob("*.jsonl"))

_ODD_VALUES = ("5", 5.0, 2.5, True, False, -1, 0, 1, 10**30, None, "", "x", [], [1], ["a"], {},
               {"a": 1}, {"footman": -1}, {"footman": "1"})


def _plain(value):
    """A validated payload as plain data (a struct and a model alike)."""
    if isinstance(value, msgspec.Struct):
        return {f: _plain(getattr(value, f)) for f in value.__struct_fields__}
    if isinstance(value, BaseModel):
        return {f: _plain(getattr(value, f)) for f in type(value).model_fields}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _payloads() -> list[tuple[str, str, dict]]:
    """(ruleset, event type, payload) of every event of every sample, each shape once."""
    seen, out = set(), []
    for path in SAMPLES:
        read = read_log(path)
        if not read.events or not isinstance(read.events[0].payload, dict):
            continue
        name = read.events[0].payload.get("ruleset")
        if name not in ruleset_names():
            continue
        for e in read.events:
            key = (name, e.type, repr(sorted(e.payload)) if isinstance(e.payload, dict) else "")
            if key not in seen:
                seen.add(key)
                out.append((name, e.type, e.payload))
    return out


def _bent(payload: dict):
    """The payload bent one way at a time: each value replaced, a key dropped or renamed, one
    added; and the same inside nested objects and lists of objects."""
    for key, value in payload.items():
        for odd in _ODD_VALUES:
            yield {**payload, key: odd}
        yield {k: v for k, v in payload.items() if k != key}
        yield {**{k: v for k, v in payload.items() if k != key}, key + "_": value}
        if isinstance(value, dict):
            for inner in _bent(value):
                yield {**payload, key: inner}
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for inner in _bent(value[0]):
                yield {**payload, key: [inner, *value[1:]]}
    yield {**payload, "unknown": 1}


def _model_says(model, payload):
    try:
        return model.__pydantic_validator__.validate_python(payload)
    except ValidationError:
        return None


def test_every_ruleset_has_fast_structs_for_its_common_events():
    for name in ruleset_names():
        rs = get_ruleset(name)
        assert len(fast_validators(rs.payload_models)) >= len(rs.payload_models) // 2, name


def test_fast_path_agrees_with_pydantic_on_samples_and_bent_payloads():
    checked = accepted = 0
    for name, event_type, payload in _payloads():
        rs = get_ruleset(name)
        fast = fast_validators(rs.payload_models).get(event_type)
        model = rs.payload_models.get(event_type)
        if fast is None or model is None or not isinstance(payload, dict):
            continue
        for candidate in [payload, *_bent(payload)]:
            before = copy.deepcopy(candidate)
            try:
                got = fast(candidate)
            except Exception:
                got = None
            assert candidate == before, "the fast path changed its input"
            want = _model_says(model, candidate)
            checked += 1
            if got is None:
                continue
            accepted += 1
            assert want is not None, f"{name} {event_type}: fast path took what pydantic refuses: {candidate!r}"
            assert _plain(got) == _plain(want), f"{name} {event_type}: {candidate!r}"
    assert checked > 1000 and accepted > 100


@pytest.mark.parametrize("payload", [
    {"amount": 3, "commitment": "ab"},        # exactly one of: the model's after-validator
    {},
    {"amount": "3"},                          # lax pydantic coerces; the fast path leaves it
])
def test_refused_payloads_get_pydantics_answer(payload):
    rs = get_ruleset("risk-europe")
    model = rs.payload_models["BidPlaced"]
    want = _model_says(model, payload)
    if want is None:
        with pytest.raises(ValidationError):
            validate_payload(rs.payload_models, "BidPlaced", payload)
    else:
        assert _plain(validate_payload(rs.payload_models, "BidPlaced", payload)) == _plain(want)
    with pytest.raises(Exception):
        fast_validators(rs.payload_models)["BidPlaced"](payload)


def test_alias_and_python_name():
    rs = get_ruleset("risk-europe")
    models = rs.payload_models
    by_wire = {"from": "Paris", "to": "Lyon", "units": {"footman": 2}}
    fast = fast_validators(models)["Maneuvered"](by_wire)
    assert fast.from_ == "Paris" and fast.units.footman == 2 and fast.units.siege == 0
    by_name = {"from_": "Paris", "to": "Lyon", "units": {"footman": 2}}
    with pytest.raises(Exception):
        fast_validators(models)["Maneuvered"](by_name)
    assert validate_payload(models, "Maneuvered", by_name).from_ == "Paris"   # pydantic takes it
