"""The hashing threads' turns: known devices in a lane of their own, strangers' prefixes
in turn with one hash running each, and a full queue refuses strangers first."""

from __future__ import annotations

import asyncio

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts.hash_queue import PER_PREFIX, Asker, HashQueue
from dominion.server.refusal import Refusal
from tests.eventually import eventually


def stranger(prefix: str) -> Asker:
    return Asker(prefix, known=False)


KNOWN = Asker("10.0.0.9/32", known=True)


class Turns:
    """Askers taking turns at a queue, each holding its turn until released."""

    def __init__(self, queue: HashQueue) -> None:
        self.queue = queue
        self.order: list[str] = []
        self._release: dict[str, asyncio.Event] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def ask(self, name: str, asker: Asker) -> asyncio.Task[None]:
        release = self._release[name] = asyncio.Event()

        async def take() -> None:
            async with self.queue.turn(asker):
                self.order.append(name)
                await release.wait()
        task = asyncio.ensure_future(take())
        self._tasks.append(task)
        return task

    def release(self, name: str) -> None:
        self._release[name].set()

    async def close(self) -> None:
        for release in self._release.values():
            release.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def test_a_known_device_never_waits_behind_strangers() -> None:
    turns = Turns(HashQueue(1, 16))
    try:
        turns.ask("first", stranger("a"))
        await eventually(lambda: turns.order == ["first"])
        for prefix in "bcd":
            turns.ask(prefix, stranger(prefix))
        turns.ask("known", KNOWN)
        await asyncio.sleep(0)
        turns.release("first")
        await eventually(lambda: len(turns.order) == 2)
        assert turns.order == ["first", "known"]
    finally:
        await turns.close()


async def test_strangers_prefixes_take_turns_one_hash_running_each() -> None:
    turns = Turns(HashQueue(2, 16))
    try:
        turns.ask("a1", stranger("a"))
        turns.ask("a2", stranger("a"))  # waits: a has one running
        turns.ask("b1", stranger("b"))
        await eventually(lambda: sorted(turns.order) == ["a1", "b1"])
        refused = turns.ask("a3", stranger("a"))  # a holds PER_PREFIX already
        with pytest.raises(Refusal) as busy:
            await refused
        assert PER_PREFIX == 2 and busy.value.code is ErrorCode.RATE_LIMITED
        turns.ask("c1", stranger("c"))
        turns.release("b1")  # a thread is free, but a still has one running: c goes
        await eventually(lambda: len(turns.order) == 3)
        assert turns.order[2] == "c1"
        turns.release("a1")
        await eventually(lambda: len(turns.order) == 4)
        assert turns.order[3] == "a2"
    finally:
        await turns.close()


async def test_a_full_queue_refuses_strangers_first() -> None:
    turns = Turns(HashQueue(1, 4))  # strangers may fill half of it: 2 waiting
    try:
        turns.ask("running", stranger("z"))
        turns.ask("busy", KNOWN)
        await eventually(lambda: sorted(turns.order) == ["busy", "running"])
        turns.ask("a", stranger("a"))
        turns.ask("b", stranger("b"))
        await asyncio.sleep(0)
        with pytest.raises(Refusal):
            await turns.ask("c", stranger("c"))
        turns.ask("known", KNOWN)  # still room for a known device
        await asyncio.sleep(0)
        assert turns.queue.waiting == 3
        turns.release("busy")  # the known lane's thread: the known device's, not a's
        await eventually(lambda: len(turns.order) == 3)
        assert turns.order[2] == "known"
    finally:
        await turns.close()


async def test_a_waiter_that_leaves_gives_its_place_back() -> None:
    turns = Turns(HashQueue(1, 16))
    try:
        turns.ask("running", stranger("a"))
        await eventually(lambda: turns.order == ["running"])
        leaving = turns.ask("leaving", stranger("b"))
        await asyncio.sleep(0)
        leaving.cancel()
        await asyncio.gather(leaving, return_exceptions=True)
        assert turns.queue.waiting == 0
        turns.ask("b again", stranger("b"))
        turns.ask("b twice", stranger("b"))  # the one that left holds nothing of b's
        turns.release("running")
        await eventually(lambda: turns.order == ["running", "b again"])
    finally:
        await turns.close()
