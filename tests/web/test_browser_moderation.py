"""Moderation in the real Chromium: a player reports another from the game's page, an
admin (made on the host with `dominion-server admin grant`) reads the report on #/admin
and bans an address prefix there, and no one else sees the page or its link."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import Browser, browser, create_table, new_page, page_errors

__all__ = ["browser"]  # a fixture
PASSWORD = "correct horse battery"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db, "--password-time-cost", "1", "--password-memory-kib", "64")
    yield {"url": url, "db": db}
    stop(process)


def test_a_report_from_the_game_reaches_the_admin_page(browser: Browser,
                                                       server: dict[str, Any]) -> None:
    url = server["url"]
    bob = new_page(browser, url)
    game = create_table(bob, "Bob")  # seat 1: a bot
    bob.wait_for_selector("details.report")
    bob.click("details.report summary")
    bob.select_option("details.report select[name=reason]", "stalling")
    bob.fill("details.report textarea[name=text]", "takes forever")
    bob.click("details.report button[type=submit]")
    bob.wait_for_selector("details.report .report-status:has-text('Thank you')")
    # Bob is no admin: no link, and the page says so
    bob.goto(f"{url}/#/admin")
    bob.wait_for_selector("text=Only the server's admins see this page.")
    assert bob.locator("#admin-link").count() == 0
    ada = new_page(browser, url)
    registered = ada.request.post(f"{url}/api/v1/account/register",
                                  data={"name": "Ada", "password": PASSWORD})
    assert registered.status == 201
    granted = subprocess.run([sys.executable, "-m", "dominion.server.main", "admin", "grant",
                              "Ada", "--db", str(server["db"])],
                             capture_output=True, text=True, timeout=60, check=False)
    assert granted.returncode == 0, granted.stderr
    ada.reload()
    ada.wait_for_selector("header #admin-link")
    ada.click("header #admin-link")
    ada.wait_for_selector(f"ul.reports li:has-text('Bob') >> a[href='#/watch/{game}']")
    assert "takes forever" in ada.locator("ul.reports").inner_text()
    ada.fill("input[aria-label='Ban an address prefix: prefix']", "198.51.100.0/24")
    ada.fill("input[aria-label='Ban an address prefix: reason']", "a flood")
    ada.click("form.admin-form:has(h2:text('Ban an address prefix')) button[type=submit]")
    ada.wait_for_selector("ul.sanctions li:has-text('198.51.100.0/24')")
    assert "ban_address prefix 198.51.100.0/24" in ada.locator("ol.audit").inner_text()
    assert "grant_admin account Ada" in ada.locator("ol.audit").inner_text()
    assert page_errors(bob) == [] and page_errors(ada) == []
