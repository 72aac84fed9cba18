"""Build the tournament sample: a small event of two rounds, three tables a round, both games,
played by the seeded bots (each game's `RULESET.simulate`), and its results sheet with three
planted mistakes; `results-corrected.csv` is the same sheet put right.

    python sample_logs/tournament/make_tournament.py

Each simulated log gets the people's names on its seats (GameStarted `players[].name`, as a
recorder writes them) and is sealed again; everything comes from fixed seeds, so the files are
rebuilt byte for byte (tests/test_tournament.py checks it). The sheet's reported winners and
score columns are what the rules give, read from the judged logs, except where a mistake is
planted (README.md here lists them):

- round 1 table 2: the reported winner is not the one the rules give;
- round 2 table 2: its log column names r2-t2.jsonl, a copy of round 1 table 3's log (the same
  log submitted twice); the table's own log came later as r2-t2-resent.jsonl;
- round 2 table 3: its log, r2-t3.jsonl, was never handed in.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine.core.record import seal  # noqa: E402
from engine.core.ruleset import get_ruleset  # noqa: E402
from replay.judge import judge  # noqa: E402
from replay.logfile import format_line, read_log_text  # noqa: E402

EUROPE, LEGACY = "risk-europe", "risk-legacy"

# (round, table, ruleset, seed, the people in seat order)
TABLES = [
    ("1", "1", EUROPE, 11, ("ann", "bob", "cat", "dan")),
    ("1", "2", LEGACY, 12, ("eve", "fay", "gus", "hal")),
    ("1", "3", EUROPE, 13, ("ivy", "jon", "kim", "leo")),
    ("2", "1", LEGACY, 21, ("ann", "fay", "kim", "dan")),
    ("2", "2", EUROPE, 22, ("eve", "bob", "jon", "hal")),
    ("2", "3", LEGACY, 23, ("ivy", "cat", "gus", "leo")),
]
SCORE = {EUROPE: "crowns", LEGACY: "red_stars"}
COLUMNS = ["round", "table", "players", "winner", "crowns", "red_stars", "log", "notes"]


def played(ruleset: str, seed: int, game_id: str, people: tuple[str, ...]) -> str:
    """One game by the bots, its seats named after `people`, sealed again: the log's text."""
    game = get_ruleset(ruleset).simulate(seed, game_id, {})
    if not game.finished:
        raise SystemExit(f"{game_id}: seed {seed} does not finish; pick another")
    envs = [dict(e) for e in game.envelopes]
    start = dict(envs[0]["payload"])
    start["players"] = [{**p, "name": name} for p, name in zip(start["players"], people)]
    envs[0] = {**envs[0], "payload": start}
    envs = seal([{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in envs])
    return "".join(format_line(e) + "\n" for e in envs)


def outcome(text: str, people: tuple[str, ...]) -> tuple[list[str], list[int]]:
    """The rules' winners (by name) and each seat's score value of a log."""
    j = judge(read_log_text(text), keep_steps=False)
    rs = get_ruleset(j.ruleset)
    if j.findings or j.result is None:
        raise SystemExit(f"{j.game_id} is not a clean finished game")
    name = dict(zip(j.players, people))
    values = rs.scoring.scores(j.final_state, j.result)
    return [name[w] for w in j.result.winners], [values[p][SCORE[j.ruleset]] for p in j.players]


def build() -> dict[str, str]:
    """Every file of the sample: name -> text."""
    files: dict[str, str] = {}
    truth: dict[tuple[str, str], tuple[list[str], list[int]]] = {}
    for rnd, table, ruleset, seed, people in TABLES:
        text = played(ruleset, seed, f"spring-r{rnd}-t{table}", people)
        truth[(rnd, table)] = outcome(text, people)
        name = f"r{rnd}-t{table}.jsonl"
        if (rnd, table) == ("2", "2"):
            name = "r2-t2-resent.jsonl"        # the table's own log, sent after the copy below
        if (rnd, table) != ("2", "3"):         # round 2 table 3 never handed its log in
            files[name] = text
    files["r2-t2.jsonl"] = files["r1-t3.jsonl"]   # round 1 table 3's log, submitted again
    files["results.csv"] = sheet(truth, corrected=False)
    files["results-corrected.csv"] = sheet(truth, corrected=True)
    return files


def sheet(truth: dict, corrected: bool) -> str:
    """The results sheet, with the planted mistakes or put right."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for rnd, table, ruleset, _, people in TABLES:
        winners, values = truth[(rnd, table)]
        row = {"round": rnd, "table": table, "players": ";".join(people),
               "winner": ";".join(winners), "crowns": "", "red_stars": "",
               "log": f"r{rnd}-t{table}.jsonl", "notes": ""}
        row[SCORE[ruleset]] = ";".join(str(v) for v in values)
        if (rnd, table) == ("1", "2"):
            row["red_stars"] = ""
            if not corrected:                  # the reported winner: another player
                row["winner"] = next(p for p in people if p not in winners)
        if (rnd, table) == ("2", "1"):
            row["log"] = ""                    # found by its players among the logs
        if (rnd, table) == ("2", "2") and corrected:
            row["log"] = "r2-t2-resent.jsonl"
        if (rnd, table) == ("2", "3") and corrected:
            row.update(winner="", red_stars="", log="", notes="log never handed in: no result")
        w.writerow([row[c] for c in COLUMNS])
    return out.getvalue()


def main() -> None:
    for name, text in build().items():
        (HERE / name).write_text(text, encoding="utf-8", newline="")
        print(f"wrote {HERE.name}/{name}")


if __name__ == "__main__":
    main()
