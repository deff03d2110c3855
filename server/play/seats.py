"""A table's seats: who holds each (a name, a token kept as a hash, an account, or an
in-server bot), the connection acting for it, and the bot that stands in for its person."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dominion.bots import Strategy

from ..storage import SeatRecord
from .clock import Timer

if TYPE_CHECKING:
    from .subscribers import Subscriber


@dataclass(slots=True)
class Seat:
    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    """Strategy of the in-server bot that sits here from the start (shown as a bot)."""
    joined_at: str | None = None
    account_id: int | None = None
    """The account that took the seat, if it was signed in (its devices may reclaim it)."""
    bot_account: bool = False
    """The account that took the seat is a bot account."""
    connection: Subscriber | None = None
    """The seat's connection: a newer one replaces it (close code 4006)."""
    absent_timer: Timer | None = None
    strategy: Strategy | None = None
    stand_in: str | None = None
    """Strategy of the bot that plays for the seat's person: after they resigned, or while
    a takeover holds it. Never shown: the seat is still theirs (see `SeatLeft`)."""
    taken_over: bool = False
    """A bot holds the seat because its player stayed away (they may take it back)."""
    taken_over_at: str | None = None
    """When a bot first took the seat over in this game (stored: a rated game ranks it
    last, after a restart too)."""

    @property
    def free(self) -> bool:
        return self.name is None

    @property
    def played_by(self) -> str | None:
        """The strategy of the bot that answers for the seat now, if a bot does."""
        return self.bot or self.stand_in

    @property
    def was_taken_over(self) -> bool:
        return self.taken_over_at is not None

    def record(self) -> SeatRecord:
        return SeatRecord(self.index, self.name, self.token_hash, self.bot, self.joined_at,
                          self.account_id, self.bot_account, self.taken_over_at)
