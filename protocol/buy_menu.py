"""A Buy decision's options read as a menu, which the engine hands out ready-made.

The engine builds one with each Buy decision's options (`Decision.menu`: built once for
each set of options a Kingdom offers, like the options themselves), so that a bot need
not read every option of every new tuple; a bot given a decision without one (decoded
from the wire) builds it from the options (bots/strategies.py). It lives in the protocol,
the one package the engine and the bots both import: it tells nothing the options do not.
"""

from __future__ import annotations


class BuyMenu:
    """What a Buy decision offers: the option playing all Treasures (None when there is
    none) and, by card, the option buying it. Read-only."""

    __slots__ = ("buys", "play_all")

    def __init__(self, buys: dict[str, int], play_all: int | None) -> None:
        self.buys = buys
        self.play_all = play_all
