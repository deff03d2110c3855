"""Ratings in the real Chromium against a real server (issue 27): a guest's lobby offers no
rated table and says why; a signed-in player creates rated tables against Big Money and
resigns them (ranked last), her rating beside her name; once the ledger has applied each
game, the end of it says her rating's change, the leaderboard lists them (bots marked, the
pools switched) and their profile's chart, drawn as SVG, gains a point per game, with the
record against the bot, and the game's row its result and change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import Browser, Page, browser, expect, new_page, page_errors, screenshot, sync_api
from .rated import load_until, lose_a_rated_game, register

__all__ = ["browser"]  # a fixture
SVG = "http://www.w3.org/2000/svg"


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    # its games are resigned at once: rated all the same
    process, address = start_server(tmp_path / "games.sqlite3", "--rated-min-turns", "0")
    yield address
    stop(process)


def chart_points(page: Page, pool: str = "2p") -> int:
    return page.locator(f'.pool-rating[data-pool="{pool}"] svg circle').count()


def record(pool: sync_api.Locator, losses: int) -> None:
    """The pool's record against Big Money (the Easy bot): no wins, `losses` losses, no ties."""
    row = pool.locator(".bot-record tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_contain_text("Easy bot")
    expect(row.locator("td")).to_have_text(["0", str(losses), "0"])


def test_a_guest_cannot_ask_for_a_rated_table_and_is_told_why(browser: Browser,
                                                               url: str) -> None:
    guest = new_page(browser, url)
    rated = guest.locator("form.create input[name=rated]")
    expect(rated).to_be_disabled()
    assert rated.get_attribute("aria-describedby") == "rated-why"
    expect(guest.locator("#rated-why")).to_contain_text("Rated tables need an account")
    assert not page_errors(guest)
    guest.context.close()


def test_rated_games_move_the_leaderboard_and_the_profiles_chart(browser: Browser,
                                                                 url: str) -> None:
    page = new_page(browser, url)
    register(page, url, "Ada")
    # before any game: the bots alone, marked, and not linked (they have no profile)
    page.click("#leaderboard-link")
    page.wait_for_selector(".leaderboard")
    assert page.locator('.ratings [data-player="Ada"]').count() == 0
    big_money = page.locator('.ratings [data-player="big_money"]')
    expect(big_money.locator("th")).to_contain_text("Easy bot")
    expect(big_money.locator(".bot-mark")).to_have_text("BOT")
    assert big_money.locator("a").count() == 0

    game = lose_a_rated_game(page, url)
    summary = page.request.get(f"{url}/api/v1/games/{game}").json()
    assert summary["rated"] is True
    # her rating beside her name; the end, once the ledger has it, says what it did
    expect(page.locator('.chip[data-seat="0"] .seat-rating')).to_contain_text("1500?")
    end = page.locator("#end")
    expect(end.locator(".rated-line")).to_contain_text("rating changed as shown")
    expect(end.locator("tbody tr").first.locator("td.rating-change")).to_contain_text("(\u2212")
    screenshot(page, "end-rating-change")
    # and so does its replay's end, from the game's summary
    page.goto(f"{url}/#/replay/{game}")
    page.locator('.replay-controls [data-key="last"]').click()
    expect(page.locator("#end td.rating-change").first).to_contain_text("(\u2212")
    load_until(page, f"{url}/#/top/2p", ".leaderboard", '.ratings [data-player="Ada"]')
    ada = page.locator('.ratings [data-player="Ada"]')
    expect(ada.locator("td").last).to_have_text("1")  # games
    expect(ada).to_contain_text("? (provisional)")
    assert ada.locator("a").get_attribute("href") == "/@/Ada"
    assert page.locator('.pools [aria-current="page"]').inner_text() == "2 players"
    screenshot(page, "leaderboard")
    page.click('.pools a:text-is("3–6 players")')
    expect(page.locator('.pools [aria-current="page"]')).to_have_text("3–6 players")
    expect(page.locator('.ratings [data-player="big_money"]')).to_be_visible()
    assert page.locator('.ratings [data-player="Ada"]').count() == 0  # rated in 2p only

    # the profile: the number, what it means, one point, the record against Big Money
    page.goto(f"{url}/#/top/2p")
    page.locator('.ratings [data-player="Ada"] a').click()
    page.wait_for_url("**/@/Ada")
    page.wait_for_selector(".pool-rating")
    assert chart_points(page) == 1
    two = page.locator('.pool-rating[data-pool="2p"]')
    expect(two.locator(".rating-now")).to_contain_text("1 rated game")
    expect(page.locator(".profile-ratings")).to_contain_text("everyone starts at 1500")
    record(two, losses=1)
    row = page.locator(f'.profile-games [data-game="{game}"]')
    expect(row.locator(".outcome")).to_have_text("Lost")
    expect(row.locator(".rating-change")).to_contain_text("(\u2212")
    expect(page.locator('.pool-rating[data-pool="3-6p"]')).to_contain_text("No rated games yet.")
    chart = two.locator(".rating-chart svg")
    assert chart.evaluate("svg => svg.namespaceURI") == SVG
    assert chart.bounding_box()["height"] > 50  # type: ignore[index]  # drawn, not empty
    assert chart.get_attribute("role") == "img"

    lose_a_rated_game(page, url)
    load_until(page, f"{url}/@/Ada", ".pool-rating", '[data-pool="2p"] svg circle:nth-of-type(2)')
    assert chart_points(page) == 2
    assert two.locator("svg polyline").count() == 1
    record(two, losses=2)
    two.locator("details summary").click()
    expect(two.locator("details tbody tr")).to_have_count(2)
    screenshot(page, "profile-ratings")
    load_until(page, f"{url}/#/top/2p", ".leaderboard",
               '.ratings [data-player="Ada"] td:last-child:text-is("2")')
    assert not page_errors(page)
    page.context.close()
