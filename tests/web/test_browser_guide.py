"""The player's guide in Debian's Chromium: the header's "How to play" names it in the
page's language (the Polish link says the guide is in English), the game's list of keys
links the same page in a tab of its own, and the guide reads well on a phone: the page's
style sheet applies under its strict CSP, nothing scrolls sideways, and axe finds nothing
serious."""

from __future__ import annotations

import pytest

from .browser import (
    Browser,
    browser,
    create_table,
    expect,
    new_page,
    page_errors,
    server_url,
)
from .measures import axe_violations, horizontal_overflow, wider_than_the_page

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium


def test_the_header_and_the_games_keys_open_the_players_guide(browser: Browser,
                                                               server_url: str) -> None:
    page = new_page(browser, server_url)
    header = page.locator("#guide-link")
    expect(header).to_have_text("How to play")
    page.select_option("#language", "pl")
    expect(header).to_have_text("Jak grać (po angielsku)")
    assert header.get_attribute("hreflang") == "en"
    page.select_option("#language", "en")
    expect(header).to_have_text("How to play")
    assert header.get_attribute("href") == "/guide"

    create_table(page, "Gia")
    page.click('.toolbar [data-key="help"]')
    in_help = page.locator(".shortcut-help a")
    expect(in_help).to_have_text("How to play")
    assert in_help.get_attribute("href") == "/guide"
    with page.context.expect_page() as opened:
        in_help.click()
    guide = opened.value
    guide.wait_for_load_state()
    expect(guide.locator("h1")).to_have_text("Playing Dominion: a guide for players")
    assert guide.url.endswith("/guide.html")  # this version's copy, beside app.css
    assert guide.title() == "Playing Dominion: a guide for players"
    # the game's page stays where it was
    assert "/#/game/" in page.url

    # app.css applies (a style sheet the CSP refused would leave the column unbounded)
    assert guide.evaluate(
        "() => getComputedStyle(document.querySelector('main.guide')).maxWidth") != "none"
    assert axe_violations(guide) == []
    for width in (360, 390):
        assert horizontal_overflow(guide, width) == 0, wider_than_the_page(guide)
    assert axe_violations(guide) == []  # at a phone's width too
    assert page_errors(page) == []
