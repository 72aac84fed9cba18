"""Telling a database URL from a file path, and showing one without its password."""

from __future__ import annotations

import re
from pathlib import Path

# URL schemes of the PostgreSQL backend (SQLAlchemy's spelling with a driver is taken too)
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
URL = re.compile(r"^([a-z][a-z0-9+.-]*)://", re.IGNORECASE)


def is_database_url(db: str | Path | None) -> bool:
    """Is `db` a database URL (scheme://...) rather than a file path?"""
    return db is not None and URL.match(str(db)) is not None


def is_postgres(db: str | Path | None) -> bool:
    """Is `db` a URL of the PostgreSQL backend?"""
    found = URL.match(str(db)) if db is not None else None
    return found is not None and found.group(1).lower() in POSTGRES_SCHEMES


def display_name(db: str | Path) -> str:
    """`db` as it may be printed: a URL with its password replaced by ***."""
    text = str(db)
    if not is_database_url(text):
        return text
    return re.sub(r"^([a-z][a-z0-9+.-]*://[^:/@]*):[^@/]*@", r"\1:***@", text, flags=re.IGNORECASE)
