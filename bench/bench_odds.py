"""Time `engine.risk_europe.odds.battle_odds` per battle, up to the largest battles the reserves
allow, against the chain it replaced, measured in the same run:

* old: the chain as every battle was computed before issue #15, state by state with a dict of
  probability mass and every rank's joint outcomes per state (`odds.chain_ends`, still the way
  exact fractions are computed), in floats, its tables built, once per battle (seconds for the
  largest);
* cold: the row sweep in a process whose tables are empty (the first battle of its size);
* computed: the tables by dice count built, the battle and the tables of its armies not (what a
  corpus of distinct battles costs; the median of several);
* warm: memoized.

The largest battle is each side's whole supply (the game's data: 35 footmen, 12 archers, 12 cavalry
and 4 siege weapons, the rulebook's component list), behind a castle: every battle a game can
hold is at most that. Ratios, not seconds: these machines are shared.

    python bench/bench_odds.py              # the timing table
    python bench/bench_odds.py --markdown   # the worked-example table of docs/odds.md
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.risk_europe import RULESET, odds  # noqa: E402
from engine.risk_europe.state import Units  # noqa: E402

TARGET_MS = 10.0      # issue #15: any battle the reserves allow


def supply() -> Units:
    """One player's whole army, from the game's data (the rulebook's component counts)."""
    per_army = RULESET.default_data().supply
    return Units(*(per_army[u] for u in Units._fields))


def share(army: Units, part: float) -> Units:
    return Units(*(round(n * part) for n in army))


def battles() -> list[tuple[str, Units, Units, bool, odds.Policy]]:
    """(label, attacker, defender, castle, policy), growing to the reserves' limit."""
    whole = supply()
    out = []
    for text in ("1F vs 1F", "3F vs 2F", "3F 1S vs 2A castle", "8F 2A 2S vs 4F 6A castle",
                 "12F 4A 2C 2S vs 10F 6A 2C castle", "30F 10A 10C 5S vs 30F 10A 10C castle"):
        att, dfn, castle = odds.parse_battle(text)
        out.append((text, att, dfn, castle, odds.DEFAULT_POLICY))
    for part in (0.25, 0.5, 0.75):
        army = share(whole, part)
        text = odds.format_battle(army, army, True)
        out.append((text, army, army, True, odds.DEFAULT_POLICY))
    foot = Units(footman=whole.footman)
    out.append((odds.format_battle(foot, foot, True), foot, foot, True, odds.DEFAULT_POLICY))
    text = odds.format_battle(whole, whole, False)
    out.append((text, whole, whole, False, odds.DEFAULT_POLICY))
    text = odds.format_battle(whole, whole, True)
    out.append((text, whole, whole, True, odds.DEFAULT_POLICY))
    # the costliest orders: footmen lost last (the defender's last 35 units roll no dice in ranks
    # 1-3), siege weapons kept last (every row's loop summed over several trips)
    for order in ("SCAF", "CAFS"):
        policy = odds.Policy(casualty_order=odds.parse_casualty_order(order))
        out.append((f"{text} --casualties {order}", whole, whole, True, policy))
    return out


def _clear() -> None:
    """Empty every table the odds keep (as in a fresh process)."""
    for memo in (odds._battle_odds, odds.rank_classes, odds.rank_outcomes, odds._attacker_hits,
                 odds._defender_hits, odds._defender_layout, odds._general_attack, odds._rank_tables, odds._army_dice,
                 odds._defender_table, odds._attacker_conv, odds._quiet_loop):
        memo.cache_clear()
    odds._grown.clear()


def _forget_battle() -> None:
    """Forget the battle and the tables made for its armies (a rank's hits over the defender's
    counts), keep those by dice count: what a corpus of distinct battles costs."""
    for memo in (odds._battle_odds, odds._rank_tables, odds._defender_table):
        memo.cache_clear()


def _ms(f, clock=time.perf_counter) -> float:
    t = clock()
    f()
    return (clock() - t) * 1000


def timings(att: Units, dfn: Units, castle: bool, policy: odds.Policy,
            repeats: int = 7) -> tuple[float, float, float, float]:
    """(cold, computed, computed CPU, warm) milliseconds for one battle; computed is the median
    of `repeats` in wall-clock time, computed CPU the same runs' median in this thread's CPU time
    (what a busy machine's other work does not inflate)."""
    _clear()
    cold = _ms(lambda: odds.battle_odds(att, dfn, castle, policy))
    computed, cpu = [], []
    for _ in range(repeats):
        _forget_battle()
        t = time.thread_time()
        computed.append(_ms(lambda: odds.battle_odds(att, dfn, castle, policy)))
        cpu.append((time.thread_time() - t) * 1000)
    warm = _ms(lambda: odds.battle_odds(att, dfn, castle, policy))
    return cold, statistics.median(computed), statistics.median(cpu), warm


def old_ms(att: Units, dfn: Units, castle: bool, policy: odds.Policy) -> float:
    """The replaced chain, its rank tables built (a first run builds them), once."""
    order = policy.casualty_order
    reroll = policy.reroll if castle and policy.reroll != "never" else None
    sides = odds.armies_left(att, order), odds.armies_left(dfn, order)
    odds.chain_ends(*sides, castle, reroll, exact=False)
    return _ms(lambda: odds.chain_ends(*sides, castle, reroll, exact=False))


# The worked examples of docs/odds.md: (battle, `ledger odds` options).
WORKED = ["1F vs 1F", "1F vs 1F castle", "3F vs 2F", "3F 1S vs 2A castle", "5F vs 5F castle", "4F 2C vs 3F 2A",
          "6F 2S vs 2F 4A castle", "8F 2A 2S vs 4F 6A", "8F 2A 2S vs 4F 6A castle",
          "12F 4A 2C 2S vs 10F 6A 2C castle"]
EXAMPLES = [(text, "") for text in WORKED] + [
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
    whole = supply()
    print(f"the reserves' limit: {whole.describe()} a side ({whole.total} units), from the game's data")
    print(f"{'battle':58} {'states':>6} {'old ms':>8} {'cold ms':>8} {'computed ms':>11} "
          f"{'(CPU ms)':>8} {'warm ms':>8} {'old/computed':>12}")
    worst = worst_cpu = 0.0
    for label, att, dfn, castle, policy in battles():
        cold, computed, cpu, warm = timings(att, dfn, castle, policy)
        old = old_ms(att, dfn, castle, policy)
        worst, worst_cpu = max(worst, computed), max(worst_cpu, cpu)
        print(f"{label:58} {att.total * dfn.total * 8:>6} {old:>8.2f} {cold:>8.2f} {computed:>11.2f} "
              f"{cpu:>8.2f} {warm:>8.4f} {old / computed:>11.1f}x")
    print(f"states: the bound A x D x 4 ranks x 2 (re-roll available or not); old: the chain #15 replaced "
          f"(odds.chain_ends), once; cold: empty tables; computed: tables built, battle not "
          f"memoized (median of 7, wall clock and this thread's CPU time); slowest computed "
          f"{worst:.1f} ms wall, {worst_cpu:.1f} ms CPU (target < {TARGET_MS:.0f} ms)")

    legacy()


LEGACY = ["10 vs 6", "30 vs 30", "60 vs 60", "100 vs 100", "10 vs 6 fortified bunker",
          "30 with 3 missiles vs 30 with 3 missiles fortified"]


def legacy() -> None:
    """Risk Legacy's attack odds, measured (its troops have no component limit: a territory holds
    any number; `ledger odds` takes up to 300 a side)."""
    from engine.risk_legacy import odds as legacy_odds
    print(f"{'Risk Legacy attack':58} {'cold ms':>8} {'computed ms':>11}")
    for text in LEGACY:
        for memo in (legacy_odds._attack_odds, legacy_odds.roll_outcomes, legacy_odds._float_outcomes):
            memo.cache_clear()
        cold = _ms(lambda: legacy_odds.odds_of(text))
        runs = []
        for _ in range(5):
            legacy_odds._attack_odds.cache_clear()
            runs.append(_ms(lambda: legacy_odds.odds_of(text)))
        print(f"{text:58} {cold:>8.2f} {statistics.median(runs):>11.2f}")


if __name__ == "__main__":
    main()
