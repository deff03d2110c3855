"""`dominion top`: a rating pool's leaderboard (docs/RATINGS.md, "Reading ratings"), a
line per player: place, name (bots marked), the number shown (`?` while provisional)
and rated games, a page at a time as the server pages it."""

from __future__ import annotations

import argparse
import json
from typing import Any

import aiohttp

from . import config
from .i18n import _, ngettext
from .lobby import Lobby
from .safe import peer

POOLS = ("2p", "3-6p")
"""The server's rating pools: 2-player games, and games of 3 to 6 players."""
NAME_WIDTH = 22


def add_top_command(commands: Any, server_option: Any, lang_option: Any) -> None:
    top = commands.add_parser("top", help=_("a rating pool's leaderboard"))
    server_option(top)
    lang_option(top)
    top.add_argument("--pool", choices=POOLS, default=POOLS[0],
                     help=_("2p: 2-player games; 3-6p: games of 3 to 6 players "
                            "(default 2p)"))
    top.add_argument("--limit", type=int, default=20,
                     help=_("at most this many players (default 20)"))
    top.add_argument("--offset", type=int, default=0, help=_("skip this many players first"))
    top.add_argument("--json", action="store_true", help=_("print the server's JSON"))


def pool_title(pool: str) -> str:
    return _("2-player leaderboard") if pool == "2p" else _("3-6-player leaderboard")


def leaderboard_lines(board: dict[str, Any]) -> list[str]:
    """What `top` prints for a page of `GET /api/v1/ratings/{pool}`."""
    players = board["players"]
    if not players:
        return [pool_title(board["pool"]), _("nobody is rated in this pool yet")]
    first, last = board["offset"] + 1, board["offset"] + len(players)
    lines = [_("{title}: places {first}-{last} of {total}").format(
        title=pool_title(board["pool"]), first=first, last=last, total=board["total"])]
    for row in players:
        name = peer(row["name"]) + (f" {_('[bot]')}" if row["bot"] else "")
        rating = f"{row['rating']}{'?' if row['provisional'] else ''}"
        games = ngettext("{n} game", "{n} games", row["games"]).format(n=row["games"])
        lines.append(f"{row['rank']:>4}  {name:<{NAME_WIDTH}} {rating:>6}  {games}")
    if any(row["provisional"] for row in players):
        lines.append(_("? provisional: too few games yet for the rating to have settled"))
    if last < board["total"]:
        lines.append(_("... {n} more (use --offset {shown})").format(
            n=board["total"] - last, shown=last))
    return lines


async def run_top(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        board = await Lobby(settings.server, session).leaderboard(
            args.pool, limit=args.limit, offset=args.offset)
    if args.json:
        print(json.dumps(board, indent=2))
        return 0
    print("\n".join(leaderboard_lines(board)))
    return 0


__all__ = ["POOLS", "add_top_command", "leaderboard_lines", "run_top"]
