"""The statistics page (/stats) in the real Chromium against a real server whose dumps
folder holds a dump of games played by the bots (`dominion-server fill`, then `dump`):
real per-card figures with their intervals, the charts drawn by the vendored uPlot, the
downloads with their checksums; axe-core clean and no sideways scrolling at 390 px; its
words in Polish too (docs/STATISTICS.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import WAIT_MS, Browser, browser, expect, new_page, page_errors
from .measures import axe_violations, horizontal_overflow, wider_than_the_page

__all__ = ["browser"]  # a fixture
pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")
SHARE = re.compile(r"^\d+\.\d % \(\d+\.\d–\d+\.\d %\)$")
"""A rate as the page writes it, with its 95 % interval."""
POLL_SECONDS = 0.05


def server(arguments: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "dominion.server.main", *arguments], check=True,
                   capture_output=True)


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module's tests, which only read it."""
    folder = tmp_path_factory.mktemp("stats")
    db, dumps = folder / "games.sqlite3", folder / "dumps"
    dumps.mkdir()
    month = datetime.now(UTC).strftime("%Y-%m")
    # in processes of their own: the browser's loop runs in this thread
    server(["fill", "--db", str(db), "--games", "40", "--seed", "5"])
    server(["dump", "--db", str(db), "--period", month, "--out", str(dumps)])
    process, address = start_server(db, "--dumps", str(dumps))
    read_by(address, month)
    yield address
    stop(process)


def read_by(address: str, period: str) -> None:
    """Wait until the server has read the dump of `period`: it listens before its first
    read of the dumps is done (a task of its own), and a page loaded before then rightly
    says "No statistics yet" (a busy machine's test saw it, and waited for figures that
    the page, loaded once, never asks for again)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        with urllib.request.urlopen(f"{address}/api/v1/stats/cards?who=bots") as answer:
            if period in json.load(answer)["periods"]:
                return
        assert time.monotonic() < deadline, f"the server never read the dump of {period}"
        time.sleep(POLL_SECONDS)


def test_the_statistics_page_shows_real_figures_with_intervals(browser: Browser,
                                                               url: str) -> None:
    page = new_page(browser, f"{url}/stats", size=(390, 844))
    expect(page.locator("h2").first).to_have_text("Card statistics")
    expect(page.locator(".stats-page [role=status]")).to_contain_text(
        f"Dumps counted: {datetime.now(UTC):%Y-%m}")
    expect(page.locator("table.stats tr[data-card]")).to_have_count(0)  # no person played
    page.select_option("select[name=who]", "bots")  # the filler's games are the bots'
    rows = page.locator("table.stats tr[data-card]")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 10  # every Kingdom card of the games' Kingdoms
    shares = rows.first.locator("td").all_inner_texts()[1:]
    assert any(SHARE.match(text) for text in shares), shares
    expect(page.locator(".stats-figure .uplot")).to_have_count(2)  # the two charts
    files = page.locator(".stats-dumps a[download]")
    expect(files).to_have_count(4)
    assert page.locator(".stats-dumps code.sha").first.inner_text().isalnum()
    response = page.request.get(f"{url}{files.first.get_attribute('href')}")
    assert response.ok and len(response.body()) > 0
    assert axe_violations(page) == []
    assert horizontal_overflow(page, 390) == 0, wider_than_the_page(page)
    page.select_option("select[name=players]", "3")  # none: the filler sat two
    expect(page.locator("table.stats tr[data-card]")).to_have_count(0)
    assert not page_errors(page)
    page.context.close()


def test_the_page_speaks_polish(browser: Browser, url: str) -> None:
    page = new_page(browser, f"{url}/stats", locale="pl-PL")
    expect(page.locator("h2").first).to_have_text("Statystyki kart")
    expect(page.locator("#dumps-heading")).to_have_text("Do pobrania")
    page.context.close()
