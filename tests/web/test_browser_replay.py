"""A replay on a phone in Debian's Chromium (390 × 844): the controls stay compact (one row
of marks named for screen readers, no keyboard hints), at most a quarter of the screen,
and nothing scrolls sideways; the page is titled by its players, day and result. The
server serves the page; the replay and its summary are a game the engine plays here."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Route

from dominion.bots import make_strategy
from dominion.bots.wire import WireDecision
from dominion.server.engine import Game, Setup, decision_view, event_record
from dominion.server.play.bots import seat_table

from .browser import Browser, Page, browser, new_page, page_errors, server_url

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium
GAME = "g-phone"
PHONE = (390, 844)


def played_game() -> Game:
    """Ann and Bob's game to its end, both playing Big Money."""
    game = Game(Setup.create(["Ann", "Bob"], edition=2, kingdom="First Game"), seed=3)
    strategy = make_strategy("big_money", random.Random(3))
    while game.result is None:
        pending = game.pending
        assert pending is not None
        decision = WireDecision.from_map(decision_view(pending, pending.player))
        game.answer(pending.player, pending.id,
                    strategy.choose(decision, seat_table(game, pending.player)))
    return game


def served(page: Page, game: Game) -> None:
    """The page's requests for the game's replay and summary answered with this game."""
    result: dict[str, Any] = game.result.to_dict()  # type: ignore[union-attr]
    seats = [{"seat": 0, "name": "Ann", "account": False},
             {"seat": 1, "name": "Bob", "account": False}]
    replay = {"format": "dominion-replay", "version": 1, "complete": True,
              "game": {"id": GAME, "state": "finished", "edition": 2,
                       "kingdom": list(game.setup.kingdom)},
              "players": seats, "setup": None, "seed": None, "commitment": None,
              "answers": [], "events": [event_record(event) for event in game.events],
              "result": result, "chat": []}
    summary = {"id": GAME, "state": "finished", "edition": 2, "seats": seats,
               "kingdom": list(game.setup.kingdom), "kingdom_name": "First Game",
               "created_at": "2026-12-02T09:00:00Z", "started_at": "2026-12-02T09:00:01Z",
               "finished_at": "2026-12-02T09:20:00Z", "result": result, "rated": False}
    for path, body in ((f"/api/v1/games/{GAME}/replay", replay),
                       (f"/api/v1/games/{GAME}", summary)):
        page.route(f"**{path}", answering(json.dumps(body)))


def answering(body: str) -> Callable[[Route], None]:
    """A route's handler that answers with this JSON."""
    return lambda route: route.fulfill(status=200, content_type="application/json", body=body)


def test_a_replay_on_a_phone_keeps_its_controls_compact(browser: Browser, server_url: str) -> None:
    game = played_game()
    winner = "Ann" if 0 in game.result.winners else "Bob"  # type: ignore[union-attr]
    page = new_page(browser, server_url, size=PHONE)
    served(page, game)
    page.goto(f"{server_url}/#/replay/{GAME}")
    page.wait_for_selector(".replay-controls")
    title = f"Ann vs Bob · 2 Dec 2026 · {winner} won"
    assert page.inner_text(".replay h1") == title
    assert page.title().startswith(title)
    controls = page.locator(".replay-controls")
    box = controls.bounding_box()
    assert box is not None and box["height"] <= 0.25 * PHONE[1], box
    assert not page.locator(".replay-controls .keys").is_visible()
    steps = page.locator(".replay-controls .steps button")
    tops = {round(b["y"]) for b in (steps.nth(i).bounding_box() for i in range(6)) if b}
    assert len(tops) == 1  # one row
    page.get_by_role("button", name="Next turn").click()
    page.wait_for_selector('.replay-controls .turn-now:has-text("turn 1")')
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    assert page_errors(page) == []
