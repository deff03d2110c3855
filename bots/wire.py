"""Decisions as they arrive over the wire (plain maps), in the shape strategies read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class WireOption(NamedTuple):
    kind: str
    card: str | None


class WireDecision(NamedTuple):
    id: int
    player: int
    kind: str
    source: str | None
    options: tuple[WireOption, ...]
    min: int
    max: int

    @classmethod
    def from_map(cls, decision: Mapping[str, Any]) -> WireDecision:
        """A decision map addressed to its decider (one that carries the options)."""
        return cls(
            id=decision["id"],
            player=decision["player"],
            kind=decision["kind"],
            source=decision.get("source"),
            options=tuple([WireOption(o["kind"], o.get("card")) for o in decision["options"]]),
            min=decision["min"],
            max=decision["max"],
        )
