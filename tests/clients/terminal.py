"""A program in a pseudo-terminal of a chosen size, its screen kept by a terminal
emulator (pyte), so that a test reads what a person would see."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pyte

WAIT = 30.0
"""How long a wait may take before the test fails (never a measure of speed)."""


class Terminal:
    """`dominion ARGS` in a ROWS×COLUMNS pseudo-terminal with TERM=xterm-256color."""

    def __init__(self, config: Path, *args: str, rows: int = 24, columns: int = 80,
                 env: dict[str, str] | None = None) -> None:
        self.rows, self.columns = rows, columns
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("DOMINION_", "LC_"))}
        environment.update({"DOMINION_CONFIG_DIR": str(config), "TERM": "xterm-256color",
                            "LANG": "C.UTF-8", **(env or {})})
        self.child: Any = pexpect.spawn(sys.executable, ["-m", "dominion.clients.cli", *args],
                                        env=environment, dimensions=(rows, columns))
        # answer the terminal's reports (cursor position) as a real terminal would
        self.screen.write_process_input = lambda data: self.child.send(data.encode())

    def pump(self, seconds: float = 0.05) -> bool:
        """Read what the program wrote within `seconds`; False once it has exited."""
        try:
            data = self.child.read_nonblocking(65536, timeout=seconds)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.output += data
        self.stream.feed(data)
        return True

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait(self, ready: Callable[[str], bool] | str, settle: float = 0.2) -> str:
        """The screen once `ready` holds for it and nothing changed for `settle` seconds."""
        check = (lambda text: ready in text) if isinstance(ready, str) else ready
        deadline = time.monotonic() + WAIT
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            alive = self.pump()
            text = self.text()
            if text != last:
                last, since = text, time.monotonic()
            elif check(text) and time.monotonic() - since >= settle:
                return text
            if not alive:
                if check(text):
                    return text
                break
        raise AssertionError(f"the screen never became ready:\n{self.text()}")

    def type(self, line: str) -> None:
        self.child.send(line.encode() + b"\r")

    def exit_code(self) -> int:
        while self.pump():
            pass
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


__all__ = ["Terminal"]
