"""The limits of `ledger serve` (#12): the size of a request body (256 KiB, with or without a
Content-Length) and the rate of appends per token (`--rate`, `--burst`: a token bucket each),
measured on a clock the test moves (no sleeps)."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ledger.cli import app as cli
from ledger.service import create_app
from ledger.service.app import MAX_BODY
from ledger.service.guards import AppendRate, Rate
from tests.service_clients import auth, served_at

PLAYERS = ["blue", "orange", "red", "green"]


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _game(client, game_id: str = "g") -> dict:
    r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS,
                                    "game_id": game_id})
    assert r.status_code == 201, r.text
    return r.json()


def _chunks(total: int, size: int = 16 * 1024):
    """`total` bytes of a JSON string, sent in pieces (so without a Content-Length)."""
    body = b'{"x": "' + b"y" * (total - 9) + b'"}'
    assert len(body) == total
    for i in range(0, total, size):
        yield body[i:i + size]


# --- body size ---------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_with_or_without_its_length(tmp_path):
    client = TestClient(create_app(tmp_path / "s.duckdb"))
    headers = {"content-type": "application/json"}
    for body in (b"x" * (MAX_BODY + 1), _chunks(MAX_BODY + 1), _chunks(4 * MAX_BODY)):
        r = client.post("/games", content=body, headers=headers)
        assert r.status_code == 413, r.text
        assert r.json() == {"code": "body-too-large",
                            "message": f"the request body is over {MAX_BODY} bytes"}
    # at the limit: read, and judged as the JSON it is (not a new game)
    r = client.post("/games", content=_chunks(MAX_BODY), headers=headers)
    assert r.status_code == 422 and r.json()["code"] == "bad-request"
    # a lying Content-Length is no length
    r = client.post("/games", content=b"{}", headers={**headers, "content-length": "-1"})
    assert r.status_code in (400, 413)


def test_a_chunked_body_reaches_the_app_whole_and_the_real_server_limits_it_too(tmp_path):
    app = create_app(tmp_path / "s.duckdb")
    body = b'{"ruleset": "risk-europe", "players": ["blue", "orange", "red", "green"], "game_id": "c"}'
    with served_at(app) as base:
        r = httpx.post(f"{base}/games", content=iter([body[:20], body[20:50], body[50:]]),
                       headers={"content-type": "application/json"})
        assert r.request.headers.get("transfer-encoding") == "chunked"
        assert r.status_code == 201 and r.json()["game"] == "c"
        r = httpx.post(f"{base}/games", content=_chunks(MAX_BODY + 1),
                       headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "body-too-large"
        # the server is still there
        assert httpx.get(f"{base}/games/c/state").json()["next_seq"] == 1


# --- rate of appends ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, burst, per_second, bucket", [
    ("20/s", None, 20.0, 40), ("600/min", 3, 10.0, 3), ("5000/h", None, 5000 / 3600, 5),
    (" 1/S ", 1, 1.0, 1), ("0.5/s", None, 0.5, 5),
])
def test_a_rate_is_written_as_appends_per_time(text, burst, per_second, bucket):
    rate = Rate.parse(text, burst)
    assert rate == Rate(pytest.approx(per_second), bucket)


@pytest.mark.parametrize("text", ["20", "20/fortnight", "-1/s", "x/s", "nan/s", "inf/s", ""])
def test_a_rate_that_is_not_one_is_refused(text):
    with pytest.raises(ValueError, match="appends per time"):
        Rate.parse(text)


def test_off_is_no_limit():
    assert Rate.parse("off") is None and Rate.parse("0") is None


def _append(client, token, seq=1):
    """Any append (the game refuses or takes it: it is counted either way)."""
    return client.post("/games/g/events", headers=auth(token),
                       json={"expected_seq": seq, "type": "BidPlaced", "actor": "blue",
                             "payload": {"amount": 0}})


def test_a_token_over_its_rate_gets_429_with_retry_after_until_it_refills(tmp_path):
    clock = Clock()
    client = TestClient(create_app(tmp_path / "s.duckdb", rate=Rate(1.0, 3), clock=clock))
    made = _game(client)
    blue, red = made["seats"]["blue"], made["seats"]["red"]
    answers = [_append(client, red, seq=99) for _ in range(3)]    # a burst of 3: counted, refused
    assert [r.status_code for r in answers] == [409, 409, 409]
    r = _append(client, red, seq=99)
    assert r.status_code == 429, r.text
    assert r.headers["retry-after"] == "1"
    body = r.json()
    assert body["code"] == "rate-limited" and body["retry_after"] == pytest.approx(1.0)
    assert "1/s, bursts of 3" in body["message"]
    clock.now += 0.25
    r = _append(client, red, seq=99)
    assert r.status_code == 429 and r.json()["retry_after"] == pytest.approx(0.75)
    assert r.headers["retry-after"] == "1"
    # another token has its own bucket; reads are not counted
    assert _append(client, blue).status_code == 200
    for _ in range(10):
        assert client.get("/games/g/events", headers=auth(red)).status_code == 200
    clock.now += 0.75
    assert _append(client, red, seq=99).status_code == 409      # one append's worth refilled
    assert _append(client, red, seq=99).status_code == 429
    clock.now += 100                                            # full again, never more than 3
    assert [_append(client, red, seq=99).status_code for _ in range(4)] == [409, 409, 409, 429]
    # a slow client is never limited
    for _ in range(10):
        clock.now += 1.0
        assert _append(client, red, seq=99).status_code == 409


def test_the_organizer_and_forged_tokens_are_counted_too(tmp_path):
    clock = Clock()
    client = TestClient(create_app(tmp_path / "s.duckdb", rate=Rate(2.0, 2), clock=clock))
    made = _game(client)
    codes = [_append(client, made["organizer"]).status_code for _ in range(3)]
    assert codes == [403, 403, 429]            # the organizer makes no player's decisions
    codes = [_append(client, "forged").status_code for _ in range(3)]
    assert codes == [401, 401, 429]
    # no token at all: refused before any count (there is nothing to count it against)
    assert [_append(client, None).status_code for _ in range(5)] == [401] * 5


def test_the_buckets_kept_are_bounded_and_full_ones_go_first():
    clock = Clock()
    rate = AppendRate(Rate(1.0, 2), clock, keep=100)
    for _ in range(2):
        assert rate.wait("busy") == 0
    assert rate.wait("busy") == pytest.approx(1.0)
    for i in range(1000):                      # a flood of tokens, each used once
        rate.wait(f"t{i}")
        clock.now += 0.0001
    assert len(rate.buckets) <= 100
    assert rate.wait("busy") > 0               # its empty bucket was kept: no fresh burst
    clock.now += 10                            # all full again: all dropped at the next prune
    for i in range(101):
        rate.wait(f"u{i}")
    assert len(rate.buckets) <= 101
    assert hashlib.sha256(b"busy").hexdigest() not in rate.buckets     # kept by its hash


def test_ledger_serve_refuses_a_rate_that_is_not_one():
    r = CliRunner().invoke(cli, ["serve", "--rate", "lots"])
    assert r.exit_code == 2 and "appends per time" in r.output
    r = CliRunner().invoke(cli, ["serve", "--rate", "20/s", "--burst", "0"])
    assert r.exit_code == 2
