"""`dominion-server fill`: play N games with in-server bots and store each one as the
server stores a finished game (created, started, its answers, its end), through the
storage's own writer, without HTTP or sockets, then hands them to the archive of ended
games as the server's outbox does: for tests, demos and benchmarks (docs/REPLAYS.md,
"Filling a server with games").

Stop the server first: one process holds a database file at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Sequence

from dominion.bots import STRATEGIES

from ..accounts import open_account_store
from ..refusal import Refusal
from ..replays import commitment_of
from ..storage import GameRecord, Storage, StorageError
from ..storage.records import GameState
from .archive import hand_over
from .bot_games import Filled, play_one
from .clock import utc_now
from .seat_tokens import new_game_id

DEFAULT_STRATEGIES = ("big_money", "smithy_big_money")
AT_ONCE = 32
"""Games whose writes are in flight together: the writer commits them in shared
transactions while the engine plays the next ones."""
INTERRUPTED = 130
"""The exit status of a fill stopped by Ctrl-C, as a shell's for SIGINT (128 + 2)."""


async def store_one(storage: Storage, rng: random.Random, strategies: Sequence[str],
                    players: int, edition: int, node: str = "") -> int:
    """Play one game to its end and store it; its answers' count."""
    played = play_one(rng, strategies, players, edition)
    game, setup, seed = played.game, played.setup, played.seed
    created = utc_now()
    record = GameRecord(id=new_game_id(node), created_at=created, state=GameState.OPEN,
                        edition=setup.edition, seats=players, kingdom=setup.kingdom)
    await storage.create_game(record, played.seats)
    await storage.start_game(record.id, started_at=created, seed=seed,
                             commitment=commitment_of(seed), setup=setup.to_dict())
    await storage.append_answers(record.id, 0, game.answers, created)
    await storage.finish_game(record.id, state=GameState.FINISHED, finished_at=utc_now(),
                              result=None if game.result is None else game.result.to_dict())
    return len(game.answers)


async def fill(storage: Storage, games: int, *, players: int = 2,
               strategies: Sequence[str] = DEFAULT_STRATEGIES, edition: int = 2,
               seed: int | None = None, node: str = "") -> Filled:
    """Store `games` finished bot games (`seed`: the same Kingdoms, shuffles and bots'
    choices each time; not the game ids or times)."""
    rng = random.Random(seed)
    started = time.perf_counter()
    answers = 0
    pending: set[asyncio.Task[int]] = set()
    for _ in range(games):
        if len(pending) >= AT_ONCE:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            answers += sum(task.result() for task in done)
        pending.add(asyncio.ensure_future(
            store_one(storage, rng, strategies, players, edition, node)))
        await asyncio.sleep(0)  # let the writes of the games in flight go out
    answers += sum(await asyncio.gather(*pending))
    return Filled(games, answers, time.perf_counter() - started)


def parser() -> argparse.ArgumentParser:
    parsing = argparse.ArgumentParser(
        prog="dominion-server fill",
        description="Play games with in-server bots and store them in a stopped server's "
                    "database, as the server stores finished games.")
    parsing.add_argument("--db", default="dominion.sqlite3", help="the games' SQLite file")
    parsing.add_argument("--games", type=int, required=True, help="how many games")
    parsing.add_argument("--players", type=int, default=2, choices=range(2, 7),
                         help="seats per game (2-6)")
    parsing.add_argument("--strategies", default=",".join(DEFAULT_STRATEGIES),
                         help="comma-separated bot strategies, given to the seats in turn")
    parsing.add_argument("--edition", type=int, default=2, choices=(1, 2))
    parsing.add_argument("--seed", type=int, default=None,
                         help="the same games each time (their ids and times differ)")
    parsing.add_argument("--node", default="", help="the node's name, in game ids")
    parsing.add_argument("--synchronous", default="NORMAL", choices=("FULL", "NORMAL"),
                         help="SQLite's synchronous mode while filling")
    parsing.add_argument("--accounts-url", default=os.environ.get("DOMINION_ACCOUNTS_URL", ""),
                         help="the archive's PostgreSQL (the accounts' store); empty: the "
                              "SQLite file beside --db")
    parsing.add_argument("--direct", action="store_true",
                         help="hand the games straight to the archive, played by --workers "
                              "processes, leaving --db's games database untouched")
    parsing.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                         help="with --direct: processes playing games (default: one a core)")
    return parsing


def fill_main(argv: Sequence[str]) -> int:
    arguments = parser().parse_args(list(argv))
    strategies = [name for name in arguments.strategies.split(",") if name]
    unknown = [name for name in strategies if name not in STRATEGIES]
    if unknown or not strategies or arguments.games < 0 or arguments.workers < 1:
        print(f"dominion-server fill: unknown strategies {', '.join(unknown)}; known: "
              f"{', '.join(STRATEGIES)}" if unknown or not strategies
              else "dominion-server fill: --games is 0 or more, --workers 1 or more",
              file=sys.stderr)
        return 2

    async def direct() -> Filled:
        from .fill_direct import fill_archive  # its worker processes, only when asked

        archive = open_account_store(arguments.accounts_url, arguments.db)
        await archive.start()
        try:
            return await fill_archive(archive, arguments.games, workers=arguments.workers,
                                      players=arguments.players, strategies=strategies,
                                      edition=arguments.edition, seed=arguments.seed,
                                      node=arguments.node)
        finally:
            await archive.close()

    async def run() -> Filled:
        storage = Storage.open(arguments.db, synchronous=arguments.synchronous)
        await storage.start()
        archive = open_account_store(arguments.accounts_url, arguments.db)
        try:
            filled = await fill(storage, arguments.games, players=arguments.players,
                                strategies=strategies, edition=arguments.edition,
                                seed=arguments.seed, node=arguments.node)
            await archive.start()
            await hand_over(storage, archive)  # as the server's outbox would at its start
            return filled
        finally:
            await archive.close()
            await storage.close()

    try:
        filled = asyncio.run(direct() if arguments.direct else run())
    except (StorageError, Refusal) as error:
        print(f"dominion-server fill: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the games archived so far are kept
        print("dominion-server fill: interrupted", file=sys.stderr)
        return INTERRUPTED
    print(f"stored {filled.games} games ({filled.answers} answers) in {filled.seconds:.1f} s: "
          f"{filled.games_per_second:.1f} games/s")
    return 0
