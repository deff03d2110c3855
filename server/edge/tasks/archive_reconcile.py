"""`dominion-server archive reconcile`: the archive of ended games re-filled from one
node's games database after the archive (PostgreSQL, or a single server's accounts file)
was restored from an older copy (docs/STORAGE.md, "The archive"). Run on each node's host
with the node's own settings (--db, --accounts-url); the node may be running.

The node's ended games that the archive lacks (their rows say "archived" to an archive
that no longer has them) are handed to it again. The archive refuses a game it has, so
each is archived once however often this runs, and whatever the node's own outbox hands
on meanwhile. Games the node pruned before the restore are gone from both: keep
`archive_keep_hours` longer than the archive's backups are apart. Nothing is written to
the node's games database.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ...accounts.archive import ArchiveStore
from ...accounts.host_command import on_account_store, run_host_command
from ...play.archive import archived_game
from ...settings import Settings
from ...storage import StorageError
from ...storage.reader import GamesReader


@dataclass(slots=True)
class Refilled:
    ended: int = 0
    """The node's ended games."""
    archived: int = 0
    """Those the archive lacked, handed to it now."""


async def refill(store: ArchiveStore, games: GamesReader, now: datetime) -> Refilled:
    """Every ended game of `games` the archive lacks, archived."""
    done = Refilled()
    for batch in games.ended_games():
        done.ended += len(batch)
        have = await store.archived_ids([stored.game.id for stored, _ in batch])
        done.archived += await store.archive_games(
            [archived_game(stored, chat) for stored, chat in batch
             if stored.game.id not in have], now)
    return done


def archive_reconcile_main(argv: Sequence[str]) -> int:
    argparse.ArgumentParser(
        prog="dominion-server archive reconcile",
        description="After restoring the archive of ended games (the accounts' store) from "
                    "an older copy: hand it this node's ended games it lacks (each is "
                    "archived once). Give the node's own --db and --accounts-url, or their "
                    "DOMINION_* variables.").parse_known_args(argv)
    settings = Settings.from_sources(argv)
    done = run_host_command("dominion-server archive reconcile", _refill(settings),
                            StorageError)
    if done is None:
        return 1
    print(f"{done.ended} ended game{'' if done.ended == 1 else 's'} on this node, "
          f"{done.archived} archived again")
    return 0


async def _refill(settings: Settings) -> Refilled:
    with GamesReader.open(settings.db) as games:
        return await on_account_store(settings,
                                      lambda store: refill(store, games, datetime.now(UTC)))
