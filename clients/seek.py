"""`dominion seek`: wait for an automatch, accept the table found, then play the game as
`dominion play` does.

    dominion seek                      # a 2-player game
    dominion seek --size 3 --size 4    # a game of 3 or 4 players
    dominion seek --rated              # rated: signed in with a token (dominion login)
"""

from __future__ import annotations

import argparse

import aiohttp

from dominion.protocol import (
    MatchAccept,
    MatchCancelled,
    MatchFound,
    MatchReady,
    Seek,
    SeekState,
    SeekStatus,
)

from . import config
from .account import credential_headers
from .cards import card_names
from .i18n import _
from .net import Client
from .play import play_session
from .safe import peer

CLIENT_NAME = "dominion-seek/0.2"


async def wait_for_game(settings: config.Settings, session: aiohttp.ClientSession,
                        sizes: list[int], edition: int, rated: bool) -> MatchReady | None:
    """Seek, accept every table found, until a game is made (None: the seek ended)."""
    headers = {key: value for key, value in credential_headers(settings.server).items()
               if key == "Authorization"}  # a socket signs in with a token, not a cookie
    async with Client(settings.server, name=CLIENT_NAME, reconnect=False, session=session,
                      headers=headers) as client:
        await client.request(Seek(id=client.next_id(), sizes=tuple(sizes), edition=edition,
                                  rated=rated, name=settings.name))
        print(_("Waiting for a game of {sizes} players…").format(
            sizes=", ".join(map(str, sizes))))
        while True:
            push = await client.next_push()
            if isinstance(push, MatchFound):
                print(_("Found a table: {players}. Accepting.").format(
                    players=", ".join(peer(name) for name in push.players)))
                await client.request(MatchAccept(id=client.next_id(), table=push.table))
            elif isinstance(push, MatchCancelled):
                print(_("The table was dissolved: someone did not accept."))
            elif isinstance(push, SeekStatus) and push.state is SeekState.ENDED:
                print(_("Your seek ended without a game."))
                return None
            elif isinstance(push, MatchReady):
                return push


async def run_seek(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        names = await card_names(session, settings.server, settings.lang)
        ready = await wait_for_game(settings, session, sorted(set(args.size or [2])),
                                    args.edition, args.rated)
        if ready is None:
            return 1
        config.save_token(ready.game, ready.seat, ready.token, settings.server, settings.name)
        print(_("Game {game}: you are seat {seat}.").format(game=ready.game, seat=ready.seat))
        return await play_session(args, settings, session, names, ready.game, ready.token,
                                  CLIENT_NAME)


__all__ = ["run_seek", "wait_for_game"]
