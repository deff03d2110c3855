"""Where the queue lives, behind one small interface: records (JSON-like maps) under
keys, sets of keys, atomic changes of several records, and the lease of who forms the
waves. `MemoryStore` serves one process; `RedisStore` (redis_store.py) several nodes.

Every rule of the queue is in queue.py, written once against this interface: a change
reads its records, decides, and writes, and no other change of those records comes in
between (one process: nothing awaits inside; Redis: WATCH/MULTI, retried on conflict).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

Record = dict[str, Any]
R = TypeVar("R")


@dataclass
class Writes:
    """What a change writes: records put or deleted, keys added to or removed from sets."""

    put: dict[str, Record] = field(default_factory=dict)
    delete: set[str] = field(default_factory=set)
    add: dict[str, set[str]] = field(default_factory=dict)
    remove: dict[str, set[str]] = field(default_factory=dict)

    def index(self, name: str, key: str) -> None:
        self.add.setdefault(name, set()).add(key)

    def unindex(self, name: str, key: str) -> None:
        self.remove.setdefault(name, set()).add(key)


Change = Callable[[Mapping[str, Record | None]], tuple[R, Writes]]


class Store(Protocol):
    async def change(self, keys: Collection[str], change: Change[R]) -> R:
        """Read `keys`, let `change` decide, write what it says, atomically."""

    async def read(self, keys: Collection[str]) -> dict[str, Record | None]: ...

    async def members(self, name: str) -> set[str]: ...

    async def lead(self, node: str, seconds: float) -> bool:
        """Take or keep the lease of forming waves for `seconds`; whether this node has it."""

    async def close(self) -> None: ...


class MemoryStore:
    """One process: dicts, and nothing awaited inside a change."""

    def __init__(self) -> None:
        self._records: dict[str, Record] = {}
        self._sets: dict[str, set[str]] = {}

    async def change(self, keys: Collection[str], change: Change[R]) -> R:
        result, writes = change(await self.read(keys))
        self._records.update(writes.put)
        for key in writes.delete:
            self._records.pop(key, None)
        for name, added in writes.add.items():
            self._sets.setdefault(name, set()).update(added)
        for name, removed in writes.remove.items():
            self._sets.get(name, set()).difference_update(removed)
        return result

    async def read(self, keys: Collection[str]) -> dict[str, Record | None]:
        # copies, as Redis gives: a change may not alter what is stored but by its writes
        return {key: None if (found := self._records.get(key)) is None else dict(found)
                for key in keys}

    async def members(self, name: str) -> set[str]:
        return set(self._sets.get(name, ()))

    async def lead(self, node: str, seconds: float) -> bool:
        return True  # the only node

    async def close(self) -> None:
        pass
