"""`pip install -e .`, as .ci/run does it (its extras add no build step), as a new user
runs it (tests/deploy/user_build.py): the engine is compiled in place, and a pure-Python
install asked for afterwards removes it. A file of its own, beside test_wheel.py: each
compiles the engine, and two workers compile at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominion.protocol.loader import PURE_PYTHON_ENV, compiled_sources

from .user_build import (
    assert_says_compiled,
    copy_sources,
    fresh_venv,
    needs_a_c_compiler,
    pip,
    run,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]  # builds and installs


def test_the_editable_install_compiles_the_engine(tmp_path: Path) -> None:
    needs_a_c_compiler()
    bin_dir = fresh_venv(tmp_path / "venv")
    checkout = copy_sources(tmp_path / "checkout")
    pip(bin_dir, "install", "--editable", str(checkout), cwd=tmp_path)
    where = run(bin_dir, "python", "-c", "import dominion.server.engine.game as g; "
                "print(g.__file__)", cwd=tmp_path)
    assert where.stdout.startswith(f"{checkout}/server/engine/game.cpython"), where
    assert_says_compiled(bin_dir, tmp_path)
    # a C file a module, which the build compiles side by side (setup.py, `multi_file`)
    written = {path.name for path in (checkout / "build" / "mypyc").glob("__native_*.c")}
    assert len(written) == len(compiled_sources(checkout)), written
    # and pure Python, asked for: the compiled modules go, and it says why
    pip(bin_dir, "install", "--no-deps", "--editable", str(checkout), cwd=tmp_path,
        **{PURE_PYTHON_ENV: "1"})
    said = run(bin_dir, "dominion-server", "--version", cwd=tmp_path).stdout.splitlines()
    assert said[1] == f"engine: pure Python ({PURE_PYTHON_ENV} was set when it was built)"
    assert not list((checkout / "server" / "engine").glob("game.cpython*"))
