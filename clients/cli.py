"""`dominion`: the command-line client.

    dominion config [--server URL] [--name NAME] [--lang en|pl|sk|lt]   save defaults
    dominion play [--game GAME] [--seats N --bot STRATEGY... --kingdom K --edition E]
    dominion list [--state open|playing|finished|abandoned] [filters]
    dominion create --seats N [--edition 1|2] [--kingdom K] [--bot STRATEGY|SEAT=STRATEGY]...
                    [--rated]
    dominion join GAME
    dominion watch GAME
    dominion bot --strategy NAME [--game GAME | --join-open] [--token TOKEN]
    dominion login [--token]          sign in (the password or token is asked for)
    dominion logout
    dominion token create --scope play|bot:play|read... | token list | token revoke ID
    dominion games --mine             your account's games, running and finished
    dominion top [--pool 2p|3-6p] [--limit N] [--offset N] [--json]   a leaderboard
    dominion replay download GAME [--format json|msgpack|text]
    dominion replay show FILE [--all]
    dominion replay verify FILE...    a replay, an export (NDJSON) or - (standard input)

Everything except `replay verify` talks to a server only through the REST lobby and
the protocol (`dominion.protocol`); `replay verify` is the one command that runs the
engine. Server, name and language come from the options, else DOMINION_SERVER,
DOMINION_NAME and DOMINION_LANG, else the config file (see `clients/config.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
from rich.console import Console

from dominion.bots import STRATEGIES, BotPace

from . import config
from .account import (
    add_account_commands,
    credential_headers,
    keep_seat,
    run_games,
    run_login,
    run_logout,
    run_token,
    signed_in_name,
)
from .args import (
    DEFAULT_CLOCK,
    bot_seats,
    clock_arg,
    jobs_arg,
    joined_values,
    kingdom_arg,
    kingdom_help,
)
from .cards import card_names
from .i18n import LANGUAGES, _, ngettext, use
from .lobby import Lobby, LobbyError
from .net import Client, Closed, ConnectionLost, ServerError
from .ratings import add_top_command, run_top
from .refusals import explain
from .render import (
    Names,
    format_turn,
    replay_header,
    replay_players,
    replay_turns,
    result_line,
    state_name,
    summary_line,
)
from .replay_check import load_replay, verify_file

DEFAULT_SERVER = config.DEFAULT_SERVER
EXTENSIONS = {"json": "json", "msgpack": "msgpack", "text": "txt"}
STATES = ("open", "playing", "finished", "abandoned", "ended")
"""What `list --state` takes: a game's states, and `ended` (finished or abandoned)."""


def _common(parser: argparse.ArgumentParser) -> None:
    _server_option(parser)
    parser.add_argument("--name", help=_("your player name (default: DOMINION_NAME, "
                                         "the config file)"))
    _lang_option(parser)


def _server_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", help=_(
        "the server's base URL (default: DOMINION_SERVER, the config file, {url})"
    ).format(url=DEFAULT_SERVER))


def _lang_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES,
                        help=_("the language of everything shown: English, Polish, Slovak "
                               "or Lithuanian (default: DOMINION_LANG, the config file, the "
                               "locale)"))


def _screen_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plain", action="store_true",
                        help=_("plain lines instead of the full screen (for screen "
                               "readers and pipes; the default when not on a terminal)"))


def _table_options(parser: argparse.ArgumentParser, bot_help: str) -> None:
    """The options of a new table, for `create` and `play`."""
    parser.add_argument("--seats", type=int, default=2,
                        help=_("the number of seats at a new table (2 to 6)"))
    parser.add_argument("--edition", type=int, choices=(1, 2), default=2,
                        help=_("the rules' edition (default 2)"))
    parser.add_argument("--kingdom", help=kingdom_help())
    parser.add_argument("--bot", action="append", default=[], metavar="[SEAT=]STRATEGY",
                        help=bot_help)
    parser.add_argument("--clock", type=clock_arg, default=DEFAULT_CLOCK, metavar="M+S",
                        help=_("the table's clock: minutes each + seconds added when a "
                               "player's turn ends, like 10+5, or none (default: the "
                               "server's)"))
    parser.add_argument("--bot-pace", type=BotPace, choices=list(BotPace),
                        help=_("how fast the server's bots answer, so that you can follow "
                               "their moves: instant, fast, normal or slow (default: the "
                               "server's)"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dominion", description=_("The Dominion client."))
    commands = parser.add_subparsers(dest="command", required=True)

    conf = commands.add_parser("config", help=_("save a default server, name and language"))
    _common(conf)
    conf.add_argument("--confirm", choices=("on", "off"),
                      help=_("ask before ending a turn with coins left or resigning"))

    strategies = ", ".join(STRATEGIES)
    play = commands.add_parser("play", help=_("play a game in the terminal (a new table "
                                              "with a big_money bot, or --game GAME)"))
    _common(play)
    play.add_argument("--game", help=_("join this table, or take your saved seat again"))
    _screen_options(play)
    play.add_argument("--no-confirm", dest="confirm", action="store_const", const="off",
                      help=_("do not ask before ending a turn with coins left or resigning"))
    _table_options(play, _("a server-side bot seat; repeat for more (default: seat 1 "
                           "big_money; 'none' for no bots; {strategies})").format(
        strategies=strategies))

    seek = commands.add_parser("seek", help=_("wait for an automatch, accept it and play "
                                              "it in the terminal"))
    _common(seek)
    seek.add_argument("--size", type=int, action="append", choices=range(2, 7),
                      metavar="PLAYERS",
                      help=_("a table size you accept, 2 to 6; repeat for more (default 2)"))
    seek.add_argument("--edition", type=int, choices=(1, 2), default=2,
                      help=_("the rules' edition (default 2)"))
    seek.add_argument("--rated", action="store_true",
                      help=_("a rated game (sign in with a token first: dominion login "
                             "--token)"))
    _screen_options(seek)
    seek.add_argument("--no-confirm", dest="confirm", action="store_const", const="off",
                      help=_("do not ask before ending a turn with coins left or resigning"))

    listing = commands.add_parser("list", help=_("list games"))
    _common(listing)
    listing.add_argument("--state", choices=STATES, help=_("only games in this state"))
    listing.add_argument("--player", help=_("a seat's exact name"))
    listing.add_argument("--edition", type=int, choices=(1, 2),
                         help=_("only games of this edition"))
    listing.add_argument("--players", type=int, help=_("the number of seats"))
    listing.add_argument("--card", help=_("a Kingdom card id"))
    listing.add_argument("--since", help=_("ISO 8601 date or time (UTC)"))
    listing.add_argument("--until", help=_("ISO 8601 date or time (UTC)"))
    listing.add_argument("--limit", type=int, default=20,
                         help=_("at most this many games (default 20)"))
    listing.add_argument("--offset", type=int, default=0,
                         help=_("skip this many games first"))
    listing.add_argument("--json", action="store_true", help=_("print the server's JSON"))

    create = commands.add_parser("create", help=_("create a table (you take seat 0)"))
    _common(create)
    _table_options(create, _("a server-side bot seat; repeat for more ({strategies})").format(
        strategies=strategies))
    create.add_argument("--rated", action="store_true",
                        help=_("a rated table: its result counts for the players' ratings "
                               "(sign in first; only accounts may join it)"))

    join = commands.add_parser("join", help=_("take a free seat at an open table"))
    _common(join)
    join.add_argument("game", help=_("the game id"))

    watch = commands.add_parser("watch", help=_("spectate a game live until it ends"))
    _common(watch)
    watch.add_argument("game", help=_("the game id"))
    _screen_options(watch)

    bot = commands.add_parser("bot", help=_("play a seat with a bot until the game ends"))
    _common(bot)
    bot.add_argument("--strategy", choices=tuple(STRATEGIES), default="big_money",
                     help=_("how the bot plays (default big_money)"))
    table = bot.add_mutually_exclusive_group()
    table.add_argument("--game", help=_("the table to play at: the seat saved for it, or a "
                                        "free one (default: a new table)"))
    table.add_argument("--join-open", action="store_true",
                     help=_("without --game: take a free seat at any open table, anyone's "
                            "(a new table only if there is none)"))
    bot.add_argument("--token", help=_("the seat's token (default: the saved one, or join)"))
    bot.add_argument("--seats", type=int, default=2,
                     help=_("the number of seats of a game it creates"))
    bot.add_argument("--edition", type=int, choices=(1, 2), default=2,
                     help=_("the rules' edition (default 2)"))
    bot.add_argument("--seed", type=int, help=_("the seed of the random strategy"))
    bot.add_argument("--quiet", action="store_true", help=_("print only the result"))
    bot.add_argument("--pace", type=BotPace, choices=list(BotPace), default=BotPace.INSTANT,
                     help=_("how fast it answers, so that people can follow its moves: "
                            "instant, fast, normal or slow (0, 0.3, 0.8 or 1.5 seconds "
                            "before each answer; default instant)"))
    bot.add_argument("--delay", type=float, metavar="SECONDS",
                     help=_("pause before each answer, in place of --pace's"))

    replay = commands.add_parser("replay", help=_("download, show and check replays"))
    replays = replay.add_subparsers(dest="replay_command", required=True)
    download = replays.add_parser("download", help=_("download a game's replay"))
    download.add_argument("game", help=_("the game id"))
    _server_option(download)
    _lang_option(download)
    download.add_argument("--format", choices=tuple(EXTENSIONS), default="json",
                          help=_("the replay's form (default json)"))
    download.add_argument("--output", "-o", help=_("the file to write (default: GAME.EXT)"))
    show = replays.add_parser("show", help=_("step through a replay turn by turn"))
    show.add_argument("file", help=_("a replay file (JSON or msgpack)"))
    show.add_argument("--all", action="store_true",
                      help=_("print every turn without pausing"))
    _common(show)
    _screen_options(show)
    verify = replays.add_parser("verify", help=_("check finished games' replays"))
    verify.add_argument("files", nargs="+", metavar="FILE",
                        help=_("a replay (JSON or msgpack) or an export (NDJSON: a replay a "
                               "line); - reads standard input"))
    verify.add_argument("--jobs", "-j", type=jobs_arg, default=1,
                        help=_("processes checking replays at once (default 1; 0: one a "
                               "core), for an export or a dump of many games"))
    _lang_option(verify)
    add_account_commands(commands, _common)
    add_top_command(commands, _server_option, _lang_option)
    return parser


# -- replays ------------------------------------------------------------------------



def _read_replay(path: Path) -> dict[str, Any] | None:
    """The replay in a file, or None after saying on standard error why it cannot be read."""
    try:
        return load_replay(path)
    except (OSError, ValueError) as error:
        print(_("cannot read {path}: {error}").format(path=path, error=error), file=sys.stderr)
        return None


async def download(server: str, game: str, chosen: str, output: Path | None) -> int:
    async with aiohttp.ClientSession() as session:
        body = await Lobby(server, session).replay_file(game, chosen)
    target = output or Path(f"{game}.{EXTENSIONS[chosen]}")
    target.write_bytes(body)
    print(_("Saved: {path}").format(path=target))
    return 0


def show_replay(path: Path, names: Names, everything: bool, console: Console,
                plain: bool = False) -> int:
    replay = _read_replay(path)
    if replay is None:
        return 2
    if replay.get("format") != "dominion-replay" or replay.get("version") != 1:
        print(_("{path} is not a version 1 Dominion replay").format(path=path),
              file=sys.stderr)
        return 2
    if not everything and not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from .replay_view import view_replay

        return asyncio.run(view_replay(replay, names))
    players = replay_players(replay)
    complete = bool(replay.get("complete"))
    console.print(replay_header(replay, names), markup=False, highlight=False)
    interactive = not everything and sys.stdin.isatty()
    for turn in replay_turns(replay, names):
        console.print()
        console.print(format_turn(turn, players, names, complete), markup=False,
                      highlight=False)
        if interactive:
            try:
                if input(_("-- Enter: next turn, q: quit -- ")).strip().lower() == "q":
                    return 0
            except (EOFError, KeyboardInterrupt):  # Ctrl-C leaves as q does
                return 0
    if replay.get("result"):
        console.print()
        console.print(result_line(replay["result"], players), markup=False, highlight=False)
    return 0


# -- the lobby and the protocol --------------------------------------------------------


async def run_list(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        body = await Lobby(settings.server, session).games(
            state=args.state, player=args.player, edition=args.edition, players=args.players,
            card=args.card, since=args.since, until=args.until, limit=args.limit,
            offset=args.offset)
        names = await card_names(session, settings.server, settings.lang)
    if args.json:
        print(json.dumps(body, indent=2))
        return 0
    console = Console(highlight=False)
    games = body.get("games", [])
    if not games:
        console.print(_("no games"))
    for summary in games:
        console.print(summary_line(summary, names), markup=False)
    shown = body.get("offset", 0) + len(games)
    if shown < body.get("total", 0):
        console.print(_("... {n} more (use --offset {shown})").format(
            n=body["total"] - shown, shown=shown))
    return 0


async def run_create(args: argparse.Namespace, settings: config.Settings) -> int:
    kingdom = kingdom_arg(args.kingdom)
    bots = bot_seats(args.bot, args.seats)
    async with aiohttp.ClientSession() as session:
        created = await Lobby(settings.server, session,
                              credential_headers(settings.server)).create(
            settings.name, args.seats, edition=args.edition, kingdom=kingdom, bots=bots,
            rated=args.rated, clock=args.clock, bot_pace=args.bot_pace)
    game = created["game"]["id"]
    keep_seat(settings.server, game, created)
    print(game)
    print(_("Created {game}: you are seat {seat} of {seats}.").format(
        game=game, seat=created["seat"], seats=args.seats),
        saved_seat(created["game"]["state"]), file=sys.stderr)
    return 0


async def run_join(args: argparse.Namespace, settings: config.Settings) -> int:
    async with aiohttp.ClientSession() as session:
        joined = await Lobby(settings.server, session,
                             credential_headers(settings.server)).join(args.game, settings.name)
    keep_seat(settings.server, args.game, joined)
    print(_("seat {seat}").format(seat=joined["seat"]))
    print(_("Joined {game} as seat {seat}.").format(game=args.game, seat=joined["seat"]),
          saved_seat(joined["game"]["state"]), file=sys.stderr)
    return 0


def saved_seat(state: str) -> str:
    """After `create` and `join`: the table's state, and that the token is kept."""
    return _("The table is {state}; the seat's token is saved.").format(
        state=state_name(state))


async def run_watch(args: argparse.Namespace, settings: config.Settings) -> int:
    from .play import run_watch as watch

    return await watch(args, settings)


async def run_seek(args: argparse.Namespace, settings: config.Settings) -> int:
    from .seek import run_seek as seek
    return await seek(args, settings)


async def run_play(args: argparse.Namespace, settings: config.Settings) -> int:
    from .play import run_play as play

    return await play(args, settings)


async def open_table_with_a_free_seat(lobby: Lobby
                                      ) -> tuple[str | None, dict[str, Any] | None]:
    """`bot --join-open`: the newest open table with a free seat (anyone's), if any."""
    listing = await lobby.games(state="open", limit=100)
    for summary in listing.get("games", []):
        if any(not seat.get("name") for seat in summary.get("seats", [])):
            return summary["id"], summary
    return None, None


def unused_name(name: str, taken: Sequence[str | None]) -> str:
    """`name`, or `name 2`, `name 3`… if a seat already has it: two bots of one strategy
    at a table should not both be called `big_money bot`."""
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def answer_delay(args: argparse.Namespace) -> float:
    """`dominion bot`'s pause before each answer: `--delay`'s seconds, else `--pace`'s."""
    return float(args.delay) if args.delay is not None else float(args.pace.seconds)


async def run_bot(args: argparse.Namespace, settings: config.Settings) -> int:
    from .network_bot import NetworkBot

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr)

    # a signed-in player's seats have the account's name; else a name, the same in every
    # language
    name = signed_in_name(settings.server) or (
        settings.name if settings.name != config.DEFAULT_NAME else f"{args.strategy} bot")
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(settings.server, session, credential_headers(settings.server))
        game, token = args.game, args.token
        table: dict[str, Any] | None = None
        if token is None and game is not None:
            saved = config.load_token(game, name)
            if saved is not None:
                token = saved["token"]
                say(_("Taking seat {seat} of {game} again.").format(seat=saved["seat"],
                                                                     game=game))
            else:
                table = await lobby.game(game)
        if game is None and args.join_open:
            game, table = await open_table_with_a_free_seat(lobby)
        if game is None:
            created = await lobby.create(name, args.seats, edition=args.edition)
            game, token = created["game"]["id"], created["token"]
            keep_seat(settings.server, game, created)
            print(game)
            say(ngettext("Created {game} ({seats} seat); waiting for players.",
                         "Created {game} ({seats} seats); waiting for players.",
                         args.seats).format(game=game, seats=args.seats))
        if token is None:
            name = unused_name(name, [seat.get("name") for seat in (table or {}).get("seats", [])])
            joined = await lobby.join(game, name)
            token = joined["token"]
            keep_seat(settings.server, game, joined)
            say(_("Joined {game} as seat {seat}.").format(game=game, seat=joined["seat"]))
        async with Client(settings.server, name=f"dominion-bot/{args.strategy}",
                          session=session, game=game) as client:
            bot = NetworkBot(client, game, token, args.strategy, seed=args.seed,
                             delay=answer_delay(args))
            result = await bot.play()
            assert bot.state is not None
            players = bot.state.names()
    print(ngettext("{game}: {result} ({n} answer)", "{game}: {result} ({n} answers)",
                   bot.answers).format(game=game, result=result_line(result, players),
                                       n=bot.answers))
    return 0


def cannot_reach(server: str, error: BaseException) -> str:
    """What to do when the server does not answer: is it running, is it the right URL?"""
    return _("Cannot reach the Dominion server at {server} ({error}).\nIs it running? "
             "Start one with `dominion-server`, or name another with --server URL, "
             "DOMINION_SERVER or `dominion config --server URL`.").format(
        server=server, error=error)


def choose_language(argv: Sequence[str]) -> None:
    """Speak the chosen language from the first word on (`--help` and argparse's errors
    too): `--lang`, else DOMINION_LANG, the config file, the locale."""
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", nargs="?")
    try:
        lang = early.parse_known_args(argv)[0].lang
    except argparse.ArgumentError:  # the full parser says what is wrong
        lang = None
    use(config.settings(lang=lang).lang)


def main(argv: Sequence[str] | None = None) -> int:
    argv = joined_values(sys.argv[1:] if argv is None else argv)
    choose_language(argv)
    args = _parser().parse_args(argv)
    if args.command == "replay" and args.replay_command == "verify":
        return verify_file(args.files, args.jobs)
    settings = config.settings(getattr(args, "server", None), getattr(args, "name", None),
                               getattr(args, "lang", None), getattr(args, "confirm", None))
    if args.command == "config":
        chosen = {k: getattr(args, k) for k in config.KEYS if getattr(args, k, None)}
        if chosen:
            print(_("Saved: {path}").format(path=config.save_file(chosen)))
        for key, value in config.shown(settings).items():
            print(f"{key} = {value}")
        return 0
    if args.command == "replay" and args.replay_command == "show":
        async def names() -> Names:
            async with aiohttp.ClientSession(
                    timeout=aiohttp.ClientTimeout(total=5)) as session:
                return await card_names(session, settings.server, settings.lang)
        return show_replay(Path(args.file), asyncio.run(names()), args.all, Console(),
                           args.plain)
    runners = {"list": run_list, "create": run_create, "join": run_join, "watch": run_watch,
               "bot": run_bot, "play": run_play, "seek": run_seek, "login": run_login,
               "logout": run_logout, "token": run_token, "games": run_games, "top": run_top}
    try:
        if args.command == "replay" and args.replay_command == "download":
            output = Path(args.output) if args.output else None
            return asyncio.run(download(settings.server, args.game, args.format, output))
        return asyncio.run(runners[args.command](args, settings))
    except (aiohttp.ClientError, OSError) as error:
        print(cannot_reach(settings.server, error), file=sys.stderr)
        return 2
    except (LobbyError, ServerError) as error:
        print(f"{explain(error.code, error.message)} ({error.code})", file=sys.stderr)
        return 1
    except (Closed, ConnectionLost) as error:
        print(_("The connection to the server ended: {reason}").format(reason=error),
              file=sys.stderr)
        return 1
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
