"""The REST fixture of the adversarial tests: a real app on a test server, every answer
checked against the OpenAPI document (`tests/server/restapi.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from dominion.server.app import create_app
from dominion.server.settings import Settings
from tests.server.restapi import Api

MakeApi = Callable[..., Awaitable[Api]]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "x.sqlite3")


@pytest.fixture
def make_api(aiohttp_client: Any, db: str) -> MakeApi:
    async def make(**settings: Any) -> Api:
        return Api(await aiohttp_client(create_app(Settings(db=db, **settings))))

    return make


@pytest.fixture
async def api(make_api: MakeApi) -> Api:
    return await make_api()
