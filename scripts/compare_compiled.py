"""Judge every sample with the pure-Python engine and with the compiled one (scripts/build-mypyc.sh),
each in a process of its own, and compare what they say: per sample its verdict (findings, result,
fatal, chain) and the state digest after every event. Prints the time each took (same run).

    scripts/build-mypyc.sh && python scripts/compare_compiled.py     # exit 0: identical

Exit 0 when both say the same of every sample, 1 when they differ (the first differences are
printed), 2 when no compiled module is built. The pure run hides the compiled modules from the
import system (only sources are imported from this checkout).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The start of a child process: `hide_compiled(root)` makes it import this checkout's modules
# from their sources only, whatever is built beside them (also used by bench/bench_instructions.py).
PURE_HOOK = r'''
import importlib.machinery as m, os, sys
def hide_compiled(root):
    source = m.FileFinder.path_hook((m.SourceFileLoader, m.SOURCE_SUFFIXES))
    def only_source(path):
        p = os.path.abspath(path or ".")
        if p == root or any(p == os.path.join(root, d) or p.startswith(os.path.join(root, d, ""))
                            for d in ("engine", "replay", "ledger", "analytics")):
            return source(path)
        raise ImportError
    sys.path_hooks.insert(0, only_source)
    sys.path_importer_cache.clear()
'''

_CHILD = PURE_HOOK + r'''
import json, time
root, pure = sys.argv[1], sys.argv[2] == "pure"
if pure:
    hide_compiled(root)
sys.path.insert(0, root)
from pathlib import Path
from replay.judge import judge
from replay.logfile import read_log
import engine.core.judging as probe
base = Path(root) / "sample_logs"
paths = sorted(base.glob("*.jsonl")) + sorted((base / "legacy").glob("*.jsonl"))
reads = [(p.relative_to(base).as_posix(), read_log(p)) for p in paths]
out, started = {}, time.process_time()
for rel, read in reads:
    j = judge(read, digests=True)
    out[rel] = {"fatal": j.fatal, "chain_ok": j.chain_ok, "events": j.events,
                "findings": [[f.line, f.seq, f.rule, f.kind, f.applied, f.message] for f in j.findings],
                "result": j.result_dict(), "digests": [[s.seq, s.digest] for s in j.steps]}
seconds = time.process_time() - started
print(json.dumps({"compiled": not probe.__file__.endswith(".py"), "seconds": seconds,
                  "samples": out}))
'''


def run(mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), mode], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the {mode} run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def compare() -> tuple[dict, dict, list[str]]:
    """(pure run, compiled run, differences)."""
    pure, compiled = run("pure"), run("compiled")
    diffs = []
    for rel in sorted(pure["samples"].keys() | compiled["samples"].keys()):
        a, b = pure["samples"].get(rel), compiled["samples"].get(rel)
        if a != b:
            keys = sorted(k for k in (a or {}).keys() | (b or {}).keys()
                          if (a or {}).get(k) != (b or {}).get(k))
            diffs.append(f"{rel}: differs in {', '.join(keys)}")
    return pure, compiled, diffs


def main() -> int:
    started = time.perf_counter()
    pure, compiled, diffs = compare()
    if pure["compiled"] or not compiled["compiled"]:
        print("no compiled engine module is built here (scripts/build-mypyc.sh builds them)"
              if not compiled["compiled"] else "the pure run imported a compiled module")
        return 2
    n = len(pure["samples"])
    steps = sum(len(s["digests"]) for s in pure["samples"].values())
    print(f"{n} samples, {steps} events judged with digests, each run in its own process "
          f"({time.perf_counter() - started:.1f} s in all)")
    print(f"  pure:     {pure['seconds']:.3f} s CPU")
    print(f"  compiled: {compiled['seconds']:.3f} s CPU  "
          f"({pure['seconds'] / compiled['seconds']:.2f}x the pure run)")
    if diffs:
        print(f"DIFFERENT on {len(diffs)} samples:")
        for d in diffs[:20]:
            print("  " + d)
        return 1
    print("identical verdicts and digests on every sample")
    return 0


if __name__ == "__main__":
    sys.exit(main())
