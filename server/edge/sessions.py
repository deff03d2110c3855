"""Who a request is signed in as: the session cookie, looked up in the account store on
every request (a session ended on another node is ended here at once). Its own module so
that the lobby's routes (rest.py) and the accounts' (accounts_api.py) both read it."""

from __future__ import annotations

from aiohttp import web

from ..accounts import Account, Accounts

ACCOUNTS = web.AppKey("accounts", Accounts)
SESSION_COOKIE = "dominion-session"
DEVICE_COOKIE = "dominion-device"
"""A browser that signed in to an account (accounts/devices.py): read at sign-in only."""
DEVICE_PATH = "/api/v1/account/sign-in"
DEVICE_DAYS = 400
"""As long as browsers keep a cookie (Chrome's cap)."""


def session_secret(request: web.Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE)


async def signed_in(request: web.Request) -> Account | None:
    """The account the request's session cookie signs in, if any."""
    secret = session_secret(request)
    if secret is None:
        return None
    return await request.config_dict[ACCOUNTS].account_of(secret)


async def signed_in_session(request: web.Request) -> tuple[bytes, Account] | None:
    """The hash of the request's live session and the account it signs in, if any (what
    a WebSocket the session signs in remembers: ended, it closes the socket)."""
    return await request.config_dict[ACCOUNTS].session_of(session_secret(request))
