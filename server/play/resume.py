"""A room's resumes and replays: a connection that comes back gets the events it missed
(or a snapshot), and a running game's history is re-derived from its answers for them
and for a spectator's replay, through the server's cache of histories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dominion.protocol import ProtocolError

from ..engine import Event, Game, Setup
from ..replays import spectator_replay

if TYPE_CHECKING:
    from .history import HistoryCache
    from .room import Room
    from .seats import Seat
    from .subscribers import Subscriber


class Resumes:
    __slots__ = ("_histories", "_room")

    def __init__(self, room: Room, histories: HistoryCache) -> None:
        self._room = room
        self._histories = histories

    def resume_work(self, last_seq: int, seat: Seat | None, limit: int) -> int:
        """The work a resume after `last_seq` by `seat` (None: a spectator) will do, in
        events re-derived and sent (none for a snapshot, which costs what a `watch` does)."""
        room = self._room
        missed = self._count_missed(last_seq, None if seat is None else seat.index, limit)
        if not missed:
            return 0
        assert room.game is not None
        return self._histories.replay_cost(room.id, room.game.event_count) + missed

    def send_since(self, subscriber: Subscriber, last_seq: int, limit: int) -> None:
        """The events after `last_seq` and the current decision, or a snapshot (see
        `_count_missed`)."""
        room = self._room
        game = room.game
        if game is None:
            return
        viewer = room.viewer_or_none(subscriber)
        missed = self._count_missed(last_seq, viewer, limit)
        if missed is None:
            subscriber.push(room.snapshot_frame(viewer))
            return
        events = self.events_so_far()[game.event_count - missed:] if missed else []
        audience = (viewer, subscriber.version)
        try:
            frames = room.change_frames(events, [audience])[audience]
        except ProtocolError:  # too many events for one update frame: a snapshot says it all
            frames = [room.snapshot_frame(viewer)]
        for frame in frames:
            subscriber.push(frame)
        room.rematches.send(subscriber, room.viewer_or_none(subscriber))

    def _count_missed(self, last_seq: int, viewer: int | None, limit: int) -> int | None:
        """How many events a resume after `last_seq` sends, or None for a snapshot: when
        `last_seq` is not an event of this game, or for a spectator, when it missed more
        than `resume_window` events or they would cost more than `limit` work. A seat
        always gets its own events (what it saw, its own cards among them, which no
        snapshot holds), up to the events one update may hold."""
        room = self._room
        game = room.game
        if game is None:
            return 0
        latest = game.event_count
        missed = latest - last_seq
        if not 0 <= missed <= latest:
            return None
        if viewer is None and missed and (
                missed > room.settings.resume_window
                or self._histories.replay_cost(room.id, latest) + missed > limit):
            return None
        return missed

    def replay_work(self) -> int:
        """The work of `events_so_far`, in events re-derived and sent."""
        room = self._room
        game = room.game
        if game is None:
            return 0
        return self._histories.replay_cost(room.id, game.event_count) + game.event_count

    def spectator_replay(self) -> dict[str, Any]:
        """The game so far as a spectator may see it (docs/REPLAYS.md); its work is
        `replay_work`."""
        room = self._room
        game = room.game
        return spectator_replay(room.record, [seat.record() for seat in room.seats], game,
                                () if game is None else self.events_so_far())

    def events_so_far(self) -> Sequence[Event]:
        """Every event of the running game: its answer log re-derived (the live game keeps
        no history), through the server's cache of histories."""
        room = self._room
        game, record = room.game, room.record
        assert game is not None and record.setup is not None and record.seed is not None
        setup, seed = record.setup, record.seed
        return self._histories.events(
            room.id, lambda: Game(Setup.from_dict(setup), seed), room.answers,
            game.answer_count)
