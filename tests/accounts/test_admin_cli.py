"""`dominion-server admin grant|revoke|list|sanctions|lift` on the host, on each account store: the
store the server would use (the SQLite file beside --db, or --accounts-url), and the
audit log names the host."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts import open_account_store
from dominion.server.accounts.moderation import HOST, AdminAction, Moderation, SanctionKind
from dominion.server.accounts.store import AccountStore
from dominion.server.main import main
from dominion.server.refusal import Refusal


def store_options(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest, *,
                  empty: bool = False) -> list[str]:
    """The commands' options naming a store of the kind (`empty`: see `make_store`)."""
    options = ["--db", str(tmp_path / "games.sqlite3")]
    if store_kind == "postgres":
        fixture = "empty_postgres_url" if empty else "postgres_url"
        options += ["--accounts-url", request.getfixturevalue(fixture)]
    return options


@contextlib.asynccontextmanager
async def opened(options: list[str]) -> AsyncIterator[AccountStore]:
    """The account store `options` name, as the command opens it."""
    store = open_account_store(options[3] if len(options) > 2 else "", options[1])
    await store.start()
    try:
        yield store
    finally:
        await store.close()


async def _with_ada(options: list[str]) -> tuple[bool, list[AdminAction]]:
    """Is Ada an admin, and the audit log's actions (newest first)?"""
    async with opened(options) as store:
        ada = await store.account_by_key("ada")
        if ada is None:
            ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
        log = await store.audit_log(10, 0)
        assert all(entry.admin_name == HOST and entry.admin_id is None for entry in log)
        return await store.is_admin(ada.id), [entry.action for entry in log]


def test_an_admin_is_granted_listed_and_revoked_on_the_host(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    options = store_options(store_kind, tmp_path, request)
    assert asyncio.run(_with_ada(options)) == (False, [])
    assert main(["admin", "list", *options]) == 0
    assert capsys.readouterr().out == "(no admins)\n"
    assert main(["admin", "grant", "ADA", *options]) == 0
    assert capsys.readouterr().out == "Ada is an admin\n"
    assert main(["admin", "grant", "Ada", *options]) == 0  # already: no second entry
    assert main(["admin", "list", *options]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Ada"
    assert asyncio.run(_with_ada(options)) == (True, [AdminAction.GRANT_ADMIN])
    assert main(["admin", "revoke", "Ada", *options]) == 0
    assert asyncio.run(_with_ada(options)) == (
        False, [AdminAction.REVOKE_ADMIN, AdminAction.GRANT_ADMIN])


def test_an_unknown_name_or_a_bad_command_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--db", str(tmp_path / "games.sqlite3")]
    assert main(["admin", "grant", "Nobody", *options]) == 1
    assert "no account is named 'Nobody'" in capsys.readouterr().err
    for wrong in (["admin", "grant"], ["admin", "list", "Ada"], ["admin", "promote", "Ada"],
                  ["admin", "grant", "Ada", "--no-such-option"]):
        with pytest.raises(SystemExit) as exit_:
            main([*wrong, *options])
        assert exit_.value.code == 2
    assert not (tmp_path / "games.sqlite3").exists()  # the games' database is not opened


async def _banned_address(options: list[str], prefix: str) -> int:
    """An address ban stored as an admin's request would store it; its id."""
    async with opened(options) as store:
        admin = await store.create_account("Eve", "eve", "h", datetime.now(UTC))
        made = await Moderation(store).sanction(admin, SanctionKind.ADDRESS_BAN, prefix,
                                                "spam", None)
        assert made.id is not None
        return made.id


def test_the_host_lists_and_lifts_sanctions(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    # an admin locked out by a ban of their own address had no way back in
    options = store_options(store_kind, tmp_path, request)
    assert main(["admin", "sanctions", *options]) == 0
    assert capsys.readouterr().out == "(no live sanctions)\n"
    made = asyncio.run(_banned_address(options, "198.51.100.0/24"))
    assert main(["admin", "sanctions", *options]) == 0
    assert capsys.readouterr().out == f"{made}\taddress_ban\t198.51.100.0/24\tfor ever\tspam\n"
    assert main(["admin", "lift", str(made), "--reason", "mine", *options]) == 0
    assert capsys.readouterr().out == f"sanction {made} is lifted\n"
    assert main(["admin", "sanctions", *options]) == 0
    assert capsys.readouterr().out == "(no live sanctions)\n"
    assert main(["admin", "lift", str(made), *options]) == 1  # not live any more
    assert f"no live sanction {made}" in capsys.readouterr().err
    for wrong in (["admin", "lift"], ["admin", "lift", "seven"], ["admin", "sanctions", "1"]):
        with pytest.raises(SystemExit) as exit_:
            main([*wrong, *options])
        assert exit_.value.code == 2


@pytest.mark.parametrize("prefix", ["127.0.0.0/8", "127.0.0.1", "10.0.0.0/8", "10.1.2.0/24"])
async def test_an_admin_cannot_ban_their_own_address_or_a_proxy(
        tmp_path: Path, prefix: str) -> None:
    async with opened(["--db", str(tmp_path / "games.sqlite3")]) as store:
        admin = await store.create_account("Eve", "eve", "h", datetime.now(UTC))
        with pytest.raises(Refusal) as refused:
            await Moderation(store).sanction(admin, SanctionKind.ADDRESS_BAN, prefix, "spam",
                                             None, protected=["127.0.0.1", "10.1.2.0/24"])
        assert refused.value.code is ErrorCode.BAD_PREFIX
        assert await store.live_sanctions(datetime.now(UTC)) == []
