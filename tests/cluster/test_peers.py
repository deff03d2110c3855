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
    directory = RedisDirectory(settings, lobby=None, archive=None,  # type: ignore[arg-type]
                               connections=[])
    async with TestServer(app) as peer:
        directory.peers = {"b": str(peer.make_url("")).rstrip("/")}
        directory._peer_key = "key"
        async with aiohttp.ClientSession() as http:
            directory._http = http
            part: Any = await directory._part("b", {"limit": 5})
    assert part is None

