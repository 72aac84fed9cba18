"""The compiled engine (scripts/build-mypyc.sh, optional) says exactly what the pure-Python one
says: every sample's verdict and the state digest after every event (issue #15).

Where this checkout has the compiled modules built, they are compared in place. Elsewhere the test
builds them itself in a copy of the checkout (mypyc comes with the dev extra's mypy; it needs a C
compiler), so the suite checks both builds on a fresh machine while every other test keeps
running the pure-Python package. Without mypyc or a compiler the test is skipped, saying why;
with CI set (.ci/run), that is a failure instead."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = not str(importlib.util.find_spec("engine.core.judging").origin).endswith(".py")
# what a copy needs to build the modules and judge the samples in both ways
TREE = ("engine", "replay", "ledger", "analytics", "scripts", "sample_logs", "pyproject.toml")


def _compare(root: Path):
    """scripts/compare_compiled.py of the checkout at `root` (it judges that checkout's samples
    with that checkout's modules)."""
    spec = importlib.util.spec_from_file_location(f"compare_compiled_{abs(hash(root))}",
                                                  root / "scripts" / "compare_compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _built_copy(tmp: Path) -> Path:
    """A copy of this checkout with the compiled modules built in it (build-mypyc.sh)."""
    mypyc = shutil.which("mypyc") or shutil.which("mypyc", path=str(Path(sys.executable).parent))
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if not (mypyc and compiler):
        why = f"cannot build the compiled engine here: {'no mypyc' if not mypyc else 'no C compiler'}"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    copy = tmp / "checkout"
    copy.mkdir()
    for name in TREE:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.duckdb"))
        else:
            shutil.copy2(src, copy / name)
    env = dict(os.environ, PATH=f"{Path(mypyc).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    built = subprocess.run(["bash", "scripts/build-mypyc.sh"], cwd=copy, env=env, capture_output=True,
                           text=True, timeout=1200)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    return copy


def test_compiled_and_pure_engines_agree_on_every_sample(tmp_path):
    root = ROOT if COMPILED else _built_copy(tmp_path)
    pure, compiled, diffs = _compare(root).compare()
    assert not pure["compiled"] and compiled["compiled"]
    assert len(pure["samples"]) >= 60 and diffs == []
