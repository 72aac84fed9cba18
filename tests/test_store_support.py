"""Helpers for the store tests: sample games, re-sealed under new ids, written as log files."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from replay.logfile import format_line, seal

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
GAME42 = SAMPLES / "game42.jsonl"


@lru_cache(maxsize=1)
def _game42_envelopes() -> tuple[dict, ...]:
    return tuple(json.loads(line) for line in GAME42.read_text(encoding="utf-8").splitlines())


def game(game_id: str = "game42", events: int | None = None) -> list[dict]:
    """game42 (its first `events` events), re-sealed under `game_id`."""
    envelopes = [dict(e, game=game_id) for e in _game42_envelopes()[:events]]
    return seal(envelopes)


def text_of(envelopes: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envelopes)


def write_game(path: Path, envelopes: list[dict]) -> Path:
    path.write_text(text_of(envelopes), encoding="utf-8", newline="\n")
    return path


def write_games(folder: Path, count: int, prefix: str = "g") -> list[Path]:
    """`count` copies of game42 as separate games, <prefix>000.jsonl ..."""
    folder.mkdir(parents=True, exist_ok=True)
    return [write_game(folder / f"{prefix}{i:03d}.jsonl", game(f"{prefix}{i:03d}"))
            for i in range(count)]
