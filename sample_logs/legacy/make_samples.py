"""Build the Risk Legacy samples: a complete simulated campaign of five games on one world
(`earth.campaign.json` with game-01.jsonl ... game-05.jsonl) and broken logs, one per kind of
finding a campaign judge must catch.

    python sample_logs/legacy/make_samples.py

Everything is derived from seeds, so the files are rebuilt byte for byte
(tests/test_legacy_samples.py checks it). What each file shows is in README.md here.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine.risk_legacy import world as W  # noqa: E402
from engine.risk_legacy.board import default_data  # noqa: E402
from engine.risk_legacy.campaign import Campaign  # noqa: E402
from ledger.campaign import add_game, save_campaign  # noqa: E402
from engine.risk_legacy.sim import play_game  # noqa: E402
from ledger.app.campaign import simulate_campaign  # noqa: E402
from replay.logfile import format_line, seal  # noqa: E402

NAME = "earth"
SEED = 57
GAMES = 5


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def _text(envs: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envs)


def _renamed(envs: list[dict], game: str) -> list[dict]:
    return [{**e, "game": game} for e in envs]


def campaign(out: Path) -> tuple[Campaign, list[Path]]:
    """The five games and the campaign file that holds them."""
    c, paths = simulate_campaign(NAME, GAMES, SEED, out)
    for p in paths:
        res = add_game(c, p, out)
        if res.entry is None:
            raise SystemExit(f"{p} does not fit the campaign: {[f.format() for f in res.findings]}")
    save_campaign(c, out / f"{NAME}.campaign.json")
    return c, paths


def wrong_world(c: Campaign) -> str:
    """Game 6 played from a world that ignores the scars placed in an earlier game (the last one,
    before game 5, that placed any): a legal game in itself, which the campaign refuses
    (RL-CAMPAIGN-WORLD)."""
    placed: set[str] = set()
    for g in reversed(c.games[:-1]):
        placed = {t for t in _scarred(g["changes"]) if W.marks(c.world, t).scar}
        if placed:
            break
    w = c.world
    for t in sorted(placed):
        m = W.marks(w, t)
        w = W.with_supply(W.with_marks(w, t, scar=None), f"scar:{m.scar}", +1)
    if not placed:
        raise SystemExit("no scar was placed before game 5: pick another seed")
    game = play_game(SEED + 6, f"{NAME}-06-wrong-world", w, campaign=NAME)
    return _text(game.envelopes)


def _scarred(changes: list[str]) -> list[str]:
    data = default_data()
    out = []
    for ch in changes:
        if " scar placed in " in ch:
            out.append(data.resolve(ch.split(" scar placed in ")[1]))
    return out


def recruit_count(path: Path) -> str:
    """A recruit that places two troops more than the rules give (the claim says the right number):
    the first such recruit after the opening whose extra troops change nothing else, so the log has
    exactly one finding."""
    from replay.logfile import read_log_text
    from replay.judge import judge
    base = _renamed(_lines(path), f"{NAME}-02-recruit-count")
    for i, e in enumerate(base):
        if e["type"] != "Recruited" or e["seq"] <= 20:
            continue
        envs = json.loads(json.dumps(base))
        t = next(iter(envs[i]["payload"]["placements"]))
        envs[i]["payload"]["placements"][t] += 2
        text = _text(seal(envs))
        if len(judge(read_log_text(text, "x")).findings) == 1:
            return text
    raise SystemExit("no recruit can be tampered with alone: pick another seed")


def late_missile(path: Path) -> str:
    """A Missile fired after the troops of the roll were removed."""
    envs = _renamed(_lines(path), f"{NAME}-03-late-missile")
    first = envs[0]["payload"]
    signed = {s["player"] for s in first["world"]["signatures"]}
    for i, e in enumerate(envs):
        if e["type"] == "CasualtiesRemoved" and envs[i - 2]["actor"] in signed:
            shooter = envs[i - 2]["actor"]
            late = {"v": 1, "game": e["game"], "seq": 0, "type": "MissileFired", "actor": shooter,
                    "payload": {"side": "attacker", "die": 0}}
            envs.insert(i + 1, late)
            break
    for k, e in enumerate(envs):
        e["seq"] = k
    return _text(seal(envs))


def draw_die(path: Path) -> str:
    """One die of a card revealed into slot 1 changed, the log sealed again: the dice now draw
    another card than the one the log shows, and are not the seed's (RL-CHANCE-DRAW and
    RL-DICE-SEED, both at that line)."""
    from replay.logfile import read_log_text
    from replay.judge import judge
    base = _renamed(_lines(path), f"{NAME}-01-draw-die")
    for i, e in enumerate(base):
        if e["type"] != "CardRevealed" or e["seq"] <= 30 or not e["payload"]["dice"]:
            continue
        for face in range(1, 7):
            envs = json.loads(json.dumps(base))
            dice = envs[i]["payload"]["dice"]
            if dice[0] == face:
                continue
            dice[0] = face
            text = _text(seal(envs))
            found = judge(read_log_text(text, "x")).findings
            if (sorted(f.rule for f in found) == ["RL-CHANCE-DRAW", "RL-DICE-SEED"]
                    and {f.line for f in found} == {i + 1}
                    and any("the log has" in f.message for f in found)):
                return text
    raise SystemExit("no slot-1 draw turns into another card with one die changed: pick another seed")


def wrong_winner(path: Path) -> str:
    envs = _renamed(_lines(path), f"{NAME}-01-wrong-winner")
    end = next(e for e in envs if e["type"] == "GameEnded")
    players = [p["id"] for p in envs[0]["payload"]["players"]]
    end["payload"]["winner"] = next(p for p in players if p != end["payload"]["winner"])
    return _text(seal(envs))


def edited_die(path: Path) -> str:
    """A die changed after the log was sealed (the line's hash no longer matches)."""
    envs = _renamed(_lines(path), f"{NAME}-01-edited-die")
    sealed = seal(envs)
    for e in sealed:
        if e["type"] == "DiceRolled" and e["seq"] > 30:
            rolls = e["payload"]["rolls"]
            p = next(iter(rolls))
            rolls[p][0] = 7 - rolls[p][0]
            break
    return _text(sealed)


def build(out: Path) -> dict[str, str]:
    """Every sample file: name -> text (the campaign file included)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        c, paths = campaign(work)
        files = {p.name: p.read_text("utf-8") for p in paths}
        files[f"{NAME}.campaign.json"] = (work / f"{NAME}.campaign.json").read_text("utf-8")
        files["broken-wrong-world.jsonl"] = wrong_world(c)
        files["broken-recruit-count.jsonl"] = recruit_count(work / "game-02.jsonl")
        files["broken-late-missile.jsonl"] = late_missile(work / "game-03.jsonl")
        files["broken-wrong-winner.jsonl"] = wrong_winner(work / "game-01.jsonl")
        files["broken-edited-die.jsonl"] = edited_die(work / "game-01.jsonl")
        files["broken-draw-die.jsonl"] = draw_die(work / "game-01.jsonl")
    return files


def main() -> None:
    files = build(HERE)
    for name, text in files.items():
        (HERE / name).write_text(text, "utf-8", newline="\n")
    print(f"wrote {len(files)} files to {HERE}")


if __name__ == "__main__":
    main()

