"""Canonical JSON and hashing: the one byte form that hashes, digests and commitments use."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Serialize `value` as canonical JSON: sorted keys, no spaces, UTF-8 kept as is.

    Two equal values always give the same text, whatever the insertion order of their dicts.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str | bytes) -> str:
    """Hex SHA-256 of a text (UTF-8) or of raw bytes."""
    if isinstance(text, str):
        text = text.encode("utf-8")
    return hashlib.sha256(text).hexdigest()
