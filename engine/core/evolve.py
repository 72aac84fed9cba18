"""A fast `dataclasses.replace` for frozen, slotted state dataclasses (the hot path of apply)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable


def make_evolve(cls: type) -> Callable[..., Any]:
    """`evolve(s, **changes)` for dataclass `cls`: generated once from its field names, it copies
    every field without the per-call introspection `dataclasses.replace` does. The instance it
    returns is new; `s` is untouched."""
    names = [f.name for f in fields(cls)]
    params = ", ".join(f"{n}=_KEEP" for n in names)
    body = "".join(f"    _set(new, {n!r}, s.{n} if {n} is _KEEP else {n})\n" for n in names)
    src = f"def evolve(s, *, {params}):\n    new = _new(_cls)\n{body}    return new\n"
    scope = {"_KEEP": object(), "_new": object.__new__, "_set": object.__setattr__, "_cls": cls}
    exec(src, scope)  # noqa: S102 - generated from the dataclass's own field names
    return scope["evolve"]
