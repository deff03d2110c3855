"""People at the table in Debian's Chromium: the lobby names the bots' levels ("6 · Expert",
"6 · Ekspercki"), the table and the lists name a bot by its level ("Expert bot"); a name
an account holds links to its profile and a bot's is marked BOT (named for screen readers)
at the table, at the end, in the lobby's list and in the replay; a chat line an admin
removes leaves every page that showed it (`chat_removed`); a game an admin abandons says
so, and why, and offers no more controls (`game_abandoned`)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

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
)

__all__ = ["browser"]  # a fixture
pytestmark = pytest.mark.slow  # Chromium
PASSWORD = "correct horse battery"
VILE = "something vile"
REASON = "the table was used to harass a player"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("people") / "games.sqlite3"
    process, url = start_server(db, "--password-time-cost", "1", "--password-memory-kib", "64")
    yield {"url": url, "db": db}
    stop(process)


def signed_in(browser: Browser, url: str, name: str) -> Page:
    page = new_page(browser, url)
    registered = page.request.post(f"{url}/api/v1/account/register",
                                   data={"name": name, "password": PASSWORD})
    assert registered.status == 201, registered.text()
    page.reload()
    return page


def test_names_link_to_profiles_and_bots_are_marked_everywhere(
        browser: Browser, server: dict[str, Any]) -> None:
    url = server["url"]
    ann = signed_in(browser, url, "Ann")
    # the lobby names the strong bot's level like the others, in both languages
    strong = ann.locator('form.create select[name=seat-1] option[value="strong"]')
    expect(strong).to_have_text("6 · Expert")
    ann.select_option("#language", "pl")
    expect(strong).to_have_text("6 · Ekspercki")
    expect(ann.locator('form.create select[name=seat-1] option[value="big_money"]')
           ).to_have_text("2 · Łatwy")
    ann.select_option("#language", "en")
    game = create_table(ann, "Ann", bots={1: "strong"})
    assert my_turn(ann)
    bot_mark = '.bot-mark[role="img"][aria-label="Expert bot"]'
    # at the table: Ann's chip links to her profile, the bot's is marked
    expect(ann.locator('.chip[data-seat="0"] a.player')).to_have_attribute("href", "/@/Ann")
    expect(ann.locator(f'.chip[data-seat="1"] {bot_mark}')).to_have_text("BOT")
    expect(ann.locator('.chip[data-seat="1"] a')).to_have_count(0)
    last = None
    for _ in range(4):
        if not my_turn(ann, last):
            break
        last = decision_id(ann)
        act(ann)
    ann.click('[data-key="resign"]')
    ann.click('[data-key="resign-sure"]')
    # the end names them the same way
    end = ann.locator("#end")
    expect(end.locator('tbody a.player[href="/@/Ann"]')).to_have_count(1)
    expect(end.locator(f"tbody {bot_mark}")).to_have_count(1)
    # and so do the lobby's list of finished games and the replay
    ann.goto(f"{url}/#/")
    row = ann.locator(f'.game-row[data-game="{game}"]')
    expect(row.locator('a.player[href="/@/Ann"]')).to_have_count(1)
    expect(row.locator(bot_mark)).to_have_count(1)
    # Ann resigned and a bot played on: she is said to have left, not marked a bot
    expect(row.locator(".bot-mark")).to_have_count(1)
    expect(row.locator(".left-mark")).to_have_text(" (resigned)")
    ann.goto(f"{url}/#/replay/{game}")
    expect(ann.locator('.replay .chip[data-seat="0"] a.player')).to_have_attribute("href",
                                                                                  "/@/Ann")
    expect(ann.locator(f'.replay .chip[data-seat="1"] {bot_mark}')).to_have_text("BOT")
    # the link leads to the profile
    ann.click('.replay .chip[data-seat="0"] a.player')
    ann.wait_for_url("**/@/Ann")
    expect(ann.locator(".profile h2")).to_have_text("Ann")
    assert page_errors(ann) == []


def test_a_removed_chat_line_and_an_abandoned_game(browser: Browser,
                                                   server: dict[str, Any]) -> None:
    url = server["url"]
    bob = new_page(browser, url)
    game = create_table(bob, "Bob")
    assert my_turn(bob)
    watcher = new_page(browser, f"{url}/#/watch/{game}")
    # chat is live only: the watcher must follow the game before Bob speaks. It shows Bob's
    # question (loaded), then the next one, which only its socket can bring
    first = decision_id(bob)
    expect(watcher.locator(f'#decision[data-decision="{first}"]')).to_have_count(1)
    act(bob)
    assert my_turn(bob, first)
    expect(watcher.locator(f'#decision[data-decision="{decision_id(bob)}"]')).to_have_count(1)
    for text in (VILE, "good luck"):
        bob.fill(".chat-form input", text)
        bob.press(".chat-form input", "Enter")
        expect(watcher.locator(".chat ul")).to_contain_text(text)
    ada = signed_in(browser, url, "Ada")
    granted = subprocess.run([sys.executable, "-m", "dominion.server.main", "admin", "grant",
                              "Ada", "--db", str(server["db"])],
                             capture_output=True, text=True, timeout=60, check=False)
    assert granted.returncode == 0, granted.stderr
    # as the admin page asks: the session cookie counts from the server's own origin
    chat = ada.request.get(f"{url}/api/v1/games/{game}/admin/chat",
                           headers={"Origin": url}).json()
    line = next(entry["id"] for entry in chat["lines"] if entry["text"] == VILE)
    ada.goto(f"{url}/#/admin")
    form = ada.locator("form.admin-form:has(h2:text('Remove a chat line'))")
    form.locator("input[name=game]").fill(game)
    form.locator("input[name=line]").fill(str(line))
    form.locator("input[name=reason]").fill("abuse")
    form.locator("button[type=submit]").click()
    for page in (bob, watcher):  # gone from every page that showed it
        expect(page.locator(".chat li.removed")).to_have_text("(removed by a moderator)")
        expect(page.locator(".chat ul")).not_to_contain_text(VILE)
        expect(page.locator(".chat ul")).to_contain_text("good luck")

    form = ada.locator("form.admin-form:has(h2:text('Abandon a game'))")
    form.locator("input[name=game]").fill(game)
    form.locator("input[name=reason]").fill(REASON)
    form.locator("button[type=submit]").click()
    for page in (bob, watcher):
        abandoned = page.locator("#end.abandoned")
        expect(abandoned).to_contain_text("The game was abandoned")
        expect(abandoned).to_contain_text(REASON)
        expect(page.locator("#decision")).to_have_count(0)  # no more controls
        expect(page.locator('[data-key="resign"]')).to_have_count(0)
    assert bob.locator(".hand [data-option]").count() == 0
    assert bob.title() == "Dominion"
    # pages loaded later still say so (the reason is the admin's, said live only): the
    # player's table page (the seat is gone with the game) and the spectator's
    bob.reload()
    expect(bob.locator(".table .abandoned")).to_contain_text("The game was abandoned")
    watcher.reload()
    expect(watcher.locator("#end.abandoned")).to_contain_text("The game was abandoned")
    assert page_errors(bob) == [] and page_errors(watcher) == [] and page_errors(ada) == []


def test_a_table_waiting_for_players_names_them_the_same_way(
        browser: Browser, server: dict[str, Any]) -> None:
    cleo = signed_in(browser, server["url"], "Cleo")  # the server is the module's
    create_table(cleo, "Cleo", seats=3, bots={1: "strong", 2: ""})  # seat 3 waits for a person
    seated = cleo.locator(".waiting .seated")
    expect(seated.locator('a.player[href="/@/Cleo"]')).to_have_count(1)
    expect(seated.locator('.bot-mark[role="img"][aria-label="Expert bot"]')).to_have_text("BOT")
    assert page_errors(cleo) == []
