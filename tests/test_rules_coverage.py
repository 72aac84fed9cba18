"""Every rule the Risk Europe engine enforces is tested: each rule id in RULES appears in at least
one test file under tests/, so a new rule without a test fails CI.

A rule counts as tested when its id is written in a test file, as a string ("RE-EXPAND-CASTLE")
or in a test name (test_RE_EXPAND_CASTLE_...); the second check asks for a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

from engine.risk_europe.rules import RULES

TESTS = Path(__file__).resolve().parent


def _test_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(TESTS.glob("test_*.py"))
                     if p.name != Path(__file__).name)


def _is_mentioned(rule_id: str, text: str) -> bool:
    return rule_id in text or rule_id.replace("-", "_") in text


def _has_named_test(rule_id: str, text: str) -> bool:
    return re.search(rf"def test_{rule_id.replace('-', '_')}_[a-z]", text) is not None


def test_every_rule_id_appears_in_a_test_file():
    text = _test_text()
    untested = [r.id for r in RULES if not _is_mentioned(r.id, text)]
    assert untested == [], f"rules with no test: {untested}"


def test_every_rule_has_a_test_named_after_it():
    text = _test_text()
    unnamed = [r.id for r in RULES if not _has_named_test(r.id, text)]
    assert unnamed == [], f"rules with no test_<RULE_ID>_... function: {unnamed}"


def test_a_rule_without_a_test_would_be_caught():
    text = _test_text()
    assert not _is_mentioned("RE-NO-SUCH-RULE", text) and not _has_named_test("RE-NO-SUCH-RULE", text)
    assert _has_named_test("RE-EXPAND-CASTLE", text) and not _has_named_test("RE-EXPAND", text)
