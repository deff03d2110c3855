"""The `dominion` command's account commands: `login` (a name and password, prompted
without echo, or a personal access token), `logout`, `token create|list|revoke` and
`games --mine`.

A password sign-in keeps the session the server gives, as a browser keeps its cookie:
the session may manage tokens, which no token may (a leaked token cannot make more). A
token is for what its scopes allow (`login --token`, for a bot's machine, say). Either is
saved in `account.json` (config.py), readable only by you, and sent with the lobby's
requests, so that the tables you create and join are your account's.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from . import config
from .i18n import _
from .lobby import Lobby, LobbyError
from .render import summary_line

SESSION_COOKIE = "dominion-session"
SCOPES = ("play", "bot:play", "read")


def credential_headers(server: str) -> dict[str, str]:
    """What the lobby's requests carry to be the saved account's (nothing when signed out)."""
    saved = config.load_credential(server)
    if saved is None:
        return {}
    if saved.get("kind") == "token":
        return {"Authorization": f"Bearer {saved['secret']}"}
    # the server's own origin: the session cookie counts only with it (as from its page)
    parts = urlsplit(server)
    return {"Cookie": f"{SESSION_COOKIE}={saved['secret']}",
            "Origin": f"{parts.scheme}://{parts.netloc}"}


def signed_in_name(server: str) -> str | None:
    """The name of the account `dominion login` signed in to `server` as, if it is known
    (a token that may not `read` tells it only once it takes a seat: `keep_seat`)."""
    saved = config.load_credential(server)
    name = None if saved is None else saved.get("name")
    return name if isinstance(name, str) else None


def keep_seat(server: str, game: str, answer: dict[str, Any]) -> str:
    """Save the token of a seat just taken (`create` and `join` answers) under the name
    the server gave the seat, and return it: a signed-in player's seat has the account's
    name, whatever name was asked for, so a later `bot --game` or `play --game` finds it
    by that name. A signed-in account whose name `login` could not read learns it here."""
    seat = answer["seat"]
    name = str(answer["game"]["seats"][seat]["name"])
    config.save_token(game, seat, answer["token"], server, name)
    saved = config.load_credential(server)
    if saved is not None and saved.get("name") is None:
        config.save_credential(server, saved["kind"], saved["secret"], name)
    return name


def add_account_commands(commands: Any, common: Any) -> None:
    """`login`, `logout`, `token` and `games` on the command's parser."""
    login = commands.add_parser("login", help=_("sign in to your account (the password or "
                                                "the token is asked for, not echoed)"))
    common(login)
    login.add_argument("--token", action="store_true",
                       help=_("sign in with a personal access token (asked for, or "
                              "DOMINION_TOKEN) instead of a password"))
    logout = commands.add_parser("logout", help=_("sign out, and forget what login saved"))
    common(logout)
    token = commands.add_parser("token", help=_("your personal access tokens"))
    tokens = token.add_subparsers(dest="token_command", required=True)
    create = tokens.add_parser("create", help=_("create a token (shown once)"))
    common(create)
    create.add_argument("--scope", action="append", choices=SCOPES, required=True,
                        help=_("what the token may do; repeat for more"))
    create.add_argument("--description", default="", help=_("what the token is for"))
    create.add_argument("--expires-days", type=int, help=_("days until it expires "
                                                           "(default: never)"))
    listing = tokens.add_parser("list", help=_("list your tokens (never their secrets)"))
    common(listing)
    revoke = tokens.add_parser("revoke", help=_("revoke a token"))
    common(revoke)
    revoke.add_argument("id", type=int, help=_("the token's id (from token list)"))
    games = commands.add_parser("games", help=_("your account's games"))
    common(games)
    games.add_argument("--mine", action="store_true", required=True,
                       help=_("the games of the account you signed in to"))


async def run_login(args: argparse.Namespace, settings: config.Settings) -> int:
    jar = aiohttp.CookieJar(unsafe=True)  # the server may be named by its IP address
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        if args.token:
            secret = os.environ.get("DOMINION_TOKEN") or getpass.getpass(_("Access token: "))
            lobby = Lobby(settings.server, session, {"Authorization": f"Bearer {secret}"})
            try:
                name: str | None = (await lobby.call("GET", "/account"))["account"]["name"]
            except LobbyError as refused:
                if refused.code != "scope_missing":  # a good token without `read` is kept
                    raise
                name = None
            config.save_credential(settings.server, "token", secret, name)
        else:
            name = settings.name if settings.name != config.DEFAULT_NAME else input(
                _("Account name: "))
            password = getpass.getpass(_("Password: "))
            body = await Lobby(settings.server, session).call(
                "POST", "/account/sign-in", json={"name": name, "password": password})
            secret = next(cookie.value for cookie in jar if cookie.key == SESSION_COOKIE)
            name = body["account"]["name"]
            config.save_credential(settings.server, "session", secret, name)
    print(_("Signed in to {server} as {name}.").format(server=settings.server,
                                                       name=name or _("the token's account")))
    return 0


async def run_logout(args: argparse.Namespace, settings: config.Settings) -> int:
    saved = config.load_credential(settings.server)
    if saved is not None and saved.get("kind") == "session":
        async with aiohttp.ClientSession() as session:
            await Lobby(settings.server, session, credential_headers(settings.server)).call(
                "POST", "/account/sign-out")
    config.forget_credential(settings.server)
    print(_("Signed out of {server}.").format(server=settings.server))
    if saved is not None and saved.get("kind") == "token":
        print(_("The token itself still works: revoke it with `dominion token revoke` or "
                "on the web page #/account/tokens."), file=sys.stderr)
    return 0


async def run_token(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(settings.server, session, credential_headers(settings.server))
        if args.token_command == "create":
            body: dict[str, Any] = {"description": args.description, "scopes": args.scope}
            if args.expires_days is not None:
                body["expires_in_days"] = args.expires_days
            token = (await lobby.call("POST", "/account/tokens", json=body))["token"]
            print(token["secret"])
            print(_("Token {id} created: copy it now, it is not shown again.").format(
                id=token["id"]), file=sys.stderr)
        elif args.token_command == "list":
            tokens = (await lobby.call("GET", "/account/tokens"))["tokens"]
            if not tokens:
                print(_("no tokens"))
            for token in tokens:
                expires = _("expires {day}").format(day=_day(token["expires_at"]))
                used = _("used {day}").format(day=_day(token["last_used_at"]))
                scopes = ",".join(token["scopes"])
                print(f"{token['id']:>4}  {scopes:<18}  {expires}  {used}  "
                      f"{token['description']}")
        else:
            await lobby.call("DELETE", f"/account/tokens/{args.id}")
            print(_("Token {id} revoked.").format(id=args.id))
    return 0


async def run_games(args: argparse.Namespace, settings: config.Settings) -> int:
    """The account's open and running games (with how to take the seat again), then its
    finished ones (with how to get the replay)."""
    from .cards import card_names

    async with aiohttp.ClientSession() as session:
        lobby = Lobby(settings.server, session, credential_headers(settings.server))
        me = (await lobby.call("GET", "/account"))["account"]
        live = (await lobby.call("GET", "/account/games"))["games"]
        ended = (await lobby.games(account=me["name"], state="ended", limit=20))["games"]
        names = await card_names(session, settings.server, settings.lang)
    if not live and not ended:
        print(_("no games"))
    for entry in live:
        game = entry["game"]["id"]
        print(summary_line(entry["game"], names))
        print("      " + _("take your seat again: dominion play --game {game}").format(
            game=game))
    for summary in ended:
        print(summary_line(summary, names))
        print("      " + _("its replay: dominion replay download {game}").format(
            game=summary["id"]))
    return 0


def _day(timestamp: str | None) -> str:
    return timestamp[:10] if timestamp else _("never")
