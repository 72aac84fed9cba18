#!/usr/bin/env bash
# Build the engine's compiled modules with mypyc, in place, beside their sources (issue #15).
#
#   pip install -e '.[dev]'            # mypy (which brings mypyc), and a C compiler on the machine
#   scripts/build-mypyc.sh             # engine/<package>/<module>.*.so next to each <module>.py
#   python scripts/compare_compiled.py # pure against compiled: verdicts and digests of every sample
#   scripts/build-mypyc.sh --clean     # back to the pure-Python package
#
# Optional: `pip install -e .` installs and runs the pure-Python package and needs no compiler.
# Python imports an extension module before the .py of the same name in a folder, so once built
# the compiled modules are used by every command of this checkout (an editable install too);
# --clean removes them (every engine/**/*.so). Listed: the modules that mypy finds type-clean (see
# [tool.mypy] in pyproject.toml) and that compile without a change of behaviour, which leaves
# these pure (bench/README.md, "mypyc"):
#   engine/core/rules.py        Verdicts is subclassed by each game's interpreted context (_Ctx)
#   engine/core/dice.py         DiceCell subclasses tuple: mypyc builds no native class on a builtin
#   engine/risk_europe/state.py State is copied through its instance __dict__ (engine/core/evolve.py)
#                               and stamped through it (engine.step); a native class has none
#   engine/risk_europe/board.py frozen dataclasses (GameData, City, Card): compiled, their instances
#   engine/core/dice_odds.py    (RollOdds) can no longer be unpickled or deep-copied (FrozenInstanceError)
set -euo pipefail
cd "$(dirname "$0")/.."

MODULES=(
  engine/core/canonical.py
  engine/core/commit.py
  engine/core/events.py
  engine/core/judging.py
  engine/core/text.py
  engine/core/evolve.py
  engine/risk_europe/common.py
  engine/risk_europe/rounds.py
  engine/risk_europe/setup.py
  engine/risk_europe/orders.py
  engine/risk_europe/bonus.py
  engine/risk_europe/kingdom_missions.py
  engine/risk_europe/battles.py
  engine/risk_europe/engine.py
)

clean() {
  find engine -name '*.so' -delete
  rm -f ./*__mypyc.*.so
  rm -rf build/mypyc
}

if [[ "${1:-}" == "--clean" ]]; then
  clean
  echo "removed the compiled modules: the pure-Python package is used"
  exit 0
fi
command -v mypyc >/dev/null || { echo "mypyc not found: pip install -e '.[dev]'" >&2; exit 2; }
clean
mkdir -p build/mypyc
# mypyc writes its C and objects under ./build; the .so files land beside the sources
(MYPYC_OPT_LEVEL="${MYPYC_OPT_LEVEL:-3}" mypyc "${MODULES[@]}" > build/mypyc/build.log 2>&1) || {
  tail -30 build/mypyc/build.log >&2; echo "mypyc failed (build/mypyc/build.log)" >&2; exit 1; }
ls engine/core/*.so engine/risk_europe/*.so
