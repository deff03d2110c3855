"""Findings 3 and 12: SIGTERM stops the server under any load, and shutting down stops
rooms, bots and timers before the storage closes (in either order of failure)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

import aiohttp

from dominion.protocol import SUBPROTOCOLS, Hello, Join, Resign, Resume, encode_client
from tests.server.test_process import start_server

FLOODERS = 10


async def a_finished_four_player_game(session: aiohttp.ClientSession, url: str) -> str:
    """Ann resigns at once; three bots play the game out (~600 events)."""
    created = await session.post(f"{url}/api/v1/games", json={
        "name": "Ann", "seats": 4, "kingdom": "First Game",
        "bots": {"1": "big_money", "2": "big_money", "3": "big_money"}})
    body = await created.json()
    game, token = body["game"]["id"], body["token"]
    ann = await session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],))
    for frame in (Hello(id=1, versions=[2], client="tests"), Join(id=2, game=game, token=token),
                  Resign(id=3, game=game)):
        await ann.send_bytes(encode_client(frame))
    while (await (await session.get(f"{url}/api/v1/games/{game}")).json())["state"] \
            != "finished":
        await asyncio.sleep(0.1)
    await ann.close()
    return game


async def flood_resumes(session: aiohttp.ClientSession, url: str, game: str) -> None:
    """Send resumes from 0 as fast as the socket takes them, reading nothing."""
    ws = await session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],))
    await ws.send_bytes(encode_client(Hello(id=1, versions=[2], client="flood")))
    request = 2
    with contextlib.suppress(ConnectionError, aiohttp.ClientError):
        while True:
            await ws.send_bytes(encode_client(Resume(id=request, game=game, last_seq=0)))
            request += 1
            if request % 50 == 0:
                await asyncio.sleep(0)


async def test_sigterm_stops_a_server_flooded_with_costly_resumes(tmp_path: Path) -> None:
    # every resume replays the whole game (no cache, no budget): the most work a frame
    # can ask for, queued faster than it is done
    process, url = start_server(
        tmp_path / "games.sqlite3", "--messages-per-second", "1000000", "--burst", "1000000",
        "--work-per-second", "100000000", "--work-burst", "100000000",
        "--resume-cache-events", "1")
    try:
        async with aiohttp.ClientSession() as session:
            game = await a_finished_four_player_game(session, url)
            floods = [asyncio.ensure_future(flood_resumes(session, url, game))
                      for _ in range(FLOODERS)]
            await asyncio.sleep(5)  # the server is far behind by now
            process.send_signal(signal.SIGTERM)
            # within its own shutdown timeout (10 s) and close timeouts (2 s), with room
            # to spare; before the fix it went on with the queued work for 30-60 s more
            assert await asyncio.to_thread(process.wait, 30) == 0
            for flood in floods:
                flood.cancel()
            await asyncio.gather(*floods, return_exceptions=True)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
