"""A table's chat and its moderation: chat lines stored, an admin's removal of a line or
of the game, an open table's lapse, a banned account's seats given up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dominion.protocol import ChatRemoved, ErrorCode, GameAbandoned

from ..refusal import Refusal
from ..storage import GameState
from .clock import utc_now

if TYPE_CHECKING:
    from .room import Room


class Moderation:
    __slots__ = ("_room",)

    def __init__(self, room: Room) -> None:
        self._room = room

    async def chat(self, seat: int | None, name: str, text: str) -> int:
        """Store a chat line; its number (what `chat_removed` names)."""
        room = self._room
        return await room.storage.append_chat(room.id, at=utc_now(), seat=seat, name=name,
                                              text=text)

    async def remove_chat_line(self, line: int) -> bool:
        """An admin removes a line: kept in the log, marked, and hidden from everyone now
        (and from every replay); False when the game has no such line to remove."""
        room = self._room
        removed = await room.storage.remove_chat(room.id, line, utc_now())
        if removed:
            room.broadcast(ChatRemoved(game=room.id, line=line))
        return removed

    async def abandon(self, reason: str) -> None:
        """An admin ends the game with no result; everyone is told why."""
        room = self._room
        async with room.lock:
            room.refuse_if_closed()
            if room.state not in (GameState.OPEN, GameState.PLAYING):
                raise Refusal(ErrorCode.GAME_OVER, "the game has ended")
            await room.finish(GameState.ABANDONED, None)
        room.broadcast(GameAbandoned(game=room.id, reason=reason))

    async def lapse(self, since: str, reason: str) -> bool:
        """An open table that has gained no player since `since` ends with no result, and
        everyone connected to it is told why; False, having done nothing, if it started,
        ended or gained a player meanwhile, or the server is stopping."""
        room = self._room
        async with room.lock:
            if room.closed or room.state != GameState.OPEN or room.waiting_since != since:
                return False
            await room.finish(GameState.ABANDONED, None)
        room.broadcast(GameAbandoned(game=room.id, reason=reason))
        return True

    async def remove_account(self, account_id: int, reason: str) -> None:
        """A banned account leaves: its seat is freed in an open table, resigned in a
        running game (a bot plays it on, as for any resignation: docs/RULES.md), and every
        connection holding it is closed."""
        room = self._room
        for seat in [seat for seat in room.seats if seat.account_id == account_id]:
            try:
                if room.state == GameState.OPEN:
                    await room.free_seat(seat)
                elif room.game is not None and seat.index not in room.game.resigned:
                    await room.resign(seat.index)
            except Refusal:  # ended, or the server is stopping: nothing left to take
                pass
            room.evict(seat, reason)
