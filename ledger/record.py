"""Build a game log event by event (for simulators, live tables, tests and sample logs)."""

from __future__ import annotations

from pathlib import Path

from engine.core.envelope import Recorder
from replay.logfile import format_line, write_log


class LogRecorder(Recorder):
    """A Recorder that can also give its sealed log as text or write it to a file."""

    def text(self) -> str:
        return "".join(format_line(e) + "\n" for e in self.sealed())

    def write(self, path: str | Path) -> None:
        write_log(path, self.sealed())
