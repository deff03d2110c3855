"""Debian's Chromium, driven headless by Playwright, against a real `dominion-server`
process; and a person's way of playing: clicking what the page offers.

No browser is downloaded: Playwright starts /usr/bin/chromium (.ci/run installs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server
from tests.tiers import Tier, starts

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""No sandbox (the tests run as root); nothing that reaches out to the internet."""
WAIT_MS = 20_000
"""How long a step may wait for the server (a failing test, not a slow one, waits this long)."""

pytest.importorskip("playwright.sync_api",
                    reason="playwright is not installed (pip install -e '.[dev]')")
from playwright import sync_api  # noqa: E402  (after the skip: its types for mypy)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)",
                allow_module_level=True)

Page = sync_api.Page
Browser = sync_api.Browser
Locator = sync_api.Locator
expect = sync_api.expect
"""Waits for what a page shows: it draws on the next animation frame, not during a click."""
expect.set_options(timeout=WAIT_MS)  # as long as the page's own waits (its 5 s default
# failed a page a busy machine drew late)


def screenshot_folder() -> Path | None:
    """Where the tests leave their screenshots: $DOMINION_SCREENSHOTS (docs/screenshots
    refreshes the ones the docs show), or nowhere."""
    folder = os.environ.get("DOMINION_SCREENSHOTS")
    return Path(folder) if folder else None


def screenshot(page: Page, name: str) -> None:
    folder = screenshot_folder()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@contextlib.contextmanager
def running_chromium() -> Iterator[Browser]:
    """Chromium, started once for a worker's browser tests (tests/web/conftest.py). Between
    its calls Playwright's sync API leaves its own event loop marked as running in this
    thread; that is set aside here and put back only while a module's tests use the
    browser (`browser`), so the asyncio tests the worker runs meanwhile start loops of
    their own."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS,
                                              headless=True)
        with playwright_loop_set_aside() as loop:
            launched.playwright_loop = loop  # type: ignore[attr-defined]
            yield launched
        launched.close()


@contextlib.contextmanager
def playwright_loop_set_aside() -> Iterator[asyncio.AbstractEventLoop | None]:
    """No loop marked as running in this thread until the end: the one that was, if any."""
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield loop
    finally:
        asyncio._set_running_loop(loop)


SERVER_ARGUMENTS = (
    "--rated-min-turns", "0",  # the pages' rated games are resigned at once (rated.py)
    "--bot-workers", "0",
    "--password-time-cost", "1", "--password-memory-kib", "64",
)
"""The pages' server: its strong bot thinks in its event loop, not in a worker process
(tests/server/test_bot_workers.py tests those): at a load of 30, a worker's start outlasted
the 30 s a decision may take, was started again, and the page waited past its 20 s for
the bot (every strong bot's game of the web tests failed so); passwords hashed cheaply."""


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server for a module's pages."""
    db = tmp_path_factory.mktemp("server") / "games.sqlite3"
    process, url = start_server(db, *SERVER_ARGUMENTS)
    yield url
    stop(process)


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)
def browser(worker_chromium: Browser) -> Iterator[Browser]:
    """The worker's Chromium for a module's tests; the pages they opened close at the
    module's end, with the servers they show."""
    asyncio._set_running_loop(worker_chromium.playwright_loop)  # type: ignore[attr-defined]
    try:
        yield worker_chromium
        for context in worker_chromium.contexts:
            context.close()
    finally:
        asyncio._set_running_loop(None)


def new_page(browser: Browser, url: str, *, locale: str = "en-GB",
             size: tuple[int, int] = (1280, 900), test_certificate: bool = False,
             touch: bool = False) -> Page:
    """A page in a fresh profile of its own (its own storage, as another person's);
    `test_certificate`: it trusts the self-signed certificate of a test's nginx; `touch`:
    a phone's touch screen (taps, and `(pointer: coarse)`)."""
    context = browser.new_context(locale=locale, viewport={"width": size[0], "height": size[1]},
                                  user_agent=None, ignore_https_errors=test_certificate,
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    return page


def page_errors(page: Page) -> list[str]:
    return list(page.errors)  # type: ignore[attr-defined]


def more_options(page: Page) -> None:
    """Open the lobby's "More options" (the whole table's form), shut on a phone."""
    page.wait_for_selector("form.create")
    if page.locator("form.create details.more-options[open]").count() == 0:
        page.click("form.create details.more-options > summary")


def create_table(page: Page, name: str, *, seats: int = 2, kingdom: str = "First Game",
                 bots: dict[int, str] | None = None, pace: str = "instant",
                 tap: bool = False) -> str:
    """Fill in the lobby's form and create the table; return its id. Its bots answer at
    `pace`: at once unless a test watches them (the form's own choice is the server's);
    `tap`: "Create" is tapped with a finger (a `touch` page), not clicked."""
    more_options(page)
    if page.get_attribute("form.create input[name=name]", "readonly") is None:
        page.fill("form.create input[name=name]", name)  # (signed in: the account's name)
    page.select_option("form.create select[name=seats]", str(seats))
    page.select_option("form.create select[name=kingdom]", kingdom)
    for seat in range(1, seats):
        strategy = (bots or {1: "big_money"}).get(seat, "")
        page.select_option(f"form.create select[name=seat-{seat}]", strategy)
    page.select_option("form.create select[name=bot-pace]", pace)
    (page.tap if tap else page.click)("form.create button[type=submit]")
    page.wait_for_url("**/#/game/*")
    return page.url.rsplit("/", 1)[1]


ASKING = '#decision[data-mine="yes"][data-ready="yes"]'
"""A decision the page waits on its person for: one of theirs with no answer on its way
(by a click, or by the page itself when the answer is forced)."""


def my_turn(page: Page, after: str | None = None) -> bool:
    """Wait until the page asks its person a decision other than `after`, or the end;
    True for a decision, False once the game is over."""
    unseen = f':not([data-decision="{after}"])' if after is not None else ""
    page.wait_for_selector(f"{ASKING}{unseen}, #end")
    return page.locator("#end").count() == 0


def asking(page: Page) -> str | None:
    """The id of the decision the page waits on its person for, if any (read in one go:
    the page may change between two reads)."""
    decision: str | None = page.evaluate(
        "selector => document.querySelector(selector)?.dataset.decision ?? null", ASKING)
    return decision


def decision_id(page: Page) -> str:
    return page.get_attribute("#decision", "data-decision") or ""


PREFERRED_BUYS = ("province", "gold", "sentry", "silver")


def act(page: Page, buys: tuple[str, ...] = PREFERRED_BUYS) -> str:
    """Answer the page's decision as a simple Big Money player would, by clicking cards
    and the bar's buttons; return what was clicked. Actions are played (a card of the hand
    offered to play); Sentry keeps its cards (and orders them)."""
    decision = page.locator("#decision")
    for selector in ('.hand [data-kind="play"]', '#decision [data-kind="play_all_treasures"]'):
        button = page.locator(selector)
        if button.count():
            button.first.click()
            return selector
    for card in buys:
        pile = page.locator(f'.pile.can-buy [data-card="{card}"]')
        if pile.count():
            pile.first.click()
            return f"buy {card}"
    for selector in ('[data-kind="end_phase"]', '[data-kind="keep"]', '[data-kind="no"]'):
        button = decision.locator(selector)
        if button.count():
            button.first.click()
            return selector
    confirm = decision.locator('[data-key="confirm"]')
    # what a decision of several may pick: cards of the hand, or the bar's options
    options = page.locator('.hand [data-option], #decision [data-option]')
    if confirm.count():
        index = 0
        while confirm.is_disabled():
            key = options.nth(index).get_attribute("data-key")
            options.nth(index).click()
            # drawn on the next animation frame: the pick is marked before confirm is read
            page.locator(f'.picked[data-key="{key}"]').wait_for()
            index += 1
        confirm.click()
        return "confirm"
    offered = page.locator('#decision .option, .card[data-option]')
    offered.first.click()
    return "first option"


def play_together(pages: list[Page], answers: int | None = None) -> None:
    """Several people at one table, each answering on their own page when it asks them:
    until the game has ended, or until `answers` answers have been given and the table is
    still (a person is asked, and every page shows that decision)."""
    last: dict[int, str] = {}
    given = 0
    deadline = time.monotonic() + WAIT_MS / 1000 * 6
    while time.monotonic() < deadline:
        if all(page.locator("#end").count() for page in pages):
            return
        moved = False
        for page in pages:
            current = asking(page)
            if current is None or last.get(id(page)) == current:
                continue  # not asked, or its answer is on its way
            if answers is not None and given >= answers:
                if all(decision_id(other) == current for other in pages):
                    return
                continue
            last[id(page)] = current
            act(page)
            given += 1
            moved = True
        if not moved:
            pages[0].wait_for_timeout(20)
    raise AssertionError("the players got stuck")


def start_again(db: Path, port: int) -> subprocess.Popen[bytes]:
    """Start the server again on the port and file it had (after `stop`, as after a crash)."""
    again = subprocess.Popen(
        [sys.executable, "-m", "dominion.server.main", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return again
        time.sleep(0.05)
    raise AssertionError("the server did not start again")


__all__ = ["WAIT_MS", "Browser", "Page", "act", "asking", "browser", "create_table", "decision_id",
           "expect", "more_options", "my_turn", "new_page", "page_errors", "play_together",
           "screenshot", "server_url", "start_again", "stop"]
