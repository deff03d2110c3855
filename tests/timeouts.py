"""A test past its time says where it stood before pytest-timeout ends its process.

pytest-timeout's thread writes the stacks to pytest's terminal, and ends the process.
In an xdist worker that terminal is /dev/null (execnet keeps the worker's stdout for its
own messages), so a worker that ended this way said only "crashed while running": the
stacks never reached CI. An asyncio test is also not told by its threads' stacks: the
main thread waits in `select` whatever it waits for. This timer writes to standard error,
which workers share with the run, and adds every pending asyncio task's await chain.
"""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import os
import sys
import threading
from typing import Any, TextIO

import pytest

TAIL_CHARACTERS = 4000
"""How much of the test's captured output the dump repeats (its last characters)."""


def pending_tasks() -> list[asyncio.Task[Any]]:
    """Every asyncio task not yet done, in any loop (read from another thread: for a
    report, where a task ending as we read is harmless)."""
    return [found for found in gc.get_objects()
            if isinstance(found, asyncio.Task) and not found.done()]


def suspend_capture(item: pytest.Item) -> dict[str, str]:
    """Stop capturing the test's output; what it had captured, by stream."""
    capture = item.config.pluginmanager.getplugin("capturemanager")
    if capture is None:
        return {}
    capture.suspend_global_capture(item)
    out, err = capture.read_global_capture()
    return {"stdout": out, "stderr": err}


def write_where_it_stood(item: pytest.Item, seconds: float, captured: dict[str, str],
                         out: TextIO) -> None:
    """The test, its captured output's and log's tails, every thread's stack and every
    pending task's await chain."""
    rule = "+" * 30
    out.write(f"\n{rule} Timeout: {item.nodeid} after {seconds:g} s {rule}\n")
    for name, text in captured.items():
        if text:
            out.write(f"--- captured {name} (its end) ---\n{text[-TAIL_CHARACTERS:]}\n")
    logging = item.config.pluginmanager.get_plugin("logging-plugin")
    handler = getattr(logging, "report_handler", None)  # the log a report would show
    if handler is not None and (text := handler.stream.getvalue()):
        out.write(f"--- captured log (its end) ---\n{text[-TAIL_CHARACTERS:]}\n")
    out.flush()
    faulthandler.dump_traceback(file=out, all_threads=True)
    tasks = pending_tasks()
    out.write(f"--- {len(tasks)} pending asyncio tasks ---\n")
    for task in tasks:
        task.print_stack(file=out)
    out.write(f"{rule} Timeout: the worker ends {rule}\n")
    out.flush()


def end_past_time(item: pytest.Item, seconds: float) -> None:
    """In the timer's thread: say where the test stood, then end the process, as
    pytest-timeout's thread does (a test waiting in a loop of its own cannot be
    interrupted)."""
    try:
        captured = suspend_capture(item)  # standard error is the run's again
        write_where_it_stood(item, seconds, captured, sys.stderr)
    finally:
        os._exit(1)


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    """pytest-timeout's thread method, with the dump above (its cancel hook calls
    `item.cancel_timeout`, which this sets as it does)."""
    if settings.method != "thread":
        return None
    timer = threading.Timer(settings.timeout, end_past_time, (item, settings.timeout))
    timer.name = f"timeout {item.nodeid}"
    timer.daemon = True

    def cancel() -> None:
        timer.cancel()
        timer.join()

    item.cancel_timeout = cancel  # type: ignore[attr-defined]  # pytest-timeout's name
    timer.start()
    return True
