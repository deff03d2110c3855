"""How much CPU a process has spent: the measure of a deadline for a program that has a
known amount of work to do, which a loaded machine only spreads over more wall time."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

POLL_SECONDS = 0.1


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU seconds so far (Linux's /proc); 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # after the name, which may hold spaces
    user, system = int(fields[11]), int(fields[12])  # stat(5)'s utime and stime
    return (user + system) / os.sysconf("SC_CLK_TCK")


WALL_LIMIT_S = 150.0
"""The longest wait on the wall all the same (a program stuck without spending CPU), under
the suite's 180 s a test, so that it fails as a test rather than ending the worker."""


def run(
    command: Sequence[str],
    cpu_limit: float,
    *,
    wall_limit: float = WALL_LIMIT_S,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(command, capture_output=True, text=True)` with a limit on the
    program's CPU seconds rather than the wall's: a busy machine makes it wait for a core,
    not work more. subprocess.TimeoutExpired past either limit."""
    deadline = time.monotonic() + wall_limit
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as process:
        while True:
            try:
                out, err = process.communicate(timeout=POLL_SECONDS)
            except subprocess.TimeoutExpired:
                if cpu_seconds(process.pid) < cpu_limit and time.monotonic() < deadline:
                    continue
                process.kill()
                process.communicate()
                raise
            return subprocess.CompletedProcess(command, process.returncode, out, err)
