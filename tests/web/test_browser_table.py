"""Several people at one table, each in their own browser: three seats (two pages and a
bot), a page reloaded mid-game, a server that goes away and comes back, and a spectator
who never learns a hidden card (checked in the page and in every WebSocket frame it got)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import (
    Browser,
    Page,
    browser,
    create_table,
    expect,
    new_page,
    page_errors,
    play_together,
    screenshot,
    start_again,
)

__all__ = ["browser"]  # a fixture
PRIVATE_KEYS = {"hand", "deck_size", "looking", "options", "min", "max", "ordered"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    running = {"process": process, "url": url, "db": db, "port": int(url.rsplit(":", 1)[1])}
    yield running
    stop(running["process"])


def spectator_frames(page: Page) -> list[dict[str, Any]]:
    """Every frame the page receives on its WebSockets, decoded."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(
            msgpack.unpackb(payload if isinstance(payload, bytes) else payload.encode())))

    page.on("websocket", on_socket)
    return frames


def hand_of(page: Page) -> list[str]:
    return sorted(page.locator(".hand [data-card]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.card)"))


def hidden_events(replay: dict[str, Any]) -> list[int]:
    """The numbers (from 1) of the events whose cards a spectator may not see."""
    return [n for n, event in enumerate(replay["events"], 1) if "secrecy" in event]


def test_three_seats_two_pages_a_bot_a_reload_a_restart_and_a_spectator(
        browser: Browser, server: dict[str, Any]) -> None:
    url = server["url"]
    ann = new_page(browser, url)
    game = create_table(ann, "Ann", seats=3, kingdom="Size Distortion",
                        bots={1: "big_money", 2: ""})
    ann.wait_for_selector(".waiting input[readonly]")
    link = ann.locator(".waiting input[readonly]").input_value()
    assert link.endswith(f"/#/game/{game}")

    # Bea follows the shared link and joins with her name; the game starts
    bea = new_page(browser, link)
    bea.fill(".join input[name=name]", "Bea")
    bea.click(".join button[type=submit]")
    bea.wait_for_selector("#decision")
    watcher = new_page(browser, "about:blank")
    frames = spectator_frames(watcher)
    watcher.goto(f"{url}/#/watch/{game}")
    watcher.wait_for_selector("#decision")

    play_together([ann, bea], answers=12)

    # Bea reloads: the same seat and hand, resumed from the start of the game's events
    before = hand_of(bea)
    bea.reload()
    bea.wait_for_selector(".mine")  # (the hand may be empty: Treasures all played)
    assert hand_of(bea) == before
    assert "Bea (you)" in bea.locator(".players").inner_text()
    # (the log is drawn a frame after the board)
    expect(bea.locator(".log-lines li").filter(has_text="The game starts")).to_have_count(1)

    # the server goes away: every page says it is reconnecting, then goes on where it was
    stop(server["process"])
    for page in (ann, bea, watcher):
        page.wait_for_selector('#status:has-text("reconnecting")')
    server["process"] = start_again(server["db"], server["port"])
    for page in (ann, bea, watcher):
        page.wait_for_selector("#status", state="hidden")
    play_together([ann, bea], answers=6)
    # then both people resign (the other half of the game is the bot test's): it ends
    for page in (bea, ann):
        page.click('[data-key="resign"]')
        page.click('[data-key="resign-sure"]')
        page.wait_for_selector('.log-lines li:has-text("resigns")')
    for page in (ann, bea, watcher):
        page.wait_for_selector("#end")
        assert page_errors(page) == []

    # the spectator's page never showed a hand, an option or a private count
    assert watcher.locator(".hand, .mine, #decision .option, .card[data-option]").count() == 0
    hands = watcher.locator(".players .chip .hand-size b").all_inner_texts()
    assert len(hands) == 3 and all(hand.isdigit() for hand in hands), hands
    # ... and no frame it received held a hidden card (docs/RULES.md, hidden information)
    with urllib.request.urlopen(f"{url}/api/v1/games/{game}/replay") as response:
        replay = json.load(response)
    hidden = set(hidden_events(replay))
    assert hidden
    events: dict[int, dict[str, Any]] = {}
    for frame in frames:
        for key in ("view", "decision"):
            payload = frame.get(key) or {}
            assert not PRIVATE_KEYS & set(payload), frame
            for player in payload.get("players", []):
                assert not PRIVATE_KEYS & set(player), frame
        if frame.get("type") == "update":
            first = frame["seq"] - len(frame["events"]) + 1
            events.update(enumerate(frame["events"], first))
    assert hidden & set(events)
    for number in hidden & set(events):
        assert "cards" not in events[number], (number, events[number])
    screenshot(watcher, "spectator")
