"""The accounts' live rated seats, claimed in the cluster's Redis (play/rated_claims.py
says why and when).

    dominion:rated-seat:ACCOUNT   string  the claim: the holding node's name, a space, a
                                          nonce; it expires as the node's heartbeat does
                                          unless the node's heartbeat renews it

A claim is granted when there is none, or the account's claim is this node's, or its
node's heartbeat has stopped (a node that closed, or crashed and whose claims have not
expired yet): each a script, so that two nodes claiming at once do not both win.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from redis.asyncio import Redis
from redis.exceptions import RedisError

from dominion.protocol import ErrorCode

from ..play.rated_claims import claim_node
from ..refusal import Refusal

log = logging.getLogger("dominion.cluster")
PREFIX = "dominion:rated-seat:"
_CLAIM = """
local held = redis.call('get', KEYS[1])
if held and held ~= ARGV[1] then
  local node = string.match(held, '^%S+')
  if node ~= ARGV[3] and redis.call('exists', ARGV[4] .. node) == 1 then return held end
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW = """
local held = redis.call('get', KEYS[1])
if held and held ~= ARGV[1] and string.match(held, '^%S+') ~= ARGV[3] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""Kept alive, or set again (Redis restarted empty): unless another node took it."""


def seat_key(account_id: int) -> str:
    return f"{PREFIX}{account_id}"


class RedisRatedSeats:
    def __init__(self, redis: Redis, node: str, heartbeat_prefix: str,
                 lasts_seconds: float) -> None:
        self._redis = redis
        self._node = node
        self._heartbeats = heartbeat_prefix
        self._lasts_ms = int(lasts_seconds * 1000)
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)
        self._renew = redis.register_script(_RENEW)

    async def claim(self, account_id: int, claim: str) -> str | None:
        try:
            held = await self._claim(keys=[seat_key(account_id)],
                                     args=[claim, self._lasts_ms, self._node, self._heartbeats])
        except (RedisError, OSError) as error:
            log.warning("Redis is unreachable: %s", error, extra={"node": self._node})
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "a rated seat needs the cluster's "
                          "Redis, which cannot be reached") from None
        return None if held is None else claim_node(_text(held))

    async def holder(self, account_id: int) -> str | None:
        try:
            held = await self._redis.get(seat_key(account_id))
            node = None if held is None else claim_node(_text(held))
            if node is None or node == self._node or not await self._redis.exists(
                    self._heartbeats + node):
                return None
        except (RedisError, OSError) as error:
            log.warning("Redis is unreachable: %s", error, extra={"node": self._node})
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "a rated seek needs the cluster's "
                          "Redis, which cannot be reached") from None
        return node

    async def release(self, account_id: int, claim: str) -> None:
        try:
            await self._release(keys=[seat_key(account_id)], args=[claim])
        except (RedisError, OSError) as error:
            log.warning("Redis is unreachable: %s", error, extra={"node": self._node})
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "Redis cannot be reached") from None

    async def renew(self, held: Mapping[int, str]) -> None:
        """Keep this node's claims alive (with its heartbeat), in one round trip."""
        if not held:
            return
        pipe = self._redis.pipeline(transaction=False)
        for account_id, claim in held.items():
            await self._renew(keys=[seat_key(account_id)],
                              args=[claim, self._lasts_ms, self._node], client=pipe)
        await pipe.execute()


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw
