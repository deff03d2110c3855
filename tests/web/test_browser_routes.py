"""The route table in the real Chromium: a first visit to the lobby loads the lobby's
code and not the other pages' (each page's module is loaded when it is first shown), a
page's module loads when its address is followed, and an address followed while the
last one's code was still loading wins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import Browser, browser, new_page, page_errors

__all__ = ["browser"]  # a fixture
OTHER_PAGES = ("game.js", "replay.js", "account.js", "tokens.js", "admin.js", "profile.js",
               "leaderboard.js")
"""Modules of pages other than the lobby."""


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    process, address = start_server(tmp_path / "games.sqlite3")
    yield address
    stop(process)


def test_a_page_loads_its_own_code_when_first_shown(browser: Browser, url: str) -> None:
    page = new_page(browser, "about:blank")
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url.rsplit("/", 1)[-1]))
    page.goto(f"{url}/#/")
    page.wait_for_selector("form.create")
    page.wait_for_load_state("networkidle")
    assert "lobby.js" in loaded
    assert not set(OTHER_PAGES) & set(loaded), loaded
    page.evaluate("location.hash = '#/top'")
    expect(page.locator("section.leaderboard h2")).to_contain_text("2 players")
    assert "leaderboard.js" in loaded
    assert not page_errors(page)


def test_the_address_followed_last_wins(browser: Browser, url: str) -> None:
    page = new_page(browser, f"{url}/#/")
    page.wait_for_selector("form.create")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    # the leaderboard's code is not loaded yet, the lobby's is: the lobby is made again
    # first, and the leaderboard's page, made late, must not replace it
    with page.expect_response(lambda response: response.url.endswith("/leaderboard.js")):
        page.evaluate("location.hash = '#/top'; setTimeout(() => { location.hash = '#/'; })")
    # a round trip after the module came: a page made from it would have asked for its
    # leaderboard by then
    assert page.evaluate("fetch('/api/v1/server').then((answer) => answer.ok)")
    assert not [address for address in asked if "/api/v1/ratings/" in address], asked
    expect(page.locator("form.create")).to_be_visible()
    expect(page.locator("section.leaderboard")).to_have_count(0)
    assert not page_errors(page)
