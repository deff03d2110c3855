"""A game room: the only place a live game changes.

Every change takes the same way through: check it against the engine without
applying it, make it durable in storage, apply it, then tell every subscriber what
their seat (or a spectator) may see. Bots and restored games use the same path.

`Room` is the façade the rest of the server uses. Each of its other concerns is a part
it is composed of and hands itself to (rather than a mixin: each part's state and the
room's methods it calls are plain to see, and a part is tested through the room):
`Rematches` (rematch.py), `Absence` (absence.py), `BotLoop` (bot_loop.py), `Resumes`
(resume.py), `Moderation` (moderation.py; chat too) and `Timekeeper` (timekeeper.py:
the players' clocks).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dominion.protocol import (
    ErrorCode,
    RatingChanged,
    RematchKingdom,
    ServerMessage,
    Unrated,
    encode_server,
)

from ..engine import Answer, Event, Game, IllegalAnswer, Resignation, ResignReason, Setup
from ..engine.rng import new_seed
from ..engine.view import Ownership
from ..ratings import Rating, RatingError, ranks
from ..ratings.ledger import RatedGame, RatedSeat
from ..refusal import Refusal
from ..replays import commitment_of
from ..stopping import stop_tasks
from ..storage import GameLog, GameRecord, GameState, StoredGame
from .absence import Absence
from .answer_log import AnswerLog
from .bot_loop import BotLoop
from .clock import LOOP_CLOCK, Clock, retry_seconds, utc_now
from .frames import Audience, change_frames, snapshot_frame
from .moderation import Moderation
from .rematch import Rematch, Rematches
from .resume import Resumes
from .seat_tokens import token_matches
from .seats import Seat
from .subscribers import Subscriber, Subscriptions
from .summary import summary_of
from .text import check_token
from .timekeeper import Timekeeper, turn_mark

if TYPE_CHECKING:
    from ..metrics import Metrics
    from ..settings import Settings
    from .history import HistoryCache
    from .thinking import BotWorkers

log = logging.getLogger("dominion.room")

OPEN, PLAYING, FINISHED, ABANDONED = GameState


class Room:
    __slots__ = ("_closed", "_dormant", "_game", "_lock", "_metrics", "_ownership",
                 "_settings", "_storage", "_subscribers", "_tasks", "_unreplayable",
                 "absence", "answers",
                 "bots", "id", "moderation", "on_changed", "on_ended", "on_unreplayable",
                 "ratings", "record", "rematches", "resumes", "seats", "timekeeper",
                 "unrated")

    def __init__(self, record: GameRecord, seats: list[Seat], storage: GameLog,
                 settings: Settings, metrics: Metrics, histories: HistoryCache, *,
                 workers: BotWorkers | None = None, clock: Clock = LOOP_CLOCK) -> None:
        self.record = record
        self.id = record.id
        self.seats = seats
        self._game: Game | None = None
        self._dormant = self._unreplayable = False
        """A restored game whose engine is not replayed yet (dormant.py): `game` replays it."""
        self._ownership = Ownership()
        """What each player owns, kept between the views of the game's changes."""
        self.answers = AnswerLog()
        """Every answer the live game has applied: with its set-up and seed, the game
        (the live `Game` keeps no history; resumes and replays re-derive it from this)."""
        self._storage = storage
        self._settings = settings
        self._metrics = metrics
        self._subscribers = Subscriptions()
        self._lock = asyncio.Lock()
        self.on_ended: Callable[[Room], None] = lambda room: None
        """Called once the game has ended (the lobby retires the room a little later)."""
        self.on_changed: Callable[[Room], None] = lambda room: None
        """Called when the public summary changed: seats, state, who is connected (not the
        turn: listings refresh that themselves, so that answers cost nothing more)."""
        self.on_unreplayable: Callable[[Room], None] = lambda room: None
        """Called when a dormant game's log does not replay (the lobby lets it go)."""
        self.rematches = Rematches(self, clock)
        """Its rematch offers, once the game has ended."""
        self.moderation = Moderation(self)
        """Its chat, and an admin's or the lobby's removals."""
        self.resumes = Resumes(self, histories)
        """What a returning connection missed; a spectator's replay."""
        self.absence = Absence(self, clock)
        """The timers of its seats' absent players."""
        self.bots = BotLoop(self, workers, clock)
        self.timekeeper = Timekeeper(self, clock)
        """The players' clocks, at a table that has them."""
        self._tasks: set[asyncio.Future[None]] | None = None  # made when needed (memory)
        self.ratings: dict[int, Rating] = {}
        """A rated table's accounts' ratings as they sat down, by account (the lobby reads
        them once: rate_seats), shown beside their names."""
        self.unrated: Unrated | None = None
        """Why a rated table's finished game is not rated (given up too early)."""
        self._closed = False
        """The server is shutting down: no more changes, bots or timers."""

    @property
    def spectator_chat(self) -> bool:
        """May spectators chat? (The creator's choice, `spectator_chat` in the options.)"""
        return bool(self.record.options.get("spectator_chat", True))

    @property
    def state(self) -> GameState:
        """open, playing, finished or abandoned (the record is the one place it is kept)."""
        return self.record.state

    @property
    def waiting_since(self) -> str:
        """When an open table last gained a player (or was made), as stored: it lapses
        some time after (lapse.py)."""
        return max([self.record.created_at,
                    *(seat.joined_at for seat in self.seats if seat.joined_at is not None)])

    # -- restore ---------------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredGame, storage: GameLog, settings: Settings,
                metrics: Metrics, histories: HistoryCache, *,
                workers: BotWorkers | None = None, clock: Clock = LOOP_CLOCK,
                dormant: bool = False) -> Room:
        """Rebuild a room from storage: its set-up, seed and answers, replayed (`dormant`:
        replayed when first needed, `game`; only for a game dormant.py allows)."""
        seats = [Seat(s.seat, s.name, s.token_hash, s.bot, s.joined_at, s.account_id,
                      s.bot_account, taken_over_at=s.taken_over_at)
                 for s in stored.seats]
        room = cls(stored.game, seats, storage, settings, metrics, histories, workers=workers,
                   clock=clock)
        record = stored.game
        if record.state == PLAYING and record.setup is not None and record.seed is not None:
            room.answers = AnswerLog(stored.answers)
            if dormant:
                room._dormant = True
            else:  # the clocks too, from what each answer charged; none for the downtime
                room._replay(stored.answers, stored.charged_ms)
        return room

    def _replay(self, entries: Sequence[Answer | Resignation], charged: Sequence[int]) -> Game:
        """The restored game's engine: its set-up, seed and `entries`, replayed."""
        record = self.record
        assert record.setup is not None and record.seed is not None
        game = self.timekeeper.start(Game(Setup.from_dict(record.setup), record.seed,
                                          history=False), entries, charged)
        self._game = game
        for resigned in game.resigned:
            self.seats[resigned].stand_in = self._settings.takeover_strategy
        return game

    @property
    def game(self) -> Game | None:
        """The live game (None: not started). A dormant one is replayed now: a log that
        does not replay is said in the log, the lobby lets the game go (it stays stored,
        as a restart that replays it at once leaves it) and UNKNOWN_GAME is raised."""
        if self._dormant:
            self._wake()
        return self._game

    @game.setter
    def game(self, game: Game | None) -> None:
        self._game = game

    @property
    def dormant(self) -> bool:
        """A restored game whose engine is not replayed yet."""
        return self._dormant

    def _wake(self) -> None:
        gone = Refusal(ErrorCode.UNKNOWN_GAME, f"no game {self.id!r}")
        if self._unreplayable:  # said and let go once already
            raise gone
        try:
            game = self._replay(list(self.answers), ())  # (a dormant game has no clocks)
        except Exception:
            self._unreplayable = True
            log.exception("a game could not be restored: it stays stored for the next start",
                          extra={"game": self.id})
            self.absence.stop_all()
            self.on_unreplayable(self)
            raise gone from None
        self._dormant = False
        if game.over:  # the server stopped between its last answer and its end
            self.spawn(self._finish_if_over())

    async def awaken(self) -> None:
        """Replay a dormant game now, and end it if its log shows it over, before anyone
        is given it (what a restart that replays it at once does)."""
        if self._dormant:
            self._wake()
            await self._finish_if_over()

    async def _finish_if_over(self) -> None:
        async with self._lock:
            game = self._game
            if self.state == PLAYING and game is not None and game.over:
                await self.finish(FINISHED, game.result.to_dict() if game.result else None)

    # -- the lobby's part ----------------------------------------------------

    def seat_for(self, token: str) -> Seat:
        """The seat this token holds (every seat is checked, in constant time each)."""
        check_token(token)
        found = None
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                found = seat
        if found is None:
            raise Refusal(ErrorCode.BAD_TOKEN, "this token holds no seat in this game")
        return found

    def seat_of_account(self, account_id: int) -> Seat | None:
        """The seat the account took in this game, if any."""
        return next((seat for seat in self.seats if seat.account_id == account_id), None)

    async def take_seat(self, name: str, token_hash: str, account_id: int | None = None,
                        bot_account: bool = False) -> Seat:
        async with self._lock:
            self.refuse_if_closed()
            if self.state != OPEN:
                raise Refusal(ErrorCode.GAME_STARTED, "the game has already started")
            if account_id is not None and self.seat_of_account(account_id) is not None:
                # one person, one seat: two seats of one account would rate each other
                raise Refusal(ErrorCode.ALREADY_SEATED, "you hold a seat at this table "
                                "already; take it up again with reclaim")
            free = next((s for s in self.seats if s.free), None)
            if free is None:
                raise Refusal(ErrorCode.GAME_FULL, "every seat is taken")
            self.evict(free)  # a new holder: nobody else may act for the seat
            free.name, free.token_hash, free.joined_at = name, token_hash, utc_now()
            free.account_id, free.bot_account = account_id, bot_account
            try:
                await self._storage.save_seat(self.id, free.record())
            except Exception:
                free.name = free.token_hash = free.joined_at = free.account_id = None
                free.bot_account = False
                raise
            self.on_changed(self)
            await self._start_if_full()
            return free

    async def free_seat(self, seat: Seat) -> None:
        async with self._lock:
            self.refuse_if_closed()
            if self.state != OPEN:
                raise Refusal(ErrorCode.GAME_STARTED,
                                "a running game cannot be left; resign instead")
            saved = (seat.name, seat.token_hash, seat.joined_at, seat.account_id,
                     seat.bot_account)
            seat.name = seat.token_hash = seat.joined_at = seat.account_id = None
            seat.bot_account = False
            try:
                await self._storage.save_seat(self.id, seat.record())
            except Exception:
                (seat.name, seat.token_hash, seat.joined_at, seat.account_id,
                 seat.bot_account) = saved
                raise
            self.evict(seat, "you gave up this seat")
            self.on_changed(self)

    async def give_new_token(self, seat: Seat, token_hash: str) -> None:
        """The seat's owner asks again from another device: a new token holds the seat,
        and the old one (and every connection on it) no longer does."""
        async with self._lock:
            self.refuse_if_closed()
            if self.state not in (OPEN, PLAYING):
                raise Refusal(ErrorCode.GAME_OVER, "the game has ended")
            saved = seat.token_hash
            seat.token_hash = token_hash
            try:
                await self._storage.save_seat(self.id, seat.record())
            except Exception:
                seat.token_hash = saved
                raise
            self.evict(seat, "your seat was taken up on another device")

    def evict(self, seat: Seat, reason: str = "the seat has a new holder") -> None:
        """End every connection's rights to `seat`: its holder changed (a leave, a new
        token). They are unsubscribed at once, then told and closed."""
        holders = self._subscribers.remove_holders(seat.index)
        seat.connection = None
        for holder in holders:
            holder.replaced(reason)

    async def start_if_full(self) -> None:
        async with self._lock:
            await self._start_if_full()

    async def _start_if_full(self) -> None:
        if self.state != OPEN or any(s.free for s in self.seats):
            return
        seed = new_seed()
        setup = Setup.create([s.name or "" for s in self.seats], edition=self.record.edition,
                             kingdom=list(self.record.kingdom),
                             first_player=self.record.options.get("first_player"))
        started = utc_now()
        commitment = commitment_of(seed)
        await self._storage.start_game(self.id, started_at=started, seed=seed,
                                       commitment=commitment, setup=setup.to_dict())
        self.game = Game(setup, seed, history=False)
        self.record = replace(self.record, state=PLAYING, started_at=started, seed=seed,
                              commitment=commitment, setup=setup.to_dict())
        self.timekeeper.start(self.game)
        self.timekeeper.run()
        self._metrics.live_games.inc()
        log.info("game started", extra={"game": self.id, "players": len(self.seats)})
        self.on_changed(self)
        for subscriber, viewer in self._subscribers.items():
            subscriber.push(self.snapshot_frame(viewer))
        for seat in self.seats:  # a player who never connects is waited for, then replaced
            if seat.connection is None:
                self.absence.await_return(seat)
        self.wake_bots()

    # -- subscribers -----------------------------------------------------------

    def subscribe(self, subscriber: Subscriber, seat: Seat | None) -> None:
        """Start sending this game to a connection (the caller sends the ack first)."""
        viewer = None if seat is None else seat.index
        if subscriber in self._subscribers and self._subscribers.viewer(subscriber) != viewer:
            self.unsubscribe(subscriber)  # from a seat to watching: the seat is let go
        if seat is not None:
            older = seat.connection
            if older is not None and older is not subscriber:
                self.unsubscribe(older)
                older.replaced("another connection took your seat")
            seat.connection = subscriber
            self.absence.returned(seat)
            self.timekeeper.refresh()
            self.on_changed(self)
        self._subscribers.add(subscriber, viewer)

    def send_snapshot(self, subscriber: Subscriber) -> None:
        if self.game is not None:
            subscriber.push(self.snapshot_frame(self._subscribers.viewer(subscriber)))
        self.rematches.send(subscriber, self._subscribers.viewer(subscriber))

    # -- resumes and replays (resume.py) ---------------------------------------------

    def resume_work(self, last_seq: int, seat: Seat | None, limit: int) -> int:
        return self.resumes.resume_work(last_seq, seat, limit)

    def send_since(self, subscriber: Subscriber, last_seq: int, limit: int) -> None:
        self.resumes.send_since(subscriber, last_seq, limit)

    def replay_work(self) -> int:
        return self.resumes.replay_work()

    def spectator_replay(self) -> dict[str, Any]:
        return self.resumes.spectator_replay()

    def events_so_far(self) -> Sequence[Event]:
        return self.resumes.events_so_far()

    def unsubscribe(self, subscriber: Subscriber) -> None:
        viewer = self._subscribers.remove(subscriber)
        if viewer is None:
            return
        seat = self.seats[viewer]
        if seat.connection is subscriber:
            seat.connection = None
            self.on_changed(self)
            self.absence.await_return(seat)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as a task the room keeps a reference to until it ends (or it closes)."""
        if self._closed:
            work.close()
            return
        task = asyncio.ensure_future(work)
        tasks = self._tasks = self._tasks or set()
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def resume_after_restart(self) -> None:
        """A restored game: its players are all away until they reconnect. One whose log
        shows it over (the server stopped between its last answer and its end) ends now."""
        if self.state != PLAYING:
            return
        self._metrics.live_games.inc()
        game = self._game
        if game is not None and game.over:
            await self._finish_if_over()
            return
        for seat in self.seats:
            self.absence.await_return(seat)
        if game is not None:  # (a dormant game has no clock and no bot to move)
            self.timekeeper.run()  # from now: the time the server was down is nobody's
            self.wake_bots()

    def viewer_of(self, subscriber: Subscriber) -> int | None:
        if subscriber not in self._subscribers:
            raise Refusal(ErrorCode.NOT_IN_GAME, f"this connection is not in game {self.id}")
        return self._subscribers.viewer(subscriber)

    # -- changes ----------------------------------------------------------------

    async def answer(self, seat: int, decision: int, options: object,
                     on_accepted: Callable[[], None] = lambda: None, *,
                     by_bot: bool = False) -> None:
        def check(game: Game) -> Answer:
            if by_bot and self.seats[seat].played_by is None:  # its player took the seat back
                raise Refusal(ErrorCode.STALE_DECISION, "the seat is no longer a bot's")
            return Answer(seat, decision, game.check_answer(seat, decision, options))

        await self._change(check, on_accepted)

    async def resign(self, seat: int, on_accepted: Callable[[], None] = lambda: None) -> None:
        def check(game: Game) -> Resignation:
            game.check_resign(seat)
            return Resignation(seat)

        await self._change(check, on_accepted)

    async def time_out(self, seat: int, decision: int) -> None:
        """The seat's clock ran out while decision `decision` waited on it: the server
        resigns for its player (as `resign`: a bot plays on for them, or the game ends).
        Nothing, if it was answered meanwhile; tried again if it cannot be stored."""
        def check(game: Game) -> Resignation:
            pending = game.pending
            if pending is None or pending.id != decision \
                    or self.timekeeper.clocks is None \
                    or self.timekeeper.clocks.running != seat:
                raise Refusal(ErrorCode.STALE_DECISION, "the clock no longer runs")
            game.check_resign(seat)
            return Resignation(seat, ResignReason.TIMED_OUT)

        while True:
            try:
                await self._change(check, lambda: None)
                return
            except Refusal as refused:
                if refused.code != ErrorCode.INTERNAL_ERROR or self._closed:
                    return  # answered, ended or resigned meanwhile; or the server stops
            await asyncio.sleep(retry_seconds())

    async def _change(self, check: Callable[[Game], Answer | Resignation],
                      on_accepted: Callable[[], None]) -> None:
        """Every change to a running game takes this way, one at a time: `check` makes its
        log entry (changing nothing; a refusal is a Refusal), the entry is made durable,
        then applied, acknowledged (`on_accepted`) and told to everyone. A new kind of
        change is one more `check`."""
        async with self._lock:
            game = self._running()
            try:
                entry = check(game)
            except IllegalAnswer as illegal:
                raise Refusal(illegal.code, illegal.message) from None
            charged = self.timekeeper.charge_for(entry.player)
            await self._store_answer(game, entry, charged)
            before = turn_mark(game)
            events = game.apply(entry)
            self.timekeeper.applied(game, entry.player, charged, before)
            self.answers.append(entry)
            self._keep_applied(entry)
            on_accepted()
            await self._tell_everyone(events)
        self.wake_bots()

    def _keep_applied(self, entry: Answer | Resignation) -> None:
        """What the room keeps besides the game once `entry` is applied."""
        if isinstance(entry, Resignation):  # a bot answers for the seat from now on
            seat = self.seats[entry.player]
            seat.stand_in = seat.stand_in or self._settings.takeover_strategy
            seat.taken_over = False  # for good: coming back no longer takes it back
        else:
            self._metrics.answers.inc()

    def _running(self) -> Game:
        self.refuse_if_closed()
        if self.game is None:
            raise Refusal(ErrorCode.GAME_NOT_STARTED, "the game has not started yet")
        if self.game.over or self.state != PLAYING:
            raise Refusal(ErrorCode.GAME_OVER, "the game is over")
        return self.game

    # -- a rematch (rematch.py runs it) -------------------------------------------

    async def offer_rematch(self, seat: int, kingdom: RematchKingdom | None, address: str,
                            on_accepted: Callable[[], None]) -> None:
        async with self._lock:
            self.refuse_if_closed()
            await self.rematches.offer(seat, kingdom, address, on_accepted)

    async def answer_rematch(self, seat: int, accept: bool,
                             on_accepted: Callable[[], None]) -> None:
        async with self._lock:
            self.refuse_if_closed()
            await self.rematches.answer(seat, accept, on_accepted)

    @property
    def rematch(self) -> Rematch | None:
        """The latest rematch offer at this ended table."""
        return self.rematches.latest

    @property
    def rematch_standing(self) -> bool:
        return self.rematches.standing

    @property
    def closed(self) -> bool:
        """The server is shutting down: no more changes, bots or timers."""
        return self._closed

    @property
    def lock(self) -> asyncio.Lock:
        """Held by every change, one at a time."""
        return self._lock

    @property
    def settings(self) -> Settings:
        return self._settings

    @property
    def storage(self) -> GameLog:
        return self._storage

    def viewer_or_none(self, subscriber: Subscriber) -> int | None:
        """The seat `subscriber` views (None: it watches, or it is not subscribed)."""
        return self._subscribers.viewer(subscriber)

    def subscribers(self) -> list[tuple[Subscriber, int | None]]:
        """Every connection the game is sent to, with the seat it views (None: watching)."""
        return self._subscribers.items()

    def refuse_if_closed(self) -> None:
        if self._closed:
            raise Refusal(ErrorCode.INTERNAL_ERROR,
                            "the server is shutting down; resume the game "
                                              "once it is back")

    async def close(self) -> None:
        """For shutdown, before the storage closes: let the change in progress finish,
        refuse any more, and stop the bots and the timers. The game stays as its log has
        it; a restarted server resumes it from there."""
        async with self._lock:
            self._closed = True
        self.rematches.close()
        self.absence.stop_all()
        self.timekeeper.stop()
        await stop_tasks([*(self._tasks or ()), self.bots.task])

    async def _store_answer(self, game: Game, entry: Answer | Resignation,
                            charged: int | None) -> None:
        try:
            await self._storage.append_answers(self.id, game.answer_count, [entry], utc_now(),
                                               charged_ms=[] if charged is None else [charged])
        except Exception:
            log.exception("could not store an answer", extra={"game": self.id})
            raise Refusal(ErrorCode.INTERNAL_ERROR, "the answer could not be stored; "
                                              "it was not applied") from None

    async def _tell_everyone(self, events: Sequence[Event]) -> None:
        """Send the latest change's `events` to every subscriber; finish if over."""
        game = self.game
        assert game is not None
        if game.over:
            # stored before anyone hears game_over, so its replay can be fetched at once
            await self.finish(FINISHED, game.result.to_dict() if game.result else None)
        self._subscribers.deliver(self.change_frames(events, self._subscribers.audiences()))
        if game.over and self.unrated is not None:  # after game_over: nothing to wait for
            self.broadcast(RatingChanged(self.id, (), self.unrated))

    async def finish(self, state: GameState, result: dict[str, Any] | None) -> None:
        """The game has ended: store that, then let the lobby retire the room. If the end
        cannot be stored, the game has ended all the same (its log says so, and a restart
        finishes it from there): the end is stored again later."""
        finished = utc_now()
        if self.record.state == PLAYING:  # an open table abandoned was never a live game
            self._metrics.live_games.dec()
        self.record = replace(self.record, state=state, finished_at=finished, result=result)
        self.absence.stop_all()
        self.timekeeper.stop()
        rated = self._rated_game(finished) if state == FINISHED else None
        try:
            await self._storage.finish_game(self.id, state=state, finished_at=finished,
                                            result=result, rated=rated)
        except Exception:
            log.exception("could not store the end of a game; trying again",
                          extra={"game": self.id})
            self.spawn(self._store_end_later(rated))
        log.info("game %s", state, extra={"game": self.id, "state": state,
                                          "winners": (result or {}).get("winners")})
        self.on_changed(self)
        self.on_ended(self)

    async def _store_end_later(self, rated: dict[str, Any] | None) -> None:
        record = self.record
        while True:
            await asyncio.sleep(retry_seconds())
            try:
                await self._storage.finish_game(self.id, state=record.state,
                                                finished_at=record.finished_at or utc_now(),
                                                result=record.result, rated=rated)
            except Exception:
                continue
            return

    def _rated_game(self, finished_at: str) -> dict[str, Any] | None:
        """A rated game's seats and ranks, for the ratings' outbox (None: not rated). A
        seat that resigned or that a bot took over is ranked last. A game in which some
        seat resigned before it began `rated_min_turns` turns of its own is not rated
        (`aborted`: the ledger keeps it for moderators, changing no rating): a loss given
        away on the first turn rated a colluder up for free."""
        game = self.game
        if not self.record.rated or game is None or game.result is None:
            return None
        short = min(game.own_turns(seat.index) for seat in self.seats)
        aborted = short < self._settings.rated_min_turns
        if aborted:  # unrated, as a chess server aborts a game; kept for moderators
            log.info("rated game too short to rate", extra={"game": self.id, "turns": short})
            self.unrated = Unrated.TOO_SHORT
        order = ranks(game.result, [seat.index for seat in self.seats if seat.was_taken_over])
        try:
            return RatedGame(self.id, finished_at, tuple(
                RatedSeat(seat.index, rank, seat.account_id,
                          None if seat.account_id is not None else seat.bot)
                for seat, rank in zip(self.seats, order, strict=True)), aborted).to_dict()
        except RatingError:  # a seat neither an account nor a bot: a bug, not the game's end
            log.exception("a rated game cannot be rated", extra={"game": self.id})
            return None

    # -- chat and moderation (moderation.py) ---------------------------------------

    async def chat(self, seat: int | None, name: str, text: str) -> int:
        return await self.moderation.chat(seat, name, text)

    async def remove_chat_line(self, line: int) -> bool:
        return await self.moderation.remove_chat_line(line)

    async def abandon(self, reason: str) -> None:
        await self.moderation.abandon(reason)

    async def lapse(self, since: str, reason: str) -> bool:
        return await self.moderation.lapse(since, reason)

    async def remove_account(self, account_id: int, reason: str) -> None:
        await self.moderation.remove_account(account_id, reason)

    def broadcast(self, message: ServerMessage) -> None:
        self._subscribers.broadcast(encode_server(message))

    def wake_bots(self) -> None:
        """Let bots answer while the pending decision is a bot's (bot_loop.py)."""
        self.bots.wake()

    # -- frames ----------------------------------------------------------------

    def snapshot_frame(self, viewer: int | None) -> bytes:
        assert self.game is not None
        return snapshot_frame(self.id, self.game, viewer, self.timekeeper.state())

    def change_frames(self, events: Sequence[Event], audiences: Collection[Audience]
                       ) -> dict[Audience, list[bytes]]:
        assert self.game is not None
        return change_frames(self.id, self.game, events, audiences, self._ownership,
                             self.timekeeper.state())

    # -- for the lobby's listings -------------------------------------------------

    def summary(self) -> dict[str, Any]:
        game = self.game
        return summary_of(self.record, [seat.record() for seat in self.seats],
                          connected={s.index for s in self.seats if s.connection is not None},
                          turn=game.turn.number if game else 0,
                          resigned=game.resigned if game else (), ratings=self.ratings)


