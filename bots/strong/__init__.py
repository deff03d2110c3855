"""The strong bot: Big Money around the Kingdom's best card, chosen per Kingdom, with
endgame rules and a considered answer to every card's question (docs/BOTS.md)."""

from __future__ import annotations

from .bot import StrongBot
from .plans import DEFAULT_LEVEL, Level
from .table import NotASeatView, SeatView

__all__ = ["DEFAULT_LEVEL", "Level", "NotASeatView", "SeatView", "StrongBot"]
