"""Hidden commitments: a face-down choice is logged as sha256("<value>:<salt>") and revealed later."""

from __future__ import annotations

from engine.core.canonical import sha256_hex


def commitment(value: str | int, salt: str) -> str:
    """The commitment to `value` under `salt`: hex sha256 of the text "<value>:<salt>"."""
    return sha256_hex(f"{value}:{salt}")


def matches_commitment(expected: str, value: str | int, salt: str | None) -> bool:
    """Is `value` with `salt` the choice that `expected` committed to?"""
    return salt is not None and commitment(value, salt) == expected.lower()
