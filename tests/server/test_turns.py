"""Whether the event loop turned since a mark (connection.py pauses after a request only
if it did not): no clock, and one callback per turn however many connections ask."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from dominion.server.edge.transport.turns import LoopTurns


async def test_a_request_that_never_awaits_leaves_the_count_as_it_was() -> None:
    turns = LoopTurns(asyncio.get_running_loop())
    mark = turns.mark()
    sum(range(1000))  # work without a wait
    assert turns.count == mark


async def test_a_request_that_waited_has_let_the_loop_run() -> None:
    turns = LoopTurns(asyncio.get_running_loop())
    mark = turns.mark()
    await asyncio.sleep(0)  # an answer waiting for its commit, say
    assert turns.count != mark


class CountingLoop:
    """The running loop, counting the callbacks scheduled through it."""

    def __init__(self) -> None:
        self.scheduled = 0

    def call_soon(self, callback: Callable[[], None]) -> asyncio.Handle:
        self.scheduled += 1
        return asyncio.get_running_loop().call_soon(callback)


async def test_marks_in_one_turn_share_one_callback() -> None:
    loop = CountingLoop()
    turns = LoopTurns(loop)  # type: ignore[arg-type]  # what LoopTurns uses of a loop
    marks = [turns.mark() for _ in range(100)]  # a hundred connections' frames in a turn
    assert loop.scheduled == 1
    await asyncio.sleep(0)
    assert marks == [0] * 100 and turns.count == 1
    assert turns.mark() == 1 and loop.scheduled == 2  # the next turn is marked anew
    await asyncio.sleep(0)
    assert turns.count == 2
