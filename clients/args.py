"""Command-line arguments: bot seats, and ones that argparse would misread.

Seat tokens are URL-safe base64, which may start with `-` (the server no longer hands
such tokens out, but older ones exist): argparse takes `--token -abc...` for an option
with no value. Joined as `--token=-abc...`, it reads them as the value they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dominion.bots import STRATEGIES

from .i18n import _

TOKEN_LIKE = re.compile(r"-[A-Za-z0-9_-]{15,}")
"""A token starting with `-` (tokens are 32 characters; options are shorter words)."""


def joined_values(argv: Sequence[str], options: Iterable[str] = ("--token",)) -> list[str]:
    """`argv` with each `OPTION -value` whose value looks like a token as `OPTION=-value`."""
    taking = set(options)
    joined: list[str] = []
    pending: str | None = None
    for arg in argv:
        if pending is not None and TOKEN_LIKE.fullmatch(arg):
            joined[-1] = f"{pending}={arg}"
        else:
            joined.append(arg)
        pending = arg if arg in taking else None
    return joined


def unknown_strategy(name: str) -> str:
    """What to tell a person about a strategy name that is not one of STRATEGIES."""
    return _("unknown strategy {name}; known: {known}").format(
        name=repr(name), known=", ".join(STRATEGIES))


def bot_seats(specs: Sequence[str], seats: int) -> dict[int, str]:
    """`--bot` values (`STRATEGY` for the next free seat, or `SEAT=STRATEGY`) as the
    lobby's `bots`: seat -> strategy."""
    chosen: dict[int, str] = {}
    free = iter(range(1, seats))
    for spec in specs:
        seat_text, _equals, strategy = spec.rpartition("=")
        if seat_text and not seat_text.isdigit():
            raise ValueError(_("a bot's seat is a number: {spec}").format(spec=spec))
        seat = int(seat_text) if seat_text else next(free, seats)
        if strategy not in STRATEGIES:
            raise ValueError(unknown_strategy(strategy))
        chosen[seat] = strategy
    return chosen
