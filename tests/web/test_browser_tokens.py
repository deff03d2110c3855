"""The access tokens page (#/account/tokens) in the real Chromium: a signed-in person
creates a token, sees its secret once (never again, not in the list, not after a
reload), uses it, and revokes it; then makes the account a bot account, whose seat the
lobby marks as a bot's."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import Browser, expect, new_page, page_errors, screenshot

__all__ = ["browser"]
from .browser import browser

CHEAP = ("--password-time-cost", "1", "--password-memory-kib", "64")


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    process, url = start_server(tmp_path / "games.sqlite3", *CHEAP)
    yield url
    stop(process)


def status_with(url: str, secret: str) -> int:
    request = urllib.request.Request(f"{url}/api/v1/account",
                                     headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_create_a_token_see_it_once_and_revoke_it(browser: Browser, server_url: str) -> None:
    page = new_page(browser, f"{server_url}/#/account/tokens")
    expect(page.locator("[role=alert]")).to_contain_text("Sign in")
    registered = page.evaluate("""async () => (await fetch('/api/v1/account/register', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Ada', password: 'correct horse battery'})})).status""")
    assert registered == 201
    page.reload()
    page.fill("form.create-token input[name=description]", "my laptop")
    page.check("form.create-token input[value=read]")
    page.click("form.create-token button[type=submit]")
    secret = page.locator(".new-token code.secret").inner_text()
    assert secret.startswith("dom_") and len(secret) == 47
    row = page.locator("tr[data-token]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("my laptop")
    assert secret not in page.locator(".tokens").inner_text()
    screenshot(page, "tokens")
    assert status_with(server_url, secret) == 200
    page.reload()  # shown once: gone for good
    expect(page.locator("tr[data-token]")).to_have_count(1)
    assert secret not in page.content()
    expect(page.locator("tr[data-token]")).to_contain_text("read")
    page.click("tr[data-token] button.revoke")
    expect(page.locator("tr[data-token]")).to_have_count(0)
    assert status_with(server_url, secret) == 401
    # the account becomes a bot account (once asked to confirm); its seats are marked BOT
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button.become-bot")
    expect(page.locator(".bot-account")).to_contain_text("bot account")
    expect(page.locator("form.create-token input[value=play]")).to_have_count(0)
    page.click("form.create-token button[type=submit]")  # bot:play, checked already
    bot_secret = page.locator(".new-token code.secret").inner_text()
    created = urllib.request.Request(
        f"{server_url}/api/v1/games", method="POST",
        data=json.dumps({"name": "Ada", "seats": 2}).encode(),
        headers={"Authorization": f"Bearer {bot_secret}", "Content-Type": "application/json"})
    with urllib.request.urlopen(created, timeout=10) as response:
        assert response.status == 201
    page.goto(f"{server_url}/#/")
    row = page.locator(".game-row")
    expect(row).to_contain_text("Ada BOT")
    expect(row.get_by_role("img", name="bot")).to_have_text("BOT")
    expect(row.locator("a.player")).to_have_attribute("href", "/@/Ada")
    assert page_errors(page) == []
