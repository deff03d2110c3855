"""The `storage` fixture: a games file (SQLite) in the test's own folder, started and
closed around the test, for tests of what the server stores with no server and no socket
(a plugin of tests/conftest.py, so every folder's tests share one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dominion.server.storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = Storage.open(tmp_path / "games.sqlite3", synchronous="NORMAL")
    await opened.start()
    try:
        yield opened
    finally:
        await opened.close()
