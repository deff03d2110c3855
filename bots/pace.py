"""How fast a bot answers: a pause between its answers lets a person follow its moves.
The server waits it at a table's seats (`bot_pace`), a network bot at its own (`--pace`)."""

from __future__ import annotations

from enum import StrEnum


class BotPace(StrEnum):
    """A bot's pace, by name; `seconds` is the pause before each of its answers."""

    INSTANT = "instant"
    FAST = "fast"
    NORMAL = "normal"
    SLOW = "slow"

    @property
    def seconds(self) -> float:
        return _SECONDS[self]


_SECONDS = {BotPace.INSTANT: 0.0, BotPace.FAST: 0.3, BotPace.NORMAL: 0.8, BotPace.SLOW: 1.5}
