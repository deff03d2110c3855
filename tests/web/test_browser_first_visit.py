"""A first visit, in Debian's Chromium: a fresh profile's lobby already holds a name (a
guest's, made for them, in the page's language, kept for the next visit), so the first
screen's "Play a bot" starts a game in one tap, on a phone and a laptop, in each language."""

from __future__ import annotations

import re

import pytest

from .browser import Browser, browser, expect, new_page, page_errors, server_url

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium

SIZES = [(390, 844), (1280, 800)]
GUEST = {"en-GB": "Guest", "pl-PL": "Gość", "sk-SK": "Hosť", "lt-LT": "Svečias"}


@pytest.mark.parametrize("locale", list(GUEST))
def test_a_first_visit_starts_a_bot_game_in_one_tap(
    browser: Browser, server_url: str, locale: str
) -> None:
    for size in SIZES:
        page = new_page(browser, server_url, locale=locale, size=size)
        name = page.locator("form.create input[name=name]")
        expect(name).to_have_value(re.compile(rf"^{GUEST[locale]} \d{{4}}$"))
        given = name.input_value()
        button = page.locator('form.create [data-quick="bot"]')
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size[1], "below the screen"
        button.click()
        page.wait_for_url("**/#/game/*")
        expect(page.locator(".chip", has_text=given)).to_have_count(1)
        page.goto(server_url)  # the name stays theirs
        expect(page.locator("form.create input[name=name]")).to_have_value(given)
        assert page_errors(page) == []
        page.context.close()


def test_the_first_screen_offers_each_way_to_play_once(browser: Browser, server_url: str) -> None:
    """A bot, a friend, anyone: one button each, the queue's sizes under "More options"."""
    page = new_page(browser, server_url, size=SIZES[0])
    expect(page.locator(".lists")).to_be_visible()
    shown = [text.strip() for text in page.locator(".lobby button:visible").all_inner_texts()]
    assert shown == ["Play a bot", "Invite a friend", "Find an opponent", "Refresh"], shown
    expect(page.locator("section.automatch form")).to_have_count(0)
    assert page_errors(page) == []
    page.context.close()
