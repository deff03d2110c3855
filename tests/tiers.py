"""The test tiers, by what a test starts.

- `unit`: in-process only (no other program, no socket but the event loop's own); the
  whole tier runs in under a minute on two cores, and a unit test that spends more than
  `UNIT_BUDGET_S` seconds of CPU fails it.
- `integration`: real sockets and programs (a server process, PostgreSQL, one Redis,
  nginx, Node.js, mypy, a pseudo-terminal).
- `system`: browsers, clusters and soaks (whole games by the thousand, mutants).

A test's tier is the highest of what its fixtures start, each fixture saying so with
`@starts(Tier.X)` under its `@pytest.fixture` (or, for a plugin's fixture, in
`PLUGIN_FIXTURES`), and of its own `pytest.mark.integration`/`system` (a test that starts
a program by itself, without a fixture). `item.fixturenames` holds the fixtures a test
uses through others too, so a fixture built on a server fixture is as high as the server.
While a unit test runs, `guard` refuses what only higher tiers may do, so a test that
starts something without saying so fails at once, never drifting into the unit tier.
"""

from __future__ import annotations

import _posixsubprocess
import contextlib
import os
import socket
import subprocess
from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from typing import Any, TypeVar

import pytest

UNIT_BUDGET_S = 1.0
"""CPU seconds (the process's, not the wall clock's: a busy machine slows the wall clock,
not the test) one unit test's call may take."""


class Tier(IntEnum):
    """Ordered: a test is in the highest tier of what it starts."""

    UNIT = 0
    INTEGRATION = 1
    SYSTEM = 2

    @property
    def marker(self) -> str:
        return self.name.lower()


TIER_OF_FIXTURE = "_dominion_test_tier"
"""The attribute `starts` sets on a fixture's function."""
PLUGIN_FIXTURES: dict[str, Tier] = {
    "aiohttp_server": Tier.INTEGRATION,  # pytest-aiohttp: a server on a loopback socket
    "aiohttp_raw_server": Tier.INTEGRATION,
    "aiohttp_client": Tier.INTEGRATION,
}
"""Fixtures of plugins, which cannot say `@starts` themselves."""
SLOW = "slow"
"""The former name of every tier above unit, kept so `-m "not slow"` and a test marked
`slow` keep their meaning: `slow` is at least `integration`, and every test above unit is
`slow`."""

Function = TypeVar("Function", bound=Callable[..., Any])


def starts(tier: Tier) -> Callable[[Function], Function]:
    """Declares what a fixture starts: every test that uses it is at least in `tier`."""
    def declare(function: Function) -> Function:
        setattr(function, TIER_OF_FIXTURE, tier)
        return function
    return declare


def fixture_tier(name: str, definitions: Iterable[Any]) -> Tier:
    """The tier a fixture puts a test in: the highest of its definitions (a test folder
    may override a fixture and request the one it overrides)."""
    tiers = [getattr(definition.func, TIER_OF_FIXTURE, Tier.UNIT) for definition in definitions]
    return max([PLUGIN_FIXTURES.get(name, Tier.UNIT), *tiers])


def tier_of(item: pytest.Item) -> Tier:
    """The highest of the item's own tier marks (`slow`: integration) and its fixtures'."""
    marked = [tier for tier in Tier if item.get_closest_marker(tier.marker) is not None]
    if item.get_closest_marker(SLOW) is not None:
        marked.append(Tier.INTEGRATION)
    info = getattr(item, "_fixtureinfo", None)  # doctests and other items have none
    definitions = info.name2fixturedefs if info is not None else {}
    started = [fixture_tier(name, definitions.get(name, ())) for name in
               getattr(item, "fixturenames", ())]
    return max([Tier.UNIT, *marked, *started])


def mark(item: pytest.Item) -> Tier:
    """Marks the item with its tier (and `slow` above unit)."""
    tier = tier_of(item)
    if tier > Tier.UNIT and item.get_closest_marker(Tier.UNIT.marker) is not None:
        raise pytest.UsageError(f"{item.nodeid} is marked unit, yet it is {tier.marker}: "
                                "what it or its fixtures start decides (tests/tiers.py)")
    if item.get_closest_marker(tier.marker) is None:
        item.add_marker(tier.marker)
    if tier > Tier.UNIT and item.get_closest_marker(SLOW) is None:
        item.add_marker(SLOW)
    return tier


class StartedInUnitTier(Exception):
    """A unit test started a program or opened a network socket (not an OSError, so that
    code that copes with a refused connection does not take it for one)."""


def refusal(what: str) -> str:
    return (f"a unit test {what}: unit tests run in-process only; mark this test "
            "integration or system, or its fixture @starts(...) (tests/tiers.py)")


NETWORK = (socket.AF_INET, socket.AF_INET6)


@contextlib.contextmanager
def guard(refused: list[str]) -> Iterator[None]:
    """While it lasts, starting a process or binding or connecting a network socket raises
    `StartedInUnitTier`, and is noted in `refused` (the test fails even if the code under
    test swallows the error)."""
    def refuse(what: str) -> StartedInUnitTier:
        refused.append(refusal(what))
        return StartedInUnitTier(refused[-1])

    def no_child(*args: Any, **kwargs: Any) -> Any:
        raise refuse("started a program")

    def no_fork(*args: Any, **kwargs: Any) -> Any:
        raise refuse("forked a process")

    def network_only(method: Callable[..., Any], verb: str) -> Callable[..., Any]:
        def checked(sock: socket.socket, address: Any, *args: Any) -> Any:
            if sock.family in NETWORK:
                raise refuse(f"{verb} a network socket ({address!r})")
            return method(sock, address, *args)
        return checked

    replaced: list[tuple[Any, str, Any]] = [
        (subprocess.Popen, "_execute_child", no_child),  # subprocess, asyncio, Playwright
        (_posixsubprocess, "fork_exec", no_child),  # multiprocessing's spawned workers
        (os, "fork", no_fork), (os, "forkpty", no_fork),  # multiprocessing, pty, pexpect
        (os, "posix_spawn", no_child), (os, "posix_spawnp", no_child),
        (socket.socket, "bind", network_only(socket.socket.bind, "bound")),
        (socket.socket, "connect", network_only(socket.socket.connect, "connected")),
        (socket.socket, "connect_ex", network_only(socket.socket.connect_ex, "connected")),
    ]
    own = [(owner, name, vars(owner).get(name)) for owner, name, _ in replaced]
    for owner, name, replacement in replaced:
        setattr(owner, name, replacement)
    try:
        yield
    finally:
        for owner, name, original in own:
            if original is None:  # inherited (socket.socket's methods are _socket's)
                delattr(owner, name)
            else:
                setattr(owner, name, original)
