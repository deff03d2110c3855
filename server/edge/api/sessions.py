"""Who a request is signed in as: the session cookie, looked up in the account store on
every request (a session ended on another node is ended here at once), and the one
cross-site rule every route that reads it follows. Its own module so that the operation
layer (operation.py), the lobby's routes and the accounts' all read it the same way.

The rule (`site_of`: `session_secret` reads the cookie by it, and `honour_cookie`, which
the operation layer applies to every operation that declares `cookie=True`, the
WebSocket upgrade among them, refuses by it): the cookie counts only for a
request from the server's own page: one whose `Origin` names this server (public_url or
the address it was reached at), or a GET or HEAD without an Origin (browsers send none
on those) whose `Sec-Fetch-Site` is `same-origin` or `none` (the page's own fetch, or a
navigation). A WebSocket upgrade and any request that changes something need the
Origin, which browsers always send on them. From another site's page (an Origin naming
another, or a `Sec-Fetch-Site` of `cross-site` or `same-site`) a request that changes
something is refused (`cross_site_request`); any other request goes on without the
cookie: a guest's, or `not_signed_in` where an account is needed. A bearer token is not
a cookie: a request with one is never refused here.
"""

from __future__ import annotations

from enum import Enum

from aiohttp import hdrs, web

from dominion.protocol import ErrorCode

from ...accounts import Account
from ...refusal import Refusal
from ..state import STATE
from ..transport.origins import names_this_server

SESSION_COOKIE = "dominion-session"
DEVICE_COOKIE = "dominion-device"
"""A browser that signed in to an account (accounts/devices.py): read at sign-in only."""
DEVICE_PATH = "/api/v1/account/sign-in"
DEVICE_DAYS = 400
"""As long as browsers keep a cookie (Chrome's cap)."""
SAME_SITE_FETCHES = frozenset({"same-origin", "none"})
"""`Sec-Fetch-Site` values of a request from the server's own page, or typed by its user."""
SAFE_METHODS = frozenset({hdrs.METH_GET, hdrs.METH_HEAD, hdrs.METH_OPTIONS})
"""What changes nothing: from another site, the cookie is ignored rather than refused."""


class Site(Enum):
    """Where a browser says a request comes from."""

    OWN = "own"
    """The server's own page, or the browser's own navigation."""
    OTHER = "other"
    """Another site's page."""
    UNSAID = "unsaid"
    """Neither Origin nor Sec-Fetch-Site: not a browser's page, or an old browser."""


def site_of(request: web.Request) -> Site:
    origin = request.headers.get(hdrs.ORIGIN)
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if (fetch_site is not None and fetch_site not in SAME_SITE_FETCHES) or (
            origin is not None and not names_this_server(origin, request)):
        return Site.OTHER
    if origin is not None:
        return Site.OWN
    if fetch_site is not None and request.method in SAFE_METHODS \
            and hdrs.UPGRADE not in request.headers:
        return Site.OWN  # a fetch or navigation of the page's own, which sends no Origin
    return Site.UNSAID


def refuse_cross_site(request: web.Request) -> None:
    """`cross_site_request` for a browser's request from another site's page (signing in
    or registering from one, with or without a cookie)."""
    if site_of(request) is Site.OTHER:
        raise Refusal(ErrorCode.CROSS_SITE_REQUEST,
                      "a page of another site may not act here with this browser's cookie")


def honour_cookie(request: web.Request) -> None:
    """The cross-site rule's refusal, before a route the cookie may sign in reads
    anything: a request from another site's page that changes something and carries
    the cookie (and no bearer token). Whether the cookie then counts is
    `session_secret`'s to say, by the same rule."""
    if SESSION_COOKIE in request.cookies and request.method not in SAFE_METHODS \
            and hdrs.AUTHORIZATION not in request.headers and site_of(request) is Site.OTHER:
        refuse_cross_site(request)


def session_secret(request: web.Request) -> str | None:
    """The session cookie's secret, if the cross-site rule lets it count: from the
    server's own page only (None otherwise: the request is a guest's)."""
    if site_of(request) is not Site.OWN:
        return None
    return request.cookies.get(SESSION_COOKIE)


async def signed_in(request: web.Request) -> Account | None:
    """The account the request's session cookie signs in, if any."""
    secret = session_secret(request)
    if secret is None:
        return None
    return await request.config_dict[STATE].accounts.account_of(secret)


async def signed_in_session(request: web.Request) -> tuple[bytes, Account] | None:
    """The hash of the request's live session and the account it signs in, if any (what
    a WebSocket the session signs in remembers: ended, it closes the socket)."""
    return await request.config_dict[STATE].accounts.session_of(session_secret(request))
