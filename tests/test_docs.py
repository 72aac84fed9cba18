"""Examples in the docs run as tests: every example line of docs/log-format.md is a valid event,
and the ones quoted from game42 are exactly what sample_logs/game42.jsonl holds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.core.rulings import RULING_EVENT, RulingRecorded
from engine.risk_europe.events import PAYLOADS as GAME_PAYLOADS

# the game's events, and the log format's own ruling (any game's log may hold one)
PAYLOADS = {**GAME_PAYLOADS, RULING_EVENT: RulingRecorded}

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "log-format.md").read_text("utf-8")
EXAMPLES = [json.loads(line) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)
            for line in block.splitlines() if line.strip() and "…" not in line.split('"payload"')[1]]
GAME42 = {json.loads(line)["seq"]: json.loads(line)
          for line in (ROOT / "sample_logs" / "game42.jsonl").read_text("utf-8").splitlines()}


def test_the_doc_has_an_example_of_every_event_type():
    shown = {e["type"] for e in EXAMPLES} | set(re.findall(r'"type":"(\w+)"', DOC))
    assert set(PAYLOADS) <= shown


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['game']}:{e['seq']}:{e['type']}")
def test_example_payload_is_valid(example):
    PAYLOADS[example["type"]].model_validate(example["payload"])


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e["game"] == "game42"],
                         ids=lambda e: f"seq{e['seq']}:{e['type']}")
def test_game42_examples_are_quoted_exactly(example):
    real = GAME42[example["seq"]]
    assert (real["type"], real["actor"]) == (example["type"], example["actor"])
    payload = dict(example["payload"])
    if example["type"] == "GameStarted":
        payload["players"] = [{"id": p["id"]} for p in payload["players"]]
    assert real["payload"] == payload


def test_every_ruling_in_the_doc_has_its_test():
    rulings = (ROOT / "docs" / "rulings.md").read_text("utf-8")
    tests = "".join(p.read_text("utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    ids = re.findall(r"^### (RE-RULING-[A-Z-]+)", rulings, re.M)
    assert len(ids) >= 15
    for rid in ids:
        assert "test_" + rid.replace("-", "_") in tests, f"{rid} has no test"
