"""The table every bot reads: one seat's view map, as the server sends it to that seat.

A bot sees a decision and a `SeatTable` built from the seat's view (server/engine/view.py,
`view`; docs/PROTOCOL.md, "View map") and the card catalogue the server publishes, and
nothing else: no reference to the game, so a bot cannot reach another player's hidden
cards or the order of any deck, whether it plays in the server, in a worker process, in
`dominion-sim` and the benchmarks, or over the network (docs/BOTS.md, "Honest by
construction"). It is a `Table` (bots/strategies.py) and the strong bot's `SeatView`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .strong.knowledge import CardFacts


class SeatTable:
    """A seat's view map read as a `Table`: the turn's counters, the Kingdom and Supply,
    what every player owns (public) and the seat's own hand; `catalogue`, the cards'
    published facts. The map is read, never changed: treat what it returns as read-only."""

    __slots__ = ("_own", "_players", "_supply", "_turn", "catalogue", "seat", "view")

    def __init__(self, view: Mapping[str, Any], catalogue: CardFacts) -> None:
        self.view = view
        """The view map, as the server built (or sent) it for the seat."""
        self.catalogue = catalogue
        self.seat: int = view["viewer"]
        self._turn: Mapping[str, Any] = view["turn"]
        self._supply: Mapping[str, int] = view["supply"]
        self._players: Sequence[Mapping[str, Any]] = view["players"]
        self._own: Mapping[str, Any] = self._players[self.seat]

    @property
    def coins(self) -> int:
        return int(self._turn["coins"])

    @property
    def actions(self) -> int:
        return int(self._turn["actions"])

    @property
    def buys(self) -> int:
        return int(self._turn["buys"])

    @property
    def seats(self) -> int:
        return len(self._players)

    @property
    def kingdom(self) -> Sequence[str]:
        kingdom: Sequence[str] = self.view["kingdom"]
        return kingdom

    def hand(self) -> Sequence[str]:
        hand: Sequence[str] = self._own.get("hand") or ()
        return hand

    def holdings(self, seat: int) -> Mapping[str, int]:
        """What `seat` owns, card by card (public: every gain and trash is)."""
        players = self._players
        owned: Mapping[str, int] = players[seat]["owned"] if 0 <= seat < len(players) else {}
        return owned

    def supply(self, card: str) -> int:
        return int(self._supply.get(card, 0))

    def owned(self, card: str) -> int:
        return int(self._own["owned"].get(card, 0))
