"""`dominion seek` as a person runs it (line mode, a real server): it waits, accepts the
table found with another player, and plays the game made, as `dominion play` does;
a rated seek without an account is refused with the server's reason."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import aiohttp

from dominion.clients.net import Client
from dominion.protocol import MatchAccept, MatchFound, MatchReady, Seek

from .serverproc import server_url

__all__ = ["server_url"]


def environment(config: Path) -> dict[str, str]:
    return {**os.environ, "DOMINION_CONFIG_DIR": str(config), "DOMINION_LANG": "en"}


async def bob_seeks(server: str) -> MatchReady:
    """Bob, over the protocol: seeks a 2-player game and accepts what is found."""
    async with aiohttp.ClientSession() as session, Client(server, session=session) as client:
        await client.request(Seek(id=client.next_id(), sizes=(2,), edition=2, rated=False,
                                  name="Bob"))
        while True:
            push = await client.next_push(timeout=30)
            if isinstance(push, MatchFound):
                assert set(push.players) == {"Ann", "Bob"}
                await client.request(MatchAccept(id=client.next_id(), table=push.table))
            elif isinstance(push, MatchReady):
                return push


async def seek_against_bob(server: str, config: Path) -> tuple[str, MatchReady]:
    ann = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dominion.clients.cli", "seek", "--plain", "--server", server,
        "--name", "Ann", "--no-confirm", stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, env=environment(config))
    assert ann.stdin is not None and ann.stdout is not None
    bob = await bob_seeks(server)
    ann.stdin.write(b"quit\n")  # in the game: leave it (a bot plays the seat)
    await ann.stdin.drain()
    output, _ = await asyncio.wait_for(ann.communicate(), 60)
    assert ann.returncode == 0, output.decode()
    return output.decode(), bob


def test_seek_waits_accepts_and_plays_the_game_found(server_url: str, tmp_path: Path) -> None:
    output, bob = asyncio.run(seek_against_bob(server_url, tmp_path))
    assert "Waiting for a game of 2 players…" in output
    assert re.search(r"Found a table: (Ann, Bob|Bob, Ann)\. Accepting\.", output), output
    seat = 1 - bob.seat
    assert f"Game {bob.game}: you are seat {seat}." in output
    assert f"You left {bob.game}." in output, output


def test_a_rated_seek_as_a_guest_is_refused_with_the_reason(server_url: str,
                                                             tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dominion.clients.cli", "seek", "--rated", "--plain",
         "--server", server_url, "--name", "Ann"], capture_output=True, text=True,
        timeout=60, check=False, env=environment(tmp_path))
    assert result.returncode == 1
    assert "(not_signed_in)" in result.stderr, result.stderr
