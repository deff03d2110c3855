"""`dominion-server ratings reconcile`: the rating ledger and one node's games made to
agree after either side was restored from an older copy (docs/RATINGS.md, "After a
restore"). Run on each node's host with the node's own settings (--db, --node,
--accounts-url); the node may be running.

- The node's finished rated games that the ledger lacks (the account store restored from
  an older copy: their outbox rows say "applied" to a ledger that no longer has them) are
  handed to the ledger again. The ledger refuses a game it has, so each counts once
  however often this runs, and whatever the node's own outbox hands on meanwhile.
- The ledger's games made on this node that neither the node nor the archive of ended
  games has (its games database restored from an older copy, the games not archived yet:
  they answer 404) are listed and marked, their ratings kept: a rating change cannot be
  undone without undoing every later one. A player's rating history says so of those
  games (`record_lost`).

Nothing is written to the node's games database.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...accounts.host_command import on_account_store, run_host_command
from ...accounts.moderation import FullStore
from ...cluster.node import owner_of
from ...ratings import RatingError
from ...ratings.ledger import LedgerEntry, RatedGame
from ...settings import Settings
from ...storage import StorageError
from ...storage.reader import GamesReader


@dataclass(slots=True)
class Reconciled:
    """What a reconcile found and did."""

    rated: int = 0
    """The node's finished rated games."""
    delivered: list[RatedGame] = field(default_factory=list)
    """Those the ledger lacked, handed to it now."""
    lost: list[LedgerEntry] = field(default_factory=list)
    """The ledger's games of this node that the node no longer has."""
    marked: int = 0
    """Of those, how many were marked now (not by an earlier run)."""
    unreadable: list[str] = field(default_factory=list)
    """Outbox rows that are no rated game (a bug: the node's outbox logs them too)."""


async def reconcile(store: FullStore, games: GamesReader, node: str,
                    now: datetime, pair_limit: int = 0) -> Reconciled:
    """The ledger and the node `node`'s games (`games`) compared, and made to agree; the
    games handed on now are under `rated_games_per_pair_per_day` (`pair_limit`) too."""
    done = Reconciled()
    entries = await store.ledger_entries()
    in_ledger = {entry.game_id for entry in entries}
    for raw in games.rated_games():
        done.rated += 1
        try:
            game = RatedGame.from_dict(raw)
        except (RatingError, KeyError, TypeError):  # as the outbox: the rest go on
            done.unreadable.append(str(raw.get("game_id")))
            continue
        if game.game_id not in in_ledger and await store.apply_rated_game(game, now,
                                                                          pair_limit):
            done.delivered.append(game)
    mine = [entry for entry in entries if (owner_of(entry.game_id) or "") == node]
    ids = [entry.game_id for entry in mine]
    present = games.games_present(ids) | await store.archived_ids(ids)
    done.lost = [entry for entry in mine if entry.game_id not in present]
    if done.lost:
        done.marked = await store.mark_records_lost([entry.game_id for entry in done.lost],
                                                    now)
    return done


def reconcile_main(argv: Sequence[str]) -> int:
    argparse.ArgumentParser(
        prog="dominion-server ratings reconcile",
        description="After restoring the account store or this node's games database from "
                    "an older copy: hand the ledger this node's rated games it lacks (each "
                    "counts once), and list and mark the ledger's games this node no "
                    "longer has (their ratings stay). Give the node's own --db, --node and "
                    "--accounts-url, or their DOMINION_* variables.").parse_known_args(argv)
    settings = Settings.from_sources(argv)
    done = run_host_command("dominion-server ratings reconcile", _reconcile(settings),
                            StorageError)
    if done is None:
        return 1
    for game in done.delivered:
        print(f"handed on {game.game_id} (finished {game.finished_at})")
    for entry in done.lost:
        print(f"record lost {entry.game_id} (finished {entry.finished_at}): rating kept")
    for game_id in done.unreadable:
        print(f"cannot read the outbox row of {game_id}: left as it is", file=sys.stderr)
    print(summary(done))
    return 0


def summary(done: Reconciled) -> str:
    """The last line: `3 rated games on this node, 1 handed on; 2 records lost (2 newly
    marked)`."""
    return (f"{done.rated} rated game{'' if done.rated == 1 else 's'} on this node, "
            f"{len(done.delivered)} handed on; {len(done.lost)} record"
            f"{'' if len(done.lost) == 1 else 's'} lost ({done.marked} newly marked)")


async def _reconcile(settings: Settings) -> Reconciled:
    with GamesReader.open(settings.db) as games:
        return await on_account_store(settings, lambda store: reconcile(
            store, games, settings.node, datetime.now(UTC),
            settings.rated_games_per_pair_per_day))
