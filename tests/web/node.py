"""Node.js for the web client's pure parts: its modules run under Node, without a browser,
and a script prints one JSON document of what they gave (tests/web/test_*_js.py). Also the
npm packages some tests run under Node (`npm_folder`), as a JavaScript client would."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "js"
"""The web client's modules."""
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="Node.js is not installed (apt-get install nodejs; .ci/run does)")
NPM_PACKAGES = Path(__file__).with_name("npm")
"""package.json and its package-lock.json: the npm packages the tests use, pinned."""
NPM = shutil.which("npm")
needs_npm = pytest.mark.skipif(
    NODE is None or NPM is None,
    reason="Node.js and npm are not installed (apt-get install nodejs npm)")


def npm_folder(cache: pytest.Cache) -> Path:
    """A folder whose node_modules holds exactly the locked packages: installed once per
    lockfile by `npm ci` (from the npm registry, no install scripts run) into pytest's
    cache, never into the repository. A half-finished install is never used: it is made
    aside and moved into place whole."""
    assert NPM is not None
    lock = (NPM_PACKAGES / "package-lock.json").read_bytes()
    installs = cache.mkdir("npm")
    folder = installs / hashlib.sha256(lock).hexdigest()[:16]
    if folder.is_dir():
        return folder
    staging = Path(tempfile.mkdtemp(dir=installs))
    for name in ("package.json", "package-lock.json"):
        shutil.copy(NPM_PACKAGES / name, staging / name)
    done = subprocess.run([NPM, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                          cwd=staging, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        pytest.fail(f"npm ci failed (is the npm registry reachable?): {done.stderr[-2000:]}")
    try:
        staging.rename(folder)
    except OSError:  # another worker moved its own copy there first
        shutil.rmtree(staging, ignore_errors=True)
    return folder


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
