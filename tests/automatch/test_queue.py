"""The queue's rules on both stores (in memory, and a real Redis): seeking and taking a
seek up again, tables claimed atomically, confirming, dissolving to the front of the
queue, penalties, the lobby's counts."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from dominion.protocol import MatchEnd
from dominion.server.automatch.penalty import FIRST_PENALTY_SECONDS, Apart
from dominion.server.automatch.queue import (
    STARTING_SECONDS,
    Queue,
    TableState,
    Ticket,
    TicketState,
)
from dominion.server.automatch.redis_store import RedisStore
from dominion.server.automatch.store import MemoryStore, Store
from dominion.server.refusal import Refusal
from tests.cluster.cluster import Redis
from tests.eventually import eventually

from .redis_server import needs_redis, redis_server

__all__ = ["redis_server"]
CONFIRM, GRACE = 10.0, 15.0
APART = 900.0
LONG_GRACE = 10_000.0
"""Seeks that outlive the test without refreshes."""
T0 = 1_000_000.0
_prefixes = itertools.count()


@pytest.fixture(params=["memory",
                        pytest.param("redis", marks=[needs_redis, pytest.mark.integration])])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    if request.param == "memory":
        yield MemoryStore()
        return
    server: Redis = request.getfixturevalue("redis_server")
    redis = RedisStore(server.url)
    await redis._redis.flushdb()  # each test its own queue
    try:
        yield redis
    finally:
        await redis.close()


def wanting(player: str, sizes: tuple[int, ...] = (2,), mu: float = 1500.0,
            node: str = "a") -> Ticket:
    return Ticket(player, player.title(), None, False, sizes, 2, False,
                  {"2p": (mu, 40.0), "3-6p": (mu, 40.0)}, 0.0, 0.0, 0.0, node, player)


async def test_two_seeks_make_a_table_and_both_accepting_makes_it_ready(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann"), T0)
    await queue.seek(wanting("bob"), T0 + 1)
    [table] = await queue.wave(T0 + 2)
    assert table.players == ("ann", "bob") and table.names == ("Ann", "Bob")
    assert table.deadline == T0 + 2 + CONFIRM
    tickets = await queue.tickets(["ann", "bob"], T0 + 2)
    assert {ticket.state for ticket in tickets.values() if ticket} == {TicketState.OFFERED}
    assert await queue.wave(T0 + 3) == [], "nobody is claimed twice"
    assert await queue.answer("ann", table.id, True, T0 + 3) is None
    assert await queue.answer("ann", table.id, True, T0 + 3) is None, "twice: the same"
    done = await queue.answer("bob", table.id, True, T0 + 4)
    assert done is not None and done.state is TableState.STARTING
    await queue.seat(done, "g-1", {"ann": (0, "t0"), "bob": (1, "t1")}, T0 + 4)
    ready = await queue.tickets(["ann", "bob"], T0 + 4)
    assert [(t.state, t.game, t.seat, t.token) for t in ready.values() if t] == [
        (TicketState.READY, "g-1", 0, "t0"), (TicketState.READY, "g-1", 1, "t1")]
    await queue.delivered("ann")
    assert (await queue.tickets(["ann"], T0 + 5))["ann"] is None
    assert await store.members("tables") == set()


async def test_a_decline_ends_that_seek_and_puts_the_others_at_the_front(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann"), T0)
    await queue.seek(wanting("bob"), T0 + 1)
    [table] = await queue.wave(T0 + 2)
    await queue.seek(wanting("cy"), T0 + 3)
    await queue.answer("bob", table.id, False, T0 + 4)
    tickets = await queue.tickets(["ann", "bob"], T0 + 4)
    ann, bob = tickets["ann"], tickets["bob"]
    assert ann is not None and ann.state is TicketState.WAITING and ann.since == T0
    assert ann.reason is MatchEnd.DECLINED
    assert bob is not None and bob.state is TicketState.ENDED and bob.reason is MatchEnd.DECLINED
    with pytest.raises(Refusal) as refused:
        await queue.answer("ann", table.id, True, T0 + 5)
    assert refused.value.code == "unknown_table"
    [again] = await queue.wave(T0 + 5)
    assert again.players == ("ann", "cy"), "ann kept her wait: the front of the queue"
    # bob seeks again: he waits FIRST_PENALTY_SECONDS before he is matched
    await queue.delivered("bob")
    await queue.seek(wanting("bob"), T0 + 6)
    await queue.seek(wanting("dee"), T0 + 6)
    assert await queue.wave(T0 + 7) == []
    [late] = await queue.wave(T0 + 6 + FIRST_PENALTY_SECONDS)
    assert set(late.players) == {"bob", "dee"}


async def lapse(queue: Queue, player: str, real: str, now: float) -> float:
    """`player` and `real` matched at `now`; `real` accepts, `player` lets it lapse. When
    it is over; `real` waits on, at the front."""
    await queue.seek(wanting(player), now)
    await queue.seek(wanting(real), now)
    [table] = await queue.wave(now + 60)  # past any penalty `player` earned
    assert set(table.players) == {player, real}
    await queue.answer(real, table.id, True, now + 61)
    await queue.expire(now + 62 + CONFIRM)
    tickets = await queue.tickets([player, real], now + 62 + CONFIRM)
    assert tickets[player] is not None and tickets[player].state is TicketState.ENDED
    assert tickets[real] is not None and tickets[real].since == now, "real keeps its wait"
    await queue.delivered(player)
    await queue.cancel(real, now + 62 + CONFIRM)
    return now + 63 + CONFIRM


async def test_strikes_close_together_set_a_seeker_apart_from_real_players(
        store: Store) -> None:
    """Two lapses within the window (the default: 2 in 10 minutes): the seeker is matched
    only with others who also failed tables, until the first of them leaves the window;
    a guest's strikes are their address prefix's, whatever name they seek under."""
    queue = Queue(store, CONFIRM, LONG_GRACE, Apart(2, APART))
    now = await lapse(queue, "ghost", "ann", T0)
    now = await lapse(queue, "ghost", "bob", now)
    now = await lapse(queue, "shade", "cy", now)
    now = await lapse(queue, "shade", "dee", now)
    await queue.seek(wanting("ghost"), now)
    await queue.seek(wanting("eve"), now)
    assert await queue.wave(now + 60) == [], "eve is not matched with ghost"
    await queue.seek(wanting("shade"), now + 61)
    [apart] = await queue.wave(now + 120)
    assert set(apart.players) == {"ghost", "shade"}
    # a new guest under another name from the same prefix: the same strikes
    renamed = replace(wanting("wraith"), strikes="ghost")
    await queue.seek(renamed, now + 121)
    assert await queue.wave(now + 180) == [], "eve is not matched with the renamed ghost"
    # past the window, the wraith is matched like anyone else
    await queue.cancel("wraith", now + 181)
    await queue.seek(renamed, T0 + APART + 4 * (CONFIRM + 63))
    [table] = await queue.wave(T0 + APART + 4 * (CONFIRM + 63) + 60)
    assert set(table.players) == {"eve", "wraith"}


async def test_a_table_past_its_deadline_ends_the_seeks_of_who_did_not_answer(
        store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    for offset, player in enumerate(("ann", "bob", "cy")):
        await queue.seek(wanting(player, sizes=(3,)), T0 + offset)
    [table] = await queue.wave(T0 + 3)
    await queue.answer("ann", table.id, True, T0 + 4)
    await queue.expire(T0 + 3 + CONFIRM / 2)
    assert await store.members("tables") == {table.id}, "not yet"
    await queue.expire(T0 + 4 + CONFIRM)
    tickets = await queue.tickets(["ann", "bob", "cy"], T0 + 4 + CONFIRM)
    assert [(t.state, t.reason) for t in tickets.values() if t] == [
        (TicketState.WAITING, MatchEnd.LAPSED), (TicketState.ENDED, MatchEnd.LAPSED),
        (TicketState.ENDED, MatchEnd.LAPSED)]
    assert await store.members("tables") == set()


async def test_a_table_whose_game_was_never_made_goes_back_to_the_queue(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann"), T0)
    await queue.seek(wanting("bob"), T0)
    [table] = await queue.wave(T0)
    await queue.answer("ann", table.id, True, T0 + 1)
    done = await queue.answer("bob", table.id, True, T0 + 1)
    assert done is not None
    # the node making the game died: past the deadline and the starting time, back
    await queue.expire(T0 + CONFIRM + STARTING_SECONDS / 2)
    assert await store.members("tables") == {table.id}
    for player in ("ann", "bob"):  # their own nodes are alive
        await queue.refresh(player, "a", T0 + CONFIRM + STARTING_SECONDS / 2)
    await queue.expire(T0 + CONFIRM + STARTING_SECONDS + 1)
    tickets = await queue.tickets(["ann", "bob"], T0 + CONFIRM + STARTING_SECONDS + 1)
    assert {t.state for t in tickets.values() if t} == {TicketState.WAITING}
    # the node was only slow: its game is made now, and must not be handed out
    assert await queue.seat(done, "g-1", {"ann": (0, "t0"), "bob": (1, "t1")},
                            T0 + CONFIRM + STARTING_SECONDS + 2) is False
    tickets = await queue.tickets(["ann", "bob"], T0 + CONFIRM + STARTING_SECONDS + 2)
    assert [(t.state, t.game) for t in tickets.values() if t] == [(TicketState.WAITING, None)] * 2


async def test_seating_asked_again_answers_what_the_first_try_did(store: Store) -> None:
    """A node whose first `seat` failed on its way back asks again: handed out is
    handed out, and nothing is written twice."""
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann"), T0)
    await queue.seek(wanting("bob"), T0)
    [table] = await queue.wave(T0 + 1)
    await queue.answer("ann", table.id, True, T0 + 1)
    done = await queue.answer("bob", table.id, True, T0 + 1)
    assert done is not None
    seats = {"ann": (0, "t0"), "bob": (1, "t1")}
    assert await queue.seat(done, "g-1", seats, T0 + 2) is True
    assert await queue.seat(done, "g-1", seats, T0 + 2) is True
    await queue.delivered("ann")
    assert await queue.seat(done, "g-1", seats, T0 + 3) is True, "bob's ticket holds g-1"
    await queue.delivered("bob")
    assert await queue.seat(done, "g-1", seats, T0 + 3) is True, "both told: handed out"


async def test_a_seek_taken_up_within_the_grace_time_keeps_its_place(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann", node="a"), T0)
    again = await queue.seek(wanting("ann", sizes=(2, 3), node="b"), T0 + GRACE - 1)
    assert again.since == T0 and again.node == "b" and again.sizes == (2, 3)
    # past the grace time without a refresh, it is gone, and a new seek starts afresh
    await queue.refresh("ann", "a", T0 + GRACE)  # node a no longer holds it: nothing
    assert (await queue.tickets(["ann"], 2 * GRACE + T0))["ann"] is None
    fresh = await queue.seek(wanting("ann"), T0 + 3 * GRACE)
    assert fresh.since == T0 + 3 * GRACE
    await queue.refresh("ann", "a", T0 + 3.5 * GRACE)
    assert (await queue.tickets(["ann"], T0 + 4.2 * GRACE))["ann"] is not None


async def test_cancelling_leaves_the_queue_and_cancelling_twice_is_refused(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann"), T0)
    await queue.cancel("ann", T0 + 1)
    assert (await queue.tickets(["ann"], T0 + 1))["ann"] is None
    with pytest.raises(Refusal) as refused:
        await queue.cancel("ann", T0 + 1)
    assert refused.value.code == "not_seeking"


async def test_the_counts_are_per_size_with_the_median_wait(store: Store) -> None:
    queue = Queue(store, CONFIRM, GRACE)
    await queue.seek(wanting("ann", sizes=(3, 4)), T0)
    await queue.seek(wanting("bob", sizes=(4,)), T0 + 4)
    await queue.seek(wanting("cy", sizes=(2,)), T0 + 8)
    counts = await queue.counts(T0 + 12)
    assert counts.waiting == {2: 1, 3: 1, 4: 2} and counts.median_wait == 8


async def test_waves_formed_at_once_never_seat_anyone_twice(store: Store) -> None:
    """Several nodes forming waves at the same moment (a lease just changing hands):
    the claims are atomic, so each player is at one table at most."""
    queues = [Queue(store, CONFIRM, GRACE) for _ in range(4)]
    for index in range(40):
        await queues[0].seek(wanting(f"p{index:02}", sizes=(2, 3, 4)), T0 + index / 10)
    waves = await asyncio.gather(*(queue.wave(T0 + 5) for queue in queues))
    seated = [player for wave in waves for table in wave for player in table.players]
    assert len(seated) == len(set(seated)) == 40


@needs_redis
async def test_one_node_holds_the_wave_lease_until_it_stops_renewing_it(
        redis_server: Redis) -> None:
    first, second = RedisStore(redis_server.url), RedisStore(redis_server.url)
    try:
        await first._redis.flushdb()
        assert await first.lead("a", 2.0)
        assert not await second.lead("b", 2.0), "a holds it"
        assert await first.lead("a", 2.0), "its holder renews it"
        # a stops renewing (it died): once the lease expires, b takes it
        await eventually(lambda: second.lead("b", 30.0), seconds=10)
        assert not await first.lead("a", 2.0)
    finally:
        await first.close()
        await second.close()
