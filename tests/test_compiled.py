"""The compiled engine (scripts/build-mypyc.sh, optional) says exactly what the pure-Python one
says: every sample's verdict and the state digest after every event (issue #15). The suite
builds nothing: this test runs where the compiled modules are built, and is skipped elsewhere
(a plain `pip install -e .` is the pure-Python package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = not str(importlib.util.find_spec("engine.core.judging").origin).endswith(".py")


@pytest.mark.skipif(not COMPILED, reason="no compiled engine module built (scripts/build-mypyc.sh)")
def test_compiled_and_pure_engines_agree_on_every_sample():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import compare_compiled
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    pure, compiled, diffs = compare_compiled.compare()
    assert not pure["compiled"] and compiled["compiled"]
    assert len(pure["samples"]) >= 60 and diffs == []
