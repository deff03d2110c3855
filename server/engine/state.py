"""Where cards are: each player's zones and the current turn's counters."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    ACTION = "action"
    BUY = "buy"
    CLEANUP = "cleanup"
    GAME_OVER = "game_over"


_ACTION_PHASE: Final = Phase.ACTION  # bound once: Enum class attributes are slow on Python 3.11


class PlayerState:
    """One player's zones. Lists keep the top of a pile at the end."""

    __slots__ = (
        "deck",
        "discard",
        "discard_top_hidden",
        "fixed_points",
        "hand",
        "holdings",
        "in_play",
        "looking",
        "name",
        "seat",
        "set_aside",
        "turns",
    )

    def __init__(self, seat: int, name: str) -> None:
        self.seat = seat
        self.name = name
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.hand: list[str] = []
        self.in_play: list[str] = []
        self.set_aside: list[str] = []
        """Face up, outside play: Library's skipped Actions and cards revealed while resolving."""
        self.looking: list[str] = []
        """Cards taken from the deck that only the owner has looked at (Sentry)."""
        self.discard_top_hidden = False
        """True when the discard pile is a deck moved there face down (Chancellor)."""
        self.turns = 0
        self.holdings: dict[str, int] = {}
        """Card -> how many the player owns, in every zone, by card id: kept by the game
        as cards are gained and trashed (the only ways they come and go). Replaced, never
        changed, when it changes: views and results share it."""
        self.fixed_points = 0
        """The printed VP of `holdings` (what cards scoring by their number earn apart)."""

    def zones(self) -> tuple[list[str], ...]:
        return (self.deck, self.discard, self.hand, self.in_play, self.set_aside, self.looking)

    def owned(self) -> list[str]:
        return [card for zone in self.zones() for card in zone]

    @property
    def discard_top(self) -> str | None:
        if not self.discard or self.discard_top_hidden:
            return None
        return self.discard[-1]


class TurnState:
    """This turn's counters; reset at the start of every turn."""

    __slots__ = ("actions", "bought", "buys", "coins", "merchants", "number", "phase", "player",
                 "silver_played")

    def __init__(self) -> None:
        self.number = 0
        """Turns taken in the game so far, this one included."""
        self.player = 0
        self._reset()

    def start(self, player: int) -> None:
        self.number += 1
        self.player = player
        self._reset()

    def _reset(self) -> None:
        self.phase = _ACTION_PHASE
        self.actions = 1
        self.buys = 1
        self.coins = 0
        self.bought = False
        """After the first buy no more Treasures may be played."""
        self.merchants = 0
        """Merchant plays this turn: each gives +1 coin on the first Silver."""
        self.silver_played = False
