"""Settings that say one thing in the code, `--help` and the documents."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominion.bots import BotPace
from dominion.protocol.loader import PURE_PYTHON_ENV, describe
from dominion.server.engine import ENGINE
from dominion.server.settings import Settings
from dominion.server.version import package_version

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("proxies", [("127.0.0.1",), ("10.0.0.0/8", "::1"),
                                     ("192.168.1.7/24", "2001:db8::/32")])
def test_trusted_proxies_are_addresses_or_networks(proxies: tuple[str, ...]) -> None:
    assert Settings(trusted_proxies=proxies).problem() is None


@pytest.mark.parametrize("proxy", ["nginx", "10.0.0.0/33", "10.0.0.300", "*"])
def test_a_trusted_proxy_that_is_neither_is_refused(proxy: str) -> None:
    problem = Settings(trusted_proxies=("127.0.0.1", proxy)).problem()
    assert problem is not None and "--trusted-proxies" in problem and repr(proxy) in problem


@pytest.mark.integration  # a real server or socket
def test_help_and_both_documents_say_trusted_proxies_may_be_networks() -> None:
    shown = subprocess.run([sys.executable, "-m", "dominion.server.main", "--help"],
                           capture_output=True, text=True, check=True).stdout
    helped = " ".join(shown[shown.rindex("--trusted-proxies"):].split()[:12])
    assert "addresses or networks (10.0.0.0/8)" in helped
    server = next(line for line in (DOCS / "SERVER.md").read_text().splitlines()
                  if line.startswith("| `trusted_proxies`"))
    assert "addresses or networks (`10.0.0.0/8`)" in server
    hosting = (DOCS / "HOSTING.md").read_text()
    paragraph = hosting[hosting.index("### The client's address"):hosting.index("## Path A")]
    assert "network (`10.0.0.0/8`" in paragraph and "not networks" not in paragraph


def test_the_bots_pace_is_normal_unless_the_host_chooses_another(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert Settings.from_sources([], environ={}).bot_pace == BotPace.NORMAL
    assert Settings.from_sources([], environ={"DOMINION_BOT_PACE": "fast"}).bot_pace \
        == BotPace.FAST
    assert Settings.from_sources(["--bot-pace", "SLOW"], environ={}).bot_pace == BotPace.SLOW
    with pytest.raises(SystemExit):
        Settings.from_sources(["--bot-pace", "glacial"], environ={})
    assert "(one of instant, fast, normal, slow)" in capsys.readouterr().err


@pytest.mark.integration  # a real server or socket
def test_a_log_format_that_is_not_one_is_refused_with_the_choices() -> None:
    result = subprocess.run([sys.executable, "-m", "dominion.server.main", "--log-format",
                             "loud"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "--log-format: cannot read 'loud' (one of auto, text, json)" in result.stderr



@pytest.mark.integration  # a real server or socket
def test_version_prints_the_version_and_which_engine_runs_and_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        Settings.from_sources(["--version"], environ={})
    assert stopped.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"dominion-server {package_version()}"
    assert lines[1] == f"engine: {describe()}"
    assert describe().startswith(f"{ENGINE.value.split(' (')[0]} (")  # and why
    pure = subprocess.run([sys.executable, "-m", "dominion.server.main", "--version"],
                          env={**os.environ, PURE_PYTHON_ENV: "1"}, capture_output=True,
                          text=True, check=True, timeout=60)
    assert f"engine: pure Python ({PURE_PYTHON_ENV} is set)\n" in pure.stdout


def test_the_open_tables_lapse_time_is_half_an_hour_never_or_refused() -> None:
    assert Settings().open_table_seconds == 1800
    assert Settings.from_sources([], {"DOMINION_OPEN_TABLE_SECONDS": "0"}).open_table_seconds == 0
    problem = Settings(open_table_seconds=-1).problem()
    assert problem is not None and "--open-table-seconds" in problem
