"""The README's examples as a stranger runs them: the engine snippet prints what the README
says it prints, and the curl commands work against a real server as written (the bot
demo runs in tests/clients/test_cli_commands.py). The programs it says the tests need are
those CI installs, and a test that skips says what to install."""

from __future__ import annotations

import ast
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

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


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


def answer_fields() -> list[str]:
    """The fields the paragraph before the curl commands names (`game.id`, `token`)."""
    paragraph = README.split("```sh\ncurl", 1)[0].strip().rsplit("\n\n", 1)[1]
    return re.findall(r"`([a-z_]+(?:\.[a-z_]+)*)`", paragraph)


def field_of(answer: object, path: str) -> object:
    """`answer`'s value at a dotted path, or None."""
    for key in path.split("."):
        answer = answer.get(key) if isinstance(answer, dict) else None
    return answer


def test_the_readme_names_the_create_answers_fields() -> None:
    assert {"game.id", "token"} <= set(answer_fields())


@pytest.mark.skipif(shutil.which("curl") is None,
                    reason="curl is not installed (apt-get install curl)")
@pytest.mark.integration  # a real server or socket
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
        for field in answer_fields():  # what the README says the answer holds, it holds
            assert field_of(created, field) is not None, field
        game = created["game"]["id"]  # type: ignore[index]
        assert isinstance(game, str) and isinstance(created["token"], str)
        opened = curl(listing)
        assert [g["id"] for g in opened["games"]] == [game]  # type: ignore[attr-defined]
        joined = curl(join, game)
        assert joined["seat"] == 1 and joined["game"]["state"] == "playing"  # type: ignore[index]
    finally:
        process.kill()
        process.wait()


def apt_packages(text: str) -> list[str]:
    """The packages of every `apt-get install` line of a README or a script."""
    return sorted(package for line in re.findall(r"apt-get install ([^)\n]*)", text)
                  for package in line.split() if re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", package))


def readme_test_command() -> str:
    """The README's second command: the line that installs and runs the tests."""
    (line,) = [line for block in re.findall(r"```sh\n(.*?)```", README, re.S)
               for line in block.splitlines() if "pytest" in line]
    return line


def test_the_programs_the_readme_lists_are_those_ci_installs() -> None:
    command = readme_test_command()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if command in b)
    listed = apt_packages(block)
    assert listed == ["chromium", "nginx", "nodejs", "postgresql", "prometheus", "redis-server"]
    assert apt_packages((ROOT / ".ci" / "run").read_text()) == listed
    assert apt_packages((ROOT / "CONTRIBUTING.md").read_text()) == listed


def test_ci_runs_the_readmes_test_command_step_by_step() -> None:
    steps = readme_test_command().split(" && ")
    assert steps[0].startswith("python3 -m venv")  # Debian's Python refuses pip outside one
    script = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    found = [script.index(step) for step in steps]  # ValueError: a step CI does not run
    assert found == sorted(found), "in the README's order"


def test_the_first_command_installs_in_a_virtual_environment() -> None:
    (line,) = [line for block in re.findall(r"```sh\n(.*?)```", README, re.S)
               for line in block.splitlines() if line.endswith("dominion-server")]
    assert line.split(" && ")[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"]
    # and it names what a fresh Debian or Ubuntu lacks for that, and for the compilation
    assert {"python3-venv", "python3-dev", "gcc"} <= set(apt_packages(README))


NOT_A_MISSING_PROGRAM = ("root writes through chmod", "the engine runs as pure Python here",
                         "one SQLite account store per node")
"""Skips for another reason than something to install (the start of their reason)."""


def skip_reasons() -> dict[str, str]:
    """Every skip of the suite (`pytest.skip`, `importorskip`, `mark.skipif`), where it is
    -> its reason ("" when it has none)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("skip", "importorskip", "skipif")):
                continue
            given = [keyword.value for keyword in node.keywords if keyword.arg == "reason"]
            if node.func.attr == "skip":
                given += node.args[:1]
            reason = given[0] if given else None
            text = (reason.value if isinstance(reason, ast.Constant)
                    else ast.unparse(reason) if reason is not None else "")
            found[f"{path.relative_to(ROOT)}:{node.lineno}"] = str(text)
    return found


@pytest.mark.integration  # reads every test: over the unit tier's CPU budget
def test_every_skip_says_what_to_install() -> None:
    reasons = skip_reasons()
    assert len(reasons) >= 10  # the walk finds them
    silent = {where: reason for where, reason in reasons.items()
              if "install" not in reason and not reason.startswith(NOT_A_MISSING_PROGRAM)}
    assert silent == {}, "a skip's reason says what to install (pytest -rs prints it)"
