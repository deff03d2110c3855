"""What the strong bot reads of its opponents' plans from their public gains (what every
player owns is public: each gain is seen), and so which of its answers a game calls for."""

from __future__ import annotations

from .position import Position

RUSH_WORKSHOPS = 3
"""Workshops an opponent owns that show a Gardens rush (money plans own none or one)."""


def rushing_gardens(position: Position) -> bool:
    """Whether an opponent rushes Gardens: it owns some, or gains Workshops to gain them."""
    if "gardens" not in position.piles:
        return False
    view = position.view
    for other in range(view.seats):
        if other != view.seat:
            owned = view.holdings(other)
            if owned.get("gardens", 0) or owned.get("workshop", 0) >= RUSH_WORKSHOPS:
                return True
    return False


def giving_curses(position: Position) -> bool:
    """Whether an opponent owns a Witch: a Curse war, in which money lasts less."""
    view = position.view
    return any(view.holdings(other).get("witch", 0)
               for other in range(view.seats) if other != view.seat)
