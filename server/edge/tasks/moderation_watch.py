"""What each node does about the account facts every node must share: a ban made on any
node takes its account's seats here too, and closes the connections its access tokens or
sessions signed in; a banned address's connections here close; an account deleted on any
node takes the placeholder name in this node's games; and a connection signed in with an
access token closes once the token is revoked, one signed in by a session (the web page's
cookie, app.py) once the session ends (signed out, here or everywhere), expires, or goes
with its deleted account.

Every `moderation_refresh_seconds` the node looks at the account store (small queries):
the audit log's latest id (has a sanction been made or lifted?), the accounts deleted
lately, and, while any connection here signed in with a token or a session, which of
those tokens and sessions are still live. The node that acts does its own part at once;
the others within that period (an expiry, every node at its next look). The requests
themselves need no wait: sessions, sign-in and the sanctions' copy are read from the
shared store (sign-in refreshes the copy first).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from aiohttp import web

from dominion.protocol import CloseCode, ErrorCode

from ...accounts.moderation import Moderation
from ...accounts.store import AccountStore
from ...refusal import Refusal
from ..rest import Handler, error_response
from ..state import STATE
from ..transport.addresses import client_address

if TYPE_CHECKING:
    from ...play.lobby import Lobby
    from ..transport.connection import Connection

log = logging.getLogger("dominion.moderation")
CLOCK_SKEW = timedelta(minutes=1)
"""How far apart the nodes' clocks may be: deletions are looked for this far back."""
BANNED_SEAT = "this account is banned"
"""What a banned account's connections are told as their seats are taken from them."""
TOKEN_REVOKED = "the access token was revoked, or its account deleted"
"""The reason a connection a revoked token signed in is closed with (4007)."""
SESSION_ENDED = "signed out, or the session expired, or its account was deleted"
"""The reason a connection an ended session signed in is closed with (4007)."""
ACCOUNT_DELETED = "this account was deleted"
"""The reason the deleting node closes the account's connections with (4007)."""


@web.middleware
def banned_addresses_refused(request: web.Request, handler: Handler
                             ) -> Awaitable[web.StreamResponse]:
    """No request (a WebSocket's upgrade too) from a banned address prefix is served (a
    plain function, as `known_hosts_only`: nothing on an allowed request's stack)."""
    moderation = request.config_dict[STATE].moderation
    if not moderation.bans_addresses or moderation.address_ban_of(
            client_address(request)) is None:
        return handler(request)
    return _refusal_response()


async def _refusal_response() -> web.Response:
    return error_response(ErrorCode.ADDRESS_BANNED, "your address is banned from this server")


def close_banned_addresses(moderation: Moderation, connections: Iterable[Connection]) -> None:
    for connection in list(connections):
        if moderation.address_ban_of(connection.address) is not None:
            connection.close_soon(CloseCode.BANNED, "your address is banned")


def close_signed_in(connections: Iterable[Connection], refused: Callable[[Connection], bool],
                    code: CloseCode, reason: str) -> None:
    """Close the connections an access token or a session signed in that `refused` says
    may not go on (4007 for a revoked token, an ended session or a deleted account, 4008
    for a banned account)."""
    for connection in list(connections):
        if (connection.token_id is not None or connection.session_hash is not None) \
                and refused(connection):
            connection.close_soon(code, reason)


def close_banned_accounts(moderation: Moderation, connections: Iterable[Connection]) -> None:
    """Before the seats are taken (4006): a signed-in connection is told it is banned."""
    banned = moderation.banned_accounts()
    close_signed_in(connections, lambda c: c.account is not None and c.account.id in banned,
                    CloseCode.BANNED, BANNED_SEAT)


@dataclass(frozen=True, slots=True)
class Ended:
    """The tokens and sessions of a node's connections that the store no longer holds as
    live: revoked or gone with their account; a session also signed out, here or
    everywhere, or expired (an ended token or session never comes back)."""

    tokens: set[int]
    sessions: set[bytes]


async def ended_sign_ins(store: AccountStore, connections: Iterable[Connection],
                         now: datetime) -> Ended:
    """Of the tokens and sessions these connections signed in with, those not live at
    `now` (one query for the tokens, one for the sessions, however many)."""
    tokens = {c.token_id for c in connections if c.token_id is not None}
    sessions = {c.session_hash for c in connections if c.session_hash is not None}
    return Ended(tokens - await store.live_tokens(tokens) if tokens else set(),
                 sessions - await store.live_sessions(sessions, now) if sessions else set())


def close_ended(moderation: Moderation, ended: Ended, connections: Iterable[Connection]
                ) -> None:
    """Close the connections an ended token or session signed in (4007); but those of a
    banned account as banned (4008): a ban ends the account's sessions too."""
    if ended.sessions:
        close_banned_accounts(moderation, connections)
    close_signed_in(connections, lambda c: c.token_id in ended.tokens,
                    CloseCode.UNAUTHORIZED, TOKEN_REVOKED)
    close_signed_in(connections, lambda c: c.session_hash in ended.sessions,
                    CloseCode.UNAUTHORIZED, SESSION_ENDED)


class ModerationWatch:
    def __init__(self, moderation: Moderation, lobby: Lobby,
                 connections: Iterable[Connection]) -> None:
        self._moderation = moderation
        self._lobby = lobby
        self._connections = connections
        self._banned: set[int] = set()
        self._applied: int | None = None
        """The sanctions' version (`Moderation.version`) this node last applied."""
        self._forgotten: set[int] = set()
        self._deleted_since = datetime(1970, 1, 1, tzinfo=UTC)
        """At start, every deletion: this node may have been down when one was made."""

    async def once(self) -> None:
        """Apply what changed since the last look."""
        moderation = self._moderation
        now = moderation.now()
        # the sign-ins before the sanctions: a ban is stored before it ends the account's
        # sessions, so a session seen ended by a ban is seen banned too (4008, not 4007)
        ended = await ended_sign_ins(moderation.store, self._connections, now)
        await moderation.refresh()
        # whoever read the new sanctions (a request may have, between two looks), they are
        # applied here once
        if moderation.version != self._applied:
            self._applied = moderation.version
            close_banned_accounts(moderation, self._connections)
            banned = moderation.banned_accounts()
            for account_id in banned - self._banned:
                await self._lobby.remove_account(account_id, BANNED_SEAT)
            self._banned = banned
            close_banned_addresses(moderation, self._connections)
        for account_id in await moderation.store.deleted_since(self._deleted_since):
            if account_id not in self._forgotten:
                await self._lobby.forget_account_seats(account_id)
                self._forgotten.add(account_id)
        self._deleted_since = now - CLOCK_SKEW
        close_ended(moderation, ended, self._connections)

    async def run(self, interval: float) -> None:
        """`once` every `interval` seconds until cancelled; a store that cannot be reached
        is tried again at the next look (games go on without it)."""
        while True:
            with contextlib.suppress(Refusal):
                try:
                    await self.once()
                except Refusal:
                    raise
                except Exception:  # one failure must not stop the node's moderation
                    log.exception("applying moderation failed")
            await asyncio.sleep(interval)
