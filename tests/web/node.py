"""Node.js for the web client's pure parts: its modules run under Node, without a browser,
and a script prints one JSON document of what they gave (tests/web/test_*_js.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "js"
"""The web client's modules."""
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="Node.js is not installed (apt-get install nodejs; .ci/run does)")


def run_node(*args: str, stdin: str | None = None, timeout: float = 60) -> Any:
    """What Node prints, as JSON, run with `args`; a failed script fails the test."""
    assert NODE is not None
    done = subprocess.run([NODE, *args], input=stdin, capture_output=True, text=True,
                          check=True, timeout=timeout)
    return json.loads(done.stdout)


def run_module(script: str, *args: str, modules: Iterable[str] = ()) -> Any:
    """`run_node` on `script` as an ES module, each `%(NAME)s` in it replaced by the URL of
    clients/web/js/NAME.js for the NAMEs in `modules` (none: the script is run as it is)."""
    names = tuple(modules)
    source = script % {name: (JS / f"{name}.js").as_uri() for name in names} if names else script
    return run_node("--input-type=module", "-e", source, *args)
