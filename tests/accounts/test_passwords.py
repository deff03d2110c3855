"""Passwords: the common and the short refused, Argon2id hashes checked off the loop, at
most a few at once, and rehashed when the parameters change."""

from __future__ import annotations

import asyncio
import threading

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts.hash_queue import Asker
from dominion.server.accounts.passwords import WAITING_PER_HASHER, Hasher, check_new_password
from dominion.server.refusal import Refusal
from tests.eventually import eventually

CHEAP = {"time_cost": 1, "memory_kib": 64}


def stranger(number: int) -> Asker:
    return Asker(f"10.0.0.{number}/32", known=False)


@pytest.mark.parametrize("password", ["short", "password", "Password1", "12345678",
                                      "qwertyuiop", "x" * 257, None, 12345678,
                                      "my name is alice",
                                      " " * 8, "\t" * 12,  # nothing but spaces
                                      "correct\x00horse battery"])  # a NUL a form cannot type
def test_weak_passwords_are_refused(password: object) -> None:
    with pytest.raises(Refusal) as refused:
        check_new_password(password, "Alice")
    assert refused.value.code is ErrorCode.WEAK_PASSWORD


def test_a_good_password_passes() -> None:
    assert check_new_password("correct horse battery", "Alice") == "correct horse battery"


async def test_hashes_are_argon2id_and_verified() -> None:
    hasher = Hasher(1, **CHEAP)
    try:
        stored = await hasher.hash("correct horse battery")
        assert stored.startswith("$argon2id$") and "correct" not in stored
        assert await hasher.verify(stored, "correct horse battery") == (True, None)
        assert await hasher.verify(stored, "wrong horse battery") == (False, None)
        assert await hasher.verify(None, "anything at all") == (False, None)
        assert await hasher.verify("not a hash", "anything at all") == (False, None)
    finally:
        hasher.close()


async def test_a_hash_made_with_old_parameters_is_replaced_at_sign_in() -> None:
    old, new = Hasher(1, **CHEAP), Hasher(1, time_cost=2, memory_kib=128)
    try:
        stored = await old.hash("correct horse battery")
        matches, rehashed = await new.verify(stored, "correct horse battery")
        assert matches and rehashed is not None and "m=128,t=2" in rehashed
        assert await new.verify(rehashed, "correct horse battery") == (True, None)
    finally:
        old.close()
        new.close()


async def test_at_most_at_once_hashes_run_together_and_the_queue_is_bounded() -> None:
    hasher = Hasher(2, **CHEAP)
    running, most = 0, 0
    release = threading.Event()
    lock = threading.Lock()
    real = hasher._matches

    def slow(stored: str, password: str) -> bool:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(10)
        with lock:
            running -= 1
        return real(stored, password)

    await hasher.verify(None, "warm up")  # the dummy hash is made at the first need
    hasher._matches = slow  # type: ignore[method-assign]
    try:
        # strangers from as many prefixes as the queue takes (half of it is theirs)
        waiting = [asyncio.ensure_future(hasher.verify(None, "guess", stranger(number)))
                   for number in range(2 + WAITING_PER_HASHER)]
        await asyncio.sleep(0)
        with pytest.raises(Refusal) as busy:
            await hasher.verify(None, "one too many", stranger(99))
        assert busy.value.code is ErrorCode.RATE_LIMITED and busy.value.retry_after_ms
        await eventually(lambda: running == 2)  # both threads hash (a busy runner is slow)
        await asyncio.sleep(0.05)  # and a third would have started by now, were it allowed
        release.set()
        await asyncio.gather(*waiting)
        assert most == 2
    finally:
        hasher.close()
