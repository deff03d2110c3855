"""Moderation over REST: what admins do under /api/v1/admin (ban, mute, lift, read the
reports, the sanctions and the audit log), what they do to one game under its own path
(`/api/v1/games/{id}/admin/...`: a proxy in front of several nodes sends it to the
game's node), and a player's report of another (`/api/v1/games/{id}/reports`).

Every route here is charged to the caller's address before any work (`admin`, `reports`
budgets); every admin route asks for a signed-in admin; every one that changes something
is refused from another site's page. What a ban does to a game on another node, that
node does itself when it sees the ban (moderation_watch.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ...accounts import Account
from ...accounts.moderation import (
    LONGEST_SANCTION_SECONDS,
    MAX_REASON,
    MAX_REPORT_TEXT,
    PAGE_MAX,
    SHORTEST_SANCTION_SECONDS,
    AdminAction,
    Moderation,
    ReportReason,
    SanctionKind,
    check_reason,
    check_report_reason,
    stamp,
)
from ...accounts.moderation import AuditEntry as AuditRecord
from ...accounts.moderation import Report as ReportRecord
from ...accounts.moderation import Sanction as SanctionRecord
from ...engine.setup import MAX_PLAYERS
from ...play.text import check_token
from ...ratings.ledger import SUSPICION_WINDOW, PairRecord, ledger_time
from ...refusal import Refusal
from ..state import STATE
from ..tasks.moderation_watch import BANNED_SEAT, close_banned_accounts, close_banned_addresses
from ..transport.addresses import client_address
from ..transport.prefixes import client_key
from .accounts_api import CROSS_SITE
from .filters import Paging
from .lobby_models import GAME_ID_PATTERN, GameSummary
from .models import (
    TIME_FORMAT,
    TIMESTAMP,
    Model,
    Removed,
    Schema,
    member,
    model,
    nullable,
    ref,
)
from .operation import GAME_ID, Operation, Param, Reply, Routes, Tag, Where, read_body
from .sessions import signed_in


async def _admin(request: web.Request) -> tuple[Moderation, Account]:
    """The moderation service and the signed-in admin, once the address has paid."""
    request.config_dict[STATE].budgets.charge("admin", client_key(request), 1)
    moderation = request.config_dict[STATE].moderation
    return moderation, await moderation.require_admin(await signed_in(request))


async def _changing(request: web.Request, cls: type[Model]) -> tuple[Moderation, Account, Model]:
    moderation, admin = await _admin(request)
    return moderation, admin, await read_body(request, cls)


PAGING = Paging(50, PAGE_MAX)
"""A page of reports or of the audit log."""


WHEN = nullable(TIMESTAMP)
ACCOUNT_ID = nullable({"type": "integer", "minimum": 1})
ID = {"type": "integer", "minimum": 1}
REASON: Schema = {"type": "string", "minLength": 1, "maxLength": MAX_REASON}


@model("A ban or mute of an account, or a ban of an address prefix; expires_at null: for "
       "ever.")
class Sanction:
    id: int = member(ID)
    kind: str = member({"type": "string", "enum": [kind.value for kind in SanctionKind]})
    account_id: int | None = member(ACCOUNT_ID)
    prefix: str | None = member(nullable({"type": "string"}))
    reason: str = member(REASON)
    created_at: str = member(TIMESTAMP)
    expires_at: str | None = member(WHEN)
    lifted_at: str | None = member(WHEN)
    by_account_id: int = member(ID)

    @classmethod
    def of(cls, made: SanctionRecord) -> Sanction:
        return cls(made.id, made.kind.value, made.account_id, made.prefix, made.reason,
                   stamp(made.created_at), stamp(made.expires_at), stamp(made.lifted_at),
                   made.by_account_id)


@model()
class Party:
    seat: int = member({"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1})
    name: str = member({"type": "string"})
    account_id: int | None = member(ACCOUNT_ID)


@model()
class Report:
    id: int = member(ID)
    game: str = member({"type": "string", "pattern": f"^{GAME_ID_PATTERN}$"})
    reporter: Party = member(ref(Party))
    reported: Party = member(ref(Party))
    reason: str = member({"type": "string", "enum": [reason.value for reason in ReportReason]})
    text: str = member({"type": "string", "maxLength": MAX_REPORT_TEXT})
    created_at: str = member(TIMESTAMP)

    @classmethod
    def of(cls, made: ReportRecord) -> Report:
        return cls(made.id, made.game_id,
                   Party(made.reporter_seat, made.reporter_name, made.reporter_account_id),
                   Party(made.reported_seat, made.reported_name, made.reported_account_id),
                   made.reason.value, made.text, stamp(made.created_at))


@model("Two accounts' rated games together over the last 7 days.")
class SuspiciousPair:
    name: str = member({"type": "string"})
    other: str = member({"type": "string"})
    games: int = member({"type": "integer", "minimum": 1},
                        "rated games the two played together, counted or not")
    wins: int = member({"type": "integer", "minimum": 0}, "`name` finished above `other`")
    losses: int = member({"type": "integer", "minimum": 0}, "`other` finished above `name`")
    ties: int = member({"type": "integer", "minimum": 0})
    counted: int = member({"type": "integer", "minimum": 0},
                          "games under the per-day pair limit, which changed ratings")
    early: int = member({"type": "integer", "minimum": 0},
                        "games one of them gave up before `rated_min_turns` turns of their "
                        "own (unrated, never counted)")
    score: int = member({"type": "integer", "minimum": 0},
                        "the suspicion score: |wins - losses|")

    @classmethod
    def of(cls, pair: PairRecord) -> SuspiciousPair:
        return cls(pair.name, pair.other, pair.games, pair.wins, pair.losses,
                   pair.games - pair.wins - pair.losses, pair.counted, pair.early, pair.score)


@model()
class AuditEntry:
    id: int = member(ID)
    at: str = member(TIMESTAMP)
    admin_id: int | None = member(ACCOUNT_ID)
    admin: str = member({"type": "string"},
                        "the admin's name, or `the host` (dominion-server admin)")
    action: str = member({"type": "string", "enum": [action.value for action in AdminAction]})
    target: str = member({"type": "string"})
    reason: str = member({"type": "string"})

    @classmethod
    def of(cls, entry: AuditRecord) -> AuditEntry:
        return cls(entry.id, stamp(entry.at), entry.admin_id, entry.admin_name,
                   entry.action.value, entry.target, entry.reason)


@model()
class ChatLine:
    id: int = member(ID)
    at: str = member({"type": "string"})
    seat: int | None = member(nullable({"type": "integer", "minimum": 0}))
    name: str = member({"type": "string"})
    text: str = member({"type": "string"})
    removed_at: str | None = member(nullable({"type": "string"}))


@model("Every chat line of the game, removed ones too (for admins).")
class ChatLines:
    lines: list[ChatLine] = member({"type": "array", "items": ref(ChatLine)})


@model()
class Reports:
    reports: list[Report] = member({"type": "array", "items": ref(Report)})


@model()
class AuditLog:
    entries: list[AuditEntry] = member({"type": "array", "items": ref(AuditEntry)})


@model()
class SuspiciousPairs:
    pairs: list[SuspiciousPair] = member({"type": "array", "items": ref(SuspiciousPair)})


@model()
class LiveSanctions:
    sanctions: list[Sanction] = member({"type": "array", "items": ref(Sanction)})


@model()
class SanctionMade:
    sanction: Sanction = member(ref(Sanction))


@model()
class Lifted:
    lifted: bool = member({"type": "boolean", "const": True})


@model()
class Abandoned:
    game: dict[str, Any] = member(ref(GameSummary))


@model()
class Reported:
    report: Report = member(ref(Report))


@model()
class AdminFacts:
    id: int = member({"type": "integer", "minimum": 1})
    name: str = member({"type": "string"})


@model("The signed-in admin.")
class Admin:
    admin: AdminFacts = member(ref(AdminFacts))


@model(closed=False)
class SanctionRequest:
    reason: object = member(REASON)
    name: object = member({"type": "string"}, "the account's name (bans, mutes)",
                          default=None)
    prefix: object = member({"type": "string"},
                            "the network (address bans), e.g. 203.0.113.0/24", default=None)
    seconds: object = member(nullable({"type": "integer", "minimum": SHORTEST_SANCTION_SECONDS,
                                       "maximum": LONGEST_SANCTION_SECONDS}), default=None)


@model(closed=False)
class Reason:
    reason: object = member(REASON)


@model(closed=False)
class ReportRequest:
    token: object = member({"type": "string"}, "the reporter's seat token")
    seat: object = member({"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1},
                          "the reported player's seat")
    reason: object = member({"type": "string",
                             "enum": [reason.value for reason in ReportReason]})
    text: object = member({"type": "string", "maxLength": MAX_REPORT_TEXT}, default="")


ROUTES = Routes(cookie=True)
ADMINS = (ErrorCode.NOT_SIGNED_IN, ErrorCode.NOT_AN_ADMIN, ErrorCode.RATE_LIMITED,
          ErrorCode.ACCOUNTS_UNAVAILABLE)
"""What `_admin` refuses."""
CHANGING = (*ADMINS, *CROSS_SITE)
"""What `_changing` refuses, besides reading its body."""
RATE = {429: "Too many admin requests (or reports) from this address (retry_after_ms)"}


def _listing(path: str, operation_id: str, summary: str, page: type[Any]) -> Operation:
    return Operation("GET", path, operation_id, Tag.ADMIN, summary, (Reply(
        200, "Newest first", page),),
        (ErrorCode.BAD_PAGING, *ADMINS), parameters=PAGING.parameters(), notes=RATE)


def _sanctioning(path: str, operation_id: str, summary: str, target: str,
                 codes: tuple[ErrorCode, ...]) -> Operation:
    return Operation(
        "POST", path, operation_id, Tag.ADMIN, summary,
        (Reply(201, "The sanction", SanctionMade),),
        (ErrorCode.BAD_REASON, ErrorCode.BAD_DURATION, *codes, *CHANGING),
        description=f"`{target}`, `reason` and `seconds` (null or absent: for ever"
                    f"{'; a mute needs it' if operation_id == 'muteAccount' else ''}). Kept in "
                    "the audit log.",
        body=SanctionRequest, notes=RATE)


@ROUTES(Operation("GET", "/admin", "whoIsAdmin", Tag.ADMIN,
                  "The signed-in admin (a 403 for anyone else: the web client shows its admin "
                  "page only on a 200)", (Reply(200, "An admin", Admin),), ADMINS, notes=RATE))
async def who_is_admin(request: web.Request) -> Admin:
    _, admin = await _admin(request)
    return Admin(AdminFacts(admin.id, admin.name))


@ROUTES(_listing("/admin/reports", "adminReports", "Players' reports of players", Reports))
async def reports(request: web.Request) -> Reports:
    moderation, _ = await _admin(request)
    found = await moderation.store.reports(*PAGING.of(request))
    return Reports([Report.of(report) for report in found])


@ROUTES(_listing("/admin/audit", "adminAudit", "The audit log: every admin action", AuditLog))
async def audit(request: web.Request) -> AuditLog:
    moderation, _ = await _admin(request)
    found = await moderation.store.audit_log(*PAGING.of(request))
    return AuditLog([AuditEntry.of(entry) for entry in found])


@ROUTES(Operation("GET", "/admin/pairs", "adminSuspiciousPairs", Tag.ADMIN,
                  "Pairs of accounts that played rated games together in the last 7 days",
                  (Reply(200, "Most suspicious first: by score (the net results one gave "
                              "the other), then games", SuspiciousPairs),),
                  (ErrorCode.BAD_PAGING, *ADMINS), parameters=PAGING.parameters(),
                  notes=RATE))
async def suspicious_pairs(request: web.Request) -> SuspiciousPairs:
    await _admin(request)
    since = ledger_time(datetime.now(UTC) - SUSPICION_WINDOW)
    store = request.config_dict[STATE].rating_store
    found = await store.suspicious_pairs(since, *PAGING.of(request))
    return SuspiciousPairs([SuspiciousPair.of(pair) for pair in found])


@ROUTES(Operation("GET", "/admin/sanctions", "adminSanctions", Tag.ADMIN,
                  "The live bans and mutes", (Reply(200, "Oldest first", LiveSanctions),),
                  ADMINS, notes=RATE))
async def sanctions(request: web.Request) -> LiveSanctions:
    moderation, _ = await _admin(request)
    await moderation.refresh()
    return LiveSanctions([Sanction.of(made) for made in moderation.live_sanctions()])


async def _sanction(request: web.Request, kind: SanctionKind, target: str) -> SanctionMade:
    moderation, admin, body = await _changing(request, SanctionRequest)
    state = request.config_dict[STATE]
    # the admin's own address and the proxies in front: a ban of theirs locks out
    protected = (client_address(request), request.remote or "",
                 *state.settings.trusted_proxies)
    made = await moderation.sanction(admin, kind, getattr(body, target), body.reason,
                                     body.seconds, protected)
    if kind is SanctionKind.BAN and made.account_id is not None:
        close_banned_accounts(moderation, state.connections)
        await state.lobby.remove_account(made.account_id, BANNED_SEAT)
    elif kind is SanctionKind.ADDRESS_BAN:
        close_banned_addresses(moderation, state.connections)
    return SanctionMade(Sanction.of(made))


@ROUTES(_sanctioning("/admin/bans", "banAccount",
                     "Ban an account: its sessions end on every node, it cannot sign in or "
                     "play, its seats are resigned (a bot plays on)", "name",
                     (ErrorCode.UNKNOWN_ACCOUNT,)))
async def ban(request: web.Request) -> SanctionMade:
    return await _sanction(request, SanctionKind.BAN, "name")


@ROUTES(_sanctioning("/admin/mutes", "muteAccount", "Mute an account's chat for a time", "name",
                     (ErrorCode.UNKNOWN_ACCOUNT,)))
async def mute(request: web.Request) -> SanctionMade:
    return await _sanction(request, SanctionKind.MUTE, "name")


@ROUTES(_sanctioning("/admin/address-bans", "banAddressPrefix",
                     "Ban an IPv4 or IPv6 prefix on every node (HTTP and WebSocket; open "
                     "connections from it close, 4008)", "prefix", (ErrorCode.BAD_PREFIX,)))
async def ban_address(request: web.Request) -> SanctionMade:
    return await _sanction(request, SanctionKind.ADDRESS_BAN, "prefix")


@ROUTES(Operation(
    "POST", r"/admin/sanctions/{sanction_id:\d{1,18}}/lift", "liftSanction", Tag.ADMIN,
    "End a live ban or mute early (with a reason, kept in the log)",
    (Reply(200, "Lifted", Lifted),),
    (ErrorCode.BAD_REASON, ErrorCode.NOT_FOUND, *CHANGING), body=Reason,
    parameters=(Param("sanction_id", Where.PATH, {"type": "integer", "minimum": 1}),),
    notes={404: "No live sanction has this id", **RATE}))
async def lift(request: web.Request) -> Lifted:
    moderation, admin, body = await _changing(request, Reason)
    await moderation.lift(admin, int(request.match_info["sanction_id"]), body.reason)
    return Lifted(True)


@ROUTES(Operation("GET", "/games/{game_id}/admin/chat", "adminGameChat", Tag.ADMIN,
                  "Every chat line of a game of this node or the archive, removed ones too",
                  (Reply(200, "In order", ChatLines),), (ErrorCode.UNKNOWN_GAME, *ADMINS),
                  parameters=(GAME_ID,), notes=RATE))
async def game_chat(request: web.Request) -> ChatLines:
    await _admin(request)
    state = request.config_dict[STATE]
    game_id = request.match_info["game_id"]
    if game_id not in state.lobby.rooms and state.storage.load_game(game_id) is None:
        await state.archive.summary(game_id)  # unknown_game: neither here nor archived
    return ChatLines([ChatLine(**line) for line in await state.archive.chat(game_id)])


@ROUTES(Operation(
    "POST", r"/games/{game_id}/admin/chat/{line:\d{1,18}}/remove", "removeChatLine",
    Tag.ADMIN, "Remove a chat line for everyone (`chat_removed`); it stays in the log, "
    "marked, and no replay holds it",
    (Reply(200, "Removed", Removed),),
    (ErrorCode.BAD_REASON, ErrorCode.UNKNOWN_GAME, ErrorCode.NOT_FOUND, *CHANGING),
    body=Reason,
    parameters=(GAME_ID, Param("line", Where.PATH, {"type": "integer", "minimum": 1})),
    notes={404: "No such game, or no such line to remove", **RATE}))
async def remove_chat_line(request: web.Request) -> Removed:
    moderation, admin, body = await _changing(request, Reason)
    reason = check_reason(body.reason)
    game_id, line = request.match_info["game_id"], int(request.match_info["line"])
    state = request.config_dict[STATE]
    room = state.lobby.rooms.get(game_id)
    at = moderation.now().strftime(TIME_FORMAT)
    if room is not None:
        removed = await room.remove_chat_line(line)
        # an ended room may be archived already: the archive's copy goes too
        removed = await state.archive_store.remove_archived_chat(game_id, line, at) or removed
    else:
        removed = await state.archive.remove_chat(game_id, line, at)
    if not removed:
        raise Refusal(ErrorCode.NOT_FOUND, f"game {game_id} has no chat line {line} to "
                                             "remove")
    await moderation.note(admin, AdminAction.REMOVE_CHAT_LINE, f"game {game_id} line {line}",
                          reason)
    return Removed(True)


@ROUTES(Operation(
    "POST", "/games/{game_id}/admin/abandon", "abandonGame", Tag.ADMIN,
    "End a game with no result; its players are told (`game_abandoned`)",
    (Reply(200, "Abandoned", Abandoned),),
    (ErrorCode.BAD_REASON, ErrorCode.UNKNOWN_GAME, ErrorCode.GAME_OVER, *CHANGING),
    body=Reason, parameters=(GAME_ID,), notes=RATE))
async def abandon(request: web.Request) -> Abandoned:
    moderation, admin, body = await _changing(request, Reason)
    reason = check_reason(body.reason)
    room = await request.config_dict[STATE].lobby.find(request.match_info["game_id"])
    await room.abandon(reason)
    await moderation.note(admin, AdminAction.ABANDON_GAME, f"game {room.id}", reason)
    return Abandoned(room.summary())


@ROUTES(Operation(
    "POST", "/games/{game_id}/reports", "reportPlayer", Tag.ADMIN,
    "Report another player of the game (once per seat of yours, per seat)",
    (Reply(201, "Reported", Reported),),
    (ErrorCode.BAD_REASON, ErrorCode.BAD_TOKEN, ErrorCode.NOT_A_PLAYER, ErrorCode.UNKNOWN_GAME,
     ErrorCode.ALREADY_REPORTED, ErrorCode.RATE_LIMITED, ErrorCode.ACCOUNTS_UNAVAILABLE),
    description="The reporter is the seat its token holds.", body=ReportRequest,
    parameters=(GAME_ID,),
    notes={403: "The token holds no seat, or the seat is not another player's", **RATE}))
async def report(request: web.Request) -> Reported:
    state = request.config_dict[STATE]
    state.budgets.charge("reports", client_key(request), 1)
    body = await read_body(request, ReportRequest)
    room = await state.lobby.find(request.match_info["game_id"])
    reporter = room.seat_for(check_token(body.token))
    seat = body.seat
    reported = room.seats[seat] if type(seat) is int and 0 <= seat < len(room.seats) else None
    if reported is None or reported is reporter or reported.free:
        raise Refusal(ErrorCode.NOT_A_PLAYER, "seat is the number of another player's seat "
                                                "in this game")
    moderation = request.config_dict[STATE].moderation
    made = await moderation.report(ReportRecord(
        room.id, reporter.index, reporter.name or "", reporter.account_id, reported.index,
        reported.name or "", reported.account_id, check_report_reason(body.reason),
        check_reason(body.text, required=False, limit=MAX_REPORT_TEXT), moderation.now()))
    return Reported(Report.of(made))
