"""The node's outbox of finished rated games: written with the game's end, handed to the
ledger once, kept while the account store cannot be reached."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest

from dominion.protocol import RatingChanged, SeatRatingChange, Unrated
from dominion.server.accounts import store as account_store
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.edge.api.game_ratings import rating_changed
from dominion.server.edge.tasks.rating_outbox import RatingOutbox
from dominion.server.ratings import INITIAL, Pool, RatingError
from dominion.server.ratings.ledger import GameRatings, RatedGame, RatedSeat
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, Storage, StorageError

NOW = datetime.fromisoformat("2026-12-01T10:00:00+00:00")



@pytest.fixture
async def accounts(tmp_path: Path) -> AsyncIterator[SqliteAccountStore]:
    opened = SqliteAccountStore(tmp_path / "games.accounts.sqlite3")
    await opened.start()
    try:
        yield opened
    finally:
        await opened.close()


async def finish_rated(storage: Storage, account_id: int, game_id: str = "g-1") -> None:
    await storage.create_game(GameRecord(game_id, "2026-12-01T09:00:00Z", GameState.OPEN, 2, 2,
                                         ("smithy",) * 10, options={"rated": True}), [])
    game = RatedGame(game_id, "2026-12-01T10:00:00Z", (
        RatedSeat(0, 0, account_id=account_id), RatedSeat(1, 1, bot="big_money")))
    await storage.finish_game(game_id, state=GameState.FINISHED,
                              finished_at="2026-12-01T10:00:00Z", result={},
                              rated=game.to_dict())


async def test_the_outbox_row_is_written_with_the_end_and_kept_when_applied(
        storage: Storage, accounts: SqliteAccountStore) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    await finish_rated(storage, ada.id)
    stored = storage.load_game("g-1")
    assert stored is not None and stored.game.rated and stored.game.state == "finished"
    assert [RatedGame.from_dict(raw).game_id for raw in storage.pending_ratings()] == ["g-1"]
    outbox = RatingOutbox(storage, accounts, 0.1)
    assert await outbox.drain() is True
    assert storage.pending_ratings() == [] and outbox.applied == 1
    assert (await accounts.ratings_of(ada.id))[Pool.TWO_PLAYER].games == 1


async def test_a_game_delivered_twice_counts_once(
        storage: Storage, accounts: SqliteAccountStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    await finish_rated(storage, ada.id)
    outbox = RatingOutbox(storage, accounts, 0.1)
    real = storage.rating_applied

    async def lost(game_id: str, at: str) -> None:  # the node dies before marking it done
        raise StorageError("disk I/O error")
    monkeypatch.setattr(storage, "rating_applied", lost)
    with pytest.raises(StorageError):
        await outbox.drain()
    assert len(storage.pending_ratings()) == 1  # still waiting: it is sent again
    monkeypatch.setattr(storage, "rating_applied", real)
    assert await outbox.drain() is True
    assert storage.pending_ratings() == [] and outbox.applied == 1
    assert (await accounts.ratings_of(ada.id))[Pool.TWO_PLAYER].games == 1


async def test_results_wait_while_the_account_store_is_unreachable(
        storage: Storage, accounts: SqliteAccountStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    await finish_rated(storage, ada.id)
    outbox = RatingOutbox(storage, accounts, 0.1)
    real = accounts.apply_rated_game

    async def down(game: RatedGame, now: datetime, pair_limit: int = 0) -> bool:
        raise account_store.unavailable("connection refused")
    monkeypatch.setattr(accounts, "apply_rated_game", down)
    assert await outbox.drain() is False
    assert len(storage.pending_ratings()) == 1 and await accounts.ratings_of(ada.id) == {}
    monkeypatch.setattr(accounts, "apply_rated_game", real)
    assert await outbox.drain() is True
    assert (await accounts.ratings_of(ada.id))[Pool.TWO_PLAYER].games == 1


def test_the_ledger_refuses_a_game_that_seats_an_account_twice() -> None:
    # one account in two seats would be rated against itself: a rating bought for free
    with pytest.raises(RatingError, match="seats an account twice"):
        RatedGame("g-1", "2026-12-01T10:00:00Z", (
            RatedSeat(0, 0, account_id=7), RatedSeat(1, 1, account_id=7)))
    with pytest.raises(RatingError):
        RatedGame.from_dict({"game_id": "g-1", "finished_at": "2026-12-01T10:00:00Z",
                             "seats": [{"seat": 0, "rank": 0, "account_id": 7},
                                       {"seat": 1, "rank": 1, "account_id": 8},
                                       {"seat": 2, "rank": 2, "account_id": 7}]})


async def finish_duel(storage: Storage, game_id: str, winner: int, loser: int) -> None:
    """A rated game of two accounts, finished and waiting in the outbox."""
    await storage.create_game(GameRecord(game_id, "2026-12-01T09:00:00Z", GameState.OPEN, 2, 2,
                                         ("smithy",) * 10, options={"rated": True}), [])
    game = RatedGame(game_id, "2026-12-01T10:00:00Z", (
        RatedSeat(0, 0, account_id=winner), RatedSeat(1, 1, account_id=loser)))
    await storage.finish_game(game_id, state=GameState.FINISHED,
                              finished_at="2026-12-01T10:00:00Z", result={},
                              rated=game.to_dict())


async def test_the_outbox_hands_the_ledger_the_pair_limit(
        storage: Storage, accounts: SqliteAccountStore) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    bob = await accounts.create_account("Bob", "bob", "h", NOW)
    outbox = RatingOutbox(storage, accounts, 0.1, pair_limit=1)
    await finish_duel(storage, "g-1", ada.id, bob.id)
    assert await outbox.drain() is True
    counted = await accounts.ratings_of(ada.id)
    await finish_duel(storage, "g-2", ada.id, bob.id)
    assert await outbox.drain() is True
    assert storage.pending_ratings() == [] and outbox.applied == 2  # both in the ledger...
    assert await accounts.ratings_of(ada.id) == counted  # ...the second counted for nothing


def test_a_negative_pair_limit_is_refused() -> None:
    assert Settings(rated_games_per_pair_per_day=0).problem() is None
    problem = Settings(rated_games_per_pair_per_day=-1).problem()
    assert problem is not None and "--rated-games-per-pair-per-day" in problem


async def test_each_game_applied_is_told_once_with_its_accounts_changes(
        storage: Storage, accounts: SqliteAccountStore) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    bob = await accounts.create_account("Bob", "bob", "h", NOW)
    outbox = RatingOutbox(storage, accounts, 0.1, pair_limit=1)
    told: list[GameRatings] = []
    outbox.on_applied = told.append
    await finish_duel(storage, "g-1", ada.id, bob.id)
    await finish_rated(storage, ada.id, "g-2")  # against Big Money: its seat is left out
    await finish_duel(storage, "g-3", ada.id, bob.id)  # over the pair limit
    assert await outbox.drain() is True
    assert await outbox.drain() is True  # nothing new: nothing told again
    assert [ratings.game_id for ratings in told] == ["g-1", "g-2", "g-3"]
    assert rating_changed(told[0]) == RatingChanged("g-1", (
        SeatRatingChange(0, 1500, 1658, True), SeatRatingChange(1, 1500, 1342, True)))
    assert [change.seat for change in rating_changed(told[1]).changes] == [0]
    third = rating_changed(told[2])
    assert third.unrated is Unrated.PAIR_LIMIT
    assert all(change.before == change.after for change in third.changes)


async def test_a_game_given_up_too_early_reaches_the_ledger_and_is_told_by_its_room(
        storage: Storage, accounts: SqliteAccountStore) -> None:
    ada = await accounts.create_account("Ada", "ada", "h", NOW)
    await storage.create_game(GameRecord("g-1", "2026-12-01T09:00:00Z", GameState.OPEN, 2, 2,
                                         ("smithy",) * 10, options={"rated": True}), [])
    early = RatedGame("g-1", "2026-12-01T10:00:00Z", (
        RatedSeat(0, 1, account_id=ada.id), RatedSeat(1, 0, bot="big_money")), aborted=True)
    await storage.finish_game("g-1", state=GameState.FINISHED,
                              finished_at="2026-12-01T10:00:00Z", result={},
                              rated=early.to_dict())
    outbox = RatingOutbox(storage, accounts, 0.1)
    told: list[GameRatings] = []
    outbox.on_applied = told.append
    assert await outbox.drain() is True and outbox.applied == 1
    assert told == []  # the room said it at the game's end
    kept = (await accounts.game_ratings(["g-1"]))["g-1"]
    assert rating_changed(kept).unrated is Unrated.TOO_SHORT
    assert await accounts.ratings_of(ada.id) == {Pool.TWO_PLAYER: INITIAL}
