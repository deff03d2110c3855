"""The rating ledger in both stores: each game applied once, ratings per pool, bots as
fixed points, the read side (leaderboard, history, record against bots), recompute."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest.mock import ANY

import pytest
from openskill.models import PlackettLuce

from dominion.server.accounts import AccountStore
from dominion.server.accounts.moderation import FullStore
from dominion.server.ratings import INITIAL, Pool, ledger, model, update
from dominion.server.ratings.ledger import RatedGame, RatedSeat, bot_rating, bot_ratings

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def duel(game_id: str, winner: int, loser: int | str) -> RatedGame:
    """A 2-player game the account `winner` won against an account or an in-server bot."""
    other = (RatedSeat(1, 1, bot=loser) if isinstance(loser, str)
             else RatedSeat(1, 1, account_id=loser))
    return RatedGame(game_id, "2026-12-01T10:00:00Z", (RatedSeat(0, 0, account_id=winner), other))


async def accounts(store: AccountStore, *names: str) -> list[int]:
    return [(await store.create_account(name, name.lower(), "h", NOW)).id for name in names]


async def test_a_game_counts_once_however_often_it_is_delivered(store: FullStore) -> None:
    ada, bob = await accounts(store, "Ada", "Bob")
    game = duel("g-1", ada, bob)
    assert await store.apply_rated_game(game, NOW) is True
    assert await store.apply_rated_game(game, NOW) is False  # the outbox sent it again
    won, lost = update([INITIAL, INITIAL], [0, 1])
    assert (await store.ratings_of(ada))[Pool.TWO_PLAYER] == won
    assert (await store.ratings_of(bob)) == {Pool.TWO_PLAYER: lost}
    assert [point.game_id for point in await store.rating_history(ada, Pool.TWO_PLAYER, 10)
            ] == ["g-1"]


async def test_pools_are_apart_and_bots_never_move(store: FullStore) -> None:
    ada, bob, cy = await accounts(store, "Ada", "Bob", "Cy")
    await store.apply_rated_game(duel("g-1", ada, "big_money"), NOW)
    three = RatedGame("g-2", "2026-12-01T11:00:00Z", (
        RatedSeat(0, 1, account_id=ada), RatedSeat(1, 0, account_id=bob),
        RatedSeat(2, 1, account_id=cy)))
    await store.apply_rated_game(three, NOW)
    rated = await store.ratings_of(ada)
    assert rated[Pool.TWO_PLAYER].games == 1 and rated[Pool.MULTIPLAYER].games == 1
    expected = update([INITIAL, bot_rating("big_money", Pool.TWO_PLAYER)], [0, 1])[0]
    assert rated[Pool.TWO_PLAYER] == expected
    board, total = await store.leaderboard(Pool.TWO_PLAYER, 50, 0)
    assert total == 1 + len(bot_ratings(Pool.TWO_PLAYER))
    big_money = next(row for row in board if row.name == "big_money")
    assert big_money.in_server and big_money.bot and big_money.rating.games == 1
    assert big_money.rating.mu == bot_rating("big_money", Pool.TWO_PLAYER).mu
    # settled ratings first (the bots'), then provisional ones, each by the conservative
    # estimate: a lucky first game does not top the board
    order = [(row.rating.provisional, -row.rating.conservative) for row in board]
    assert order == sorted(order)
    assert board[-1].name == "Ada" and board[-1].rating.provisional


async def test_the_leaderboard_pages_and_leaves_out_deleted_accounts(
        store: FullStore) -> None:
    ada, bob, cy = await accounts(store, "Ada", "Bob", "Cy")
    for number, (winner, loser) in enumerate([(ada, bob), (ada, cy), (bob, cy)]):
        await store.apply_rated_game(duel(f"g-{number}", winner, loser), NOW)
    bots = len(bot_ratings(Pool.TWO_PLAYER))
    whole, total = await store.leaderboard(Pool.TWO_PLAYER, 100, 0)
    assert total == 3 + bots == len(whole)
    first, _ = await store.leaderboard(Pool.TWO_PLAYER, 2, 0)
    rest, _ = await store.leaderboard(Pool.TWO_PLAYER, 100, 2)
    assert first + rest == whole
    await store.delete_account(cy, NOW)
    after, total = await store.leaderboard(Pool.TWO_PLAYER, 100, 0)
    assert total == 2 + bots and "Cy" not in {row.name for row in after}
    others, total = await store.leaderboard(Pool.MULTIPLAYER, 100, 0)  # bots alone there
    assert all(row.in_server for row in others)
    assert total == len(others) == len(bot_ratings(Pool.MULTIPLAYER))


async def test_the_record_against_each_bot(store: FullStore) -> None:
    (ada,) = await accounts(store, "Ada")
    await store.apply_rated_game(duel("g-1", ada, "big_money"), NOW)
    lost = RatedGame("g-2", "2026-12-01T11:00:00Z", (
        RatedSeat(0, 0, bot="strong"), RatedSeat(1, 1, account_id=ada)))
    tied = RatedGame("g-3", "2026-12-01T12:00:00Z", (
        RatedSeat(0, 0, bot="big_money"), RatedSeat(1, 0, account_id=ada)))
    for game in (lost, tied):
        await store.apply_rated_game(game, NOW)
    records = await store.record_against_bots(ada, Pool.TWO_PLAYER)
    assert [(r.bot, r.wins, r.losses, r.ties) for r in records] == [
        ("big_money", 1, 0, 1), ("strong", 0, 1, 0)]
    assert await store.record_against_bots(ada, Pool.MULTIPLAYER) == []


async def test_recompute_rebuilds_the_same_ratings_from_the_ledger(store: FullStore) -> None:
    ada, bob = await accounts(store, "Ada", "Bob")
    for number in range(3):
        await store.apply_rated_game(duel(f"g-{number}", ada, bob), NOW)
    kept = await store.ratings_of(ada), await store.ratings_of(bob)
    assert await store.recompute_ratings() == []  # today's parameters: nothing changes
    assert (await store.ratings_of(ada), await store.ratings_of(bob)) == kept


async def test_recompute_applies_todays_parameters_and_says_what_changed(
        store: FullStore, monkeypatch: pytest.MonkeyPatch) -> None:
    ada, bob = await accounts(store, "Ada", "Bob")
    await store.apply_rated_game(duel("g-1", ada, bob), NOW)
    await store.apply_rated_game(duel("g-2", ada, "random"), NOW)
    old = (await store.ratings_of(ada))[Pool.TWO_PLAYER]
    wider = PlackettLuce(mu=model.MU, sigma=model.SIGMA, beta=2 * model.BETA, tau=model.TAU)
    monkeypatch.setattr(ledger, "update", lambda ratings, ranks: update(ratings, ranks, wider))
    changes = await store.recompute_ratings()
    first = update([INITIAL, INITIAL], [0, 1], wider)
    second = update([first[0], bot_rating("random", Pool.TWO_PLAYER)], [0, 1], wider)
    assert [(c.name, c.pool, c.before, c.after) for c in changes] == [
        ("Ada", Pool.TWO_PLAYER, old, second[0]), ("Bob", Pool.TWO_PLAYER, ANY, first[1])]
    assert (await store.ratings_of(ada))[Pool.TWO_PLAYER] == second[0]
    history = await store.rating_history(ada, Pool.TWO_PLAYER, 10)
    assert [(p.game_id, p.rating.mu) for p in history] == [("g-1", first[0].mu),
                                                           ("g-2", second[0].mu)]
    assert await store.recompute_ratings() == []  # done: nothing more to change


def test_an_unknown_bot_has_no_fixed_rating() -> None:
    with pytest.raises(ValueError, match="no fixed rating"):
        bot_rating("nobody", Pool.TWO_PLAYER)


def at(game_id: str, finished_at: str, winner: int, loser: int) -> RatedGame:
    """`duel`, finished at another time."""
    return RatedGame(game_id, finished_at, duel(game_id, winner, loser).seats)


async def test_a_pair_counts_only_so_many_games_a_day(store: FullStore) -> None:
    ada, bob, cy = await accounts(store, "Ada", "Bob", "Cy")
    for number in range(5):  # the limit: each counts
        assert await store.apply_rated_game(
            at(f"g-{number}", f"2026-12-01T1{number}:00:00Z", ada, bob), NOW, pair_limit=5)
    counted = await store.ratings_of(ada), await store.ratings_of(bob)
    assert counted[0][Pool.TWO_PLAYER].games == 5
    sixth = at("g-6", "2026-12-01T16:00:00Z", ada, bob)
    assert await store.apply_rated_game(sixth, NOW, pair_limit=5) is True  # recorded...
    assert (await store.ratings_of(ada), await store.ratings_of(bob)) == counted  # ...no change
    assert "g-6" in {entry.game_id for entry in await store.ledger_entries()}
    assert await store.apply_rated_game(at("g-7", "2026-12-01T16:00:00Z", ada, cy), NOW,
                                        pair_limit=5)  # another pair: counted
    assert (await store.ratings_of(ada))[Pool.TWO_PLAYER].games == 6
    assert (await store.ratings_of(cy))[Pool.TWO_PLAYER].games == 1
    # a day after the first game, the pair has room again
    assert await store.apply_rated_game(at("g-8", "2026-12-02T10:00:01Z", ada, bob), NOW,
                                        pair_limit=5)
    assert (await store.ratings_of(bob))[Pool.TWO_PLAYER].games == 6
    kept = [await store.ratings_of(account) for account in (ada, bob, cy)]
    assert await store.recompute_ratings() == []  # the uncounted game stays uncounted
    assert [await store.ratings_of(account) for account in (ada, bob, cy)] == kept


async def test_a_game_over_the_limit_in_a_three_player_game_changes_nobody(
        store: FullStore) -> None:
    ada, bob, cy = await accounts(store, "Ada", "Bob", "Cy")
    await store.apply_rated_game(duel("g-1", ada, bob), NOW, pair_limit=1)
    three = RatedGame("g-2", "2026-12-01T11:00:00Z", (
        RatedSeat(0, 0, account_id=cy), RatedSeat(1, 1, account_id=bob),
        RatedSeat(2, 2, account_id=ada)))
    await store.apply_rated_game(three, NOW, pair_limit=1)  # Ada and Bob: their 2nd game
    for account in (ada, bob, cy):  # Cy too, who played neither before
        assert (await store.ratings_of(account))[Pool.MULTIPLAYER] == INITIAL
    assert await store.recompute_ratings() == []
    await store.apply_rated_game(duel("g-3", ada, bob), NOW)  # no limit given: counted
    assert (await store.ratings_of(ada))[Pool.TWO_PLAYER].games == 2


async def test_a_games_ratings_are_its_seats_before_and_after(store: FullStore) -> None:
    ada, bob, cy = await accounts(store, "Ada", "Bob", "Cy")
    await store.apply_rated_game(duel("g-1", ada, bob), NOW)
    await store.apply_rated_game(duel("g-2", ada, "big_money"), NOW)
    await store.apply_rated_game(duel("g-3", ada, cy), NOW, pair_limit=1)
    found = await store.game_ratings(["g-1", "g-2", "g-3", "g-unknown"])
    assert sorted(found) == ["g-1", "g-2", "g-3"]
    won, lost = update([INITIAL, INITIAL], [0, 1])
    first = found["g-1"]
    assert first.counted and [seat.seated.seat for seat in first.seats] == [0, 1]
    assert first.of_account(ada) == ledger.LedgerSeat(RatedSeat(0, 0, account_id=ada),
                                                      INITIAL, ANY)
    assert first.of_account(ada).after.mu == won.mu  # type: ignore[union-attr]
    assert first.of_account(bob).after.mu == lost.mu  # type: ignore[union-attr]
    assert found["g-2"].seats[1].seated.bot == "big_money"
    assert found["g-3"].counted  # Ada and Cy's first game
    assert await store.game_ratings([]) == {}



async def test_a_game_given_up_too_early_is_kept_and_changes_nothing(store: FullStore) -> None:
    ada, bob = await accounts(store, "Ada", "Bob")
    await store.apply_rated_game(duel("g-1", ada, "big_money"), NOW)
    rated = await store.ratings_of(ada)
    early = RatedGame("g-2", "2026-12-01T10:05:00Z", duel("g-2", ada, bob).seats, aborted=True)
    assert await store.apply_rated_game(early, NOW, pair_limit=5) is True
    assert await store.apply_rated_game(early, NOW) is False  # once, as any game
    assert (await store.ratings_of(ada)) == rated and (await store.ratings_of(bob)).get(
        Pool.TWO_PLAYER, INITIAL).games == 0
    kept = (await store.game_ratings(["g-2"]))["g-2"]
    assert kept.aborted and not kept.counted
    assert all(seat.before == seat.after for seat in kept.seats)
    # not a point of anyone's history, nor a game against the bots
    assert [point.game_id for point in await store.rating_history(ada, Pool.TWO_PLAYER, 10)
            ] == ["g-1"]
    assert await store.rating_history(bob, Pool.TWO_PLAYER, 10) == []
    assert [(pair.games, pair.counted, pair.early) for pair in
            await store.suspicious_pairs("2026-12-01T00:00:00Z", 10, 0)] == [(1, 0, 1)]
    # a recompute leaves it as it is
    assert await store.recompute_ratings() == []
