"""One envelope definition (issue #11): engine/core/envelope.py's table is what `ledger schema`
publishes and what the log reader checks. The reader's fast path spells the check out by hand
(for speed), so these tests hold it to the definition: every combination of good and bad values
of the required keys is kept or dropped by the reader exactly when the pydantic model made from
the definition accepts or refuses it."""

from __future__ import annotations

import itertools
import json

import pytest
from pydantic import ValidationError

from engine.core.envelope import (
    ENVELOPE, ENVELOPE_KEYS, FIELDS, MAX_SEQ, REQUIRED_KEYS, envelope_model, envelope_struct,
)
from ledger.schema import log_line_schema
from replay import logfile
from replay.logfile import read_log_text

MISSING = object()

VALUES = {
    "v": [1, 2, True, "1", None, 1.0, MISSING],
    "game": ["g1", "", 5, None, MISSING],
    "seq": [0, 7, MAX_SEQ, MAX_SEQ + 1, -1, True, 1.5, "0", None, MISSING],
    "type": ["GameStarted", "", None, 3, MISSING],
    "actor": ["ann", None, 5, [], MISSING],
    "payload": [{}, {"a": 1}, [], None, "x", MISSING],
}


def _model_accepts(env: dict) -> bool:
    try:
        envelope_model().model_validate(env, strict=True)
        return True
    except ValidationError:
        return False


def _reader_keeps(env: dict) -> bool:
    read = read_log_text(json.dumps(env) + "\n", "t.jsonl")
    return bool(read.events)


def test_the_reader_uses_the_one_definition():
    assert logfile.ENVELOPE_KEYS == ENVELOPE_KEYS == tuple(f.name for f in ENVELOPE)
    assert logfile.MAX_SEQ == MAX_SEQ
    assert set(REQUIRED_KEYS) == {"v", "game", "seq", "type", "actor", "payload"}
    assert tuple(envelope_model().model_fields) == ENVELOPE_KEYS


def test_the_reader_keeps_exactly_the_envelopes_the_model_accepts():
    keys = list(VALUES)
    disagreements = []
    for values in itertools.product(*(VALUES[k] for k in keys)):
        env = {k: v for k, v in zip(keys, values) if v is not MISSING}
        if _reader_keeps(env) != _model_accepts(env):
            disagreements.append(env)
    assert not disagreements, disagreements[:5]


def _struct_accepts(env: dict) -> bool:
    import msgspec
    try:
        msgspec.json.decode(json.dumps(env), type=envelope_struct())
        return True
    except msgspec.ValidationError:
        return False


def test_the_one_pass_struct_accepts_exactly_the_envelopes_the_model_accepts():
    # the struct the reader decodes a written line with (replay/logfile.py) is the definition too
    keys = list(VALUES)
    disagreements = []
    for values in itertools.product(*(VALUES[k] for k in keys)):
        env = {k: v for k, v in zip(keys, values) if v is not MISSING}
        if _struct_accepts(env) != _model_accepts(env):
            disagreements.append(env)
    assert not disagreements, disagreements[:5]
    good = {"v": 1, "game": "g1", "seq": 0, "type": "GameStarted", "actor": None, "payload": {}}
    for key in ("at", "prev", "hash"):
        for value in ["2026-03-14T21:05:00Z", "ab" * 32, None, 0, True, {}, [], ""]:
            env = {**good, key: value}
            assert _struct_accepts(env) == _model_accepts(env), (key, value)
    assert not _struct_accepts({**good, "extra": 1}) and not _model_accepts({**good, "extra": 1})
    assert tuple(envelope_struct().__struct_fields__) == ENVELOPE_KEYS


@pytest.mark.parametrize("field", ENVELOPE, ids=[f.name for f in ENVELOPE])
def test_one_key_is_accepted_as_the_model_accepts_it(field):
    good = {"v": 1, "game": "g1", "seq": 0, "type": "GameStarted", "actor": None, "payload": {}}
    for value in [*VALUES.get(field.name, []), "2026-03-14T21:05:00Z", "ab" * 32, 0, {}, None]:
        if value is MISSING:
            continue
        assert field.accepts(value) == _model_accepts({**good, field.name: value}), (field.name, value)


def test_ledger_schema_publishes_the_same_envelope():
    schema = log_line_schema("risk-europe")
    line = schema["$defs"]["GameStartedLine"]
    assert list(line["properties"]) == list(ENVELOPE_KEYS)
    assert set(line["required"]) == set(REQUIRED_KEYS)
    assert line["additionalProperties"] is False
    for f in ENVELOPE:
        assert line["properties"][f.name]["description"] == f.description
    assert line["properties"]["seq"]["maximum"] == MAX_SEQ == FIELDS["seq"].le
    assert line["properties"]["v"]["const"] == FIELDS["v"].const


def test_the_reader_messages_say_the_value_in_the_definitions_words():
    read = read_log_text(json.dumps({"v": 1, "game": "", "seq": 0, "type": "GameStarted",
                                     "actor": None, "payload": {}}) + "\n", "t.jsonl")
    messages = [p.message for p in read.problems if p.rule == "LOG-ENVELOPE"]
    assert any(FIELDS["game"].expected in m for m in messages), messages
