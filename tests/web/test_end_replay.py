"""The end of a game in the browser: why it ended, points card by card and turns; a rematch
offered to the same table that takes every player (and the spectator) to the new game; and
the replay, one click from the end, stepped to the end by turn and by answer."""

from __future__ import annotations

import re

from .browser import (
    Browser,
    Page,
    act,
    browser,
    create_table,
    decision_id,
    expect,
    my_turn,
    new_page,
    page_errors,
    play_together,
    screenshot,
    server_url,
)

__all__ = ["browser", "server_url"]  # fixtures

GAME_URL = re.compile(r".*#/game/(g-[^/]+)$")


def resign(page: Page) -> None:
    page.click('[data-key="resign"]')
    page.click('[data-key="resign-sure"]')
    page.wait_for_selector("#end")


def play_answers(page: Page, answers: int) -> None:
    last = None
    for _ in range(answers):
        if not my_turn(page, last):
            return
        last = decision_id(page)
        act(page)


def test_the_end_says_why_points_by_card_and_turns_then_the_replay_steps_to_it(
        browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    game = create_table(page, "Ann")
    play_answers(page, 8)
    resign(page)
    end = page.locator("#end")
    text = end.inner_text()
    assert "Fewer than two players were left in the game." in text
    assert "Resigned, so they cannot win: Ann." in text
    assert "Winner: Easy bot" in text
    # each player's points card by card (every deck holds its 3 starting Estates) and turns
    for row in end.locator("tbody tr").all():
        points = row.locator("td.points").inner_text()
        assert re.search(r"Estate ×3 = 3", points), points
        assert row.locator("td.turns").inner_text().isdigit()
    ann = end.locator("tbody tr", has_text="Ann")
    score = int(ann.locator("td.score").inner_text())
    sums = [int(n) for n in re.findall(r"= (-?\d+)", ann.locator("td.points").inner_text())]
    assert sum(sums) == score
    expect(page.locator(".turn-line")).to_have_count(0)  # no counters once it is over
    screenshot(page, "end-reason")

    # one click to the replay, stepped turn by turn to the last turn, then answer by answer
    page.click('#end [data-key="replay"]')
    page.wait_for_url(f"**/#/replay/{game}")
    controls = page.locator(".replay-controls")
    controls.wait_for()
    status = controls.locator("[role=status]")
    for key in ("first", "prev_turn", "prev"):
        expect(controls.locator(f'[data-key="{key}"]')).to_be_disabled()
    turn_line = page.locator(".turn-line")
    turns_seen = [turn_line.inner_text()]
    while controls.locator('[data-key="next_turn"]').is_enabled():
        before = status.inner_text()
        controls.locator('[data-key="next_turn"]').click()
        expect(status).not_to_have_text(before)
        turns_seen.append(turn_line.inner_text())
    assert len(set(turns_seen)) == len(turns_seen) >= 3  # a new turn every time
    assert page.locator("#end").count() == 0
    steps = 0
    while controls.locator('[data-key="next"]').is_enabled():
        before = status.inner_text()
        page.keyboard.press("ArrowRight")  # the keys step as the buttons do
        expect(status).not_to_have_text(before)
        steps += 1
    assert steps >= 1
    page.wait_for_selector("#end")
    n, total = re.findall(r"\d+", status.inner_text())
    assert n == total
    # the replay's end says what the live one said
    replayed = page.locator("#end").inner_text()
    assert "Fewer than two players were left in the game." in replayed
    assert "Estate ×3 = 3" in replayed
    # the controls' marks render in any font: no media symbols
    labels = "".join(controls.locator("button").all_inner_texts())
    assert not set(labels) & set("⏮⏭◀▶⏪⏩"), labels
    # the turn slider goes back to the first turn; Shift+→ steps a turn
    controls.locator("input[name=turn]").evaluate(
        "slider => { slider.value = 0; slider.dispatchEvent(new Event('input')); }")
    expect(controls.locator('[data-key="first"]')).to_be_disabled()
    page.locator(".replay > h1").click()  # the keys are the page's, not the slider's
    page.keyboard.press("Shift+ArrowRight")
    expect(controls.locator('[data-key="first"]')).to_be_enabled()
    screenshot(page, "replay")
    assert page_errors(page) == []


def test_a_rematch_against_a_bot_starts_at_once(browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    game = create_table(page, "Ann")
    resign(page)
    page.click('#rematch [data-key="rematch-same"]')
    page.wait_for_url(lambda url: GAME_URL.match(url) is not None
                      and not url.endswith(game))
    assert my_turn(page)  # Ann's seat in the new game: asked as soon as it is her turn
    expect(page.locator(".players")).to_contain_text("Easy bot")
    assert page_errors(page) == []


def test_two_people_and_a_spectator_move_to_the_rematch(browser: Browser,
                                                        server_url: str) -> None:
    ann = new_page(browser, server_url)
    game = create_table(ann, "Ann", bots={1: ""})
    bob = new_page(browser, f"{server_url}/#/game/{game}")
    bob.fill("form.join input[name=name]", "Bob")
    bob.click("form.join button[type=submit]")
    watcher = new_page(browser, f"{server_url}/#/watch/{game}")
    for page in (ann, bob, watcher):
        page.wait_for_selector(".turn-line")
    play_together([ann, bob], answers=4)
    resign(bob)
    for page in (ann, watcher):
        page.wait_for_selector("#end")
    expect(watcher.locator("#rematch button")).to_have_count(0)  # spectators do not offer
    ann.click('#rematch [data-key="rematch-random"]')
    expect(bob.locator("#rematch")).to_contain_text("Ann offers a rematch with a new Kingdom.")
    expect(watcher.locator("#rematch")).to_contain_text("Waiting for: Bob.")
    expect(ann.locator('#rematch [data-key="rematch-accept"]')).to_have_count(0)
    screenshot(bob, "rematch-offer")
    bob.click('#rematch [data-key="rematch-accept"]')
    ann.wait_for_url(lambda url: GAME_URL.match(url) is not None and not url.endswith(game))
    new_game = ann.url.rsplit("/", 1)[1]
    bob.wait_for_url(f"**/#/game/{new_game}")
    watcher.wait_for_url(f"**/#/watch/{new_game}")
    for page in (ann, bob, watcher):
        page.wait_for_selector(".turn-line")
        expect(page.locator(".players")).to_contain_text("Ann")
        expect(page.locator(".players")).to_contain_text("Bob")
    # each person holds their own seat of the new game: the one asked can answer
    play_together([ann, bob], answers=2)
    for page in (ann, bob, watcher):
        assert page_errors(page) == []
