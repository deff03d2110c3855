"""One process needs no Redis: with the `redis` package made unimportable, a server is
created, takes a table and lists it (the cluster code imports redis only with --redis)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import asyncio, sys
sys.modules["redis"] = None  # import redis now fails
from aiohttp.test_utils import TestClient, TestServer
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings

async def main() -> None:
    async with TestClient(TestServer(create_app(Settings(db=sys.argv[1])))) as client:
        created = await client.post("/api/v1/games", json={"name": "Ann", "seats": 2})
        assert created.status == 201, await created.text()
        game = (await created.json())["game"]["id"]
        listing = await (await client.get("/api/v1/games")).json()
        assert [g["id"] for g in listing["games"]] == [game], listing
        assert "missing_nodes" not in listing
    print("ok")

asyncio.run(main())
"""


@pytest.mark.integration  # a real server or socket
def test_a_single_server_runs_without_the_redis_package(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "games.sqlite3")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr
