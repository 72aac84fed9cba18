"""An organizer's rulings as events of the log (issue #12): RulingRecorded in any game's log, what
accept, void, replay-from and note do to the judge and the verdict, `ledger rule` on a file and on
a stored game, POST /games/{id}/rulings; and `ledger replay FILE --as SEAT` (each seat's game,
with hidden information withheld until its reveal, --round and --json)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.rulings import RULING_EVENT, RulingRecorded, takes_back
from engine.core.views import HIDDEN
from ledger import exitcodes
from ledger.cli import app
from replay.judge import judge
from replay.logfile import read_log, read_log_text, seal, write_log
from tests.test_toy_ruleset import nim_installed, nim_log  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
CASTLE = SAMPLES / "broken-castle-no-siege.jsonl"      # RE-EXPAND-CASTLE at seq 148 (red into Saxony)
CARD_TWICE = SAMPLES / "broken-card-twice.jsonl"        # RE-CARDS-HAND at seq 29 and 33
GAME42 = SAMPLES / "game42.jsonl"

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def copy(src: Path, tmp_path: Path, name: str = "game.jsonl") -> Path:
    out = tmp_path / name
    shutil.copy(src, out)
    return out


def envelopes(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def write_sealed(path: Path, envs: list[dict]) -> Path:
    """`envs` renumbered 0, 1, 2, ... and sealed into `path`."""
    plain = [{k: v for k, v in e.items() if k not in ("prev", "hash")} | {"seq": i}
             for i, e in enumerate(envs)]
    write_log(path, seal(plain))
    return path


def ruling(game: str, answers: int, decision: str, text: str = "ruled", **more) -> dict:
    return {"v": 1, "game": game, "seq": 0, "type": RULING_EVENT, "actor": None,
            "payload": {"seq": answers, "decision": decision, "text": text, **more}}


def verdict_json(path, *more):
    r = run("verify", path, "--json", *more)
    return r.exit_code, json.loads(r.output)


# --- accept -------------------------------------------------------------------------------------


def test_an_accepted_illegal_move_makes_the_game_ruled(tmp_path):
    log = copy(CASTLE, tmp_path)
    before = log.read_bytes()
    code, v = verdict_json(log)
    assert (code, v["status"]) == (exitcodes.FINDINGS, "not verified")
    r = run("rule", log, 148, "the Siege Weapon was on the board; the recorder missed it",
            "--decision", "accept", "--by", "J. Smith", "--at", "2026-03-14T22:00:00Z")
    assert r.exit_code == 0, r.output
    assert "the game now: ruled: every finding is accepted by a ruling" in r.output
    # the log is only appended to: every old line as it was, the ruling chained onto the head
    assert log.read_bytes().startswith(before)
    *_, last, new = envelopes(log)
    assert new["type"] == RULING_EVENT and new["seq"] == last["seq"] + 1 == 198
    assert new["prev"] == last["hash"] and new["actor"] is None and new["at"] == "2026-03-14T22:00:00Z"
    assert new["payload"] == {"seq": 148, "decision": "accept", "by": "J. Smith",
                              "text": "the Siege Weapon was on the board; the recorder missed it"}
    code, v = verdict_json(log)
    assert (code, v["status"], v["ruled"], v["verified"]) == (0, "ruled", True, True)
    assert all(c["ok"] for c in v["checks"])
    [f] = v["findings"]
    assert (f["rule"], f["seq"], f["ruling"]) == ("RE-EXPAND-CASTLE", 148, 198)
    assert v["rulings"] == [{"seq": 198, "line": 199, "answers": 148, "decision": "accept",
                             "text": "the Siege Weapon was on the board; the recorder missed it",
                             "by": "J. Smith", "from": None, "voids": []}]
    text = run("verify", log).output
    assert text.splitlines()[0] == f"{log}: RULED (verified under the organizer's rulings)"
    assert "[ok] rules: no rule errors; 1 accepted by rulings" in text
    assert "⚖ accepted as recorded by the ruling at #198 (J. Smith)" in text
    # audit: the finding, the ruling beside it, and "ruled"; exit 0
    a = run("audit", log)
    assert a.exit_code == 0, a.output
    lines = a.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "RE-EXPAND-CASTLE" in line)
    assert lines[at + 1].strip().startswith("⚖ accepted as recorded by the ruling at #198")
    assert lines[-1] == f"{log}: ruled (199 events; every finding is accepted by a ruling)"
    aj = json.loads(run("audit", log, "--json").output)
    assert (aj["ruled"], aj["open_findings"], aj["clean"]) == (True, 0, False)
    # replay: beside the finding, and at its own place; exit 0
    rp = run("replay", log)
    assert rp.exit_code == 0
    out = rp.output.splitlines()
    at = next(i for i, line in enumerate(out) if "!! ILLEGAL RE-EXPAND-CASTLE" in line)
    assert out[at].endswith("— ruled: accepted")
    assert out[at + 1].strip().startswith("⚖ accepted as recorded by the ruling at #198 (J. Smith)")
    assert any(line.startswith("  L199 #198 ⚖ ruling on #148 by J. Smith: accept") for line in out)
    assert "  the game is ruled: every finding is accepted by a ruling" in out
    steps = {s["seq"]: s for s in json.loads(run("replay", log, "--json").output)["steps"]}
    assert steps[148]["rulings"][0]["seq"] == 198 and steps[148]["findings"][0]["ruling"] == 198
    assert steps[198]["status"] == "ruling" and steps[198]["digest"] == steps[197]["digest"]


def test_an_accept_answers_only_the_findings_of_its_event(tmp_path):
    log = copy(CARD_TWICE, tmp_path)
    assert run("rule", log, 29, "blue had the card back: the refill was early", "-d", "accept").exit_code == 0
    code, v = verdict_json(log)
    assert (code, v["status"], v["ruled"]) == (exitcodes.FINDINGS, "not verified", False)
    assert [(f["seq"], f["ruling"]) for f in v["findings"]] == [(29, 195), (33, None)]
    assert "[FAIL] rules: 1 finding(s); 1 accepted by rulings" in run("verify", log).output
    assert run("audit", log).exit_code == exitcodes.FINDINGS
    assert run("rule", log, 33, "the same card, the same ruling", "-d", "accept").exit_code == 0
    assert verdict_json(log)[1]["status"] == "ruled"


def test_a_note_and_an_accept_of_a_clean_event_change_no_verdict(tmp_path):
    log = copy(GAME42, tmp_path)
    assert run("rule", log, 14, "blue asked whether Poland may be entered; it may").exit_code == 0
    assert run("rule", log, 20, "checked", "-d", "accept").exit_code == 0
    code, v = verdict_json(log)
    assert (code, v["status"], v["ruled"]) == (0, "verified", False)
    assert [r["decision"] for r in v["rulings"]] == ["note", "accept"]
    j = judge(read_log(log), digests=True)
    plain = judge(read_log(GAME42), digests=True)
    assert j.result == plain.result and j.clean and not j.ruled
    assert [s.digest for s in j.steps][:len(plain.steps)] == [s.digest for s in plain.steps]
    assert "⚖ noted by the ruling at #195" in run("replay", log, "--round", "1").output


def test_a_ruling_answers_after_the_game_ended_in_every_game(tmp_path, nim_installed):
    # Risk Legacy: after the win, the seed revealed
    legacy = copy(SAMPLES / "legacy" / "game-01.jsonl", tmp_path, "legacy.jsonl")
    assert run("rule", legacy, 72, "the bunker was placed before the dice, as logged", "--by", "TD").exit_code == 0
    j = judge(read_log(legacy))
    assert [r.answers for r in j.rulings] == [72] and j.clean
    # a third game that knows nothing of rulings (Nim, an installed plugin)
    bad = nim_log(tmp_path / "nim.jsonl", "nim-2", [("ann", 3), ("ann", 2), ("bob", 2)], "bob")
    before = judge(read_log(bad))
    [seq] = {f.seq for f in before.findings if f.kind == "illegal"}
    r = run("rule", bad, seq, "ann played twice; the table let it stand", "-d", "accept")
    assert r.exit_code == 0, r.output
    after = judge(read_log(bad))
    assert after.result == before.result and after.ruled and not after.open_findings


# --- void and replay-from ----------------------------------------------------------------------


def test_void_takes_events_out_and_the_rest_is_judged_without_them(tmp_path):
    log = copy(CASTLE, tmp_path)
    r = run("rule", log, 148, "the expand into Saxony is void: red had no Siege Weapon", "-d", "void")
    assert r.exit_code == 0 and "3 open findings" in r.output
    j = judge(read_log(log), keep_steps=True)
    by_seq = {s.seq: s for s in j.steps}
    assert by_seq[148].status == "voided" and by_seq[148].findings == []
    # the table fought the battle for Saxony on the move it voided: that is now out of place
    assert sorted({f.seq for f in j.open_findings}) == [151, 152, 153]
    code, v = verdict_json(log)
    assert (code, v["status"]) == (exitcodes.FINDINGS, "not verified")
    r = run("rule", log, 153, "the battle for Saxony is void with it", "-d", "void", "--from", 151)
    assert r.exit_code == 0 and "ruled" in r.output
    code, v = verdict_json(log)
    assert (code, v["status"], v["findings"]) == (0, "ruled", [])
    assert [r["voids"] for r in v["rulings"]] == [[148], [151, 152, 153]]
    # voiding is the same to the rules as never logging: the game judged without those lines
    kept = [e for e in envelopes(CASTLE) if e["seq"] not in (148, 151, 152, 153)]
    cut = judge(read_log(write_sealed(tmp_path / "cut.jsonl", kept)), digests=True)
    ruled = judge(read_log(log), digests=True)
    assert cut.clean and ruled.result == cut.result
    assert ruled.steps[-1].digest == cut.steps[-1].digest
    text = run("replay", log, "--round", 6).output
    assert "  L149 #148 ⊘ red EXPAND 1F Friesland → Saxony" in text
    assert "taken out of the game by the ruling at #198" in text
    assert "⚖ taken out of the game with #151-#153 by the ruling at #199" in text


def test_replay_from_takes_out_everything_up_to_the_ruling(tmp_path):
    """The table noticed an illegal expand (seq 15), went back to before blue's expand (seq 14)
    and played on: replay-from 14 takes out 14 and 15, and the game goes on from seq 13's state."""
    g42 = envelopes(GAME42)
    wrong = {**g42[14], "payload": {"from": "Bohemia", "to": "Poland", "units": {"footman": 9}}}
    game = g42[:15] + [wrong, ruling("game42", 15, "replay-from", "9 footmen were never there: "
                                     "blue's expand is played again", **{"from": 14})] + g42[14:]
    log = write_sealed(tmp_path / "replayed.jsonl", game)
    j = judge(read_log(log), digests=True)
    assert [(s.seq, s.status) for s in j.steps[13:17]] == [
        (14, "voided"), (15, "voided"), (16, "ruling"), (17, "ok")]
    assert j.rulings[0].voids == (14, 15) and j.rulings[0].replay_from == 14
    assert j.clean and j.ruled
    plain = judge(read_log(GAME42), digests=True)
    assert j.result == plain.result and j.steps[-1].digest == plain.steps[-1].digest
    code, v = verdict_json(log)
    assert (code, v["status"]) == (0, "ruled")
    assert "⚖ the game replayed from #14 by the ruling at #16" in run("replay", log, "--round", 1).output


def test_a_ruling_in_a_file_that_cannot_stand_is_LOG_RULING(tmp_path):
    g42 = envelopes(GAME42)
    bad = [ruling("game42", 3, "accept", "by a player") | {"actor": "blue"},
           ruling("game42", 500, "accept", "no such event"),
           ruling("game42", 0, "void", "the start"),
           ruling("game42", 1, "note", "fine")]
    on_a_ruling = ruling("game42", 198, "note", "a ruling on a ruling")
    log = write_sealed(tmp_path / "bad.jsonl", g42 + bad + [on_a_ruling])
    j = judge(read_log(log))
    found = [(f.seq, f.rule) for f in j.findings]
    assert found == [(195, "LOG-RULING"), (196, "LOG-RULING"), (197, "LOG-RULING"),
                     (199, "LOG-RULING")]
    assert "names 'blue'" in j.findings[0].message and "seq 500 is not before" in j.findings[1].message
    assert "seq 0" in j.findings[2].message and "itself a ruling" in j.findings[3].message
    assert [r.seq for r in j.rulings] == [198]          # only the note stands
    assert verdict_json(log)[0] == exitcodes.MALFORMED   # a log problem: no ruling answers it
    payload = write_sealed(tmp_path / "payload.jsonl",
                           g42 + [ruling("game42", 5, "replay-from", "no from")])
    [f] = judge(read_log(payload)).findings
    assert f.rule == "LOG-PAYLOAD" and '"from"' in f.message


# --- ledger rule: refusals --------------------------------------------------------------------


def test_ledger_rule_refuses_what_cannot_stand_and_writes_nothing(tmp_path):
    log = copy(CASTLE, tmp_path)
    before = log.read_bytes()
    r = run("rule", log, 999, "no such event", "-d", "accept")
    assert r.exit_code == exitcodes.NO_SUCH == 6
    assert "no event with seq 999" in r.output and "seq 0-197" in r.output
    for args, says in [((0, "the start", "-d", "void"), "seq 0"),
                       ((5, "x", "-d", "replay-from"), "needs \"from\""),
                       ((5, "x", "-d", "accept", "--from", 3), '"from" goes with'),
                       ((5, "x", "-d", "void", "--from", 7), "after the event"),
                       ((5, "   ", "-d", "note"), "blank"),
                       ((5, "x", "-d", "overrule"), "one of accept, void, replay-from, note"),
                       ((5, "x", "--at", "yesterday"), "RFC 3339")]:
        r = run("rule", log, *args)
        assert r.exit_code == exitcodes.USAGE, (args, r.output)
        assert says in r.output, (args, r.output)
    assert log.read_bytes() == before
    assert run("rule", log, 5, "x").exit_code == 0        # a note by default
    r = run("rule", log, 198, "a ruling on a ruling", "-d", "accept")
    assert r.exit_code == exitcodes.USAGE and "itself a ruling" in r.output
    assert run("rule", tmp_path / "missing.jsonl", 1, "x").exit_code == exitcodes.UNREADABLE
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(before[:-40])
    r = run("rule", cut, 1, "x")
    assert r.exit_code == exitcodes.MALFORMED and "cannot take another line" in r.output
    assert cut.read_bytes() == before[:-40]
    assert run("rule", "--help").exit_code == 0 and "Example:" in run("rule", "--help").output


def test_ledger_rule_json_and_an_unsealed_log(tmp_path):
    log = tmp_path / "hand.jsonl"
    lines = [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in envelopes(CASTLE)]
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), "utf-8")
    r = run("rule", log, 148, "ok", "-d", "accept", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    # the rule finding is answered; LOG-UNSEALED is about the file, and no ruling answers it
    assert (out["seq"], out["hash"], out["ruled"], out["open_findings"]) == (198, None, False, 1)
    assert out["game_state"].startswith("1 open finding")
    assert "prev" not in envelopes(log)[-1]
    assert [f.rule for f in judge(read_log(log)).open_findings] == ["LOG-UNSEALED"]
    assert "not sealed" in run("rule", log, 5, "x").output


# --- a stored game ----------------------------------------------------------------------------


def test_a_ruling_on_a_stored_game(tmp_path):
    from ledger.store import open_store
    db = tmp_path / "club.duckdb"
    assert run("ingest", CASTLE, "--db", db).exit_code in (0, 1)
    gid = "game42-castle-no-siege"
    assert run("verify", gid, "--db", db).exit_code == exitcodes.FINDINGS
    r = run("rule", gid, 999, "x", "-d", "accept", "--db", db)
    assert r.exit_code == exitcodes.NO_SUCH, r.output
    r = run("rule", gid, 148, "the Siege Weapon was there", "-d", "accept", "--by", "TD", "--db", db)
    assert r.exit_code == 0, r.output
    assert f"appended RulingRecorded #198 to {db}:{gid}" in r.output
    code, v = verdict_json(gid, "--db", db)
    assert (code, v["status"]) == (0, "ruled")
    # a ruling that takes events out: the store judges the game again from its start
    assert run("rule", gid, 148, "void after all", "-d", "void", "--db", db).exit_code == 0
    assert run("rule", gid, 153, "and the battle", "-d", "void", "--from", 151, "--db", db).exit_code == 0
    store = open_store(db, read_only=True)
    try:
        lines = store.events(gid)
        assert len(lines) == 201 and store.findings(gid) == []
        read = read_log_text("".join(line + "\n" for line in lines), gid)
        assert read.chain_ok and [e.type for e in read.events[-3:]] == [RULING_EVENT] * 3
        assert store.check().ok
    finally:
        store.close()
    code, v = verdict_json(gid, "--db", db)
    assert (code, v["status"], [r["decision"] for r in v["rulings"]]) == (0, "ruled", ["accept", "void", "void"])
    assert "⚖" in run("replay", gid, "--db", db, "--round", 6).output


def test_a_stored_game_appended_by_the_store_api_sees_a_void_at_once(tmp_path):
    """The store's live judge cannot take back what it judged: a void ruling has the game
    judged again, and the findings rows follow."""
    from ledger.store import open_store
    store = open_store(tmp_path / "s.duckdb")
    try:
        store.ingest_reads([read_log(CASTLE)])
        gid = "game42-castle-no-siege"
        assert [f.rule for f in store.findings(gid)] == ["RE-EXPAND-CASTLE"]
        payload = {"seq": 148, "decision": "note", "text": "looked at"}
        store.append(gid, 198, [{"type": RULING_EVENT, "actor": None, "payload": payload}])
        assert len(store.findings(gid)) == 1
        assert takes_back(RULING_EVENT, {"decision": "void"}) and not takes_back(RULING_EVENT, payload)
        store.append(gid, 199, [{"type": RULING_EVENT, "actor": None,
                                 "payload": {"seq": 148, "decision": "void", "text": "void"}}])
        assert sorted(f.seq for f in store.findings(gid)) == [151, 152, 153]
    finally:
        store.close()


# --- the service ------------------------------------------------------------------------------


def test_the_service_records_rulings_for_the_organizer_only(tmp_path):
    from tests.test_service import SIM_GAME, auth, make_client, new_game
    client = make_client(tmp_path)
    created = new_game(client, mode="record", dice="table")
    seats, org = created["seats"], created["organizer"]
    url = f"/games/{SIM_GAME}"
    for seq, (seat, amount) in enumerate([("blue", 2), ("orange", 1)], start=1):
        r = client.post(f"{url}/events", headers=auth(seats[seat]),
                        json={"expected_seq": seq, "type": "BidPlaced", "actor": seat,
                              "payload": {"amount": amount}})
        assert r.status_code == 200, r.text
    body = {"seq": 2, "decision": "note", "text": "orange bid 1 coin, her hand hidden"}
    assert client.post(f"{url}/rulings", json=body).status_code == 401
    r = client.post(f"{url}/rulings", json=body, headers=auth(seats["blue"]))
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    r = client.post(f"{url}/rulings", json={**body, "seq": 40}, headers=auth(org))
    assert (r.status_code, r.json()["code"]) == (422, "unknown-seq")
    r = client.post(f"{url}/rulings", json={**body, "decision": "overrule"}, headers=auth(org))
    assert r.status_code == 422
    r = client.post(f"{url}/events", headers=auth(org), json={
        "expected_seq": 3, "type": RULING_EVENT, "actor": None, "payload": body})
    assert (r.status_code, r.json()["code"]) == (422, "use-rulings")
    r = client.post(f"{url}/rulings", json=body, headers=auth(org))
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["event"]["type"] == RULING_EVENT and out["event"]["seq"] == 3
    assert out["ruling"]["answers"] == 2 and out["head"]["next_seq"] == 4
    # stored as an event; its words kept from a seat that may not see orange's bid yet
    events = {s: client.get(f"{url}/events", headers=auth(seats[s])).json()["events"]
              for s in ("blue", "orange")}
    assert events["orange"][3]["payload"]["text"] == body["text"]
    assert events["blue"][2]["payload"]["amount"] == HIDDEN
    assert events["blue"][3]["payload"]["text"] == HIDDEN
    assert client.get(f"{url}/events").json()["events"][3]["payload"]["text"] == HIDDEN
    # void orange's bid: the game is judged again, and orange bids again
    assert "orange" not in client.get(f"{url}/state").json()["actors"]
    r = client.post(f"{url}/rulings", headers=auth(org),
                    json={"seq": 2, "decision": "void", "text": "orange bid out of turn", "by": "TD"})
    assert r.status_code == 201, r.text
    assert r.json()["ruling"]["voids"] == [2]
    assert "orange" in client.get(f"{url}/state").json()["actors"]
    r = client.post(f"{url}/events", headers=auth(seats["orange"]),
                    json={"expected_seq": 5, "type": "BidPlaced", "actor": "orange", "payload": {"amount": 0}})
    assert r.status_code == 200 and r.json()["findings"] == [], r.text
    lines = client.app.state.store.events(SIM_GAME)
    j = judge(read_log_text("".join(line + "\n" for line in lines), SIM_GAME))
    assert j.chain_ok and [r.decision for r in j.rulings] == ["note", "void"] and not j.findings


def test_the_ruling_payload_is_the_same_model_everywhere():
    assert RulingRecorded.model_validate({"seq": 3, "decision": "replay-from", "from": 1, "text": "t"}).from_ == 1
    with pytest.raises(ValueError):
        RulingRecorded.model_validate({"seq": 3, "decision": "accept", "text": "t", "extra": 1})
    schema = json.loads(run("schema", "--ruleset", "risk-legacy").output)
    assert "RulingRecordedLine" in schema["$defs"]


# --- a ruling as each seat sees it ----------------------------------------------------------


def test_a_rulings_words_are_withheld_from_a_seat_until_the_event_is_revealed(tmp_path):
    g42 = envelopes(GAME42)
    note = ruling("game42", 2, "note", "orange's bid of 1 coin was counted in her hand")
    log = write_sealed(tmp_path / "noted.jsonl", g42[:3] + [note] + g42[3:])
    steps = {s: {x["seq"]: x for x in json.loads(run("replay", log, "--as", s, "--json").output)["steps"]}
             for s in ("blue", "orange", "spectator")}
    assert steps["orange"][3]["payload"]["text"] == note["payload"]["text"]
    assert steps["blue"][3]["payload"]["text"] == HIDDEN == steps["spectator"][3]["payload"]["text"]
    assert steps["blue"][3]["payload"]["decision"] == "note" and steps["blue"][2]["rulings"][0]["text"] == HIDDEN
    assert "1 coin" not in run("replay", log, "--as", "blue", "--round", 0).output
    assert "1 coin" in run("replay", log, "--as", "orange", "--round", 0).output
    assert "1 coin" in run("replay", log).output


# --- ledger replay --as SEAT (part B) ----------------------------------------------------------


def test_blue_sees_orange_s_bid_only_once_the_bids_are_revealed():
    """game42: the bids for the First Player Marker are secret (seq 1-4); the last bid (green's,
    seq 4) reveals them all. Orange bid 1 coin."""
    r = run("replay", GAME42, "--as", "blue", "--json")
    assert r.exit_code == 0, r.output
    steps = {s["seq"]: s for s in json.loads(r.output)["steps"]}
    assert steps[1]["payload"] == {"amount": 2}                       # blue's own
    assert steps[2]["payload"] == {"amount": HIDDEN}                  # orange's, before the reveal
    for seq in (2, 3):
        assert steps[seq]["board"]["players"]["orange"]["bid"] == HIDDEN
        assert steps[seq]["digest"] is None                           # a digest would tell it
        assert not any("orange 1" in n for n in steps[seq]["notes"])
    assert steps[4]["board"]["players"]["orange"]["bid"] == 1         # revealed with the last bid
    assert "Bids revealed: blue 2, orange 1, red 0, green 0" in steps[4]["notes"]
    # the text, and --round 0 (the bids come before round 1)
    text = run("replay", GAME42, "--as", "blue", "--round", 0).output.splitlines()
    assert "  L3 #2 orange bids (hidden)" in text and "  L2 #1 blue bids 2" in text
    revealed = text.index("      → Bids revealed: blue 2, orange 1, red 0, green 0")
    assert revealed > text.index("  L5 #4 green bids 0")
    assert "orange bids 1" in run("replay", GAME42, "--as", "orange", "--round", 0).output
    # --round with --json: the round's steps only, still as blue saw them
    one = json.loads(run("replay", GAME42, "--as", "blue", "--round", 1, "--json").output)["steps"]
    assert {s["round"] for s in one} == {1}
    by_seq = {s["seq"]: s for s in one}
    assert by_seq[10]["payload"] == {"cards": [HIDDEN, HIDDEN]}       # orange's King's Orders
    assert by_seq[15]["payload"] == {"card": "expand-maneuver-fortify-1"}   # orange reveals her top card
    assert by_seq[15]["board"]["players"]["orange"]["facedown"] == [HIDDEN]  # the other still down
    assert by_seq[9]["payload"]["cards"] == ["expand-maneuver-fortify-1", "split-maneuver-1"]
    # a spectator sees no one's
    spec = {s["seq"]: s for s in json.loads(run("replay", GAME42, "--as", "spectator", "--json").output)["steps"]}
    assert spec[1]["payload"] == spec[2]["payload"] == {"amount": HIDDEN}
    assert spec[4]["board"]["players"]["orange"]["bid"] == 1


def test_ann_sees_dan_s_scar_card_only_once_he_places_it():
    """Risk Legacy, earth-01: each player holds a Scar card dealt face down; dan turns his over by
    placing it (a bunker in Southern Europe, seq 72)."""
    path = SAMPLES / "legacy" / "game-01.jsonl"
    r = run("replay", path, "--as", "ann", "--json")
    steps = json.loads(r.output)["steps"]
    before = [s for s in steps if s["seq"] < 72]
    assert before and all(s["board"]["players"]["dan"]["scar"] == HIDDEN for s in before)
    mine = before[0]["board"]["players"]["ann"]["scar"]
    assert mine not in (None, HIDDEN)
    placed = next(s for s in steps if s["seq"] == 72)
    assert placed["payload"]["scar"] == "bunker"
    assert "dan turns over the Scar card dealt face down: a bunker" in placed["notes"]
    if mine != "bunker":
        text = run("replay", path, "--as", "ann").output
        assert "bunker" not in text[:text.index("#72 ")]
    spectator = json.loads(run("replay", path, "--as", "spectator", "--json").output)["steps"]
    assert all(s["board"]["players"][p]["scar"] == HIDDEN for s in spectator if s["seq"] < 72
               for p in ("ann", "bob", "cat", "dan"))


# --- the analytics fold and a carried judge ---------------------------------------------------


def _voided_castle(tmp_path) -> Path:
    log = copy(CASTLE, tmp_path)
    assert run("rule", log, 148, "void", "-d", "void").exit_code == 0
    assert run("rule", log, 153, "the battle too", "-d", "void", "--from", 151).exit_code == 0
    return log


def test_the_analytics_rows_leave_out_what_a_ruling_took_out(tmp_path):
    from analytics.extract import extract_rows, judge_with_rows
    from tests.test_judge_peek import as_counts
    log = _voided_castle(tmp_path)
    kept = [e for e in envelopes(CASTLE) if e["seq"] not in (148, 151, 152, 153)]
    cut = read_log(write_sealed(tmp_path / "cut.jsonl", kept))
    ruled = read_log(log)
    _, folded = judge_with_rows(ruled)
    assert as_counts(folded.tables) == as_counts(extract_rows(ruled).tables)
    # the battle rows of the voided battle are gone, as if it had never been logged
    battles = lambda tables: sorted(r for t, rows in tables.items() if "battle" in t for r in rows)  # noqa: E731
    assert len(battles(folded.tables)) == len(battles(extract_rows(cut).tables)) \
        == len(battles(extract_rows(read_log(CASTLE)).tables)) - 1


def test_a_carried_judge_keeps_its_rulings(tmp_path):
    from replay.judge import Judge
    read = read_log(_voided_castle(tmp_path))
    whole = judge(read, keep_steps=False)
    judge_ = Judge(keep_steps=False)
    judge_.start(read)
    for i, raw in enumerate(read.events[1:], start=1):
        judge_.feed(raw)
        if i in (150, 199):                 # mid-void, and between the two rulings
            judge_ = Judge.resume(judge_.carry())
    judge_.conclude()
    j = judge_.finish()
    assert j.findings == whole.findings == [] and j.rulings == whole.rulings
    assert j.result_dict() == whole.result_dict() and j.ruled


def test_a_tournament_table_whose_finding_is_accepted_stands(tmp_path):
    event = tmp_path / "event"
    shutil.copytree(SAMPLES / "tournament", event)
    sheet = event / "results-corrected.csv"
    assert run("tournament", "check", sheet, event).exit_code == 0
    log = event / "r1-t1.jsonl"
    envs = envelopes(log)
    late = {"v": 1, "game": envs[0]["game"], "seq": 0, "type": "Taxed", "actor": "blue",
            "payload": {"city": "Berlin"}}
    write_sealed(log, envs + [late])                      # blue taxes after the game's end
    r = run("tournament", "check", sheet, event, "--json")
    assert r.exit_code == 1
    [problem] = [p for p in json.loads(r.stdout)["problems"] if p["check"] == "rules"]
    assert (problem["round"], problem["table"]) == ("1", "1") and "RE-GAME-OVER" in problem["message"]
    assert run("rule", log, 151, "a slip of the recorder's after the game; it changes nothing",
               "-d", "accept", "--by", "TD").exit_code == 0
    r = run("tournament", "check", sheet, event, "--json")
    assert r.exit_code == 0, r.stdout


def test_a_ruling_after_a_served_game_ended(tmp_path):
    """A seeded game played to its end through the service: the organizer rules on an event
    after the seed's reveal; the stream still ends; nothing can be taken out any more (the
    dice of a replay would be known)."""
    from engine.risk_europe.sim import simulate_game
    from tests.test_service import SIM_GAME, auth, make_client, new_game, play_log
    from tests.test_views import open_europe
    log = open_europe(simulate_game(3, SIM_GAME, live=True))   # turns ended by their players
    client = make_client(tmp_path, log)
    created = new_game(client)
    play_log(client, created, log)
    org, url = created["organizer"], f"/games/{SIM_GAME}"
    end = len(log)
    r = client.post(f"{url}/rulings", headers=auth(org),
                    json={"seq": 5, "decision": "note", "text": "checked after the game", "by": "TD"})
    assert r.status_code == 201, r.text
    assert r.json()["event"]["seq"] == end and r.json()["open_findings"] == 0
    r = client.post(f"{url}/rulings", headers=auth(org), json={"seq": 5, "decision": "void", "text": "x"})
    assert (r.status_code, r.json()["code"]) == (409, "seed-revealed")
    with client.stream("GET", f"{url}/stream") as s:
        body = "".join(s.iter_text())
    assert body.rstrip().endswith("event: end\ndata: {}") and f"id: {end}\n" in body
    lines = client.app.state.store.events(SIM_GAME)
    j = judge(read_log_text("".join(line + "\n" for line in lines), SIM_GAME))
    assert j.chain_ok and j.clean and [r.seq for r in j.rulings] == [end]


def test_an_event_is_taken_out_once_however_the_spans_overlap(tmp_path):
    g42 = envelopes(GAME42)
    many = [ruling("game42", 150, "void", "x", **{"from": 140}),
            *[ruling("game42", 190, "replay-from", "again", **{"from": 100}) for _ in range(3000)]]
    log = write_sealed(tmp_path / "many.jsonl", g42 + many)
    j = judge(read_log(log), keep_steps=False)
    assert not [f for f in j.findings if f.kind == "log"] and len(j.rulings) == 3001
    assert j.rulings[0].voids == tuple(range(140, 151))
    assert j.rulings[1].voids == tuple(s for s in range(100, 195) if not 140 <= s <= 150)
    assert all(r.voids == () for r in j.rulings[2:])     # nothing left to take out
    assert sorted(j.voided) == list(range(100, 195))


def test_an_accepted_result_claim_lets_the_declared_result_stand(tmp_path):
    """A game stopped on time: the log declares blue the winner in round 5, which the rules do
    not (RE-CLAIM on GameEnded); the organizer accepts it."""
    g42 = envelopes(GAME42)[:101]
    ended = {"v": 1, "game": "game42", "seq": 0, "type": "GameEnded", "actor": None,
             "payload": {"winner": "blue", "reason": "time"}}
    log = write_sealed(tmp_path / "time.jsonl", g42 + [ended])
    code, v = verdict_json(log)
    assert code == exitcodes.RESULT and [f["rule"] for f in v["findings"]] == ["RE-CLAIM"]
    assert run("rule", log, 101, "the game stopped on time; blue led", "-d", "accept", "--by", "TD").exit_code == 0
    code, v = verdict_json(log)
    assert (code, v["status"]) == (0, "ruled")
    result = next(c for c in v["checks"] if c["name"] == "result")
    assert result["ok"] and "the declared result (blue) stands by the ruling at seq 102 (TD)" in result["detail"]
    # --winner is checked against the rules, whatever the rulings say
    assert run("verify", log, "--winner", "blue").exit_code == exitcodes.RESULT
