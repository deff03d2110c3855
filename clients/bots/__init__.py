"""Bot strategies: pure decision logic that needs neither the engine nor the network.

The same strategies answer decisions in-process (the server's bot seats and the
simulator) and over the protocol (network bots): they see a decision's kind and
options and a `Table` with what the player may know.
"""

from __future__ import annotations

from dominion.protocol.loader import choose

choose()  # before the strategies are imported: compiled, or all from their sources

from .strategies import (
    STRATEGIES,
    DecisionLike,
    NoTable,
    OptionLike,
    Strategy,
    Table,
    make_strategy,
)
from .strong import StrongBot

# Registered here, not in strategies.py: the strong bot builds on that module.
STRATEGIES[StrongBot.name] = lambda generator: StrongBot()

__all__ = [
    "STRATEGIES",
    "DecisionLike",
    "NoTable",
    "OptionLike",
    "Strategy",
    "Table",
    "make_strategy",
]
