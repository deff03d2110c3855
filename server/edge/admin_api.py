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

from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ..accounts import Account
from ..accounts.moderation import (
    MAX_REPORT_TEXT,
    PAGE_MAX,
    AdminAction,
    Moderation,
    Report,
    SanctionKind,
    check_reason,
    check_report_reason,
)
from ..errors import GameError
from ..play.text import check_token
from .accounts_api import refuse_cross_site
from .addresses import client_address
from .filters import MAX_OFFSET
from .moderation_watch import BANNED_SEAT, close_banned_accounts, close_banned_addresses
from .prefixes import client_key
from .rest import read_json
from .sessions import signed_in
from .state import MODERATION, STATE


async def _admin(request: web.Request) -> tuple[Moderation, Account]:
    """The moderation service and the signed-in admin, once the address has paid."""
    request.config_dict[STATE].budgets.charge("admin", client_key(request), 1)
    moderation = request.config_dict[MODERATION]
    return moderation, await moderation.require_admin(await signed_in(request))


async def _changing(request: web.Request) -> tuple[Moderation, Account, dict[str, Any]]:
    refuse_cross_site(request)
    moderation, admin = await _admin(request)
    return moderation, admin, await read_json(request)


def _page(request: web.Request) -> tuple[int, int]:
    try:
        limit = int(request.query.get("limit", "50"))
        offset = int(request.query.get("offset", "0"))
    except ValueError:
        raise GameError(ErrorCode.BAD_PAGING, "limit and offset are whole numbers") from None
    if not 1 <= limit <= PAGE_MAX or not 0 <= offset <= MAX_OFFSET:
        raise GameError(ErrorCode.BAD_PAGING, f"limit is 1 to {PAGE_MAX}; offset is 0 to "
                                              f"{MAX_OFFSET}")
    return limit, offset


def add_admin_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.get("/admin")
    async def who_is_admin(request: web.Request) -> web.Response:
        _, admin = await _admin(request)
        return web.json_response({"admin": {"id": admin.id, "name": admin.name}})

    @routes.get("/admin/reports")
    async def reports(request: web.Request) -> web.Response:
        moderation, _ = await _admin(request)
        found = await moderation.store.reports(*_page(request))
        return web.json_response({"reports": [report.to_dict() for report in found]})

    @routes.get("/admin/audit")
    async def audit(request: web.Request) -> web.Response:
        moderation, _ = await _admin(request)
        found = await moderation.store.audit_log(*_page(request))
        return web.json_response({"entries": [entry.to_dict() for entry in found]})

    @routes.get("/admin/sanctions")
    async def sanctions(request: web.Request) -> web.Response:
        moderation, _ = await _admin(request)
        await moderation.refresh()
        return web.json_response({"sanctions": [s.to_dict() for s in moderation.live()]})

    async def sanction(request: web.Request, kind: SanctionKind, target: str
                       ) -> web.Response:
        moderation, admin, body = await _changing(request)
        state = request.config_dict[STATE]
        # the admin's own address and the proxies in front: a ban of theirs locks out
        protected = (client_address(request), request.remote or "",
                     *state.settings.trusted_proxies)
        made = await moderation.sanction(admin, kind, body.get(target), body.get("reason"),
                                         body.get("seconds"), protected)
        if kind is SanctionKind.BAN and made.account_id is not None:
            close_banned_accounts(moderation, state.connections)
            await state.lobby.remove_account(made.account_id, BANNED_SEAT)
        elif kind is SanctionKind.ADDRESS_BAN:
            close_banned_addresses(moderation, state.connections)
        return web.json_response({"sanction": made.to_dict()}, status=201)

    @routes.post("/admin/bans")
    async def ban(request: web.Request) -> web.Response:
        return await sanction(request, SanctionKind.BAN, "name")

    @routes.post("/admin/mutes")
    async def mute(request: web.Request) -> web.Response:
        return await sanction(request, SanctionKind.MUTE, "name")

    @routes.post("/admin/address-bans")
    async def ban_address(request: web.Request) -> web.Response:
        return await sanction(request, SanctionKind.ADDRESS_BAN, "prefix")

    @routes.post(r"/admin/sanctions/{sanction_id:\d{1,18}}/lift")
    async def lift(request: web.Request) -> web.Response:
        moderation, admin, body = await _changing(request)
        await moderation.lift(admin, int(request.match_info["sanction_id"]),
                              body.get("reason"))
        return web.json_response({"lifted": True})

    @routes.get("/games/{game_id}/admin/chat")
    async def game_chat(request: web.Request) -> web.Response:
        await _admin(request)
        state = request.config_dict[STATE]
        game_id = request.match_info["game_id"]
        state.lobby.summary(game_id)  # unknown_game for a game this node does not hold
        return web.json_response({"lines": state.storage.chat(game_id, removed=True)})

    @routes.post(r"/games/{game_id}/admin/chat/{line:\d{1,18}}/remove")
    async def remove_chat_line(request: web.Request) -> web.Response:
        moderation, admin, body = await _changing(request)
        reason = check_reason(body.get("reason"))
        game_id, line = request.match_info["game_id"], int(request.match_info["line"])
        state = request.config_dict[STATE]
        room = state.lobby.rooms.get(game_id)
        if room is not None:
            removed = await room.remove_chat_line(line)
        else:
            state.lobby.summary(game_id)  # unknown_game
            removed = await state.storage.remove_chat(game_id, line, moderation.now().strftime(
                "%Y-%m-%dT%H:%M:%SZ"))
        if not removed:
            raise GameError(ErrorCode.NOT_FOUND, f"game {game_id} has no chat line {line} "
                                                 "to remove")
        await moderation.note(admin, AdminAction.REMOVE_CHAT_LINE,
                              f"game {game_id} line {line}", reason)
        return web.json_response({"removed": True})

    @routes.post("/games/{game_id}/admin/abandon")
    async def abandon(request: web.Request) -> web.Response:
        moderation, admin, body = await _changing(request)
        reason = check_reason(body.get("reason"))
        room = request.config_dict[STATE].lobby.room(request.match_info["game_id"])
        await room.abandon(reason)
        await moderation.note(admin, AdminAction.ABANDON_GAME, f"game {room.id}", reason)
        return web.json_response({"game": room.summary()})

    @routes.post("/games/{game_id}/reports")
    async def report(request: web.Request) -> web.Response:
        state = request.config_dict[STATE]
        state.budgets.charge("reports", client_key(request), 1)
        body = await read_json(request)
        room = state.lobby.room(request.match_info["game_id"])
        reporter = room.seat_for(check_token(body.get("token")))
        seat = body.get("seat")
        reported = room.seats[seat] if type(seat) is int and 0 <= seat < len(room.seats) \
            else None
        if reported is None or reported is reporter or reported.free:
            raise GameError(ErrorCode.NOT_A_PLAYER, "seat is the number of another player's "
                                                    "seat in this game")
        moderation = request.config_dict[MODERATION]
        made = await moderation.report(Report(
            room.id, reporter.index, reporter.name or "", reporter.account_id, reported.index,
            reported.name or "", reported.account_id, check_report_reason(body.get("reason")),
            check_reason(body.get("text", ""), required=False, limit=MAX_REPORT_TEXT),
            moderation.now()))
        return web.json_response({"report": made.to_dict()}, status=201)

    app.router.add_routes(routes)
