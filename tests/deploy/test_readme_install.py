"""The README's first command, as written, on a fresh Debian: the system's own Python
(which refuses `pip install` outside a virtual environment), from a copy of the
repository, until the server says where it listens and answers there.

tests/deploy/test_wheel.py builds as a user does on any Python, with the newest pip and
no cache; this is the README's line itself, on Debian's Python and Debian's pip.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from ..server.test_process import LISTENING
from .proxy import ROOT

DEBIAN_PYTHON = Path("/usr/bin/python3")
MANAGED = Path("/usr/lib/python3.11/EXTERNALLY-MANAGED")
"""Debian 12's mark on its Python: `pip install` outside a venv is refused."""

pytestmark = [
    pytest.mark.system,  # a build of its own and a server
    pytest.mark.timeout(900),
    pytest.mark.skipif(not MANAGED.exists(),
                       reason="not Debian 12's Python (apt-get install python3-venv "
                              "python3-dev gcc on Debian 12 runs this test)"),
]


def readme_first_command() -> str:
    (line,) = [line for block in re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(),
                                            re.S)
               for line in block.splitlines() if line.endswith("&& dominion-server")]
    return line


def test_the_readmes_first_command_works_as_written_on_debians_python(tmp_path: Path) -> None:
    checkout = tmp_path / "dominion"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):  # the repository's files, as a clone has them
        source, target = ROOT / name, checkout / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            target.write_bytes(source.read_bytes())
    # Debian's python3 first on the PATH, as on a fresh machine; no settings of ours
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DOMINION_", "PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env |= {"PATH": f"{DEBIAN_PYTHON.parent}:/bin", "DOMINION_PORT": "0"}  # where it says
    server = subprocess.Popen(["bash", "-c", readme_first_command()], cwd=checkout, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        output = b""
        deadline = time.monotonic() + 840
        assert server.stdout is not None
        while b"listening on" not in output and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break  # it ended
            output += line
        text = output.decode(errors="replace")
        said = LISTENING.search(output)
        assert said is not None, text[-3000:]
        with urllib.request.urlopen(f"http://127.0.0.1:{int(said[1])}/api/v1/server",
                                    timeout=10) as answer:
            assert "protocol_versions" in json.load(answer)
        listening = json.loads(next(line for line in text.splitlines()
                                    if "listening on" in line))
        assert listening["engine"].startswith("compiled (mypyc "), listening
        assert (checkout / "dominion.sqlite3").exists()  # its default file
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)
