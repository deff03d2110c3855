"""The web client's files as the server hands them out (server/edge/api/web.py): the page at /,
its assets under a digest with long caching, a strict CSP, and the page's own WebSocket
allowed while other sites' pages stay subject to the Origin allow-list."""

from __future__ import annotations

import gzip
import re

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOL, Hello, Welcome

from .wsclient import TestClient
from .wsplay import ServerFactory, ws_server

__all__ = ["ws_server"]


async def test_the_page_and_its_files_with_caching_and_csp(ws_server: ServerFactory) -> None:
    site = await ws_server()
    base = site.server.make_url("/")
    page = await site.session.get(base)
    html = await page.text()
    assert page.status == 200 and page.content_type == "text/html"
    assert page.headers["Cache-Control"] == "no-cache"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe" not in policy
    again = await site.session.get(base, headers={"If-None-Match": page.headers["ETag"]})
    assert again.status == 304
    assets = re.findall(r'(?:src|href)="(/web/[^"]+)"', html)
    # the style sheets (app.css, then css/*.css) and the main script
    assert assets[0].endswith("/app.css") and assets[-1].endswith("/js/main.js")
    for path in assets:
        asset = await site.session.get(site.server.make_url(path))
        assert asset.status == 200
        assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert asset.headers["X-Content-Type-Options"] == "nosniff"
        assert asset.content_type in ("text/css", "text/javascript")
    digest = assets[0].split("/")[2]
    for path in (f"/web/{'0' * 16}/app.css",  # an old version's address
                 f"/web/{digest}/nothing.js", f"/web/{digest}/../app.py"):
        assert (await site.session.get(site.server.make_url(path))).status == 404
    licence = await site.session.get(
        site.server.make_url(f"/web/{digest}/vendor/msgpack/LICENSE.txt"))
    assert licence.status == 200 and "MessagePack" in await licence.text()


async def test_text_files_go_out_gzipped_to_browsers_that_take_gzip(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    base = site.server.make_url("/")
    html = await (await site.session.get(base)).text()
    script = site.server.make_url(re.findall(r'src="(/web/[^"]+)"', html)[0])
    for url in (base, script):
        # auto_decompress off: the bytes as they travel
        for accept, packed in (("gzip, deflate", True), ("br;q=1, gzip;q=0.5", True),
                               ("gzip;q=0", False), ("identity", False), ("", False)):
            async with site.session.get(url, headers={"Accept-Encoding": accept},
                                        auto_decompress=False) as response:
                raw = await response.read()
                assert response.headers["Vary"] == "Accept-Encoding"
                assert response.headers.get("Content-Encoding") == ("gzip" if packed else None)
                body = gzip.decompress(raw) if packed else raw
                assert (body.decode().startswith("<!doctype html>") if url == base
                        else b"import" in body)
                if packed:
                    assert len(raw) < len(body)


@pytest.mark.parametrize("allowed", [(), ("https://play.example",)])
async def test_the_pages_own_websocket_is_allowed_and_other_sites_are_not(
        ws_server: ServerFactory, allowed: tuple[str, ...]) -> None:
    site = await ws_server(allowed_origins=allowed)
    host = site.server.make_url("/").authority
    for origin in (f"http://{host}", f"http://{host.upper()}"):
        ws = await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                           headers={"Origin": origin})
        client = TestClient(ws)
        assert isinstance(await client.request(Hello, versions=[2]), Welcome)
        await client.close()
    for origin in ("https://evil.example", f"http://{host}.evil.example", "null",
                   f"ftp://{host}"):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                          headers={"Origin": origin})
        assert refused.value.status == 403, origin
