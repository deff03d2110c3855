"""A worker starts Chromium once (tests/web/conftest.py) and lends it to each module of
browser tests; the asyncio tests it runs in between still start loops of their own."""

from __future__ import annotations

import asyncio

from .browser import Browser, browser, new_page

__all__ = ["browser"]  # a fixture


def test_an_asyncio_loop_runs_while_the_workers_chromium_waits(worker_chromium: Browser) -> None:
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"
    assert worker_chromium.is_connected()


def test_a_module_borrows_the_workers_chromium(browser: Browser, worker_chromium: Browser) -> None:
    assert browser is worker_chromium
    page = new_page(browser, "about:blank")
    assert page.evaluate("1 + 1") == 2
    page.context.close()
