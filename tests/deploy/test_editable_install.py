"""`pip install -e '.[dev]'`, the README's test command (and .ci/run's): the engine is
compiled in place, in pip's isolated build, a C file a module; and a pure-Python install
asked for afterwards removes the compiled modules and says why. Besides, the newest pip
builds a wheel in isolation (pip's drift: test_wheel.py builds with Debian's pip).

The suite runs from that install, so the compiled half checks the suite's own install
rather than compiling the engine once more (test_wheel.py compiles it once, as a new
user does: the README's command); the pure-Python installs, which compile nothing, install
copies of the sources into one fresh environment with the newest pip
(tests/deploy/user_build.py), which fetches the dependencies once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib.metadata import distributions
from pathlib import Path

import pytest

from dominion.protocol.loader import (
    PURE_PYTHON_ENV,
    STAMP,
    built_hash,
    compiled_sources,
    module_name,
    source_hash,
)

from .proxy import ROOT
from .user_build import (
    assert_says_compiled,
    clean_env,
    copy_sources,
    fresh_venv,
    pip,
    run,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]  # installs
PURE_ON_PURPOSE = f"{PURE_PYTHON_ENV} was set when it was built"
PACKAGE_FOLDERS = ("server", "protocol", "bots", "clients")


def suites_install_is_editable() -> bool:
    """Whether the suite's `dominion-server` is an editable install of this checkout (the
    installed one: the checkout's own dominion_server.egg-info, found first from the
    checkout, records no install)."""
    for found in distributions(name="dominion-server"):
        installed = found.read_text("direct_url.json")
        if installed is not None:
            where = json.loads(installed)
            return (bool(where.get("dir_info", {}).get("editable"))
                    and where.get("url") == ROOT.as_uri())
    return False


def test_the_suites_editable_install_compiled_the_engine_in_place(tmp_path: Path) -> None:
    if not suites_install_is_editable():
        pytest.skip("the suite does not run from `pip install -e .` of this checkout")
    recorded = json.loads((ROOT / STAMP).read_text())  # none: the build did not finish
    if recorded.get("pure") == PURE_ON_PURPOSE:
        pytest.skip(f"the suite's install is pure Python on purpose ({PURE_ON_PURPOSE})")
    if built_hash(ROOT) not in (None, source_hash(ROOT)):
        pytest.skip("the compiled modules are older than their sources: `pip install -e .`")
    where = subprocess.run([sys.executable, "-c", "import dominion.server.engine.game as g; "
                            "print(g.__file__)"], cwd=tmp_path, env=clean_env(),
                           capture_output=True, text=True, timeout=120, check=False)
    assert where.stdout.startswith(f"{ROOT}/server/engine/game.cpython"), where
    assert_says_compiled(Path(sys.executable).parent, tmp_path)
    # a C file a module, which the build compiles side by side (setup.py, `multi_file`)
    written = {path.name for path in (ROOT / "build" / "mypyc").glob("__native_*.c")}
    expected = {f"__native_{module_name(source).replace('.', '___')}.c"
                for source in compiled_sources(ROOT)}
    assert expected - written == set()


@pytest.fixture(scope="module")
def newest_pip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the newest pip, for the module's pure-Python installs:
    the first installs the dependencies from the package index, the second finds them
    there."""
    return fresh_venv(tmp_path_factory.mktemp("newest-pip") / "venv")


def test_a_pure_python_editable_install_removes_the_compiled_modules(
        newest_pip: Path, tmp_path: Path) -> None:
    checkout = copy_sources(tmp_path / "checkout")
    # what an earlier compiled install left in place: the suite's own, when it has one
    compiled = [path for folder in PACKAGE_FOLDERS for path in (ROOT / folder).rglob("*.so")]
    for path in compiled:
        shutil.copy2(path, checkout / path.relative_to(ROOT))
    if compiled:
        shutil.copy2(ROOT / STAMP, checkout / STAMP)
    pip(newest_pip, "install", "--editable", str(checkout), cwd=tmp_path,
        **{PURE_PYTHON_ENV: "1"})
    said = run(newest_pip, "dominion-server", "--version", cwd=tmp_path).stdout.splitlines()
    assert said[1] == f"engine: pure Python ({PURE_ON_PURPOSE})"
    assert [path for folder in PACKAGE_FOLDERS for path in (checkout / folder).rglob("*.so")] \
        == []
    assert json.loads((checkout / STAMP).read_text()) == {"pure": PURE_ON_PURPOSE}


def test_the_newest_pip_builds_it_in_isolation_from_the_dockerfiles_files(
        newest_pip: Path, tmp_path: Path) -> None:
    """pip's drift, which a warm machine hides (on Debian, test_wheel.py's compiled
    build is Debian's pip's): the newest pip builds a wheel from the pinned build
    requirements in its isolated build, and installs it in place of the editable install
    (whose dependencies it finds there). Pure Python, so that the suite compiles the
    engine once."""
    source = copy_sources(tmp_path / "src")
    pip(newest_pip, "install", str(source), cwd=tmp_path, **{PURE_PYTHON_ENV: "1"})
    where = run(newest_pip, "python", "-c", "import dominion.server as s; print(s.__file__)",
                cwd=tmp_path)
    assert where.stdout.startswith(str(newest_pip.parent)), where  # the wheel, not a checkout
    said = run(newest_pip, "dominion-server", "--version", cwd=tmp_path)
    assert said.returncode == 0, said.stderr
    assert f"engine: pure Python ({PURE_ON_PURPOSE})" in said.stdout
