"""The Buy phase in one click, in Chromium against a real server: a click on Silver with
the Coppers still in hand plays them and buys it; a click on Province plays them and says
the coins the server counted; with "Play Treasures by hand" on, a click plays nothing."""

from __future__ import annotations

from .browser import (
    Browser,
    Page,
    browser,
    create_table,
    decision_id,
    expect,
    my_turn,
    new_page,
    page_errors,
    server_url,
)

__all__ = ["browser", "server_url"]  # fixtures


def coppers_in_hand(page: Page) -> int:
    return page.locator('.hand [data-card="copper"]').count()


def test_a_click_on_a_pile_plays_the_treasures_and_buys_it(
        browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    create_table(page, "Ida")
    bought = province_said = False
    last = None
    # the seven Coppers are dealt over the first two turns: one hand has three or more
    for _ in range(2):
        assert my_turn(page, last)
        last = decision_id(page)
        coppers = coppers_in_hand(page)
        assert page.locator(".turn-line .coins").inner_text() == "Coins 0"
        if not bought and (coppers >= 3 or province_said):
            page.click('.pile [data-card="silver"]', force=True)  # not offered until played
            expect(page.locator(".log")).to_contain_text("Ida buys: Silver.")
            bought = True
        else:
            page.click('.pile [data-card="province"]', force=True)
            expect(page.locator("#decision .refused")).to_have_text(
                f"⚠ Province costs 8: you have {coppers} coins and can buy only what is offered.")
            expect(page.locator(".turn-line .coins")).to_have_text(f"Coins {coppers}")
            assert coppers_in_hand(page) == 0
            province_said = True
            page.click('#decision [data-kind="end_phase"]')
    assert bought and province_said
    assert page_errors(page) == []


def test_by_hand_a_click_on_a_pile_plays_nothing(browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    create_table(page, "Jon")
    assert my_turn(page)
    switch = page.locator('[data-key="treasures-by-hand"]')
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    before = decision_id(page)
    coppers = coppers_in_hand(page)
    page.click('.pile [data-card="silver"]', force=True)
    expect(page.locator("#decision .refused")).to_have_text(
        "⚠ Silver costs 3: you have 0 coins. Play your Treasures first.")
    assert decision_id(page) == before
    assert coppers_in_hand(page) == coppers
    # remembered by the browser: the next game's page starts with it on
    page.reload()
    expect(page.locator('[data-key="treasures-by-hand"]')).to_have_attribute(
        "aria-pressed", "true")
    assert page_errors(page) == []
