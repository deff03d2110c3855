"""The queue's store in the cluster's Redis: records as JSON strings under
`dominion:am:`, sets as Redis sets, each change a WATCH/MULTI transaction (retried when
another node changed one of its records in between), the wave lease a key with an
expiry that only its holder renews."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TypeVar

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError, WatchError

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .store import Change, Record

log = logging.getLogger("dominion.automatch")
PREFIX = "dominion:am:"
LEASE = PREFIX + "lease"
CONNECTIONS = 32
"""Connections a node holds to Redis for the queue at most (a change holds one while it
watches its records)."""
RECORD_SECONDS = 3600
"""Every record expires after an hour unchanged: what a crash left behind goes away."""
_LEAD = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
R = TypeVar("R")


def unavailable(error: Exception) -> Refusal:
    """The refusal a client gets; what failed is logged (never the URL, which may hold a
    password)."""
    log.debug("the automatch queue's Redis failed: %s", type(error).__name__)
    return Refusal(ErrorCode.CLUSTER_UNAVAILABLE,
                     "automatch is unavailable: the cluster's Redis cannot be reached")


class RedisStore:
    def __init__(self, url: str) -> None:
        # the cluster's Redis, with the directory's timeouts; a burst of seeks (a node's
        # players all reconnecting) waits for a connection rather than failing
        self._redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=2, socket_timeout=2,
            socket_connect_timeout=2))
        self._lead = self._redis.register_script(_LEAD)

    async def change(self, keys: Collection[str], change: Change[R]) -> R:
        names = [PREFIX + key for key in keys]
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        if names:
                            await pipe.watch(*names)
                        values = await pipe.mget(names) if names else []
                        result, writes = change(
                            {key: None if raw is None else orjson.loads(raw)
                             for key, raw in zip(keys, values, strict=True)})
                        pipe.multi()  # type: ignore[no-untyped-call]
                        for key, record in writes.put.items():
                            pipe.set(PREFIX + key, orjson.dumps(record), ex=RECORD_SECONDS)
                        if writes.delete:
                            pipe.delete(*(PREFIX + key for key in writes.delete))
                        for name, added in writes.add.items():
                            pipe.sadd(PREFIX + name, *added)
                        for name, removed in writes.remove.items():
                            pipe.srem(PREFIX + name, *removed)
                        await pipe.execute()
                        return result
                    except WatchError:
                        continue  # another node changed one of them: read again
        except (RedisError, OSError) as error:
            raise unavailable(error) from None

    async def read(self, keys: Collection[str]) -> dict[str, Record | None]:
        if not keys:
            return {}
        try:
            values = await self._redis.mget([PREFIX + key for key in keys])
        except (RedisError, OSError) as error:
            raise unavailable(error) from None
        return {key: None if raw is None else orjson.loads(raw)
                for key, raw in zip(keys, values, strict=True)}

    async def members(self, name: str) -> set[str]:
        try:
            found = await self._redis.smembers(PREFIX + name)
        except (RedisError, OSError) as error:
            raise unavailable(error) from None
        return {member.decode() if isinstance(member, bytes) else member for member in found}

    async def lead(self, node: str, seconds: float) -> bool:
        try:
            return bool(await self._lead(keys=[LEASE], args=[node, int(seconds * 1000)]))
        except (RedisError, OSError) as error:
            raise unavailable(error) from None

    async def close(self) -> None:
        await self._redis.aclose()
