"""Command-line arguments: bot seats, and ones that argparse would misread.

Seat tokens are URL-safe base64, which may start with `-` (the server no longer hands
such tokens out, but older ones exist): argparse takes `--token -abc...` for an option
with no value. Joined as `--token=-abc...`, it reads them as the value they are.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterable, Sequence

from dominion.bots import STRATEGIES

from .i18n import N_, _

TOKEN_LIKE = re.compile(r"-[A-Za-z0-9_-]{15,}")
"""A token starting with `-` (tokens are 32 characters; options are shorter words)."""


RECOMMENDED_KINGDOMS = (
    N_("First Game"), N_("Size Distortion"), N_("Deck Top"), N_("Sleight of Hand"),
    N_("Improvements"), N_("Silver & Gold"), N_("Big Money"), N_("Interaction"),
    N_("Village Square"),
)
"""The recommended Kingdoms of both editions by the names the server knows them by
(docs/RULES.md); the catalogue has their Polish names, the rulebook's."""


def kingdom_help() -> str:
    names = ", ".join(_(name) for name in RECOMMENDED_KINGDOMS)
    return _("a recommended set's name ({names}), or 10 card ids separated by commas "
             "(default: random)").format(names=names)


def kingdom_arg(text: str | None) -> str | list[str] | None:
    """`--kingdom` as the server takes it: 10 card ids, or a recommended set's name, given
    in the person's language or the server's (None: a random Kingdom)."""
    if text and "," in text:
        return [card.strip() for card in text.split(",")]
    wanted = (text or "").strip().casefold()
    for name in RECOMMENDED_KINGDOMS:
        if _(name).casefold() == wanted:
            return name
    return text


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


DEFAULT_CLOCK = object()
"""`--clock` not given: the server's default clock for the table."""


def clock_arg(text: str) -> dict[str, int] | None:
    """`--clock 10+5` (minutes each + seconds added when your turn ends; minutes may be
    a fraction, "0.5+0"), or `--clock none`: the `time_control` of a create request (the
    server checks its bounds)."""
    if text.strip().lower() == "none":
        return None
    minutes, plus, increment = text.partition("+")
    try:
        if not plus:
            raise ValueError(text)
        return {"initial_seconds": round(float(minutes) * 60),
                "increment_seconds": int(increment)}
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a clock is minutes+seconds, like 10+5, or none")) from None


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


def jobs_arg(text: str) -> int:
    """`--jobs`: a count of processes, 0 for one a core."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(_("a number of processes, 0 or more"))
    return jobs or os.cpu_count() or 1
