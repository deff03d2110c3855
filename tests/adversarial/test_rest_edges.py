"""Finding 8: queries at the edges of their types, and requests no route takes, are
refused with the documented JSON error, never a 500 or a bare text body."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.server.restapi import Api
from tests.server.test_rest import api, db, make_api

__all__ = ["api", "db", "make_api"]


@pytest.mark.parametrize("query", [
    "/api/v1/games?offset=9223372036854775808",
    "/api/v1/replays/export?offset=9223372036854775808",
    "/api/v1/games?offset=2147483648",
    "/api/v1/games?since=0001-01-01T00:00:00%2B01:00",
    "/api/v1/games?until=9999-12-31T23:59:59-01:00",
    "/api/v1/replays/export?since=0001-01-01T00:00:00%2B01:00",
])
async def test_values_past_their_types_ends_are_bad_requests(api: Api, query: str) -> None:
    body = await api.call("GET", query, 400)
    assert body["error"]["code"] in ("bad_paging", "bad_filter")


async def test_the_largest_offset_is_taken(api: Api) -> None:
    assert (await api.listing("?offset=2147483647"))["games"] == []


async def raw_http(api: Api, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send bytes as they are; the status line, headers and body of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", api.client.port)
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    writer.close()
    return status, headers, body


@pytest.mark.parametrize(("request_line", "status"), [
    (b"CONNECT /api/v1/games HTTP/1.1", 404),
    (b"CONNECT example.org:443 HTTP/1.1", 404),
    (b"GET /not/the/api HTTP/1.1", 404),
    (b"POST /healthz HTTP/1.1", 405),
    (b"PATCH /metrics HTTP/1.1", 405),
])
async def test_requests_no_route_takes_get_the_json_error_shape(
        api: Api, request_line: bytes, status: int) -> None:
    line, headers, body = await raw_http(
        api, request_line + b"\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
    assert line.split()[1] == str(status)
    assert headers["content-type"].startswith("application/json")
    assert set(json.loads(body)) == {"error"}
    if status == 405:
        assert headers["allow"]


async def test_a_head_request_for_the_export_gets_no_body(api: Api) -> None:
    """(Found by the long REST fuzz: the export streamed its replays after the headers of
    a HEAD response, and the client read them as the next response on the connection.)"""
    for _ in range(2):  # finished games to export
        created = await api.create(name="Ann", seats=2, bots={"1": "big_money"})
        game = created["game"]["id"]
        room = api.state.lobby.room(game)
        await room.resign(0)
    reader, writer = await asyncio.open_connection("127.0.0.1", api.client.port)
    writer.write(b"HEAD /api/v1/replays/export HTTP/1.1\r\nHost: localhost\r\n\r\n"
                 b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    following = await reader.readuntil(b"\r\n\r\n")  # the next response, nothing between
    assert following.startswith(b"HTTP/1.1 200"), following[:80]
    writer.close()
