"""The server under load: N concurrent bot-vs-bot games over real WebSockets, on loopback.

One run does four things, one after the other:

  echo      a bare aiohttp WebSocket server (a separate process, on the Dominion server's
            event loop) that unpacks every binary msgpack frame and sends it back; the
            same client code keeps 2 x N connections each doing send/receive round trips.
            Its round trips per second are the baseline.
  floor     the I/O floor, from the same process: N pairs of connections play "games"
            in which every answer costs the server the socket work a Dominion answer
            costs it (one frame in; an ack and an update back, and an update to the
            other seat, written through the server's own Outbox), with no rules, storage
            or views. Its server CPU per answer is what the game's own work adds to.
  server    `python -m dominion.server.main` as a separate process (127.0.0.1 only,
            a fresh SQLite file). N games are created over REST with 2 human seats
            ("First Game"), both seats joined over WebSockets by clients that answer
            with the big_money strategy (WireDecision.from_map, and a small Table the
            client keeps from the events it sees: coins from the Treasures played this
            turn, the Supply from game_started and every gain). A game that ends is
            replaced by a new one, so N stay live, until --seconds have passed (or
            --max-games were created); its seats `leave` it and their connections join
            the new game's seats, as bots that play game after game do (2 x N
            connections in all). The clients speak protocol version
            --protocol (2 by default: one `update` frame per change; 1: a frame per
            event and one per decision), and read and write game frames with plain
            msgpack, as the echo's client does: the benchmark measures the server, so
            its clients skip the reference codec's checks.
  report    accepted answers (acks) per second over the measured window, their ratio
            to the echo's round trips per second, p50/p99 latency from sending an answer
            to the first decision push of that game that follows (either seat's), the
            server's RSS per live game (VmRSS with N live games minus VmRSS with none,
            over N), CPU used by the server and by the clients in the window (cores
            busy, and microseconds per answer or per echo round trip), and the
            storage's group commits (commits per second, writes per commit, from the
            server's /metrics), and the database it leaves (bytes per game and per
            answer).

Both seats of a game are played by the same client process. With --workers W > 1 the
games are split over W client processes (results are merged). --think-ms adds a pause
before each answer (open the loop: latency at a load below saturation).

    python bench/server_load.py [--games 100] [--seconds 10] [--workers 1] [--json]
    python bench/server_load.py --games 1000 --seconds 20

--profile FILE runs the server under cProfile (env DOMINION_BENCH_CPROFILE, only read by
this benchmark's launcher) and writes its stats to FILE when it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgpack  # type: ignore[import-untyped]
from prometheus_client.parser import text_string_to_metric_families

from dominion.bots import make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import (
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    Answer,
    Hello,
    Join,
    Leave,
    encode_client,
)
from dominion.server.cluster import owner_of, ws_url

HOST = "127.0.0.1"  # loopback only, always
TREASURE_COINS = {"copper": 1, "silver": 2, "gold": 3}
WARMUP_SECONDS = 2.0
GAME_ID = "g-0123456789abcdef"
FLOOR_EVENT = {"kind": "played", "player": 0, "cards": ["copper", "copper", "silver"]}
"""A typical event of a game's update (the I/O floor's stand-in)."""
PROFILE_ENV = "DOMINION_BENCH_CPROFILE"

# The server launched by this benchmark: plain `dominion.server.main`, or the same under
# cProfile when PROFILE_ENV names a file (only this benchmark sets it).
SERVER_LAUNCHER = f"""
import os, sys
sys.argv[0] = "dominion-server"
from dominion.server.main import main
out = os.environ.get({PROFILE_ENV!r})
if not out:
    sys.exit(main())
import cProfile
profile = cProfile.Profile()
try:
    code = profile.runcall(main)
finally:
    profile.dump_stats(out)
sys.exit(code)
"""


# -- processes -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(process: subprocess.Popen[bytes], port: int, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"the {what} did not start")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int, *, main_thread: bool = False) -> float:
    """CPU time of a process's live threads (or only its main thread), in nanoseconds from
    schedstat: /proc/PID/stat counts clock ticks, too coarse for a few dozen games."""
    tasks = [str(pid)] if main_thread else os.listdir(f"/proc/{pid}/task")
    total = 0
    for task in tasks:
        # a thread that has just ended is no longer listed
        with contextlib.suppress(FileNotFoundError), \
                open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
            total += int(schedstat.read().split()[0])
    return total / 1e9


def start_dominion(port: int, db: str, games: int, profile: str | None,
                   extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """The server, its log (JSON lines, WARNING and up) in a file beside the database."""
    room = str(max(1000, 4 * games))
    args = ["--host", HOST, "--port", str(port), "--db", db,
            "--messages-per-second", "100000", "--burst", "100000",
            "--outbound-queue", "100000", "--games-per-address", room,
            "--games-per-hour", "100000000",
            "--connections-per-address", room, "--http-connections-per-address", room,
            "--log-level", "WARNING",
            # ended games leave memory at once: memory per game counts live games only
            "--ended-room-seconds", "0.5", *extra]
    env = dict(os.environ)
    if profile:
        env[PROFILE_ENV] = profile
    with open(db + ".log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-c", SERVER_LAUNCHER, *args], env=env,
                                   stdout=log, stderr=log)
    wait_for_port(process, port, "server")
    return process


def start_echo(port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, __file__, "--serve-echo", str(port)],
                               stdout=subprocess.DEVNULL)
    wait_for_port(process, port, "echo server")
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve_echo(port: int) -> None:
    """The baselines' server: bare aiohttp with msgpack, nothing of the game, on the
    Dominion server's event loop.

    /ws    sends each msgpack frame back (the echo).
    /floor the I/O floor: the socket work one answer costs the Dominion server, without
           the game. Connections pair up as the two seats of a table; an answer frame
           from one seat gets an ack and an update back on its own connection, and an
           update on the other seat's, each connection's frames written in one go by the
           server's own `Outbox`. The update passes the move to the other seat.
    """
    from aiohttp import web

    from dominion.server.edge.transport.outbox import Outbox, Waiting
    from dominion.server.main import new_event_loop

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=SUBPROTOCOLS)
        await ws.prepare(request)
        async for message in ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                await ws.send_bytes(msgpack.packb(msgpack.unpackb(message.data)))
        return ws

    tables: dict[int, list[Outbox | None]] = {}

    async def floor(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=SUBPROTOCOLS)
        await ws.prepare(request)
        assert request.transport is not None
        outbox = Outbox(request.transport, max_frames=100, max_bytes=1 << 20,
                        waiting=Waiting(1 << 30), on_overflow=lambda: None)
        async for message in ws:
            frame = msgpack.unpackb(message.data)
            seats = tables.setdefault(frame["table"], [None, None])
            seat = frame["seat"]
            if frame["type"] == "join":
                seats[seat] = outbox
                continue
            other = seats[1 - seat]
            update = msgpack.packb({"type": "update", "game": frame["game"],
                                    "seq": frame["id"], "events": [FLOOR_EVENT],
                                    "decision": {"player": 1 - seat}})
            outbox.push(msgpack.packb({"type": "ack", "id": frame["id"]}))
            outbox.push(update)
            if other is not None:
                other.push(update)
        return ws

    app = web.Application()
    app.router.add_get("/ws", echo)
    app.router.add_get("/floor", floor)
    # the Dominion server's event loop (uvloop when installed), so that the baselines
    # differ from it by the game's work alone
    web.run_app(app, host=HOST, port=port, print=None, access_log=None,
                loop=new_event_loop("auto"))


# -- the client side -------------------------------------------------------------------


def open_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))


class Table:
    """What a big_money seat needs to know, kept from the pushes its client receives."""

    __slots__ = ("coins", "piles")

    def __init__(self) -> None:
        self.coins = 0
        self.piles: dict[str, int] = {}

    def supply(self, card: str) -> int:
        return self.piles.get(card, 0)

    def owned(self, card: str) -> int:
        return 0  # big_money never asks

    def seen(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind == "played":
            for card in event.get("cards", ()):
                self.coins += TREASURE_COINS.get(card, 0)
        elif kind == "turn_started":
            self.coins = 0
        elif kind in ("bought", "gained"):
            for card in event.get("cards", ()):
                self.piles[card] = self.piles.get(card, 0) - 1
        elif kind == "game_started":
            self.piles = dict(event["data"]["supply"])

    def snapshot(self, view: dict[str, Any]) -> None:
        self.coins = view["turn"]["coins"]
        self.piles = dict(view["supply"])


@dataclass
class Stats:
    measuring: bool = False
    accepted: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    games_created: int = 0
    games_finished: int = 0


@dataclass
class GameState:
    """Shared by a game's two seats: when its last answer went out."""

    answered_at: float | None = None
    over: bool = False


class Line:
    """One greeted WebSocket connection that plays one seat at a time: when its game ends,
    the seat leaves and the line joins its next game, as a bot that plays game after game
    would. Request ids count up across its games."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, base: str, version: int,
                   game: str) -> Line:
        """A line to `game`'s node: its `ws_url` (a proxy before several nodes routes by
        its `game` argument; a single server ignores it)."""
        subprotocol = SUBPROTOCOLS[SUPPORTED_VERSIONS.index(version)]
        ws = await http.ws_connect(f"{base}{ws_url(game)}", protocols=(subprotocol,),
                                   max_msg_size=1 << 20)
        line = cls(ws)
        await ws.send_bytes(encode_client(Hello(id=next(line.ids), versions=(version,),
                                                client="server_load")))
        return line


class Seat:
    def __init__(self, game_id: str, token: str, state: GameState, stats: Stats,
                 think: float, line: Line) -> None:
        self.game_id, self.token, self.state, self.stats = game_id, token, state, stats
        self.think, self.line = think, line
        self.table = Table()
        self.strategy = make_strategy("big_money")
        self.seat: int | None = None
        self.join_id = self.answer_id = -1

    async def join(self) -> None:
        self.join_id = next(self.line.ids)
        await self.line.ws.send_bytes(encode_client(Join(id=self.join_id, game=self.game_id,
                                                         token=self.token)))

    async def leave(self) -> None:
        await self.line.ws.send_bytes(encode_client(Leave(id=next(self.line.ids),
                                                          game=self.game_id)))

    async def play(self, stop: asyncio.Event) -> None:
        """Answer this seat's decisions until the game ends (or the run stops)."""
        ws, ids = self.line.ws, self.line.ids
        state, stats, table = self.state, self.stats, self.table
        while not stop.is_set():
            message = await ws.receive()
            if message.type is not aiohttp.WSMsgType.BINARY:
                break
            frame = msgpack.unpackb(message.data)
            kind = frame["type"]
            if kind == "update":  # version 2
                for event in frame["events"]:
                    table.seen(event)
                decision = frame["decision"]
                if decision is None:
                    continue  # game_over follows
            elif kind == "event":  # version 1
                table.seen(frame["event"])
                continue
            elif kind == "decision":  # version 1
                decision = frame["decision"]
            elif kind == "ack":  # of this seat's join or answer; or of the line's last leave
                if frame["id"] == self.join_id:
                    self.seat = frame["seat"]
                elif frame["id"] == self.answer_id and stats.measuring:
                    stats.accepted += 1
                continue
            elif kind == "snapshot":
                table.snapshot(frame["view"])
                decision = frame["view"]["decision"]
                if decision is None:
                    continue
            elif kind == "game_over":
                if not state.over:
                    state.over = True
                    stats.games_finished += 1
                break
            elif kind == "error":
                stats.refused += 1
                continue
            else:
                continue
            sent = state.answered_at
            if sent is not None:
                state.answered_at = None
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent)
            if decision["player"] != self.seat or "options" not in decision:
                continue
            wire = WireDecision.from_map(decision)
            choice = self.strategy.choose(wire, table)
            if self.think:  # jittered, so that games do not answer in waves
                await asyncio.sleep(self.think * (0.5 + random.random()))
            state.answered_at = time.perf_counter()
            # packed by hand, as the echo's frame is sent as it is: the reference encoder's
            # checks are the client's cost, not the server's
            self.answer_id = next(ids)
            await ws.send_bytes(msgpack.packb({
                "type": "answer", "id": self.answer_id, "game": self.game_id,
                "decision": wire.id, "options": choice}))


class Driver:
    """Keeps `games` games live (replacing finished ones) until told to stop."""

    def __init__(self, base: str, games: int, max_games: int, think: float, tag: str,
                 version: int) -> None:
        self.base, self.games, self.max_games, self.think, self.tag = (
            base, games, max_games, think, tag)
        self.version = version
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.live = 0
        self.http: aiohttp.ClientSession | None = None
        self._seq = itertools.count()
        self._tasks: set[asyncio.Future[None]] = set()
        self.ready: list[tuple[Seat, Seat]] = []
        self._lines: list[Line] = []
        self._idle: dict[str | None, list[Line]] = {}
        """Idle lines by the node they reach (None: a single server's)."""

    async def _new_game(self) -> tuple[Seat, Seat]:
        http = self.http
        assert http is not None
        n = next(self._seq)
        async with http.post(f"{self.base}/api/v1/games", json={
                "name": f"A{self.tag}-{n}", "seats": 2, "kingdom": "First Game"}) as reply:
            created = await reply.json()
            if reply.status >= 300:
                raise RuntimeError(f"create: {reply.status} {created}")
        game_id = created["game"]["id"]
        async with http.post(f"{self.base}/api/v1/games/{game_id}/join",
                             json={"name": f"B{self.tag}-{n}"}) as reply:
            joined = await reply.json()
            if reply.status >= 300:
                raise RuntimeError(f"join: {reply.status} {joined}")
        state = GameState()
        seats = (Seat(game_id, created["token"], state, self.stats, self.think,
                      await self._line(game_id)),
                 Seat(game_id, joined["token"], state, self.stats, self.think,
                      await self._line(game_id)))
        for seat in seats:
            await seat.join()
        self.stats.games_created += 1
        return seats

    async def _line(self, game: str) -> Line:
        """An idle connection to the game's node, or a new one."""
        idle = self._idle.get(owner_of(game))
        if idle:
            return idle.pop()
        assert self.http is not None
        line = await Line.open(self.http, self.base, self.version, game)
        self._lines.append(line)
        return line

    async def _one_game(self, seats: tuple[Seat, Seat]) -> None:
        self.live += 1
        try:
            await asyncio.gather(*(seat.play(self.stop) for seat in seats))
        finally:
            self.live -= 1
        for seat in seats:
            if not seat.line.ws.closed:
                await seat.leave()
                self._idle.setdefault(owner_of(seat.game_id), []).append(seat.line)
        if not self.stop.is_set() and self.stats.games_created < self.max_games:
            self._launch(await self._new_game())

    def _launch(self, seats: tuple[Seat, Seat]) -> None:
        task = asyncio.ensure_future(self._one_game(seats))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self, count: int | None = None) -> None:
        """Create and join `count` games (default: all), 50 at a time, before play starts:
        they wait on their first decision. Call again to add more."""
        self.http = self.http or session()
        count = self.games - len(self.ready) if count is None else count
        for start in range(0, count, 50):
            self.ready += await asyncio.gather(*(
                self._new_game() for _ in range(start, min(count, start + 50))))

    def play(self) -> None:
        for seats in self.ready:
            self._launch(seats)

    async def finish(self) -> None:
        self.stop.set()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for line in self._lines:
            await line.ws.close()
        if self.http is not None:
            await self.http.close()


async def echo_round_trips(port: int, pid: int, connections: int,
                           seconds: float) -> dict[str, Any]:
    """Round trips per second of `connections` clients ping-ponging an answer-sized frame."""
    # the same frame a game client sends; the echo is not our protocol, so its reply is
    # read with plain msgpack (the baseline is aiohttp plus msgpack, nothing more)
    frame = encode_client(Answer(id=1, game=GAME_ID, decision=17, options=(3,)))

    async def client(http: aiohttp.ClientSession, run: Baseline) -> None:
        async with http.ws_connect(f"ws://{HOST}:{port}/ws", protocols=SUBPROTOCOLS) as ws:
            await run.ready.wait()
            while not run.stop.is_set():
                sent = time.perf_counter()
                await ws.send_bytes(frame)
                message = await ws.receive()
                if message.type is not aiohttp.WSMsgType.BINARY:
                    return
                msgpack.unpackb(message.data)
                run.count(sent)

    return await Baseline(pid, seconds).measure([client] * connections)


async def floor_answers(port: int, pid: int, tables: int, seconds: float) -> dict[str, Any]:
    """Answers per second through the I/O floor (`serve_echo`'s /floor) by `tables` pairs
    of connections, each seat answering when an update gives it the move."""

    async def seat(table: int, index: int, http: aiohttp.ClientSession, run: Baseline) -> None:
        async with http.ws_connect(f"ws://{HOST}:{port}/floor",
                                   protocols=SUBPROTOCOLS) as ws:
            await ws.send_bytes(msgpack.packb({"type": "join", "table": table, "seat": index}))
            await run.ready.wait()
            ids = itertools.count(1)
            sent = time.perf_counter()
            if index == 0:  # the first move
                await ws.send_bytes(msgpack.packb({"type": "answer", "id": 0, "table": table,
                                                   "seat": index, "game": GAME_ID}))
            while not run.stop.is_set():
                message = await ws.receive()
                if message.type is not aiohttp.WSMsgType.BINARY:
                    return
                frame = msgpack.unpackb(message.data)
                if frame["type"] == "ack":
                    run.count(sent)
                elif frame["decision"]["player"] == index:
                    sent = time.perf_counter()
                    await ws.send_bytes(msgpack.packb({
                        "type": "answer", "id": next(ids), "table": table, "seat": index,
                        "game": GAME_ID, "decision": 17, "options": [3]}))

    clients = [functools.partial(seat, table, index)
               for table in range(tables) for index in (0, 1)]
    return await Baseline(pid, seconds).measure(clients)


class Baseline:
    """One baseline's measured window: its clients connect, start together, and count
    their round trips (or answers) in the window, with the CPU both sides used."""

    def __init__(self, pid: int, seconds: float) -> None:
        self.pid, self.seconds = pid, seconds
        self.ready, self.stop = asyncio.Event(), asyncio.Event()
        self.measuring = False
        self.round_trips = 0
        self.latencies: list[float] = []

    def count(self, sent: float) -> None:
        if self.measuring:
            self.round_trips += 1
            self.latencies.append(time.perf_counter() - sent)

    async def measure(self, clients: Sequence[Callable[[aiohttp.ClientSession, Baseline],
                                                       Awaitable[None]]]) -> dict[str, Any]:
        async with session() as http:
            tasks = [asyncio.ensure_future(client(http, self)) for client in clients]
            await asyncio.sleep(0.5 + len(clients) / 500)  # connected
            self.ready.set()
            await asyncio.sleep(WARMUP_SECONDS / 2)
            me = os.getpid()
            cpu0, server0, started = cpu_seconds(me), cpu_seconds(self.pid), time.perf_counter()
            self.measuring = True
            await asyncio.sleep(self.seconds)
            self.measuring = False
            elapsed, cpu = time.perf_counter() - started, cpu_seconds(me) - cpu0
            server_cpu = cpu_seconds(self.pid) - server0
            self.stop.set()
            for task in tasks:  # a floor seat may wait for a move that will not come
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return {"round_trips": self.round_trips, "elapsed": elapsed, "client_cpu": cpu,
                "server_cpu": server_cpu, "latencies": self.latencies}


# -- worker processes (--workers > 1) --------------------------------------------------


def worker_main(base: str, games: int, max_games: int, think: float, tag: str, version: int,
                pipe: Any) -> None:
    """A client process: play its share of the games, driven by commands on `pipe`."""

    async def run() -> None:
        driver = Driver(base, games, max_games, think, tag, version)
        await driver.start()
        pipe.send("ready")
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)  # "play"
        driver.play()
        await loop.run_in_executor(None, pipe.recv)  # "measure"
        cpu0 = cpu_seconds(os.getpid())
        driver.stats.measuring = True
        await loop.run_in_executor(None, pipe.recv)  # "stop measuring"
        driver.stats.measuring = False
        cpu = cpu_seconds(os.getpid()) - cpu0
        live = driver.live
        await driver.finish()
        stats = driver.stats
        pipe.send({"accepted": stats.accepted, "refused": stats.refused,
                   "latencies": stats.latencies, "created": stats.games_created,
                   "finished": stats.games_finished, "live": live, "client_cpu": cpu})

    open_files(4 * games + 256)
    asyncio.run(run())


async def drive_games(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    think = args.think_ms / 1000
    per = [args.games // args.workers + (i < args.games % args.workers)
           for i in range(args.workers)]
    max_per = [max(n, args.max_games * n // args.games) for n in per]
    rss_none = rss_kib(pid)
    result: dict[str, Any] = {}
    spy = None
    marginal = setup_ms = None
    if args.workers == 1:
        driver = Driver(base, args.games, args.max_games, think, "0", args.protocol)
        half = args.games // 2
        await driver.start(half)
        await asyncio.sleep(0.5)
        rss_half = rss_kib(pid)
        setup0 = cpu_seconds(pid)
        await driver.start()
        setup_cpu = cpu_seconds(pid) - setup0
        await asyncio.sleep(0.5)
        rss_live = rss_kib(pid)
        if args.games - half:
            marginal = (rss_live - rss_half) / (args.games - half)
            setup_ms = 1e3 * setup_cpu / (args.games - half)
        driver.play()
        await asyncio.sleep(WARMUP_SECONDS)
        me = os.getpid()
        spy = py_spy(pid, args)
        cpu0, server0, started = cpu_seconds(me), cpu_seconds(pid), time.perf_counter()
        loop0 = cpu_seconds(pid, main_thread=True)
        stored0 = await storage_counters(base)
        driver.stats.measuring = True
        live_samples, rss_samples = [], []
        deadline = started + args.seconds
        while time.perf_counter() < deadline:
            await asyncio.sleep(min(0.5, max(0.0, deadline - time.perf_counter())))
            live_samples.append(driver.live)
            rss_samples.append(rss_kib(pid))
        driver.stats.measuring = False
        elapsed = time.perf_counter() - started
        server_cpu, client_cpu = cpu_seconds(pid) - server0, cpu_seconds(me) - cpu0
        loop_cpu = cpu_seconds(pid, main_thread=True) - loop0
        stored = await storage_counters(base)
        await driver.finish()
        stats = driver.stats
        parts: list[dict[str, Any]] = [{"accepted": stats.accepted, "refused": stats.refused,
                  "latencies": stats.latencies, "created": stats.games_created,
                  "finished": stats.games_finished, "client_cpu": client_cpu}]
    else:
        context = multiprocessing.get_context("spawn")
        pipes, workers = [], []
        for i, (games, most) in enumerate(zip(per, max_per, strict=True)):
            mine, theirs = context.Pipe()
            worker = context.Process(target=worker_main,
                                     args=(base, games, most, think, str(i), args.protocol,
                                           theirs))
            worker.start()
            pipes.append(mine)
            workers.append(worker)
        for pipe in pipes:
            await asyncio.to_thread(pipe.recv)
        await asyncio.sleep(0.5)
        rss_live = rss_kib(pid)
        for pipe in pipes:
            pipe.send("play")
        await asyncio.sleep(WARMUP_SECONDS)
        spy = py_spy(pid, args)
        server0, started = cpu_seconds(pid), time.perf_counter()
        loop0 = cpu_seconds(pid, main_thread=True)
        stored0 = await storage_counters(base)
        for pipe in pipes:
            pipe.send("measure")
        live_samples, rss_samples = [], []
        deadline = started + args.seconds
        while time.perf_counter() < deadline:
            await asyncio.sleep(min(0.5, max(0.0, deadline - time.perf_counter())))
            rss_samples.append(rss_kib(pid))
        for pipe in pipes:
            pipe.send("stop")
        elapsed = time.perf_counter() - started
        server_cpu = cpu_seconds(pid) - server0
        loop_cpu = cpu_seconds(pid, main_thread=True) - loop0
        stored = await storage_counters(base)
        parts = [await asyncio.to_thread(pipe.recv) for pipe in pipes]
        live_samples = [sum(part.pop("live") for part in parts)]
        for worker in workers:
            worker.join(30)
    if spy is not None:
        await asyncio.to_thread(spy.wait)
    latencies = sorted(itertools.chain.from_iterable(part["latencies"] for part in parts))
    accepted = sum(part["accepted"] for part in parts)
    rss_play = max(rss_samples) if rss_samples else rss_live
    commits, writes = (after - before for after, before in zip(stored, stored0, strict=True))
    result.update({
        "answers": accepted,
        "elapsed": elapsed,
        "answers_per_second": accepted / elapsed,
        "refused": sum(part["refused"] for part in parts),
        "latency_ms": percentiles(latencies),
        "live_games_min": min(live_samples),
        "games_created": sum(part["created"] for part in parts),
        "games_finished": sum(part["finished"] for part in parts),
        "server_cpu_share": server_cpu / elapsed,
        "client_cpu_share": sum(part["client_cpu"] for part in parts) / elapsed,
        "server_cpu_us_per_answer": 1e6 * server_cpu / max(1, accepted),
        # the event loop's thread alone (the rest is SQLite's writer thread)
        "server_loop_cpu_share": loop_cpu / elapsed,
        "server_loop_cpu_us_per_answer": 1e6 * loop_cpu / max(1, accepted),
        "client_cpu_us_per_answer": 1e6 * sum(part["client_cpu"] for part in parts)
        / max(1, accepted),
        # group commit: SQLite transactions in the window, and the writes each carried
        "commits_per_second": commits / elapsed,
        "writes_per_commit": writes / max(1, commits),
        "rss_none_kib": rss_none,
        "rss_live_kib": rss_live,
        "rss_playing_kib": rss_play,
        "kib_per_live_game_joined": (rss_live - rss_none) / args.games,
        "kib_per_live_game_playing": (rss_play - rss_none) / args.games,
        # the second half's games alone: what one more game costs, without what the
        # first games warm up once (SQLite's page cache, allocator arenas)
        "kib_per_live_game_marginal": marginal,
        # server CPU to set up one game of the second half, before play: created and
        # joined over REST, both seats on new connections (upgrade, hello, join, snapshot)
        "server_cpu_ms_per_game_setup": setup_ms,
    })
    return result


def stored_size(db: str) -> dict[str, float]:
    """The database's bytes per stored game and per stored answer (schema included),
    once the server has stopped (and checkpointed its WAL into the file)."""
    size = sum(os.path.getsize(db + suffix) for suffix in ("", "-wal")
               if os.path.exists(db + suffix))
    with contextlib.closing(sqlite3.connect(db)) as connection:
        games, answers = (connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                          for table in ("games", "answers"))
    return {"bytes": size, "games": games, "answers": answers,
            "bytes_per_game": size / max(1, games), "bytes_per_answer": size / max(1, answers)}


async def storage_counters(base: str) -> tuple[float, float]:
    """The server's storage commits and committed writes so far, from /metrics."""
    async with session() as http, http.get(f"{base}/metrics") as reply:
        text = await reply.text()
    samples = {sample.name: sample.value
               for family in text_string_to_metric_families(text) for sample in family.samples}
    return (samples["dominion_storage_commits_total"],
            samples["dominion_storage_writes_total"])


def py_spy(pid: int, args: argparse.Namespace) -> subprocess.Popen[bytes] | None:
    """Sample the server with py-spy over the measured window (collapsed stacks)."""
    if not args.py_spy:
        return None
    return subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--duration",
                             str(max(1, int(args.seconds))), "--rate", "100", "--format",
                             "raw", "--output", args.py_spy], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"p50": float("nan"), "p99": float("nan"), "count": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {"p50": at(0.50), "p99": at(0.99), "max": round(1000 * ordered[-1], 2),
            "mean": round(1000 * statistics.fmean(ordered), 2), "count": len(ordered)}


async def warm_up(base: str, version: int) -> None:
    """One complete game, so the server has imported and cached what any game needs."""
    driver = Driver(base, 1, 1, 0.0, "warm", version)
    await driver.start()
    driver.play()
    while driver._tasks:
        await asyncio.sleep(0.05)
    await driver.finish()


def run(args: argparse.Namespace) -> dict[str, Any]:
    open_files(4 * args.games + 1024)
    result: dict[str, Any] = {
        "python": platform.python_version(), "cores": os.cpu_count(), "games": args.games,
        "seconds": args.seconds, "workers": args.workers, "think_ms": args.think_ms,
    }
    # 1. the baselines: as many connections as the games will use
    port = free_port()
    echo = start_echo(port)
    try:
        result["echo"] = baseline_summary(asyncio.run(echo_round_trips(
            port, echo.pid, 2 * args.games, args.seconds)), "round_trip")
        result["floor"] = baseline_summary(asyncio.run(floor_answers(
            port, echo.pid, args.games, args.seconds)), "answer")
    finally:
        stop(echo)
    result["echo"]["connections"] = result["floor"]["connections"] = 2 * args.games
    # 2. the Dominion server
    with tempfile.TemporaryDirectory(prefix="server_load-") as folder:
        port = free_port()
        server = start_dominion(port, os.path.join(folder, "bench.sqlite3"), args.games,
                                args.profile, args.server_option)
        base = f"http://{HOST}:{port}"
        try:
            asyncio.run(warm_up(base, args.protocol))
            time.sleep(0.5)
            result["server"] = asyncio.run(drive_games(base, server.pid, args))
        finally:
            stop(server)
            with open(os.path.join(folder, "bench.sqlite3.log")) as log:
                lines = log.read().splitlines()
            # errors while the run's own clients hang up at the end are expected
            result["server_log_lines"] = len(lines)
        result["server"]["stored"] = stored_size(os.path.join(folder, "bench.sqlite3"))
    echo_rate = result["echo"]["round_trips_per_second"]
    result["ratio_to_echo"] = result["server"]["answers_per_second"] / echo_rate
    result["floor"]["ratio_to_echo"] = result["floor"]["answers_per_second"] / echo_rate
    return result


# -- several nodes behind nginx (--nodes N) ----------------------------------------------

CLUSTER_CONF = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "dominion-cluster.conf"
LISTINGS = 50
"""Listings asked for after the run, to count Redis commands per listing."""


def cluster_site(port: int, nodes: dict[str, int]) -> str:
    """deploy/nginx/dominion-cluster.conf on loopback as plain HTTP (its TLS server block
    without TLS: this measures the routing; TLS costs the same before one node or many),
    without its request limit; the file's nodes that do not run are marked down."""
    text = CLUSTER_CONF.read_text()
    for pattern, replacement in [
            (r"^\s*listen \[::\]:\d+( ssl)?;\n", ""), (r"^\s*ssl_\w+ .*;\n", ""),
            (r"\blisten 443 ssl;", f"listen {HOST}:{port};"),
            (r"\blisten 80;", f"listen {HOST}:{free_port()};"),
            (r"rate=20r/s", "rate=1000000r/s"), (r"\broot /var/www/certbot;", "root /tmp;")]:
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    for name in re.findall(r"server node-(\w+):8080;", text):
        target = f"{HOST}:{nodes[name]}" if name in nodes else f"{HOST}:9 down"
        text = text.replace(f"server node-{name}:8080;", f"server {target};")
    return text


def start_nginx(folder: str, port: int, nodes: dict[str, int]) -> subprocess.Popen[bytes]:
    """nginx with one worker (as a small host runs it), everything under `folder`."""
    site = os.path.join(folder, "site.conf")
    Path(site).write_text(cluster_site(port, nodes))
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root root;\n" if os.geteuid() == 0 else ""
    Path(folder, "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 65536; }\n"
        f"http {{\n    access_log off;\n{temp}    include {site};\n}}\n")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-p", folder, "-c", os.path.join(folder, "nginx.conf"),
                                "-e", os.path.join(folder, "error.log"), "-g", "daemon off;"])
    wait_for_port(process, port, "nginx")
    return process


def process_tree(pid: int) -> list[int]:
    """A process and its children (nginx's master and its workers)."""
    with open(f"/proc/{pid}/task/{pid}/children") as children:
        return [pid, *map(int, children.read().split())]


def redis_commands(port: int) -> int:
    """Commands Redis has processed so far (the INFO that asks is one of them)."""
    import redis

    with redis.Redis(host=HOST, port=port) as client:
        stats: dict[str, Any] = client.info("stats")
    return int(stats["total_commands_processed"])


async def drive_cluster(base: str, pids: dict[str, list[int]], redis_port: int,
                        args: argparse.Namespace) -> dict[str, Any]:
    """Games through nginx: answers per second; CPU per answer of each node, nginx and
    Redis; Redis commands per answer, per game created and per listing."""
    driver = Driver(base, args.games, args.max_games, args.think_ms / 1000, "0",
                    args.protocol)
    await driver.start()
    driver.play()
    await asyncio.sleep(WARMUP_SECONDS)

    def cpu() -> dict[str, float]:
        spent = {name: sum(cpu_seconds(pid) for pid in tree) for name, tree in pids.items()}
        # each node's event loop alone (the rest is its SQLite writer thread)
        spent |= {f"{name} loop": cpu_seconds(tree[0], main_thread=True)
                  for name, tree in pids.items() if name.startswith("node")}
        return spent
    cpu0, commands0, created0 = cpu(), redis_commands(redis_port), driver.stats.games_created
    started = time.perf_counter()
    driver.stats.measuring = True
    await asyncio.sleep(args.seconds)
    driver.stats.measuring = False
    elapsed = time.perf_counter() - started
    used = {name: spent - cpu0[name] for name, spent in cpu().items()}
    commands = redis_commands(redis_port) - commands0
    created = driver.stats.games_created - created0
    answers = max(1, driver.stats.accepted)
    await driver.finish()
    listed0 = redis_commands(redis_port)
    async with session() as http:
        for _ in range(LISTINGS):
            async with http.get(f"{base}/api/v1/games", params={"state": "playing"}) as reply:
                assert reply.status == 200, await reply.text()
    per_listing = (redis_commands(redis_port) - listed0 - 1) / LISTINGS
    return {
        "answers": driver.stats.accepted, "elapsed": elapsed,
        "answers_per_second": driver.stats.accepted / elapsed,
        "refused": driver.stats.refused, "games_created": created,
        "cpu_us_per_answer": {name: 1e6 * spent / answers for name, spent in used.items()},
        "cpu_share": {name: spent / elapsed for name, spent in used.items()},
        "total_cpu_us_per_answer": 1e6 * sum(spent for name, spent in used.items()
                                             if not name.endswith(" loop")) / answers,
        "redis_commands_per_second": commands / elapsed,
        "redis_commands_per_answer": commands / answers,
        "redis_commands_per_game": commands / max(1, created),
        "redis_commands_per_listing": per_listing,
    }


def run_cluster(args: argparse.Namespace) -> dict[str, Any]:
    """--nodes N: a redis-server, N nodes and nginx, all on loopback; games through nginx."""
    open_files(4 * args.games + 1024)
    result: dict[str, Any] = {"python": platform.python_version(), "cores": os.cpu_count(),
                              "games": args.games, "seconds": args.seconds,
                              "nodes": args.nodes}
    processes: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="server_load-") as folder:
        try:
            redis_port = free_port()
            redis_server = subprocess.Popen(
                ["redis-server", "--port", str(redis_port), "--bind", HOST, "--save", "",
                 "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL)
            processes.append(redis_server)
            wait_for_port(redis_server, redis_port, "redis-server")
            nodes: dict[str, int] = {}
            pids: dict[str, list[int]] = {}
            for name in "abc"[:args.nodes]:
                nodes[name] = port = free_port()
                node = start_dominion(
                    port, os.path.join(folder, f"node-{name}.sqlite3"), args.games, None,
                    ["--node", name, "--redis", f"redis://{HOST}:{redis_port}/0",
                     *args.server_option])
                processes.append(node)
                pids[f"node {name}"] = [node.pid]
            port = free_port()
            nginx = start_nginx(folder, port, nodes)
            processes.append(nginx)
            pids["nginx"] = process_tree(nginx.pid)
            pids["redis"] = [redis_server.pid]
            base = f"http://{HOST}:{port}"
            asyncio.run(warm_up(base, args.protocol))
            time.sleep(0.5)
            result["cluster"] = asyncio.run(drive_cluster(base, pids, redis_port, args))
            if args.compare_direct:  # the same, to node a itself: what nginx adds
                direct = {name: tree for name, tree in pids.items() if name != "nginx"}
                result["direct"] = asyncio.run(drive_cluster(
                    f"http://{HOST}:{nodes['a']}", direct, redis_port, args))
        finally:
            for process in reversed(processes):
                stop(process)
    return result


def print_cluster(result: dict[str, Any]) -> None:
    for key, how in (("cluster", "behind nginx"), ("direct", "without nginx")):
        if key in result:
            print(f"nodes                {result['nodes']} {how}, sharing one Redis")
            print_measured(result[key])


def print_measured(cluster: dict[str, Any]) -> None:
    print(f"answers per second   {cluster['answers_per_second']:,.0f} "
          f"({cluster['answers']} in {cluster['elapsed']:.1f} s, "
          f"{cluster['games_created']} games created, {cluster['refused']} refused)")
    parts = ", ".join(f"{name} {us:.0f} µs ({cluster['cpu_share'][name]:.2f} busy)"
                      for name, us in cluster["cpu_us_per_answer"].items())
    print(f"CPU per answer       {cluster['total_cpu_us_per_answer']:.0f} µs in all: {parts}")
    print(f"Redis commands       {cluster['redis_commands_per_second']:,.1f}/s: "
          f"{cluster['redis_commands_per_answer']:.4f} per answer, "
          f"{cluster['redis_commands_per_game']:.1f} per game created, "
          f"{cluster['redis_commands_per_listing']:.1f} per listing of running games")


def baseline_summary(measured: dict[str, Any], unit: str) -> dict[str, Any]:
    """A baseline's rate, latency and CPU, per `unit` (round_trip or answer)."""
    count, elapsed = max(1, measured["round_trips"]), measured["elapsed"]
    return {
        f"{unit}s_per_second": measured["round_trips"] / elapsed,
        "latency_ms": percentiles(measured["latencies"]),
        "client_cpu_share": measured["client_cpu"] / elapsed,
        "server_cpu_share": measured["server_cpu"] / elapsed,
        f"client_cpu_us_per_{unit}": 1e6 * measured["client_cpu"] / count,
        f"server_cpu_us_per_{unit}": 1e6 * measured["server_cpu"] / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="concurrent live games")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="measured window (for the echo and for the server)")
    parser.add_argument("--max-games", type=int, default=0,
                        help="most games created in all (default: 50 x --games)")
    parser.add_argument("--workers", type=int, default=1, help="client processes")
    parser.add_argument("--think-ms", type=float, default=0.0,
                        help="mean pause before each answer, uniform in [0.5, 1.5] x this "
                             "(default 0: as fast as possible)")
    parser.add_argument("--protocol", type=int, choices=SUPPORTED_VERSIONS,
                        default=SUPPORTED_VERSIONS[0], help="protocol version the clients speak")
    parser.add_argument("--profile", help="run the server under cProfile, stats to this file")
    parser.add_argument("--py-spy", metavar="FILE",
                        help="sample the server with py-spy over the window (collapsed stacks)")
    parser.add_argument("--server-option", action="append", default=[], metavar="ARG",
                        help="an extra dominion-server argument (repeat: --server-option "
                             "--sqlite-synchronous --server-option NORMAL)")
    parser.add_argument("--nodes", type=int, default=0,
                        help="run N nodes (1 to 3) behind nginx with a Redis instead of one "
                             "server (needs nginx and redis-server; no echo baselines)")
    parser.add_argument("--compare-direct", action="store_true",
                        help="with --nodes 1: measure again with the clients connected to the "
                             "node itself (what nginx costs per answer)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve-echo", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo:
        serve_echo(args.serve_echo)
        return
    if args.games < 1 or args.workers < 1 or args.seconds <= 0:
        parser.error("--games and --workers must be at least 1, --seconds above 0")
    args.max_games = args.max_games or 50 * args.games
    if args.nodes:
        if not 1 <= args.nodes <= 3:
            parser.error("--nodes is 1 to 3 (the nodes of deploy/nginx/dominion-cluster.conf)")
        cluster = run_cluster(args)
        if args.json:
            print(json.dumps(cluster))
        else:
            print_cluster(cluster)
        return
    result = run(args)
    if args.json:
        print(json.dumps(result))
        return
    echo, floor, server = result["echo"], result["floor"], result["server"]
    print(f"echo baseline        {echo['round_trips_per_second']:,.0f} round trips/s over "
          f"{echo['connections']} connections (p50 {echo['latency_ms']['p50']} ms, "
          f"p99 {echo['latency_ms']['p99']} ms)")
    # a quarter of the echo's rate leaves the server's event loop this long per answer
    budget = 1e6 / (echo["round_trips_per_second"] / 4)
    print(f"I/O floor            {floor['answers_per_second']:,.0f} answers/s "
          f"({floor['ratio_to_echo']:.2f} of the echo), server "
          f"{floor['server_cpu_us_per_answer']:.0f} µs per answer: at 1/4 of the echo "
          f"the game may add {budget - floor['server_cpu_us_per_answer']:.0f} µs")
    print(f"answers per second   {server['answers_per_second']:,.0f} "
          f"({server['answers']} in {server['elapsed']:.1f} s; "
          f"{result['ratio_to_echo']:.3f} of the echo)")
    latency = server["latency_ms"]
    print(f"answer -> decision   p50 {latency['p50']} ms, p99 {latency['p99']} ms, "
          f"max {latency['max']} ms ({latency['count']} samples)")
    print(f"live games           {server['live_games_min']} at least "
          f"(of {args.games}; {server['games_created']} created, "
          f"{server['games_finished']} finished, {server['refused']} answers refused)")
    print(f"server memory        {server['kib_per_live_game_joined']:.1f} KiB/game joined, "
          f"{server['kib_per_live_game_playing']:.1f} KiB/game playing "
          f"(VmRSS {server['rss_none_kib']} -> {server['rss_live_kib']} -> "
          f"{server['rss_playing_kib']} KiB)")
    if server["kib_per_live_game_marginal"] is not None:
        print(f"                     {server['kib_per_live_game_marginal']:.1f} KiB for each "
              "game of the second half (one more game, without one-off warm-up)")
    print(f"CPU (cores busy)     server {server['server_cpu_share']:.2f}, "
          f"clients {server['client_cpu_share']:.2f}; echo server "
          f"{echo['server_cpu_share']:.2f}, echo clients {echo['client_cpu_share']:.2f}")
    print(f"CPU per answer       server {server['server_cpu_us_per_answer']:.0f} µs "
          f"({server['server_loop_cpu_us_per_answer']:.0f} µs on the event loop's thread, "
          f"{server['server_loop_cpu_share']:.2f} busy), "
          f"clients {server['client_cpu_us_per_answer']:.0f} µs (per echo round trip: "
          f"server {echo['server_cpu_us_per_round_trip']:.0f} µs, "
          f"clients {echo['client_cpu_us_per_round_trip']:.0f} µs)")
    print(f"storage              {server['commits_per_second']:,.0f} commits/s, "
          f"{server['writes_per_commit']:.1f} writes per commit")
    stored = server["stored"]
    print(f"database             {stored['bytes'] / 2**20:.1f} MiB for {stored['games']:,} "
          f"games and {stored['answers']:,} answers: {stored['bytes_per_game'] / 1024:.1f} KiB "
          f"per game, {stored['bytes_per_answer']:.0f} bytes per answer")
    if server["server_cpu_ms_per_game_setup"] is not None:
        print(f"game set-up          {server['server_cpu_ms_per_game_setup']:.2f} ms of server "
              "CPU per game (REST create and join, two new connections, joins, snapshots)")


if __name__ == "__main__":
    main()
