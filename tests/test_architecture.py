"""The architecture as contracts a machine checks (issue #11, docs/architecture.md):

- layers: `ledger` (the shell) over `analytics` over `replay` over `engine`, never upwards;
- `ledger`, `replay` and `analytics` never import a game's package, and `engine.core` knows no game:
  everything game-specific comes through the game's `Ruleset` record;
- games never import each other; no import cycles anywhere.

The contracts are import-linter's (`.importlinter`); a grep keeps game names out of shared code."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ("ledger", "replay", "analytics")


def test_the_import_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(exe).exists():
        pytest.fail("lint-imports is not installed: pip install -e '.[dev]'")
    run = subprocess.run([exe, "--config", str(ROOT / ".importlinter"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout, run.stdout[-2000:]


GAME_NAMES = re.compile(r"risk_europe|risk_legacy|warrior_knights|risk-europe|risk-legacy|"
                        r"warrior-knights|\bRE-[A-Z]|\bRL-[A-Z]|\bWK-[A-Z]")


def _code_lines(path: Path):
    """(line number, text) of the code of a module: docstrings and comments are docs, not code."""
    import ast
    import io
    import tokenize
    text = path.read_text(encoding="utf-8")
    docs = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            docs.update(range(body[0].lineno, body[0].end_lineno + 1))
    comments = {t.start[0] for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.COMMENT}
    for no, line in enumerate(text.splitlines(), start=1):
        if no in docs:
            continue
        code = line.split("#", 1)[0] if no in comments else line
        yield no, code


def test_shared_code_names_no_game():
    found = [f"{p.relative_to(ROOT)}:{no}: {line.strip()}"
             for pkg in SHARED for p in sorted((ROOT / pkg).rglob("*.py"))
             for no, line in _code_lines(p) if GAME_NAMES.search(line)]
    assert found == [], "game names in shared code:\n" + "\n".join(found)
