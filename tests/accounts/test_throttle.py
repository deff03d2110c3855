"""Failed sign-ins cost more and more, and a refusal is answered only after a pause."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts import Accounts, Hasher
from dominion.server.accounts import service as service_module
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.throttle import (
    Backoff,
    Policy,
    RedisThrottle,
    Throttle,
    local_throttle,
)
from dominion.server.refusal import Refusal
from tests.cluster.cluster import Redis as RedisServer
from tests.cluster.cluster import needs_redis, redis

__all__ = ["redis"]  # a fixture

POLICY = Policy(free=2, first_wait=1.0, longest_wait=8.0)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_failure_beyond_the_free_ones_doubles_the_wait_up_to_the_longest() -> None:
    clock = Clock()
    backoff = Backoff(POLICY, clock)
    waits = []
    for _ in range(7):
        backoff.failed("ada")
        waits.append(backoff.wait("ada"))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 8.0]
    clock.now += 3.0
    assert backoff.wait("ada") == 5.0  # the wait runs from the latest failure
    assert backoff.wait("bob") == 0.0


def test_a_success_forgets_and_a_long_quiet_starts_afresh() -> None:
    clock = Clock()
    backoff = Backoff(POLICY, clock)
    for _ in range(4):
        backoff.failed("ada")
    backoff.forget("ada")
    assert backoff.wait("ada") == 0.0 and len(backoff) == 0
    for _ in range(4):
        backoff.failed("bob")
    clock.now += 2 * POLICY.longest_wait + 1
    backoff.failed("bob")
    assert backoff.wait("bob") == 0.0  # one failure again, within the free ones


async def test_a_throttled_sign_in_is_refused_after_a_pause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paused: list[float] = []

    async def sleep(seconds: float) -> None:
        paused.append(seconds)

    monkeypatch.setattr(service_module.asyncio, "sleep", sleep)
    accounts = Accounts(SqliteAccountStore(tmp_path / "a.sqlite3"),
                        Hasher(1, time_cost=1, memory_kib=64), session_days=1)
    await accounts.store.start()
    try:
        for _ in range(service_module.PER_ACCOUNT.free + 1):
            with pytest.raises(Refusal) as wrong:
                await accounts.sign_in("Ada", "a wrong guess", "10.0.0.1", None)
            assert wrong.value.code is ErrorCode.WRONG_CREDENTIALS
        assert paused == []  # a wrong password is not made to wait
        with pytest.raises(Refusal) as refused:
            await accounts.sign_in("Ada", "a wrong guess", "10.0.0.1", None)
        assert refused.value.code is ErrorCode.RATE_LIMITED
        assert len(paused) == 1 and 0 < paused[0] <= service_module.REFUSAL_PAUSE_SECONDS
    finally:
        await accounts.close()


@pytest.mark.integration  # a real server or socket
async def test_a_throttle_in_an_unreachable_redis_counts_on_this_node_meanwhile() -> None:
    """Redis down: every guess still counts (on this node), none is free."""
    from redis.asyncio import Redis

    from dominion.server.accounts.throttle import RedisThrottle
    from tests.accounts.postgres import free_port

    redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    throttle = RedisThrottle(POLICY, redis, "account")
    try:
        for _ in range(POLICY.free + 1):
            assert await throttle.take("ada") == 0.0
        assert 0 < await throttle.wait("ada") <= POLICY.first_wait
        assert await throttle.take("ada") > 0  # refused, and not counted
        await throttle.forget("ada")
        assert await throttle.wait("ada") == 0.0
    finally:
        await redis.aclose()


def test_a_take_checks_and_counts_in_one_step_and_a_refund_gives_it_back() -> None:
    clock = Clock()
    backoff = Backoff(POLICY, clock)
    assert [backoff.take("ada") for _ in range(5)] == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert len(backoff) == 1 and backoff.wait("ada") == 1.0  # the refusals counted nothing
    backoff.refund("ada")  # the third attempt did not fail after all
    assert backoff.wait("ada") == 0.0


@pytest.fixture
def unpaused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal answers at once: its pause (`refused_slowly`) is not what is measured."""
    async def no_pause(seconds: float) -> None:
        pass

    monkeypatch.setattr(service_module.asyncio, "sleep", no_pause)


@pytest.fixture
def waits_outlast_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each policy's first wait outlasts the test: "sent together" then holds however
    slowly a busy machine handles the guesses (with the real 1 s, a 7th guess handled
    over a second after the 6th failed was rightly let through, and counted)."""
    for name in ("PER_ACCOUNT", "PER_ADDRESS", "REGISTRATIONS"):
        policy = getattr(service_module, name)
        monkeypatch.setattr(service_module, name,
                            replace(policy, first_wait=3600.0, longest_wait=3600.0))


async def accounts_sharing(throttle: Callable[[Policy, str], Throttle], path: Path
                           ) -> Accounts:
    accounts = Accounts(SqliteAccountStore(path), Hasher(2, time_cost=1, memory_kib=64),
                        session_days=1, throttle=throttle)
    await accounts.store.start()
    return accounts


async def guesses_at_once(nodes: list[Accounts], count: int) -> list[ErrorCode]:
    """`count` wrong passwords for Ada sent together, spread over `nodes`; each refusal."""
    async def guess(accounts: Accounts) -> ErrorCode:
        with pytest.raises(Refusal) as refused:
            await accounts.sign_in("Ada", "a wrong guess", "10.0.0.1", None)
        return refused.value.code

    return await asyncio.gather(*(guess(nodes[i % len(nodes)]) for i in range(count)))


async def test_guesses_sent_together_are_hashed_no_more_than_one_after_another(
        tmp_path: Path, unpaused: None, waits_outlast_the_run: None) -> None:
    # the wait was checked before the hash and the failure counted after it: 40 guesses
    # sent together were 32 hashed, where the policy allows its free ones and one more
    accounts = await accounts_sharing(local_throttle, tmp_path / "a.sqlite3")
    try:
        await accounts.register("Ada", "correct horse battery", "10.0.0.9")
        codes = await guesses_at_once([accounts], 40)
        # (fewer when the hashing queue refuses more than its share from one prefix)
        assert 1 <= codes.count(ErrorCode.WRONG_CREDENTIALS) <= service_module.PER_ACCOUNT.free + 1
        assert set(codes) == {ErrorCode.WRONG_CREDENTIALS, ErrorCode.RATE_LIMITED}
    finally:
        await accounts.close()


@needs_redis
async def test_guesses_sent_together_to_two_nodes_share_one_count(
        tmp_path: Path, unpaused: None, waits_outlast_the_run: None, redis: RedisServer) -> None:
    from redis.asyncio import Redis as RedisClient

    clients = [RedisClient.from_url(redis.url) for _ in range(2)]
    nodes: list[Accounts] = []
    try:
        for number, client in enumerate(clients):
            nodes.append(await accounts_sharing(
                lambda policy, name, client=client: RedisThrottle(policy, client, name),
                tmp_path / f"node-{number}.sqlite3"))  # own stores: only the counts shared
        await nodes[0].register("Ada", "correct horse battery", "10.0.0.9")
        await nodes[1].register("Ada", "correct horse battery", "10.0.0.9")
        codes = await guesses_at_once(nodes, 40)
        assert 1 <= codes.count(ErrorCode.WRONG_CREDENTIALS) <= service_module.PER_ACCOUNT.free + 1
        assert await nodes[1].failures_by_account.wait("ada 10.0.0.1") > 0  # either node must wait
    finally:
        for node in nodes:
            await node.close()
        for client in clients:
            await client.aclose()


async def test_registrations_sent_together_from_one_address_stay_within_the_policy(
        tmp_path: Path, unpaused: None, waits_outlast_the_run: None) -> None:
    # 32 accounts were registered at once from one address, where the policy allows 5
    # and one more before its first wait
    accounts = await accounts_sharing(local_throttle, tmp_path / "a.sqlite3")

    async def register(number: int) -> ErrorCode | None:
        try:
            await accounts.register(f"Puppet{number}", "correct horse battery", "10.0.0.7")
        except Refusal as refused:
            return refused.code
        return None

    try:
        codes = await asyncio.gather(*(register(number) for number in range(32)))
        # (fewer when the hashing queue refuses more than its share from one prefix)
        assert 1 <= codes.count(None) <= service_module.REGISTRATIONS.free + 1
        assert set(codes) == {None, ErrorCode.RATE_LIMITED}
    finally:
        await accounts.close()
