"""The lobby's queue in Debian's Chromium (the Play panel's "Find an opponent"), against a
real server: two people seek a 2-player table, one reloads while waiting, the other sees
the queue's counts, both accept and land at the same game in different seats; then one
declines: the other is back waiting, and the decliner's panel says why it stopped; a
reload shows a table found again, and a table let lapse is said on both sides. Signed-in
people seek rated tables as their accounts (guests are offered none). The found table's
dialog has no serious axe-core finding (the waiting panel's measures:
tests/web/test_web_measures.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import WAIT_MS, Browser, Page, browser, expect, new_page, page_errors
from .measures import axe_violations

__all__ = ["browser"]  # a fixture


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    """A server of the test's own: a seek another test left (alive for the grace time
    after its page closed) would meet this test's seekers in a shared queue."""
    process, url = start_server(tmp_path / "games.sqlite3", "--password-time-cost", "1",
                                "--password-memory-kib", "64")
    yield url
    stop(process)

PANEL = "section.automatch"
DIALOG = "dialog.match-found[open]"
SEEK = 'form.create [data-quick="queue"]'


def seek(page: Page, name: str) -> None:
    """Seek a 2-player table of edition 2 as the guest `name`."""
    panel = page.locator(PANEL)
    page.locator("form.create input[name=name]").fill(name)
    page.locator(SEEK).click()
    expect(panel).to_have_attribute("data-phase", "waiting")


def seat_of(page: Page, game: str) -> int:
    held = page.evaluate("key => localStorage.getItem(key)", f"dominion.seat.{game}")
    seat: int = json.loads(held)["seat"]
    return seat


def test_two_people_are_matched_accept_and_sit_at_the_same_game(browser: Browser,
                                                                 server_url: str) -> None:
    ann = new_page(browser, server_url)
    seek(ann, "Ann")
    expect(ann.locator(f"{PANEL} .seek-time")).to_contain_text("Waiting for a table: 0:0")
    # a reload while waiting takes the seek up again, its wait kept (the server's clock)
    expect(ann.locator(f"{PANEL} .seek-time")).to_contain_text("0:02")
    ann.reload()
    expect(ann.locator(PANEL)).to_have_attribute("data-phase", "waiting")
    expect(ann.locator(f"{PANEL} .seek-time")).not_to_contain_text("0:00")

    bob = new_page(browser, server_url)
    # the lobby's counts: Ann waits for a 2-player table
    expect(bob.locator(f'{PANEL} .queue-counts li[data-size="2"]')).to_have_text(
        "2 players: 1 waiting")
    expect(bob.locator(f"{PANEL} .queue-counts .median")).to_contain_text("Median wait: ")
    seek(bob, "Bob")
    for page in (ann, bob):
        dialog = page.locator(DIALOG)
        expect(dialog).to_contain_text("Players: ")
        expect(dialog).to_contain_text("Ann")
        expect(dialog).to_contain_text("Bob")
        expect(dialog.locator(".countdown")).to_contain_text("seconds left")
        assert page.title().startswith("▶ A table is found")
    # a modal dialog named for screen readers, described by its players; it takes the
    # focus (its Accept button, reached by the keyboard)
    expect(ann.get_by_role("dialog", name="A table is found")).to_have_accessible_description(
        re.compile(r"2 players, edition 2 Clock 10\+5 Players: (Ann, Bob|Bob, Ann)"))
    expect(ann.locator(f"{DIALOG} [data-answer=accept]")).to_be_focused()
    assert not axe_violations(ann), axe_violations(ann)
    ann.keyboard.press("Enter")
    expect(ann.locator(DIALOG)).to_contain_text("Accepted: waiting for the others")
    bob.locator(f"{DIALOG} [data-answer=accept]").click()
    for page in (ann, bob):
        page.wait_for_url("**/#/game/*")
        page.wait_for_selector("#decision")
    game = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == game
    assert {seat_of(ann, game), seat_of(bob, game)} == {0, 1}
    assert page_errors(ann) == page_errors(bob) == []
    ann.context.close()
    bob.context.close()


def signed_in(browser: Browser, url: str, name: str) -> Page:
    """A page whose browser has registered `name` (its session cookie set)."""
    page = new_page(browser, url)
    registered = page.request.post(f"{url}/api/v1/account/register",
                                   data={"name": name, "password": "correct horse battery"})
    assert registered.ok, registered.text()
    page.reload()
    expect(page.locator("#account")).to_have_text(f"Signed in as {name}")
    return page


def test_signed_in_people_seek_a_rated_table_as_their_accounts(browser: Browser,
                                                               server_url: str) -> None:
    """The socket is signed in by the page's session: the seats are the accounts'."""
    pages = [signed_in(browser, server_url, name) for name in ("Ivy", "Jon")]
    for page in pages:
        panel = page.locator(PANEL)
        expect(panel.locator("input[name=name]")).to_have_count(0)  # the account's name
        page.locator("form.create input[name=rated]").check()
        page.locator(SEEK).click()
        expect(panel).to_contain_text("2 players, edition 2, rated")
    for page in pages:
        expect(page.locator(DIALOG)).to_contain_text("Rated game")
        expect(page.locator(DIALOG)).to_contain_text("Ivy")
        expect(page.locator(DIALOG)).to_contain_text("Jon")
        page.locator(f"{DIALOG} [data-answer=accept]").click()
    for page in pages:
        page.wait_for_url("**/#/game/*")
        page.wait_for_selector("#decision")
    assert pages[0].url == pages[1].url
    assert page_errors(pages[0]) == page_errors(pages[1]) == []
    for page in pages:
        page.context.close()


def test_a_guest_is_offered_no_rated_seek(browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    expect(page.locator("form.create input[name=rated]")).to_be_disabled()
    expect(page.locator(f"{PANEL} form")).to_have_count(0)  # one way to seek: the Play panel
    page.context.close()


def test_a_seek_needs_a_size_outlives_a_language_switch_and_ends_on_leaving(
        browser: Browser, server_url: str) -> None:
    page = new_page(browser, server_url)
    panel = page.locator(PANEL)
    page.locator("form.create input[name=name]").fill("Eve")
    page.locator("form.create input[name=size][value='0']").uncheck()  # the 2-player group
    page.locator(SEEK).click()
    expect(panel.locator(".seek-note")).to_have_text("Choose at least one table size.")
    page.locator("form.create input[name=size][value='2']").check()  # 5–6: nobody else seeks it
    page.locator(SEEK).click()
    expect(panel).to_have_attribute("data-phase", "waiting")
    expect(panel).to_contain_text("5–6 players, edition 2")
    # the lobby drawn again in Polish: still waiting, the same seek
    page.select_option("#language", "pl")
    expect(panel.locator(".seek-time")).to_contain_text("Czekasz na stół: ")
    page.select_option("#language", "en")
    expect(panel.locator(".seek-time")).to_contain_text("Waiting for a table: ")
    other = new_page(browser, server_url)
    five = other.locator(f'{PANEL} .queue-counts li[data-size="5"]')
    expect(five).to_have_text("5 players: 1 waiting")
    # leaving the lobby leaves the queue: the other's counts, read again, say so
    page.goto(f"{server_url}/#/sign-in")
    expect(five).to_have_text("5 players: 0 waiting", timeout=WAIT_MS)  # read every 10 s
    page.goto(f"{server_url}/#/")
    expect(panel).to_have_attribute("data-phase", "idle")
    page.locator(SEEK).click()
    expect(panel).to_have_attribute("data-phase", "waiting")
    panel.locator(".seek-cancel").click()
    expect(panel).to_have_attribute("data-phase", "idle")
    expect(panel.locator(".seek-note")).to_have_text("You left the queue.")
    assert page_errors(page) == page_errors(other) == []
    page.context.close()
    other.context.close()


def test_a_decline_sends_the_other_back_to_waiting(browser: Browser, server_url: str) -> None:
    """Last in the module: a guest's decline is a strike against their address, which
    every page here shares (its next seeks wait before they are matched)."""
    cat, dan = new_page(browser, server_url), new_page(browser, server_url)
    seek(cat, "Cat")
    seek(dan, "Dan")
    for page in (cat, dan):
        page.wait_for_selector(DIALOG)
    cat.locator(f"{DIALOG} [data-answer=decline]").click()
    expect(cat.locator(PANEL)).to_have_attribute("data-phase", "idle")
    expect(cat.locator(f"{PANEL} .seek-note")).to_contain_text("You declined the table")
    expect(cat.locator(DIALOG)).to_have_count(0)
    expect(dan.locator(PANEL)).to_have_attribute("data-phase", "waiting")
    expect(dan.locator(f"{PANEL} .seek-note")).to_have_text(
        "Someone declined the table: you are back at the front of the queue.")
    expect(dan.locator(DIALOG)).to_have_count(0)
    assert dan.title() == "Dominion"
    assert page_errors(cat) == page_errors(dan) == []
    cat.context.close()
    dan.context.close()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose tables wait 6 s for their answers (10 s by default)."""
    db = tmp_path_factory.mktemp("quick") / "games.sqlite3"
    process, url = start_server(db, "--automatch-confirm-seconds", "6")
    yield url
    stop(process)


def test_a_reload_shows_the_table_again_and_a_lapse_is_said(browser: Browser,
                                                            quick_server: str) -> None:
    kim, lee = new_page(browser, quick_server), new_page(browser, quick_server)
    seek(kim, "Kim")
    seek(lee, "Lee")
    for page in (kim, lee):
        page.wait_for_selector(DIALOG)
    kim.locator(f"{DIALOG} [data-answer=accept]").click()
    lee.reload()  # the seek taken up: the table still asks Lee
    expect(lee.locator(DIALOG)).to_contain_text("Kim")
    expect(lee.locator(PANEL)).to_have_attribute("data-phase", "idle", timeout=WAIT_MS)
    expect(lee.locator(f"{PANEL} .seek-note")).to_contain_text("You did not answer in time")
    expect(kim.locator(f"{PANEL} .seek-note")).to_have_text(
        "Not everyone accepted in time: you are back at the front of the queue.")
    expect(kim.locator(PANEL)).to_have_attribute("data-phase", "waiting")
    assert page_errors(kim) == page_errors(lee) == []
    kim.context.close()
    lee.context.close()
