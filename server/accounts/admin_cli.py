"""`dominion-server admin grant|revoke NAME` and `dominion-server admin list`: who is an
admin, decided on the host, in the account store the server is configured with (the
SQLite file beside --db, or --accounts-url), and kept in the audit log. `sanctions`
lists the live bans and mutes, and `lift ID` lifts one: the way back in for an admin
whose own address was banned (the server refuses such bans, but a proxy's address may
change)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..settings import Settings
from .host_command import on_account_store, run_host_command
from .moderation import FullStore, Moderation, Sanction, stamp

ACTIONS = ("grant", "revoke", "list", "sanctions", "lift")
TAKES_AN_ARGUMENT = {"grant": "an account's name", "revoke": "an account's name",
                     "lift": "a sanction's id (see `sanctions`)"}


def admin_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dominion-server admin",
        description="Grant or revoke an account's admin rights, or list the admins, in the "
                    "account store the server uses (give the server's own --db or "
                    "--accounts-url, or their DOMINION_* variables).")
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument("name", nargs="?", help="the account's name (grant and revoke), or "
                                                "the sanction's id (lift)")
    parser.add_argument("--reason", default="lifted on the host",
                        help="why (lift; kept in the audit log)")
    known, rest = parser.parse_known_args(argv)
    wanted = TAKES_AN_ARGUMENT.get(known.action)
    if (known.name is None) != (wanted is None):
        parser.error(f"{known.action} takes {wanted}" if wanted
                     else f"{known.action} takes no argument")
    if known.action == "lift" and not (known.name.isascii() and known.name.isdigit()):
        parser.error("lift takes a sanction's id, a number (see `sanctions`)")
    settings = Settings.from_sources(rest)
    said = run_host_command("dominion-server admin", on_account_store(
        settings, lambda store: _run(store, known.action, known.name, known.reason)))
    if said is None:
        return 1
    print(said)
    return 0


async def _run(store: FullStore, action: str, name: str | None, reason: str) -> str:
    moderation = Moderation(store)
    if action == "list":
        return "\n".join(admin.name for admin in await store.admins()) or "(no admins)"
    if action == "sanctions":
        await moderation.refresh()
        return "\n".join(_line(sanction) for sanction in moderation.live_sanctions()) \
            or "(no live sanctions)"
    assert name is not None
    if action == "lift":
        await moderation.lift(None, int(name), reason)
        return f"sanction {name} is lifted"
    account = await moderation.set_admin(name, action == "grant")
    return f"{account.name} is {'an admin' if action == 'grant' else 'not an admin'}"


def _line(sanction: Sanction) -> str:
    """One live sanction for a person: its id, what, whom, until when, why."""
    whom = sanction.prefix if sanction.prefix is not None else f"account {sanction.account_id}"
    until = "for ever" if sanction.expires_at is None else f"until {stamp(sanction.expires_at)}"
    return f"{sanction.id}\t{sanction.kind.value}\t{whom}\t{until}\t{sanction.reason}"
