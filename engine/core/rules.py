"""Rules and violations: every rule an engine enforces has an id, a rulebook section and a text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from engine.core.text import seq_text


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: a stable id, the rulebook section it comes from, and the rule in words."""

    id: str
    section: str
    text: str
    topic: str = ""
    """What shared code may ask of the rule without knowing the game: "seed" marks the rule that
    every die of a seeded game is the one its revealed seed gives (verify's dice line)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: which rule, what exactly happened (quoting the input), where in the book."""

    rule: str
    message: str
    section: str
    blocking: bool = True
    """An illegal event is not applied; a wrong claim (blocking=False) is reported and the event
    is applied with the values the rules give."""

    def as_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "message": self.message, "section": self.section,
                "kind": "illegal" if self.blocking else "claim"}


class RuleBook:
    """The rules of one ruleset, by id. `book.violation(id, msg)` builds a Violation citing it."""

    def __init__(self, name: str, rules: list[Rule]):
        self.name = name
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise ValueError(f"duplicate rule id {rule.id!r} in {name}")
            self._rules[rule.id] = rule

    def __getitem__(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules.values())

    def __len__(self) -> int:
        return len(self._rules)

    def ids_about(self, topic: str) -> frozenset[str]:
        """The ids of the rules marked with `topic` (see `Rule.topic`)."""
        return frozenset(r.id for r in self._rules.values() if r.topic == topic)

    def violation(self, rule_id: str, message: str, *, blocking: bool = True) -> Violation:
        """A Violation of rule `rule_id` (which must exist) with a specific message."""
        rule = self._rules[rule_id]
        return Violation(rule.id, message, rule.section, blocking)


class Verdicts:
    """What judging one event produced: its violations (citing a rule book) and notes for readers.

    A ruleset subclasses it with its book: `class _Ctx(Verdicts): book = RULES`."""

    __slots__ = ("v", "notes")
    book: RuleBook

    def __init__(self) -> None:
        self.v: list[Violation] = []
        self.notes: list[str] = []

    def bad(self, rule: str, message: str) -> None:
        """An illegal event that is still carried out (applied as recorded)."""
        self.v.append(self.book.violation(rule, message))

    def claim(self, rule: str, message: str) -> None:
        """A wrong claim: reported; the rules' own value is used."""
        self.v.append(self.book.violation(rule, message, blocking=False))

    def skip(self, rule: str, message: str) -> None:
        """An illegal event that cannot be carried out: report it; the caller returns None."""
        self.v.append(self.book.violation(rule, message))

    def note(self, text: str) -> None:
        self.notes.append(text)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a log: where (file, line, seq), which rule, what, and the rulebook section."""

    file: str
    line: int | None
    seq: int | None
    rule: str
    message: str
    section: str
    kind: str                  # "log" (format, chain), "illegal" (a rule broken), "claim" (a wrong claim)
    applied: bool | None = None  # for illegal events: applied as recorded (True) or skipped (False)
    event: str | None = None     # the event type, when the line was read

    def where(self) -> str:
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
        if self.seq is not None:
            out += f" (seq {seq_text(self.seq)})"
        return out

    def format(self) -> str:
        tail = ""
        if self.kind == "illegal":
            tail = " [applied as recorded]" if self.applied else " [skipped]"
        return f"{self.where()}: {self.rule}: {self.message}{tail} — {self.section}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "seq": self.seq, "event": self.event,
                "rule": self.rule, "message": self.message, "section": self.section,
                "kind": self.kind, "applied": self.applied}


def dice_rules(prefix: str, faces_section: str) -> list[Rule]:
    """The two rules every game with dice has, ids prefixed by the game's code: a die shows 1-6
    (the rulebook's section on dice), and in a seeded game every die is its seed's (topic "seed")."""
    return [
        Rule(f"{prefix}-DICE-FACES", faces_section, "A die shows a whole number from 1 to 6."),
        Rule(f"{prefix}-DICE-SEED", "ledger dice commitments (docs/log-format.md)", "In a seeded game every "
             "die is the next value of the declared seed's stream.", topic="seed"),
    ]
