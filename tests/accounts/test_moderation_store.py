"""Both stores keep admins, sanctions, reports and the audit log the same way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts.moderation import (
    AdminAction,
    AuditEntry,
    FullStore,
    Moderation,
    Report,
    ReportReason,
    Sanction,
    SanctionKind,
    check_duration,
    check_prefix,
    check_reason,
)
from dominion.server.refusal import Refusal

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def entry(action: AdminAction = AdminAction.BAN, target: str = "account Bob") -> AuditEntry:
    return AuditEntry(NOW, 1, "Ada", action, target, "because")


async def test_admins_are_granted_once_revoked_and_listed(store: FullStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    assert not await store.is_admin(ada.id)
    assert await store.set_admin(ada.id, NOW)
    assert not await store.set_admin(ada.id, NOW)  # already
    assert await store.is_admin(ada.id) and not await store.is_admin(bob.id)
    assert [admin.name for admin in await store.admins()] == ["Ada"]
    assert await store.set_admin(ada.id, None)
    assert not await store.set_admin(ada.id, None)
    assert await store.admins() == []


async def test_a_sanction_is_live_until_it_expires_or_is_lifted(store: FullStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    ban = await store.add_sanction(Sanction(SanctionKind.BAN, "spam", NOW, ada.id,
                                            account_id=bob.id), entry())
    mute = await store.add_sanction(Sanction(SanctionKind.MUTE, "rude", NOW, ada.id,
                                             account_id=bob.id, expires_at=NOW + HOUR),
                                    entry(AdminAction.MUTE))
    prefix = await store.add_sanction(Sanction(SanctionKind.ADDRESS_BAN, "bots", NOW, ada.id,
                                               prefix="203.0.113.0/24"),
                                      entry(AdminAction.BAN_ADDRESS, "prefix 203.0.113.0/24"))
    assert [s.id for s in await store.live_sanctions(NOW)] == [ban.id, mute.id, prefix.id]
    live = await store.live_sanctions(NOW + 2 * HOUR)  # the mute is over
    assert [(s.kind, s.account_id, s.prefix, s.expires_at) for s in live] == [
        (SanctionKind.BAN, bob.id, None, None),
        (SanctionKind.ADDRESS_BAN, None, "203.0.113.0/24", None)]
    assert await store.lift_sanction(ban.id, NOW, entry(AdminAction.LIFT))
    assert not await store.lift_sanction(ban.id, NOW, entry(AdminAction.LIFT))  # once
    assert not await store.lift_sanction(mute.id, NOW + 2 * HOUR, entry(AdminAction.LIFT))
    assert [s.id for s in await store.live_sanctions(NOW)] == [mute.id, prefix.id]
    # each sanction and the one lift that happened is in the log, newest first
    log = await store.audit_log(10, 0)
    assert [e.action for e in log] == [AdminAction.LIFT, AdminAction.BAN_ADDRESS,
                                       AdminAction.MUTE, AdminAction.BAN]
    assert await store.latest_audit_id() == log[0].id
    assert [e.id for e in await store.audit_log(2, 1)] == [log[1].id, log[2].id]


async def test_a_seat_reports_a_seat_once_per_game(store: FullStore) -> None:
    report = Report("g-0123456789ab", 0, "Ada", None, 1, "Bob", 7, ReportReason.ABUSIVE_CHAT,
                    "said rude things", NOW)
    made = await store.add_report(report)
    assert made.id > 0
    with pytest.raises(Refusal) as again:
        await store.add_report(report)
    assert again.value.code is ErrorCode.ALREADY_REPORTED
    other = await store.add_report(Report("g-0123456789ab", 0, "Ada", None, 2, "Cy", None,
                                          ReportReason.STALLING, "", NOW))
    assert [r.id for r in await store.reports(10, 0)] == [other.id, made.id]
    assert (await store.reports(1, 1))[0] == made


async def test_deleted_accounts_are_found_by_when(store: FullStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    await store.create_account("Bob", "bob", "h", NOW)
    assert await store.deleted_since(NOW) == []
    await store.delete_account(ada.id, NOW + HOUR)
    assert await store.deleted_since(NOW) == [ada.id]
    assert await store.deleted_since(NOW + 2 * HOUR) == []


async def test_the_service_bans_ends_sessions_and_each_node_sees_it(store: FullStore) -> None:
    clock = [NOW]
    here, there = Moderation(store, lambda: clock[0]), Moderation(store, lambda: clock[0])
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    await store.add_session(b"bob", bob.id, NOW, NOW + HOUR)
    assert await there.refresh()  # its first look
    await here.sanction(ada, SanctionKind.BAN, "BOB", "spam", 3600)
    assert await store.session_account(b"bob", NOW) is None
    assert there.sanction_of(SanctionKind.BAN, bob.id) is None  # not looked yet
    assert await there.refresh() and not await there.refresh()
    with pytest.raises(Refusal) as banned:
        there.refuse_banned(bob.id)
    assert banned.value.code is ErrorCode.ACCOUNT_BANNED
    assert there.banned_accounts() == {bob.id}
    clock[0] = NOW + 2 * HOUR  # over by itself
    there.refuse_banned(bob.id)
    assert there.banned_accounts() == set()


def test_reasons_durations_and_prefixes_are_checked() -> None:
    assert check_reason("  spam ") == "spam"
    # controls, and text an admin's page would show otherwise than it reads: a bidi
    # override reordering it, zero-width characters hiding in it
    for bad in ("", "   ", "x" * 501, "two\nlines", 7, None, "spam\u202e", "sp\u200bam",
                "\u2066isolate\u2069", "nul\x00"):
        with pytest.raises(Refusal) as refused:
            check_reason(bad)
        assert refused.value.code is ErrorCode.BAD_REASON
    assert check_duration(None, required=False) is None
    assert check_duration(60, required=True) == timedelta(minutes=1)
    for bad in (None, 59, 10**12, 3.5, True, "60"):
        with pytest.raises(Refusal) as refused:
            check_duration(bad, required=True)
        assert refused.value.code is ErrorCode.BAD_DURATION
    assert check_prefix("203.0.113.9/24") == "203.0.113.0/24"
    assert check_prefix("2001:db8::1/48") == "2001:db8::/48"
    assert check_prefix("198.51.100.7") == "198.51.100.7/32"
    for bad in ("0.0.0.0/0", "10.0.0.0/7", "::/0", "2001::/15", "example.org", "1.2.3.4/33",
                None, "1" * 100):
        with pytest.raises(Refusal) as refused:
            check_prefix(bad)
        assert refused.value.code is ErrorCode.BAD_PREFIX


async def test_an_address_ban_holds_every_address_of_its_prefix(store: FullStore) -> None:
    moderation = Moderation(store, lambda: NOW)
    ada = await store.create_account("Ada", "ada", "h", NOW)
    await moderation.sanction(ada, SanctionKind.ADDRESS_BAN, "203.0.113.0/24", "bots", None)
    await moderation.sanction(ada, SanctionKind.ADDRESS_BAN, "2001:db8:5::/48", "bots", 600)
    assert moderation.address_ban_of("203.0.113.200") is not None
    assert moderation.address_ban_of("::ffff:203.0.113.4") is not None  # dual stack
    assert moderation.address_ban_of("203.0.113.0/24") is not None  # a key of the limits
    assert moderation.address_ban_of("2001:db8:5:1::9") is not None
    assert moderation.address_ban_of("203.0.114.1") is None
    assert moderation.address_ban_of("2001:db8:6::1") is None
    assert moderation.address_ban_of("unknown") is None


async def test_a_node_applies_a_ban_another_request_read_first(store: FullStore) -> None:
    """A request (a join, a chat line) may read the new sanctions between two of the
    watch's looks: the watch applies them all the same (the banned account's seats go)."""
    from dominion.server.edge.tasks.moderation_watch import ModerationWatch

    class Lobby:
        def __init__(self) -> None:
            self.removed: list[int] = []

        async def remove_account(self, account_id: int, reason: str) -> None:
            self.removed.append(account_id)

        async def forget_account_seats(self, account_id: int) -> None:
            raise AssertionError("nobody was deleted")

    here, there = Moderation(store, lambda: NOW), Moderation(store, lambda: NOW)
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    lobby = Lobby()
    watch = ModerationWatch(there, lobby, [])  # type: ignore[arg-type]  # what it calls
    await watch.once()
    await here.sanction(ada, SanctionKind.BAN, "Bob", "spam", None)
    await there.refresh_if_reachable()  # a request on that node read it first
    await watch.once()
    assert lobby.removed == [bob.id]
    await watch.once()
    assert lobby.removed == [bob.id], "applied once"
