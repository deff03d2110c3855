"""What the strong bot reads besides a decision: a `Table` with the rest of a seat's view.

Everything here is public or the seat's own (docs/RULES.md, "Hidden and public
information"): the turn's counters, the Kingdom, what every player owns (each gain and
trash is public), the seat's own hand, and the card catalogue the server publishes.
Nothing names another player's hidden cards or the order of any deck, so a bot reading
only this is honest by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, cast, runtime_checkable

from ..strategies import Table
from .knowledge import CardFacts


@runtime_checkable
class SeatView(Protocol):
    """A `Table` with the rest of what one seat may know. (Table's members are written
    out, not inherited: strategies.py is compiled, and a compiled Protocol is not one a
    runtime check can follow.)"""

    @property
    def coins(self) -> int: ...
    def supply(self, card: str) -> int: ...
    def owned(self, card: str) -> int: ...

    @property
    def seat(self) -> int: ...
    @property
    def seats(self) -> int:
        """How many players sit at the table."""
        ...
    @property
    def actions(self) -> int: ...
    @property
    def buys(self) -> int: ...
    @property
    def kingdom(self) -> Sequence[str]: ...
    def hand(self) -> Sequence[str]:
        """The seat's own hand."""
        ...
    def holdings(self, seat: int) -> Mapping[str, int]:
        """What `seat` owns, card by card, wherever the cards are (public)."""
        ...
    @property
    def catalogue(self) -> CardFacts:
        """The cards' costs, coins, points and types, as the server publishes them."""
        ...


class NotASeatView(TypeError):
    """The strong bot was given a table that lacks part of a seat's view."""


_SEAT_VIEWS: set[type] = set()
"""Table classes found to be `SeatView`s: checking a protocol costs as much as a turn."""


def seat_view(table: Table) -> SeatView:
    """`table` as a `SeatView`, or `NotASeatView` saying what is missing."""
    kind = type(table)
    if kind in _SEAT_VIEWS:
        return cast(SeatView, table)
    if isinstance(table, SeatView):
        _SEAT_VIEWS.add(kind)
        return table
    raise NotASeatView("the strong bot needs a seat's whole view (SeatView), not a "
                       f"{type(table).__name__}")
