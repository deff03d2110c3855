"""Failed sign-ins cost more and more, and a refusal is answered only after a pause."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts import Accounts, Hasher
from dominion.server.accounts import service as service_module
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.throttle import Backoff, Policy
from dominion.server.errors import GameError

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
            with pytest.raises(GameError) as wrong:
                await accounts.sign_in("Ada", "a wrong guess", "10.0.0.1", None)
            assert wrong.value.code is ErrorCode.WRONG_CREDENTIALS
        assert paused == []  # a wrong password is not made to wait
        with pytest.raises(GameError) as refused:
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
            await throttle.failed("ada")
        assert 0 < await throttle.wait("ada") <= POLICY.first_wait
        await throttle.forget("ada")
        assert await throttle.wait("ada") == 0.0
    finally:
        await redis.aclose()
