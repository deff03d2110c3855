"""The table every bot reads: one seat's view, as the server sends it to that seat.

A bot sees a decision and a `SeatTable` holding the part of the seat's view that bots
read (server/engine/view.py, `view`; docs/PROTOCOL.md, "View map") and the card catalogue
the server publishes, and nothing else: no reference to the game, so a bot cannot reach
another player's hidden cards or the order of any deck, whether it plays in the server, in
a worker process, in `dominion-sim` and the benchmarks, or over the network (docs/BOTS.md,
"Honest by construction"). It is a `Table` (bots/strategies.py) and the strong bot's `SeatView`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .strong.knowledge import CardFacts


class SeatTable:
    """A seat's view read as a `Table`: the turn's counters, the Kingdom and Supply, what
    every player owns (public) and the seat's own hand; `catalogue`, the cards' published
    facts. Built from those parts where the game is played (server/play/bots.py,
    `seat_table`: no map per decision) or from a view map (`from_view`: a network client,
    a worker process); `view` is the map of the parts. The parts are shared, never
    changed: treat what it returns as read-only."""

    __slots__ = ("_hand", "_holdings", "_supply", "actions", "buys", "catalogue", "coins",
                 "kingdom", "seat")

    def __init__(self, seat: int, kingdom: Sequence[str], supply: Mapping[str, int],
                 actions: int, buys: int, coins: int, holdings: Sequence[Mapping[str, int]],
                 hand: Sequence[str], catalogue: CardFacts) -> None:
        self.seat = seat
        self.kingdom = kingdom
        self._supply = supply
        self.actions = actions
        self.buys = buys
        self.coins = coins
        self._holdings = holdings
        """Per seat: card -> how many it owns."""
        self._hand = hand
        self.catalogue = catalogue

    @classmethod
    def from_view(cls, view: Mapping[str, Any], catalogue: CardFacts) -> SeatTable:
        """The table of a seat's view map, as the server builds (or sends) it for the seat."""
        seat: int = view["viewer"]
        turn: Mapping[str, Any] = view["turn"]
        players: Sequence[Mapping[str, Any]] = view["players"]
        return cls(seat, view["kingdom"], view["supply"], int(turn["actions"]),
                   int(turn["buys"]), int(turn["coins"]), [p["owned"] for p in players],
                   players[seat].get("hand") or [], catalogue)

    @property
    def view(self) -> dict[str, Any]:
        """The part of the seat's view map that the table holds, each key as the whole map
        has it (what a worker process is sent; `from_view` reads it back)."""
        players: list[dict[str, Any]] = [{"owned": owned} for owned in self._holdings]
        players[self.seat] = {"owned": self._holdings[self.seat], "hand": list(self._hand)}
        return {"viewer": self.seat, "kingdom": list(self.kingdom), "supply": self._supply,
                "turn": {"actions": self.actions, "buys": self.buys, "coins": self.coins},
                "players": players}

    @property
    def seats(self) -> int:
        return len(self._holdings)

    def hand(self) -> Sequence[str]:
        return self._hand

    def holdings(self, seat: int) -> Mapping[str, int]:
        """What `seat` owns, card by card (public: every gain and trash is)."""
        holdings = self._holdings
        return holdings[seat] if 0 <= seat < len(holdings) else {}

    def supply(self, card: str) -> int:
        return self._supply.get(card, 0)

    def owned(self, card: str) -> int:
        return self._holdings[self.seat].get(card, 0)
