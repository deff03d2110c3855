"""The lobby's tests' games file: SQLite in the test's own folder (no server, no socket)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dominion.server.storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = Storage.open(tmp_path / "games.sqlite3", synchronous="NORMAL")
    await opened.start()
    yield opened
    await opened.close()
