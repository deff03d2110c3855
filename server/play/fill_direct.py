"""`dominion-server fill --direct`: bot games played on every core and handed straight to
the archive of ended games, each as a node's outbox hands it over (`archived_game`, then
the archive's one transaction a batch; its replay made from the game just played, not
played back), without passing through a node's games database:
enough real games for a dump's benchmarks in minutes rather than hours (docs/REPLAYS.md,
"Filling a server with games").
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import signal
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from multiprocessing.pool import IMapIterator

from ..accounts.archive import ArchivedGame, ArchiveStore
from ..replays import commitment_of
from ..replays.build import derived_from
from ..storage import GameRecord, StoredGame
from ..storage.records import GameState
from .archive import archived_game
from .bot_games import Filled, Played, play_one
from .clock import utc_now
from .seat_tokens import new_game_id

CHUNK = 200
"""Games a worker plays and prepares for the archive before it hands them back: one of the
archive's transactions."""
Chunk = tuple[int, int, tuple[str, ...], int, int, str]
"""A worker's task: its random seed, how many games, strategies, players, edition, node."""
Prepared = tuple[list[ArchivedGame], int]
"""A worker's games as the archive takes them, and their answers' count."""
WAIT_SECONDS = 1.0
"""How long a thread waits on the workers at a time: an interrupted fill, whose loop
waits for its threads before it ends, stops within it."""


def finished_game(played: Played, node: str) -> StoredGame:
    """A played game as a node's storage reads a finished one back."""
    at, game = utc_now(), played.game
    record = GameRecord(
        id=new_game_id(node), created_at=at, state=GameState.FINISHED,
        edition=played.setup.edition, seats=len(played.seats), kingdom=played.setup.kingdom,
        started_at=at, finished_at=at, seed=played.seed,
        commitment=commitment_of(played.seed), setup=played.setup.to_dict(),
        result=None if game.result is None else game.result.to_dict())
    return StoredGame(record, tuple(played.seats), tuple(game.answers))


def archived_chunk(task: Chunk) -> Prepared:
    """A worker's games as the archive takes them, and their answers' count."""
    seed, count, strategies, players, edition, node = task
    rng = random.Random(seed)
    games = [play_one(rng, strategies, players, edition) for _ in range(count)]
    return ([archived_game(finished_game(played, node), [],
                           derived_from(played.game, played.event_counts))
             for played in games],
            sum(len(played.game.answers) for played in games))


def uninterrupted() -> None:
    """A worker's start: Ctrl-C, which reaches every process of the terminal's group, is
    for the fill to handle (it ends its workers), not for each worker to die of alone
    (the pool would start another, and wait for the lost chunk for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def next_chunk(done: IMapIterator[Prepared]) -> Prepared | None:
    """The workers' next chunk in order, None after the last; multiprocessing's
    TimeoutError when none came within WAIT_SECONDS."""
    try:
        return done.next(timeout=WAIT_SECONDS)
    except StopIteration:
        return None


def chunks(games: int, seed: int | None, strategies: Sequence[str], players: int,
           edition: int, node: str) -> Iterator[Chunk]:
    """The games a chunk at a time, each chunk's seed drawn from `seed` (the same games each
    time for the same seed and count, whichever the workers)."""
    seeds = random.Random(seed)
    for start in range(0, games, CHUNK):
        yield (seeds.getrandbits(64), min(CHUNK, games - start), tuple(strategies), players,
               edition, node)


async def fill_archive(store: ArchiveStore, games: int, *, workers: int, players: int,
                       strategies: Sequence[str], edition: int, seed: int | None,
                       node: str = "") -> Filled:
    """Archive `games` finished bot games played by `workers` processes."""
    started = time.perf_counter()
    answers = 0
    loop = asyncio.get_running_loop()
    # spawned, not forked: the workers share nothing with this process's open archive
    with multiprocessing.get_context("spawn").Pool(workers, uninterrupted) as pool:
        done = pool.imap(archived_chunk, chunks(games, seed, strategies, players, edition,
                                                node))
        while True:
            try:
                chunk = await loop.run_in_executor(None, next_chunk, done)
            except multiprocessing.TimeoutError:
                continue
            if chunk is None:
                break
            archived, answered = chunk
            await store.archive_games(archived, datetime.now(UTC))
            answers += answered
    return Filled(games, answers, time.perf_counter() - started)
