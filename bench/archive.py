"""The archive of ended games: its cost per finished game, and its size per game.

Fills a new games file with finished 2-player bot games (`dominion-server fill`'s own
`fill`, in-process), then hands them all to the archive as a node's outbox does
(`play.archive.hand_over`: each game packed, inserted, its row marked), and reads them
all back (`Archive` answering from the archive once the node has pruned them). CPU is the
process's (every thread: the games' writer, the accounts' SQLite thread, asyncpg's loop):

    python bench/archive.py [--games 1000] [--accounts-url postgresql://...] [--json]

Without `--accounts-url` the archive is the SQLite file beside the games (a single
server's); with it, that PostgreSQL (a cluster's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import zstandard

from dominion.server.accounts import open_account_store
from dominion.server.accounts.store import sqlite_path_beside
from dominion.server.play.archive import Archive, archived_game, hand_over, prune
from dominion.server.play.fill import fill
from dominion.server.storage import Storage


def sizes(storage: Storage) -> dict[str, float]:
    """Mean bytes a game of the outbox as msgpack, and compressed (what the archive keeps):
    its body, and its replay's parts kept for dumps and exports (`stored_replay`)."""
    found: dict[str, list[int]] = {name: [] for name in (
        "msgpack_bytes", "zstd_bytes", "replay_bytes", "replay_zstd_bytes")}
    decompress = zstandard.ZstdDecompressor().decompress
    for stored, lines in storage.unarchived_games(500):  # a sample of 500 is plenty
        archived = archived_game(stored, lines)
        for name, size in (
                ("msgpack_bytes", len(decompress(archived.body))),
                ("zstd_bytes", len(archived.body)),
                ("replay_bytes", len(decompress(archived.replay))),
                ("replay_zstd_bytes", len(archived.replay))):
            found[name].append(size)
    means = {name: statistics.mean(values) for name, values in found.items()}
    return means | {"ratio": means["msgpack_bytes"] / means["zstd_bytes"]}


async def run(games: int, accounts_url: str) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="dominion-archive-"))
    db = folder / "games.sqlite3"
    storage = Storage.open(db, synchronous="NORMAL")
    await storage.start()
    store = open_account_store(accounts_url, str(db))
    await store.start()
    try:
        filled = await fill(storage, games, seed=1)
        figures: dict[str, Any] = {"games": games, "answers_per_game": filled.answers / games,
                                   "archive": "postgresql" if accounts_url else "sqlite"}
        figures.update(sizes(storage))
        ids = [stored.game.id for stored, _ in storage.unarchived_games(games)]

        cpu, wall = time.process_time(), time.perf_counter()
        assert await hand_over(storage, store) == games
        figures["archive_cpu_ms_per_game"] = 1000 * (time.process_time() - cpu) / games
        figures["archive_wall_ms_per_game"] = 1000 * (time.perf_counter() - wall) / games

        cpu = time.process_time()
        assert await prune(storage, timedelta(0)) == games
        figures["prune_cpu_ms_per_game"] = 1000 * (time.process_time() - cpu) / games

        archive = Archive(storage, store)
        cpu = time.process_time()
        for game_id in ids:
            assert await archive.ended_game(game_id) is not None
        figures["read_back_cpu_ms_per_game"] = 1000 * (time.process_time() - cpu) / games
        if not accounts_url:  # closed: its write-ahead log checkpointed into the file
            await store.close()
            figures["archive_file_bytes_per_game"] = (
                sqlite_path_beside(str(db)).stat().st_size / games)
        return figures
    finally:
        await store.close()
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--accounts-url", default="",
                        help="a PostgreSQL to archive into (empty: SQLite beside the games)")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    figures = asyncio.run(run(arguments.games, arguments.accounts_url))
    if arguments.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key}: {value:.2f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
