"""Pure rules engines: no I/O, no clock, no global RNG.

`engine.core` holds what every ruleset shares (the decider contract, violations, rule books,
digests, commitments, dice streams); each ruleset is a package exposing a `RULESET` record.
"""

from engine.core.ruleset import Ruleset, get_ruleset, register_ruleset, registered, ruleset_names, rulesets

__all__ = ["Ruleset", "get_ruleset", "register_ruleset", "registered", "ruleset_names", "rulesets"]
