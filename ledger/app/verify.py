"""`ledger verify`'s work, and `ledger tournament`'s per log: the organizer's answer about one
judged log. Is it intact, legal, and does it end with the reported result? Each check with its
detail, and the exit code `verify` gives (ledger/exitcodes.py). (Was ledger/verdict.py.)"""

from __future__ import annotations

from engine.core.text import and_list
from replay.judge import Judgement

from ledger import exitcodes


def winners_named(text: str) -> tuple[str, ...]:
    """The winners a `--winner` text reports: "blue", "blue,red" (a shared win), "none" (no
    winner: ()). ValueError for an empty name, or "none" beside a name."""
    names = [w.strip() for w in text.split(",")]
    if not all(names):
        raise ValueError("names no winner (an empty name); write --winner none for a game "
                         "with no winner, or 'a,b' for a shared win")
    if "none" in names and len(names) > 1:
        raise ValueError("'none' (no winner) stands alone")
    return () if names == ["none"] else tuple(names)


def verdict(j: Judgement, winner: str | None = None) -> dict:
    """The organizer's answer: chain intact, no rule errors, declared result = the rules' result.

    A finding an organizer's ruling accepts (docs/log-format.md, "RulingRecorded") is answered:
    it is listed with its ruling and fails no check. A game that verifies only by its rulings
    (a finding accepted, or an event taken out) has the status "ruled"; exit 0 like a verified one."""
    format_problems = [f for f in j.log_findings if f.rule not in exitcodes.CHAIN_RULES]
    chain_problems = [f for f in j.log_findings if f.rule in exitcodes.CHAIN_RULES]
    from engine import get_ruleset
    rs = get_ruleset(j.ruleset) if j.ruleset else None
    result_event = rs.result_event if rs else None
    seed_rules = rs.rules.ids_about("seed") if rs else frozenset()
    still_open = {id(f) for f in j.open_findings}
    ruled_findings = [f for f in j.findings if id(f) not in still_open]
    on_result = [f for f in j.rule_findings if result_event and f.event == result_event]
    result_claims = [f for f in on_result if id(f) in still_open]
    rule_problems = [f for f in j.rule_findings if id(f) in still_open
                     and not (result_event and f.event == result_event)]
    # the log's own result claim, its findings all accepted by a ruling: the declared result stands
    result_ruled = winner is None and bool(on_result) and not result_claims and j.has_declared_winner
    if winner is not None:
        declared_set = winners_named(winner)
    else:
        declared_set = j.declared_winners
    declared = and_list(declared_set) or None
    has_declared = winner is not None or j.has_declared_winner
    rules_winners = list(j.result.winners) if j.result else []
    ended = f" — the game ended in round {j.result.round} ({j.result.reason})" if j.result else ""
    if j.result is None:
        stops = ""
        if rs is not None and j.final_state is not None and j.fatal is None:
            stops = f" (the log stops in round {rs.position(j.final_state)[1]})"
        result_ok, result_detail = False, "the game is not over by the rules" + (f" ({j.fatal})" if j.fatal else stops)
    elif not has_declared:
        result_ok, result_detail = False, f"no result is declared (the rules give {' and '.join(rules_winners) or 'no winner'}; pass --winner){ended}"
    else:
        result_ok = sorted(declared_set) == sorted(rules_winners)
        result_detail = f"declared {declared or 'no winner'}; the rules give {' and '.join(rules_winners) or 'no winner'}{ended}"
    if result_ruled:
        by = j.accepted_by(on_result[0])
        result_detail += (f" — the declared result ({declared or 'no winner'}) stands by the ruling "
                          f"at seq {by.seq}" + (f" ({by.by})" if by.by else ""))
    n_ruled = sum(1 for f in ruled_findings if f.kind != "log" and not (result_event and f.event == result_event))
    checks = [
        {"name": "log readable", "ok": not format_problems and j.fatal is None,
         "detail": "every line parsed" if not format_problems else f"{len(format_problems)} problem(s)"},
        {"name": "hash chain", "ok": j.chain_ok and not chain_problems,
         "detail": (f"intact, head {j.head[:16]}…" if j.chain_ok and j.head else
                    f"{len(chain_problems)} problem(s)" if chain_problems else "not sealed")},
        {"name": "rules", "ok": not rule_problems and j.fatal is None,
         "detail": ("not judged: " + j.fatal if j.fatal else
                    "no rule errors" if not rule_problems else f"{len(rule_problems)} finding(s)")
                   + (f"; {n_ruled} accepted by rulings" if n_ruled and not j.fatal else "")
                   + (f" (ruleset {j.ruleset} {j.ruleset_version})" if j.ruleset else "")},
        {"name": "result", "ok": (result_ok and not result_claims) or result_ruled,
         "detail": result_detail},
    ]
    dice_findings = [f for f in j.rule_findings if f.rule in seed_rules and id(f) in still_open]
    if j.dice_mode == "seeded":
        checks.insert(3, {"name": "dice", "ok": j.seed_checked and not dice_findings,
                          "detail": (f"{len(dice_findings)} die/dice differ from the revealed seed" if dice_findings
                                     else "every die is the one the revealed seed gives" if j.seed_checked
                                     else "the seed is not revealed (or does not match its published hash): "
                                          "the dice cannot be checked")})
    if format_problems or j.fatal:
        code = exitcodes.MALFORMED
    elif chain_problems or not j.chain_ok:
        code = exitcodes.CHAIN
    elif rule_problems or (j.dice_mode == "seeded" and not j.seed_checked):
        code = exitcodes.FINDINGS
    elif (not result_ok or result_claims) and not result_ruled:
        code = exitcodes.RESULT
    else:
        code = exitcodes.OK
    ruled = code == exitcodes.OK and (bool(ruled_findings) or any(r.voids for r in j.rulings))
    return {"file": j.file, "game": j.game_id, "verified": code == exitcodes.OK, "exit_code": code,
            "status": "ruled" if ruled else "verified" if code == exitcodes.OK else "not verified",
            "ruled": ruled,
            "ruleset": j.ruleset, "ruleset_version": j.ruleset_version, "data": j.data_digest,
            "data_notes": list(j.data_notes), "chain_head": j.head,
            "checks": checks, "result": j.result_dict(), "declared_winner": declared,
            "events": j.events, "findings": findings_with_rulings(j),
            "rulings": [r.as_dict() for r in j.rulings]}


def findings_with_rulings(j: Judgement) -> list[dict]:
    """Each finding as a dict, with "ruling": the seq of the ruling that accepts it (None: open)."""
    out = []
    for f in j.findings:
        by = j.accepted_by(f)
        out.append({**f.as_dict(), "ruling": by.seq if by is not None else None})
    return out
