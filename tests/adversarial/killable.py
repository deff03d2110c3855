"""`dominion-server` that kills itself with SIGKILL at one write boundary, for the crash
tests: `python -m tests.adversarial.killable [server options]` with DOMINION_TEST_KILL
set to one of

- `answer-before:N`, `answer-during:N`, `answer-after:N`: at the Nth answer written
  (a player's or a bot's): before it is handed to the storage, inside its transaction
  after its rows are written and before the COMMIT, or after the COMMIT and before
  anyone hears of it;
- `finish-before`, `finish-during`, `finish-after`: the same at the first game's end.

The kill is the real thing (the process gets SIGKILL at that point); only the moment
is chosen.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from dominion.server.main import main
from dominion.server.storage import Storage
from dominion.server.storage.store import _Append, _Job


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(boundary: str) -> None:
    """Patch the storage so that the process dies at `boundary`."""
    what, _, count = boundary.partition(":")
    kind, when = what.split("-")
    target = int(count or 1)
    seen = {"calls": 0, "rows": 0}
    commit_kills = {"armed": False}
    method = "append_answers" if kind == "answer" else "finish_game"
    original = getattr(Storage, method)

    async def wrapped(self: Storage, *args: Any, **kwargs: Any) -> None:
        seen["calls"] += 1
        hit = seen["calls"] == target
        if hit and when == "before":
            die()
        await original(self, *args, **kwargs)
        if hit and when == "after":
            die()

    setattr(Storage, method, wrapped)
    if when != "during":
        return
    transaction = Storage._transaction

    def marked(self: Storage, jobs: list[_Job]) -> BaseException | None:
        # on the writer thread: is the write to die in among these?
        for job in jobs:
            if kind == "answer" and isinstance(job.operation, _Append):
                seen["rows"] += len(job.operation.rows)
                commit_kills["armed"] |= seen["rows"] >= target
            elif kind == "finish" and "finish_game" in getattr(job.operation,
                                                               "__qualname__", ""):
                commit_kills["armed"] = True
        if commit_kills["armed"]:
            commit = self._writer.commit

            def dying_commit() -> None:  # the rows are written; the COMMIT never comes
                die()
                commit()

            self._writer.commit = dying_commit  # type: ignore[method-assign]
        return transaction(self, jobs)

    Storage._transaction = marked  # type: ignore[method-assign]


def run(argv: Sequence[str]) -> int:
    arm(os.environ["DOMINION_TEST_KILL"])
    return main(argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
