"""`dominion-server ratings recompute`: every current rating rebuilt from the rating
ledger, in its order, with today's model and parameters (after they change), in one
transaction of the account store the server is configured with (the SQLite file beside
--db, or --accounts-url); it prints what changed. (`ratings reconcile` reads a node's games
too, so it lives above the accounts: server/edge/tasks/reconcile.py.)"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..ratings import Rating
from ..ratings.ledger import RatingChange
from ..settings import Settings
from .host_command import on_account_store, run_host_command

ACTIONS = ("recompute",)


def ratings_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dominion-server ratings",
        description="Recompute every rating from the rating ledger with today's parameters, "
                    "in the account store the server uses (give the server's own --db or "
                    "--accounts-url, or their DOMINION_* variables).")
    parser.add_argument("action", choices=ACTIONS, help="what to do (`reconcile`, after a restore, "
                        "has its own --help)")
    _, rest = parser.parse_known_args(argv)  # the one action; the rest are settings
    settings = Settings.from_sources(rest)
    changes = run_host_command("dominion-server ratings", on_account_store(
        settings, lambda store: store.recompute_ratings()))
    if changes is None:
        return 1
    for change in changes:
        print(change_line(change))
    print(f"{len(changes)} rating{'' if len(changes) == 1 else 's'} changed")
    return 0


def change_line(change: RatingChange) -> str:
    """`Ada 2p: 1012 -> 987 (12 games)`, the numbers shown."""
    def shown(rating: Rating | None) -> str:
        return "none" if rating is None else str(rating.display)
    games = 0 if change.after is None else change.after.games
    return (f"{change.name} {change.pool}: {shown(change.before)} -> {shown(change.after)} "
            f"({games} games)")
