"""Passwords: what may be chosen, and Argon2id hashing off the event loop, a bounded
number at a time.

A hash costs tens of milliseconds of one core and tens of MiB of memory by design, so
hashing runs in threads (argon2-cffi releases the GIL) of a lower priority than the event
loop's, at most `at_once` at a time server-wide, their turns handed out by a fair queue
(hash_queue.py: known devices first, strangers' prefixes in turn); a request that would
wait behind too many others is refused with `rate_limited` rather than queued without
end. A password is never logged: it appears in no message, log line or exception here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn.frequency_lists import FREQUENCY_LISTS

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .hash_queue import KNOWN_AT_ONCE, SERVER, Asker, HashQueue

MIN_LENGTH = 8
MAX_LENGTH = 256
"""Long enough for any passphrase; a longer one is only work for the hasher."""
COMMON = frozenset(FREQUENCY_LISTS["passwords"])
"""The 30,000 most common passwords (zxcvbn's list, lower case)."""
WAITING_PER_HASHER = 16
"""Requests that may wait for each hashing thread before more are refused."""
HASHING_NICENESS = 10
"""How much lower than the event loop's the hashing threads' priority is (nice +10)."""
T = TypeVar("T")


def check_new_password(password: object, name: str) -> str:
    """A password that may be chosen for the account `name`; `weak_password` otherwise."""
    if not isinstance(password, str) or not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise Refusal(ErrorCode.WEAK_PASSWORD,
                        f"a password is {MIN_LENGTH} to {MAX_LENGTH} characters")
    if not password.strip() or any(unicodedata.category(c) == "Cc" for c in password):
        # eight spaces, or a NUL a form cannot type and a library may cut the password at
        raise Refusal(ErrorCode.WEAK_PASSWORD, "a password holds more than spaces, and no "
                                                 "control characters")
    folded = password.casefold()
    if folded in COMMON or name.casefold() in folded:
        raise Refusal(ErrorCode.WEAK_PASSWORD,
                        "this password is among the most common ones, or holds the name: "
                        "choose another")
    return password


def _yield_to_the_event_loop() -> None:
    """Run this hashing thread at a lower priority (Linux: nice is per thread), so that a
    flood of sign-ins takes only the CPU the games leave over."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux: the same priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


class Hasher:
    """Argon2id with the server's parameters, `at_once` hashes at a time."""

    def __init__(self, at_once: int, time_cost: int, memory_kib: int) -> None:
        # one lane: a hash keeps one core busy, not four
        self._argon2 = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib,
                                      parallelism=1)
        self._threads = ThreadPoolExecutor(at_once, thread_name_prefix="argon2",
                                           initializer=_yield_to_the_event_loop)
        # the known devices' lane: its own thread, at the event loop's priority (a few
        # hashes, each the owner's), so that a flood of strangers' never slows them
        self._known_threads = ThreadPoolExecutor(KNOWN_AT_ONCE,
                                                 thread_name_prefix="argon2-known")
        self._queue = HashQueue(at_once, at_once * WAITING_PER_HASHER)
        self._making_dummy = asyncio.Lock()
        self._dummy: str | None = None
        """Verified against when a name has no account, so that a sign-in for an unknown
        name costs as long as one for a known name (made at the first need, off the loop)."""

    async def hash(self, password: str, asker: Asker = SERVER) -> str:
        return await self._run(asker, self._argon2.hash, password)

    async def verify(self, stored: str | None, password: str, asker: Asker = SERVER
                     ) -> tuple[bool, str | None]:
        """Does `password` match the `stored` hash (None: no account, never matches)? And
        the new hash to store when the parameters have changed since."""
        if stored is None:
            await self._run(asker, self._matches, await self._dummy_hash(), password)
            return False, None
        if not await self._run(asker, self._matches, stored, password):
            return False, None
        if self._argon2.check_needs_rehash(stored):
            return True, await self.hash(password, asker)
        return True, None

    async def _dummy_hash(self) -> str:
        async with self._making_dummy:  # once, however many ask at first
            if self._dummy is None:
                self._dummy = await self.hash("a password no account has")
        return self._dummy

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._known_threads.shutdown(wait=False, cancel_futures=True)

    def _matches(self, stored: str, password: str) -> bool:
        try:
            return self._argon2.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _run(self, asker: Asker, work: Callable[..., T], *args: str) -> T:
        threads = self._known_threads if asker.known else self._threads
        async with self._queue.turn(asker):  # a turn a thread of its lane
            return await asyncio.get_running_loop().run_in_executor(threads, work, *args)
