"""Accounts over REST under /api/v1/account: register, sign in and out (here or
everywhere), who am I, delete my account; the account's games, and a seat of theirs
taken up again from another device (`/api/v1/games/{id}/reclaim`: under the game's path,
so that a proxy in front of several nodes sends it to the game's node).

A web client is signed in by a session cookie (HttpOnly, SameSite=Lax, Secure when
public_url is https) holding a random secret the account store keeps only hashed, so a
session is valid on every node and ends on all at once. Every request here that changes
something is refused when a browser sends it from another site's page (`Origin` or
`Sec-Fetch-Site`): a cookie alone must never be enough for another site to act.
"""

from __future__ import annotations

from typing import Any

from aiohttp import hdrs, web

from dominion.protocol import CloseCode, ErrorCode

from ..accounts import Account
from ..cluster import ws_url
from ..errors import GameError
from .bearer import Use, bearer_secret, required
from .moderation_watch import ACCOUNT_DELETED, SESSION_ENDED, close_signed_in
from .origins import names_this_server
from .prefixes import client_key
from .rest import read_json
from .seats import seats_body
from .sessions import ACCOUNTS, SESSION_COOKIE, session_secret
from .state import DIRECTORY, MODERATION, SETTINGS, STATE

SAME_SITE_FETCHES = frozenset({"same-origin", "none"})
"""`Sec-Fetch-Site` values of a request from the server's own page, or typed by its user."""


def refuse_cross_site(request: web.Request) -> None:
    """`cross_site_request` for a browser's request from another site's page."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get(hdrs.ORIGIN)
    if (fetch_site is not None and fetch_site not in SAME_SITE_FETCHES) or (
            origin is not None and not names_this_server(origin, request)):
        raise GameError(ErrorCode.CROSS_SITE_REQUEST,
                        "a page of another site may not change accounts here")


async def refuse_banned(request: web.Request, account: Account, secret: str) -> None:
    """A banned account's new session ends at once: `account_banned` (the ban is read
    afresh from the store, which every node shares)."""
    moderation = request.config_dict[MODERATION]
    await moderation.refresh()
    try:
        moderation.refuse_banned(account.id)
    except GameError:
        await request.config_dict[ACCOUNTS].sign_out(secret)
        raise


def add_account_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.post("/account/register")
    async def register(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        body = await read_json(request)
        account, secret = await request.config_dict[ACCOUNTS].register(
            body.get("name"), body.get("password"), client_key(request))
        return with_session(request, web.json_response(account_json(account), status=201), secret)

    @routes.post("/account/sign-in")
    async def sign_in(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        body = await read_json(request)
        accounts = request.config_dict[ACCOUNTS]
        account, secret = await accounts.sign_in(
            body.get("name"), body.get("password"), client_key(request),
            session_secret(request))
        await refuse_banned(request, account, secret)
        return with_session(request, web.json_response(account_json(account)), secret)

    @routes.post("/account/sign-out")
    async def sign_out(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        secret = session_secret(request)
        ended = None if secret is None else await request.config_dict[ACCOUNTS].sign_out(secret)
        if ended is not None:  # the sockets this page signed in (other nodes': at a look)
            close_signed_in(request.config_dict[STATE].connections,
                            lambda c: c.session_hash == ended, CloseCode.UNAUTHORIZED,
                            SESSION_ENDED)
        return _without_session(web.json_response({"signed_out": True}))

    @routes.post("/account/sign-out-everywhere")
    async def sign_out_everywhere(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        await request.config_dict[ACCOUNTS].sign_out_everywhere(account)
        close_signed_in(request.config_dict[STATE].connections,
                        lambda c: c.session_hash is not None
                        and _same_account(c.account, account),
                        CloseCode.UNAUTHORIZED, SESSION_ENDED)
        return _without_session(web.json_response({"signed_out": True}))

    @routes.get("/account")
    async def who_am_i(request: web.Request) -> web.Response:
        return web.json_response(account_json(await required(request, Use.READ)))

    @routes.delete("/account")
    async def delete_account(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        body = await read_json(request)
        await request.config_dict[ACCOUNTS].delete(account, body.get("password"))
        state = request.config_dict[STATE]
        close_signed_in(state.connections, lambda c: _same_account(c.account, account),
                        CloseCode.UNAUTHORIZED, ACCOUNT_DELETED)
        await state.lobby.forget_account(account)
        return _without_session(web.json_response({"deleted": True}))

    @routes.get("/account/games")
    async def my_games(request: web.Request) -> web.Response:
        account = await required(request, Use.READ)
        games = seats_body(request.config_dict[STATE].lobby.seats_of(account))
        # behind several nodes, theirs too: a seat is on the node of its game
        others, missing = await request.config_dict[DIRECTORY].from_other_nodes(
            f"/api/v1/node/accounts/{account.id}/games")
        games += [game for body in others for game in body["games"]]
        games.sort(key=lambda entry: entry["game"]["created_at"], reverse=True)
        body: dict[str, Any] = {"games": games}
        if missing is not None:
            body["missing_nodes"] = missing
        return web.json_response(body)

    @routes.post("/account/bot")
    async def become_bot(request: web.Request) -> web.Response:
        refuse_cross_site(request)
        account = await required(request, Use.MANAGE)
        state = request.config_dict[STATE]
        played = bool(state.lobby.seats_of(account)) or state.storage.account_has_seats(
            account.id)
        bot = await request.config_dict[ACCOUNTS].tokens.make_bot(account, played)
        return web.json_response(account_json(bot))

    @routes.post("/games/{game_id}/reclaim")
    async def reclaim(request: web.Request) -> web.Response:
        if bearer_secret(request) is None:  # the cookie's: a cross-site page may not
            refuse_cross_site(request)
        account = await required(request, Use.PLAY)
        room, seat, token = await request.config_dict[STATE].lobby.reclaim(
            request.match_info["game_id"], account)
        response = web.json_response({"game": room.summary(), "seat": seat.index,
                                      "token": token, "ws_url": ws_url(room.id)})
        response.headers[hdrs.CACHE_CONTROL] = "no-store"
        return response

    app.router.add_routes(routes)


def _same_account(signed_in: Account | None, account: Account) -> bool:
    """Whether a connection signed in as `signed_in` (None: a guest's) is `account`'s."""
    return signed_in is not None and signed_in.id == account.id


def account_json(account: Account) -> dict[str, Any]:
    """What an account's owner is told of it: never its hash, nor the session secret
    (which only the cookie carries)."""
    return {"account": {"id": account.id, "name": account.name, "bot": account.bot,
                        "created_at": account.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")}}


def with_session(request: web.Request, response: web.Response, secret: str) -> web.Response:
    settings = request.config_dict[SETTINGS]
    response.set_cookie(SESSION_COOKIE, secret, max_age=int(settings.session_days * 86400),
                        path="/", httponly=True, samesite="Lax",
                        secure=settings.public_url.startswith("https://"))
    response.headers[hdrs.CACHE_CONTROL] = "no-store"
    return response


def _without_session(response: web.Response) -> web.Response:
    response.del_cookie(SESSION_COOKIE, path="/")
    return response
