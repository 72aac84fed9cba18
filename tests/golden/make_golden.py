"""Write the golden files that pin what the judge says of the samples.

    python tests/golden/make_golden.py          # rewrite them (then review the diff)

- `digests/<sample>.txt`: the state digest after every event of game42, one variant sample and one
  Risk Legacy sample (`seq type digest` per line), so any change of state shape or meaning is a
  visible diff;
- `verdicts.json`: for every sample log, its verdict: game, ruleset, data digest, chain, fatal,
  every finding (line, seq, rule, kind, applied, message) and the result.

Only run this when a change of verdict or state is intended, and say why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from replay.judge import judge  # noqa: E402
from replay.logfile import read_log  # noqa: E402

DIGEST_SAMPLES = ("game42.jsonl", "var-mercenaries-3p.jsonl", "legacy/game-02.jsonl",
                  "warrior_knights/game-cg-4p.jsonl")


def samples() -> list[Path]:
    base = ROOT / "sample_logs"
    # Warrior Knights: the Crown & Glory sample and its broken copy (#14)
    return (sorted(base.glob("*.jsonl")) + sorted((base / "legacy").glob("*.jsonl"))
            + sorted((base / "warrior_knights").glob("*-cg-*.jsonl")))


def digest_lines(rel: str) -> list[str]:
    read = read_log(ROOT / "sample_logs" / rel)
    j = judge(read, digests=True)
    return [f"{s.seq} {s.type} {s.digest}" for s in j.steps]


def verdict(path: Path) -> dict:
    rel = path.relative_to(ROOT / "sample_logs").as_posix()
    j = judge(read_log(path), keep_steps=False)
    return {
        "file": rel, "game": j.game_id, "ruleset": j.ruleset, "version": j.ruleset_version,
        "data": j.data_digest, "events": j.events, "chain_ok": j.chain_ok, "sealed": j.sealed,
        "fatal": j.fatal, "declared": list(j.declared_winners),
        "findings": [[f.line, f.seq, f.rule, f.kind, f.applied, f.message] for f in j.findings],
        "result": j.result_dict(),
    }


def digest_file(rel: str) -> Path:
    return HERE / "digests" / (rel.replace("/", "__").removesuffix(".jsonl") + ".txt")


def main() -> None:
    (HERE / "digests").mkdir(exist_ok=True)
    for rel in DIGEST_SAMPLES:
        digest_file(rel).write_text("\n".join(digest_lines(rel)) + "\n", encoding="utf-8")
    out = [verdict(p) for p in samples()]
    (HERE / "verdicts.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(DIGEST_SAMPLES)} digest files and {len(out)} verdicts")


if __name__ == "__main__":
    main()
