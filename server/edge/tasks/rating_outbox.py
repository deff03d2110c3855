"""The node's part of the rating ledger: finished rated games wait in its games database's
outbox (written with the game's end, in one transaction) until the account store's
ledger has them; this task hands them on.

Each game goes to the store in one transaction that appends it to the ledger, whose
game ids are unique, and updates its players' ratings; only then is its outbox row
marked done. A node killed in between hands the game on again at its next start, and
the ledger refuses the second copy: each game counts once. While the store cannot be
reached, the games wait and the node tries again, waiting twice as long each time (from
1 second up to `ratings_retry_seconds`): nothing is lost.

Once a game is applied, its players hear how their ratings changed (`rating_changed`):
the node that played the game hands it on, so its room, if still kept, is here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from dominion.protocol import ErrorCode

from ...accounts.store import RatingStore
from ...play.clock import utc_now
from ...ratings import RatingError
from ...ratings.ledger import GameRatings, RatedGame
from ...refusal import Refusal
from ...storage import Storage
from .outbox_loop import OutboxLoop

log = logging.getLogger("dominion.ratings")


class RatingOutbox(OutboxLoop):
    log = log
    what = "the ratings' outbox"

    def __init__(self, storage: Storage, store: RatingStore, longest_wait: float,
                 pair_limit: int = 0) -> None:
        super().__init__(longest_wait)
        self._storage = storage
        self._store = store
        self.pair_limit = pair_limit
        """`rated_games_per_pair_per_day`, which the ledger applies."""
        self.applied = 0
        """Games this node's outbox handed to the ledger (for tests and logs)."""
        self.on_applied: Callable[[GameRatings], None] = lambda ratings: None
        """Told what the ledger did to each game this node's outbox applied (the edge
        tells the game's room)."""

    async def drain(self) -> bool:
        """Hand every waiting game to the ledger; False when the store cannot be reached
        (the rest wait for the next try)."""
        for raw in self._storage.pending_ratings():
            applied = False
            try:
                game = RatedGame.from_dict(raw)
                if await self._store.apply_rated_game(game, datetime.now(UTC),
                                                    self.pair_limit):
                    applied = True
                    self.applied += 1
                    log.info("rated game applied", extra={"game": game.game_id})
            except Refusal as error:
                if error.code is not ErrorCode.ACCOUNTS_UNAVAILABLE:
                    raise
                log.warning("rated games wait: %s", error.message)
                return False
            except (RatingError, KeyError, TypeError):  # a bug: the rest must not wait on it
                log.exception("a rated game cannot be applied", extra={"game": raw})
                continue
            await self._storage.rating_applied(game.game_id, utc_now())
            if applied and not game.aborted:  # the room told its players at the end
                await self._tell(game.game_id)
        return True

    async def _tell(self, game_id: str) -> None:
        """What the ledger did to the game, to whoever listens; a store that cannot be read
        now only costs the news (the game's summary has it later)."""
        try:
            found = await self._store.game_ratings([game_id])
        except Refusal as error:
            log.warning("a rated game's news is lost: %s", error.message)
            return
        if game_id in found:
            self.on_applied(found[game_id])
