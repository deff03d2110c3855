"""Rematches at an ended table: the offer (who offered it, who has accepted, how it
ended) and the one machine that runs it, `Rematches`: offer, accept, decline, expiry,
and the new table, which it asks its `RematchTables` (the lobby) to make once every
player has accepted. A room holds one `Rematches`; bots accept at once.

The way is one-directional: connection → room (`Room.offer_rematch`, which only takes
the room's lock) → `Rematches` → lobby (`RematchTables.open_rematch`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from dominion.protocol import (
    ErrorCode,
    RematchCancelled,
    RematchEnd,
    RematchKingdom,
    RematchOffered,
    RematchStarted,
    encode_server,
)

from ..refusal import Refusal
from ..storage import GameState
from .clock import Clock, Timer

if TYPE_CHECKING:
    from .room import Room
    from .subscribers import Subscriber


class RematchState(StrEnum):
    STANDING = "standing"
    DECLINED = "declined"
    EXPIRED = "expired"
    STARTED = "started"


@dataclass(slots=True)
class Rematch:
    by: int
    """The seat that offered it."""
    kingdom: RematchKingdom
    address: str
    """The offerer's address: the new game counts against its limit of games."""
    deadline: float
    """When it expires, on the room's timers' clock."""
    accepted: list[int]
    waiting: list[int]
    state: RematchState = RematchState.STANDING
    timer: Timer | None = None
    new_game: str | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    """Once started: each player's token for the new game, for their connection only."""

    def check_standing(self) -> None:
        """Refuse an answer unless the offer stands (every player's seat is asked)."""
        if self.state is RematchState.EXPIRED:
            raise Refusal(ErrorCode.REMATCH_EXPIRED, "the rematch offer expired; offer "
                                                       "another")
        if self.state is not RematchState.STANDING:
            raise Refusal(ErrorCode.NO_REMATCH, f"no rematch offer stands (it {self.state})")

    def accept(self, seat: int) -> None:
        self.waiting.remove(seat)
        self.accepted.append(seat)

    def end(self, state: RematchState) -> None:
        self.state = state
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def no_offer_yet(rematch: Rematch | None) -> None:
    """Refuse a new offer while one stands or a rematch has started."""
    if rematch is None or rematch.state in (RematchState.DECLINED, RematchState.EXPIRED):
        return
    if rematch.state is RematchState.STARTED:
        raise Refusal(ErrorCode.REMATCH_PENDING, f"the rematch has started: game "
                                                   f"{rematch.new_game}")
    raise Refusal(ErrorCode.REMATCH_PENDING, "a rematch offer already stands; answer it")


def offered(rematch: Rematch | None) -> Rematch:
    if rematch is None:
        raise Refusal(ErrorCode.NO_REMATCH, "nobody offered a rematch")
    return rematch


class RematchTables(Protocol):
    """Where a rematch's new table is made (the lobby)."""

    def check_games_of(self, address: str) -> None:
        """Refuse an offer from an address that may make no more games."""

    async def open_rematch(self, old: Room, rematch: Rematch) -> None:
        """Make and start the new table; set `rematch.new_game` and the players' tokens."""


class NoRematchTables:
    """A room no lobby keeps makes no rematches."""

    def check_games_of(self, address: str) -> None:
        pass

    async def open_rematch(self, old: Room, rematch: Rematch) -> None:
        raise Refusal(ErrorCode.INTERNAL_ERROR, "this server makes no rematches")


class Rematches:
    """The rematch machine of one room. Its callers hold the room's lock."""

    __slots__ = ("_clock", "_room", "latest", "tables")

    def __init__(self, room: Room, clock: Clock) -> None:
        self._room = room
        self._clock = clock
        self.tables: RematchTables = NoRematchTables()
        """Makes the new game once every player accepted (set by the lobby that keeps
        the room)."""
        self.latest: Rematch | None = None
        """The latest rematch offer at this ended table."""

    @property
    def standing(self) -> bool:
        return self.latest is not None and self.latest.state is RematchState.STANDING

    async def offer(self, seat: int, kingdom: RematchKingdom | None, address: str,
                    on_accepted: Callable[[], None]) -> None:
        """`seat` offers everyone a new game with the same seats; bots accept at once,
        and so does the offerer. Refused before the end, while an offer stands, and when
        the address may make no more games (it is counted like a game it creates);
        `on_accepted` pays for it and acknowledges it, or refuses it."""
        self.tables.check_games_of(address)
        room = self._room
        if room.state not in (GameState.FINISHED, GameState.ABANDONED):
            raise Refusal(ErrorCode.GAME_NOT_OVER, "a rematch is offered once the game "
                                                     "has ended")
        no_offer_yet(self.latest)
        lasts = room.settings.rematch_seconds
        people = [s.index for s in room.seats if s.token_hash is not None]
        rematch = Rematch(
            seat, kingdom or RematchKingdom.SAME, address, self._clock.now() + lasts,
            accepted=[s.index for s in room.seats if s.index == seat or s.index not in people],
            waiting=[index for index in people if index != seat])
        on_accepted()  # may refuse it yet (the address's allowance), having changed nothing
        self.latest = rematch
        room.broadcast(self._offer_message(rematch))
        if rematch.waiting:
            rematch.timer = self._clock.call_later(lasts, self._expire, rematch)
        else:
            await self._start(rematch)

    async def answer(self, seat: int, accept: bool, on_accepted: Callable[[], None]) -> None:
        rematch = offered(self.latest)
        rematch.check_standing()
        on_accepted()
        if not accept:
            rematch.end(RematchState.DECLINED)
            self._room.broadcast(RematchCancelled(game=self._room.id,
                                                  reason=RematchEnd.DECLINED, by=seat))
            return
        if seat not in rematch.waiting:
            return  # accepted already: nothing changes
        rematch.accept(seat)
        if rematch.waiting:
            self._room.broadcast(self._offer_message(rematch))
        else:
            await self._start(rematch)

    async def _start(self, rematch: Rematch) -> None:
        if rematch.timer is not None:  # every player accepted in time
            rematch.timer.cancel()
            rematch.timer = None
        try:
            await self.tables.open_rematch(self._room, rematch)
        except Exception:
            rematch.end(RematchState.EXPIRED)
            self._room.broadcast(RematchCancelled(game=self._room.id,
                                                  reason=RematchEnd.EXPIRED))
            raise
        rematch.end(RematchState.STARTED)
        for subscriber, viewer in self._room.subscribers():
            self.send(subscriber, viewer)

    def _expire(self, rematch: Rematch) -> None:
        if rematch.state is RematchState.STANDING:
            rematch.end(RematchState.EXPIRED)
            self._room.broadcast(RematchCancelled(game=self._room.id,
                                                  reason=RematchEnd.EXPIRED))

    def _offer_message(self, rematch: Rematch) -> RematchOffered:
        left = rematch.deadline - self._clock.now()
        return RematchOffered(game=self._room.id, by=rematch.by, kingdom=rematch.kingdom,
                              accepted=tuple(sorted(rematch.accepted)),
                              waiting=tuple(rematch.waiting),
                              expires_ms=max(0, int(left * 1000)))

    def send(self, subscriber: Subscriber, viewer: int | None) -> None:
        """What a connection that (re)joins the table as `viewer` must know of a rematch:
        the offer standing, or the new game (with the seat's token for its own holder)."""
        rematch = self.latest
        if rematch is None:
            return
        if rematch.state is RematchState.STANDING:
            subscriber.push(encode_server(self._offer_message(rematch)))
        elif rematch.state is RematchState.STARTED and rematch.new_game is not None:
            token = None if viewer is None else rematch.tokens.get(viewer)
            subscriber.push(encode_server(RematchStarted(
                game=self._room.id, new_game=rematch.new_game,
                seat=viewer if token is not None else None, token=token)))

    def close(self) -> None:
        """For shutdown: the offer's timer stops."""
        if self.latest is not None and self.latest.timer is not None:
            self.latest.timer.cancel()
