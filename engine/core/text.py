"""Words for messages that every layer shares: a count and its noun, agreeing; a long number cut
short."""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """'1 crown', '2 crowns', '1,024 games': the count and its noun, agreeing (`nouns` for an
    irregular plural: plural(n, "army", "armies"))."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


def and_list(items: Iterable[object]) -> str:
    """'blue', 'blue and red', 'blue, red and green': names in a sentence ('' for none)."""
    names = [str(i) for i in items]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def seq_text(n: int) -> str:
    """A seq (or any integer) for a message; one of more than 20 digits is cut to its ends and
    its length, so a 500-digit seq in a hostile log does not fill the screen."""
    text = str(n)
    return text if len(text) <= 20 else f"{text[:6]}...{text[-6:]} ({len(text)} digits)"
