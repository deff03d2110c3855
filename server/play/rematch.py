"""A rematch offer at an ended table: who offered it, who has accepted, and how it ended.

The room holds at most one offer at a time (`Room.offer_rematch`); the lobby makes the
new game once every player has accepted (`Lobby.start_rematch`). Bots accept at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from dominion.protocol import ErrorCode, RematchKingdom

from ..errors import GameError
from .clock import Timer


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
            raise GameError(ErrorCode.REMATCH_EXPIRED, "the rematch offer expired; offer "
                                                       "another")
        if self.state is not RematchState.STANDING:
            raise GameError(ErrorCode.NO_REMATCH, f"no rematch offer stands (it {self.state})")

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
        raise GameError(ErrorCode.REMATCH_PENDING, f"the rematch has started: game "
                                                   f"{rematch.new_game}")
    raise GameError(ErrorCode.REMATCH_PENDING, "a rematch offer already stands; answer it")


def offered(rematch: Rematch | None) -> Rematch:
    if rematch is None:
        raise GameError(ErrorCode.NO_REMATCH, "nobody offered a rematch")
    return rematch
