"""The golden files: the state digest after every event of three samples, and the verdict of every
sample log, as `tests/golden/make_golden.py` wrote them. A refactor keeps both; a change of rules or
state shape shows up here as a reviewed diff (regenerate, and say why in the commit)."""

from __future__ import annotations

import json

import pytest

from tests.golden import make_golden as G


@pytest.mark.parametrize("rel", G.DIGEST_SAMPLES)
def test_every_step_has_the_digest_the_golden_file_records(rel):
    golden = G.digest_file(rel).read_text(encoding="utf-8").splitlines()
    now = G.digest_lines(rel)
    assert len(now) == len(golden), f"{rel}: {len(now)} steps now, {len(golden)} in the golden file"
    for have, want in zip(now, golden):
        assert have == want, f"{rel}: first differing step: now {have!r}, golden {want!r}"


def test_every_sample_keeps_its_verdict():
    golden = {v["file"]: v for v in json.loads((G.HERE / "verdicts.json").read_text(encoding="utf-8"))}
    now = {v["file"]: v for v in (G.verdict(p) for p in G.samples())}
    assert sorted(now) == sorted(golden), "the set of sample logs changed: regenerate the golden files"
    for name in sorted(now):
        assert now[name] == golden[name], f"{name}: the verdict changed"
