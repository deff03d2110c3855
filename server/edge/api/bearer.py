"""Who a request acts as, and for what: a personal access token in `Authorization:
Bearer` (third-party clients and bots), or else the session cookie (the web client).

Each route says what it does with the account (`Use`): reading needs a token with scope
`read`; playing needs `play` for a person's account and `bot:play` for a bot account's
(and a bot account never plays by its session); managing the account (its tokens, its
becoming a bot, its deletion) needs the session, so that a leaked token cannot make more.
A token is never read from the query string, where it would land in logs; a bearer
request needs no cross-site check (a browser never adds the header by itself).
"""

from __future__ import annotations

from enum import Enum

from aiohttp import hdrs, web

from dominion.protocol import ErrorCode

from ...accounts import Account
from ...accounts.access_tokens import play_scope
from ...accounts.store import Scope
from ...refusal import Refusal
from ..state import STATE
from ..transport.bearer_header import bearer_of
from .sessions import signed_in


class Use(Enum):
    READ = "read"
    PLAY = "play"
    MANAGE = "manage"


# What each way of asking who acts may refuse (each route declares its codes: operation.py).
PLAY_AS_ERRORS = (ErrorCode.TOKEN_INVALID, ErrorCode.TOKEN_EXPIRED, ErrorCode.SCOPE_MISSING,
                  ErrorCode.BOT_ACCOUNT)
"""`acting_as(request, Use.PLAY)`: a guest may play; a token must be good for playing."""
SEATING_ERRORS = (*PLAY_AS_ERRORS, ErrorCode.RATED_NEEDS_ACCOUNT)
"""A seat taken as the request's account: rated tables seat accounts only."""
READ_ERRORS = (ErrorCode.NOT_SIGNED_IN, ErrorCode.TOKEN_INVALID, ErrorCode.TOKEN_EXPIRED,
               ErrorCode.SCOPE_MISSING)
"""`require_account(request, Use.READ)`: the session, or a token with `read`."""
MANAGE_ERRORS = (ErrorCode.NOT_SIGNED_IN, ErrorCode.TOKEN_INVALID, ErrorCode.SCOPE_MISSING)
"""`require_account(request, Use.MANAGE)`: the session only (a token is `scope_missing`)."""


def bearer_secret(request: web.Request) -> str | None:
    return bearer_of(request.headers.get(hdrs.AUTHORIZATION))


async def acting_as(request: web.Request, use: Use) -> Account | None:
    """The account the request acts as for `use` (None: a guest); typed refusals for a
    token that is not good for it."""
    secret = bearer_secret(request)
    if secret is None:
        account = await signed_in(request)
        if account is not None and account.bot and use is Use.PLAY:
            raise Refusal(ErrorCode.BOT_ACCOUNT, "a bot account plays only with a bot:play "
                                                   "token, not signed in as a person")
        return account
    if use is Use.MANAGE:
        raise Refusal(ErrorCode.SCOPE_MISSING, "an access token cannot manage the account "
                                                 "or its tokens: sign in with the password")
    tokens = request.config_dict[STATE].accounts.access_tokens
    _, account = await tokens.check(secret, play_scope if use is Use.PLAY else _read)
    moderation = request.config_dict[STATE].moderation
    await moderation.refresh_if_reachable()
    moderation.refuse_banned(account.id)  # a ban ends the sessions; tokens refuse here
    return account


async def require_account(request: web.Request, use: Use) -> Account:
    account = await acting_as(request, use)
    if account is None:
        raise Refusal(ErrorCode.NOT_SIGNED_IN, "sign in first, or send an access token")
    return account


def _read(account: Account) -> Scope:
    return Scope.READ
