"""A rated table's accounts' ratings beside their names: read from the account store once
as each sits down (never per summary or frame), again for a room rebuilt at a restart,
and left out while the store cannot be reached."""

from __future__ import annotations

from collections.abc import Mapping

from dominion.server.accounts.store import unavailable
from dominion.server.metrics import Metrics
from dominion.server.play.lobby import Lobby, SeatHolder
from dominion.server.ratings import Pool, Rating
from dominion.server.settings import Settings
from dominion.server.storage import Storage
from tests.eventually import eventually

HOLDERS = [SeatHolder("Ada", 11, False), SeatHolder("Bob", 12, False)]



class Store:
    """The account store's ratings: Ada's settled, Bob without a rated game."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.down = False

    async def ratings_of(self, account_id: int) -> Mapping[Pool, Rating]:
        if self.down:
            raise unavailable("connection refused")
        self.asked.append(account_id)
        return {Pool.TWO_PLAYER: Rating(1650.4, 100.0, 40)} if account_id == 11 else {}


def shown(summary: Mapping[str, object]) -> list[object]:
    return [seat.get("rating") for seat in summary["seats"]]  # type: ignore[attr-defined]


async def test_ratings_are_read_once_as_players_sit_down_and_again_after_a_restart(
        storage: Storage) -> None:
    store = Store()
    lobby = Lobby(storage, Settings(), Metrics())
    lobby.ratings_of = store.ratings_of
    room, _ = await lobby.create_matched(HOLDERS, 2, rated=True)
    want = [{"rating": 1650, "provisional": False}, {"rating": 1500, "provisional": True}]
    assert shown(room.summary()) == want
    assert shown(room.summary()) == want and sorted(store.asked) == [11, 12]  # not again
    unrated, _ = await lobby.create_matched(HOLDERS, 2, rated=False)
    assert shown(unrated.summary()) == [None, None] and len(store.asked) == 2
    await lobby.close()

    again = Lobby(storage, Settings(), Metrics())
    again.ratings_of = store.ratings_of
    await again.restore()
    await eventually(lambda: shown(again.room(room.id).summary()) == want)
    await again.close()


async def test_a_store_that_cannot_be_reached_leaves_the_ratings_out(storage: Storage) -> None:
    store = Store()
    store.down = True
    lobby = Lobby(storage, Settings(), Metrics())
    lobby.ratings_of = store.ratings_of
    room, _ = await lobby.create_matched(HOLDERS, 2, rated=True)
    assert shown(room.summary()) == [None, None]  # the table is made all the same
    await lobby.close()
