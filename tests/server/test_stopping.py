"""Stopping background tasks (server/stopping.py): a task that lost a cancellation, as
Python 3.11's `wait_for` loses one, is cancelled again until it ends; an error a task
had ended with is logged, and the stop goes on; a task never started is passed over."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from dominion.server.stopping import stop_tasks


async def test_a_task_that_lost_its_cancellation_is_cancelled_again() -> None:
    turns = 0

    async def loop() -> None:
        nonlocal turns
        while True:
            turns += 1
            with contextlib.suppress(asyncio.CancelledError):  # lost at every turn's end
                await asyncio.sleep(0.01)
            await asyncio.sleep(3600)  # the next turn's wait

    task = asyncio.ensure_future(loop())
    await asyncio.sleep(0)
    stopping = asyncio.ensure_future(stop_tasks([task, None]))
    done, _ = await asyncio.wait({stopping}, timeout=20)
    assert stopping in done and task.cancelled() and turns == 1


async def test_an_error_a_task_had_ended_with_is_logged(caplog: pytest.LogCaptureFixture
                                                        ) -> None:
    async def failing() -> None:
        raise OSError("disk full")

    failed, waiting = asyncio.ensure_future(failing()), asyncio.ensure_future(asyncio.sleep(60))
    await asyncio.sleep(0)
    await stop_tasks([failed, waiting])
    assert waiting.cancelled()
    [record] = [record for record in caplog.records if record.exc_info]
    assert record.getMessage() == "a background task had failed"
    assert isinstance(record.exc_info[1], OSError)  # type: ignore[index]
