"""Headless Chromium for the tests that open pages in a browser: where it is, the flags every run
uses, the skip marker when there is none, and a folder for what the runs leave (pages, DOMs,
screenshots; $LEDGER_TEST_ARTIFACTS keeps them)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--virtual-time-budget=10000")


def _browser() -> str | None:
    given = os.environ.get("LEDGER_CHROMIUM")
    if given:
        return given
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


BROWSER = _browser()
needs_browser = pytest.mark.skipif(
    BROWSER is None, reason="no headless Chromium found (looked for " + ", ".join(BROWSERS)
    + "; or set LEDGER_CHROMIUM): install it with `bash .ci/install-chromium.sh`")


def artifacts_folder(tmp_path_factory, name: str, what: str) -> Path:
    """The folder `name` in $LEDGER_TEST_ARTIFACTS, else a fresh temp folder `name`; printed so
    a run can be looked at. One folder per module: the browser tests of two modules write pages
    of the same names (dashboard.html), and under pytest-xdist they may run at once."""
    folder = os.environ.get("LEDGER_TEST_ARTIFACTS")
    path = Path(folder) / name if folder else tmp_path_factory.mktemp(name)
    path.mkdir(parents=True, exist_ok=True)
    print(f"\n{what}: {path}")
    return path
