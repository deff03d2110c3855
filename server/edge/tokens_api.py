"""Personal access tokens over REST, under /api/v1/account/tokens: create one (its
secret in this answer only), list them (never the secret), revoke one. All of it needs
the session cookie (`Use.MANAGE`, bearer.py): a token cannot make tokens, so one that
leaks can do no more than it was made for. A revoked token's WebSocket connections close
(4007): here at once, on other nodes within `moderation_refresh_seconds`."""

from __future__ import annotations

from typing import Any

from aiohttp import hdrs, web

from dominion.protocol import CloseCode, ErrorCode

from ..accounts.store import AccessToken
from ..errors import GameError
from .accounts_api import refuse_cross_site
from .bearer import Use, required
from .moderation_watch import TOKEN_REVOKED, close_signed_in
from .rest import read_json
from .sessions import ACCOUNTS
from .state import STATE


def add_token_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.post("/account/tokens")
    async def create_token(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        body = await read_json(request)
        token, secret = await request.config_dict[ACCOUNTS].tokens.create(
            account, body.get("description", ""), body.get("scopes"),
            body.get("expires_in_days"))
        response = web.json_response({"token": {**_listed(token), "secret": secret}},
                                     status=201)
        response.headers[hdrs.CACHE_CONTROL] = "no-store"
        return response

    @routes.get("/account/tokens")
    async def list_tokens(request: web.Request) -> web.Response:
        account = await required(request, Use.MANAGE)
        tokens = await request.config_dict[ACCOUNTS].tokens.of(account)
        return web.json_response({"tokens": [_listed(token) for token in tokens]})

    @routes.delete("/account/tokens/{token_id}")
    async def revoke_token(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        raw = request.match_info["token_id"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
            raise GameError(ErrorCode.NOT_FOUND, "a token's id is a number")
        token_id = int(raw)
        await request.config_dict[ACCOUNTS].tokens.revoke(account, token_id)
        # the connections it signed in close here at once; other nodes' within a refresh
        close_signed_in(request.config_dict[STATE].connections,
                        lambda connection: connection.token_id == token_id,
                        CloseCode.UNAUTHORIZED, TOKEN_REVOKED)
        return web.json_response({"revoked": True})

    app.router.add_routes(routes)


def _listed(token: AccessToken) -> dict[str, Any]:
    return {"id": token.id, "description": token.description,
            "scopes": sorted(token.scopes), "created_at": _time(token.created_at),
            "expires_at": _time(token.expires_at), "last_used_at": _time(token.last_used_at)}


def _time(moment: Any) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")
