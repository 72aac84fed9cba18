"""Run the benchmark suite and print its figures: python bench/run.py [replay|ingest|odds|dashboard|append|lake|postgres|serve|serve-long|memory|all]."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SUITES = {"replay": "bench.bench_replay", "ingest": "bench.bench_ingest", "odds": "bench.bench_odds",
          "dashboard": "bench.bench_dashboard", "append": "bench.bench_append",
          "lake": "bench.bench_lake",
          "postgres": "bench.bench_postgres",
          "serve": "bench.bench_serve", "serve-long": "bench.bench_serve:main_long",
          "memory": "bench.bench_memory"}


def main(argv: list[str]) -> None:
    wanted = argv or ["all"]
    names = list(SUITES) if "all" in wanted else wanted
    for name in names:
        module_name, _, function = SUITES[name].partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            print(f"== {name}: not available ({exc})")
            continue
        print(f"== {name}")
        getattr(module, function or "main")()


if __name__ == "__main__":
    main(sys.argv[1:])
