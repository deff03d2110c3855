"""What the host's commands on the account store share (`dominion-server admin`,
`ratings recompute`, `ratings reconcile`, `archive reconcile`): the store opened for one
piece of work, and a refusal said as the command's error."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from ..refusal import Refusal
from ..settings import Settings
from . import open_account_store
from .moderation import FullStore

T = TypeVar("T")


async def on_account_store(settings: Settings, work: Callable[[FullStore], Awaitable[T]]) -> T:
    """`work` done on the account store the settings name, opened for it alone."""
    store = open_account_store(settings.accounts_url, settings.db)
    await store.start()
    try:
        return await work(store)
    finally:
        await store.close()


def run_host_command(prog: str, work: Coroutine[Any, Any, T],
                     *also_refused: type[Exception]) -> T | None:
    """What `work` gives; None if it was refused (a `Refusal`, or one of `also_refused`),
    said on standard error as `prog: why`."""
    refused: tuple[type[Exception], ...] = (Refusal, *also_refused)
    try:
        return asyncio.run(work)
    except refused as error:
        why = error.message if isinstance(error, Refusal) else str(error)
        print(f"{prog}: {why}", file=sys.stderr)
        return None
