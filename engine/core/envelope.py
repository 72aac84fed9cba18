"""The envelope of a log line, defined once (issue #11): each key, its type, whether it must be
there, whether it may be null, its bounds, and what it means. Everything else derives from this
table:

- the log reader (replay/logfile.py): the keys and their order, the required ones, the bounds,
  the words of its LOG-ENVELOPE messages, and the check of one key (`EnvelopeField.accepts`).
  The reader's fast path checks a whole envelope in one expression written out by hand for
  speed; tests/test_envelope.py checks that it accepts exactly what this table accepts.
- `ledger schema` (ledger/schema.py): the pydantic model of a line, `envelope_model(...)`, with
  a ruleset's event type and payload model in place of the generic ones.
- the reader's one-pass decode of a written line (`envelope_struct()`, a msgspec struct): the
  same keys, types and bounds, checked while the line is parsed.

The table is plain data, so that reading a log never imports pydantic; the model is built when
first asked for. docs/log-format.md describes the same keys in prose."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Optional

from engine.core.record import FORMAT_VERSION

MAX_SEQ = 2**53 - 1
"""The largest seq: the largest integer every JSON reader reads exactly (RFC 8259, section 6)."""


@dataclass(frozen=True)
class EnvelopeField:
    """One key of the envelope. `kind`: the JSON type of its value (int, str or dict: an
    object); `required`: a line without it is no event; `nullable`: null is a value it may
    take; `const`, `min_length`, `ge`, `le`: the bounds of its value; `expected`: the value in
    words, as the reader's messages say it; `description`: its meaning, as the schema says it."""

    name: str
    kind: type
    required: bool
    nullable: bool
    expected: str
    description: str
    const: Any = None
    min_length: Optional[int] = None
    ge: Optional[int] = None
    le: Optional[int] = None

    def accepts(self, value: Any) -> bool:
        """Is `value` (as JSON parsed it) a value of this key? (bool is not an int here.)"""
        if value is None:
            return self.nullable
        if type(value) is not self.kind:
            return False
        if self.const is not None and value != self.const:
            return False
        if self.min_length is not None and len(value) < self.min_length:
            return False
        if self.ge is not None and value < self.ge:
            return False
        return self.le is None or value <= self.le


ENVELOPE: tuple[EnvelopeField, ...] = (
    EnvelopeField("v", int, True, False, f"the int {FORMAT_VERSION}", "log format version",
                  const=FORMAT_VERSION),
    EnvelopeField("game", str, True, False, "a non-empty string (the game id)",
                  "game id, the same on every line", min_length=1),
    EnvelopeField("seq", int, True, False, f"an int from 0 to {MAX_SEQ:,} (2**53 - 1)",
                  "0 for the first event, then +1 per event", ge=0, le=MAX_SEQ),
    EnvelopeField("type", str, True, False, "a non-empty string (the event type)",
                  "the event type", min_length=1),
    EnvelopeField("actor", str, True, True, "a string (a player id) or null",
                  "the acting player's id; null for the table"),
    EnvelopeField("at", str, False, True, "an RFC 3339 timestamp, e.g. 2026-03-14T21:05:00Z",
                  "RFC 3339 timestamp (optional)"),
    EnvelopeField("payload", dict, True, False, "a JSON object",
                  "the event's own fields, as its type defines them"),
    EnvelopeField("prev", str, False, True, "the previous event's hash (a string) or null",
                  "hash of the previous event; null on seq 0"),
    EnvelopeField("hash", str, False, True, "a hex SHA-256 string",
                  "sha256 of this line's canonical JSON without 'hash'"),
)
"""The envelope's keys, in the order a line is written."""

FIELDS: dict[str, EnvelopeField] = {f.name: f for f in ENVELOPE}
ENVELOPE_KEYS: tuple[str, ...] = tuple(FIELDS)
REQUIRED_KEYS: tuple[str, ...] = tuple(f.name for f in ENVELOPE if f.required)


@functools.lru_cache(maxsize=None)
def envelope_model(type_name: Optional[str] = None, payload: Any = None,
                   name: str = "Envelope") -> Any:
    """The pydantic model of a line (unknown keys forbidden), made from ENVELOPE: `type` is
    `type_name` only when given (else any non-empty string) and `payload` is the `payload`
    model when given (else any JSON object). The model's title is `type_name` (or "Envelope").
    Strict, as JSON is: 1.0, "1" and true are not the int 1."""
    from typing import Annotated, Literal

    from pydantic import BeforeValidator, ConfigDict, Field, create_model

    fields: dict[str, Any] = {}
    for f in ENVELOPE:
        annotation: Any = f.kind if f.kind is not dict else dict[str, Any]
        if f.const is not None:     # a Literal takes true for 1, even when strict
            annotation = Annotated[Literal[f.const], BeforeValidator(_of_kind(f.kind))]  # type: ignore[valid-type]
        if f.name == "type" and type_name is not None:
            annotation = Literal[type_name]  # type: ignore[valid-type]
        if f.name == "payload" and payload is not None:
            annotation = payload
        if f.nullable:
            annotation = Optional[annotation]
        bounds = {k: getattr(f, k) for k in ("min_length", "ge", "le") if getattr(f, k) is not None}
        if f.name == "type" and type_name is not None:
            bounds = {}
        default = ... if f.required else None
        fields[f.name] = (annotation, Field(default, description=f.description, **bounds))
    return create_model(name, __config__=ConfigDict(extra="forbid", strict=True,
                                                    title=type_name or "Envelope"), **fields)


@functools.lru_cache(maxsize=None)
def envelope_struct() -> Any:
    """The msgspec struct of a line, made from ENVELOPE, or None without msgspec: the required
    keys with their types and bounds, unknown keys forbidden, a key that is not required UNSET
    when absent (so that encoding the struct gives back exactly the keys the line has).

    msgspec is strict as JSON is: true is not the int 1 and 1.0 is not an int. The log reader
    decodes a written line with it in one pass (replay/logfile.py); tests/test_envelope.py
    checks that it accepts exactly what `envelope_model()` accepts."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        return None
    from typing import Annotated, Literal, Union

    fields: list[tuple] = []
    for f in ENVELOPE:
        annotation: Any = f.kind if f.const is None else Literal[f.const]  # type: ignore[valid-type]
        bounds = {k: getattr(f, k) for k in ("min_length", "ge", "le") if getattr(f, k) is not None}
        if bounds:
            annotation = Annotated[annotation, msgspec.Meta(**bounds)]
        if f.nullable:
            annotation = Optional[annotation]
        if f.required:
            fields.append((f.name, annotation))
        else:
            fields.append((f.name, Union[annotation, msgspec.UnsetType], msgspec.UNSET))
    return msgspec.defstruct("EnvelopeStruct", fields, kw_only=True, forbid_unknown_fields=True)


def _of_kind(kind: type) -> Any:
    """A validator letting through only values of exactly type `kind` (a bool is no int)."""
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise ValueError(f"expected {kind.__name__}, found {type(value).__name__}")
        return value
    return check
