"""What every ruleset's event payloads share: the pydantic base (strict fields, frozen), the
SeedRevealed payload of a seeded game (ledger dice commitments, docs/log-format.md), and the table
of payload models by event type."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Payload(BaseModel):
    """A payload: unknown fields refused, fields named by name or alias, frozen."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class SeedRevealed(Payload):
    seed: str                    # the seed of a seeded game; its hash was published at the start


def payload_table(*models: type[Payload]) -> dict[str, type[Payload]]:
    """{event type: payload model}: each model is named after its event type."""
    return {m.__name__: m for m in models}
