"""The statistics count each real game once, and only games judged clean (#16).

`ledger ingest sample_logs/` stores broken copies of game42 and of the Risk Legacy games under ids
of their own, and copies of game42 that are intact (a repeated line dropped, a log cut short). The
dashboard, `ledger stats` and every query count only the clean games, each once, say under every
chart and table what they counted and left out, and `--include-broken` brings the rest back.

The truths here are computed from the samples themselves (the campaign file of the Risk Legacy
games, the logs' events), not from the code under test.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analytics.load import load_tables
from analytics.selection import MIN_COPY_DICE
from ledger.cli import app
from ledger.store import open_store
from replay.logfile import read_log
from tests.test_store_support import GAME42, SAMPLES, game, write_game

runner = CliRunner()
CAMPAIGN = SAMPLES / "legacy" / "earth.campaign.json"
KHAN = "khan_industries"


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("counts") / "samples.duckdb"
    # the sample folder as the issue found it: every sample but the tournament's (whose games
    # are clean, and would add Risk Legacy games beyond the campaign the truth is read from)
    paths = [str(p) for p in sorted(SAMPLES.iterdir()) if p.name != "tournament"
             and (p.is_dir() or p.suffix == ".jsonl")]
    r = run("ingest", *paths, "--db", str(path))
    assert r.exit_code in (0, 1), r.output        # the folder holds logs ingest must reject
    with open_store(path, read_only=True) as store:
        assert store.query("SELECT count(*) FROM games").item() > 50
    return str(path)


@pytest.fixture(scope="module")
def pages(db, tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("pages")
    found = {}
    for name, extra in (("clean", ()), ("all", ("--include-broken",))):
        r = run("dashboard", "--db", db, "--out", str(out / f"{name}.html"), *extra)
        assert r.exit_code == 0, r.output
        found[name] = (out / f"{name}.html").read_text(encoding="utf-8")
    return found


def stats(db: str, *args: str) -> dict:
    r = run("stats", "--db", db, "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


# --- the truth, from the samples --------------------------------------------------------------------


def campaign_khan() -> tuple[int, int]:
    """(games won, games played) by Khan Industries in the campaign file's games: the games of
    the campaign as played, each once, none broken."""
    games = json.loads(CAMPAIGN.read_text(encoding="utf-8"))["games"]
    played = [p for g in games for p in g["players"].values() if p["faction"] == KHAN]
    return sum(p["outcome"] == "won" for p in played), len(played)


def stored_khan(db: str) -> tuple[int, int]:
    """(wins, finished games) of Khan Industries over every stored game, broken copies too."""
    with open_store(db, read_only=True) as store:
        row = store.query("SELECT sum(win_share), count(*) FROM legacy_outcomes "
                          "WHERE faction = $f AND finished", {"f": KHAN}).row(0)
    return int(row[0]), int(row[1])


def events_of(db: str, game_id: str) -> list[tuple]:
    with open_store(db, read_only=True) as store:
        return store.query("SELECT type, actor, payload::VARCHAR FROM events WHERE game_id = $g "
                           "ORDER BY seq", {"g": game_id}).rows()


def faction_label(page: str, faction_title: str) -> str:
    """The "w of n" under a faction's bar in the dashboard's Risk Legacy win-rate-by-faction
    chart (the chart's data, as the page embeds it)."""
    start = page.index('"legacy-win-rate-faction"')
    ticks = json.loads(re.search(r'"ticktext":(\[[^\]]*\])', page[start:]).group(1))
    words = faction_title.split()
    label = next(t for t in ticks if all(w in t for w in words))
    return re.search(r"<b>([\d.]+ of \d+)</b>", label).group(1)


def table_after(page: str, heading: str) -> list[list[str]]:
    """The cells of the first table after `heading`."""
    start = page.index(heading)
    body = page[start:page.index("</table>", start)]
    return [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body) if "<td>" in row]


# --- the counts ------------------------------------------------------------------------------------


def test_khan_is_counted_in_the_clean_games_only(db, pages):
    wins, played = campaign_khan()
    assert (wins, played) == (4, 5)                         # the truth, from the file
    assert faction_label(pages["clean"], "Khan Industries") == f"{wins} of {played}"
    rows = {r["faction"]: r for r in stats(db, "-q", "legacy_win_rate_by_faction")
            ["queries"]["legacy_win_rate_by_faction"]}
    assert (rows[KHAN]["wins"], rows[KHAN]["games"]) == (wins, played)


def test_include_broken_brings_every_stored_game_back(db, pages):
    wins, played = stored_khan(db)
    assert played > campaign_khan()[1]                      # the broken copies are stored
    assert faction_label(pages["all"], "Khan Industries") == f"{wins} of {played}"
    data = stats(db, "--include-broken", "-q", "legacy_win_rate_by_faction")
    rows = {r["faction"]: r for r in data["queries"]["legacy_win_rate_by_faction"]}
    assert (rows[KHAN]["wins"], rows[KHAN]["games"]) == (wins, played)
    assert data["games"]["include_broken"] and \
        data["games"]["counted"] == data["games"]["stored"]


def test_the_clean_risk_legacy_games_are_the_campaign_s(db):
    games = json.loads(CAMPAIGN.read_text(encoding="utf-8"))["games"]
    with open_store(db, read_only=True) as store:
        t = load_tables(store)
        counted = set(t.legacy_games.collect()["game_id"])
    assert counted == {g["game_id"] for g in games}


def test_no_game_is_counted_twice_among_the_luckiest_players(db, pages):
    for name, page in pages.items():
        rows = table_after(page, "The luckiest players in one game")
        assert len(rows) == 10
        ids = [r[0] for r in rows]
        if name == "all":     # the copies of game42 are back, as the issue saw them
            assert sum(i.startswith("game42") for i in ids) > 2
            continue
        logs = {i: events_of(db, i) for i in set(ids)}
        for a in logs:
            for b in logs:
                n = min(len(logs[a]), len(logs[b]))
                assert a == b or logs[a][:n] != logs[b][:n], f"{a} is a copy of {b}"


def test_the_copies_of_game42_are_left_out_and_said_to_be(db, pages):
    data = stats(db)["games"]
    why = {g["game_id"]: g for g in data["left_out_games"]}
    # intact copies (no findings): a line repeated, the log cut short; the broken ones have
    # findings of their own
    assert why["game42-duplicate-line"]["copy_of"] == "game42"
    assert why["game42-truncated"]["copy_of"] == "game42"
    assert why["game42-card-twice"]["reason"] == "findings"
    assert why["earth-06-wrong-world"]["reason"] == "campaign"
    # the same variant game recorded twice: digital play and as a table writes it down
    assert why["var-teams-table"]["copy_of"] == "var-teams"
    # game42 up to round 6, then another game: counted
    assert "tiebreak" not in why and "game42" not in why
    assert data["left_out"] == len(why) == sum(data["by_reason"].values())
    page = pages["clean"]
    note = (f"{data['counted']} of {data['stored']} stored games counted; left out: "
            f"{data['by_reason']['findings']} with findings, ")
    assert note in page
    left = {r[0]: r for r in table_after(page, "games left out, and why")}
    assert set(left) == set(why)
    assert left["game42-truncated"][3].startswith("copy of game42")


@pytest.mark.parametrize("name", ["clean", "all"])
def test_every_chart_and_table_says_what_it_counted(pages, name):
    page = pages[name]
    caption = "<p class='counted'>"
    frames = [m.start() for m in re.finditer(r'<div class="chart', page)]
    assert len(frames) >= 20
    for here, after in zip(frames, frames[1:] + [len(page)]):
        assert caption in page[here:after], page[here:here + 200]
    listing = page.index("</details>")
    tables = [m.end() for m in re.finditer("</table>", page) if m.end() < listing - 20 or
              m.start() > listing]
    assert len(tables) >= 5
    for end in tables:
        assert page[end:].startswith(caption), page[end - 200:end + 100]
    if name == "clean":
        assert "5 of 10 stored Risk Legacy games counted; left out: 4 with findings, 1 with " \
            "campaign findings." in page
    else:
        assert "All 10 stored Risk Legacy games counted (--include-broken), 4 with findings, " \
            "1 with campaign findings among them" in page


@pytest.mark.parametrize("name", ["clean", "all"])
def test_no_table_shows_python_s_true_or_false(pages, name):
    cells = re.findall(r"<td>(.*?)</td>", pages[name])
    assert cells and not {"True", "False"} & set(cells)
    assert "yes" in cells and "no" in cells


def test_left_out_lists_each_game_with_why(db):
    r = run("stats", "--db", db, "--left-out")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert re.match(r"\d+ of \d+ stored games counted; left out: ", lines[0])
    assert "game42-truncated (Risk Europe): copy of game42 (its 97 events are the first of " \
        "game42's 195)" in lines
    assert "earth-06-wrong-world (Risk Legacy): campaign findings: RL-CAMPAIGN-WORLD" in lines


# --- what a copy is --------------------------------------------------------------------------------


def _selection(tmp_path: Path, logs: list[Path]):
    db = tmp_path / "s.duckdb"
    with open_store(db) as store:
        for log in logs:
            store.ingest_read(read_log(log))
    with open_store(db, read_only=True) as store:
        return load_tables(store).selection


def test_a_copy_under_another_id_a_cut_log_and_a_short_one_are_copies(tmp_path):
    logs = [GAME42,
            write_game(tmp_path / "renamed.jsonl", game("renamed")),       # the same events
            write_game(tmp_path / "cut.jsonl", game("cut", 120)),          # its first 120
            write_game(tmp_path / "two.jsonl", game("two", 2)),            # its first 2
            SAMPLES / "tiebreak.jsonl", SAMPLES / "sim-0001.jsonl"]
    sel = _selection(tmp_path, logs)
    copies = {g.game_id: g.copy_of for g in sel.left_out}
    assert copies == {"renamed": "game42", "cut": "game42", "two": "game42"}
    assert sel.counted_ids == ["game42", "sim-0001", "tiebreak"]


def test_a_game_recorded_twice_is_one_game_by_its_dice(tmp_path):
    sel = _selection(tmp_path, [SAMPLES / "var-mercenaries-3p-table.jsonl",
                                SAMPLES / "var-mercenaries-3p.jsonl"])
    [copy] = sel.left_out
    # the digital record is kept: it is the longer (its bids and cards are commitments)
    assert (copy.game_id, copy.copy_of) == ("var-mercenaries-3p-table", "var-mercenaries-3p")
    assert "same dice" in copy.detail


def test_a_short_log_never_ties_two_different_games_together(tmp_path):
    """A log cut short that starts both game42 and tiebreak is a copy; the two stay counted."""
    logs = [GAME42, SAMPLES / "tiebreak.jsonl",
            write_game(tmp_path / "start.jsonl", game("start", 60))]
    sel = _selection(tmp_path, logs)
    assert [g.game_id for g in sel.left_out] == ["start"]
    assert sel.counted_ids == ["game42", "tiebreak"]


def test_include_broken_counts_every_game_and_still_says_which(tmp_path):
    logs = [GAME42, write_game(tmp_path / "renamed.jsonl", game("renamed")),
            SAMPLES / "broken-card-twice.jsonl"]
    db = tmp_path / "s.duckdb"
    with open_store(db) as store:
        for log in logs:
            store.ingest_read(read_log(log))
    with open_store(db, read_only=True) as store:
        clean, every = load_tables(store), load_tables(store, include_broken=True)
    assert clean.games.collect()["game_id"].to_list() == ["game42"]
    assert sorted(every.games.collect()["game_id"]) == ["game42", "game42-card-twice", "renamed"]
    assert every.selection.note().startswith("All 3 stored games counted (--include-broken), "
                                             "1 with findings, 1 copy among them")
    assert clean.selection.note(listing=False) == \
        "1 of 3 stored games counted; left out: 1 with findings, 1 copy"
