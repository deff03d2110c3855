"""Personal access tokens over REST, under /api/v1/account/tokens: create one (its
secret in this answer only), list them (never the secret), revoke one. All of it needs
the session cookie (`Use.MANAGE`, bearer.py): a token cannot make tokens, so one that
leaks can do no more than it was made for. A revoked token's WebSocket connections close
(4007): here at once, on other nodes within `moderation_refresh_seconds`."""

from __future__ import annotations

from datetime import datetime

from aiohttp import web

from dominion.protocol import CloseCode, ErrorCode

from ...accounts.store import AccessToken, Scope
from ...refusal import Refusal
from ..state import STATE
from ..tasks.moderation_watch import TOKEN_REVOKED, close_signed_in
from .accounts_api import ACCOUNTS_DOWN, CROSS_SITE
from .bearer import MANAGE_ERRORS, Use, require_account
from .models import TIMESTAMP, Schema, member, model, nullable, ref
from .operation import Operation, Param, Reply, Routes, Tag, Where, read_body

SCOPES: Schema = {"type": "array",
                  "items": {"type": "string", "enum": [scope.value for scope in Scope]}}


@model("A personal access token, never its secret.")
class TokenFacts:
    id: int = member({"type": "integer", "minimum": 1})
    description: str = member({"type": "string", "maxLength": 100})
    scopes: list[str] = member(SCOPES)
    created_at: datetime = member(TIMESTAMP)
    expires_at: datetime | None = member(nullable(TIMESTAMP))
    last_used_at: datetime | None = member(nullable(TIMESTAMP))

    @classmethod
    def of(cls, token: AccessToken) -> TokenFacts:
        return cls(token.id, token.description, sorted(token.scopes), token.created_at,
                   token.expires_at, token.last_used_at)


@model()
class NewSecret(TokenFacts):
    """A token as it is made: the only answer that holds its secret."""

    secret: str = member({"type": "string", "pattern": "^dom_[A-Za-z0-9_-]{43}$"},
                         "the token: shown here once, never again; send it as "
                         "`Authorization: Bearer`")


@model()
class CreatedToken:
    token: NewSecret = member(ref(NewSecret))


@model()
class AccessTokens:
    tokens: list[TokenFacts] = member({"type": "array", "items": ref(TokenFacts)})


@model()
class Revoked:
    revoked: bool = member({"type": "boolean", "const": True})


@model(closed=False)
class NewToken:
    scopes: object = member({"type": "array", "minItems": 1, "uniqueItems": True,
                             "items": SCOPES["items"]})
    description: object = member({"type": "string", "maxLength": 100}, default="")
    expires_in_days: object = member({"type": "integer", "minimum": 1, "maximum": 3650},
                                     default=None)


ROUTES = Routes(cookie=True)
MANAGING = (*CROSS_SITE, *MANAGE_ERRORS, *ACCOUNTS_DOWN)


@ROUTES(Operation(
    "POST", "/account/tokens", "createToken", Tag.ACCOUNTS,
    "Create a personal access token (its secret shown once)",
    (Reply(201, "The token and its secret", CreatedToken),),
    (ErrorCode.BAD_SCOPES, ErrorCode.BAD_TOKEN_REQUEST, *MANAGING, ErrorCode.TOO_MANY_TOKENS),
    body=NewToken, secret=True))
async def create_token(request: web.Request) -> CreatedToken:
    account = await require_account(request, Use.MANAGE)
    body = await read_body(request, NewToken)
    token, secret = await request.config_dict[STATE].accounts.access_tokens.create(
        account, body.description, body.scopes, body.expires_in_days)
    return CreatedToken(NewSecret(**vars(TokenFacts.of(token)), secret=secret))


@ROUTES(Operation("GET", "/account/tokens", "listTokens", Tag.ACCOUNTS,
                  "The account's tokens, without their secrets",
                  (Reply(200, "The tokens", AccessTokens),), (*MANAGE_ERRORS, *ACCOUNTS_DOWN)))
async def list_tokens(request: web.Request) -> AccessTokens:
    account = await require_account(request, Use.MANAGE)
    tokens = await request.config_dict[STATE].accounts.access_tokens.of(account)
    return AccessTokens([TokenFacts.of(token) for token in tokens])


@ROUTES(Operation(
    "DELETE", "/account/tokens/{token_id}", "revokeToken", Tag.ACCOUNTS,
    "Revoke one of the account's tokens, at once on every node", (Reply(200, "Revoked", Revoked),),
    (*MANAGING, ErrorCode.NOT_FOUND),
    parameters=(Param("token_id", Where.PATH, {"type": "string"}, "a token's id"),),
    notes={404: "No such token of this account's"}))
async def revoke_token(request: web.Request) -> Revoked:
    account = await require_account(request, Use.MANAGE)
    raw = request.match_info["token_id"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Refusal(ErrorCode.NOT_FOUND, "a token's id is a number")
    token_id = int(raw)
    await request.config_dict[STATE].accounts.access_tokens.revoke(account, token_id)
    # the connections it signed in close here at once; other nodes' within a refresh
    close_signed_in(request.config_dict[STATE].connections,
                    lambda connection: connection.token_id == token_id,
                    CloseCode.UNAUTHORIZED, TOKEN_REVOKED)
    return Revoked(True)
