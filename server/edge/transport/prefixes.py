"""The key every per-address limit counts by: the network prefix an address is in.

One IPv6 host is usually given a whole /64, so counting exact addresses would give it
2^64 budgets; IPv4 addresses are counted alone by default. An IPv4-mapped IPv6 address
(::ffff:203.0.113.9, what a dual-stack socket reports) counts as the IPv4 address it is.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from aiohttp import web

from ..state import STATE
from .addresses import client_address


@lru_cache(maxsize=4096)
def address_key(address: str, ipv4_prefix: int, ipv6_prefix: int) -> str:
    """The network `address` is in, as text (203.0.113.0/24, 2001:db8:1:2::/64); what is
    not an IP address (a forwarded hop a proxy did not fill in) is its own key."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ipaddress.IPv4Network((int(ip), ipv4_prefix), strict=False))
    return str(ipaddress.IPv6Network((int(ip), ipv6_prefix), strict=False))  # no zone


def client_key(request: web.Request) -> str:
    """The key of the request's client (its address as `client_address` finds it)."""
    settings = request.config_dict[STATE].settings
    return address_key(client_address(request), settings.ipv4_prefix, settings.ipv6_prefix)
