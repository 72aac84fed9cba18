"""Lines a client seals itself (issue #12: "the server fills prev/hash, or accepts a client-sealed
line and checks it").

An appended item may carry the envelope keys of a log line besides type, actor and payload:
`v`, `game`, `seq` and `at` (checked, and stored as given), and `prev` with `hash` (sealed: the
client hashed the line itself, docs/log-format.md). The server checks a sealed item and stores
it exactly as the client sealed it, so a client that writes each line it sealed (and each line
it reads back) as a log line holds a copy of the log byte for byte the same as the export.

    at, sealed = envelope_keys(item, game_id, seq)       # 422 bad-seal / bad-seq / bad-game-id
    line = chained(game_id, seq, type_, actor, payload, at, prev)   # as the store will seal it
    server_fills(type_, seq)                              # 422 for one the seed completes
    check_sealed(item, line, seq, chain_shown)            # 422 bad-hash / chain-hidden / bad-prev

The items of one append are chained in their order: an unsealed item is sealed by the server
onto the line before it, and a sealed item's `prev` must be the hash of the line before it (the
stored head for the first; the server's seal of an unsealed item before it).

A seat that sees a line redacted does not see the chain from it on (replay.seat's rule): a hash
over a hidden payload would let it try candidate values. So a sealed item is refused whole
(`chain-hidden`) while the caller cannot see the head's hash, before its `prev` is compared:
an answer that said whether a guessed `prev` is right would be the same oracle.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.record import FORMAT_VERSION, event_hash
from ledger.service.errors import ServiceError
from replay.logfile import MAX_SEQ, _is_rfc3339

SEAL_KEYS = ("v", "game", "seq", "at", "prev", "hash")
"""The envelope keys an appended item may carry besides type, actor and payload."""


def envelope_keys(item: dict, game_id: str, seq: int) -> tuple[str | None, bool]:
    """The item's `at` (None when not given) and whether it is sealed (carries `hash`); 422 when
    a key it gives is not the line's at `seq` of `game_id`, or it gives one of prev/hash alone."""
    v, game, given_seq = item.get("v"), item.get("game"), item.get("seq")
    at, prev, digest = item.get("at"), item.get("prev"), item.get("hash")
    if v is not None and v != FORMAT_VERSION:
        raise ServiceError(422, "bad-seal", f"v is the log format's version, {FORMAT_VERSION}; "
                           f"got {v!r}", seq=seq, rule="LOG-ENVELOPE")
    if game is not None and game != game_id:
        raise ServiceError(422, "bad-game-id", f"the line names game {game!r}; this game is "
                           f"{game_id!r}", seq=seq, rule="LOG-GAME-ID")
    if given_seq is not None and given_seq != seq:
        rule = "LOG-SEQ-GAP" if isinstance(given_seq, int) and seq < given_seq <= MAX_SEQ \
            else "LOG-SEQ-ORDER"
        raise ServiceError(422, "bad-seq", f"the line's seq is {given_seq!r}, but it would be "
                           f"stored at seq {seq} (expected_seq, then one more per event)",
                           seq=seq, rule=rule)
    if at is not None and not (isinstance(at, str) and _is_rfc3339(at)):
        raise ServiceError(422, "bad-seal", f"at must be an RFC 3339 timestamp such as "
                           f"'2024-05-01T18:30:00Z'; got {at!r}", seq=seq, rule="LOG-ENVELOPE")
    if (prev is None) != (digest is None):
        given, missing = ("hash", "prev") if prev is None else ("prev", "hash")
        raise ServiceError(422, "bad-seal", f"a sealed line carries both prev and hash; this one "
                           f"has {given} and no {missing} (send neither to have the server seal "
                           f"it)", seq=seq, rule="LOG-UNSEALED")
    return at, digest is not None


def chained(game_id: str, seq: int, type_: str, actor: str | None, payload: dict,
            at: str | None, prev: str | None) -> dict:
    """The line as the store seals it onto `prev`: every envelope key, "hash" last computed."""
    line: dict[str, Any] = {"v": FORMAT_VERSION, "game": game_id, "seq": seq, "type": type_,
                            "actor": actor}
    if at is not None:
        line["at"] = at
    line["payload"] = payload
    line["prev"] = prev
    line["hash"] = event_hash(line)
    return line


def server_fills(type_: Any, seq: int) -> ServiceError:
    """The refusal of a sealed event the server completes from the seed (a roll, a draw, the
    dice a decision brings): said before any dice in it are looked at."""
    return ServiceError(422, "server-fills", f"the server completes this {type_} with the dice "
                        f"or draw of the game's seed, so the client cannot seal it: send it "
                        f"without prev and hash, and chain the next line onto the hash the "
                        f"answer gives", seq=seq)


def check_sealed(item: dict, line: dict, seq: int, chain_shown: Callable[[], bool]) -> dict:
    """The client's sealed item checked against `line`, the event as the server would store it
    (the server's own seal onto the head; the caller has refused an event the server completes,
    `server_fills`): the item's hash the hash of its content (`bad-hash`), and its prev the
    head's hash (`bad-prev`), which is compared only when `chain_shown()` says the caller may
    see it (`chain-hidden` otherwise). The line to store: the client's, key for key."""
    sealed = {**line, "prev": item["prev"], "hash": item["hash"]}
    if not isinstance(item["hash"], str) or event_hash(sealed) != item["hash"]:
        raise ServiceError(422, "bad-hash", f"seq {seq}: hash is not the SHA-256 of the line's "
                           f"canonical JSON without its hash key (the line as stored: v, game, "
                           f"seq, type, actor, at if given, payload, prev; docs/log-format.md)",
                           seq=seq, rule="LOG-HASH")
    if not chain_shown():
        raise ServiceError(422, "chain-hidden", f"seq {seq}: a line before this one is shown to "
                           f"you redacted, so the chain's hashes are withheld from you and a "
                           f"line sealed onto them cannot be taken: send it without prev and "
                           f"hash (the server seals it)", seq=seq)
    if item["prev"] != line["prev"]:
        raise ServiceError(422, "bad-prev", f"seq {seq}: prev is not the hash of the line before "
                           f"it (seq {seq - 1}): another line came first, or the client's copy "
                           f"differs; read the events since your last and seal again", seq=seq,
                           rule="LOG-CHAIN", expected_prev=line["prev"])
    return sealed
