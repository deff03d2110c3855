"""The directory of several nodes, in Redis.

Redis holds only what the nodes can rebuild from their own databases:

    dominion:nodes               set    every node's name
    dominion:node:NAME           string its heartbeat: URL, connections, live games, ready
                                        (expires after a few missed beats: the node is gone)
    dominion:seen                hash   node name -> the time of its last heartbeat (kept
                                        once it expires: how long a gone node has been gone)
    dominion:held:NAME           string set when the node published its entries; its absence
                                        means Redis lost them (restarted): publish them again
    dominion:owned:NAME          set    the ids of the node's published games
    dominion:game:ID             string an open or running game's summary (JSON)
    dominion:open, :playing      zset   ids by creation time, for the lobby's listings
    dominion:peer-key            string the secret nodes show each other on their private
                                        routes (made by the first node that finds none)
    dominion:rated-seat:ACCOUNT  string the node holding the account's live rated seat
                                        (rated_seats.py), renewed with its heartbeat

Nothing here is touched per answer. A room's lobby-level changes (created, seats, start,
end, who is connected) are published by one background task in batches (a pipeline),
and running games' turn numbers are refreshed every `cluster_refresh_seconds`.
Finished games are not in Redis: each node answers for its own database and the node
asked merges their pages (`listing.merge_pages`).
"""

from __future__ import annotations

import asyncio
import calendar
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sized
from typing import TYPE_CHECKING, Any

import aiohttp
import orjson
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from ..stopping import stop_tasks
from ..storage.records import GameState
from .directory import LocalDirectory, NodeHealth, Page
from .listing import (
    NODE_PAGE_MAX,
    matches,
    merge_pages,
    needs_every_node,
    node_query,
    only_paging,
)
from .node import PEER_KEY_HEADER, NodeNameTaken, node_url
from .rated_seats import RedisRatedSeats

if TYPE_CHECKING:
    from ..play.archive import Archive
    from ..play.lobby import Lobby
    from ..play.room import Room
    from ..settings import Settings

log = logging.getLogger("dominion.cluster")

NODES = "dominion:nodes"
SEEN = "dominion:seen"
UNREACHABLE = "Redis is unreachable"
"""The problem as clients and /healthz see it: the error itself (which names Redis's host
and port) is only logged."""
PEER_KEY = "dominion:peer-key"
LIVE: dict[str, str] = {GameState.OPEN: "dominion:open", GameState.PLAYING: "dominion:playing"}
MISSED_BEATS = 3
"""Heartbeats a node may miss before the others count it as gone."""
PEER_TIMEOUT = 5.0
"""Seconds a node waits for another's part of a listing or a replay."""
PEER_CONNECTIONS = 32
"""Connections a node holds to each other node at most: under the connections a peer
allows one address (`http_connections_per_address`, 64 by default)."""


def game_key(game_id: str) -> str:
    return f"dominion:game:{game_id}"


def text(raw: bytes | str) -> str:
    """A Redis reply as text (the client returns bytes)."""
    return raw.decode() if isinstance(raw, bytes) else raw


def created_score(summary: dict[str, Any]) -> int:
    """A live game's place in the listings: its creation time in seconds."""
    return calendar.timegm(time.strptime(summary["created_at"], "%Y-%m-%dT%H:%M:%SZ"))


class RedisDirectory:
    def __init__(self, settings: Settings, lobby: Lobby, archive: Archive,
                 connections: Sized) -> None:
        self.local = LocalDirectory(lobby, archive)
        self.node = settings.node
        self._lobby = lobby
        self._connections = connections
        self._url = node_url(settings)
        self._refresh = settings.cluster_refresh_seconds
        self._redis = Redis.from_url(settings.redis, socket_timeout=2,
                                     socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))
        self._owned = f"dominion:owned:{self.node}"
        self._held = f"dominion:held:{self.node}"
        self._dirty: dict[str, Room] = {}
        self._published: dict[str, tuple[str, int]] = {}
        """Game id -> (state, turn) as Redis has it, so unchanged facts are not resent."""
        self._problem: str | None = "not connected to Redis yet"
        self.peers: dict[str, str] = {}
        """The nodes whose heartbeat is current: name -> URL (this node included)."""
        self.gone: list[str] = []
        """Nodes in the cluster whose heartbeat stopped."""
        self.totals = {"nodes": 0, "connections": 0, "live_games": 0}
        self._live_games = 0
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Future[None] | None = None
        self._http: aiohttp.ClientSession | None = None
        self._peer_key: str | None = None
        """What peers show on private routes; learnt from Redis with every heartbeat."""
        self.rated_seats = RedisRatedSeats(self._redis, self.node, self._heartbeat_key(""),
                                           self._refresh * MISSED_BEATS)

    def is_peer(self, presented: str | None) -> bool:
        key = self._peer_key
        return key is not None and presented is not None and hmac.compare_digest(
            presented.encode(), key.encode())

    @property
    def problem(self) -> str | None:
        return self._problem

    # -- publishing ---------------------------------------------------------------

    def changed(self, room: Room) -> None:
        self._dirty[room.id] = room
        self._wake.set()

    async def created(self, room: Room) -> None:
        self._dirty[room.id] = room
        await self._run_guarded(self._flush)

    async def start(self) -> None:
        """Join the cluster (refused if a live node elsewhere has this name: both would
        answer for its games) and publish this node's games."""
        with contextlib.suppress(RedisError, OSError):  # Redis down: the beats retry
            running = await self._redis.get(self._heartbeat_key(self.node))
            if running is not None and orjson.loads(running)["url"] != self._url:
                raise NodeNameTaken(f"a node named {self.node!r} is running at "
                                    f"{orjson.loads(running)['url']}; names must be unique")
        self._http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=PEER_TIMEOUT),
            connector=aiohttp.TCPConnector(limit_per_host=PEER_CONNECTIONS))
        await self._run_guarded(self._beat)
        self._task = asyncio.ensure_future(self._run())

    async def close(self) -> None:
        await stop_tasks([self._task])
        # the node's entries stay: its games resume when it starts again
        with contextlib.suppress(RedisError, OSError):
            await self._redis.delete(self._heartbeat_key(self.node))
        await self._redis.aclose()
        if self._http is not None:
            await self._http.close()

    async def _run(self) -> None:
        """Publish changes as they come; beat and refresh turns every period."""
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self._refresh
        while True:
            # asyncio.timeout, not wait_for: on 3.11 a wait_for whose wait ends as the task
            # is cancelled swallows the cancellation, and closing waited for ever
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, next_beat - loop.time())):
                    await self._wake.wait()
            self._wake.clear()
            if loop.time() >= next_beat:
                next_beat = loop.time() + self._refresh
                self._sweep()
                await self._run_guarded(self._beat)
            await self._run_guarded(self._flush)

    async def _run_guarded(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run `work`; a Redis failure becomes the directory's problem (games go on), and
        a bug is logged without stopping the publishing."""
        try:
            await work()
        except (RedisError, OSError) as error:
            if self._problem is None:
                log.warning("Redis is unreachable: %s", error, extra={"node": self.node})
            self._problem = UNREACHABLE
        except Exception:
            log.exception("publishing to Redis failed", extra={"node": self.node})

    def _sweep(self) -> None:
        """Mark running games whose turn moved on, and count the live games."""
        live = 0
        for room in self._lobby.rooms.values():
            if room.state != GameState.PLAYING:
                continue
            live += 1
            turn = room.game.turn.number if room.game is not None else 0
            published = self._published.get(room.id)
            if published is not None and published[1] != turn:
                self._dirty[room.id] = room
        self._live_games = live

    def _heartbeat_key(self, name: str) -> str:
        return f"dominion:node:{name}"

    async def _beat(self) -> None:
        """Say this node is alive; learn the others; publish everything again if Redis
        lost this node's entries or was unreachable."""
        now = time.time()
        # ready: its games' database takes writes (what /readyz says, docs/SERVER.md)
        ready = self.local.archive.storage.healthy
        beat = orjson.dumps({"url": self._url, "connections": len(self._connections),
                             "live_games": self._live_games, "ready": ready, "at": now})
        pipe = self._redis.pipeline(transaction=False)
        pipe.set(self._heartbeat_key(self.node), beat,
                 px=int(self._refresh * MISSED_BEATS * 1000))
        pipe.hset(SEEN, self.node, str(now))
        pipe.sadd(NODES, self.node)
        pipe.set(self._held, b"1", nx=True)
        pipe.smembers(NODES)
        # Redis restarted empty: the first node to beat makes a new key, the rest learn it
        pipe.set(PEER_KEY, secrets.token_urlsafe(32), nx=True)
        pipe.get(PEER_KEY)
        _, _, _, lost, members, _, peer_key = await pipe.execute()
        self._peer_key = text(peer_key)
        names = sorted(text(name) for name in members)
        beats = await self._redis.mget([self._heartbeat_key(name) for name in names])
        peers, gone = {}, []
        totals = {"nodes": 0, "connections": 0, "live_games": 0}
        for name, raw in zip(names, beats, strict=True):
            if raw is None:
                gone.append(name)
                continue
            info = orjson.loads(raw)
            peers[name] = info["url"]
            totals["nodes"] += 1
            totals["connections"] += info["connections"]
            totals["live_games"] += info["live_games"]
        self.peers, self.gone, self.totals = peers, gone, totals
        await self.rated_seats.renew(dict(self._lobby.rated_claims.held))
        if lost or self._problem is not None:
            await self._republish()
        if self._problem is not None:
            log.info("Redis reached; this node's entries are published",
                     extra={"node": self.node})
        self._problem = None

    async def _republish(self) -> None:
        """Replace this node's entries with what its rooms say now."""
        async with self._lock:
            owned = await self._redis.smembers(self._owned)
            pipe = self._redis.pipeline(transaction=False)
            for raw in owned:
                pipe.delete(game_key(text(raw)))
            if owned:
                for key in LIVE.values():
                    pipe.zrem(key, *owned)
            pipe.delete(self._owned)
            await pipe.execute()
            self._published.clear()
            for room in self._lobby.rooms.values():
                if room.state in LIVE:
                    self._dirty[room.id] = room
            await self._flush_locked()
            await self._redis.set(self._held, b"1")

    async def _flush(self) -> None:
        async with self._lock:
            await self._flush_locked()

    async def _flush_locked(self) -> None:
        """Publish every room changed since the last flush, in one round trip."""
        if not self._dirty:
            return
        rooms, self._dirty = self._dirty, {}
        pipe = self._redis.pipeline(transaction=False)
        published: dict[str, tuple[str, int] | None] = {}
        for game_id, room in rooms.items():
            published[game_id] = self._write(pipe, room)
        try:
            await pipe.execute()
        except BaseException:
            self._dirty = rooms | self._dirty  # sent again later
            raise
        for game_id, fact in published.items():
            if fact is None:
                self._published.pop(game_id, None)
            else:
                self._published[game_id] = fact

    def _write(self, pipe: Any, room: Room) -> tuple[str, int] | None:
        """Queue what changed of one room's entry on `pipe`; what Redis will hold of it."""
        state, game_id = room.state, room.id
        before = self._published.get(game_id)
        if state not in LIVE:  # ended: listed from the databases from now on
            if before is not None:
                pipe.delete(game_key(game_id))
                pipe.zrem(LIVE[before[0]], game_id)
                pipe.srem(self._owned, game_id)
            return None
        summary = room.summary()
        pipe.set(game_key(game_id), orjson.dumps(summary))
        if before is None:
            pipe.sadd(self._owned, game_id)
        if before is None or before[0] != state:
            pipe.zadd(LIVE[state], {game_id: created_score(summary)})
            if before is not None:
                pipe.zrem(LIVE[before[0]], game_id)
        return state, summary["turn"]

    # -- health -----------------------------------------------------------------------

    async def node_health(self) -> list[NodeHealth]:
        needs = "the nodes are known through Redis"
        self._refuse_if_down(needs)
        try:
            names = sorted(text(name) for name in await self._redis.smembers(NODES))
            if not names:
                return []
            pipe = self._redis.pipeline(transaction=False)
            pipe.mget([self._heartbeat_key(name) for name in names])
            pipe.hmget(SEEN, names)
            beats, seen = await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("Redis is unreachable: %s", error, extra={"node": self.node})
            self._problem = UNREACHABLE
            self._refuse_if_down(needs)
        now = time.time()
        nodes = []
        for name, raw, at in zip(names, beats, seen, strict=True):
            info = {} if raw is None else orjson.loads(raw)
            nodes.append(NodeHealth(
                node=name, fresh=raw is not None, ready=info.get("ready"),
                heartbeat_age_seconds=None if at is None else max(0.0, now - float(at)),
                connections=info.get("connections"), live_games=info.get("live_games")))
        return nodes

    # -- listings ---------------------------------------------------------------------

    async def listing(self, filters: dict[str, Any]) -> Page:
        self._refuse_if_down()
        if filters.get("state") in LIVE and not needs_every_node(filters):
            try:
                return await self._live_listing(filters)
            except (RedisError, OSError) as error:
                log.warning("Redis is unreachable: %s", error, extra={"node": self.node})
                self._problem = UNREACHABLE
                self._refuse_if_down()
        return await self._merged_listing(filters)

    def _refuse_if_down(self, needs: str = "listings need every node's entries") -> None:
        if self._problem is not None:
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, f"{needs}: {self._problem}")

    async def _live_listing(self, filters: dict[str, Any]) -> Page:
        """Open or running games, from Redis."""
        key, offset, limit = LIVE[filters["state"]], filters["offset"], filters["limit"]
        if only_paging(filters):
            pipe = self._redis.pipeline(transaction=False)
            pipe.zcard(key)
            pipe.zrevrange(key, offset, offset + limit - 1)
            total, ids = await pipe.execute()
            games = await self._summaries(ids)
            return Page(games, int(total), list(self.gone))
        # every entry of the state is read; a player's name or a card must be in an entry's
        # JSON for it to match, so most are skipped unparsed
        needles = [orjson.dumps(filters[name]) for name in ("player", "card")
                   if filters.get(name) is not None]
        every = await self._summaries(await self._redis.zrevrange(key, 0, -1), needles)
        found = [summary for summary in every if matches(summary, filters)]
        return Page(found[offset:offset + limit], len(found), list(self.gone))

    async def _summaries(self, ids: Iterable[Any], needles: Iterable[bytes] = ()
                         ) -> list[dict[str, Any]]:
        """The published summaries of `ids` that hold every one of `needles`."""
        keys = [game_key(text(raw)) for raw in ids]
        if not keys:
            return []
        blobs = await self._redis.mget(keys)
        return [orjson.loads(blob) for blob in blobs
                if blob is not None and all(needle in blob for needle in needles)]

    async def _merged_listing(self, filters: dict[str, Any]) -> Page:
        """Every node's part of the listing (from its database: the games the archive does
        not have) and the archive's, merged into one page."""
        offset, limit = filters["offset"], filters["limit"]
        if offset + limit > NODE_PAGE_MAX:
            raise Refusal(ErrorCode.BAD_PAGING, f"across nodes, offset + limit is at most "
                                          f"{NODE_PAGE_MAX}; narrow the filters instead")
        asked = {**filters, "offset": 0, "limit": offset + limit}
        names, gone = sorted(self.peers), self.gone  # as the last heartbeat saw them
        archived, *found = await asyncio.gather(self.local.archive.listing_part(filters),
                                                *(self._part(name, asked) for name in names))
        parts = dict(zip(names, found, strict=True))
        missing = sorted({name for name, part in parts.items() if part is None} | set(gone))
        answered = {name: part for name, part in parts.items() if part is not None}
        games, total = merge_pages([archived, *answered.values()], offset, limit)
        return Page(games, total, missing)

    async def from_other_nodes(self, path: str) -> tuple[list[Any], list[str] | None]:
        names = sorted(name for name in self.peers if name != self.node)
        bodies = await asyncio.gather(*(self._peer_json(name, path) for name in names))
        missing = sorted({name for name, body in zip(names, bodies, strict=True)
                          if body is None} | set(self.gone))
        return [body for body in bodies if body is not None], missing

    async def _part(self, name: str, filters: dict[str, Any]
                    ) -> tuple[list[dict[str, Any]], int] | None:
        """One node's first games matching `filters` (None: it did not answer)."""
        if name == self.node:
            return self.local.own_part(filters)
        params = node_query(filters)
        body = await self._peer_json(name, "/api/v1/node/games", params)
        return None if body is None else (body["games"], body["total"])

    async def _peer_json(self, name: str, path: str, params: dict[str, str] | None = None
                         ) -> Any:
        answer = await self._peer_get(name, path, params)
        if answer is None:
            return None
        try:
            return orjson.loads(answer[0])
        except orjson.JSONDecodeError as error:
            log.warning("node %s answered %s with no JSON: %s", name, path, error)
            return None

    async def _peer_get(self, name: str, path: str, params: dict[str, str] | None = None
                        ) -> tuple[bytes, Mapping[str, str]] | None:
        """Another node's answer on a private route: its body and headers (None: it did
        not answer, or not with 200)."""
        url, http, key = self.peers.get(name), self._http, self._peer_key
        if url is None or http is None or key is None:
            return None
        try:
            async with http.get(url + path, params=params,
                                headers={PEER_KEY_HEADER: key}) as response:
                if response.status != 200:
                    log.warning("node %s answered %s for %s", name, response.status, path)
                    return None
                return await response.read(), response.headers
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("node %s did not answer %s: %s", name, path, error)
            return None
