"""JSON Schema of a log line, generated from the envelope and the ruleset's payload models (and the
log format's own RulingRecorded)."""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import ConfigDict, Field, TypeAdapter, create_model

from engine import get_ruleset
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
        model = create_model(
            prefix + type_name + "Line",
            __config__=ConfigDict(extra="forbid", title=type_name),
            v=(Literal[1], Field(description="log format version")),
            game=(str, Field(min_length=1, description="game id, the same on every line")),
            seq=(int, Field(ge=0, description="0 for the first event, then +1 per event")),
            type=(Literal[type_name], ...),  # type: ignore[valid-type]
            actor=(Optional[str], Field(description="the acting player's id; null for the table")),
            at=(Optional[str], Field(None, description="RFC 3339 timestamp (optional)")),
            payload=(payload, ...),
            prev=(Optional[str], Field(None, description="hash of the previous event; null on seq 0")),
            hash=(Optional[str], Field(None, description="sha256 of this line's canonical JSON without 'hash'")),
        )
        variants.append(model)
    return variants
