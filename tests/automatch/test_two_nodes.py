"""200 simulated players queue over two real nodes sharing a real redis-server: spread
ratings, mixed table sizes, half on each node. Every one is seated exactly once, at a
table that keeps the window rule; then the same with one node killed (SIGKILL) while
they wait: its players reconnect to the other within the grace time and keep their
places, nobody is seated twice, and everyone is still seated."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from dominion.protocol import (
    SUBPROTOCOL,
    Ack,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    MatchAccept,
    MatchFound,
    MatchReady,
    Seek,
    SeekState,
    SeekStatus,
    ServerMessage,
    decode_server,
    encode_client,
)
from dominion.server.automatch.matcher import Seek as MatcherSeek
from dominion.server.automatch.matcher import window
from dominion.server.ratings.model import Pool, Rating
from tests.cluster.cluster import Redis, needs_redis, stop_process
from tests.process_cpu import WALL_LIMIT_S, cpu_seconds
from tests.server.test_process import START_CPU_S, start_server
from tests.tiers import Tier, starts

from .node import SIGMA

pytestmark = [needs_redis, pytest.mark.slow, pytest.mark.timeout(240)]
NODE = Path(__file__).with_name("node.py")
OPTIONS = ("--automatch-wave-seconds", "0.5", "--automatch-confirm-seconds", "15",
           "--automatch-grace-seconds", "20", "--connections-per-address", "1000",
           "--games-per-hour", "100000", "--games-per-address", "1000",
           "--messages-per-second", "100000", "--burst", "100000",
           "--sqlite-synchronous", "NORMAL")  # (logs at INFO: start_server reads where)
POPULATION: list[tuple[int, tuple[int, ...], int]] = [
    # (edition, sizes, how many): three families that never share a table (no one in one
    # accepts a size of the same edition of another), each of which can always seat what
    # is left of it: everyone of the first accepts 2 and its tables are even; of the
    # second, 3 and its tables multiples of 3; the third is 5s only
    (2, (2,), 34), (2, (2, 4), 40), (2, (2, 4, 6), 40),
    (1, (3,), 30), (1, (3, 6), 36),
    (2, (5,), 20),
]


@dataclass
class Node:
    name: str
    db: Path
    port: int = 0  # the one it listens on once started (kept when it starts again)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, redis: Redis, ratings: Path) -> None:
        self.process, url = start_server(
            self.db, "--node", self.name, "--redis", redis.url, *OPTIONS,
            port=self.port or None, command=(sys.executable, str(NODE), str(ratings)))
        self.port = int(url.rsplit(":", 1)[1])

    async def ready(self) -> None:
        """Until the node says it is ready (its games restored), within the CPU and wall
        time a server has to start (tests/server/test_process.py)."""
        assert self.process is not None
        deadline = time.monotonic() + WALL_LIMIT_S
        spent = cpu_seconds(self.process.pid) + START_CPU_S
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    async with session.get(f"{self.url}/healthz") as response:
                        if response.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                assert self.process is not None and self.process.poll() is None, self.name
                assert cpu_seconds(self.process.pid) < spent and time.monotonic() < deadline, \
                    f"node {self.name} did not start"
                await asyncio.sleep(0.1)


@dataclass
class Player:
    name: str
    edition: int
    sizes: tuple[int, ...]
    mu: float
    node: Node
    started: float = 0.0
    found: list[tuple[MatchFound, float]] = field(default_factory=list)
    ready: MatchReady | None = None
    reconnects: int = 0
    refused: int = 0
    """Seeks refused for now (`cluster_unavailable`), and sought again."""
    waiting_since: float | None = None
    """When the first `seek_status` (waiting) came."""
    kept: list[tuple[float, float]] = field(default_factory=list)
    """Each time the seek is taken up again after a reconnect: the wait the server counts,
    and the least it may count if the place was kept: from the first `seek_status` to the
    `seek` again (the server stamped the seek before the one, and reads it after the
    other, however slow the machine)."""


class Connection:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = 0

    async def send(self, kind: type[ClientMessage], **fields: object) -> int:
        self.ids += 1
        await self.ws.send_bytes(encode_client(kind(id=self.ids, **fields)))
        return self.ids

    async def next(self) -> ServerMessage | None:
        message = await self.ws.receive()
        if message.type is not aiohttp.WSMsgType.BINARY:
            return None
        return decode_server(message.data)


async def play(player: Player, session: aiohttp.ClientSession, fallback: Node) -> None:
    """Seek, accept every table found, until a game is ready; on a lost connection,
    reconnect (to the other node, when this one died) and seek again with the token."""
    token: str | None = None
    player.started = time.monotonic()
    node = player.node
    while player.ready is None:
        try:
            ws = await session.ws_connect(f"{node.url}/api/v1/ws", protocols=(SUBPROTOCOL,))
        except aiohttp.ClientError:
            node = fallback
            player.reconnects += 1
            await asyncio.sleep(0.2)
            continue
        connection = Connection(ws)
        accepts: set[int] = set()
        await connection.send(Hello, versions=(2,), client="sim")
        await connection.send(Seek, sizes=player.sizes, edition=player.edition, rated=False,
                              name=player.name, token=token)
        sought_again = time.monotonic() if token is not None else None
        while True:
            message = await connection.next()
            if message is None:  # the node went away: the seek survives the grace time
                node = fallback
                player.reconnects += 1
                break
            if isinstance(message, Error):
                # an accept can cross its table's dissolution (another seat's node died):
                # refused as documented (docs/PROTOCOL.md, match_accept); the seek goes on
                if message.id in accepts and message.code == ErrorCode.UNKNOWN_TABLE:
                    continue
                # a node whose loop stalls past Redis's timeout on a busy host refuses a
                # seek for now (docs/PROTOCOL.md, errors): a client seeks again
                if message.code == ErrorCode.CLUSTER_UNAVAILABLE and player.refused < 20:
                    player.refused += 1
                    if token is None:  # the seek never began (docs/PROTOCOL.md)
                        player.started = time.monotonic()
                    await ws.close()
                    await asyncio.sleep(0.5)
                    break
                raise AssertionError(f"{player.name}: {message}")
            if isinstance(message, SeekStatus):
                assert message.state is SeekState.WAITING, (player.name, message)
                if player.waiting_since is None:
                    player.waiting_since = time.monotonic()
                elif sought_again is not None:  # the answer to the seek again
                    player.kept.append((message.waited_ms / 1000,
                                        sought_again - player.waiting_since))
                sought_again = None
                token = message.token
            elif isinstance(message, MatchFound):
                player.found.append((message, time.monotonic()))
                accepts.add(await connection.send(MatchAccept, table=message.table))
            elif isinstance(message, MatchReady):
                player.ready = message
                await ws.close()
                return
            else:
                assert isinstance(message, Ack) or message.TYPE in ("welcome", "pong",
                                                                    "match_cancelled")


def population(nodes: list[Node]) -> list[Player]:
    chance = random.Random(27)
    players = []
    for edition, sizes, count in POPULATION:
        for _ in range(count):
            index = len(players)
            players.append(Player(f"p{index:03}", edition, sizes, chance.uniform(1300, 1700),
                                  nodes[index % 2]))
    chance.shuffle(players)  # the families arrive mixed
    return players


def seats_in(db: Path) -> dict[str, list[str]]:
    """Every game a node's database started: its seats' names, in seat order. (A game
    made whose seats never went out never starts: docs/SERVER.md, "Automatch".)"""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT game_id, seat, name FROM seats JOIN games ON games.id = game_id"
            " WHERE games.started_at IS NOT NULL ORDER BY game_id, seat")
        games: dict[str, list[str]] = {}
        for game, _, name in rows:
            games.setdefault(game, []).append(name)
    return games


def open_games(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        count: int = connection.execute(
            "SELECT count(*) FROM games WHERE state = 'open'").fetchone()[0]
    return count


def check_every_player_seated_once(players: list[Player], dbs: list[Path]) -> None:
    by_name = {player.name: player for player in players}
    unseated = [player.name for player in players if player.ready is None]
    assert unseated == [], f"never seated: {unseated}"
    games: dict[str, list[str]] = {}
    for db in dbs:
        games |= seats_in(db)
    held = [name for names in games.values() for name in names]
    assert len(held) == len(set(held)), "a player holds seats in two games"
    assert set(held) == set(by_name), "a game has a seat nobody was told of"
    for player in players:
        ready = player.ready
        assert ready is not None
        seated = games[ready.game]
        assert seated[ready.seat] == player.name
        table = by_name[seated[0]].found[-1][0]
        assert len(seated) == table.size and table.size in player.sizes
        assert {by_name[name].edition for name in seated} == {player.edition}


def check_window_rule(players: list[Player]) -> None:
    """Each table's spread of ratings is within every member's window after the wait the
    member saw (at least the wait the server counted: windows only widen)."""
    by_name = {player.name: player for player in players}
    for player in players:
        for found, at in player.found:
            mus = [by_name[name].mu for name in found.players]
            spread = max(mus) - min(mus)
            waited = MatcherSeek(player.name, frozenset(player.sizes), player.edition, False,
                                 {pool: Rating(player.mu, SIGMA) for pool in Pool},
                                 player.started)
            assert spread <= window(waited, found.size, at) + 1e-6, (player.name, found)


@pytest.fixture
@starts(Tier.SYSTEM)
def cluster(tmp_path: Path) -> Iterator[tuple[Redis, list[Node], Path]]:
    redis = Redis(tmp_path)
    nodes = [Node("a", tmp_path / "a.sqlite3"), Node("b", tmp_path / "b.sqlite3")]
    ratings = tmp_path / "ratings.json"
    try:
        redis.start()
        yield redis, nodes, ratings
    finally:
        for node in nodes:
            stop_process(node.process)
        redis.stop()


async def start(cluster: tuple[Redis, list[Node], Path]) -> list[Player]:
    redis, nodes, ratings = cluster
    players = population(nodes)
    ratings.write_text(json.dumps({player.name: player.mu for player in players}))
    for node in nodes:
        node.start(redis, ratings)
    for node in nodes:
        await node.ready()
    return players


async def test_200_players_over_two_nodes_are_each_seated_once(
        cluster: tuple[Redis, list[Node], Path]) -> None:
    players = await start(cluster)
    a, b = cluster[1]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.wait_for(asyncio.gather(*(
            play(player, session, player.node) for player in players)), 120)
    check_every_player_seated_once(players, [a.db, b.db])
    check_window_rule(players)
    assert {player.ready.game.split("-")[1] for player in players if player.ready} == {"a", "b"}


async def test_a_node_killed_mid_queue_seats_nobody_twice_and_the_rest_are_seated(
        cluster: tuple[Redis, list[Node], Path]) -> None:
    players = await start(cluster)
    a, b = cluster[1]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        running = asyncio.gather(*(play(player, session, a) for player in players))
        # mid-queue: some are seated already, many still wait
        while sum(player.ready is not None for player in players) < 40:
            await asyncio.sleep(0.05)
        assert b.process is not None
        b.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(b.process.wait, 15)
        waiting = sum(player.ready is None for player in players)
        await asyncio.wait_for(running, 120)
    assert waiting > 0, "the kill came after everyone was seated"
    kept = [wait for player in players for wait in player.kept]
    assert kept, "nobody seeking on the killed node took their seek up again"
    # a lost place would start again from nothing (the server's wall clock and the
    # test's monotonic one may differ by a slew over the test's minute)
    lost = [(player.name, counted, least) for player in players
            for counted, least in player.kept if counted < least - 0.05]
    assert lost == [], lost
    # restarted, the killed node starts each game it made whose seats went out, and
    # abandons the others (docs/SERVER.md, "Automatch")
    b.start(cluster[0], cluster[2])
    await b.ready()
    while open_games(b.db):
        await asyncio.sleep(0.05)
    check_every_player_seated_once(players, [a.db, b.db])
