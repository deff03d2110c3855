"""The README's examples as a stranger runs them: the engine snippet prints what the README
says it prints, and the curl commands work against a real server as written (the bot
demo runs in tests/clients/test_cli_commands.py)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.test_process import start_server

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_engine_snippet_prints_what_the_readme_shows() -> None:
    found = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", README, re.S)
    assert found, "the engine snippet and its output"
    code, shown = found.groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
    assert "<" not in shown  # no reprs of enums or objects


def curl_commands() -> list[list[str]]:
    """The README's curl commands, split as a POSIX shell would."""
    block = next(b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if "curl" in b)
    commands = block.replace("\\\n", " ").strip().splitlines()
    return [shlex.split(command) for command in commands]


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_curl_examples_work_as_written(tmp_path: Path) -> None:
    create, join, listing = curl_commands()
    process, url = start_server(tmp_path / "games.sqlite3")
    try:
        def curl(command: list[str], game: str = "") -> dict[str, object]:
            args = [part.replace("http://127.0.0.1:8080", url).replace("GAME", game)
                    for part in command]
            done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=True)
            body: dict[str, object] = json.loads(done.stdout)
            return body

        created = curl(create)
        game = created["game"]["id"]  # type: ignore[index]
        assert isinstance(game, str) and isinstance(created["token"], str)
        opened = curl(listing)
        assert [g["id"] for g in opened["games"]] == [game]  # type: ignore[attr-defined]
        joined = curl(join, game)
        assert joined["seat"] == 1 and joined["game"]["state"] == "playing"  # type: ignore[index]
    finally:
        process.kill()
        process.wait()
