"""Events: every change to a game, each saying who may see its cards."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any


class EventKind(StrEnum):
    GAME_STARTED = "game_started"
    TURN_STARTED = "turn_started"
    PHASE = "phase"
    SHUFFLED = "shuffled"
    DREW = "drew"
    PLAYED = "played"
    BOUGHT = "bought"
    GAINED = "gained"
    TRASHED = "trashed"
    DISCARDED = "discarded"
    REVEALED = "revealed"
    LOOKED_AT = "looked_at"
    PUT_ON_DECK = "put_on_deck"
    PUT_IN_HAND = "put_in_hand"
    SET_ASIDE = "set_aside"
    DECK_TO_DISCARD = "deck_to_discard"
    REACTED = "reacted"
    RESIGNED = "resigned"
    GAME_ENDED = "game_ended"


class Secrecy(IntEnum):
    """Who may see an event's `cards`. Everyone always sees that the event happened."""

    PUBLIC = 0
    """Everyone sees the cards."""
    OWNER = 1
    """The owner sees the cards; everyone else sees how many."""
    OWNER_TOP = 2
    """As OWNER, and everyone sees the last card, which ends on top of a discard pile."""
    HIDDEN = 3
    """Nobody sees the cards (a shuffled deck's order); the owner sees how many."""


class Event:
    """One thing that happened. `cards` is the full truth; `secrecy` says who may see it.

    `zone` names where the cards came from or went to, as documented per kind
    (for example `gained` to "discard", "deck" or "hand"); `data` carries the few
    kinds that need more than cards (game start, game end, turn numbers).

    A plain class, not a named tuple: compiled, building one is a native call, about a
    tenth of a named tuple's (docs/BENCHMARKS.md, "Native events and decisions"). Treat
    it as immutable; two events are equal when all their fields are.
    """

    __slots__ = ("cards", "data", "kind", "player", "secrecy", "source", "zone")

    def __init__(self, kind: EventKind, player: int | None = None, cards: tuple[str, ...] = (),
                 secrecy: Secrecy = Secrecy.PUBLIC, source: str | None = None,
                 zone: str | None = None, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.cards = cards
        self.secrecy = secrecy
        self.source = source
        self.zone = zone
        self.data = data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind == other.kind and self.player == other.player
                and self.cards == other.cards and self.secrecy == other.secrecy
                and self.source == other.source and self.zone == other.zone
                and self.data == other.data)

    def __hash__(self) -> int:  # as a named tuple's: unhashable with `data`
        return hash((self.kind, self.player, self.cards, self.secrecy, self.source, self.zone,
                     self.data))

    def __repr__(self) -> str:
        return (f"Event(kind={self.kind!r}, player={self.player!r}, cards={self.cards!r}, "
                f"secrecy={self.secrecy!r}, source={self.source!r}, zone={self.zone!r}, "
                f"data={self.data!r})")
