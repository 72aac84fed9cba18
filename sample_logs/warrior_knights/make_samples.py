"""Write the Warrior Knights sample logs (README.md here says what each is).

    python sample_logs/warrior_knights/make_samples.py

Complete games played by the seeded bots on the shipped example board and cards (invented data:
every report says so), and broken copies of the 2-player game, one per major rule family, each
with one thing changed and the log sealed again (its own game id), so that the change is a rule
finding, not a broken hash chain; one copy is left unsealed to show the chain check. Pure
function `build(folder)` -> {file name: text}; main() writes them.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine.core.commit import commitment  # noqa: E402
from engine.warrior_knights.sim import play_game  # noqa: E402
from replay.logfile import format_line, seal  # noqa: E402

# (file, players, seed): chosen for what they show (the 2-player game: assaults, sieges and field
# battles, Nobles killed and retreating, a city razed, a stronghold eliminated, ties in the
# Assembly, offices, Revolts, expeditions, Drafts, Events cancelled and applied as adjustments)
GAMES = (("game-2p.jsonl", 2, 10), ("game-2p-short.jsonl", 2, 3), ("game-4p.jsonl", 4, 0),
         ("game-6p.jsonl", 6, 0),
         # Crown & Glory, all three variants: a King crowned, Missions revealed (one fulfilled),
         # Garrisons hired and let go, Town Levies, riot tokens, A Pressing Agenda, Assemble Troops,
         # Leaders and Heralds (seed 14 also passes the shared leak checks, tests/test_wk_views.py)
         ("game-cg-4p.jsonl", 4, 14, ("for_glory", "missions", "king")))


def _first(envs: list[dict], test: Callable[[dict], bool]) -> dict:
    return next(e for e in envs if test(e))


def _raze_one_more(envs: list[dict]) -> None:
    """A Fate card drawn after the 11 cities to raze were chosen (the Fate deck is shuffled right
    after, so nothing else changes)."""
    e = _first(envs, lambda e: e["type"] == "CitiesRazed")
    cards = e["payload"]["cards"]
    e["payload"]["cards"] = cards + [next(f"fate{i:02d}" for i in range(1, 37) if f"fate{i:02d}" not in cards)]


def _plan_salt(envs: list[dict]) -> None:
    e = _first(envs, lambda e: e["type"] == "PlanOpened")
    e["payload"]["salt"] = "not-the-salt"


def _wrong_levy(envs: list[dict]) -> None:
    e = _first(envs, lambda e: e["type"] == "TaxesLevied")
    e["payload"]["crowns"] = e["payload"]["crowns"] + 2


def _off_the_road(envs: list[dict]) -> None:
    """A one-area move written as two areas off the road, ending where it ended."""
    from engine.warrior_knights.gamedata import default_data
    board = default_data().board
    where: dict[str, str] = {}
    for e in envs:
        if e["type"] == "NoblePlaced":
            where[e["payload"]["noble"]] = e["payload"]["area"]
        if e["type"] == "ForcesMobilized" and len(e["payload"]["moves"]) == 1:
            m = e["payload"]["moves"][0]
            start = where.get(m["noble"])
            if start and not m.get("sea") and len(m["path"]) == 1:
                end = m["path"][0]
                via = sorted(x for x in board.neighbours[start] & board.neighbours[end]
                             if board.border(start, x).is_passable and board.border(x, end).is_passable
                             and not (board.border(start, x).road and board.border(x, end).road))
                if via:
                    m["path"] = [via[0], end]
                    return
        if e["type"] == "ForcesMobilized":
            for m in e["payload"]["moves"]:
                where[m["noble"]] = m["path"][-1]
    raise AssertionError("no one-area move to rewrite")


def _fate_count(envs: list[dict]) -> None:
    """A neutral city's Fate cards one short: a blank card left out of its last draw (it has no
    commander, so it discards nothing, and a blank card changes nothing of the battle)."""
    from engine.warrior_knights.gamedata import default_data
    fate = default_data().cards.fate
    for i, e in reversed(list(enumerate(envs))):
        att = e["payload"].get("attack") if e["type"] == "ForcesMobilized" else None
        if att and att["defender"] == "neutral" and att["kind"] == "assault":
            d = next((x for x in envs[i + 1:i + 4] if x["type"] == "FateDrawn" and x["payload"]["side"] == "defender"), None)
            blank = [c for c in (d["payload"]["cards"] if d else []) if fate[c].battle == "none"]
            if blank and len(d["payload"]["cards"]) >= 2:
                d["payload"]["cards"].remove(blank[0])
                return
    raise AssertionError("no assault on a neutral city with a blank Fate card")


def _wages_claim(envs: list[dict]) -> None:
    e = _first(envs, lambda e: e["type"] == "WagesPaid")
    e["payload"]["crowns"] = (e["payload"]["crowns"] or 0) + 3


def _votes_not_hidden(envs: list[dict]) -> None:
    e = _first(envs, lambda e: e["type"] == "VotesRevealed" and e["payload"]["votes"] > 0)
    e["payload"]["votes"] -= 1


def _wrong_winner(envs: list[dict]) -> None:
    e = _first(envs, lambda e: e["type"] == "GameEnded")
    e["payload"]["winner"] = "blue" if e["payload"]["winner"] == "red" else "red"


def _card_twice(envs: list[dict]) -> None:
    dealt = _first(envs, lambda e: e["type"] == "TroopsDealt")["payload"]["mercenaries"]
    e = _first(envs, lambda e: e["type"] == "MarketRevealed")
    e["payload"]["mercenaries"][0] = dealt["red"][0]


def _mission_salt(envs: list[dict]) -> None:
    """A Mission revealed with a salt that does not make the commitment dealt (Crown & Glory)."""
    e = _first(envs, lambda e: e["type"] == "MissionRevealed")
    e["payload"]["salt"] = "not-the-salt"


def _other_data(envs: list[dict]) -> None:
    envs[0]["payload"]["data"]["board"] = commitment("another board", "x")


# (file, what is wrong, the rule the first finding names, the change[, the game it copies])
BROKEN = (
    ("broken-raze-extra-card.jsonl", "a Fate card drawn after the cities to raze were chosen",
     "WK-SETUP-RAZE", _raze_one_more),
    ("broken-plan-salt.jsonl", "a plan opened with a salt that does not make its commitment",
     "WK-PLAN-COMMIT", _plan_salt),
    ("broken-levy-claim.jsonl", "a Levy Taxes claiming 2 crowns too many", "WK-LEVY", _wrong_levy),
    ("broken-off-road-move.jsonl", "a Noble moved two areas without a road", "WK-MOVE", _off_the_road),
    ("broken-fate-count.jsonl", "a neutral city draws one Fate card fewer than its strength gives",
     "WK-FATE-COUNT", _fate_count, "game-2p-short.jsonl"),
    ("broken-wages-claim.jsonl", "wages claimed 3 crowns too high", "WK-WAGES", _wages_claim),
    ("broken-votes-revealed.jsonl", "votes revealed that are not the ones hidden", "WK-VOTES",
     _votes_not_hidden),
    ("broken-card-twice.jsonl", "a Mercenary dealt to red laid out in the market too", "WK-DECK", _card_twice),
    ("broken-other-data.jsonl", "the log names another board than the one it is judged with",
     "WK-DATA-DIGEST", _other_data),
    ("broken-wrong-winner.jsonl", "the declared winner is not the rules' winner", "WK-RESULT", _wrong_winner),
    ("broken-cg-mission-salt.jsonl", "a Mission revealed with a salt that does not make its commitment",
     "WK-MISSION-REVEAL", _mission_salt, "game-cg-4p.jsonl"),
)


def _text(envs: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envs)


def _renamed(envs: list[dict], game: str) -> list[dict]:
    out = copy.deepcopy(envs)
    for e in out:
        e["game"] = game
    return out


def build(folder: Path = HERE) -> dict[str, str]:
    out: dict[str, str] = {}
    games = {}
    seats = {}
    for name, players, seed, *variants in GAMES:
        game = play_game(seed, f"wk-{players}p", players, variants=tuple(variants[0]) if variants else ())
        assert game.finished, name
        seats[name] = players
        # each sample its own game id (the store keeps one game per id): "wk-" and the file's name
        games[name] = seal(_renamed(game.envelopes, "wk-" + name.removeprefix("game-").removesuffix(".jsonl")))
        out[name] = _text(games[name])
    base = games["game-2p.jsonl"]
    for name, _, _, change, *source in BROKEN:
        envs = _renamed(games[source[0]] if source else base,
                        f"wk-{seats[source[0]] if source else 2}p-" + name.removeprefix("broken-").removesuffix(".jsonl"))
        change(envs)
        out[name] = _text(seal(envs))
    edited = _renamed(base, "wk-2p-edited-line")
    edited = seal(edited)
    _wrong_levy(edited)                                   # changed after sealing: the chain breaks
    out["broken-edited-line.jsonl"] = _text(edited)
    return out


def main() -> None:
    for name, text in build(HERE).items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(GAMES)} games and {len(BROKEN) + 1} broken copies to {HERE}")


if __name__ == "__main__":
    main()
