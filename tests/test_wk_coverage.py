"""Every Warrior Knights rule has its tests: one named test_<RULE_ID>_allows_... (the rule lets the
legal case through) and one named test_<RULE_ID>_forbids_... (it catches the illegal one), and
every rule cites a section of the rules summary."""

from __future__ import annotations

import re
from pathlib import Path

from engine import get_ruleset

TESTS = Path(__file__).resolve().parent


def _all_tests() -> str:
    return "".join(p.read_text("utf-8") for p in sorted(TESTS.glob("test_wk_*.py")))


def missing(text: str) -> list[str]:
    out = []
    for rule in get_ruleset("warrior-knights").rules:
        name = rule.id.replace("-", "_")
        for kind in ("allows", "forbids"):
            if not re.search(rf"def test_{name}_{kind}_[a-z0-9]", text):
                out.append(f"{rule.id} ({kind})")
    return out


def test_every_rule_has_an_allowed_and_a_forbidden_test():
    assert missing(_all_tests()) == []


def test_a_rule_without_its_tests_would_be_caught():
    assert "WK-LEVY (allows)" in missing(_all_tests().replace("def test_WK_LEVY_allows", "def levy_allows"))


def test_every_rule_cites_a_section_and_says_the_rule():
    for rule in get_ruleset("warrior-knights").rules:
        assert rule.section and len(rule.text) > 20, rule.id
        assert rule.id.startswith("WK-")
