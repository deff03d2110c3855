"""A person's way to a rating in the web client: register, create a rated table against
an in-server bot from the lobby, resign (a resigner is ranked last, so the game ends at
once and counts), and wait until the ratings' outbox has applied it."""

from __future__ import annotations

import time

from .browser import WAIT_MS, Page, expect

PASSWORD = "correct horse battery"
POLL_MS = 100
"""How often a page is loaded again while waiting for the ledger (a poll, not a guess)."""


def register(page: Page, url: str, name: str) -> None:
    page.goto(f"{url}/#/register")
    page.wait_for_selector('.account-form[aria-label="Register"]')
    page.fill(".account-form input[name=name]", name)
    page.fill(".account-form input[name=password]", PASSWORD)
    page.click(".account-form button[type=submit]")
    page.wait_for_url("**/#/")  # registered: back to the lobby
    expect(page.locator("#account")).to_have_text(f"Signed in as {name}")


def lose_a_rated_game(page: Page, url: str, bot: str = "big_money") -> str:
    """From the lobby: a rated 2-player table against `bot`, resigned; its id."""
    page.goto(f"{url}/#/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=kingdom]", "First Game")
    page.select_option("form.create select[name=seat-1]", bot)
    page.check("form.create input[name=rated]")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/#/game/*")
    page.click('[data-key="resign"]')
    page.click('[data-key="resign-sure"]')
    page.wait_for_selector("#end")
    return page.url.rsplit("/", 1)[1]


def load_until(page: Page, address: str, drawn: str, wanted: str) -> None:
    """Open `address` again and again (once `drawn` shows the page has drawn) until it
    shows `wanted`: the ledger applies a game in its own time."""
    deadline = time.monotonic() + WAIT_MS / 1000
    page.goto(address)
    while True:
        page.wait_for_selector(drawn)
        if page.locator(wanted).count():
            return
        assert time.monotonic() < deadline, f"{address} never showed {wanted}"
        page.wait_for_timeout(POLL_MS)
        page.reload()


__all__ = ["PASSWORD", "load_until", "lose_a_rated_game", "register"]
