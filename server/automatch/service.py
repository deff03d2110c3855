"""Automatch on one node: the seeks of this node's connections, the waves (when this
node holds the lease), and the game made when a table's last player accepts.

A node learns what happened to its players' seeks by reading their tickets every
`POLL_SECONDS` (whichever node formed the table or made the game), and pushes each
change to the player's connection: nothing is lost if a message would have been, and a
player who reconnects (to any node) is told where their seek stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from prometheus_client import Gauge, Histogram

from dominion.protocol import (
    ErrorCode,
    MatchCancelled,
    MatchFound,
    MatchReady,
    SeekState,
    SeekStatus,
    ServerMessage,
    ShownRating,
)

from ..cluster.node import ws_url
from ..play.clock import LOOP_CLOCK, Clock, sleep
from ..play.lobby import NEVER_HANDED_OUT, SeatHolder
from ..play.seat_tokens import hash_token
from ..ratings.model import INITIAL, Pool, Rating
from ..refusal import Refusal
from ..stopping import stop_tasks
from ..storage.records import GameState
from .queue import Counts, Queue, Table, Ticket, TicketState

if TYPE_CHECKING:
    from ..accounts import Account
    from ..accounts.store import RatingStore
    from ..metrics import Metrics
    from ..play.lobby import Lobby
    from ..play.room import Room
    from ..settings import Settings

log = logging.getLogger("dominion.automatch")
POLL_SECONDS = 0.25
"""How often a node reads its players' tickets (and the lease holder looks for lapsed
tables): the delay of a push, at most."""
LEASE_MARGIN = 1.0
"""Seconds the wave lease lasts beyond two waves: a busy holder keeps it, a dead one
loses it within a few seconds."""
WAIT_BUCKETS = (1, 2, 5, 10, 20, 30, 60, 120, 300, 600)

RatingLookup = Callable[["Account | None", str, Pool], Awaitable[Rating]]
"""A seeker's current rating in a pool: an account's (the ratings store's; wired at
start), or a guest's by their name (the store's answer: the initial rating)."""


def stored_ratings(store: RatingStore) -> RatingLookup:
    """An account's current rating in the pool from the ratings store (the initial one
    before its first rated game there); a guest's the initial rating. A store that cannot
    be reached refuses the seek (`accounts_unavailable`)."""
    async def lookup(account: Account | None, name: str, pool: Pool) -> Rating:
        if account is None:
            return INITIAL
        return (await store.ratings_of(account.id)).get(pool, INITIAL)
    return lookup


class Seeker(Protocol):
    """A connection that seeks."""

    def send(self, message: ServerMessage) -> None: ...


@dataclass
class _Watch:
    """What this node last told a local player about their seek."""

    seeker: Seeker
    token: str | None
    state: TicketState | None = None
    table: str | None = None


def account_player(account_id: int) -> str:
    """The queue's name for an account's seeks (a guest's is its token's hash)."""
    return f"a{account_id}"


class Automatch:
    def __init__(self, queue: Queue, lobby: Lobby, settings: Settings, metrics: Metrics,
                 ratings: RatingLookup, clock: Callable[[], float] = time.time,
                 timers: Clock = LOOP_CLOCK) -> None:
        self.queue = queue
        self._lobby = lobby
        self._settings = settings
        self._ratings = ratings
        self._clock = clock
        """Wall-clock time: the nodes of a cluster compare each other's stamps."""
        self._timers = timers
        """What the loop's turns wait on (tests move a virtual one)."""
        self.node = settings.node or "local"
        self._watching: dict[str, _Watch] = {}
        """Player -> this node's connection seeking as them."""
        self._players: dict[Seeker, str] = {}
        self.counts = Counts()
        """As of the last wave period (for /metrics; REST reads the queue itself)."""
        self._task: asyncio.Future[None] | None = None
        self._undecided: list[Room] = []
        """Games a restart found made but not started (`_decide_restored`)."""
        self._background: set[asyncio.Future[None]] = set()
        """What a failed queue left to do: seats handed out again, seeks withdrawn."""
        self._problem: str | None = None
        """Why the queue cannot be reached, while it cannot (said once, not each turn)."""
        lobby.on_account_removed = self._account_removed
        self._wait = Histogram("dominion_automatch_wait_seconds",
                               "Seconds from seek to game, per table size", ["size"],
                               buckets=WAIT_BUCKETS, registry=metrics.registry)
        waiting = Gauge("dominion_automatch_waiting",
                        "Seeks waiting (a seek of several sizes counts for each)", ["size"],
                        registry=metrics.registry)
        for size in range(2, 7):
            waiting.labels(size=str(size)).set_function(partial(self._waiting_for, size))
        Gauge("dominion_automatch_median_wait_seconds", "Median wait of the seeks waiting",
              registry=metrics.registry).set_function(lambda: self.counts.median_wait)

    def _waiting_for(self, size: int) -> float:
        return self.counts.waiting.get(size, 0)

    async def queue_counts(self) -> Counts:
        """The queue now, every node's (the lobby's counts)."""
        self.counts = await self.queue.counts(self._clock())
        return self.counts

    # -- requests ----------------------------------------------------------------

    async def seek(self, seeker: Seeker, address: str, account: Account | None,
                   name: str | None,
                   sizes: Sequence[int], edition: int, rated: bool,
                   token: str | None, acked: Callable[[], None]) -> None:
        """Start waiting (or take a seek up again after a reconnect); `acked` answers the
        request, before the pushes that follow it."""
        if seeker in self._players:
            raise Refusal(ErrorCode.ALREADY_SEEKING, "this connection is already seeking; "
                                                       "cancel it first")
        if rated and account is None:
            raise Refusal(ErrorCode.NOT_SIGNED_IN, "rated games need an account: sign in "
                                                     "with an access token in hello")
        if account is not None:
            for room, _ in self._lobby.seats_of(account):
                if room.state == GameState.PLAYING:  # matched, they would keep others waiting
                    raise Refusal(ErrorCode.ALREADY_SEATED, f"you play in game {room.id}: "
                                                              "finish it before seeking")
            if rated:  # else matched, they could not be seated and would keep others waiting
                await self._lobby.rated_claims.refuse_if_seated(account.id)
        seat_name = await self._lobby.name_for(name, account)
        fresh = account is None and token is None  # a new guest: a new player
        if account is not None:
            player, token = account_player(account.id), None
            strikes = player
        else:
            token = token or secrets.token_urlsafe(24)
            player = f"g{hash_token(token)[:32]}"
            strikes = f"address:{address}"
        ratings = {pool.value: await self._ratings(account, seat_name, pool) for pool in Pool}
        now = self._clock()
        try:
            ticket = await self.queue.seek(Ticket(
                player, seat_name, None if account is None else account.id,
                account is not None and account.bot, tuple(sorted(set(sizes))), edition,
                rated, {pool: (rating.mu, rating.sigma) for pool, rating in ratings.items()},
                now, 0.0, now, self.node, strikes), now)
        except Refusal:
            if fresh:
                # the seek may be stored all the same (its answer lost), under a token
                # nobody holds: withdraw it, lest it be matched and lapse in their name
                self._spawn(self._withdraw(player))
            raise
        old = self._watching.get(player)
        if old is not None:  # the same player from another of this node's connections
            self._players.pop(old.seeker, None)
        self._watching[player] = watch = _Watch(seeker, token)
        self._players[seeker] = player
        acked()
        if ticket.state is TicketState.WAITING:
            self._waiting(watch, ticket, now)
        await self._poll_now(player)  # anything else: a reconnect's table or game

    async def cancel(self, seeker: Seeker) -> None:
        player = self._seeking(seeker)
        await self.queue.cancel(player, self._clock())
        self._forget(player)

    async def answer(self, seeker: Seeker, table_id: str, accept: bool,
                     acked: Callable[[], None]) -> None:
        player = self._seeking(seeker)
        table = await self.queue.answer(player, table_id, accept, self._clock())
        acked()
        if table is not None:
            await self._make_game(table)
        await self._poll_now(player)

    def disconnected(self, seeker: Seeker) -> None:
        """The seek stays in the queue for the grace time (a reconnect takes it up)."""
        player = self._players.get(seeker)
        if player is not None:
            self._forget(player)

    def _seeking(self, seeker: Seeker) -> str:
        player = self._players.get(seeker)
        if player is None:
            raise Refusal(ErrorCode.NOT_SEEKING, "this connection is not seeking")
        return player

    def _forget(self, player: str) -> None:
        watch = self._watching.pop(player, None)
        if watch is not None:
            self._players.pop(watch.seeker, None)

    # -- the game ----------------------------------------------------------------

    async def _make_game(self, table: Table) -> None:
        """Everyone accepted: the game on this node, with every seat taken; the tokens go
        to the players through their tickets."""
        now = self._clock()
        try:
            tickets = await self.queue.tickets(list(table.players), now)
            holders = [SeatHolder(table.names[index],
                                  None if ticket is None else ticket.account,
                                  ticket is not None and ticket.bot_account)
                       for index, ticket in enumerate(tickets.values())]
            room, tokens = await self._lobby.create_matched(holders, table.edition,
                                                            rated=table.rated)
        except Exception:  # the request was acknowledged: its players are told by polls
            log.exception("making an automatch game failed", extra={"table": table.id})
            with contextlib.suppress(Refusal):  # else it lapses past its deadline
                await self.queue.dissolve(table, now)
            return
        seats = {player: (index, token) for index, (player, token)
                 in enumerate(zip(table.players, tokens, strict=True))}
        try:
            handed = await self.queue.seat(table, room.id, seats, self._clock())
        except Refusal as error:  # the queue cannot be reached: did the seats go out?
            log.warning("an automatch game's seats could not be handed out yet: %s",
                        error.message, extra={"game": room.id, "table": table.id})
            self._spawn(self._hand_out(table, room, seats))
            return
        await self._start_or_abandon(room, handed)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _account_removed(self, account_id: int) -> None:
        """A banned or deleted account: its seek leaves the queue (it was matched with
        real players and lapsed in their confirm window)."""
        player = account_player(account_id)
        self._forget(player)
        self._spawn(self._withdraw(player))

    async def _withdraw(self, player: str) -> None:
        with contextlib.suppress(Refusal):  # not stored, or the queue is still away
            await self.queue.cancel(player, self._clock())

    async def _hand_out(self, table: Table, room: Room,
                        seats: Mapping[str, tuple[int, str]]) -> None:
        """Ask again until the queue answers: either the seats went out (the first try's
        answer was lost), or the table lapsed meanwhile and its players wait on."""
        while True:
            await sleep(self._timers, POLL_SECONDS)
            with contextlib.suppress(Refusal):
                handed = await self.queue.seat(table, room.id, seats, self._clock())
                break
        await self._start_or_abandon(room, handed)

    async def _start_or_abandon(self, room: Room, handed: bool) -> None:
        """Start the game whose seats went out; abandon the one nobody was told of (its
        table lapsed first: its players wait on)."""
        if not handed:
            log.warning("an automatch game is abandoned: its seats never went out",
                        extra={"game": room.id})
            with contextlib.suppress(Refusal):  # closing: a restart decides again
                await room.abandon(NEVER_HANDED_OUT)
            return
        try:
            await room.start_if_full()
        except Exception:  # the storage failed: the loop tries again
            log.exception("an automatch game could not start", extra={"game": room.id})
            self._undecided.append(room)
            return
        log.info("automatch game made", extra={"game": room.id, "size": len(room.seats)})
        with contextlib.suppress(Refusal):  # else the mark expires with the queue's records
            await self.queue.started(room.id)

    async def _decide_restored(self) -> None:
        """A restart found games made but not started: the queue says whether their
        seats went out (start it) or not (abandon it: nobody was told of it)."""
        for room in list(self._undecided):
            try:
                handed = await self.queue.handed(room.id)
            except Refusal:
                return  # the queue is away: the next turn asks again
            self._undecided.remove(room)
            await self._start_or_abandon(room, handed)

    # -- the node's loop ---------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def close(self) -> None:
        # a game not handed out: a restart decides it
        await stop_tasks([*self._background, self._task])
        await self.queue.store.close()

    async def _run(self) -> None:
        await self._lobby.all_restored()  # a restart's games come back in the background
        self._undecided += [room for room in self._lobby.rooms.values() if room.state ==
                            GameState.OPEN and room.record.options.get("automatch")
                            and room not in self._undecided]
        settings = self._settings
        wave, grace = settings.automatch_wave_seconds, settings.automatch_grace_seconds
        timers = self._timers
        next_wave = next_refresh = timers.now()
        while True:
            await sleep(timers, POLL_SECONDS)
            try:
                if self._undecided:
                    await self._decide_restored()
                lease = await self.queue.store.lead(self.node, 2 * wave + LEASE_MARGIN)
                if lease and timers.now() >= next_wave:
                    next_wave = timers.now() + wave
                    await self.queue.wave(self._clock())
                elif lease:
                    await self.queue.expire(self._clock())
                if timers.now() >= next_refresh:
                    next_refresh = timers.now() + grace / 3
                    now = self._clock()
                    for player in list(self._watching):
                        await self.queue.refresh(player, self.node, now)
                    self.counts = await self.queue.counts(now)
                await self._poll(list(self._watching))
                if self._problem is not None:
                    log.info("automatch reaches its queue again", extra={"node": self.node})
                    self._problem = None
            except Refusal as error:  # Redis unreachable: the next turn tries again
                if self._problem is None:
                    log.warning("automatch: %s", error.message, extra={"node": self.node})
                self._problem = error.message
            except Exception:
                log.exception("automatch failed", extra={"node": self.node})

    async def _poll_now(self, player: str) -> None:
        """Tell the player at once, after their request's ack (which must stay its only
        answer: if the queue cannot be read now, the next turn of the loop tells them)."""
        with contextlib.suppress(Refusal):
            await self._poll([player])

    async def _poll(self, players: list[str]) -> None:
        """Tell each local player what changed about their seek."""
        if not players:
            return
        now = self._clock()
        tickets = await self.queue.tickets(players, now)
        offered = sorted({ticket.table for ticket in tickets.values() if ticket is not None
                          and ticket.state is TicketState.OFFERED and ticket.table})
        tables = await self.queue.tables(offered) if offered else {}
        for player, ticket in tickets.items():
            watch = self._watching.get(player)
            if watch is None:
                continue
            if ticket is None:  # lost: Redis restarted empty (nothing else deletes it)
                watch.seeker.send(SeekStatus(state=SeekState.ENDED, waited_ms=0))
                self._forget(player)
                continue
            if ticket.node != self.node:
                self._forget(player)  # taken up on another node
                continue
            if ticket.state is watch.state and ticket.table == watch.table:
                continue
            if watch.table is not None and ticket.table != watch.table \
                    and ticket.state is not TicketState.READY and ticket.reason is not None:
                watch.seeker.send(MatchCancelled(table=watch.table, reason=ticket.reason))
                if ticket.state is TicketState.OFFERED:  # a new table formed meanwhile
                    self._waiting(watch, ticket, now)
            if ticket.state is TicketState.WAITING:
                self._waiting(watch, ticket, now)
            elif ticket.state is TicketState.OFFERED and ticket.table:
                table = tables.get(ticket.table)
                if table is None:
                    continue  # dissolved meanwhile: the next poll tells
                watch.state, watch.table = ticket.state, table.id
                shown = table.shown_ratings()
                control = self._lobby.matched_time_control
                watch.seeker.send(MatchFound(
                    table=table.id, size=table.size, edition=table.edition, rated=table.rated,
                    players=table.names, deadline_ms=max(0, int((table.deadline - now) * 1000)),
                    ratings=None if shown is None else tuple(
                        ShownRating(rating.display, rating.provisional) for rating in shown),
                    time_control=None if control is None else control.message()))
            elif ticket.state is TicketState.READY and ticket.table and ticket.game \
                    and ticket.seat is not None and ticket.token:
                watch.seeker.send(MatchReady(table=ticket.table, game=ticket.game,
                                             seat=ticket.seat, token=ticket.token,
                                             ws_url=ws_url(ticket.game)))
                self._wait.labels(size=str(ticket.sizes[0])).observe(now - ticket.since)
                await self._done(player)
            elif ticket.state is TicketState.ENDED:
                watch.seeker.send(SeekStatus(state=SeekState.ENDED,
                                             waited_ms=_ms(now - ticket.since),
                                             reason=ticket.reason))
                await self._done(player)

    def _waiting(self, watch: _Watch, ticket: Ticket, now: float) -> None:
        watch.state, watch.table = ticket.state, None
        watch.seeker.send(SeekStatus(state=SeekState.WAITING, waited_ms=_ms(now - ticket.since),
                                     token=watch.token))

    async def _done(self, player: str) -> None:
        self._forget(player)
        await self.queue.delivered(player)


def _ms(seconds: float) -> int:
    return max(0, int(seconds * 1000))
