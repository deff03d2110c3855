"""Which of a restart's games may come back without a live engine.

Replaying a game's answers is most of what a restart spends per game. A game that nothing
needs at once is brought back *dormant*: a room with its seats and answer log, counted
live and listed, whose engine is replayed the first time something needs it (`Room.game`:
a player or a spectator joining, a listing of it, a seat-grace timer's takeover, an
admin, a resignation). The others are replayed at once, as every game was before.
"""

from __future__ import annotations

from ..engine import Resignation
from ..storage import GameState, StoredGame
from ..time_control import TimeControl


def may_stay_dormant(stored: StoredGame) -> bool:
    """A running game that needs its engine at no set time: no clock (one runs, and times
    out, at once), no bot's seat (a bot plays its turn at once) and nobody resigned (a bot
    plays on for them). Whether its log ends the game is found when it is first needed,
    with the same outcome (`Room.awaken`); its seats' grace timers need it within
    `seat_grace_seconds` at the latest."""
    record = stored.game
    return (record.state == GameState.PLAYING and record.setup is not None
            and record.seed is not None and TimeControl.of_options(record.options) is None
            and all(seat.bot is None for seat in stored.seats)
            and not any(type(entry) is Resignation for entry in stored.answers))
