"""A person with only a browser: the lobby, a whole game against a bot played by clicking,
a refused click, the Polish switch, a phone-sized screen and the keyboard."""

from __future__ import annotations

import json
import re

from .browser import (
    Browser,
    act,
    browser,
    create_table,
    decision_id,
    expect,
    my_turn,
    new_page,
    page_errors,
    screenshot,
    server_url,
)

__all__ = ["browser", "server_url"]  # fixtures


def first_load_bytes(browser: Browser, url: str) -> dict[str, int]:
    """The bytes of the page's HTML, scripts and styles on a first visit (no cache), as
    they travel: the server sends its text files gzipped to a browser that takes gzip."""
    context = browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}

    def count(response: object) -> None:
        kind = response.headers.get("content-type", "").split(";")[0]  # type: ignore[attr-defined]
        if kind in ("text/html", "text/javascript", "text/css"):
            sent = response.request.sizes()  # type: ignore[attr-defined]
            sizes[response.url] = sent["responseBodySize"] + sent["responseHeadersSize"]

    page.on("response", count)
    page.goto(url)
    page.wait_for_selector("form.create")
    page.wait_for_load_state("networkidle")
    context.close()
    return sizes


def test_a_person_plays_a_whole_game_against_a_bot(browser: Browser, server_url: str) -> None:
    sizes = first_load_bytes(browser, server_url)
    total = sum(sizes.values())
    print(json.dumps({"first_load_bytes": total, "files": len(sizes)}))
    assert total < 200_000, sizes

    page = new_page(browser, server_url)
    game = create_table(page, "Ann", kingdom="Deck Top")
    seen_sentry = False
    last = None
    answers = 0
    while my_turn(page, last):
        last = decision_id(page)
        answers += 1
        if answers == 12:
            screenshot(page, "game-2-players")
        source = page.locator("#decision .prompt").inner_text()
        if not seen_sentry and "Sentry" in source:
            seen_sentry = True
            screenshot(page, "decision-sentry")
        act(page)
    assert page_errors(page) == []
    end = page.locator("#end")
    text = end.inner_text()
    assert "Ann" in text and re.search(r"Winner: |Shared victory: ", text)
    for format_ in ("json", "msgpack", "text"):
        assert end.locator(f'a[href$="format={format_}"]').count() == 1
    screenshot(page, "end")
    # the replay link steps through the finished game
    end.locator(f'a[href="#/replay/{game}"]').click()
    page.wait_for_selector(".replay-controls")
    first = page.locator(".replay-controls [role=status]").inner_text()
    page.click('[data-key="next"]')
    page.click('[data-key="next"]')
    assert page.locator(".replay-controls [role=status]").inner_text() != first
    # steps are events, never called turns; a turn is its player's own ("Ann's turn 2")
    page.fill(".replay-controls input[name=step]", "40")
    page.click(".replay-controls form button")
    assert page.locator(".replay-controls [role=status]").inner_text().startswith("Event 40 of")
    assert re.match(r".+'s turn \d+ · ", page.locator(".turn-line").inner_text())
    page.click('[data-key="prev"]')  # back to the previous answer's end
    back = page.locator(".replay-controls [role=status]").inner_text()
    assert int(re.findall(r"\d+", back)[0]) < 40, back
    page.click('[data-key="last"]')
    page.wait_for_selector("#end")
    assert page_errors(page) == []


def test_a_refused_click_says_why_and_changes_nothing(browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    create_table(page, "Bea")
    assert my_turn(page)
    before = decision_id(page)
    coins = page.locator(".turn-line .coins").inner_text()
    # with the Treasures played by hand (else the click plays them first: one_click_buy)
    page.click('[data-key="treasures-by-hand"]')
    # 8 coins: more than any first hand; not offered, so shown idle (and not enabled),
    # but a person may still click it
    page.click('.pile [data-card="province"]', force=True)
    refusal = page.locator("#decision .refused")
    assert "Province costs 8" in refusal.inner_text()
    assert decision_id(page) == before
    assert page.locator(".turn-line .coins").inner_text() == coins
    assert "\N{MULTIPLICATION SIGN}8" in page.locator('.pile [data-card="province"]').inner_text()
    # the Polish switch: the whole page, card names included (drawn on the next frame)
    page.select_option("#language", "pl")
    expect(page.locator(".supply h2")).to_have_text("Zasoby")
    # (a long name carries the soft hyphens it may break at)
    assert "Miedziaki" in page.locator(".supply").inner_text().replace("\N{SOFT HYPHEN}", "")
    assert "Faza zakupu" in page.locator(".turn-line").inner_text()
    assert page.locator("#decision .prompt strong").inner_text().strip() == "Twoja decyzja:"
    page.select_option("#language", "en")
    expect(page.locator(".supply h2")).to_have_text("Supply")
    assert page_errors(page) == []


def test_a_polish_browser_gets_polish_and_a_phone_plays_by_keyboard(
        browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url, locale="pl-PL", size=(390, 844))
    page.wait_for_selector("form.create")
    assert page.locator("form.create h2").inner_text() == "Graj"  # the Play panel's
    create_table(page, "Cyla")
    assert my_turn(page)
    # nothing is wider than the phone's screen
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "phone")
    # keyboard only: Tab to "play all Treasures", Enter, then Tab to "end turn", Enter
    first = decision_id(page)
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.kind") == "play_all_treasures":
            break
    page.keyboard.press("Enter")
    assert my_turn(page, first)
    second = decision_id(page)
    assert page.locator(".turn-line .coins").inner_text() != "Monety 0"
    for _ in range(200):
        if page.evaluate("document.activeElement.dataset.kind") == "end_phase":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert my_turn(page, second)
    assert page_errors(page) == []



def test_six_players_and_the_time_to_draw_an_update(browser: Browser, server_url: str) -> None:
    """Measures (and prints) how long the page takes to draw an update of a 6-player game:
    docs/BENCHMARKS.md records it. No assertion on time: the machine is shared."""
    page = new_page(browser, server_url)
    page.wait_for_selector(".game-row")  # the other tests' games
    screenshot(page, "lobby")
    create_table(page, "Dee", seats=6, bots=dict.fromkeys(range(1, 6), "big_money"))
    page.evaluate("performance.clearMeasures('dominion-render')")
    last = None
    for _ in range(16):
        assert my_turn(page, last)
        last = decision_id(page)
        act(page)
    assert my_turn(page, last)
    screenshot(page, "game-6-players")
    times = sorted(page.evaluate(
        "performance.getEntriesByName('dominion-render').map(e => e.duration)"))
    assert len(times) >= 16
    print(json.dumps({"updates_drawn": len(times), "median_ms": round(times[len(times) // 2], 2),
                      "p95_ms": round(times[int(len(times) * 0.95)], 2),
                      "max_ms": round(times[-1], 2)}))
    assert page.locator(".players .chip").count() == 6
    assert page_errors(page) == []
