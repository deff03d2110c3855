"""Bot strategies: pure decision logic that needs neither the engine nor the network.

The same strategies answer decisions in-process (the server's bot seats and the
simulator) and over the protocol (network bots): they see a decision's kind and
options and a `Table` with what the player may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from dominion.protocol.loader import choose

choose()  # before the strategies are imported: compiled, or all from their sources

from .pace import BotPace
from .strategies import (
    STRATEGIES,
    DecisionLike,
    NoTable,
    OptionLike,
    Strategy,
    Table,
    make_strategy,
)
from .strong import Level, StrongBot

# Registered here, not in strategies.py: the strong bot builds on that module. `strong`
# plays at the default level, `strong:1` to `strong:3` at the one they name.
STRATEGIES[StrongBot.name] = lambda generator: StrongBot()


def _strong_at(level: Level) -> Callable[[Callable[[], random.Random]], Strategy]:
    return lambda generator: StrongBot(level=level)


STRATEGIES.update({f"{StrongBot.name}:{level.value}": _strong_at(level) for level in Level})

__all__ = [
    "STRATEGIES",
    "BotPace",
    "DecisionLike",
    "NoTable",
    "OptionLike",
    "Strategy",
    "Table",
    "make_strategy",
]
