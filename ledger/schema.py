"""JSON Schema of a log line, generated from the envelope (engine/core/envelope.py: the one
definition the log reader checks too) and the ruleset's payload models (and the log format's own
RulingRecorded)."""

from __future__ import annotations

from typing import Union

from pydantic import TypeAdapter

from engine import get_ruleset
from engine.core.envelope import envelope_model
from engine.core.rulings import RULING_EVENT, RulingRecorded
from engine.core.ruleset import ruleset_names


def log_line_schema(ruleset: str | None = None) -> dict:
    """One schema for any line of a `ruleset` log (None: of a log of any registered ruleset): the
    envelope, discriminated by "type". KeyError for a ruleset that is not registered."""
    names = [ruleset] if ruleset is not None else ruleset_names()
    variants = []
    for name in names:
        variants += _line_models(name, prefix="" if ruleset is not None else
                                 "".join(part.title() for part in name.replace("_", "-").split("-")))
    union = Union[tuple(variants)]  # type: ignore[valid-type]
    schema = TypeAdapter(union).json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = ("ledger log line, format version 1, " +
                       (f"ruleset {ruleset}" if ruleset is not None else "rulesets " + ", ".join(names)))
    schema["description"] = ("One JSON object per line. See docs/log-format.md for the hash chain, "
                             "commitments and the meaning of each event.")
    return schema


def _line_models(ruleset: str, prefix: str) -> list:
    """A pydantic model of a line per event type of `ruleset` (named `prefix` + type + "Line")."""
    rs = get_ruleset(ruleset)
    variants = []
    # a ruling is the log format's, in every game's log (engine/core/rulings.py)
    payloads = {**rs.payload_models, RULING_EVENT: RulingRecorded}
    for type_name, payload in payloads.items():
        # the envelope is engine/core/envelope.py's, the one the log reader checks
        variants.append(envelope_model(type_name, payload, prefix + type_name + "Line"))
    return variants
