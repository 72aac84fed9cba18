"""The sample logs: game42 is clean and verified; each broken copy is caught at the right line
with the right rule (and nothing earlier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.logfile import read_log
from replay.judge import judge

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"

# file -> (first finding's rule, first finding's line)
BROKEN = {
    "broken-die-edited.jsonl": ("LOG-HASH", 159),
    "broken-die-resealed.jsonl": ("RE-CASUALTIES", 160),
    "broken-card-twice.jsonl": ("RE-CARDS-HAND", 30),
    "broken-maneuver-three.jsonl": ("RE-MANEUVER-PATH", 148),
    "broken-castle-no-siege.jsonl": ("RE-EXPAND-CASTLE", 149),
    "broken-edited-line.jsonl": ("LOG-HASH", 71),
    "broken-claim-coins.jsonl": ("RE-CLAIM", 71),
    "broken-wrong-winner.jsonl": ("RE-CLAIM", 195),
    "broken-malformed-line.jsonl": ("LOG-JSON", 128),
    "broken-unknown-event.jsonl": ("LOG-UNKNOWN-TYPE", 128),
    "broken-deleted-line.jsonl": ("LOG-SEQ-GAP", 128),
    "broken-duplicate-line.jsonl": ("LOG-SEQ-DUPLICATE", 129),
    "broken-truncated.jsonl": ("LOG-TRUNCATED", 98),
    "broken-empty.jsonl": ("LOG-EMPTY", None),
    "broken-not-a-log.jsonl": ("LOG-NOT-A-LOG", None),
}


def test_game42_is_clean_and_blue_wins_in_round_7():
    j = judge(read_log(SAMPLES / "game42.jsonl"))
    assert j.findings == []
    assert j.chain_ok
    assert j.result is not None and j.result.winners == ("blue",) and j.result.round == 7
    assert j.declared_winner == "blue"


def test_every_broken_sample_is_listed_here():
    from tests.test_samples_variants import VARIANT_BROKEN     # the variants' broken copies
    on_disk = {p.name for p in SAMPLES.glob("broken-*.jsonl")}
    assert on_disk == set(BROKEN) | set(VARIANT_BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_sample_first_finding(name):
    rule, line = BROKEN[name]
    j = judge(read_log(SAMPLES / name))
    assert j.findings, f"{name} judged clean"
    first = min(j.findings, key=lambda f: (f.line or 0))
    assert (first.rule, first.line) == (rule, line)
    assert all(f.file.endswith(name) for f in j.findings)


def test_one_mistake_is_one_finding_in_the_castle_sample():
    """The illegal expand is applied as recorded, so the battle that followed is judged as fought."""
    j = judge(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
    assert [f.rule for f in j.findings] == ["RE-EXPAND-CASTLE"]
    assert j.findings[0].applied is True
    assert j.result.winners == ("blue",)


def test_samples_are_rebuilt_byte_for_byte(tmp_path, monkeypatch):
    """sample_logs/make_samples.py regenerates exactly the committed files."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = mod.game42()
    assert mod._text(mod.seal(base)) == (SAMPLES / "game42.jsonl").read_text("utf-8")
    for name, text in mod.broken_variants(base).items():
        assert text == (SAMPLES / name).read_text("utf-8"), name


def test_tiebreak_game_is_decided_by_the_tie_break():
    j = judge(read_log(SAMPLES / "tiebreak.jsonl"))
    assert j.findings == [] and j.chain_ok
    assert j.result.winners == ("green",) and j.result.reason == "crowns with tie-break"
    assert set(j.result.detail) == {"blue", "green"}
    assert all(d["crowns"] == 7 for d in j.result.detail.values())


def test_the_sample_corpus_shows_every_part_of_the_rules():
    """game42, the tie-break game and the simulated samples together show every order, bonus
    action, city bonus tile, battle rank, a castle re-roll, a simultaneous elimination, an
    elimination and a tie-break — and every one of them is clean."""
    from replay.features import game_features, required_features
    required = required_features("risk-europe")
    assert len(required) == 28
    seen: set[str] = set()
    paths = [SAMPLES / "game42.jsonl", SAMPLES / "tiebreak.jsonl", *sorted(SAMPLES.glob("sim-*.jsonl"))]
    assert len(paths) >= 4
    for path in paths:
        j = judge(read_log(path))
        assert j.findings == [] and j.result is not None, path.name
        seen |= game_features(j)
    assert set(required) - seen == set()
