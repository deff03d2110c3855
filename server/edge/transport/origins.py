"""Which names and pages the server answers to: the Host check on every route, and the
Origin check of the WebSocket upgrade.

A DNS-rebinding page has its own name resolve to 127.0.0.1, so that its visitor's browser
sends requests to a server on the visitor's machine with `Host` and `Origin` both naming
the page's site: comparing the two proves nothing. So:

- a request that arrived on a loopback address must name a loopback host (localhost,
  127.x.x.x, ::1) or the host of `public_url` (what a proxy in front passes on) in its
  Host header, or it is refused with `unknown_host` (421);
- a browser's WebSocket (a request with an Origin) is upgraded only when the Origin is a
  bare `scheme://host[:port]` naming `public_url`, the address the connection arrived at
  (every loopback name is one when that is a loopback address), or an allowed origin.

Requests without these headers are not a browser's (a browser always sends Host, and
Origin on a WebSocket): the terminal client and bots are not checked.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Awaitable
from urllib.parse import urlsplit

from aiohttp import hdrs, web

from dominion.protocol import ErrorCode

from ..rest import Handler, error_response
from ..state import STATE

Origin = tuple[str, str, int]
"""Scheme, host (lower case, an IPv6 address without brackets) and port."""
DEFAULT_PORTS = {"http": 80, "https": 443}
AUTHORITY = r"(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:[0-9]{1,5})?"
HOST = re.compile(AUTHORITY, re.IGNORECASE)
"""What a browser sends as a Host: a name or an address, and perhaps a port."""
BARE_ORIGIN = re.compile(f"https?://{AUTHORITY}", re.IGNORECASE)
"""What a browser sends as an Origin: no path, query, fragment or user, nothing else."""
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@web.middleware
def known_hosts_only(request: web.Request, handler: Handler) -> Awaitable[web.StreamResponse]:
    """Refuse a request whose Host is not one of this server's names (DNS rebinding).

    A plain function, as `unmatched_as_json`: an allowed request (a WebSocket's, above
    all) goes on to its handler without a middleware frame on its stack."""
    if host_allowed(request):
        return handler(request)
    return _unknown_host()


async def _unknown_host() -> web.Response:
    return error_response(ErrorCode.UNKNOWN_HOST, "this server answers only to its own names: "
                                          "localhost, a loopback address or its public_url")


def host_allowed(request: web.Request) -> bool:
    """False for a request that arrived on a loopback address and names in its Host
    header neither a loopback host nor public_url's host."""
    local = _local_address(request)
    if local is not None and not _is_loopback(local[0]):
        return True  # reachable from elsewhere by its address anyway: no name to guard
    host = request.headers.get(hdrs.HOST)
    if host is None:
        return True  # not a browser
    named = url_origin(f"http://{host}") if HOST.fullmatch(host) else None
    if named is None:
        return False
    public = url_origin(request.config_dict[STATE].settings.public_url)
    return _is_loopback(named[1]) or (public is not None and named[1] == public[1])


def origin_allowed(request: web.Request) -> bool:
    """May this request's browser page open a WebSocket here (true without an Origin)?"""
    header = request.headers.get(hdrs.ORIGIN)
    if header is None:
        return True  # not a browser: the check protects browsers' users
    origin = bare_origin(header)
    if origin is None:
        return False
    settings = request.config_dict[STATE].settings
    if "*" in settings.allowed_origins:
        return True
    named = {url_origin(url) for url in (settings.public_url, *settings.allowed_origins)}
    return origin in named or _names_the_local_address(origin, request)


def names_this_server(header: str, request: web.Request) -> bool:
    """Does an Origin header name this server's own pages: public_url, or the address the
    request arrived at? (Not the allowed origins: those may open WebSockets, not act with
    a visitor's cookie.)"""
    origin = bare_origin(header)
    return origin is not None and (origin == url_origin(
        request.config_dict[STATE].settings.public_url)
        or _names_the_local_address(origin, request))


def bare_origin(header: str) -> Origin | None:
    """The origin an Origin header names, if it is only `scheme://host[:port]`."""
    return url_origin(header) if BARE_ORIGIN.fullmatch(header) else None


def url_origin(url: str) -> Origin | None:
    """The origin of an http or https URL (a setting's: its path, if any, is ignored)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _names_the_local_address(origin: Origin, request: web.Request) -> bool:
    """Does the origin name the address and port the connection arrived at? (A page
    loaded straight from the server, not through a proxy.)"""
    local = _local_address(request)
    if local is None or origin[2] != local[1]:
        return False
    if _is_loopback(local[0]):
        return _is_loopback(origin[1])
    ip = _ip(origin[1])
    return ip is not None and ip == _ip(local[0])


def _local_address(request: web.Request) -> tuple[str, int] | None:
    """The address and port the request arrived at (None once the client is gone)."""
    transport = request.transport
    name = transport.get_extra_info("sockname") if transport is not None else None
    if isinstance(name, tuple) and len(name) >= 2:
        return str(name[0]), int(name[1])
    return None


def _is_loopback(host: str) -> bool:
    """localhost, 127.x.x.x or ::1 (a URL's host, without brackets)."""
    if host.lower() == "localhost":
        return True
    ip = _ip(host)
    return ip is not None and ip.is_loopback


def _ip(host: str) -> IpAddress | None:
    """The host as an IP address, an IPv4 one for an IPv4-mapped IPv6 address (a socket
    listening on :: names its IPv4 peers so)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return mapped or ip
