"""Automatch: opponents on demand, for 2 to 6 players, across nodes.

`matcher.py` forms tables (pure), `penalty.py` the wait earned by declining, and when
strikes set a player apart (pure),
`queue.py` the queue's rules over a `Store` (`store.py`: in memory for one process,
`redis_store.py` for several nodes), `service.py` a node's part: its players' seeks,
the waves, the game made when everyone accepted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..play.clock import LOOP_CLOCK, Clock
from .penalty import Apart
from .queue import Counts, Queue
from .service import Automatch, RatingLookup, stored_ratings
from .store import MemoryStore, Store

if TYPE_CHECKING:
    from ..metrics import Metrics
    from ..play.lobby import Lobby
    from ..settings import Settings


def open_automatch(settings: Settings, lobby: Lobby, metrics: Metrics,
                   ratings: RatingLookup, timers: Clock = LOOP_CLOCK) -> Automatch:
    """The queue in memory, or with --redis in the cluster's Redis (imported only then)."""
    store: Store
    if settings.redis:
        from .redis_store import RedisStore

        store = RedisStore(settings.redis)
    else:
        store = MemoryStore()
    queue = Queue(store, settings.automatch_confirm_seconds, settings.automatch_grace_seconds,
                  Apart(settings.automatch_apart_strikes, settings.automatch_apart_seconds))
    return Automatch(queue, lobby, settings, metrics, ratings, timers=timers)


__all__ = ["Automatch", "Counts", "RatingLookup", "open_automatch", "stored_ratings"]
