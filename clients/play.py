"""`dominion play` and `dominion watch`: a game at the terminal.

    dominion play                              # a new table: you and a big_money bot
    dominion play --seats 3 --bot random       # you, a random bot, and a free seat
    dominion play --game GAME                  # join a table (or take your seat again)
    dominion watch GAME                        # follow a game as a spectator

On a terminal the game is one full screen redrawn in place (`clients.tui`); with
`--plain`, or when standard input or output is not a terminal, it is plain lines
(`clients.plain`). What happens on each push and each line typed is
`clients.session.Session`; reading what a person typed is `clients.choose.parse_input`,
a pure function.

Like every other command except `replay verify`, this uses only the REST lobby and the
protocol: the numbers shown come from the events (`clients.state`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import aiohttp

from . import config
from .account import credential_headers
from .args import bot_seats, kingdom_arg
from .board import Board, hint_line
from .cards import card_names
from .i18n import _
from .lobby import Lobby
from .net import Client
from .render import Names
from .session import Leaving, Session
from .state import GameState


def full_screen(args: argparse.Namespace) -> bool:
    """The full screen only on a terminal, and not with `--plain`."""
    return not getattr(args, "plain", False) and sys.stdin.isatty() and sys.stdout.isatty()


def display_for(args: argparse.Namespace, board: Board, watching: bool) -> Any:
    if full_screen(args):
        from .tui import FullScreen

        return FullScreen(board, hint_line(watching))
    from .plain import Plain

    return Plain(board)


async def take_seat(args: argparse.Namespace, settings: config.Settings,
                    lobby: Lobby) -> tuple[str, str]:
    """Join `--game` (with the saved token if there is one) or create a table."""
    if args.game:
        # the seat saved under this name; with no --name given, whichever seat was saved
        # for this game (`quit` tells a person to come back with just `--game`)
        saved = config.load_token(args.game, settings.name) or (
            None if args.name else config.load_token(args.game))
        if saved is not None and saved.get("server", settings.server) == settings.server:
            print(_("Taking seat {seat} of {game} again.").format(seat=saved["seat"],
                                                                 game=args.game))
            return args.game, str(saved["token"])
        joined = await lobby.join(args.game, settings.name)
        config.save_token(args.game, joined["seat"], joined["token"], settings.server,
                          settings.name)
        print(_("Joined {game} as seat {seat}.").format(game=args.game, seat=joined["seat"]))
        return args.game, str(joined["token"])
    if not args.bot:
        bots = {1: "big_money"} if args.seats >= 2 else {}
    elif args.bot == ["none"]:
        bots = {}
    else:
        bots = bot_seats(args.bot, args.seats)
    kingdom = kingdom_arg(args.kingdom)
    created = await lobby.create(settings.name, args.seats, edition=args.edition,
                                 kingdom=kingdom, bots=bots, clock=args.clock,
                                 bot_pace=args.bot_pace)
    game = created["game"]["id"]
    config.save_token(game, created["seat"], created["token"], settings.server, settings.name)
    print(_("Created {game}: you are seat {seat} of {seats}.").format(
        game=game, seat=created["seat"], seats=args.seats))
    return game, str(created["token"])


async def play_session(args: argparse.Namespace, settings: config.Settings,
                   session: aiohttp.ClientSession, names: Names, game: str,
                   token: str | None, client_name: str) -> int:
    lobby = Lobby(settings.server, session)
    board = Board(game=game, names=names, state=GameState(game=game))
    display = display_for(args, board, watching=token is None)
    async with Client(settings.server, name=client_name, session=session,
                      game=game) as client:
        playing = Session(client, lobby, display, game, token, confirm=settings.confirm)
        leaving: Leaving = await display.run(playing.run())
    if display.keeps_result and board.over:  # the screen is gone: the result stays
        print("\n".join(board.note[:-1]))  # all but "Press Enter to leave."
    for line in leaving.message:
        print(line)
    return leaving.code


async def run_play(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(settings.server, session, credential_headers(settings.server))
        names = await card_names(session, settings.server, settings.lang)
        game, token = await take_seat(args, settings, lobby)
        return await play_session(args, settings, session, names, game, token,
                              "dominion-play/0.2")


async def run_watch(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        names = await card_names(session, settings.server, settings.lang)
        return await play_session(args, settings, session, names, args.game, None,
                              "dominion-watch/0.2")


__all__ = ["display_for", "full_screen", "play_session", "run_play", "run_watch", "take_seat"]
