"""Who a request comes from: its address, believing X-Forwarded-For only from the
trusted proxies in front of the server (every per-address limit counts by this)."""

from __future__ import annotations

import contextlib
import ipaddress

from aiohttp import web

from ..state import STATE


def client_address(request: web.Request) -> str:
    """The client's address; X-Forwarded-For is believed only from trusted proxies.

    The header's hops are walked from the right (the nearest proxy's) to the first one
    that is not a trusted proxy. A hop that is not an IP address (a name, `unknown`, an
    address with a port such as `1.2.3.4:80` or `[::1]:80`, anything a client wrote) is
    skipped: it cannot be a proxy's, and as an address it would be any string a client
    chose. An address is given in one form (`2001:db8::7`, however the header wrote it),
    so that one client is one key of the per-address limits.
    """
    remote = request.remote or "unknown"
    trusted = request.config_dict[STATE].settings.trusted_proxies
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and _is_trusted(remote, trusted):
        for hop in reversed([_ip_address(hop) for hop in forwarded.split(",")]):
            if hop is not None and not _is_trusted(hop, trusted):
                return hop
    return remote


def _ip_address(hop: str) -> str | None:
    """The hop as an IP address in its one written form, if it is one."""
    try:
        return str(ipaddress.ip_address(hop.strip()))
    except ValueError:
        return None


def _is_trusted(address: str, trusted: tuple[str, ...]) -> bool:
    """Is `address` one of the trusted proxies (addresses or networks like 10.0.0.0/8)?"""
    if address in trusted:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in trusted:
        with contextlib.suppress(ValueError):
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
    return False
