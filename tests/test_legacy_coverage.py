"""Every rule the Risk Legacy engine enforces is tested: each rule id in its RuleBook has a test
named after it (test_RL_..._<what>), so a new rule without a test fails CI."""

from __future__ import annotations

import re
from pathlib import Path

from engine.risk_legacy.rules import RULES

TESTS = Path(__file__).resolve().parent


def _test_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(TESTS.glob("test_legacy_*.py"))
                     if p.name != Path(__file__).name)


def _has_named_test(rule_id: str, text: str) -> bool:
    return re.search(rf"def test_{rule_id.replace('-', '_')}_[a-z]", text) is not None


def test_every_rule_has_a_test_named_after_it():
    text = _test_text()
    unnamed = [r.id for r in RULES if not _has_named_test(r.id, text)]
    assert unnamed == [], f"rules with no test_<RULE_ID>_... function: {unnamed}"


def test_every_rule_has_a_section_and_words():
    for r in RULES:
        assert r.id.startswith("RL-") and r.section and len(r.text) > 20, r.id


def test_a_rule_without_a_test_would_be_caught():
    text = _test_text()
    assert not _has_named_test("RL-NO-SUCH-RULE", text)
    assert _has_named_test("RL-MISSILE-TIMING", text) and not _has_named_test("RL-MISSILE-TIM", text)
