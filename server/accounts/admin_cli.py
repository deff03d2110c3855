"""`dominion-server admin grant|revoke NAME` and `dominion-server admin list`: who is an
admin, decided on the host, in the account store the server is configured with (the
SQLite file beside --db, or --accounts-url), and kept in the audit log."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from ..errors import GameError
from ..settings import Settings
from . import open_account_store
from .moderation import Moderation

ACTIONS = ("grant", "revoke", "list")


def admin_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dominion-server admin",
        description="Grant or revoke an account's admin rights, or list the admins, in the "
                    "account store the server uses (give the server's own --db or "
                    "--accounts-url, or their DOMINION_* variables).")
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument("name", nargs="?", help="the account's name (grant and revoke)")
    known, rest = parser.parse_known_args(argv)
    if (known.name is None) != (known.action == "list"):
        parser.error("grant and revoke take an account's name; list takes none")
    settings = Settings.from_sources(rest)
    try:
        print(asyncio.run(_run(settings, known.action, known.name)))
    except GameError as error:
        print(f"dominion-server admin: {error.message}", file=sys.stderr)
        return 1
    return 0


async def _run(settings: Settings, action: str, name: str | None) -> str:
    store = open_account_store(settings.accounts_url, settings.db)
    await store.start()
    try:
        moderation = Moderation(store)
        if action == "list":
            return "\n".join(admin.name for admin in await store.admins()) or "(no admins)"
        assert name is not None
        account = await moderation.set_admin(name, action == "grant")
        return f"{account.name} is {'an admin' if action == 'grant' else 'not an admin'}"
    finally:
        await store.close()
