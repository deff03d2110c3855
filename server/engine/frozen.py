"""Frozen dataclasses that survive pickling and copying when compiled."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_frozen(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """`__reduce__` for a frozen dataclass: rebuild it by calling its class with its fields.

    Compiled by mypyc, the default recipe (pickle, copy) makes an empty object and sets
    each field on it, which a frozen dataclass refuses with `FrozenInstanceError` (a
    process pool could not send a `Setup` to its workers)."""
    return type(value), tuple(getattr(value, field.name) for field in fields(value)
                              if field.init)
