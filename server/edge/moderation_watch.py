"""What each node does about the account facts every node must share: a ban made on any
node takes its account's seats here too, a banned address's connections here close, and
an account deleted on any node takes the placeholder name in this node's games.

Every `moderation_refresh_seconds` the node looks at the account store (two small
queries): the audit log's latest id (has a sanction been made or lifted?) and the
accounts deleted lately. The node that acts does its own part at once; the others
within that period. The requests themselves need no wait: sessions, sign-in and the
sanctions' copy are read from the shared store (sign-in refreshes the copy first).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from aiohttp import web

from dominion.protocol import CloseCode, ErrorCode

from ..accounts.moderation import Moderation
from ..errors import GameError
from .addresses import client_address
from .rest import Handler, error_response
from .state import MODERATION

if TYPE_CHECKING:
    from ..play.lobby import Lobby
    from .connection import Connection

log = logging.getLogger("dominion.moderation")
CLOCK_SKEW = timedelta(minutes=1)
"""How far apart the nodes' clocks may be: deletions are looked for this far back."""
BANNED_SEAT = "this account is banned"
"""What a banned account's connections are told as their seats are taken from them."""


@web.middleware
def banned_addresses_refused(request: web.Request, handler: Handler
                             ) -> Awaitable[web.StreamResponse]:
    """No request (a WebSocket's upgrade too) from a banned address prefix is served (a
    plain function, as `known_hosts_only`: nothing on an allowed request's stack)."""
    moderation = request.config_dict[MODERATION]
    if not moderation.bans_addresses or moderation.address_ban_of(
            client_address(request)) is None:
        return handler(request)
    return _refused()


async def _refused() -> web.Response:
    return error_response(ErrorCode.ADDRESS_BANNED, "your address is banned from this server")


def close_banned_addresses(moderation: Moderation, connections: Iterable[Connection]) -> None:
    for connection in list(connections):
        if moderation.address_ban_of(connection.address) is not None:
            connection.close_soon(CloseCode.BANNED, "your address is banned")


class ModerationWatch:
    def __init__(self, moderation: Moderation, lobby: Lobby,
                 connections: Iterable[Connection]) -> None:
        self._moderation = moderation
        self._lobby = lobby
        self._connections = connections
        self._banned: set[int] = set()
        self._forgotten: set[int] = set()
        self._deleted_since = datetime(1970, 1, 1, tzinfo=UTC)
        """At start, every deletion: this node may have been down when one was made."""

    async def once(self) -> None:
        """Apply what changed since the last look."""
        moderation = self._moderation
        if await moderation.refresh():
            banned = moderation.banned_accounts()
            for account_id in banned - self._banned:
                await self._lobby.remove_account(account_id, BANNED_SEAT)
            self._banned = banned
            close_banned_addresses(moderation, self._connections)
        now = moderation.now()
        for account_id in await moderation.store.deleted_since(self._deleted_since):
            if account_id not in self._forgotten:
                await self._lobby.forget_account_seats(account_id)
                self._forgotten.add(account_id)
        self._deleted_since = now - CLOCK_SKEW

    async def run(self, interval: float) -> None:
        """`once` every `interval` seconds until cancelled; a store that cannot be reached
        is tried again at the next look (games go on without it)."""
        while True:
            with contextlib.suppress(GameError):
                try:
                    await self.once()
                except GameError:
                    raise
                except Exception:  # one failure must not stop the node's moderation
                    log.exception("applying moderation failed")
            await asyncio.sleep(interval)
