"""What a node makes of another node's answers on the private routes: an answer it
cannot read is a node that did not answer (the listing says so), never a failure of the
request that asked."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from dominion.server.cluster.redis_directory import RedisDirectory
from dominion.server.settings import Settings


@pytest.mark.integration  # a real server or socket
async def test_a_peer_answer_that_is_not_json_counts_as_no_answer() -> None:
    async def garbled(request: web.Request) -> web.Response:
        return web.Response(text="<html>a proxy's page</html>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/api/v1/node/games", garbled)
    settings = Settings(node="a", redis="redis://127.0.0.1:9/0", node_url="http://a")
    directory = RedisDirectory(settings, lobby=None, storage=None,  # type: ignore[arg-type]
                               connections=[])
    async with TestServer(app) as peer:
        directory.peers = {"b": str(peer.make_url("")).rstrip("/")}
        directory._peer_key = "key"
        async with aiohttp.ClientSession() as http:
            directory._http = http
            part: Any = await directory._part("b", {"limit": 5})
    assert part is None


async def test_an_export_says_in_the_log_which_replays_a_lost_peer_took_with_it(
        caplog: Any) -> None:
    """A node that leaves the peers after the export began cannot be named in its header:
    its replays are left out, and the log says which (docs/REPLAYS.md)."""
    settings = Settings(node="a", redis="redis://127.0.0.1:9/0", node_url="http://a")
    directory = RedisDirectory(settings, lobby=None, storage=None,  # type: ignore[arg-type]
                               connections=[])
    directory.peers = {}  # node b is gone

    async def pay(work: int) -> None:
        raise AssertionError("nothing was handed over, so nothing is paid for")

    with caplog.at_level("WARNING", logger="dominion.cluster"):
        lines = [line async for line in directory._fetch_replays([("g-b-0123456789ab", "b")],
                                                                 pay)]
    assert lines == []
    assert any("g-b-0123456789ab" in r.getMessage() and "node b" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
