"""A finished game's ranks, from the engine's result: the order the rating model reads."""

from __future__ import annotations

from collections.abc import Collection

from ..engine import Result


def ranks(result: Result, taken_over: Collection[int] = ()) -> list[int]:
    """Each seat's rank (0 first, equal ranks tie): most VP, then fewest turns, as the
    rules decide the winners; seats that resigned, or that a bot took over
    (`taken_over`), come last, tied with each other."""
    last = set(result.resigned) | set(taken_over)
    standing = {seat: (-score, turns) for seat, (score, turns)
                in enumerate(zip(result.scores, result.turns, strict=True)) if seat not in last}
    order = sorted(set(standing.values()))
    finished = len(order)
    return [order.index(standing[seat]) if seat in standing else finished
            for seat in range(len(result.scores))]
