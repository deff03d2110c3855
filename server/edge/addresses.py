"""Who a request comes from: its address, believing X-Forwarded-For only from the
trusted proxies in front of the server (every per-address limit counts by this)."""

from __future__ import annotations

import contextlib
import ipaddress

from aiohttp import web

from .state import SETTINGS


def client_address(request: web.Request) -> str:
    """The client's address; X-Forwarded-For is believed only from trusted proxies."""
    remote = request.remote or "unknown"
    trusted = request.config_dict[SETTINGS].trusted_proxies
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and _is_trusted(remote, trusted):
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not _is_trusted(hop, trusted):
                return hop
    return remote


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
