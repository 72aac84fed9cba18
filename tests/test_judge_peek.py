"""A judge concluded after every event (`Judge.peek`, how the store keeps a live game) goes on as
if it had not been: at the end, the same findings, result and analytics rows as judging the whole
log once; and each peek is the judgement of the log up to there."""

from __future__ import annotations

from collections import Counter

import pytest

from analytics.extract import extract_rows, fold_for
from replay.judge import Judge, judge
from replay.logfile import LogRead, read_log
from tests.test_store_support import SAMPLES

SAMPLES_WITH_FOLDS = ["game42.jsonl", "var-mercenaries-3p.jsonl", "var-teams-long.jsonl",
                      "broken-castle-no-siege.jsonl", "legacy/game-01.jsonl",
                      "legacy/game-02.jsonl"]


def taken(tables: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    out = {t: list(rows) for t, rows in tables.items() if rows}
    for rows in tables.values():
        rows.clear()
    return out


def as_counts(tables: dict[str, list[tuple]]) -> dict[str, Counter]:
    return {t: Counter(map(repr, rows)) for t, rows in tables.items() if rows}


@pytest.mark.parametrize("sample", SAMPLES_WITH_FOLDS)
def test_peeking_after_every_event_changes_nothing_of_the_end(sample):
    read = read_log(SAMPLES / sample)
    judge_ = Judge(keep_steps=False, observer=fold_for(read))
    judge_.start(read)
    tables = judge_.observer.t
    settled: dict[str, list[tuple]] = {}
    concluded: dict[str, list[tuple]] = {}
    for raw in read.events[1:]:
        judge_.feed(raw)
        for t, rows in taken(tables).items():
            settled.setdefault(t, []).extend(rows)
        peeked = judge_.peek()
        concluded = taken(tables)
        assert peeked.final_state is not None
    whole = judge(read, keep_steps=False)
    assert peeked.findings == whole.findings
    assert peeked.result_dict() == whole.result_dict()
    rows = {t: settled.get(t, []) + concluded.get(t, []) for t in settled.keys() | concluded.keys()}
    assert as_counts(rows) == as_counts(extract_rows(read).tables)


def test_each_peek_is_the_judgement_of_the_log_so_far():
    read = read_log(SAMPLES / "broken-castle-no-siege.jsonl")
    judge_ = Judge(keep_steps=False, observer=fold_for(read))
    judge_.start(read)
    for n, raw in enumerate(read.events[1:], start=2):
        judge_.feed(raw)
        if n % 17 and n != len(read.events):
            continue
        prefix = LogRead(read.name, read.events[:n], [], True, True, raw.hash)
        so_far = judge(prefix, keep_steps=False)
        peeked = judge_.peek()
        taken(judge_.observer.t)
        assert peeked.findings == so_far.findings
        assert peeked.result_dict() == so_far.result_dict()
        assert judge_.rs.digest(peeked.final_state) == judge_.rs.digest(so_far.final_state)
