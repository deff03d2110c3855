"""Passkeys over REST: a signed-in account's (register one: options then the
authenticator's answer; list them; remove one) under /api/v1/account/passkeys, and
signing in with one under /api/v1/passkeys (options, then the answer: the session cookie
as a password sign-in sets it).

The relying party is the host of `public_url` with its origin, or, without one, the
host and scheme the request reached (already one of the server's names: origins.py);
browsers refuse an IP address as its id, so a server reached at 127.0.0.1 has no
passkeys, while one at localhost does. Asking for options costs the address a
ceremony (CEREMONIES_PER_MINUTE): each one stores a challenge.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from aiohttp import hdrs, web

from ..accounts.passkeys import Passkeys, RelyingParty
from ..accounts.store import Passkey
from .accounts_api import account_json, refuse_banned, refuse_cross_site, with_session
from .bearer import Use, required
from .prefixes import client_key
from .rest import read_json
from .sessions import session_secret
from .state import SETTINGS, STATE

PASSKEYS = web.AppKey("passkeys", Passkeys)
CEREMONIES_PER_MINUTE = 30
"""Passkey options an address may ask for a minute (bursts of as many)."""
BUDGET = "passkeys"


def relying_party(request: web.Request) -> RelyingParty:
    settings = request.config_dict[SETTINGS]
    url = settings.public_url or f"{request.scheme}://{request.host}"
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return RelyingParty(id=host, origin=f"{parts.scheme}://{host}{port}",
                        name=settings.server_name)


def _no_store(body: dict[str, Any], status: int = 200) -> web.Response:
    response = web.json_response(body, status=status)
    response.headers[hdrs.CACHE_CONTROL] = "no-store"
    return response


def _stamp(moment: Any) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def passkey_body(passkey: Passkey) -> dict[str, Any]:
    """What the owner is shown of a passkey (never its key)."""
    return {"id": passkey.id, "name": passkey.name, "created_at": _stamp(passkey.created_at),
            "last_used_at": _stamp(passkey.last_used_at)}


def _ceremony(request: web.Request) -> None:
    """Charge the address one ceremony (its challenge is stored), or `rate_limited`."""
    request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)


def add_passkey_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.post("/account/passkeys/register/options")
    async def registration_options(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        _ceremony(request)
        return _no_store(await request.config_dict[PASSKEYS].registration_options(
            account, relying_party(request)))

    @routes.post("/account/passkeys/register")
    async def register(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        body = await read_json(request)
        passkey = await request.config_dict[PASSKEYS].register(
            account, relying_party(request), body.get("name"), body.get("credential"))
        return _no_store({"passkey": passkey_body(passkey)}, status=201)

    @routes.get("/account/passkeys")
    async def passkeys(request: web.Request) -> web.Response:
        account = await required(request, Use.MANAGE)
        held = await request.config_dict[PASSKEYS].of(account)
        return _no_store({"passkeys": [passkey_body(passkey) for passkey in held]})

    # digits only: DELETE .../register is the registration's path (405), not a passkey's
    @routes.delete(r"/account/passkeys/{passkey_id:\d{1,18}}")
    async def remove(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        await request.config_dict[PASSKEYS].remove(account, int(request.match_info["passkey_id"]))
        return web.json_response({"removed": True})

    @routes.post("/passkeys/sign-in/options")
    async def sign_in_options(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        _ceremony(request)
        return _no_store(await request.config_dict[PASSKEYS].sign_in_options(
            relying_party(request), client_key(request)))

    @routes.post("/passkeys/sign-in")
    async def sign_in(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        body = await read_json(request)
        account, secret = await request.config_dict[PASSKEYS].sign_in(
            relying_party(request), body.get("credential"), client_key(request),
            session_secret(request))
        await refuse_banned(request, account, secret)  # a passkey signs no banned one in
        return with_session(request, web.json_response(account_json(account)), secret)

    app.router.add_routes(routes)
