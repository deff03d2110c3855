"""How tests/test_bench*.py run a bench: a short run of it, its `--json` report read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench"

RUN_BOUND_S = 600
"""A bound for a stuck run, not a figure: on a loaded 2-core machine the abuse bench's
tenth takes minutes (25 s when the machine is quiet)."""


def run_json(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, *args, "--json"], capture_output=True, text=True,
                          timeout=RUN_BOUND_S, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result
