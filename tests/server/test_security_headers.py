"""Every response says `X-Content-Type-Options: nosniff` (JSON answers, errors, replay
downloads, the web client's files, metrics, refused upgrades), and replay downloads carry
a Content-Security-Policy that lets nothing in them run, over a real server."""

from __future__ import annotations

import re

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOL

from .wsplay import ServerFactory, Site, ws_server

__all__ = ["ws_server"]

NOSNIFF = ("X-Content-Type-Options", "nosniff")
DOWNLOAD_POLICY = "default-src 'none'; sandbox"


async def finished_game(site: Site) -> str:
    game, _ = await site.create(seats=2, bots={1: "big_money"})
    await site.room(game).resign(0)
    return game


async def test_every_kind_of_answer_says_nosniff(ws_server: ServerFactory) -> None:
    site = await ws_server(allowed_origins=("https://play.example",))
    game = await finished_game(site)
    answers: dict[str, aiohttp.ClientResponse] = {}
    for path, status in [
        ("/api/v1/server", 200), ("/api/v1/games", 200), (f"/api/v1/games/{game}", 200),
        ("/api/v1/openapi.json", 200), ("/api/v1/protocol/schema.json", 200),
        ("/api/v1/games/g-nothing", 404), ("/api/v1/games?limit=x", 400),
        ("/nothing/here", 404), ("/healthz", 200), ("/metrics", 200), ("/", 200),
        (f"/api/v1/games/{game}/replay", 200), ("/api/v1/replays/export", 200),
    ]:
        response = answers[path] = await site.session.get(site.url(path))
        assert response.status == status, (path, await response.text())
    page = await answers["/"].text()
    for asset in re.findall(r'(?:src|href)="(/web/[^"]+)"', page):
        answers[asset] = await site.session.get(site.url(asset))
    answers["POST not JSON"] = await site.session.post(site.url("/api/v1/games"), data=b"x")
    answers["DELETE /healthz"] = await site.session.delete(site.url("/healthz"))
    for what, response in answers.items():
        assert response.headers.get(NOSNIFF[0]) == NOSNIFF[1], what
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                      headers={"Origin": "https://evil.example"})
    assert refused.value.status == 403
    assert refused.value.headers is not None
    assert refused.value.headers.get(NOSNIFF[0]) == NOSNIFF[1]


@pytest.mark.parametrize("kind", ["json", "msgpack", "text"])
async def test_a_replay_download_runs_nothing(ws_server: ServerFactory, kind: str) -> None:
    site = await ws_server()
    game = await finished_game(site)
    response = await site.session.get(site.url(f"/api/v1/games/{game}/replay"),
                                      params={"format": kind})
    assert response.status == 200
    assert response.headers["Content-Security-Policy"] == DOWNLOAD_POLICY
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert response.headers[NOSNIFF[0]] == NOSNIFF[1]


async def test_the_export_runs_nothing(ws_server: ServerFactory) -> None:
    site = await ws_server()
    await finished_game(site)
    response = await site.session.get(site.url("/api/v1/replays/export"))
    assert response.status == 200 and (await response.text()).count("\n") == 1
    assert response.headers["Content-Security-Policy"] == DOWNLOAD_POLICY
    assert response.headers[NOSNIFF[0]] == NOSNIFF[1]
