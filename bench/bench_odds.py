"""Time `engine.risk_europe.odds.battle_odds` per battle: cold (empty caches), computed (the dice tables
built, the battle itself not memoized: what a corpus of distinct battles costs) and warm (memoized).

    python bench/bench_odds.py              # the timing table
    python bench/bench_odds.py --markdown   # the worked-example table of docs/odds.md
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.risk_europe import odds  # noqa: E402

BATTLES = [
    "1F vs 1F",
    "1F vs 1F castle",
    "3F vs 2F",
    "3F 1S vs 2A castle",
    "5F vs 5F castle",
    "4F 2C vs 3F 2A",
    "6F 2S vs 2F 4A castle",
    "8F 2A 2S vs 4F 6A",
    "8F 2A 2S vs 4F 6A castle",
    "12F 4A 2C 2S vs 10F 6A 2C castle",
    "35F 12A 12C 4S vs 35F 12A 12C 4S castle",
]


def _clear() -> None:
    for memo in (odds._battle_odds, odds.rank_classes, odds.rank_outcomes, odds._attacker_hits,
                 odds._defender_hits, odds._general_attack):
        memo.cache_clear()


def _ms(f) -> float:
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def timings(text: str, repeats: int = 5) -> tuple[float, float, float]:
    """(cold, computed, warm) milliseconds for one battle; computed is the median of `repeats`."""
    battle = odds.parse_battle(text)
    _clear()
    cold = _ms(lambda: odds.battle_odds(*battle))
    computed = []
    for _ in range(repeats):
        odds._battle_odds.cache_clear()
        computed.append(_ms(lambda: odds.battle_odds(*battle)))
    warm = _ms(lambda: odds.battle_odds(*battle))
    return cold, statistics.median(computed), warm


# The worked examples of docs/odds.md: (battle, `ledger odds` options).
EXAMPLES = [(text, "") for text in BATTLES[:-1]] + [
    ("2A 1C vs 2A 1C", ""),
    ("2A 1C vs 2A 1C castle", ""),
    ("8F 2A 2S vs 4F 6A castle", "--reroll never"),
    ("8F 2A 2S vs 4F 6A castle", "--casualties SCAF"),
    ("3F 1S vs 2A castle", "--casualties SCAF"),
]


def _policy(options: str) -> odds.Policy:
    words = dict(zip(options.split()[::2], options.split()[1::2]))
    return odds.Policy(casualty_order=odds.parse_casualty_order(words.get("--casualties", "cheapest-first")),
                       reroll=words.get("--reroll", "below-average"))


def markdown() -> str:
    lines = ["| battle | options | P(attacker takes) | P(defender holds) | P(both eliminated) "
             "| E[attacker losses] | E[defender losses] |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for text, options in EXAMPLES:
        o = odds.battle_odds(*odds.parse_battle(text), policy=_policy(options))
        lines.append(f"| `{text}` | {f'`{options}`' if options else 'default'} | {o.attacker_wins:.4f} "
                     f"| {o.defender_holds:.4f} | {o.both_eliminated:.4f} "
                     f"| {o.expected_attacker_losses:.2f} | {o.expected_defender_losses:.2f} |")
    return "\n".join(lines)


def main() -> None:
    if "--markdown" in sys.argv:
        print(markdown())
        return
    print(f"{'battle':42} {'states':>7} {'cold ms':>9} {'computed ms':>12} {'warm ms':>9}")
    for text in BATTLES:
        att, dfn, castle = odds.parse_battle(text)
        cold, computed, warm = timings(text, repeats=1 if att.total > 40 else 5)
        print(f"{text:42} {att.total * dfn.total * 8:>7} {cold:>9.2f} {computed:>12.2f} {warm:>9.4f}")
    print("states: the bound A x D x 4 ranks x 2 (re-roll available or not); "
          "computed: dice tables built, battle not memoized (median)")


if __name__ == "__main__":
    main()
