"""Events: every change to a game, each saying who may see its cards."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum, StrEnum
from functools import partial
from typing import Any, Final, NamedTuple, cast


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


class Event(NamedTuple):
    """One thing that happened. `cards` is the full truth; `secrecy` says who may see it.

    `zone` names where the cards came from or went to, as documented per kind
    (for example `gained` to "discard", "deck" or "hand"); `data` carries the few
    kinds that need more than cards (game start, game end, turn numbers).
    """

    kind: EventKind
    player: int | None = None
    cards: tuple[str, ...] = ()
    secrecy: Secrecy = Secrecy.PUBLIC
    source: str | None = None
    zone: str | None = None
    data: dict[str, Any] | None = None


new_event: Final = cast(Callable[[tuple[Any, ...]], Event], partial(tuple.__new__, Event))
"""An Event from all seven fields, in order, as one tuple.

The same as `Event(*fields)` without the Python-level constructor: for the events
of every turn, where that call is a measurable part of a game's cost.
"""
