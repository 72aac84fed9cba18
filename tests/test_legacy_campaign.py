"""Campaigns: a list of game logs on one evolving world. A new user creates a campaign, adds games
in order, sees the history; a game that starts from the wrong world is refused and found by the
audit (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.campaign import Campaign, history, history_lines, new_campaign, next_game_start
from ledger.campaign import CampaignError, add_game, audit_campaign, load_campaign, save_campaign
from ledger.cli import app
from engine.risk_legacy.sim import play_game
from replay.logfile import write_log

DATA = default_data()
POWERS = {f: 0 for f in DATA.powers}
STICKERS = {"A1": 2, "A2": 2, "A3": 2, "A4": 2, "A5": 2, "A6": 2}
runner = CliRunner()


def fresh(tmp_path: Path) -> tuple[Path, Campaign]:
    problems, c = new_campaign("terra", POWERS, STICKERS)
    assert problems == []
    path = tmp_path / "terra.campaign.json"
    save_campaign(c, path)
    return path, c


def play(tmp_path: Path, c: Campaign, n: int, world: W.World | None = None, name: str | None = None,
         seed: int = 0) -> Path:
    game = play_game(seed + n, f"terra-{n:02d}", world or c.world, campaign=name or c.name)
    path = tmp_path / f"game-{n:02d}.jsonl"
    write_log(path, game.envelopes)
    return path


def test_new_campaign_customizes_the_box(tmp_path):
    path, c = fresh(tmp_path)
    again = load_campaign(path)
    assert W.world_digest(again.world) == W.world_digest(c.world0)
    assert again.world.resources["A1"] == 3 and again.world.powers["saharan_republic"] == "sahara-maneuver-anytime"
    assert again.next_game == 1 and again.setup["stickers"]["A1"] == 2


def test_RL_CAMPAIGN_ORDER_games_are_added_in_order_and_the_world_moves_on(tmp_path):
    path, c = fresh(tmp_path)
    for n in (1, 2, 3):
        res = add_game(c, play(tmp_path, c, n), tmp_path)
        assert res.entry is not None, [f.format() for f in res.findings]
        assert res.entry["game"] == n and res.entry["log"] == f"game-{n:02d}.jsonl"
    save_campaign(c, path)
    c2 = load_campaign(path)
    assert [g["game"] for g in c2.games] == [1, 2, 3] and c2.world.games == 3
    assert c2.games[1]["world_before"] == c2.games[0]["world_after"]
    assert all(a.findings == [] for a in audit_campaign(c2, tmp_path))


def test_RL_CAMPAIGN_ORDER_a_game_with_the_wrong_number_is_refused(tmp_path):
    _, c = fresh(tmp_path)
    log = play(tmp_path, c, 1)
    add_game(c, log, tmp_path)
    res = add_game(c, log, tmp_path)                 # game 1 again as game 2
    assert res.entry is None
    assert "RL-CAMPAIGN-ORDER" in [f.rule for f in res.findings]


def test_RL_CAMPAIGN_ORDER_another_campaigns_game_is_refused(tmp_path):
    _, c = fresh(tmp_path)
    res = add_game(c, play(tmp_path, c, 1, name="mars"), tmp_path)
    assert res.entry is None and [f.rule for f in res.findings] == ["RL-CAMPAIGN-ORDER"]


def test_RL_CAMPAIGN_ORDER_an_unfinished_game_is_refused(tmp_path):
    _, c = fresh(tmp_path)
    log = play(tmp_path, c, 1)
    lines = log.read_text("utf-8").splitlines()
    end = next(i for i, line in enumerate(lines) if '"RewardChosen"' in line or '"GameEnded"' in line)
    cut = [json.loads(x) for x in lines[:end - 5]]
    from replay.logfile import seal
    write_log(log, seal(cut))
    res = add_game(c, log, tmp_path)
    assert res.entry is None and "RL-CAMPAIGN-ORDER" in [f.rule for f in res.findings]


def test_RL_CAMPAIGN_WORLD_a_game_that_ignores_a_scar_from_two_games_earlier_is_caught(tmp_path):
    path, c = fresh(tmp_path)
    for n in (1, 2):
        assert add_game(c, play(tmp_path, c, n), tmp_path).entry is not None
    # the world after game 2 has a scar placed in game 1 or 2 (or we put one there as game 2 would)
    scarred = [t for t, m in c.world.territories.items() if m.scar]
    if not scarred:
        c.world = W.with_marks(c.world, "egypt", scar="bunker")
        scarred = ["egypt"]
    t = scarred[0]
    forgot = W.with_marks(c.world, t, scar=None)
    log = play(tmp_path, c, 3, world=forgot)
    res = add_game(c, log, tmp_path)
    assert res.entry is None
    found = [f for f in res.findings if f.rule == "RL-CAMPAIGN-WORLD"]
    assert found and f"scar in {DATA.names[t]}" in found[0].message
    audits = audit_campaign(c, tmp_path, [log])
    assert [f.rule for f in audits[-1].findings] == ["RL-CAMPAIGN-WORLD"]


def test_RL_CAMPAIGN_WORLD_a_log_changed_after_it_was_added_is_found(tmp_path):
    _, c = fresh(tmp_path)
    log = play(tmp_path, c, 1)
    add_game(c, log, tmp_path)
    envs = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    from replay.logfile import seal
    write_log(log, seal(envs[:-1]))                                  # the seed line dropped: a new head
    audits = audit_campaign(c, tmp_path)
    assert "RL-CAMPAIGN-ORDER" in [f.rule for f in audits[0].findings]


def test_the_history_tells_who_won_what_and_the_world(tmp_path):
    _, c = fresh(tmp_path)
    for n in (1, 2):
        add_game(c, play(tmp_path, c, n), tmp_path)
    h = history(c)
    assert h["games_played"] == 2 and h["next_game"] == 3 and h["reward_games_left"] == 13
    assert all(g["winner"] and g["changes"] for g in h["games"])
    assert any("signs the victors' section" in ch for ch in h["games"][0]["changes"])
    lines = history_lines(c)
    assert lines[0].startswith("Campaign 'terra'") and any(line.startswith("Game 2") for line in lines)
    assert any("victors' section" in line for line in lines)


def test_next_game_start_carries_the_world_and_its_digest(tmp_path):
    _, c = fresh(tmp_path)
    p = next_game_start(c, ["ann", "bob", "cat"])
    assert p["campaign"] == {"name": "terra", "game": 1, "world": W.world_digest(c.world)}
    assert W.world_digest(W.world_from_dict(p["world"])) == p["campaign"]["world"]


def test_load_campaign_reports_bad_files(tmp_path):
    with pytest.raises(CampaignError):
        load_campaign(tmp_path / "nope.campaign.json")
    bad = tmp_path / "bad.campaign.json"
    bad.write_text('{"format": "something"}')
    with pytest.raises(CampaignError):
        load_campaign(bad)


# --- the command line ----------------------------------------------------------------------------

def cli(*args, cwd: Path | None = None):
    import os
    old = os.getcwd()
    if cwd:
        os.chdir(cwd)
    try:
        return runner.invoke(app, list(args))
    finally:
        os.chdir(old)


def test_cli_new_add_show_audit(tmp_path):
    r = cli("campaign", "new", "terra", "--seed", "3", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    path = tmp_path / "terra.campaign.json"
    c = load_campaign(path)
    log = play(tmp_path, c, 1)
    r = cli("campaign", "add", str(path), str(log))
    assert r.exit_code == 0, r.output
    assert "added game 1" in r.output
    r = cli("campaign", "show", str(path))
    assert r.exit_code == 0 and "Game 1" in r.output and "The world now" in r.output
    r = cli("campaign", "show", str(path), "--json")
    assert json.loads(r.output)["games_played"] == 1
    r = cli("campaign", "audit", str(path))
    assert r.exit_code == 0 and "clean" in r.output
    r = cli("campaign", "next", str(path), "--players", "ann,bob,cat")
    first = json.loads(r.output)
    assert first["type"] == "GameStarted" and first["payload"]["campaign"]["game"] == 2


def test_cli_add_refuses_a_game_from_the_wrong_world(tmp_path):
    cli("campaign", "new", "terra", "--seed", "3", cwd=tmp_path)
    path = tmp_path / "terra.campaign.json"
    c = load_campaign(path)
    wrong = W.with_marks(c.world, "egypt", scar="bunker")
    log = play(tmp_path, c, 1, world=wrong)
    r = cli("campaign", "add", str(path), str(log), "--json")
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["added"] is False and "RL-CAMPAIGN-WORLD" in [f["rule"] for f in out["findings"]]
    assert load_campaign(path).games == []


def test_cli_new_checks_the_customization(tmp_path):
    r = cli("campaign", "new", "terra", "--stickers", "A1=5", cwd=tmp_path)
    assert r.exit_code == 1 and "RL-CUSTOMIZE" in r.output


def test_cli_simulate_a_campaign(tmp_path):
    r = cli("campaign", "simulate", "sim", "--games", "2", "--seed", "5", "--out", str(tmp_path / "sim"))
    assert r.exit_code == 0, r.output
    c = load_campaign(tmp_path / "sim" / "sim.campaign.json")
    assert len(c.games) == 2
    assert all(a.findings == [] for a in audit_campaign(c, tmp_path / "sim"))


def test_ledger_audit_with_a_campaign_catches_a_game_from_the_wrong_world():
    """`ledger audit GAME --campaign C`: a game 6 that ignores the scars placed in game 2."""
    from pathlib import Path
    from typer.testing import CliRunner
    from ledger.cli import app
    legacy = Path(__file__).resolve().parent.parent / "sample_logs" / "legacy"
    campaign = str(legacy / "earth.campaign.json")
    r = CliRunner().invoke(app, ["audit", str(legacy / "broken-wrong-world.jsonl"), "--campaign", campaign])
    assert r.exit_code == 1 and "RL-CAMPAIGN-WORLD" in r.output and "scar in Central America" in r.output
    r = CliRunner().invoke(app, ["audit", str(legacy / "game-03.jsonl"), "--campaign", campaign])
    assert r.exit_code == 0, r.output
