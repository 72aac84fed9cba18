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


DOC = TESTS.parent / "docs" / "warrior-knights.md"


def test_the_doc_lists_every_rule_with_its_section():
    text = DOC.read_text("utf-8")
    for rule in get_ruleset("warrior-knights").rules:
        assert f"| {rule.id} | {rule.section} |" in text, rule.id


def test_every_ruling_in_the_doc_quotes_the_summary_and_has_its_test():
    text = DOC.read_text("utf-8")
    rulings = re.findall(r"^### (WK-RULING-[A-Z0-9-]+)", text, re.M)
    assert len(rulings) >= 20
    tests = (TESTS / "test_wk_rulings.py").read_text("utf-8")
    for rid in rulings:
        assert "def test_" + rid.replace("-", "_") + "_" in tests, f"{rid} has no test"
    summary = (TESTS.parent.parent / "shared" / "seeds" / "002_dadaf0368c077bec.txt")
    if summary.exists():
        source = " ".join(summary.read_text("utf-8").split())
        for quote in re.findall(r'^> "([^"]+)"', text, re.M):
            plain = " ".join(quote.replace("*", "").split())
            for part in re.split(r"\s*\.\.\.\s*", plain):
                assert part in source.replace("*", ""), quote
