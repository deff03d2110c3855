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

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from dominion.protocol import ErrorCode

from ...accounts.passkeys import RelyingParty
from ...accounts.store import Passkey
from ..state import STATE
from ..transport.prefixes import client_key
from .accounts_api import (
    ACCOUNTS_DOWN,
    CROSS_SITE,
    SignedIn,
    refuse_banned,
    with_session,
)
from .bearer import MANAGE_ERRORS, Use, require_account
from .models import TIMESTAMP, Removed, component, encode, member, model, nullable, ref
from .operation import Operation, Param, Reply, Routes, Tag, Where, read_body
from .sessions import refuse_cross_site, session_secret

CEREMONIES_PER_MINUTE = 30
"""Passkey options an address may ask for a minute (bursts of as many)."""
BUDGET = "passkeys"


def relying_party(request: web.Request) -> RelyingParty:
    settings = request.config_dict[STATE].settings
    url = settings.public_url or f"{request.scheme}://{request.host}"
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return RelyingParty(id=host, origin=f"{parts.scheme}://{host}{port}",
                        name=settings.server_name)


@model("A passkey of the account's (never its key).")
class PasskeyFacts:
    id: int = member({"type": "integer", "minimum": 1})
    name: str = member({"type": "string", "minLength": 1, "maxLength": 40})
    created_at: datetime = member(TIMESTAMP)
    last_used_at: datetime | None = member(nullable(TIMESTAMP))

    @classmethod
    def of(cls, passkey: Passkey) -> PasskeyFacts:
        return cls(passkey.id, passkey.name, passkey.created_at, passkey.last_used_at)


@model()
class PasskeyCreated:
    passkey: PasskeyFacts = member(ref(PasskeyFacts))


@model()
class Passkeys:
    passkeys: list[PasskeyFacts] = member({"type": "array", "items": ref(PasskeyFacts)})


@model(closed=False)
class PasskeyRegistration:
    name: object = member({"type": "string", "minLength": 1, "maxLength": 40})
    credential: object = member({"type": "object"}, "the new credential's toJSON()")


@model(closed=False)
class PasskeySignIn:
    credential: object = member({"type": "object"}, "the assertion's toJSON()")


PASSKEY_OPTIONS = component("PasskeyOptions", {
    "type": "object", "required": ["challenge"],
    "description": "WebAuthn options in their JSON form (PublicKeyCredentialCreationOptionsJSON "
                   "or PublicKeyCredentialRequestOptionsJSON), for "
                   "PublicKeyCredential.parse*OptionsFromJSON",
    "properties": {"challenge": {"type": "string"}}})
OPTIONS = Reply(200, "The options; their challenge is good once, for 120 s", PASSKEY_OPTIONS)
CEREMONY = {429: "Too many passkey requests from this address, or too many failed sign-ins "
                 "(retry_after_ms)"}
REFUSED = (ErrorCode.PASSKEY_REFUSED, ErrorCode.PASSKEY_CHALLENGE_EXPIRED)
MANAGING = (*CROSS_SITE, *MANAGE_ERRORS, *ACCOUNTS_DOWN)
ROUTES = Routes(cookie=True)


def _ceremony(request: web.Request) -> None:
    """Charge the address one ceremony (its challenge is stored), or `rate_limited`."""
    request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)


@ROUTES(Operation(
    "POST", "/account/passkeys/register/options", "passkeyRegistrationOptions", Tag.ACCOUNTS,
    "Options to make a passkey for the signed-in account", (OPTIONS,),
    (*MANAGING, ErrorCode.RATE_LIMITED),
    description="A discoverable credential (resident key), user verification preferred; the "
                "account's passkeys are excluded.",
    notes=CEREMONY, secret=True))
async def registration_options(request: web.Request) -> dict[str, Any]:
    account = await require_account(request, Use.MANAGE)
    _ceremony(request)
    options: dict[str, Any] = await request.config_dict[STATE].passkeys.registration_options(
        account, relying_party(request))
    return options


@ROUTES(Operation(
    "POST", "/account/passkeys/register", "registerPasskey", Tag.ACCOUNTS,
    "Keep the passkey the authenticator made, under a name",
    (Reply(201, "The passkey", PasskeyCreated),),
    (ErrorCode.BAD_CREDENTIAL, ErrorCode.BAD_PASSKEY_NAME, *REFUSED, *MANAGING),
    body=PasskeyRegistration, secret=True))
async def register(request: web.Request) -> PasskeyCreated:
    account = await require_account(request, Use.MANAGE)
    body = await read_body(request, PasskeyRegistration)
    passkey = await request.config_dict[STATE].passkeys.register(
        account, relying_party(request), body.name, body.credential)
    return PasskeyCreated(PasskeyFacts.of(passkey))


@ROUTES(Operation("GET", "/account/passkeys", "passkeys", Tag.ACCOUNTS,
                  "The signed-in account's passkeys", (Reply(200, "Oldest first", Passkeys),),
                  (*MANAGE_ERRORS, *ACCOUNTS_DOWN), secret=True))
async def passkeys(request: web.Request) -> Passkeys:
    account = await require_account(request, Use.MANAGE)
    held = await request.config_dict[STATE].passkeys.of(account)
    return Passkeys([PasskeyFacts.of(passkey) for passkey in held])


# digits only: DELETE .../register is the registration's path (405), not a passkey's
@ROUTES(Operation(
    "DELETE", r"/account/passkeys/{passkey_id:\d{1,18}}", "removePasskey", Tag.ACCOUNTS,
    "Remove one of the signed-in account's passkeys",
    (Reply(200, "Removed: it signs no one in", Removed),),
    (*MANAGING, ErrorCode.UNKNOWN_PASSKEY, ErrorCode.NOT_FOUND),
    parameters=(Param("passkey_id", Where.PATH, {"type": "string", "pattern": r"^\d{1,18}$"}),),
    notes={404: "No such passkey of this account's (`not_found`: an id that is not a "
                "number)"}))
async def remove(request: web.Request) -> Removed:
    account = await require_account(request, Use.MANAGE)
    await request.config_dict[STATE].passkeys.remove(account, int(request.match_info["passkey_id"]))
    return Removed(True)


@ROUTES(Operation(
    "POST", "/passkeys/sign-in/options", "passkeySignInOptions", Tag.ACCOUNTS,
    "Options to sign in with a passkey (no name: the authenticator offers its accounts)",
    (OPTIONS,), (*CROSS_SITE, ErrorCode.RATE_LIMITED, *ACCOUNTS_DOWN), notes=CEREMONY,
    secret=True))
async def sign_in_options(request: web.Request) -> dict[str, Any]:
    refuse_cross_site(request)
    _ceremony(request)
    options: dict[str, Any] = await request.config_dict[STATE].passkeys.sign_in_options(
        relying_party(request), client_key(request))
    return options


@ROUTES(Operation(
    "POST", "/passkeys/sign-in", "passkeySignIn", Tag.ACCOUNTS,
    "Sign in with a passkey's answer", (Reply(200, "Signed in", SignedIn),),
    (ErrorCode.BAD_CREDENTIAL, *REFUSED, *CROSS_SITE, ErrorCode.ACCOUNT_BANNED,
     ErrorCode.RATE_LIMITED, *ACCOUNTS_DOWN),
    description="Sets the session and device cookies as signIn does. Failures are "
                "throttled per address prefix and per account and prefix, in buckets of "
                "their own: failed passwords never block a passkey.",
    body=PasskeySignIn, notes=CEREMONY))
async def sign_in(request: web.Request) -> web.Response:
    refuse_cross_site(request)
    body = await read_body(request, PasskeySignIn)
    account, secret = await request.config_dict[STATE].passkeys.sign_in(
        relying_party(request), body.credential, client_key(request), session_secret(request))
    await refuse_banned(request, account, secret)  # a passkey signs no banned one in
    return with_session(request, web.json_response(encode(SignedIn.of(account))), secret,
                        account)
