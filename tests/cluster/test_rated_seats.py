"""One live rated seat per account across nodes: two nodes' lobbies in this process, each
with its own games file and directory, sharing a real redis-server. A rated seat on one
node refuses a second on the other (created, joined, or made by automatch) with
`already_seated`, and a rated automatch seek too; once the first game ends, its seat is
freed, or the node holding it crashes, it is allowed."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dominion.protocol import RematchKingdom
from dominion.server.accounts import Account
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.cluster.redis_directory import RedisDirectory
from dominion.server.metrics import Metrics
from dominion.server.play.archive import Archive
from dominion.server.play.lobby import Lobby, SeatHolder
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.automatch.redis_server import redis_server
from tests.eventually import eventually

from .cluster import Redis, needs_redis

__all__ = ["redis_server"]
pytestmark = [needs_redis, pytest.mark.integration]
ADDRESS = "192.0.2.1"
CRASHING = 0.2
"""A heartbeat period whose node's claims expire soon after it stops (three of them)."""
LASTING = 60.0
"""One whose node's claims outlive the test unless they are given up."""
_ids = itertools.count(1)


@dataclass
class Node:
    lobby: Lobby
    directory: RedisDirectory
    storage: Storage
    stopped: bool = False


Start = Callable[..., Awaitable[Node]]
"""`await nodes(name, refresh=LASTING)`: a node started."""


def account(name: str) -> Account:
    """An account of its own (the accounts store is not needed: the lobby takes it)."""
    return Account(next(_ids), name, name.lower(), None, datetime.now(UTC))


@pytest.fixture
async def nodes(redis_server: Redis, tmp_path: Path) -> AsyncIterator[Start]:
    started: list[Node] = []

    async def start(name: str, refresh: float = LASTING) -> Node:
        settings = Settings(node=name, redis=redis_server.url, cluster_refresh_seconds=refresh,
                            port=8000 + len(started))
        storage = Storage.open(tmp_path / f"{name}.sqlite3", synchronous="NORMAL")
        await storage.start()
        lobby = Lobby(storage, settings, Metrics())
        await lobby.restore()  # before the directory starts, as the server does
        archive = Archive(storage, SqliteAccountStore(tmp_path / f"{name}.accounts.sqlite3"))
        directory = RedisDirectory(settings, lobby, archive, [])
        lobby.rated_claims.store = directory.rated_seats
        lobby.on_room_changed = directory.changed
        await directory.start()
        node = Node(lobby, directory, storage)
        started.append(node)
        return node

    yield start
    for node in started:
        if not node.stopped:
            await stop(node)


async def stop(node: Node) -> None:
    node.stopped = True
    await node.lobby.close()
    await node.directory.close()
    await node.storage.close()


async def refused(attempt: Awaitable[object]) -> str:
    with pytest.raises(Refusal) as refusal:
        await attempt
    return refusal.value.code


def allowed(attempt: Callable[[], Awaitable[object]]) -> Callable[[], Awaitable[bool]]:
    """For `eventually`: whether `attempt()` is allowed yet (a refusal: not yet)."""
    async def check() -> bool:
        try:
            await attempt()
        except Refusal:
            return False
        return True
    return check


async def test_a_rated_seat_on_one_node_refuses_another_until_the_game_ends(
        nodes: Start) -> None:
    a, b = await nodes("a"), await nodes("b")
    ada, bob = account("Ada"), account("Bob")
    first, _ = await a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)
    assert await refused(b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)) \
        == "already_seated"
    table, _ = await b.lobby.create({"seats": 2}, ADDRESS, bob, rated=True)
    assert await refused(b.lobby.join(table.id, None, ada)) == "already_seated"
    assert table.seat_of_account(ada.id) is None
    assert await refused(b.lobby.create_matched(
        [SeatHolder("Ada", ada.id, False), SeatHolder("Cy", None, False)], 2,
        rated=True)) == "already_seated"
    for node in (a, b):  # nor may Ada seek a rated automatch, on either node
        assert await refused(node.lobby.rated_claims.refuse_if_seated(ada.id)) \
            == "already_seated"
    await a.lobby.rated_claims.refuse_if_seated(account("Cy").id)  # seated nowhere
    unrated, _ = await b.lobby.create({"seats": 2}, ADDRESS, ada)  # unrated: no claim
    assert unrated.seat_of_account(ada.id) is not None
    # the first game ends: the claim is given up, and the seat on b is allowed
    await first.abandon("over")

    await eventually(allowed(lambda: b.lobby.join(table.id, None, ada)))
    assert await refused(a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)) \
        == "already_seated", "now b holds it"


async def test_rated_seats_taken_at_once_on_two_nodes_give_the_account_one(
        nodes: Start) -> None:
    # the claim is one step in Redis: two nodes checking it together do not both pass
    a, b = await nodes("a"), await nodes("b")
    ada, bob, cy = account("Ada"), account("Bob"), account("Cy")
    tables = [(await a.lobby.create({"seats": 2}, ADDRESS, bob, rated=True))[0],
              (await b.lobby.create({"seats": 2}, ADDRESS, cy, rated=True))[0]]
    answers = await asyncio.gather(a.lobby.join(tables[0].id, None, ada),
                                   b.lobby.join(tables[1].id, None, ada),
                                   return_exceptions=True)
    refusals = [answer.code for answer in answers if isinstance(answer, Refusal)]
    assert refusals == ["already_seated"], answers
    assert sum(table.seat_of_account(ada.id) is not None for table in tables) == 1


async def test_a_crashed_nodes_claims_expire(nodes: Start) -> None:
    a, b = await nodes("a"), await nodes("b", CRASHING)
    ada = account("Ada")
    await b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)
    assert await refused(a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)) \
        == "already_seated"
    # b stops beating without a word (its heartbeat and its claims are left to expire)
    assert b.directory._task is not None
    b.directory._task.cancel()

    await eventually(allowed(lambda: a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)))


async def test_a_freed_seat_gives_its_claim_up(nodes: Start) -> None:
    a, b = await nodes("a"), await nodes("b")
    ada, bob = account("Ada"), account("Bob")
    table, _ = await a.lobby.create({"seats": 3}, ADDRESS, bob, rated=True)
    _, _, token = await a.lobby.join(table.id, None, ada)
    assert await refused(b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)) \
        == "already_seated"
    await a.lobby.leave(table.id, token)

    await eventually(allowed(lambda: b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)))


async def test_a_restarted_node_claims_its_restored_games_seats_again(nodes: Start) -> None:
    a, b = await nodes("a"), await nodes("b")
    ada = account("Ada")
    table, _ = await a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)
    await stop(a)  # its heartbeat goes: its claims no longer count
    await b.lobby.rated_claims.refuse_if_seated(ada.id)
    a = await nodes("a")  # the table restored, its seat claimed again at the first beat
    assert await refused(b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)) \
        == "already_seated"
    await a.lobby.room(table.id).abandon("over")

    await eventually(allowed(lambda: b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)))


async def test_a_rated_rematch_is_refused_while_a_player_sits_in_a_rated_game_elsewhere(
        nodes: Start) -> None:
    a, b = await nodes("a"), await nodes("b")
    ada, bob = account("Ada"), account("Bob")
    table, _ = await a.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)
    await a.lobby.join(table.id, None, bob)
    await table.resign(1)
    assert table.state == GameState.FINISHED
    await eventually(allowed(lambda: b.lobby.create({"seats": 2}, ADDRESS, ada, rated=True)))
    await table.offer_rematch(1, RematchKingdom.SAME, ADDRESS, lambda: None)
    assert await refused(table.answer_rematch(0, True, lambda: None)) == "already_seated"
    assert [room for room in a.lobby.rooms.values() if room is not table] == []
