"""Finished rated games reach PostgreSQL's ledger exactly once, whatever fails between:
PostgreSQL stopped while the game ends (the result waits on the node, then applies), and
the node killed with SIGKILL after storing the end and before applying it (the restarted
node applies it, once); and after the store is restored from an older dump, no new
account is given a lost one's games, and `ratings reconcile` hands the lost result on once.
Real server processes, a real PostgreSQL."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from dominion.protocol import Ack, GameOver, Join, Resign
from tests.eventually import eventually
from tests.process_cpu import run
from tests.server.test_process import start_server
from tests.server.wsclient import TestClient

from .postgres import PostgresServer

pytestmark = pytest.mark.slow
PASSWORD = "correct horse battery"
FLAGS = ("--password-time-cost", "1", "--password-memory-kib", "64",
         "--ratings-retry-seconds", "0.2",
         "--rated-min-turns", "0")  # its games are resigned at once: rated all the same


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    # a jar that keeps the session cookie of an IP address (the test server's)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as opened:
        yield opened


async def rated_game(session: aiohttp.ClientSession, url: str,
                     before_it_ends: Callable[[], None]) -> str:
    """Ada registers and creates a rated table with a Big Money bot; `before_it_ends`
    runs; she resigns, and the bots play it to the end. The game's id."""
    async with session.post(f"{url}/api/v1/account/register",
                            json={"name": "Ada", "password": PASSWORD}) as response:
        assert response.status == 201, await response.text()
    async with session.post(f"{url}/api/v1/games", headers={"Origin": url}, json={
            "seats": 2, "rated": True, "bots": {"1": "big_money"}}) as response:
        created: dict[str, Any] = await response.json()
        assert response.status == 201, created
    game: str = created["game"]["id"]
    before_it_ends()
    client = await TestClient.connect(session, f"{url}/api/v1/ws")
    assert isinstance(await client.request(Join, game=game, token=created["token"]), Ack)
    assert isinstance(await client.request(Resign, game=game), Ack)
    while not isinstance(await client.push(30), GameOver):
        pass
    await client.close()
    return game


def outbox(db: Path) -> list[tuple[str, bool]]:
    """The games database's outbox: each game, and whether the ledger has it."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as read:
        rows = read.execute("SELECT game_id, applied_at FROM rating_outbox").fetchall()
    return [(game, applied is not None) for game, applied in rows]


async def ledger(url: str) -> tuple[list[str], list[tuple[str, int]]]:
    """The ledger's games, and each rating's pool and games."""
    db = await asyncpg.connect(url)
    try:
        games = [row[0] for row in await db.fetch("SELECT game_id FROM rating_ledger")]
        rated = [tuple(row) for row in await db.fetch("SELECT pool, games FROM ratings")]
    finally:
        await db.close()
    return games, rated  # type: ignore[return-value]


def stop(process: subprocess.Popen[bytes]) -> None:
    process.kill()  # SIGKILL: nothing is finished on the way out
    process.wait()


async def test_results_wait_while_postgresql_is_down_then_apply_once(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        session: aiohttp.ClientSession) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db, "--accounts-url", postgres_url, *FLAGS)
    try:
        try:
            game = await rated_game(session, url, postgres_server.stop)
            await eventually(lambda: outbox(db) == [(game, False)])  # stored with the end
        finally:
            postgres_server.start()
        await eventually(lambda: outbox(db) == [(game, True)])
        assert await ledger(postgres_url) == ([game], [("2p", 1)])
        async with session.get(f"{url}/api/v1/players/Ada/ratings") as response:
            pools = (await response.json())["pools"]
        assert pools["2p"]["games"] == 1 and pools["2p"]["history"][0]["game"] == game
    finally:
        stop(process)


async def test_a_node_killed_before_the_ledger_has_the_game_applies_it_once_on_restart(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        session: aiohttp.ClientSession) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db, "--accounts-url", postgres_url, *FLAGS)
    try:
        game = await rated_game(session, url, postgres_server.stop)
        await eventually(lambda: outbox(db) == [(game, False)])
        stop(process)  # the end is stored; the ledger never heard of it
    finally:
        postgres_server.start()
        if process.poll() is None:
            stop(process)
    for _ in range(2):  # restarted: applied once; restarted again: nothing more
        process, url = start_server(db, "--accounts-url", postgres_url, *FLAGS)
        try:
            await eventually(lambda: outbox(db) == [(game, True)])
            assert await ledger(postgres_url) == ([game], [("2p", 1)])
        finally:
            stop(process)


async def register(url: str, name: str) -> None:
    async with aiohttp.ClientSession() as alone, alone.post(
            f"{url}/api/v1/account/register",
            json={"name": name, "password": PASSWORD}) as response:
        assert response.status == 201, await response.text()


def reconcile(db: Path, url: str) -> list[str]:
    """`dominion-server ratings reconcile` as the host runs it, beside the running node."""
    done = run([sys.executable, "-m", "dominion.server.main", "ratings", "reconcile",
                "--db", str(db), "--accounts-url", url], cpu_limit=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


async def test_after_an_accounts_restore_no_one_gets_a_lost_accounts_games_or_results(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        session: aiohttp.ClientSession) -> None:
    db = tmp_path / "games.sqlite3"
    database = postgres_url.rsplit("/", 1)[1]
    process, url = start_server(db, "--accounts-url", postgres_url, *FLAGS)
    try:
        await register(url, "Cid")
        dump = postgres_server.dump(database)
        game = await rated_game(session, url, lambda: None)  # Ada, after the dump
        await eventually(lambda: outbox(db) == [(game, True)])
    finally:
        stop(process)
    postgres_server.restore(database, dump)  # Ada and her result are gone from the store
    process, url = start_server(db, "--accounts-url", postgres_url, *FLAGS)
    try:
        await register(url, "Bea")
        async with session.get(f"{url}/api/v1/players/Bea/games") as response:
            assert (await response.json())["games"] == []  # not Ada's
        assert await ledger(postgres_url) == ([], [])
        assert reconcile(db, postgres_url)[-1] == (
            "1 rated game on this node, 1 handed on; 0 records lost (0 newly marked)")
        assert reconcile(db, postgres_url)[-1] == (
            "1 rated game on this node, 0 handed on; 0 records lost (0 newly marked)")
        assert await ledger(postgres_url) == ([game], [("2p", 1)])
    finally:
        stop(process)
