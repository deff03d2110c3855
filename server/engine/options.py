"""Shared, immutable option instances (options are compared and created on hot paths)."""

from __future__ import annotations

from functools import cache

from .decisions import Option, OptionKind


@cache
def option(kind: OptionKind, card: str | None = None) -> Option:
    return Option(kind, card)
