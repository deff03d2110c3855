"""Moderation: admins, sanctions (an account's ban or mute, an address prefix's ban),
players' reports, and the append-only audit log of every admin action. Kept in the
account store, so that every node of a cluster sees the same; knows nothing of games
(the edge applies a ban to a node's games).

Each node keeps the live sanctions in memory (`Moderation.refresh`), checked on every
request without a query: the audit log's latest id says when to read them again (every
sanction, and every lift of one, is an audit entry), which each node looks at every
`moderation_refresh_seconds`, and before what an account's sanction decides at once (a
sign-in, a chat line from an account's seat, taking up an account's seat).
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol, overload

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .archive import ArchiveStore
from .names import name_key
from .store import Account, AccountStore, RatingStore

MAX_REASON = 500
"""The longest reason an admin gives for an action (characters)."""
MAX_REPORT_TEXT = 1000
"""The longest free text a report holds (characters)."""
LONGEST_SANCTION_SECONDS = 10 * 366 * 86400
"""The longest timed sanction (ten years); longer is for ever (no `seconds`)."""
SHORTEST_SANCTION_SECONDS = 60
WIDEST_PREFIX = {4: 8, 6: 16}
"""The widest network an address ban may name, by IP version: a /0 would ban everyone,
the admin too."""
HOST = "the host"
"""Who the audit log names for what was done on the host (`dominion-server admin`)."""
PAGE_MAX = 100


class SanctionKind(StrEnum):
    BAN = "ban"
    """The account cannot sign in or play; its sessions end; its seats are resigned."""
    MUTE = "mute"
    """The account's seats cannot chat."""
    ADDRESS_BAN = "address_ban"
    """No request or WebSocket from the prefix is served."""


class ReportReason(StrEnum):
    """Why a player reports another: a fixed list (the free text says more)."""

    ABUSIVE_CHAT = "abusive_chat"
    CHEATING = "cheating"
    STALLING = "stalling"
    OFFENSIVE_NAME = "offensive_name"
    OTHER = "other"


class AdminAction(StrEnum):
    GRANT_ADMIN = "grant_admin"
    REVOKE_ADMIN = "revoke_admin"
    BAN = "ban"
    BAN_ADDRESS = "ban_address"
    MUTE = "mute"
    LIFT = "lift"
    REMOVE_CHAT_LINE = "remove_chat_line"
    ABANDON_GAME = "abandon_game"


@dataclass(frozen=True, slots=True)
class Sanction:
    kind: SanctionKind
    reason: str
    created_at: datetime
    by_account_id: int
    account_id: int | None = None
    """The account banned or muted (None for an address ban)."""
    prefix: str | None = None
    """The network an address ban names, e.g. 203.0.113.0/24 (None otherwise)."""
    expires_at: datetime | None = None
    """None: for ever."""
    lifted_at: datetime | None = None
    id: int = 0

    def live(self, now: datetime) -> bool:
        return self.lifted_at is None and (self.expires_at is None or self.expires_at > now)


@dataclass(frozen=True, slots=True)
class Report:
    game_id: str
    reporter_seat: int
    reporter_name: str
    reporter_account_id: int | None
    reported_seat: int
    reported_name: str
    reported_account_id: int | None
    reason: ReportReason
    text: str
    created_at: datetime
    id: int = 0


@dataclass(frozen=True, slots=True)
class AuditEntry:
    at: datetime
    admin_id: int | None
    """None: done on the host."""
    admin_name: str
    action: AdminAction
    target: str
    reason: str
    id: int = 0


class ModerationStore(Protocol):
    """What moderation keeps in the account store (sql_moderation.py, beside
    `AccountStore`)."""

    async def set_admin(self, account_id: int, granted_at: datetime | None) -> bool:
        """Grant (a time) or revoke (None); whether anything changed."""

    async def is_admin(self, account_id: int) -> bool: ...

    async def admins(self) -> list[Account]: ...

    async def add_sanction(self, sanction: Sanction, audit: AuditEntry) -> Sanction:
        """The sanction with its id, stored with its audit entry in one transaction."""

    async def lift_sanction(self, sanction_id: int, now: datetime, audit: AuditEntry
                            ) -> bool:
        """Lift a live sanction (with its audit entry); False when there is none such."""

    async def live_sanctions(self, now: datetime) -> list[Sanction]: ...

    async def add_report(self, report: Report) -> Report:
        """The report with its id; `already_reported` for a second one by the same seat
        of the same seat in the same game."""

    async def reports(self, limit: int, offset: int) -> list[Report]:
        """Newest first."""

    async def append_audit(self, entry: AuditEntry) -> None: ...

    async def audit_log(self, limit: int, offset: int) -> list[AuditEntry]:
        """Newest first."""

    async def latest_audit_id(self) -> int:
        """0 for an empty log."""

    async def deleted_since(self, moment: datetime) -> list[int]:
        """The accounts deleted at or after `moment`."""


class FullStore(AccountStore, ModerationStore, RatingStore, ArchiveStore, Protocol):
    """The account store as the server uses it: accounts, moderation, the rating ledger,
    the archive of ended games."""


@overload
def stamp(moment: datetime) -> str: ...
@overload
def stamp(moment: datetime | None) -> str | None: ...
def stamp(moment: datetime | None) -> str | None:
    """A moment as every body and line says it: UTC, ISO 8601 to the second."""
    return None if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_reason(raw: object, *, required: bool = True, limit: int = MAX_REASON) -> str:
    """A reason or report text: a string of at most `limit` characters, on one line;
    `bad_reason` otherwise."""
    if not isinstance(raw, str) or len(raw) > limit or (required and not raw.strip()):
        raise Refusal(ErrorCode.BAD_REASON, f"a reason is a string of 1 to {limit} "
                                              "characters")
    if not raw.isprintable():  # controls, and what an admin's page would not show as it is:
        # bidi overrides reordering the text, zero-width characters hiding in it
        raise Refusal(ErrorCode.BAD_REASON, "a reason holds printable characters only (no "
                                              "controls, format or zero-width characters)")
    return raw.strip()


def refuse_covering(prefix: str, protected: Collection[str]) -> None:
    """`bad_prefix` when the banned `prefix` covers one of the `protected` addresses or
    networks."""
    banned = ipaddress.ip_network(prefix)
    for kept in protected:
        try:
            network = ipaddress.ip_network(kept, strict=False)
        except ValueError:
            continue  # not an address (a test client's name): nothing a prefix covers
        if network.version == banned.version and banned.overlaps(network):
            raise Refusal(ErrorCode.BAD_PREFIX, f"{prefix} covers {kept}, your own address "
                            "or a trusted proxy's: it would lock you, or everyone, out")


def check_duration(raw: object, *, required: bool) -> timedelta | None:
    """`seconds`: a whole number from a minute to ten years, or null (for ever) where that
    is allowed; `bad_duration` otherwise."""
    if raw is None and not required:
        return None
    if type(raw) is not int or not SHORTEST_SANCTION_SECONDS <= raw <= LONGEST_SANCTION_SECONDS:
        forever = "" if required else ", or null for ever"
        raise Refusal(ErrorCode.BAD_DURATION,
                        f"seconds is a whole number from {SHORTEST_SANCTION_SECONDS} to "
                        f"{LONGEST_SANCTION_SECONDS}{forever}")
    return timedelta(seconds=raw)


def check_prefix(raw: object) -> str:
    """An IPv4 or IPv6 network, `203.0.113.0/24` or `2001:db8::/48` (an address alone is
    its /32 or /128), no wider than WIDEST_PREFIX; `bad_prefix` otherwise."""
    try:
        if not isinstance(raw, str) or len(raw) > 64:
            raise ValueError
        network = ipaddress.ip_network(raw.strip(), strict=False)
    except ValueError:
        raise Refusal(ErrorCode.BAD_PREFIX, "prefix is an IPv4 or IPv6 network such as "
                                              "203.0.113.0/24 or 2001:db8::/48") from None
    widest = WIDEST_PREFIX[network.version]
    if network.prefixlen < widest:
        raise Refusal(ErrorCode.BAD_PREFIX, f"an IPv{network.version} prefix is /{widest} "
                                              "or narrower")
    return str(network)


class Moderation:
    """Moderation as the edge uses it, and each node's copy of the live sanctions."""

    def __init__(self, store: FullStore,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.store = store
        self._clock = clock
        self._sanctions: list[Sanction] = []
        self._networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, Sanction]] = []
        self._seen_audit_id: int | None = None

    # -- each node's copy -------------------------------------------------------------

    async def refresh(self) -> bool:
        """Read the live sanctions again if the audit log has moved; whether it had."""
        latest = await self.store.latest_audit_id()
        if latest == self._seen_audit_id:
            return False
        self._load(await self.store.live_sanctions(self._clock()))
        self._seen_audit_id = latest
        return True

    @property
    def version(self) -> int | None:
        """The audit log's last entry the copy was read at: it changes when the copy does."""
        return self._seen_audit_id

    async def refresh_if_reachable(self) -> None:
        """`refresh`, unless the store cannot be reached now: then the last copy stands
        (games and chat go on without the store)."""
        with contextlib.suppress(Refusal):
            await self.refresh()

    def _load(self, sanctions: list[Sanction]) -> None:
        self._sanctions = sanctions
        self._networks = [(ipaddress.ip_network(s.prefix), s) for s in sanctions
                          if s.kind is SanctionKind.ADDRESS_BAN and s.prefix is not None]

    def banned_accounts(self) -> set[int]:
        now = self._clock()
        return {s.account_id for s in self._sanctions if s.kind is SanctionKind.BAN
                and s.account_id is not None and s.live(now)}

    def sanction_of(self, kind: SanctionKind, account_id: int | None) -> Sanction | None:
        """The account's live ban or mute, if any."""
        if account_id is None:
            return None
        now = self._clock()
        return next((s for s in self._sanctions if s.kind is kind
                     and s.account_id == account_id and s.live(now)), None)

    @property
    def bans_addresses(self) -> bool:
        """Is any address prefix banned (lately)? Without one, no request's address is
        looked at."""
        return bool(self._networks)

    def address_ban_of(self, address: str) -> Sanction | None:
        """The live ban of a network that holds `address` (or the whole network a key such
        as 203.0.113.0/24 names, or overlaps it), if any."""
        try:
            network = ipaddress.ip_network(address, strict=False)
        except ValueError:
            return None  # not an address: a proxy's hop it could not name
        if isinstance(network, ipaddress.IPv6Network) and network.prefixlen == 128 \
                and (mapped := network.network_address.ipv4_mapped) is not None:
            network = ipaddress.ip_network(mapped)
        now = self._clock()
        return next((s for banned, s in self._networks
                     if banned.version == network.version and banned.overlaps(network)
                     and s.live(now)), None)

    def refuse_banned(self, account_id: int | None) -> None:
        """`account_banned` when the account is banned now."""
        ban = self.sanction_of(SanctionKind.BAN, account_id)
        if ban is not None:
            raise Refusal(ErrorCode.ACCOUNT_BANNED, f"this account is banned{_until(ban)}: "
                                                      f"{ban.reason}")

    def refuse_muted(self, account_id: int | None) -> None:
        self.refuse_banned(account_id)
        mute = self.sanction_of(SanctionKind.MUTE, account_id)
        if mute is not None:
            raise Refusal(ErrorCode.MUTED, f"this account may not chat{_until(mute)}: "
                                             f"{mute.reason}")

    # -- admins --------------------------------------------------------------------

    async def require_admin(self, account: Account | None) -> Account:
        if account is None:
            raise Refusal(ErrorCode.NOT_SIGNED_IN, "sign in first")
        if not await self.store.is_admin(account.id):
            raise Refusal(ErrorCode.NOT_AN_ADMIN, "only an admin may do this")
        return account

    async def set_admin(self, name: str, admin: bool) -> Account:
        """Grant or revoke (on the host: the audit log names the host)."""
        account = await self.account_named(name)
        now = self._clock()
        if await self.store.set_admin(account.id, now if admin else None):
            action = AdminAction.GRANT_ADMIN if admin else AdminAction.REVOKE_ADMIN
            await self.store.append_audit(AuditEntry(now, None, HOST, action,
                                                     f"account {account.name}",
                                                     "dominion-server admin"))
        return account

    async def account_named(self, name: object) -> Account:
        account = None
        if isinstance(name, str) and 0 < len(name) <= 100:
            account = await self.store.account_by_key(name_key(name))
        if account is None or account.deleted_at is not None:
            raise Refusal(ErrorCode.UNKNOWN_ACCOUNT, f"no account is named {name!r}")
        return account

    # -- admin actions (each one an audit entry) -----------------------------------

    async def sanction(self, admin: Account, kind: SanctionKind, target: object,
                       reason: object, seconds: object, protected: Collection[str] = ()
                       ) -> Sanction:
        """Ban or mute an account (`target`: its name), or ban an address prefix, which
        may cover none of the `protected` addresses or networks (the acting admin's own,
        the trusted proxies: banning them locks the admin, or everyone, out)."""
        why = check_reason(reason)
        duration = check_duration(seconds, required=kind is SanctionKind.MUTE)
        now = self._clock()
        sanction = Sanction(kind, why, now, admin.id,
                            expires_at=None if duration is None else now + duration)
        if kind is SanctionKind.ADDRESS_BAN:
            prefix = check_prefix(target)
            refuse_covering(prefix, protected)
            sanction, action, named = replace(sanction, prefix=prefix), \
                AdminAction.BAN_ADDRESS, f"prefix {prefix}"
        else:
            account = await self.account_named(target)
            sanction, named = replace(sanction, account_id=account.id), f"account {account.name}"
            action = AdminAction.BAN if kind is SanctionKind.BAN else AdminAction.MUTE
        stored = await self.store.add_sanction(sanction, self._entry(
            admin, action, f"{named}{_until(sanction)}", why))
        if kind is SanctionKind.BAN and stored.account_id is not None:
            await self.store.end_sessions(stored.account_id)  # signed out everywhere, now
        await self.refresh()
        return stored

    async def lift(self, admin: Account | None, sanction_id: int, reason: object) -> None:
        """Lift a live sanction; `admin` None: the host did (`dominion-server admin lift`)."""
        why = check_reason(reason)
        now = self._clock()
        entry = AuditEntry(now, None if admin is None else admin.id,
                           HOST if admin is None else admin.name, AdminAction.LIFT,
                           f"sanction {sanction_id}", why)
        if not await self.store.lift_sanction(sanction_id, now, entry):
            raise Refusal(ErrorCode.NOT_FOUND, f"no live sanction {sanction_id}")
        await self.refresh()

    async def note(self, admin: Account, action: AdminAction, target: str, reason: str
                   ) -> None:
        """Record an action done elsewhere (a chat line removed, a game abandoned)."""
        await self.store.append_audit(self._entry(admin, action, target, reason))

    def _entry(self, admin: Account, action: AdminAction, target: str, reason: str
               ) -> AuditEntry:
        return AuditEntry(self._clock(), admin.id, admin.name, action, target, reason)

    def live_sanctions(self) -> list[Sanction]:
        now = self._clock()
        return [s for s in self._sanctions if s.live(now)]

    # -- reports ---------------------------------------------------------------------

    async def report(self, report: Report) -> Report:
        return await self.store.add_report(report)

    def now(self) -> datetime:
        return self._clock()


def report_of(row: tuple[Any, ...], created_at: datetime) -> Report:
    """A report from a row of a store's REPORT_COLUMNS and its id."""
    (game_id, reporter_seat, reporter_name, reporter_account_id, reported_seat, reported_name,
     reported_account_id, reason, text, _, report_id) = row
    return Report(game_id, reporter_seat, reporter_name, reporter_account_id, reported_seat,
                  reported_name, reported_account_id, ReportReason(reason), text, created_at,
                  report_id)


def check_report_reason(raw: object) -> ReportReason:
    try:
        return ReportReason(str(raw)) if isinstance(raw, str) else ReportReason("")
    except ValueError:
        raise Refusal(ErrorCode.BAD_REASON, "reason is one of "
                                              f"{', '.join(ReportReason)}") from None


def already_reported() -> Refusal:
    return Refusal(ErrorCode.ALREADY_REPORTED, "this seat has already reported that player "
                                                 "in this game")


def _until(sanction: Sanction) -> str:
    expires = stamp(sanction.expires_at)
    return " for ever" if expires is None else f" until {expires}"
