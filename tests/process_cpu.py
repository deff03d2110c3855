"""How much CPU a process has spent: the measure of a deadline for a program that has a
known amount of work to do, which a loaded machine only spreads over more wall time."""

from __future__ import annotations

import os
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU seconds so far (Linux's /proc); 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # after the name, which may hold spaces
    user, system = int(fields[11]), int(fields[12])  # stat(5)'s utime and stime
    return (user + system) / os.sysconf("SC_CLK_TCK")
