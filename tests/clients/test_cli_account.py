"""`dominion login`, `logout`, `token create|list|revoke` and `games --mine` against a
real server, in a pseudo-terminal where a person types: the password and the token are
asked for without echo, saved readable only by you, and the tables you create are your
account's."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import aiohttp
import pytest

from dominion.clients.render import Names, summary_line

from .serverproc import server_url
from .terminal import Terminal
from .test_cli_commands import dominion

__all__ = ["server_url"]
PASSWORD = "correct horse battery"


async def register(server_url: str, name: str) -> None:
    async with aiohttp.ClientSession() as session, session.post(
            f"{server_url}/api/v1/account/register",
            json={"name": name, "password": PASSWORD}) as response:
        assert response.status == 201, await response.text()


def login(config: Path, server_url: str, *args: str, prompt: str, secret: str,
          env: dict[str, str] | None = None) -> str:
    """`dominion login ARGS` typing `secret` at its prompt; what the terminal showed."""
    terminal = Terminal(config, "login", "--server", server_url, *args, env=env)
    try:
        terminal.wait(prompt)
        terminal.type(secret)
        shown = terminal.wait("Signed in")
        assert terminal.exit_code() == 0, shown
    finally:
        terminal.close()
    assert secret not in terminal.output.decode(errors="replace")  # never echoed
    return shown


async def test_login_tokens_and_my_games(server_url: str, tmp_path: Path) -> None:
    await register(server_url, "Ada")
    shown = login(tmp_path, server_url, "--name", "Ada", prompt="Password:", secret=PASSWORD)
    assert f"Signed in to {server_url} as Ada." in shown
    saved = tmp_path / "account.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    session = json.loads(saved.read_text())[server_url]
    assert session["kind"] == "session" and session["name"] == "Ada"
    assert PASSWORD not in saved.read_text()
    server = ("--server", server_url)

    made = dominion(tmp_path, "token", "create", "--scope", "read", "--description",
                    "laptop", *server)
    assert made.returncode == 0, made.stderr
    secret = made.stdout.strip()
    assert re.fullmatch(r"dom_[A-Za-z0-9_-]{43}", secret) and "not shown again" in made.stderr
    listed = dominion(tmp_path, "token", "list", *server)
    assert "laptop" in listed.stdout and "read" in listed.stdout and "used never" in \
        listed.stdout
    assert secret not in listed.stdout
    token_id = listed.stdout.split()[0]

    # a table created signed in is the account's; one played to the end is listed too
    created = dominion(tmp_path, "create", "--seats", "2", "--bot", "big_money", "--name",
                       "Ada", *server)
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    mine = dominion(tmp_path, "games", "--mine", *server)
    assert mine.returncode == 0, mine.stderr
    assert game in mine.stdout and f"dominion play --game {game}" in mine.stdout
    played = dominion(tmp_path, "bot", "--game", game, "--name", "Ada", "--quiet", *server)
    assert played.returncode == 0, played.stderr
    mine = dominion(tmp_path, "games", "--mine", *server)
    assert f"dominion replay download {game}" in mine.stdout, mine.stdout

    # signed in with the token instead: it reads the account's games, and manages nothing
    other = tmp_path / "laptop"
    shown = login(other, server_url, "--token", prompt="Access token:", secret=secret)
    assert "as Ada" in shown
    assert json.loads((other / "account.json").read_text())[server_url]["kind"] == "token"
    assert game in dominion(other, "games", "--mine", *server).stdout
    refused = dominion(other, "token", "list", *server)
    assert refused.returncode == 1 and "(scope_missing)" in refused.stderr
    assert secret not in refused.stderr

    revoked = dominion(tmp_path, "token", "revoke", token_id, *server)
    assert revoked.returncode == 0 and f"Token {token_id} revoked." in revoked.stdout
    assert "no tokens" in dominion(tmp_path, "token", "list", *server).stdout
    assert "(token_invalid)" in dominion(other, "games", "--mine", *server).stderr

    out = dominion(tmp_path, "logout", *server)
    assert out.returncode == 0 and server_url not in json.loads(saved.read_text())
    async with aiohttp.ClientSession() as client, client.get(
            f"{server_url}/api/v1/account",
            headers={"Cookie": f"dominion-session={session['secret']}"}) as response:
        assert response.status == 401  # the session ended on the server too
    assert "(not_signed_in)" in dominion(tmp_path, "games", "--mine", *server).stderr


async def test_my_games_are_my_accounts_not_a_guests_of_my_name(server_url: str,
                                                              tmp_path: Path) -> None:
    """Eve played as a guest before she registered: that game, its seat of her name, is
    not her account's (`games --mine` finds the account's seats by id, not by name)."""
    server = ("--server", server_url)
    guest = tmp_path / "guest"
    created = dominion(guest, "create", "--seats", "2", "--bot", "big_money", "--name", "Eve",
                       *server)
    assert created.returncode == 0, created.stderr
    as_guest = created.stdout.strip()
    played = dominion(guest, "bot", "--game", as_guest, "--name", "Eve", "--quiet", *server)
    assert played.returncode == 0, played.stderr
    await register(server_url, "Eve")
    login(tmp_path, server_url, "--name", "Eve", prompt="Password:", secret=PASSWORD)
    created = dominion(tmp_path, "create", "--seats", "2", "--bot", "big_money", "--name",
                       "Eve", *server)
    assert created.returncode == 0, created.stderr
    mine = created.stdout.strip()
    played = dominion(tmp_path, "bot", "--game", mine, "--name", "Eve", "--quiet", *server)
    assert played.returncode == 0, played.stderr
    listed = dominion(tmp_path, "games", "--mine", *server)
    assert listed.returncode == 0, listed.stderr
    assert f"dominion replay download {mine}" in listed.stdout, listed.stdout
    assert as_guest not in listed.stdout


async def test_a_wrong_password_saves_nothing(server_url: str, tmp_path: Path) -> None:
    await register(server_url, "Bea")
    terminal = Terminal(tmp_path, "login", "--server", server_url, "--name", "Bea")
    try:
        terminal.wait("Password:")
        terminal.type("not the password at all")
        shown = terminal.wait("No account has this name and password.")
        assert terminal.exit_code() == 1, shown
    finally:
        terminal.close()
    assert not (tmp_path / "account.json").exists()


def test_dominion_list_marks_the_seats_programs_play() -> None:
    summary = {"id": "g-0123456789ab", "state": "open", "edition": 2, "turn": 0,
               "seats": [{"seat": 0, "name": "Ann", "bot": None, "bot_account": False},
                         {"seat": 1, "name": "Robo", "bot": None, "bot_account": True},
                         {"seat": 2, "name": "Bot 3 (big_money)", "bot": "big_money",
                          "bot_account": False},
                         {"seat": 3, "name": "Bot 4 (strong)", "bot": "strong",
                          "bot_account": False}]}
    # a bot account as such, an in-server bot by its level
    assert summary_line(summary, Names()).endswith(
        "Ann, Robo [bot], Easy bot [bot], Expert bot [bot]")



def test_dominion_list_says_who_left_and_marks_no_person_a_bot() -> None:
    summary = {"id": "g-0123456789ab", "state": "finished", "edition": 2, "turn": 30,
               "seats": [{"seat": 0, "name": "Ann", "bot": None, "bot_account": False,
                          "left": "resigned"},
                         {"seat": 1, "name": "Ben", "bot": None, "bot_account": False,
                          "left": "taken_over"},
                         {"seat": 2, "name": "Bot 3 (big_money)", "bot": "big_money",
                          "bot_account": False, "left": None}]}
    assert "Ann [resigned], Ben [left], Easy bot [bot]" in summary_line(
        summary, Names())


async def test_create_rated_signed_in_only(server_url: str, tmp_path: Path) -> None:
    server = ("--server", server_url)
    refused = dominion(tmp_path, "create", "--rated", "--name", "Gus", *server)
    assert refused.returncode == 1 and "(rated_needs_account)" in refused.stderr
    await register(server_url, "Rhea")  # the server is shared: a name of this test's own
    login(tmp_path, server_url, "--name", "Rhea", prompt="Password:", secret=PASSWORD)
    created = dominion(tmp_path, "create", "--rated", "--seats", "3", "--bot", "strong",
                       *server)
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    async with aiohttp.ClientSession() as client, client.get(
            f"{server_url}/api/v1/games/{game}") as response:
        summary = await response.json()
    assert summary["rated"] is True and summary["seats"][1]["bot"] == "strong"


async def account_token(server_url: str, name: str, scopes: tuple[str, ...]) -> str:
    """Register `name` and create it a personal access token of `scopes`."""
    await register(server_url, name)
    # the server's own page's Origin: without it the session cookie would not count
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": server_url}) as owner:
        async with owner.post(f"{server_url}/api/v1/account/sign-in",
                              json={"name": name, "password": PASSWORD}) as response:
            assert response.status == 200, await response.text()
        async with owner.post(f"{server_url}/api/v1/account/tokens",
                              json={"description": "a bot's machine",
                                    "scopes": list(scopes)}) as response:
            assert response.status == 201, await response.text()
            secret: str = (await response.json())["token"]["secret"]
    return secret


@pytest.mark.parametrize("scopes", [("play", "read"), ("play",)])
async def test_after_login_with_a_token_the_bot_takes_the_seat_create_saved(
        server_url: str, tmp_path: Path, scopes: tuple[str, ...]) -> None:
    """`login --token`, `create`, then `bot --game GAME`, no --name anywhere: the seat is
    the account's, saved under its name (a token that may not read learns it from the
    seat), so the bot takes it again instead of asking for another."""
    name = "Tia" if "read" in scopes else "Tom"
    secret = await account_token(server_url, name, scopes)
    server = ("--server", server_url)
    signed_in = dominion(tmp_path, "login", "--token", *server, env={"DOMINION_TOKEN": secret})
    assert signed_in.returncode == 0, signed_in.stderr
    created = dominion(tmp_path, "create", "--seats", "2", "--bot", "big_money", *server)
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    assert json.loads((tmp_path / "tokens.json").read_text())[game]["0"]["name"] == name
    played = dominion(tmp_path, "bot", "--game", game, *server)
    assert played.returncode == 0, played.stderr
    assert f"Taking seat 0 of {game} again." in played.stderr
    assert f"{game}: " in played.stdout
