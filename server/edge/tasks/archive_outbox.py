"""The node's part of the archive of ended games: each ended game handed from the node's
games database (its outbox) to the archive every node reads, exactly once (the archive
refuses a second copy by the game's id; play/archive.py), and the archived games pruned
from the node's file once older than `archive_keep_hours`. While the archive cannot be
reached, the games wait on the node and the task tries again, waiting twice as long each
time (from 1 second up to `archive_retry_seconds`): nothing is lost."""

from __future__ import annotations

import logging
from datetime import timedelta

from dominion.protocol import ErrorCode

from ...accounts.archive import ArchiveStore
from ...play.archive import hand_over, prune
from ...refusal import Refusal
from ...storage import Storage
from .outbox_loop import OutboxLoop

log = logging.getLogger("dominion.archive")
PRUNE_SECONDS = 600.0
"""How often the task prunes (and looks for waiting games) when nobody wakes it."""


class ArchiveOutbox(OutboxLoop):
    log = log
    what = "the archive's outbox"
    idle_seconds = PRUNE_SECONDS

    def __init__(self, storage: Storage, store: ArchiveStore, longest_wait: float,
                 keep: timedelta) -> None:
        super().__init__(longest_wait)
        self._storage = storage
        self._store = store
        self.keep = keep
        self.archived = 0
        """Games this node handed to the archive (for tests and logs)."""
        self.pruned = 0
        """Archived games this node deleted from its own file."""

    async def drain(self) -> bool:
        try:
            self.archived += await hand_over(self._storage, self._store)
        except Refusal as error:
            if error.code is not ErrorCode.ACCOUNTS_UNAVAILABLE:
                raise
            log.warning("ended games wait for the archive: %s", error.message)
            return False
        pruned = await prune(self._storage, self.keep)
        if pruned:
            self.pruned += pruned
            log.info("archived games pruned", extra={"count": pruned})
        return True
