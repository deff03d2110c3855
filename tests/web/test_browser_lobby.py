"""The lobby as a person meets it, in Debian's Chromium: on a phone the Play panel's buttons
are on the first screen, its one name field serves them all, and one tap starts a game
against a bot, another seeks a table in the queue; "Invite a friend" makes a table that
shows its link; the Kingdom is chosen by tapping cards; the header's menu reaches every
page, on a phone folded under its button; and registering goes back to the page the
person came from."""

from __future__ import annotations

import pytest

from .browser import Browser, Page, browser, expect, new_page, page_errors, server_url

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium

PHONE = (390, 844)
QUICK = "form.create [data-quick]"


def bottom_of(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box["y"] + box["height"]


def test_on_a_phone_one_tap_on_the_first_screen_starts_a_bot_game(
        browser: Browser, server_url: str) -> None:
    phone = new_page(browser, server_url, size=PHONE)
    expect(phone.locator(QUICK)).to_have_count(3)
    # one name for every way to play: the queue's panel has none of its own
    expect(phone.locator("input[name=name]")).to_have_count(1)
    for kind in ("bot", "friend", "queue"):
        assert bottom_of(phone, f'form.create [data-quick="{kind}"]') <= PHONE[1]
    expect(phone.locator("form.create details.more-options")).not_to_have_attribute("open", "")
    phone.fill("form.create input[name=name]", "Pat")
    phone.select_option("form.create select[name=bot-level]", "random")
    expect(phone.locator("#bot-level-about")).to_contain_text("at random")
    phone.click('form.create [data-quick="bot"]')
    phone.wait_for_url("**/#/game/*")
    expect(phone.locator('.chip[data-seat="1"]').get_by_role("img", name="Beginner bot")
           ).to_have_text("BOT")
    assert page_errors(phone) == []


def test_the_bots_pace_is_the_servers_unless_the_person_picks_one(
        browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)  # the tests' servers' bot_pace: instant
    pace = page.locator("form.create select[name=bot-pace]")
    expect(pace.locator("option:checked")).to_have_text("Server default (Instant)")
    page.fill("form.create input[name=name]", "Pat")
    page.click('form.create [data-quick="bot"]')
    page.wait_for_url("**/#/game/*")
    game = page.url.rsplit("/", 1)[1]
    summary = page.request.get(f"{server_url}/api/v1/games/{game}").json()
    assert summary["bot_pace"] == "instant"  # the form sent none: the host's holds


def test_invite_a_friend_makes_a_table_that_shows_its_link(browser: Browser,
                                                            server_url: str) -> None:
    page = new_page(browser, server_url)
    page.fill("form.create input[name=name]", "Ann")
    page.click('form.create [data-quick="friend"]')
    page.wait_for_url("**/#/game/*")
    game = page.url.rsplit("/", 1)[1]
    expect(page.locator(".waiting input")).to_have_value(f"{server_url}/#/game/{game}")
    assert page_errors(page) == []


def test_find_an_opponent_joins_the_queue_in_one_tap(browser: Browser,
                                                     server_url: str) -> None:
    page = new_page(browser, server_url, size=PHONE)
    page.fill("form.create input[name=name]", "Quinn")
    page.click('form.create [data-quick="queue"]')
    panel = page.locator("section.automatch")
    expect(panel).to_have_attribute("data-phase", "waiting")
    expect(panel).to_contain_text("2 players, edition 2")
    panel.locator(".seek-cancel").click()
    expect(panel).to_have_attribute("data-phase", "idle")
    assert page_errors(page) == []


def test_the_kingdom_is_chosen_by_tapping_cards_laid_out_by_cost(browser: Browser,
                                                                  server_url: str) -> None:
    page = new_page(browser, server_url)
    kingdom = page.locator("form.create .in-kingdom .card")
    expect(kingdom).to_have_count(10)
    costs = [int(cost) for cost in kingdom.locator(".card-cost").all_inner_texts()]
    assert costs == sorted(costs)
    first = kingdom.first.get_attribute("data-card")
    kingdom.first.click()  # taken out
    expect(kingdom).to_have_count(9)
    expect(page.locator("form.create select[name=kingdom]")).to_have_value("")  # its own
    page.locator(f'form.create .others .card:not([data-card="{first}"])').first.click()
    expect(kingdom).to_have_count(10)  # another put in
    assert first not in kingdom.evaluate_all("cards => cards.map((c) => c.dataset.card)")
    page.click("form.create .kingdom-random")
    expect(kingdom).to_have_count(10)
    assert page_errors(page) == []


def visit(page: Page, link: str, shown: str) -> None:
    """Follow the menu's link (unfolding it on a phone) and wait for the page it names."""
    button = page.locator(".menu-button")
    folded = button.is_visible()
    if folded:
        expect(page.locator("#menu-links")).to_be_hidden()
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
    page.locator(f'nav.menu a[href="{link}"]').click()
    page.wait_for_selector(shown)
    if folded and link != "/guide":  # (the guide's page has no menu)
        expect(page.locator("#menu-links")).to_be_hidden()  # folded again


@pytest.mark.parametrize("size", [PHONE, (1280, 900)], ids=["phone", "laptop"])
def test_the_menu_reaches_every_page_and_registering_goes_back(
        browser: Browser, server_url: str, size: tuple[int, int]) -> None:
    name = f"Menu{size[0]}"
    page = new_page(browser, server_url, size=size)
    page.wait_for_selector("form.create")
    visit(page, "/#/top", ".leaderboard")
    visit(page, "/#/", "form.create")
    page.click("#account")  # the header's sign-in link, beside the menu
    page.wait_for_selector('.account-form[aria-label="Sign in"]')
    visit(page, "/#/top", ".leaderboard")
    visit(page, "/#/register", '.account-form[aria-label="Register"]')
    page.fill(".account-form input[name=name]", name)
    page.fill(".account-form input[name=password]", "correct horse battery")
    page.click(".account-form button[type=submit]")
    page.wait_for_url("**/#/top")  # back where they came from, not the account's page
    expect(page.locator("#account")).to_have_text(f"Signed in as {name}")
    visit(page, f"/@/{name}", ".profile")
    visit(page, "/#/account", ".account-links")
    visit(page, "/#/account/tokens", ".account-tokens")
    visit(page, "/guide", "main.guide")
    assert page_errors(page) == []
