"""The table's clocks in Debian's Chromium. The first test plays against a real server and
gives the page clocks in its frames (the socket routed through the test, which adds
`clocks` to every snapshot and update, as the protocol has them): each player's time
beside their name, yours counting down while you decide, the warning under 30 s and under
10 s (a mark, words for screen readers, said once each), its pulse still when motion is
unwanted, and the timer gone with the page. The second needs a server that keeps clocks
(docs/PROTOCOL.md, `time_control`): a table created with one shows it at the table and in
the lobby."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from playwright.sync_api import WebSocketRoute, expect

from .browser import Browser, Page, act, browser, create_table, my_turn, new_page, server_url
from .measures import axe_violations

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium

BOT_MS = 300_000
"""The bot's clock in the frames given: 05:00, never running out."""
TICKS = """(() => {
  const ticking = new Set();
  window.clockTimers = ticking;
  const set = window.setInterval;
  const clear = window.clearInterval;
  window.setInterval = (...args) => {
    const id = set(...args);
    if (args[1] === 250) ticking.add(id);
    return id;
  };
  window.clearInterval = (id) => {
    ticking.delete(id);
    clear(id);
  };
})();"""
"""The page's clock timers (those of 250 ms) that run: counted in the page."""


def giving_clocks(mine: Callable[[], int]) -> Callable[[WebSocketRoute], None]:
    """Route a socket to the server, adding to each of its snapshots and updates the
    clocks of a 2-player table: `mine()` ms left for seat 0 (the page's), the bot's 05:00,
    the clock of whoever decides running."""
    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if isinstance(message, bytes):
                frame: dict[str, Any] = msgpack.unpackb(message, strict_map_key=False)
                if frame.get("type") in ("snapshot", "update"):
                    decision = (frame["view"]["decision"] if frame["type"] == "snapshot"
                                else frame.get("decision"))
                    frame["clocks"] = {
                        "remaining_ms": [mine(), BOT_MS],
                        "running": decision["player"] if decision else None,
                        "initial_ms": 600_000, "increment_ms": 5_000}
                    message = msgpack.packb(frame)
            socket.send(message)

        server.on_message(from_server)
    return route


def animation(page: Page, selector: str) -> str:
    name: str = page.eval_on_selector(selector, "node => getComputedStyle(node).animationName")
    return name


def test_clocks_count_down_and_warn_you_in_time(browser: Browser, server_url: str) -> None:
    page = new_page(browser, "about:blank")
    page.add_init_script(TICKS)
    left = {"ms": 31_000}
    page.route_web_socket(re.compile(r"/api/v1/ws"), giving_clocks(lambda: left["ms"]))
    page.goto(server_url)
    create_table(page, "Ann")
    assert my_turn(page)
    mine = page.locator('.chip[data-seat="0"] .clock')
    bots = page.locator('.chip[data-seat="1"] .clock')
    said = page.locator(".clock-said")
    # the bot's clock stands while you decide; yours runs, and warns under 30 s
    expect(bots).to_have_text("Time left: 05:00")
    expect(bots).not_to_have_class(re.compile(r"running"))
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(mine).to_have_class(re.compile(r"\blow\b"))
    expect(mine).to_contain_text("⚠ low time: 00:2")
    expect(said).to_have_text("30 seconds left")
    assert not axe_violations(page), axe_violations(page)  # its colours among them
    # under 10 s: said again, and pulsing, unless motion is unwanted
    left["ms"] = 10_400
    act(page)  # frames come, and the next decision of yours starts from 10.4 s
    expect(mine).to_have_class(re.compile(r"\bcritical\b"))
    expect(mine).to_contain_text("⚠ low time: 00:0")
    expect(said).to_have_text("10 seconds left")
    assert animation(page, ".clock.critical") == "clock-pulse"
    page.emulate_media(reduced_motion="reduce")
    assert animation(page, ".clock.critical") == "none"
    assert not axe_violations(page), axe_violations(page)
    # the one clock timer goes with the page
    assert page.evaluate("window.clockTimers.size") == 1
    page.evaluate("window.location.hash = '#/'")
    page.wait_for_selector("form.create")
    assert page.evaluate("window.clockTimers.size") == 0


@pytest.mark.system
def test_a_table_created_with_a_time_control_shows_it(browser: Browser, server_url: str) -> None:
    """Needs the server's clocks (a table's `time_control`, frames' `clocks`)."""
    page = new_page(browser, server_url)
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=time-control]", "3+2")
    create_table(page, "Ann")
    expect(page.locator('.chip[data-seat="0"] .clock')).to_contain_text(re.compile(r"0[23]:\d\d"))
    expect(page.locator('.chip[data-seat="1"] .clock')).to_contain_text(re.compile(r"0[23]:\d\d"))
    lobby = new_page(browser, server_url)
    expect(lobby.locator(".game-row").filter(has_text="Clock 3+2").first).to_be_visible()
