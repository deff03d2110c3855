"""The web client ships inside the package: a server installed from the wheel (not from
this checkout) serves the page at / and its scripts, with their caching headers and CSP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.clients.serverproc import stop
from tests.server.test_process import free_port

ROOT = Path(__file__).resolve().parents[2]


def check_page_and_a_script(url: str) -> None:
    """What a browser fetches first from a server: the page, then a script it names.
    (Call it from any test that has a server running, e.g. one installed from a wheel.)"""
    with urllib.request.urlopen(f"{url}/") as page:
        html = page.read().decode()
        assert page.headers["Content-Type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert page.headers["Cache-Control"] == "no-cache"
    script = re.search(r'<script type="module" src="([^"]+)"', html)
    assert script, html
    with urllib.request.urlopen(f"{url}{script.group(1)}") as main:
        assert main.headers["Content-Type"].startswith("text/javascript")
        assert "immutable" in main.headers["Cache-Control"]
        assert b"import" in main.read()


def test_a_wheel_installed_server_serves_the_page_and_its_scripts(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(tmp_path / "wheel"), str(ROOT)], check=True, timeout=300)
    (wheel,) = (tmp_path / "wheel").glob("dominion_server-*.whl")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True, timeout=300)
    # the wheel's copy comes first on the path, ahead of this checkout's editable install
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run(
        [sys.executable, "-c", "import dominion.clients as c; print(c.__file__)"], env=env,
        cwd=tmp_path, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(target)), where.stdout
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "dominion.server.main", "--port", str(port), "--db",
         str(tmp_path / "games.sqlite3")], env=env, cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(url)
        check_page_and_a_script(url)
    finally:
        stop(process)


def wait_for(url: str) -> None:
    for _ in range(400):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the server did not start")
