"""The JSONL log, format version 1: reading, writing and the hash chain.

Each test is given a log, reads it, then checks the exact problems (rule id and line) it reports.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.canonical import canonical_json, sha256_hex
from replay.logfile import (
    ENVELOPE_KEYS,
    LOG_RULES,
    LogFileError,
    LogRead,
    RawEvent,
    event_hash,
    format_line,
    make_envelope,
    read_log,
    read_log_text,
    seal,
    write_log,
)

GAME = "game42"


# --- helpers ---------------------------------------------------------------------------------


def envelopes(count: int = 6, game: str = GAME) -> list[dict]:
    """`count` unsealed events of one game, seq 0..count-1, with varied payloads."""
    events = [make_envelope(game, 0, "GameStarted", None,
                            {"ruleset": "risk-europe", "players": ["blue", "red"]},
                            at="2024-05-01T18:30:00Z")]
    for seq in range(1, count):
        events.append(make_envelope(
            game, seq, "OrderPlayed", "blue" if seq % 2 else "red",
            {"order": "move", "from": "Zürich", "to": "Lyon", "units": seq},
        ))
    return events


def sealed_lines(count: int = 6) -> list[str]:
    """The lines of a clean sealed log of `count` events."""
    return [format_line(envelope) for envelope in seal(envelopes(count))]


def write_lines(tmp_path: Path, lines: list[str], *, final_newline: bool = True) -> Path:
    path = tmp_path / "game.jsonl"
    text = "\n".join(lines) + ("\n" if final_newline else "")
    path.write_text(text, encoding="utf-8")
    return path


def found(read: LogRead) -> list[tuple[str, int | None]]:
    """The problems of a read as (rule, line) pairs, in report order."""
    return [(problem.rule, problem.line) for problem in read.problems]


def resealed(envelope_list: list[dict]) -> list[str]:
    return [format_line(envelope) for envelope in seal(envelope_list)]


def edited(line: str, **changes) -> str:
    """The line with some envelope keys changed, its (now stale) prev/hash kept."""
    envelope = json.loads(line)
    envelope.update(changes)
    return format_line(envelope)


# --- a clean log -----------------------------------------------------------------------------


def test_clean_sealed_log_round_trips_byte_for_byte(tmp_path):
    # given a sealed log with non-ASCII text, a line separator inside a string and nested payloads
    events = envelopes(5)
    events[2]["payload"] = {"z": {"b": 1.5, "a": [True, None]}, "note": "é\u2028ß", "n": -3}
    sealed = seal(events)
    path = tmp_path / "game.jsonl"

    # when it is written and read back
    write_log(path, sealed)
    read = read_log(path)

    # then the same lines come back, byte for byte, with an intact chain ending at the last hash
    written = path.read_bytes()
    assert written == "".join(format_line(e) + "\n" for e in sealed).encode("utf-8")
    assert [event.raw for event in read.events] == written.decode("utf-8").split("\n")[:-1]
    assert read.problems == []
    assert read.sealed and read.chain_ok
    assert read.head == sealed[-1]["hash"]
    assert read.name == str(path)


def test_events_carry_their_envelope_fields_and_line_numbers(tmp_path):
    # given a sealed log with a blank line after the first event
    lines = sealed_lines(3)
    path = write_lines(tmp_path, [lines[0], "", *lines[1:]])

    # when it is read
    read = read_log(path)

    # then blank lines are skipped silently but still counted in line numbers
    assert read.problems == []
    first, second, third = read.events
    assert first == RawEvent(
        line=1, game=GAME, seq=0, type="GameStarted", actor=None, at="2024-05-01T18:30:00Z",
        payload={"ruleset": "risk-europe", "players": ["blue", "red"]},
        prev=None, hash=json.loads(lines[0])["hash"], raw=lines[0],
    )
    assert (second.line, second.seq, second.actor, second.at) == (3, 1, "blue", None)
    assert (third.line, third.seq, third.prev) == (4, 2, second.hash)


def test_a_log_without_a_final_newline_still_reads_cleanly(tmp_path):
    # given a sealed log whose last (complete) line has no newline
    path = write_lines(tmp_path, sealed_lines(4), final_newline=False)

    # when it is read, then nothing is wrong
    read = read_log(path)
    assert read.problems == [] and read.chain_ok and len(read.events) == 4


def test_read_log_text_reads_a_string_like_a_file(tmp_path):
    # given the text of a log with one edited line
    lines = sealed_lines(4)
    lines[2] = edited(lines[2], actor="green")
    text = "\n".join(lines) + "\n"

    # when it is read from a string and from a file
    from_text = read_log_text(text, name="pasted")
    from_file = read_log(write_lines(tmp_path, lines))

    # then both reads agree
    assert from_text.name == "pasted"
    assert from_text.events == from_file.events
    assert from_text.problems == from_file.problems == [from_text.problems[0]]
    assert found(from_text) == [("LOG-HASH", 3)]


def test_a_utf8_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + ("\n".join(sealed_lines(3)) + "\n").encode())
    read = read_log(path)
    assert read.problems == [] and read.chain_ok
    assert read.events[0].raw.startswith('{"v":1')


def test_crlf_line_ends_still_read(tmp_path):
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(("\r\n".join(sealed_lines(3)) + "\r\n").encode())
    read = read_log(path)
    assert read.problems == [] and read.chain_ok and len(read.events) == 3


# --- sealing and writing ---------------------------------------------------------------------


def test_seal_links_each_event_to_the_hash_of_the_one_before():
    # given unsealed events, when sealed
    sealed = seal(envelopes(4))

    # then prev is null on the first and the previous hash after it; each hash covers the content
    assert [e["prev"] for e in sealed] == [None] + [e["hash"] for e in sealed[:-1]]
    for envelope in sealed:
        without_hash = {k: v for k, v in envelope.items() if k != "hash"}
        assert envelope["hash"] == sha256_hex(canonical_json(without_hash)) == event_hash(envelope)
    assert [e["seq"] for e in sealed] == [0, 1, 2, 3]


def test_seal_returns_copies_and_recomputes_a_stale_chain():
    # given events sealed once, then one edited
    original = envelopes(3)
    first = seal(original)
    first[1]["payload"] = {"order": "attack"}

    # when sealed again
    second = seal(first)

    # then the input is untouched and the chain is recomputed from the edit on
    assert "hash" not in original[0] and "prev" not in original[0]
    assert second[0]["hash"] == first[0]["hash"]
    assert second[1]["hash"] != first[1]["hash"]
    assert second[2]["prev"] == second[1]["hash"]
    assert first[1]["hash"] != event_hash(first[1])


def test_seal_drops_a_null_at_so_the_hash_matches_the_written_line(tmp_path):
    envelope = make_envelope(GAME, 0, "GameStarted", None, {})
    envelope["at"] = None
    path = tmp_path / "game.jsonl"
    write_log(path, seal([envelope]))
    read = read_log(path)
    assert read.chain_ok and read.problems == []


def test_format_line_writes_keys_in_the_fixed_order():
    # given an envelope built in scrambled key order, with extra and absent keys
    envelope = {"hash": "h", "payload": {"b": 1, "a": "é"}, "prev": None, "at": None,
                "actor": "red", "type": "OrderPlayed", "seq": 3, "game": GAME, "v": 1}

    # when formatted, then: fixed key order, "at" left out when null, payload order kept, no \n
    assert format_line(envelope) == (
        '{"v":1,"game":"game42","seq":3,"type":"OrderPlayed","actor":"red",'
        '"payload":{"b":1,"a":"é"},"prev":null,"hash":"h"}'
    )
    with_at = format_line({**envelope, "at": "2024-05-01T18:30:00Z", "colour": "red"})
    assert list(json.loads(with_at)) == [*ENVELOPE_KEYS, "colour"]


def test_make_envelope_builds_an_unsealed_version_1_envelope():
    assert make_envelope(GAME, 0, "GameStarted", None, {"x": 1}) == {
        "v": 1, "game": GAME, "seq": 0, "type": "GameStarted", "actor": None, "payload": {"x": 1}}
    with_at = make_envelope(GAME, 1, "DiceRolled", "red", {}, at="2024-05-01T18:30:00Z")
    assert with_at["at"] == "2024-05-01T18:30:00Z"
    assert list(with_at) == ["v", "game", "seq", "type", "actor", "at", "payload"]


def test_write_log_replaces_the_file_and_leaves_no_temp_file(tmp_path):
    # given an existing log file with a restrictive mode
    path = tmp_path / "game.jsonl"
    path.write_text("old content\n", encoding="utf-8")
    os.chmod(path, 0o600)

    # when a new log is written over it
    write_log(path, seal(envelopes(2)))

    # then the file holds only the new log, keeps its mode, and nothing else is left behind
    assert path.read_text(encoding="utf-8").count("\n") == 2
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_write_log_that_fails_leaves_the_old_file_untouched(tmp_path):
    # given an existing log, when writing events that cannot be serialized
    path = tmp_path / "game.jsonl"
    write_log(path, seal(envelopes(2)))
    before = path.read_bytes()
    bad = make_envelope(GAME, 0, "GameStarted", None, {"when": object()})

    with pytest.raises(TypeError):
        write_log(path, [bad])

    # then the old file is intact and no temp file is left
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


# --- whole-file problems and unreadable files ------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "  \n\t\n"])
def test_LOG_EMPTY_when_no_line_has_content(tmp_path, text):
    path = tmp_path / "empty.jsonl"
    path.write_text(text, encoding="utf-8")
    read = read_log(path)
    assert found(read) == [("LOG-EMPTY", None)]
    assert read.events == [] and not read.sealed and not read.chain_ok and read.head is None


@pytest.mark.parametrize(
    "text",
    [
        '[Event "x"]\n1. e4 e5\n',  # a PGN file
        "seq,type,actor\n0,GameStarted,\n1,OrderPlayed,red\n",  # a CSV file
        json.dumps(envelopes(2), indent=2) + "\n",  # a JSON array document, pretty-printed
        json.dumps(envelopes(2)) + "\n",  # a JSON array document on one line
        '{"name": "x"}\n{"name": "y"}\n',  # JSON lines of something else
    ],
    ids=["pgn", "csv", "json-array-pretty", "json-array-one-line", "other-jsonl"],
)
def test_LOG_NOT_A_LOG_is_reported_once_instead_of_every_line(tmp_path, text):
    # given a file that is not a ledger log at all
    path = tmp_path / "not-a-log.jsonl"
    path.write_text(text, encoding="utf-8")

    # when read, then one whole-file problem, no per-line noise, no events
    read = read_log(path)
    assert found(read) == [("LOG-NOT-A-LOG", None)]
    assert read.events == []
    first_line = text.split("\n")[0]
    assert repr(first_line[:60]) in read.problems[0].message


def test_LOG_NOT_A_LOG_quotes_a_pgn_file_plainly(tmp_path):
    path = write_lines(tmp_path, ['[Event "x"]', "1. e4 e5"])
    (problem,) = read_log(path).problems
    assert problem.message == (
        'not a ledger log: none of its 2 non-blank lines is a JSON object with "type" and '
        "\"payload\" keys; it begins '[Event \"x\"]'"
    )


def test_a_missing_file_raises_LogFileError(tmp_path):
    with pytest.raises(LogFileError, match="no such file"):
        read_log(tmp_path / "nowhere.jsonl")


def test_a_directory_raises_LogFileError(tmp_path):
    with pytest.raises(LogFileError, match="is a directory"):
        read_log(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_an_unreadable_file_raises_LogFileError(tmp_path):
    path = write_lines(tmp_path, sealed_lines(2))
    os.chmod(path, 0)
    with pytest.raises(LogFileError, match="permission denied"):
        read_log(path)


@pytest.mark.parametrize(
    "data",
    ["\n".join(sealed_lines(2)).encode("utf-16"), b"\x89PNG\r\n\x1a\n\xff\xd8\xff\xe0\x00"],
    ids=["utf-16", "binary"],
)
def test_a_file_that_is_not_utf8_text_raises_LogFileError(tmp_path, data):
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    with pytest.raises(LogFileError, match="UTF"):
        read_log(path)


# --- line problems ---------------------------------------------------------------------------


def test_LOG_JSON_for_a_line_that_is_not_json_and_the_rest_is_still_read(tmp_path):
    # given a sealed log with a garbage line inserted after line 2
    lines = sealed_lines(4)
    path = write_lines(tmp_path, [*lines[:2], '{"v":1, "game": oops}', *lines[2:]])

    # when read
    read = read_log(path)

    # then the garbage line is one LOG-JSON problem naming the col and quoting the line
    assert found(read) == [("LOG-JSON", 3)]
    assert read.problems[0].message == (
        "line 3: not valid JSON (Expecting value at col 17): '{\"v\":1, \"game\": oops}'"
    )
    assert [event.seq for event in read.events] == [0, 1, 2, 3]
    assert read.chain_ok  # the events that were read still chain


def test_LOG_JSON_quotes_only_the_start_of_a_long_line(tmp_path):
    long_line = "x" * 500
    lines = sealed_lines(2)
    read = read_log(write_lines(tmp_path, [lines[0], long_line, lines[1]]))
    (problem,) = read.problems
    assert problem.rule == "LOG-JSON"
    assert problem.message.endswith(repr("x" * 60) + "...")


@pytest.mark.parametrize(
    ("bad_line", "kind"), [("[1, 2]", "array"), ('"text"', "string"), ("42", "number")]
)
def test_LOG_JSON_for_a_line_that_is_json_but_not_an_object(tmp_path, bad_line, kind):
    lines = sealed_lines(3)
    read = read_log(write_lines(tmp_path, [*lines, bad_line]))
    assert found(read) == [("LOG-JSON", 4)]
    assert f"is a JSON {kind}, expected an object" in read.problems[0].message


def test_LOG_JSON_for_a_line_of_invalid_utf8_bytes_and_the_rest_is_still_read(tmp_path):
    # given a sealed log with an extra line holding a byte that is not UTF-8
    lines = [line.encode("utf-8") for line in sealed_lines(4)]
    bad = b'{"v":1,"game":"game42","note":"caf\xe9"}'
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join([*lines[:2], bad, *lines[2:]]) + b"\n")

    # when read
    read = read_log(path)

    # then that line is a LOG-JSON problem and every other line is read
    assert found(read) == [("LOG-JSON", 3)]
    assert "not valid UTF-8" in read.problems[0].message
    assert "caf\\\\xe9" in read.problems[0].message
    assert [event.line for event in read.events] == [1, 2, 4, 5]


@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed"])
def test_LOG_JSON_for_a_lone_surrogate_escape_instead_of_a_traceback(tmp_path, sealed):
    lines = sealed_lines(2)
    bad = make_envelope(GAME, 2, "OrderPlayed", "red", {"note": "x"})
    if sealed:
        bad = {**bad, "prev": json.loads(lines[-1])["hash"]}
        bad["hash"] = event_hash(bad)
    bad_line = format_line(bad).replace('"x"', '"\\ud800"')
    read = read_log(write_lines(tmp_path, [*lines, bad_line]))
    assert found(read) == [("LOG-JSON", 3)]
    assert "lone surrogate" in read.problems[0].message
    assert len(read.events) == 2


def test_LOG_JSON_for_a_line_nested_too_deeply(tmp_path):
    lines = sealed_lines(2)
    read = read_log(write_lines(tmp_path, [*lines, "[" * 100_000]))
    assert found(read) == [("LOG-JSON", 3)]


def test_LOG_TRUNCATED_for_a_last_line_cut_off_mid_write(tmp_path):
    # given a sealed log whose last line was cut off, with no newline after it
    lines = sealed_lines(5)
    path = write_lines(tmp_path, [*lines[:-1], lines[-1][:40]], final_newline=False)

    # when read
    read = read_log(path)

    # then that line is LOG-TRUNCATED (not LOG-JSON) and the events before it are intact
    assert found(read) == [("LOG-TRUNCATED", 5)]
    assert "cut off" in read.problems[0].message
    assert len(read.events) == 4 and read.chain_ok


def test_a_bad_last_line_with_a_newline_is_LOG_JSON_not_LOG_TRUNCATED(tmp_path):
    lines = sealed_lines(5)
    read = read_log(write_lines(tmp_path, [*lines[:-1], lines[-1][:40]]))
    assert found(read) == [("LOG-JSON", 5)]


def test_LOG_TRUNCATED_for_a_last_line_cut_inside_a_multibyte_character(tmp_path):
    lines = sealed_lines(3)
    last = lines[-1].encode("utf-8")
    cut = last[: last.index("ü".encode()) + 1]  # half of "ü"
    path = tmp_path / "game.jsonl"
    path.write_bytes("\n".join(lines[:-1]).encode() + b"\n" + cut)
    read = read_log(path)
    assert found(read) == [("LOG-TRUNCATED", 3)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seq": "5"}, "\"seq\" must be an int from 0 to 9,007,199,254,740,991 (2**53 - 1), "
                       "found '5' (string)"),
        ({"seq": -1}, '"seq" must be an int from 0 to 9,007,199,254,740,991 (2**53 - 1), found -1 '
                      '(number)'),
        ({"seq": int("9" * 500)}, '"seq" must be an int from 0 to 9,007,199,254,740,991 '
                                  '(2**53 - 1), found 999999...999999 (500 digits) (number)'),
        ({"payload": [1, 2]}, '"payload" must be a JSON object, found [1, 2] (array)'),
        ({"v": 2}, "unsupported format version 2; this ledger reads version 1"),
        ({"v": "1"}, "\"v\" must be the int 1, found '1' (string)"),
        ({"game": ""}, "\"game\" must be a non-empty string (the game id), found '' (string)"),
        ({"type": None}, '"type" must be a non-empty string (the event type), found None (null)'),
        ({"actor": 7}, '"actor" must be a string (a player id) or null, found 7 (number)'),
    ],
    ids=["seq-string", "seq-negative", "seq-500-digits", "payload-list", "version-2", "version-string",
         "game-empty", "type-null", "actor-number"],
)
def test_LOG_ENVELOPE_for_a_required_key_of_the_wrong_type_and_the_event_is_dropped(
    tmp_path, change, message
):
    # given a log whose last event has one bad required key (sealed over, so only that is wrong)
    events = envelopes(5)
    events[-1].update(change)
    path = write_lines(tmp_path, resealed(events))

    # when read
    read = read_log(path)

    # then one LOG-ENVELOPE at that line naming the key, and the event is not passed on
    assert found(read) == [("LOG-ENVELOPE", 5)]
    assert read.problems[0].message.endswith(message)
    assert [event.seq for event in read.events] == [0, 1, 2, 3]


@pytest.mark.parametrize("key", ["v", "game", "seq", "type", "actor", "payload"])
def test_LOG_ENVELOPE_for_a_missing_required_key_and_the_event_is_dropped(tmp_path, key):
    events = envelopes(5)
    del events[-1][key]
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-ENVELOPE", 5)]
    assert f'the envelope has no "{key}" key; expected ' in read.problems[0].message
    assert len(read.events) == 4


def test_LOG_ENVELOPE_for_an_unknown_key_and_the_event_is_still_passed_on(tmp_path):
    events = envelopes(5)
    events[2]["colour"] = "red"
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-ENVELOPE", 3)]
    assert read.problems[0].message == (
        "line 3 (seq 2): unknown envelope key 'colour'; expected only "
        "v, game, seq, type, actor, at, payload, prev, hash"
    )
    assert len(read.events) == 5
    assert read.chain_ok  # the extra key is part of the hashed content


def test_LOG_ENVELOPE_reports_every_fault_of_a_dropped_line(tmp_path):
    events = envelopes(3)
    events[-1].update({"seq": "2", "colour": "red", "at": "noon"})
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-ENVELOPE", 3)] * 3
    messages = " | ".join(problem.message for problem in read.problems)
    assert '"seq" must be an int' in messages
    assert "unknown envelope key 'colour'" in messages
    assert "found 'noon'" in messages


@pytest.mark.parametrize("bad_at", ["yesterday", "2024-05-01", "2024-05-01T18:30:00", 1714588200])
def test_LOG_ENVELOPE_for_a_bad_timestamp_and_the_event_is_passed_on_without_it(
    tmp_path, bad_at
):
    events = envelopes(4)
    events[1]["at"] = bad_at
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-ENVELOPE", 2)]
    assert "RFC 3339 timestamp" in read.problems[0].message
    assert repr(bad_at) in read.problems[0].message
    assert read.events[1].at is None and len(read.events) == 4


@pytest.mark.parametrize("good_at", ["2024-05-01T18:30:00Z", "2024-05-01T18:30:00.25+02:00"])
def test_an_rfc3339_timestamp_is_accepted(tmp_path, good_at):
    events = envelopes(2)
    events[1]["at"] = good_at
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert read.problems == [] and read.events[1].at == good_at


def test_LOG_GAME_ID_when_an_event_belongs_to_another_game(tmp_path):
    events = envelopes(5)
    events[3]["game"] = "game43"
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-GAME-ID", 4)]
    assert read.problems[0].message == (
        "line 4 (seq 3): game id 'game43' differs from 'game42', the game of the first event"
    )
    assert len(read.events) == 5


# --- sequence problems -----------------------------------------------------------------------


def test_LOG_SEQ_GAP_names_the_missing_events(tmp_path):
    # given a log (sealed over) going 0, 1, 2, 3, 5
    events = envelopes(5)
    events[4]["seq"] = 5
    read = read_log(write_lines(tmp_path, resealed(events)))

    # then one gap at the line of seq 5, and the event is passed on
    assert found(read) == [("LOG-SEQ-GAP", 5)]
    assert read.problems[0].message == "line 5 (seq 5): events 4..4 are missing"
    assert [event.seq for event in read.events] == [0, 1, 2, 3, 5]
    assert not read.chain_ok


def test_LOG_SEQ_ORDER_when_a_seq_repeats_with_different_content(tmp_path):
    events = envelopes(4)
    events.append(make_envelope(GAME, 2, "OrderPlayed", "red", {"order": "tax"}))
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-SEQ-ORDER", 5)]
    assert read.problems[0].message == (
        "line 5 (seq 2): repeats the seq of line 3 with different content; each seq is one event"
    )
    assert len(read.events) == 5


def test_LOG_SEQ_ORDER_when_a_seq_goes_back(tmp_path):
    # given seqs 0, 1, 3, 2 (sealed over in that order)
    events = envelopes(4)
    events[2], events[3] = events[3], events[2]
    read = read_log(write_lines(tmp_path, resealed(events)))

    # then seq 2 is out of order where it appears; it is not reported missing at seq 3
    assert found(read) == [("LOG-SEQ-ORDER", 4)]
    assert read.problems[0].message == (
        "line 4 (seq 2): comes after seq 3 (line 3); events must be in seq order"
    )


def test_LOG_SEQ_DUPLICATE_drops_an_exact_repeat(tmp_path):
    # given a sealed log where line 3 was sent twice
    lines = sealed_lines(5)
    read = read_log(write_lines(tmp_path, [*lines[:3], lines[2], *lines[3:]]))

    # then the repeat is reported and dropped, and line 5 still links to line 3 (no LOG-CHAIN)
    assert found(read) == [("LOG-SEQ-DUPLICATE", 4)]
    assert read.problems[0].message == (
        "line 4 (seq 2): repeats line 3 exactly; the repeat is ignored"
    )
    assert [event.line for event in read.events] == [1, 2, 3, 5, 6]
    assert not read.chain_ok


def test_LOG_FIRST_SEQ_when_the_log_does_not_start_at_0(tmp_path):
    events = envelopes(5)[1:]
    read = read_log(write_lines(tmp_path, resealed(events)))
    assert found(read) == [("LOG-FIRST-SEQ", 1)]
    assert "the first event has seq 1, expected 0" in read.problems[0].message
    assert not read.chain_ok


# --- the hash chain --------------------------------------------------------------------------


def test_LOG_HASH_once_for_one_edited_middle_line(tmp_path):
    # given a sealed log of 20 events whose line 12 was edited afterwards
    lines = sealed_lines(20)
    lines[11] = edited(lines[11], payload={"order": "move", "from": "Zürich", "to": "Rome"})

    # when read
    read = read_log(write_lines(tmp_path, lines))

    # then exactly one LOG-HASH, at that line, and no cascade to the lines after
    assert found(read) == [("LOG-HASH", 12)]
    assert read.problems[0].message == (
        "line 12 (seq 11): content does not match its hash — the line was edited after it was "
        "sealed"
    )
    assert read.sealed and not read.chain_ok
    assert len(read.events) == 20 and read.events[11].payload["to"] == "Rome"


def test_LOG_CHAIN_and_LOG_SEQ_GAP_for_a_deleted_line(tmp_path):
    # given a sealed log with line 3 (seq 2) deleted
    lines = sealed_lines(6)
    del lines[2]

    # when read
    read = read_log(write_lines(tmp_path, lines))

    # then the next line (seq 3, now line 3) breaks the chain and shows the gap, nothing else
    assert found(read) == [("LOG-SEQ-GAP", 3), ("LOG-CHAIN", 3)]
    gap, chain = read.problems
    assert gap.message == "line 3 (seq 3): events 2..2 are missing"
    assert chain.message.startswith(
        'line 3 (seq 3): "prev" is not the hash of the event before it (seq 1, line 2); '
        "no event in the file has that hash"
    )
    assert not read.chain_ok


def test_swapped_lines_break_the_chain_around_them_and_one_seq_goes_back(tmp_path):
    # given a sealed log with lines 3 and 4 (seq 2 and 3) swapped
    lines = sealed_lines(6)
    lines[2], lines[3] = lines[3], lines[2]

    # when read
    read = read_log(write_lines(tmp_path, lines))

    # then the three links that changed are broken, and seq 2 is out of order; nothing is missing
    assert found(read) == [
        ("LOG-CHAIN", 3), ("LOG-SEQ-ORDER", 4), ("LOG-CHAIN", 4), ("LOG-CHAIN", 5)
    ]
    assert "it is the hash of seq 2 (line 4) — events were reordered" in read.problems[0].message
    assert len(read.events) == 6 and not read.chain_ok


def test_an_inserted_line_breaks_the_chain_at_the_line_after_it(tmp_path):
    # given a sealed log with a forged seq-2 event, chained onto seq 1, inserted before seq 2
    events = seal(envelopes(5))
    forged = {**make_envelope(GAME, 2, "OrderPlayed", "red", {"order": "tax"}),
              "prev": events[1]["hash"]}
    forged["hash"] = event_hash(forged)
    lines = [format_line(e) for e in events]
    lines.insert(2, format_line(forged))

    # when read
    read = read_log(write_lines(tmp_path, lines))

    # then the real seq 2 repeats a seq and no longer links to the event before it
    assert found(read) == [("LOG-SEQ-ORDER", 4), ("LOG-CHAIN", 4)]
    assert "it is the hash of seq 1 (line 2)" in read.problems[1].message


def test_LOG_CHAIN_when_an_edited_line_was_resealed(tmp_path):
    # given a sealed log whose line 3 was edited and given a fresh hash of its own
    events = seal(envelopes(5))
    events[2] = {**events[2], "actor": "green"}
    events[2]["hash"] = event_hash(events[2])

    # when read, then line 3 is self-consistent but line 4 no longer links to it
    read = read_log(write_lines(tmp_path, [format_line(e) for e in events]))
    assert found(read) == [("LOG-CHAIN", 4)]
    assert "re-sealed after an edit" in read.problems[0].message


def test_LOG_CHAIN_when_the_first_event_has_a_prev(tmp_path):
    # given a one-event log whose seq 0 points at an earlier hash (and is hashed with it)
    first = {**make_envelope(GAME, 0, "GameStarted", None, {}), "prev": "ab" * 32}
    first["hash"] = event_hash(first)

    # when read, then seq 0 must start the chain
    read = read_log(write_lines(tmp_path, [format_line(first)]))
    assert found(read) == [("LOG-CHAIN", 1)]
    assert read.problems[0].message == (
        "line 1 (seq 0): seq 0 starts the chain, so its \"prev\" must be null, found "
        "'abababababab...'"
    )


def test_a_dropped_line_is_named_in_the_chain_break_after_it(tmp_path):
    # given a sealed log whose line 3 was overwritten with garbage
    lines = sealed_lines(5)
    lines[2] = "#### lost ####"
    read = read_log(write_lines(tmp_path, lines))
    assert found(read) == [("LOG-JSON", 3), ("LOG-SEQ-GAP", 4), ("LOG-CHAIN", 4)]
    assert read.problems[2].message.endswith("line 3 in between could not be read")


# --- unsealed logs ---------------------------------------------------------------------------


def test_LOG_UNSEALED_once_for_a_hand_written_log(tmp_path):
    # given a log with no prev/hash on any line
    lines = [format_line(envelope) for envelope in envelopes(5)]

    # when read
    read = read_log(write_lines(tmp_path, lines))

    # then one whole-file problem; every event is passed on; nothing vouches for the chain
    assert found(read) == [("LOG-UNSEALED", None)]
    assert read.problems[0].message == (
        'none of the 5 events is sealed (no "prev"/"hash"); the hash chain cannot be checked'
    )
    assert len(read.events) == 5
    assert not read.sealed and not read.chain_ok and read.head is None


def test_LOG_UNSEALED_once_at_the_first_of_some_unsealed_lines(tmp_path):
    # given a sealed log where lines 3 and 5 lost their prev/hash
    events = seal(envelopes(6))
    for index in (2, 4):
        events[index] = {k: v for k, v in events[index].items() if k not in ("prev", "hash")}
    read = read_log(write_lines(tmp_path, [format_line(e) for e in events]))

    assert found(read) == [("LOG-UNSEALED", 3)]
    assert read.problems[0].message.startswith('2 of 6 events are not sealed (no "prev"/"hash"), '
                                               "the first at line 3 (seq 2)")
    assert not read.sealed and not read.chain_ok and read.head is None


def test_an_unsealed_log_still_reports_its_sequence_problems(tmp_path):
    events = envelopes(5)
    events[3]["seq"] = 7
    read = read_log(write_lines(tmp_path, [format_line(e) for e in events]))
    assert found(read) == [("LOG-UNSEALED", None), ("LOG-SEQ-GAP", 4), ("LOG-SEQ-ORDER", 5)]


# --- properties ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(payloads=st.lists(st.dictionaries(st.text(max_size=8), json_values, max_size=5),
                         min_size=1, max_size=5))
def test_any_json_payloads_seal_write_and_read_back_intact(tmp_path_factory, payloads):
    events = [make_envelope(GAME, seq, "Noted", None, payload)
              for seq, payload in enumerate(payloads)]
    path = tmp_path_factory.mktemp("prop") / "game.jsonl"
    write_log(path, seal(events))
    read = read_log(path)
    assert read.problems == [] and read.chain_ok
    assert [event.payload for event in read.events] == payloads


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list('{}[]":,\n 01vgseqtypactorpaylod\\u"x')),
                    max_size=120))
def test_the_reader_never_raises_on_garbage(text):
    read = read_log_text(text)
    assert read.problems  # garbage never reads as a clean log
    assert all(problem.rule in LOG_RULES for problem in read.problems)


# --- the fast JSON path (orjson) reads exactly what json reads ---------------------------------

def _stdlib_reader(monkeypatch):
    import replay.logfile as lf
    monkeypatch.setattr(lf, "orjson", None)
    monkeypatch.setattr(lf, "_parse_line", lf._make_parse_line())


TRICKY_LINES = [
    '{"v":1,"game":"g","seq":0,"type":"Noted","actor":null,"payload":{"n":-9223372036854775809}}',
    '{"v":1,"game":"g","seq":1,"type":"Noted","actor":null,"payload":{"n":123456789012345678901234567890}}',
    '{"v":1,"game":"g","seq":2,"type":"Noted","actor":null,"payload":{"x":NaN,"y":1e-07}}',
    '{"v":1,"game":"g","seq":3,"type":"Noted","actor":null,"payload":{"s":"\\ud800"}}',
    '{"v":1,"game":"g","seq":4,"type":"Noted","actor":null,"payload":{"s":"caf\\u00e9 \\u2028"}}',
    ' {"v":1,"game":"g","seq":5,"type":"Noted","actor":null,"payload":{}} ',
    '{"v":1,"game":"g","seq":6,"type":"Noted","actor":null,"payload":{"a":1e400}}',
    '{"v":1,"game":"g","seq":7,"type":"Noted","actor":null,"payload":{"a":1,}}',
]


def test_fast_and_stdlib_readers_agree_on_every_sample_and_on_tricky_lines(monkeypatch):
    samples = sorted((Path(__file__).resolve().parent.parent / "sample_logs").rglob("*.jsonl"))
    assert len(samples) > 20
    texts = [(str(p), p.read_text("utf-8")) for p in samples]
    sealed_tricky = "\n".join(format_line(e) for e in seal(
        [make_envelope(GAME, i, "Noted", None, {"n": v}) for i, v in
         enumerate([2**70, -(2**63) - 1, 1e-07, 1e16, 0.1, "\u00e9\u2028\x7f\x1f"])])) + "\n"
    texts += [("tricky", "\n".join(TRICKY_LINES) + "\n"), ("tricky-sealed", sealed_tricky)]
    fast = [read_log_text(t, n) for n, t in texts]
    _stdlib_reader(monkeypatch)
    slow = [read_log_text(t, n) for n, t in texts]
    for a, b in zip(fast, slow):
        assert a == b, a.name
    tricky = fast[-1]
    assert tricky.problems == [] and [e.payload["n"] for e in tricky.events][:2] == [2**70, -(2**63) - 1]


def test_a_file_of_many_games_is_read_in_linear_time(monkeypatch):
    """Every seq repeats once a game in a file of concatenated games: each line is put in
    canonical form a bounded number of times, not compared with every earlier line (#16)."""
    import replay.logfile as lf
    base = (Path(__file__).resolve().parent.parent / "sample_logs")
    games = [p.read_text(encoding="utf-8") for p in sorted(base.glob("sim-*.jsonl"))]
    calls = {"n": 0}
    real = lf.canonical_json

    def counting(value):
        calls["n"] += 1
        return real(value)

    monkeypatch.setattr(lf, "canonical_json", counting)
    for copies in (1, 4):
        calls["n"] = 0
        text = "".join(games * copies)
        read = lf.read_log_text(text)
        lines = text.count("\n")
        assert read.problems                      # other games' lines are reported, not judged
        assert calls["n"] <= 2 * lines, (copies, calls["n"], lines)


def test_messages_read_as_sentences():
    """#16: "starting at at col", and "the only event is sealed" for an unsealed one."""
    good = '{"v":1,"game":"g","seq":0,"type":"X","actor":null,"payload":{}}\n'
    cut = read_log_text(good + '{"v":1,"game":"g","seq":1,"type":"X","actor":null,"payload":{"a":"b}}\n')
    bad = [p.message for p in cut.problems if p.rule == "LOG-JSON"]
    assert "string starting at col" in bad[0] and "at at" not in bad[0], bad
    one = read_log_text('{"v":1,"game":"g","seq":0,"type":"X","actor":null,"payload":{}}\n')
    unsealed = [p for p in one.problems if p.rule == "LOG-UNSEALED"]
    assert unsealed[0].message.startswith("the only event is not sealed")


@pytest.mark.parametrize("value,says", [
    ("NaN", "NaN is not a JSON number"),
    ("-Infinity", "-Infinity is not a JSON number"),
    ("1" * 5000, "a number with more than 4,300 digits"),
])
def test_values_json_has_not_are_unreadable_lines_with_a_plain_reason(value, says):
    """#16: NaN was read (and then sealed and stored); a huge number leaked Python's advice."""
    good = '{"v":1,"game":"g","seq":0,"type":"X","actor":null,"payload":{}}\n'
    read = read_log_text(good + '{"v":1,"game":"g","seq":1,"type":"X","actor":null,"payload":{"n":' + value + '}}\n')
    bad = [p for p in read.problems if p.rule == "LOG-JSON"]
    assert len(bad) == 1 and bad[0].line == 2 and says in bad[0].message, read.problems
    assert "set_int_max_str_digits" not in bad[0].message
    assert [e.seq for e in read.events] == [0]


def test_seal_refuses_a_log_with_nan_and_writes_nothing(tmp_path):
    from typer.testing import CliRunner
    from ledger.cli import app
    log = tmp_path / "g.jsonl"
    text = '{"v":1,"game":"g","seq":0,"type":"X","actor":null,"payload":{"n":NaN}}\n'
    log.write_text(text)
    r = CliRunner().invoke(app, ["seal", str(log)])
    assert r.exit_code == 3 and "NaN" in r.output
    assert log.read_text() == text


def test_the_writer_never_writes_nan():
    with pytest.raises(ValueError):
        format_line({"v": 1, "game": "g", "seq": 0, "type": "X", "actor": None, "payload": {"n": float("nan")}})


# --- hostile files (#16) ------------------------------------------------------------------------


def test_LOG_JSON_for_json_nested_too_deeply_on_line_1_not_LOG_NOT_A_LOG(tmp_path):
    # given a file whose only line is JSON nested past what the reader reads
    path = write_lines(tmp_path, ['{"a":' * 5000 + "1" + "}" * 5000])

    # when read
    read = read_log(path)

    # then that line is reported as JSON it cannot read, not the file as another format
    assert found(read) == [("LOG-JSON", 1)]
    assert "nested too deeply" in read.problems[0].message


def test_LOG_MANY_GAMES_once_for_a_file_of_concatenated_games(tmp_path):
    # given three sealed games one after another in one file
    lines = [line for game in ("g1", "g2", "g3") for line in resealed(envelopes(6, game))]
    path = write_lines(tmp_path, lines)

    # when read
    read = read_log(path)

    # then one problem says how many games and where each starts; the first game is the log
    assert found(read) == [("LOG-MANY-GAMES", 7)]
    assert "this file holds 3 games ('g1' at line 1, 'g2' at line 7, 'g3' at line 13)" in \
        read.problems[0].message
    assert read.games == 3 and read.game_starts == ((1, "g1"), (7, "g2"), (13, "g3"))
    assert [e.game for e in read.events] == ["g1"] * 6 and read.chain_ok


def test_a_file_of_many_games_is_read_in_linear_time(tmp_path):
    """2,000 concatenated games: one problem, and no slower per line than one game's lines."""
    import time
    one = resealed(envelopes(50, "g0"))
    lines = [line.replace('"game":"g0"', f'"game":"g{i}"') for i in range(2000) for line in one]
    path = write_lines(tmp_path, lines)
    started = time.perf_counter()
    read = read_log(path)
    took = time.perf_counter() - started
    assert [p.rule for p in read.problems] == ["LOG-MANY-GAMES"] and read.games == 2000
    assert took < 10, f"{took:.1f} s for {len(lines):,} lines"


def test_path_problem_names_what_is_not_a_file(tmp_path):
    from replay.logfile import path_problem
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dir").mkdir()
    (tmp_path / "f.jsonl").write_text("{}\n")
    assert path_problem(tmp_path / "pipe", "a log file") == \
        f"{tmp_path / 'pipe'}: is a FIFO (named pipe), not a log file"
    assert path_problem(tmp_path / "dir") == f"{tmp_path / 'dir'}: is a directory, not a file"
    assert path_problem(tmp_path / "nope") == f"{tmp_path / 'nope'}: no such file"
    assert path_problem(tmp_path / "f.jsonl") is None
    with pytest.raises(LogFileError, match="is a FIFO"):
        read_log(tmp_path / "pipe")          # says so instead of waiting for a writer


def test_write_atomically_leaves_nothing_behind_on_a_full_disk(tmp_path, monkeypatch):
    import errno
    from replay import logfile
    target = tmp_path / "game.jsonl"
    target.write_bytes(b"old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(logfile.os, "fsync", full)
    with pytest.raises(OSError):
        logfile.write_atomically(target, b"new\n" * 1000)
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


# --- the one-pass read of a written line ----------------------------------------------------
# A line of the game, sealed onto the event before it, is read in one pass (msgspec: parse,
# envelope check, canonical text); every other line by the general path. The two must agree:
# the same events with the same values and the same problems, whatever the line holds.


def _read_both(monkeypatch, text: str) -> tuple[LogRead, LogRead]:
    from replay import logfile
    fast = read_log_text(text, "t.jsonl")
    with monkeypatch.context() as m:
        m.setattr(logfile, "_decode_written", None)
        general = read_log_text(text, "t.jsonl")
    return fast, general


def _same_read(fast: LogRead, general: LogRead) -> None:
    assert fast.problems == general.problems
    assert fast.events == general.events
    for a, b in zip(fast.events, general.events):   # the same values, of the same types
        assert json.dumps(a.payload) == json.dumps(b.payload)
        assert [type(getattr(a, k)) for k in RawEvent.__slots__] == \
               [type(getattr(b, k)) for k in RawEvent.__slots__]
    assert (fast.sealed, fast.chain_ok, fast.head, fast.game_starts) == \
           (general.sealed, general.chain_ok, general.head, general.game_starts)


ODD_PAYLOADS = [
    {"x": 1.5}, {"x": 1e16}, {"x": [0.1, {"y": -0.0}]}, {"x": 2**70, "y": -2**64}, {"x": True},
    {"z": 1, "a": {"é": "\u2028\x7f\x1f\"\\/"}}, {"𝄞": "\U0001d11e", "\uffff": ""}, {}, {"x": None},
    {"x": [[[[[]]]]]}, {"x": "\x00"},
]

ODD_ENVELOPES = [
    {}, {"at": "2024-05-01T18:30:00Z"}, {"at": None}, {"at": "yesterday"}, {"at": 5},
    {"actor": None}, {"actor": 5}, {"seq": 9}, {"seq": 1}, {"seq": True}, {"game": "other"},
    {"game": ""}, {"v": 2}, {"v": True}, {"type": ""}, {"payload": []}, {"extra": 1},
    {"prev": None}, {"prev": "0" * 64}, {"prev": 5}, {"hash": None}, {"hash": 5},
]


@pytest.mark.parametrize("payload", ODD_PAYLOADS, ids=range(len(ODD_PAYLOADS)))
@pytest.mark.parametrize("sealing", ["resealed", "stale", "unsealed"])
def test_the_one_pass_read_agrees_with_the_general_path_on_payloads(monkeypatch, payload, sealing):
    # given a log whose third event carries an unusual payload, sealed afresh, with the hash of
    # the line it replaced, or not sealed
    events = envelopes(5)
    clean = seal(events)
    events[2]["payload"] = payload
    lines = resealed(events)
    if sealing == "stale":
        lines[2] = format_line({**clean[2], "payload": payload})
    elif sealing == "unsealed":
        lines[2] = format_line({k: v for k, v in seal(events)[2].items() if k not in ("prev", "hash")})
    # when it is read with and without the one-pass read, then both reads are the same
    _same_read(*_read_both(monkeypatch, "\n".join(lines) + "\n"))


@pytest.mark.parametrize("change", ODD_ENVELOPES, ids=range(len(ODD_ENVELOPES)))
@pytest.mark.parametrize("sealing", ["resealed", "stale"])
def test_the_one_pass_read_agrees_with_the_general_path_on_envelopes(monkeypatch, change, sealing):
    # given a log whose third line has an unusual envelope, sealed afresh or not
    events = seal(envelopes(5))
    line = {**events[2], **change}
    if sealing == "resealed" and "hash" not in change:
        line["hash"] = event_hash(line)
    lines = [format_line(e) for e in events]
    lines[2] = json.dumps(line, ensure_ascii=False, separators=(",", ":"))
    # when it is read with and without the one-pass read, then both reads are the same
    _same_read(*_read_both(monkeypatch, "\n".join(lines) + "\n"))


@pytest.mark.parametrize("text", [
    '{"v":1,"v":1,"game":"game42","seq":1,"type":"T","actor":null,"payload":{},"prev":"%s","hash":"%s"}',
    '{"v":1,"game":"game42","seq":1,"type":"T","actor":null,"payload":{"a":1,"a":2},"prev":"%s","hash":"%s"}',
    ' {"v":1,"game":"game42","seq":1,"type":"T","actor":null,"payload":{},"prev":"%s","hash":"%s"} ',
    '{"hash":"%2$s","prev":"%1$s","payload":{},"actor":null,"type":"T","seq":1,"game":"game42","v":1}',
])
def test_the_one_pass_read_agrees_on_odd_spellings(monkeypatch, text):
    # given a second line spelt unusually (a repeated key, spaces around it, keys reordered),
    # sealed with the hash of its content
    first = seal(envelopes(1))[0]
    prev = first["hash"]
    unsealed = json.loads(text.replace("%2$s", "x").replace("%1$s", prev).replace("%s", prev, 1)
                          .replace("%s", "x"))
    digest = event_hash({**unsealed, "prev": prev})
    line = text.replace("%2$s", digest).replace("%1$s", prev).replace("%s", prev, 1).replace("%s", digest)
    # when read with and without the one-pass read, then both reads are the same
    fast, general = _read_both(monkeypatch, format_line(first) + "\n" + line + "\n")
    _same_read(fast, general)
    assert len(fast.events) == 2 and not fast.problems


def test_the_one_pass_canonical_text_is_canonical_json_for_every_code_point():
    # msgspec's sorted encoding is canonical_json's text for JSON without floats: the escapes of
    # every code point (outside the surrogates), in keys and values, ints of any size
    from replay.logfile import _decode_written
    encode = _decode_written[1]
    chars = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    for start in range(0, len(chars), 4096):
        text = "".join(chars[start:start + 4096])
        value = {text: [text, {"k" + text: text}], "a": [2**70, -2**64, 0, True, False, None]}
        assert encode(value) == canonical_json(value).encode()


def test_the_one_pass_read_takes_no_float_on_trust(monkeypatch):
    # given a line sealed over a text that spells its float as msgspec does (1e16; canonical
    # JSON spells it 1e+16): its hash is not the hash of its canonical text
    first = seal(envelopes(1))[0]
    body = ('{"actor":null,"game":"game42","payload":{"x":1e16},"prev":"%s","seq":1,"type":"T",'
            '"v":1}' % first["hash"])
    line = body[:-1] + ',"hash":"%s"}' % sha256_hex(body)
    # when read with and without the one-pass read, then both report the edit (LOG-HASH)
    fast, general = _read_both(monkeypatch, format_line(first) + "\n" + line + "\n")
    _same_read(fast, general)
    assert found(fast) == [("LOG-HASH", 2)]
