"""`dominion`: the command-line client.

`dominion replay download GAME` fetches a replay; `dominion replay verify FILE` checks
a finished game's replay (the one command that runs the engine).
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
import msgpack  # type: ignore[import-untyped]

DEFAULT_SERVER = "http://127.0.0.1:8080"
EXTENSIONS = {"json": "json", "msgpack": "msgpack", "text": "txt"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dominion", description="The Dominion client.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="download and check replays")
    replays = replay.add_subparsers(dest="replay_command", required=True)
    download = replays.add_parser("download", help="download a game's replay")
    download.add_argument("game", help="the game id")
    download.add_argument("--server", default=DEFAULT_SERVER, help="the server's base URL")
    download.add_argument("--format", choices=tuple(EXTENSIONS), default="json")
    download.add_argument("--output", "-o", help="file to write (default: GAME.EXT)")
    verify = replays.add_parser("verify", help="check a finished game's replay")
    verify.add_argument("file", help="a replay file (JSON or msgpack)")
    return parser


def load_replay(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    try:
        loaded = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        loaded = msgpack.unpackb(data, raw=False)
    if not isinstance(loaded, dict):
        raise ValueError("a replay is a JSON or msgpack map")
    return loaded


def verify_file(path: Path) -> int:
    from dominion.server.verify import verify_replay

    try:
        replay = load_replay(path)
    except (OSError, ValueError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 2
    result = verify_replay(replay)
    if result.ok:
        events = len(replay.get("events", []))
        print(f"ok: the seed matches its commitment and {len(replay['answers'])} answers "
              f"replay to the recorded {events} events and result")
        return 0
    for problem in result.problems:
        print(f"FAILED: {problem}")
    return 1


async def download(server: str, game: str, chosen: str, output: Path | None) -> int:
    url = f"{server.rstrip('/')}/api/v1/games/{game}/replay"
    async with aiohttp.ClientSession() as session, \
            session.get(url, params={"format": chosen}) as response:
        body = await response.read()
        if response.status != 200:
            try:
                error = json.loads(body)["error"]
                print(f"{error['code']}: {error['message']}", file=sys.stderr)
            except (ValueError, KeyError, TypeError):
                print(f"the server answered {response.status}", file=sys.stderr)
            return 1
    target = output or Path(f"{game}.{EXTENSIONS[chosen]}")
    target.write_bytes(body)
    print(f"saved {target}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "replay" and args.replay_command == "verify":
        return verify_file(Path(args.file))
    if args.command == "replay" and args.replay_command == "download":
        output = Path(args.output) if args.output else None
        try:
            return asyncio.run(download(args.server, args.game, args.format, output))
        except aiohttp.ClientError as error:
            print(f"cannot reach {args.server}: {error}", file=sys.stderr)
            return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
