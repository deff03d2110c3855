"""A bot account plays a whole game: its owner registers, makes the account a bot
account and gives it a bot:play token; the minimal bot of docs/CLIENTS.md, given only that
token (in $DOMINION_TOKEN), takes a free seat as the account and plays to the end."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from typing import Any

import aiohttp

from dominion.clients.lobby import Lobby
from dominion.clients.network_bot import play_seat

from .serverproc import server_url

__all__ = ["server_url"]


async def bot_account_token(server_url: str, name: str) -> str:
    """Register `name`, make it a bot account, and create it a bot:play token."""
    # the server's own page's Origin: without it the session cookie would not count
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": server_url}) as owner:
        async def call(method: str, path: str, expect: int, **body: Any) -> Any:
            async with owner.request(method, f"{server_url}/api/v1{path}",
                                     json=body or None) as response:
                answer = await response.json()
                assert response.status == expect, answer
                return answer
        await call("POST", "/account/register", 201, name=name,
                   password="correct horse battery")
        await call("POST", "/account/bot", 200)
        created = await call("POST", "/account/tokens", 201, description="minimal bot",
                             scopes=["bot:play"])
    secret: str = created["token"]["secret"]
    return secret


async def test_the_minimal_bot_plays_a_game_as_a_bot_account(server_url: str) -> None:
    token = await bot_account_token(server_url, "Robo")
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(server_url, session)
        created = await lobby.create("Ann", 2)
        game, ann = created["game"]["id"], created["token"]
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "dominion.clients.examples.minimal_bot", server_url, game,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "DOMINION_TOKEN": token})
        result = await asyncio.wait_for(play_seat(server_url, game, ann, "big_money"), 60)
        out, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, err.decode()
        assert out.decode().strip() == f"scores {result['scores']}, winners {result['winners']}"
        seats = (await lobby.game(game))["seats"]
    assert [(seat["name"], seat["bot_account"]) for seat in seats] == [
        ("Ann", False), ("Robo", True)]
    assert token not in out.decode() + err.decode()
