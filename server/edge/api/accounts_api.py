"""Accounts over REST under /api/v1/account: register, sign in and out (here or
everywhere), who am I, change my password, delete my account; the account's games, and a
seat of theirs taken up again from another device (`/api/v1/games/{id}/reclaim`: under the
game's path, so that a proxy in front of several nodes sends it to the game's node).

A web client is signed in by a session cookie (HttpOnly, SameSite=Lax, Secure when
public_url is https) holding a random secret the account store keeps only hashed, so a
session is valid on every node and ends on all at once. Every route here follows the
one cross-site rule (sessions.py): a request from another site's page that changes
something is refused, and the cookie counts only from the server's own page. Signing in
and registering are refused from another site's page with or without a cookie.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aiohttp import web

from dominion.protocol import CloseCode, ErrorCode

from ...accounts import Account
from ...accounts.service import session_hash
from ...accounts.store import LAST_ID
from ...refusal import Refusal
from ..state import STATE
from ..tasks.moderation_watch import ACCOUNT_DELETED, SESSION_ENDED, close_signed_in
from ..transport.prefixes import client_key
from .bearer import MANAGE_ERRORS, READ_ERRORS, Use, require_account
from .lobby_api import Seated
from .models import TIMESTAMP, encode, member, model, ref
from .operation import GAME_ID, Operation, Reply, Routes, Tag, no_store, read_body
from .seats import AccountSeat, seats_body
from .sessions import (
    DEVICE_COOKIE,
    DEVICE_DAYS,
    DEVICE_PATH,
    SESSION_COOKIE,
    refuse_cross_site,
    session_secret,
)

EVERYWHERE = "signed out everywhere: every session and access token of the account ended"
"""The reason its connections are closed with (4007) when their owner signs out everywhere."""
PASSWORD_CHANGED = "the account's password changed: its other sessions ended"
"""The reason the other sessions' connections are closed with (4007)."""
async def refuse_banned(request: web.Request, account: Account, secret: str) -> None:
    """A banned account's new session ends at once: `account_banned` (the ban is read
    afresh from the store, which every node shares)."""
    moderation = request.config_dict[STATE].moderation
    await moderation.refresh()
    try:
        moderation.refuse_banned(account.id)
    except Refusal:
        await request.config_dict[STATE].accounts.sign_out(secret)
        raise


@model(closed=False)
class Credentials:
    name: object = member({"type": "string", "minLength": 2, "maxLength": 20},
                          "2 to 20 letters, marks, numbers, '_', '-' and '.', in one script; "
                          "unique whatever its case and look-alike letters; not reserved")
    password: object = member({"type": "string", "minLength": 8, "maxLength": 256},
                              "not one of the 30,000 most common passwords")


@model(closed=False)
class Password:
    password: object = member({"type": "string"})


@model()
class AccountFacts:
    id: int = member({"type": "integer", "minimum": 1, "maximum": LAST_ID},
                     "never reused: drawn at random below 2^53 (exact in JavaScript); older "
                     "accounts keep their small ids")
    name: str = member({"type": "string", "minLength": 2, "maxLength": 20})
    bot: bool = member({"type": "boolean"}, "a bot account (for ever)")
    created_at: datetime = member(TIMESTAMP)


@model("The signed-in account (never its password or session).")
class SignedIn:
    """What an account's owner is told of it: never its hash, nor the session secret
    (which only the cookie carries)."""

    account: AccountFacts = member(ref(AccountFacts))

    @classmethod
    def of(cls, account: Account) -> SignedIn:
        return cls(AccountFacts(account.id, account.name, account.bot, account.created_at))


@model()
class SignedOut:
    signed_out: bool = member({"type": "boolean", "const": True})


@model(closed=False)
class PasswordChange:
    old_password: object = member({"type": "string"})
    new_password: object = member({"type": "string", "minLength": 8, "maxLength": 256},
                                  "not one of the 30,000 most common passwords")


def sessions_ended() -> Any:
    return member({"type": "integer", "minimum": 0},
                  "how many sessions (signed-in browsers) ended")


def tokens_revoked() -> Any:
    return member({"type": "integer", "minimum": 0}, "how many access tokens were revoked")


@model("Every session ended and every access token revoked; their sockets closed.")
class SignedOutEverywhere:
    signed_out: bool = member({"type": "boolean", "const": True})
    sessions_ended: int = sessions_ended()
    tokens_revoked: int = tokens_revoked()


@model("The new password holds; every other session ended (their sockets closed), this "
       "one kept; access tokens kept.")
class PasswordChanged:
    password_changed: bool = member({"type": "boolean", "const": True})
    sessions_ended: int = sessions_ended()
    tokens_revoked: int = tokens_revoked()


@model()
class Deleted:
    deleted: bool = member({"type": "boolean", "const": True})


@model("The account's seats in open and running games, newest first: behind several "
       "nodes, every node's.")
class AccountGames:
    games: list[dict[str, Any]] = member({"type": "array", "items": ref(AccountSeat)})
    missing_nodes: list[str] | None = member(
        {"type": "array", "items": {"type": "string"}},
        "behind several nodes: those that did not answer (their games are missing)",
        omitted_if_none=True)


ROUTES = Routes(cookie=True)
COOKIE = ("Sets the session cookie `dominion-session` (HttpOnly, SameSite=Lax, Secure when "
          "public_url is https): a new random session every time, never one the client "
          "sent; and the device cookie `dominion-device` (the same flags, Path "
          f"{DEVICE_PATH}, {DEVICE_DAYS} days), whose sign-ins are throttled apart from "
          "strangers' and hashed first. ")
THROTTLED = {429: "Too many failed sign-ins or registrations for this account or address, "
                  "or too many passwords being checked (retry_after_ms)"}
CROSS_SITE = (ErrorCode.CROSS_SITE_REQUEST,)
"""What `refuse_cross_site` answers."""
ACCOUNTS_DOWN = (ErrorCode.ACCOUNTS_UNAVAILABLE,)


@ROUTES(Operation(
    "POST", "/account/register", "register", Tag.ACCOUNTS,
    "Register an account, and sign in as it",
    (Reply(201, "The new account; signed in", SignedIn),),
    (ErrorCode.BAD_ACCOUNT_NAME, ErrorCode.MIXED_SCRIPTS, ErrorCode.NAME_RESERVED,
     ErrorCode.WEAK_PASSWORD, *CROSS_SITE, ErrorCode.NAME_TAKEN, ErrorCode.RATE_LIMITED,
     *ACCOUNTS_DOWN),
    description=COOKIE, body=Credentials, notes=THROTTLED))
async def register(request: web.Request) -> web.Response:
    refuse_cross_site(request)
    body = await read_body(request, Credentials)
    account, secret = await request.config_dict[STATE].accounts.register(
        body.name, body.password, client_key(request))
    return with_session(request, web.json_response(encode(SignedIn.of(account)), status=201),
                        secret, account)


@ROUTES(Operation(
    "POST", "/account/sign-in", "signIn", Tag.ACCOUNTS, "Sign in with a name and password",
    (Reply(200, "Signed in", SignedIn),),
    (ErrorCode.WRONG_CREDENTIALS, *CROSS_SITE, ErrorCode.ACCOUNT_BANNED,
     ErrorCode.RATE_LIMITED, *ACCOUNTS_DOWN),
    description=COOKIE + "The session the request's cookie held, if any, is ended. Failed "
                         "attempts make the next ones wait longer: a stranger's per account "
                         "and address prefix and per prefix, a known device's (its device "
                         "cookie) on its own.",
    body=Credentials, notes=THROTTLED))
async def sign_in(request: web.Request) -> web.Response:
    refuse_cross_site(request)
    body = await read_body(request, Credentials)
    accounts = request.config_dict[STATE].accounts
    account, secret = await accounts.sign_in(body.name, body.password, client_key(request),
                                             session_secret(request),
                                             request.cookies.get(DEVICE_COOKIE))
    await refuse_banned(request, account, secret)
    return with_session(request, web.json_response(encode(SignedIn.of(account))), secret,
                        account)


@ROUTES(Operation("POST", "/account/sign-out", "signOut", Tag.ACCOUNTS,
                  "End this browser's session (signed in or not)",
                  (Reply(200, "Signed out; the cookie is cleared", SignedOut),),
                  (*CROSS_SITE, *ACCOUNTS_DOWN)))
async def sign_out(request: web.Request) -> web.Response:
    secret = session_secret(request)
    ended = None if secret is None else await request.config_dict[STATE].accounts.sign_out(secret)
    if ended is not None:  # the sockets this page signed in (other nodes': at a look)
        close_signed_in(request.config_dict[STATE].connections,
                        lambda c: c.session_hash == ended, CloseCode.UNAUTHORIZED,
                        SESSION_ENDED)
    return _without_session(SignedOut(True))


@ROUTES(Operation(
    "POST", "/account/sign-out-everywhere", "signOutEverywhere", Tag.ACCOUNTS,
    "End every session and revoke every access token of the signed-in account",
    (Reply(200, "Every session ended, every token revoked", SignedOutEverywhere),),
    (*CROSS_SITE, *MANAGE_ERRORS, *ACCOUNTS_DOWN),
    description="What to do when a password or token may be in other hands: every browser "
                "signed in as the account (this one too) is signed out, every access token "
                "stops working, and every WebSocket connection they signed in closes (4007), "
                "on this node at once and on the others at their next look at the store. "
                "Passkeys and the password stay."))
async def sign_out_everywhere(request: web.Request) -> web.Response:
    account = await require_account(request, Use.MANAGE)
    revoked = await request.config_dict[STATE].accounts.sign_out_everywhere(account)
    close_signed_in(request.config_dict[STATE].connections,
                    lambda c: _same_account(c.account, account),
                    CloseCode.UNAUTHORIZED, EVERYWHERE)
    return _without_session(SignedOutEverywhere(True, revoked.sessions, revoked.tokens))


@ROUTES(Operation(
    "POST", "/account/password", "changePassword", Tag.ACCOUNTS,
    "Change the signed-in account's password (the old one again)",
    (Reply(200, "Changed; every other session ended", PasswordChanged),),
    (*CROSS_SITE, *MANAGE_ERRORS, ErrorCode.WEAK_PASSWORD, ErrorCode.WRONG_OLD_PASSWORD,
     ErrorCode.RATE_LIMITED, *ACCOUNTS_DOWN),
    description="The new hash is stored and every other session of the account ends in one "
                "transaction; the WebSocket connections they signed in close (4007); this "
                "browser stays signed in, with a new device cookie (a new password voids "
                "the old ones). Access tokens keep working: revoke them one by one, or sign "
                "out everywhere. A wrong old password is `wrong_old_password`; guesses of it "
                "count as failed sign-ins, per account and address prefix and per prefix.",
    body=PasswordChange, notes=THROTTLED))
async def change_password(request: web.Request) -> web.Response:
    account = await require_account(request, Use.MANAGE)
    body = await read_body(request, PasswordChange)
    kept = session_hash(session_secret(request) or "")  # MANAGE: signed in by the cookie
    revoked, changed = await request.config_dict[STATE].accounts.change_password(
        account, kept, body.old_password, body.new_password, client_key(request))
    close_signed_in(request.config_dict[STATE].connections,
                    lambda c: c.session_hash not in (None, kept)
                    and _same_account(c.account, account),
                    CloseCode.UNAUTHORIZED, PASSWORD_CHANGED)
    answer = web.json_response(encode(PasswordChanged(True, revoked.sessions, revoked.tokens)))
    return with_device(request, answer, changed)


@ROUTES(Operation("GET", "/account", "whoAmI", Tag.ACCOUNTS,
                  "The account this browser is signed in as",
                  (Reply(200, "Signed in", SignedIn),), (*READ_ERRORS, *ACCOUNTS_DOWN)))
async def who_am_i(request: web.Request) -> SignedIn:
    return SignedIn.of(await require_account(request, Use.READ))


@ROUTES(Operation(
    "DELETE", "/account", "deleteAccount", Tag.ACCOUNTS,
    "Delete the signed-in account (its password again)",
    (Reply(200, "Deleted; the cookie is cleared", Deleted),),
    (*CROSS_SITE, *MANAGE_ERRORS, ErrorCode.WRONG_CREDENTIALS, ErrorCode.RATE_LIMITED,
     *ACCOUNTS_DOWN),
    description="Its sign-in and sessions go at once; its games keep `deleted player` in its "
                "seats; its name stays taken.",
    body=Password, notes=THROTTLED))
async def delete_account(request: web.Request) -> web.Response:
    account = await require_account(request, Use.MANAGE)
    body = await read_body(request, Password)
    await request.config_dict[STATE].accounts.delete(account, body.password, client_key(request))
    state = request.config_dict[STATE]
    close_signed_in(state.connections, lambda c: _same_account(c.account, account),
                    CloseCode.UNAUTHORIZED, ACCOUNT_DELETED)
    await state.lobby.forget_account(account)
    return _without_session(Deleted(True))


@ROUTES(Operation("GET", "/account/games", "myGames", Tag.ACCOUNTS,
                  "The signed-in account's open and running games (on every node)",
                  (Reply(200, "The games", AccountGames),), (*READ_ERRORS, *ACCOUNTS_DOWN),
                  description="Each with the account's seat; take it up with reclaimSeat."))
async def my_games(request: web.Request) -> AccountGames:
    account = await require_account(request, Use.READ)
    games = seats_body(request.config_dict[STATE].lobby.seats_of(account))
    # behind several nodes, theirs too: a seat is on the node of its game
    others, missing = await request.config_dict[STATE].directory.from_other_nodes(
        f"/api/v1/node/accounts/{account.id}/games")
    games += [game for body in others for game in body["games"]]
    games.sort(key=lambda entry: entry["game"]["created_at"], reverse=True)
    return AccountGames(games, missing)


@ROUTES(Operation(
    "POST", "/account/bot", "becomeBot", Tag.ACCOUNTS,
    "Make the account a bot account: for ever, and only before it has played",
    (Reply(200, "The bot account", SignedIn),),
    (*CROSS_SITE, *MANAGE_ERRORS, ErrorCode.ALREADY_PLAYED, *ACCOUNTS_DOWN),
    description="A bot account plays only with `bot:play` tokens, is marked as a bot wherever "
                "its name is shown, and never plays by its session."))
async def become_bot(request: web.Request) -> SignedIn:
    account = await require_account(request, Use.MANAGE)
    state = request.config_dict[STATE]
    played = (bool(state.lobby.seats_of(account)) or state.storage.account_has_seats(account.id)
              or await state.archive.account_played(account.id))
    return SignedIn.of(await state.accounts.access_tokens.make_bot(account, played))


@ROUTES(Operation(
    "POST", "/games/{game_id}/reclaim", "reclaimSeat", Tag.ACCOUNTS,
    "A new token for the signed-in account's seat in this game",
    (Reply(200, "The seat and its new token", Seated),),
    (*READ_ERRORS, *CROSS_SITE, ErrorCode.NOT_A_PLAYER, ErrorCode.BOT_ACCOUNT,
     ErrorCode.UNKNOWN_GAME, ErrorCode.GAME_OVER, *ACCOUNTS_DOWN),
    description="For another device of the same account: the seat's old token stops holding "
                "it, and connections on it are closed (4006). Shown once.",
    parameters=(GAME_ID,)))
async def reclaim(request: web.Request) -> web.StreamResponse:
    account = await require_account(request, Use.PLAY)
    room, seat, token = await request.config_dict[STATE].lobby.reclaim(
        request.match_info["game_id"], account)
    return no_store(web.json_response(encode(Seated.of(room, seat.index, token))))


def _same_account(signed_in: Account | None, account: Account) -> bool:
    """Whether a connection signed in as `signed_in` (None: a guest's) is `account`'s."""
    return signed_in is not None and signed_in.id == account.id


def with_session(request: web.Request, response: web.Response, secret: str,
                 account: Account) -> web.Response:
    """The session cookie, and a new device cookie for the account (accounts/devices.py)."""
    settings = request.config_dict[STATE].settings
    response.set_cookie(SESSION_COOKIE, secret, max_age=int(settings.session_days * 86400),
                        path="/", httponly=True, samesite="Lax",
                        secure=settings.public_url.startswith("https://"))
    return with_device(request, response, account)


def with_device(request: web.Request, response: web.Response, account: Account
                ) -> web.Response:
    """A new device cookie for a browser that has just proved it is the account's."""
    device = request.config_dict[STATE].accounts.device_for(account)
    if device is not None:
        response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86400,
                            path=DEVICE_PATH, httponly=True, samesite="Lax",
                            secure=request.config_dict[STATE].settings.public_url.startswith(
                                "https://"))
    no_store(response)
    return response


def _without_session(body: Any) -> web.Response:
    response = web.json_response(encode(body))
    response.del_cookie(SESSION_COOKIE, path="/")
    return response
