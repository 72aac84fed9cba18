"""A tournament report as an organizer reads it: lines of text (`ledger tournament check`) and one
offline HTML page to post (`--html OUT`): the tables round by round, the problems, the standings
and what was left out of them."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ledger.tournament import Recheck, TableCheck, TournamentReport
from ledger.tournament_scoring import number_text, tie_break_title
from ledger.tournament_sheet import natural_key
from engine.core.text import and_list

MARK = {"ok": "ok", "fail": "FAIL", "warn": "warn", "info": "--", "skip": "skip"}


def _rounds(report: TournamentReport) -> dict[str, list[TableCheck]]:
    out: dict[str, list[TableCheck]] = {}
    for t in report.tables:
        out.setdefault(t.line.round, []).append(t)
    return out


def _points_text(report: TournamentReport) -> str:
    used = sorted({t.judgement.ruleset for t in report.tables
                   if t.judgement is not None and t.judgement.ruleset})
    parts = []
    for name in used:
        p = report.scoring.of(name)
        shared = "split" if p.shared_win == "split" else number_text(float(p.shared_win))
        per = "".join(f", {number_text(v)} per {k}" for k, v in p.points_per.items() if v)
        parts.append(f"{name}: win {number_text(p.win)}, shared win {shared}, "
                     f"loss {number_text(p.loss)}{per}")
    ties = ", ".join(tie_break_title(k) for k in report.scoring.tie_breaks) or "none"
    return "; ".join(parts or ["no verified game"]) + f"; tie-breaks: {ties}"


def _winner_text(t: TableCheck) -> str:
    return and_list(t.line.winners) or "no result"


def _ruleset(t: TableCheck) -> str:
    if t.judgement is not None and t.judgement.ruleset:
        return t.judgement.ruleset
    return t.line.ruleset or (t.log.ruleset if t.log is not None and t.log.ruleset else "")


def summary(report: TournamentReport) -> str:
    n = len(report.tables)
    bad = sum(not t.stands for t in report.tables)
    errors = len(report.errors)
    if report.input_errors:
        return f"some input cannot be read: {'; '.join(report.input_errors)}"
    if not errors:
        return f"every result stands ({n} table{'s' if n != 1 else ''})"
    return (f"{bad} of {n} results do not stand" if bad else "every table's result stands") + (
        f"; {errors} problem{'s' if errors != 1 else ''} in all")


def text_lines(report: TournamentReport, verbose: bool = True) -> list[str]:
    """The report as lines of text: each table with its checks, the problems, the standings."""
    sheet = report.sheet
    rounds = _rounds(report)
    lines = [f"{sheet.file}: {len(report.tables)} tables in {len(rounds)} round"
             f"{'s' if len(rounds) != 1 else ''}; logs from "
             f"{', '.join(report.logs_given) or 'the log column only'}"]
    if sheet.ignored_columns:
        lines.append(f"  (columns not used: {', '.join(sheet.ignored_columns)})")
    lines.append(f"scoring ({report.scoring.source}): {_points_text(report)}")
    for rnd in sorted(rounds, key=natural_key):
        lines.append("")
        lines.append(f"== Round {rnd} ==")
        for t in rounds[rnd]:
            game = f" ({_ruleset(t)})" if _ruleset(t) else ""
            lines.append(f"table {t.line.table}{game}: {', '.join(t.line.players)} — "
                         f"reported {_winner_text(t)} — {'STANDS' if t.stands else 'DOES NOT STAND'}")
            if verbose:
                for c in t.checks:
                    lines.append(f"  [{MARK.get(c.status, c.status)}] {c.name}: {c.detail}")
                for p in t.problems:
                    if p.check in ("sheet", "duplicate-table", "player-twice"):
                        lines.append(f"  [FAIL] {p.check}: {p.message}")
    errors, warnings = report.errors, report.warnings
    lines.append("")
    lines.append(f"== Problems: {len(errors) or 'none'} ==")
    lines.extend(f"  {p.format()}" for p in errors)
    if warnings:
        lines.append(f"== Warnings: {len(warnings)} (the results stand) ==")
        lines.extend(f"  {p.format()}" for p in warnings)
    lines.append("")
    lines.append(f"== Standings: from {report.results_counted} verified result"
                 f"{'s' if report.results_counted != 1 else ''} ==")
    lines.extend("  " + row for row in _aligned(_standings_rows(report)))
    if report.left_out:
        lines.append(f"  left out ({len(report.left_out)}):")
        lines.extend(f"    {table}: {why}" for table, why in report.left_out)
    lines.append("")
    lines.append(summary(report) + f" (exit {report.exit_code})")
    return lines


def _standings_rows(report: TournamentReport) -> list[list[str]]:
    ties = [k for k in report.scoring.tie_breaks if k != "wins"]     # wins: a column anyway
    head = ["rank", "player", "points", "games", "wins", *[tie_break_title(k) for k in ties],
            "left out"]
    rows = [head]
    for s in report.standings:
        rows.append([f"{s.rank}{'=' if s.tied else ''}", s.player, number_text(s.points),
                     str(s.games), str(s.wins), *[number_text(s.tie_breaks[k]) for k in ties],
                     str(s.left_out) if s.left_out else ""])
    return rows


def _aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def recheck_lines(name: str, rc: Recheck) -> list[str]:
    r = rc.report
    logs = len({t.log.identity for t in r.tables if t.log is not None})
    if rc.stands:
        return [f"{name}: STILL STANDS — recomputed from the logs now, it says the same: "
                f"{len(r.tables)} tables, {logs} logs with the same chain heads, the same results, "
                f"problems and standings ({summary(r)})"]
    return [f"{name}: DOES NOT STAND — recomputed from the logs now, it differs:",
            *[f"  {d}" for d in rc.differences]]


# --- the page ---------------------------------------------------------------------------------------

CSS = """
:root { --ok: #1b7f3b; --bad: #b42318; --warn: #9a6700; --ink: #1f2328; --mute: #59636e;
        --line: #d1d9e0; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       margin: 0; background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 16px 40px; }
h1 { font-size: 1.5em; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2em; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1.05em; margin: 18px 0 6px; }
.meta { color: var(--mute); margin: 2px 0; overflow-wrap: anywhere; }
.verdict { font-size: 1.1em; font-weight: 600; padding: 10px 14px; border-radius: 6px; margin: 14px 0; }
.verdict.ok { background: #dafbe1; color: var(--ok); }
.verdict.bad { background: #ffebe9; color: var(--bad); }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: 0.95em; }
table.standings { width: auto; min-width: 50%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.tag { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 0.85em; font-weight: 600;
       white-space: nowrap; }
.tag.ok { background: #dafbe1; color: var(--ok); }
.tag.bad { background: #ffebe9; color: var(--bad); }
.tag.warn { background: #fff8c5; color: var(--warn); }
.tag.info { background: var(--bg); color: var(--mute); }
ul.problems { padding-left: 0; list-style: none; margin: 0; }
ul.problems li { border-left: 4px solid var(--bad); background: #fff5f4; padding: 8px 12px; margin: 6px 0;
                 overflow-wrap: anywhere; }
ul.problems li.warning { border-left-color: var(--warn); background: #fffbea; }
.todo { color: var(--mute); }
.checks { margin: 4px 0 0; padding: 0; list-style: none; font-size: 0.9em; color: var(--mute); }
.checks li { overflow-wrap: anywhere; }
details summary { cursor: pointer; color: var(--mute); font-size: 0.9em; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
footer { color: var(--mute); font-size: 0.85em; margin-top: 28px; overflow-wrap: anywhere; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: 12px 10px 30px; }
  table.standings { font-size: 0.9em; }
  table.standings th, table.standings td { padding: 5px 5px; }
  table.tables thead { display: none; }
  table.tables, table.tables tbody, table.tables tr, table.tables td { display: block; width: 100%; }
  table.tables tr { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 4px 0; }
  table.tables td { border: 0; padding: 3px 10px; }
  table.tables td::before { content: attr(data-label) ": "; font-weight: 600; color: var(--mute); }
}
"""


def _e(x: Any) -> str:
    return html.escape(str(x))


def _tag(ok: bool, yes: str = "stands", no: str = "does not stand") -> str:
    return f'<span class="tag {"ok" if ok else "bad"}">{_e(yes if ok else no)}</span>'


def _problem_list(problems: list) -> list[str]:
    out = ['<ul class="problems">']
    for p in problems:
        out.append(f'<li class="{_e(p.severity)}"><strong>{_e(p.label)}</strong> · '
                   f"<code>{_e(p.check)}</code>: {_e(p.message)}<br>"
                   f'<span class="todo">What to do: {_e(p.todo)}</span></li>')
    out.append("</ul>")
    return out


def html_page(report: TournamentReport, title: str | None = None) -> str:
    """One self-contained page (no script, no link to anything outside it)."""
    sheet = report.sheet
    title = title or f"Results check: {Path(sheet.file).name}"
    ok = report.exit_code == 0
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>",
           f"<h1>{_e(title)}</h1>",
           f'<p class="meta">Sheet: <code>{_e(sheet.file)}</code></p>',
           f'<p class="meta">{len(report.tables)} tables in {len(_rounds(report))} rounds · logs: '
           f"{_e(', '.join(report.logs_given) or 'the log column only')}</p>",
           f'<p class="meta">Scoring ({_e(report.scoring.source)}): {_e(_points_text(report))}</p>',
           f'<div class="verdict {"ok" if ok else "bad"}">{_e(summary(report))}</div>']
    out.append(f"<h2>Problems ({len(report.errors)})</h2>")
    if report.errors:
        out.extend(_problem_list(report.errors))
    else:
        out.append("<p>None: every reported result is the one the rules give.</p>")
    if report.warnings:
        out.append(f"<h3>Warnings ({len(report.warnings)}): the results stand</h3>")
        out.extend(_problem_list(report.warnings))
    out.append(f"<h2>Standings</h2><p class=\"meta\">From {report.results_counted} verified "
               f"result{'s' if report.results_counted != 1 else ''} only.</p>")
    rows = _standings_rows(report)
    numeric = {0, 2, 3, 4, *range(5, len(rows[0]))}
    out.append('<div class="scroll"><table class="standings"><thead><tr>' + "".join(
        f'<th class="{"num" if i in numeric else ""}">{_e(h)}</th>' for i, h in enumerate(rows[0]))
        + "</tr></thead><tbody>")
    for r in rows[1:]:
        out.append("<tr>" + "".join(f'<td class="{"num" if i in numeric else ""}">{_e(c)}</td>'
                                    for i, c in enumerate(r)) + "</tr>")
    out.append("</tbody></table></div>")
    if report.left_out:
        out.append(f"<h3>Left out of the standings ({len(report.left_out)})</h3><ul>")
        out.extend(f"<li><strong>{_e(t)}</strong>: {_e(why)}</li>" for t, why in report.left_out)
        out.append("</ul>")
    out.append("<h2>Tables</h2>")
    rounds = _rounds(report)
    for rnd in sorted(rounds, key=natural_key):
        out.append(f"<h3>Round {_e(rnd)}</h3>")
        out.append('<div class="scroll"><table class="tables"><thead><tr><th>Table</th><th>Game</th>'
                   "<th>Players</th><th>Reported</th><th>The rules</th><th>Log</th><th>Result</th>"
                   "</tr></thead><tbody>")
        for t in rounds[rnd]:
            rules = ("—" if t.judgement is None else
                     "not over" if t.result is None else
                     f"{' and '.join(t.result['winners']) or 'no winner'} (round {t.result['round']}, "
                     f"{t.result['reason']})")
            log = Path(t.log.path).name if t.log is not None and t.log.path is not None else \
                t.log.label if t.log is not None else "no log"
            where = t.log.label if t.log is not None else ""
            checks = "".join(f"<li>[{_e(MARK.get(c.status, c.status))}] {_e(c.name)}: {_e(c.detail)}</li>"
                             for c in t.checks)
            out.append(
                f'<tr><td data-label="Table">{_e(t.line.table)}</td>'
                f'<td data-label="Game">{_e(_ruleset(t))}</td>'
                f'<td data-label="Players">{_e(", ".join(t.line.players))}</td>'
                f'<td data-label="Reported">{_e(_winner_text(t))}</td>'
                f'<td data-label="The rules">{_e(rules)}</td>'
                f'<td data-label="Log"><code title="{_e(where)}">{_e(log)}</code>'
                + (f"<details><summary>checks</summary><ul class=\"checks\">{checks}</ul></details>"
                   if checks else "")
                + f'</td><td data-label="Result">{_tag(t.stands)}</td></tr>')
        out.append("</tbody></table></div>")
    digest = f" · sheet sha256 {sheet.sha256}" if sheet.sha256 else ""
    out.append(f"<footer>Checked by <code>ledger tournament check</code>{_e(digest)}. Every log's "
               "chain head and the rulesets' data digests are in the JSON report "
               "(<code>--json</code>); <code>ledger tournament recheck REPORT.json LOGS</code> "
               "recomputes it.</footer>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"
