"""One Chromium a worker: starting it (and Playwright's driver) for each module of browser
tests cost more than most of their tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.tiers import Tier, starts

if TYPE_CHECKING:
    from .browser import Browser


@pytest.fixture(scope="session")
@starts(Tier.SYSTEM)
def worker_chromium() -> Iterator[Browser]:
    """The worker's Chromium (tests/web/browser.py `browser` lends it to a module)."""
    from .browser import running_chromium  # it skips where Chromium or Playwright is missing

    with running_chromium() as launched:
        yield launched
