"""What every ruleset's event payloads share: the pydantic base (strict fields, frozen), the
SeedRevealed payload of a seeded game (ledger dice commitments, docs/log-format.md), and the table
of payload models by event type."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator


class Payload(BaseModel):
    """A payload: unknown fields refused, fields named by name or alias, frozen."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class SeedRevealed(Payload):
    seed: str                    # the seed of a seeded game; its hash was published at the start


def one_of(clear: str, sealed: str, message: str) -> Any:
    """A payload's model validator: exactly one of the fields `clear` (the choice in clear, a
    table's record) and `sealed` (its commitment) is given, else ValueError(`message`). In the
    class body: `_one_of = one_of("amount", "commitment", "give exactly one of ...")`."""
    def check(payload: Any) -> Any:
        if (getattr(payload, clear) is None) == (getattr(payload, sealed) is None):
            raise ValueError(message)
        return payload
    return model_validator(mode="after")(check)


def payload_table(*models: type[Payload]) -> dict[str, type[Payload]]:
    """{event type: payload model}: each model is named after its event type."""
    return {m.__name__: m for m in models}
