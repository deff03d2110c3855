"""The line mode: the game as plain lines, for screen readers and pipes (`--plain`, and
whenever standard input or output is not a terminal).

Log lines are printed as they happen; when a decision is yours, your hand, the
counters and the decision with numbered options follow, then a `> ` prompt. Lines are
read from standard input; Ctrl-C and the end of the input leave as `quit` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Awaitable
from typing import Any, TextIO, TypeVar

from .board import Board, clock_line, counters, decision_lines, mine_lines, status_line

T = TypeVar("T")


class Plain:
    """A `Display` for `clients.session.Session` that prints lines."""

    keeps_result = False

    def __init__(self, board: Board, out: TextIO | None = None) -> None:
        self.board = board
        self.out = out or sys.stdout
        self.items: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._printed = 0
        self._shown: object = None
        self._waiting: str | None = None

    def _print(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def refresh(self) -> None:
        board = self.board
        if board.waiting is not None and board.waiting != self._waiting:
            self._waiting = board.waiting
            self._print(board.waiting)
        new = board.log[self._printed:]
        self._printed = len(board.log)
        self._print(*(f"  {line}" for line in new))
        decision = board.decision
        shown = decision["id"] if decision is not None else None
        if decision is not None and shown != self._shown:
            state = board.state
            clocks = clock_line(state)
            self._print("", status_line(board), *([clocks] if clocks else []),
                        *mine_lines(state, board.names),
                        counters(state), *decision_lines(board, 100))
            self._prompt()
        self._shown = shown

    def show_note(self, lines: list[str]) -> None:
        self._print(*lines)
        if self.board.decision is not None or self.board.ask:
            self._prompt()

    def set_words(self, words: list[str]) -> None:
        """No completion in line mode."""

    def _prompt(self) -> None:
        self.out.write("> ")
        self.out.flush()

    async def run(self, work: Awaitable[T]) -> T:
        """Read standard input and catch Ctrl-C while `work` runs."""
        loop = asyncio.get_running_loop()
        # A daemon thread: a read still waiting for a line never holds up the exit.
        threading.Thread(target=self._read_lines, args=(loop,), daemon=True).start()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self.items.put_nowait,
                                    ("quit", "interrupt"))
        try:
            return await work
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)

    def _read_lines(self, loop: asyncio.AbstractEventLoop) -> None:
        """Standard input's lines into `items` (in a thread)."""
        while True:
            line = sys.stdin.readline()
            item = ("line", line.rstrip("\n")) if line else ("quit", "eof")
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self.items.put_nowait, item)
            if not line:
                return


__all__ = ["Plain"]
