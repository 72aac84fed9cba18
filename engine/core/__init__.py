"""What every ruleset shares: events, violations, rules, digests, commitments, dice."""

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.commit import commitment, matches_commitment
from engine.core.events import Event
from engine.core.rules import Rule, RuleBook, Violation

__all__ = [
    "Event",
    "Rule",
    "RuleBook",
    "Violation",
    "canonical_json",
    "commitment",
    "matches_commitment",
    "sha256_hex",
]
