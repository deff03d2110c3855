"""The lobby: creating, listing, joining and leaving tables; restoring them at start."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from dominion.bots import STRATEGIES, BotPace
from dominion.protocol import ErrorCode, RematchKingdom, ServerMessage

from ..engine import InvalidSetup, Setup
from ..engine.setup import MAX_PLAYERS, MIN_PLAYERS, set_name
from ..ratings import INITIAL, Pool, Rating, pool_for
from ..ratings.ledger import BOT_MU
from ..refusal import Refusal
from ..storage import GameRecord, Storage, StoredGame
from .clock import LOOP_CLOCK, Clock, utc_now
from .clocks import TimeControl
from .dormant import may_stay_dormant
from .history import HistoryCache
from .lapse import Lapses
from .rated_claims import RatedClaims
from .rematch import Rematch
from .room import FINISHED, OPEN, PLAYING, Room
from .seat_tokens import hash_token, new_game_id, new_token
from .seats import Seat
from .summary import summary_of
from .text import check_name, check_token

if TYPE_CHECKING:
    from ..accounts import Account, Accounts
    from ..accounts.moderation import Moderation
    from ..metrics import Metrics
    from ..settings import Settings
    from .thinking import BotWorkers

log = logging.getLogger("dominion.lobby")
RESTORE_PAGE_GAMES = 1000
"""How many games a restart reads at a time (a page of 40-answer games: ~20 MB)."""
RESTORE_SLICE_SECONDS = 0.02
"""How long a restart rebuilds games before the loop serves again (a page's games are
rebuilt over many turns)."""
DELETED_PLAYER = "deleted player"
"""What a deleted account's seats show (no account can be named so: it has a space)."""
NEVER_HANDED_OUT = "automatch made this game but could not hand out its seats"
"""Why an automatch game is abandoned before it starts: nobody was told of it (its
players wait on in the queue)."""


class SeatHolder(NamedTuple):
    """Who takes a seat of a table made for them (automatch)."""

    name: str
    account_id: int | None
    bot_account: bool


class Lobby:
    def __init__(self, storage: Storage, settings: Settings, metrics: Metrics,
                 accounts: Accounts | None = None, moderation: Moderation | None = None,
                 *, workers: BotWorkers | None = None, clock: Clock = LOOP_CLOCK) -> None:
        self._storage = storage
        self._clock = clock
        """The timers' clock, its rooms' too."""
        self._workers = workers
        """Where the rooms' bots that think answer (None: in the event loop)."""
        self._accounts = accounts
        """Whose names guests may not take (None: no accounts, as in tools and tests)."""
        self.moderation = moderation
        """Who is banned or muted now (None: no accounts, as in tools and tests)."""
        self._settings = settings
        self._metrics = metrics
        self.rooms: dict[str, Room] = {}
        self.on_room_changed: Callable[[Room], None] = lambda room: None
        """Told when a room's public summary changes (the cluster's directory listens)."""
        self.ratings_of: Callable[[int], Awaitable[Mapping[Pool, Rating]]] | None = None
        """An account's current ratings (the account store's; None: no accounts), read as
        it sits down at a rated table, to show beside its name."""
        self.histories = HistoryCache(settings.resume_cache_events)
        self._kingdoms = random.Random()
        """Draws random Kingdoms (seeding a new generator per game costs more than the rest
        of creating it; the cards of a Kingdom are public anyway)."""
        self._creators: dict[str, str] = {}
        """Open or running room's id -> the address that created it."""
        self.on_account_removed: Callable[[int], None] = lambda account_id: None
        """Told when a banned or deleted account leaves this node (automatch withdraws its
        seek)."""
        self.on_rated_finished: Callable[[], None] = lambda: None
        """Told when a rated game's end is stored (its result waits in the outbox)."""
        self.on_game_ended: Callable[[], None] = lambda: None
        """Told when any game's end is stored (it waits for the archive: play/archive.py)."""
        self.rename_archived: Callable[[int, str], Awaitable[None]] = _renamed_nowhere
        """Renames a deleted account's seats in the archive of ended games."""
        self._rated_seats_taken = asyncio.Lock()
        """Held while a seat at a rated table is checked and taken (`_rated_seating`)."""
        self.rated_claims = RatedClaims(settings.node or "local")
        """The accounts' live rated seats this node claimed, shared across nodes."""
        self._live_by_address: dict[str, set[str]] = {}
        """Address -> its open or running rooms, for the per-address limit (kept, not
        counted at each creation: a busy server has thousands of rooms)."""
        self._lapses = Lapses(settings.open_table_seconds, clock)
        """Open tables nobody joins lapse (lapse.py)."""
        self._unrestored: OrderedDict[str, StoredGame] = OrderedDict()
        """A restart's games read but not rebuilt yet, oldest first (a page of them)."""
        self._read_up_to: tuple[str, str] | None = None
        """The (created time, id) of the last game a restart's read has handed over: games
        after it are still to be read (None: none read yet)."""
        self._restored_ahead: set[str] = set()
        """Games `find` rebuilt before the restart's read came to them (their page skips
        them: it may have read them before they changed)."""
        self._made_while_restoring: set[str] = set()
        """Games made here while a restart's read went on: no restart's games, though the
        read may come to their rows (their page skips them; a second room rebuilt from
        the log would leave two rooms of one game, each appending at its own count)."""
        self._all_restored = asyncio.Event()
        self._all_restored.set()  # until a restore is expected, no game is missing

    async def restore(self) -> int:
        """Rebuild every unfinished game from storage, oldest first; return how many.
        The server runs it in the background while it serves, a page of games at a time
        (bounded memory): it reads the next page while it rebuilds one, and rebuilds for
        at most RESTORE_SLICE_SECONDS between two turns of the loop. A client that asks
        for a game not rebuilt yet has it rebuilt at once (`find`)."""
        self.expect_restore()
        count = 0
        reading = asyncio.ensure_future(self._read_page(None))
        try:
            while page := await reading:
                last = page[-1].game
                self._read_up_to = (last.created_at, last.id)
                reading = asyncio.ensure_future(self._read_page(self._read_up_to))
                page = [stored for stored in page
                        if stored.game.id not in self._made_while_restoring]
                count += len(page)
                self._unrestored.update((stored.game.id, stored) for stored in page
                                        if not self._ahead(stored.game.id))
                await self._rebuild_page()
            count += len(self._restored_ahead)  # ended before their page was read
        finally:
            reading.cancel()  # (the restore was cancelled: no next page is wanted)
            self._restored_ahead.clear()
            self._made_while_restoring.clear()
            self._all_restored.set()  # (cancelled, or failed: nothing more will come back)
        log.info("restored games", extra={"count": count})
        return count

    async def _read_page(self, after: tuple[str, str] | None) -> list[StoredGame]:
        """The next page of unfinished games, read in a thread: the loop serves on."""
        return await asyncio.to_thread(self._storage.unfinished_games, after,
                                       RESTORE_PAGE_GAMES)

    def _ahead(self, game_id: str) -> bool:
        """Whether `find` rebuilt this game before its page came (then forgotten: each
        game is in one page)."""
        if game_id in self._restored_ahead:
            self._restored_ahead.discard(game_id)
            return True
        return False

    async def _rebuild_page(self) -> None:
        """Rebuild the page's games, oldest first, yielding to the loop every
        RESTORE_SLICE_SECONDS (a game per turn would starve it of nothing but time)."""
        loop = asyncio.get_running_loop()
        while self._unrestored:
            turn_ends = loop.time() + RESTORE_SLICE_SECONDS
            while self._unrestored and loop.time() < turn_ends:
                await self._restore_or_keep(self._unrestored.popitem(last=False)[1])
            await asyncio.sleep(0)

    def expect_restore(self) -> None:
        """From now until `restore` ends, `find` waits for the games it brings back."""
        self._read_up_to = None
        self._all_restored.clear()

    @property
    def restoring(self) -> bool:
        """Whether a restart's games are still being rebuilt."""
        return not self._all_restored.is_set()

    async def all_restored(self) -> None:
        """Wait until every game of a restart is back (at once if none is missing)."""
        await self._all_restored.wait()

    async def find(self, game_id: str) -> Room:
        """`room`, but a game a restart has not rebuilt yet is waited for and rebuilt now,
        never refused: taken from its page if that was read, else read alone."""
        if game_id not in self.rooms and not self._all_restored.is_set() \
                and game_id not in self._made_while_restoring:
            if game_id not in self._unrestored:
                alone = await asyncio.to_thread(self._storage.load_game, game_id)
                if (alone is not None and game_id not in self.rooms
                        and game_id not in self._unrestored and self._unread(alone.game)):
                    self._restored_ahead.add(game_id)  # its page will skip it
                    await self._restore(alone)
            if game_id in self._unrestored:  # (its page came meanwhile)
                await self._restore(self._unrestored.pop(game_id))
        room = self.room(game_id)
        await room.awaken()  # a dormant game: replayed before the client has it
        return room

    def _unread(self, game: GameRecord) -> bool:
        """An unfinished game the restart's read has not come to yet (one it has passed is
        back, or stays stored: it did not replay)."""
        return (game.state in (OPEN, PLAYING) and not self._all_restored.is_set()
                and (self._read_up_to is None
                     or (game.created_at, game.id) > self._read_up_to))

    async def _restore_or_keep(self, stored: StoredGame) -> None:
        """Rebuild one game of a restart; one whose log does not replay (a damaged file, or
        a bug) is said in the log and stays stored as it is, and the others come back."""
        try:
            await self._restore(stored)
        except Exception:
            log.exception("a game could not be restored: it stays stored for the next start",
                          extra={"game": stored.game.id})

    async def _restore(self, stored: StoredGame) -> None:
        """Rebuild one stored game: in the lobby before anything awaits. One that nothing
        needs at once comes back dormant (dormant.py), on one node: a cluster's directory
        publishes every running game's turn, which needs its engine."""
        dormant = not self._settings.redis and may_stay_dormant(stored)
        room = Room.restore(stored, self._storage, self._settings, self._metrics,
                            self.histories, workers=self._workers, clock=self._clock,
                            dormant=dormant)
        self._keep(room)
        room.on_unreplayable = self._let_go
        if room.record.rated:  # only rated: a task per room costs seconds at 100,000 games
            room.spawn(self.rate_seats(room))  # the start waits for no other store
        await room.resume_after_restart()
        if room.record.rated and room.state in (OPEN, PLAYING):
            for seat in room.seats:  # claimed again at the directory's next heartbeat
                if seat.account_id is not None:
                    self.rated_claims.settle(seat.account_id, room.id)
        self.on_room_changed(room)  # a directory started before it was back publishes it

    def _let_go(self, room: Room) -> None:
        """A dormant game whose log does not replay: no longer live here (it stays stored,
        as a restart that replays it at once leaves it)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._metrics.live_games.dec()

    async def close(self) -> None:
        """For shutdown: stop every room (its changes, bots and timers) before the storage
        closes."""
        await self._lapses.close()
        await asyncio.gather(*(room.close() for room in list(self.rooms.values())))
        await self.rated_claims.close()

    def room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is None:
            raise Refusal(ErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        return room

    async def create(self, request: Mapping[str, Any], address: str,
                     account: Account | None = None, *, rated: bool = False
                     ) -> tuple[Room, str]:
        """Create a table from a validated request; return it and the creator's token.
        `account`: the one the request is signed in as, if any; `rated`: a rated table
        (`rated_option` reads a request's), which only accounts may sit at."""
        self.check_games_of(address)
        if rated and account is None:
            raise needs_account("a guest cannot create a rated table")
        async with self._rated_seating([account.id] if rated and account else []):
            return await self._create(request, address, account, rated=rated)

    async def _create(self, request: Mapping[str, Any], address: str,
                      account: Account | None, *, rated: bool) -> tuple[Room, str]:
        name = await self.name_for(request.get("name"), account)
        seats = request.get("seats")
        if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise Refusal(ErrorCode.BAD_SEATS,
                            f"seats is a number from {MIN_PLAYERS} to {MAX_PLAYERS}")
        bots = _bot_seats(request.get("bots", {}), seats)
        unrated = sorted({strategy for strategy in bots.values() if strategy not in BOT_MU})
        if rated and unrated:
            raise Refusal(ErrorCode.BAD_BOTS, f"no fixed rating for {', '.join(unrated)}: "
                                                "not at a rated table")
        control = table_time_control(request, rated, self._settings)
        pace = table_bot_pace(request, account, self._settings)
        edition = request.get("edition", 2)
        if type(edition) is not int:  # not True, not 2.0
            raise Refusal(ErrorCode.BAD_EDITION, f"edition must be 1 or 2, not {edition!r}")
        spectator_chat = request.get("spectator_chat", True)
        if not isinstance(spectator_chat, bool):
            raise Refusal(ErrorCode.BAD_OPTION, "spectator_chat is true or false")
        kingdom = request.get("kingdom")
        if kingdom is not None and not isinstance(kingdom, str | list):
            raise Refusal(ErrorCode.BAD_KINGDOM, "kingdom is null (random), a recommended set's "
                                           "name, or a list of 10 card ids")
        try:
            setup = Setup.create(seats, edition=edition, kingdom=kingdom, rng=self._kingdoms)
        except InvalidSetup as invalid:
            raise Refusal(invalid.code, invalid.message) from None
        room_seats = [Seat(i) for i in range(seats)]
        token = _seat(room_seats[0], SeatHolder(
            name, account.id if account is not None else None,
            account is not None and account.bot))
        for index, strategy in bots.items():
            room_seats[index].name = f"Bot {index + 1} ({strategy})"
            room_seats[index].bot = strategy
        room = await self._open(
            setup, room_seats, ({} if spectator_chat else {"spectator_chat": False})
            | ({"rated": True} if rated else {}) | time_control_option(control)
            | bot_pace_option(pace),
            set_name(kingdom, setup.edition) if isinstance(kingdom, str) else None, address)
        log.info("game created", extra={"game": room.id, "seats": seats, "bots": len(bots),
                                        "edition": setup.edition, "address": address})
        await room.start_if_full()
        return room, token

    async def create_matched(self, holders: Sequence[SeatHolder], edition: int, *,
                             rated: bool) -> tuple[Room, list[str]]:
        """A table made by automatch, every seat taken (a random Kingdom); the seats'
        tokens in seat order. Counted against no address. Automatch starts it once its
        seats have gone out (`Room.start_if_full`), or abandons it (`NEVER_HANDED_OUT`);
        one still open at a restart is decided by the queue (`Automatch.start`)."""
        setup = Setup.create(len(holders), edition=edition, rng=self._kingdoms)
        seats = [Seat(i) for i in range(len(holders))]
        tokens = [_seat(seat, holder) for seat, holder in zip(seats, holders, strict=True)]
        accounts = [holder.account_id for holder in holders if holder.account_id is not None]
        async with self._rated_seating(accounts if rated else []):
            room = await self._open(setup, seats,
                                    {"automatch": True} | ({"rated": True} if rated else {})
                                    | time_control_option(self.matched_time_control)
                                    | bot_pace_option(self._settings.bot_pace),
                                    None, None)
        log.info("automatch game created", extra={"game": room.id, "seats": len(seats),
                                                  "rated": rated})
        return room, tokens

    @property
    def matched_time_control(self) -> TimeControl | None:
        """The clock of automatch's tables, rated or not (`rated_time_control`)."""
        return TimeControl.parse(self._settings.rated_time_control)

    async def _open(self, setup: Setup, seats: list[Seat], options: dict[str, Any],
                    kingdom_name: str | None, address: str | None) -> Room:
        record = GameRecord(
            id=new_game_id(self._settings.node), created_at=utc_now(), state=OPEN,
            edition=setup.edition, seats=len(seats), kingdom=setup.kingdom,
            kingdom_name=kingdom_name, options=options)
        await self._store_new(record, seats)
        room = Room(record, seats, self._storage, self._settings, self._metrics,
                    self.histories, workers=self._workers, clock=self._clock)
        self._keep(room, address)
        self._metrics.games_created.inc()
        await self.rate_seats(room)
        return room

    async def _store_new(self, record: GameRecord, seats: list[Seat]) -> None:
        """Store a game made here (a restart's read, if one goes on, skips it)."""
        if self.restoring:
            self._made_while_restoring.add(record.id)
        await self._storage.create_game(record, [seat.record() for seat in seats])

    async def rate_seats(self, room: Room) -> None:
        """A rated table's accounts' ratings in its pool, read once as each sits down (the
        room keeps them: never read again per frame or listing); a store that cannot be
        reached leaves them out."""
        if not room.record.rated or self.ratings_of is None:
            return
        pool = pool_for(len(room.seats))
        read = False
        for account in {seat.account_id for seat in room.seats} - room.ratings.keys():
            if account is None:
                continue
            try:
                room.ratings[account] = (await self.ratings_of(account)).get(pool, INITIAL)
            except Refusal as refused:
                log.warning("a seat's rating cannot be read: %s", refused.message)
                continue
            read = True
        if read:
            room.on_changed(room)

    def check_games_of(self, address: str) -> None:
        """Refuse a new game (or a rematch offer) from an address that has its allowance
        of open or running games."""
        if len(self._live_by_address.get(address, ())) >= self._settings.games_per_address:
            raise Refusal(ErrorCode.TOO_MANY_GAMES,
                            f"at most {self._settings.games_per_address} open or running "
                            "games per address")

    def _keep(self, room: Room, address: str | None = None) -> None:
        """A new or restored room: in the lobby, and (made here) counted against the
        address that made it."""
        room.on_ended = self._retire
        room.on_changed = self._room_changed
        room.rematches.tables = self
        self.rooms[room.id] = room
        if address is not None:
            self._creators[room.id] = address
            self._live_by_address.setdefault(address, set()).add(room.id)
        self._lapses.watch(room)

    async def open_rematch(self, old: Room, rematch: Rematch) -> None:
        """Every player accepted: a new table with the same seats (new tokens for the
        players, the same bots), edition and options, the same Kingdom or a fresh one,
        started at once; the player after the last game's first player starts."""
        record = old.record
        same = rematch.kingdom is RematchKingdom.SAME
        count = len(old.seats)
        first = 0 if old.game is None else (old.game.first_player + 1) % count
        setup = Setup.create(count, edition=record.edition,
                             kingdom=list(record.kingdom) if same else None,
                             rng=self._kingdoms, first_player=first)
        seats = [Seat(seat.index) for seat in old.seats]
        for new, was in zip(seats, old.seats, strict=True):
            new.name, new.account_id, new.joined_at = was.name, was.account_id, utc_now()
            if was.token_hash is None:
                new.bot = was.bot
            else:
                rematch.tokens[new.index] = token = new_token()
                new.token_hash = hash_token(token)
        made = GameRecord(
            id=new_game_id(self._settings.node), created_at=utc_now(), state=OPEN,
            edition=setup.edition, seats=count, kingdom=setup.kingdom,
            kingdom_name=record.kingdom_name if same else None,
            options=record.options | {"first_player": first, "rematch_of": old.id})
        accounts = [seat.account_id for seat in seats if seat.account_id is not None]
        async with self._rated_seating(accounts if record.rated else []):
            await self._store_new(made, seats)
            room = Room(made, seats, self._storage, self._settings, self._metrics,
                        self.histories, workers=self._workers, clock=self._clock)
            self._keep(room, rematch.address)
        self._metrics.games_created.inc()
        await self.rate_seats(room)
        rematch.new_game = room.id
        log.info("rematch created", extra={"game": room.id, "rematch_of": old.id})
        await room.start_if_full()

    async def join(self, game_id: str, name: object, account: Account | None = None
                   ) -> tuple[Room, Seat, str]:
        room = await self.find(game_id)
        if room.record.rated and account is None:
            raise needs_account("a rated table seats signed-in players only: sign in to join")
        token, seated_as = new_token(), await self.name_for(name, account)
        async with self._rated_seating([account.id] if room.record.rated and account else [],
                                       room):
            seat = await room.take_seat(seated_as, hash_token(token),
                                        account.id if account is not None else None,
                                        account is not None and account.bot)
        await self.rate_seats(room)
        return room, seat, token

    @contextlib.asynccontextmanager
    async def _rated_seating(self, accounts: Sequence[int], table: Room | None = None
                             ) -> AsyncIterator[None]:
        """Around taking seats at a rated table (`accounts`: whose; none: not rated):
        refuses an account that holds a seat in another live rated game, on this node or
        (its claim, rated_claims.py) another, checked and taken as one step. One person
        plays one rated game at a time: two would let them run two seats against the
        same players."""
        if not accounts:
            yield
            return
        async with self._rated_seats_taken:
            for account_id in accounts:
                for room, _ in self.seats_of_account(account_id):
                    if room.record.rated and room is not table:
                        raise Refusal(ErrorCode.ALREADY_SEATED, f"you hold a seat in the "
                                      f"rated game {room.id}: finish it, or leave its "
                                      "table, first")
            claimed: list[int] = []
            try:
                for account_id in accounts:
                    await self.rated_claims.claim(account_id)
                    claimed.append(account_id)
                yield
            finally:
                for account_id in claimed:
                    self.rated_claims.settle(account_id, next(
                        (room.id for room, _ in self.seats_of_account(account_id)
                         if room.record.rated), None))

    def seats_of(self, account: Account) -> list[tuple[Room, Seat]]:
        """The account's seats in this node's open and running games."""
        return self.seats_of_account(account.id)

    def seats_of_account(self, account_id: int) -> list[tuple[Room, Seat]]:
        return [(room, seat) for room in self.rooms.values() if room.state in (OPEN, PLAYING)
                for seat in room.seats if seat.account_id == account_id]

    async def reclaim(self, game_id: str, account: Account) -> tuple[Room, Seat, str]:
        """A new token for the account's seat in this game (its other devices' lapses)."""
        room = await self.find(game_id)
        seat = room.seat_of_account(account.id)
        if seat is None:
            raise Refusal(ErrorCode.NOT_A_PLAYER, "you hold no seat in this game")
        token = new_token()
        await room.give_new_token(seat, hash_token(token))
        return room, seat, token

    async def forget_account(self, account: Account) -> None:
        """The account was deleted: its seats, live and stored on this node, show
        DELETED_PLAYER instead of its name (its games stay whole)."""
        await self.forget_account_seats(account.id)

    async def forget_account_seats(self, account_id: int) -> None:
        """`forget_account` by the account's id (another node deleted it). Its seats are
        renamed, then given up as a banned account's are: its seat tokens play no more.
        Renamed first: a game the resignation ends leaves the live rooms, and the summary
        it last published must already show the placeholder."""
        for room in self.rooms.values():
            mine = [seat for seat in room.seats if seat.account_id == account_id]
            for seat in mine:
                seat.name = DELETED_PLAYER
            if mine:
                room.on_changed(room)
        await self._storage.rename_account_seats(account_id, DELETED_PLAYER)
        await self.rename_archived(account_id, DELETED_PLAYER)
        await self.remove_account(account_id, "the account was deleted")

    async def remove_account(self, account_id: int, reason: str) -> None:
        """A banned account's seats on this node: freed or resigned, their connections
        closed (Room.remove_account)."""
        self.on_account_removed(account_id)
        for room in list(self.rooms.values()):
            await room.remove_account(account_id, reason)

    async def leave(self, game_id: str, token: object) -> None:
        room = await self.find(game_id)
        await room.free_seat(room.seat_for(check_token(token)))

    def listing(self, filters: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        """This node's game summaries matching `filters` (see `filters.game_filters`),
        newest first: those the archive of ended games does not have (it lists the others:
        play/archive.py)."""
        records, total = self._storage.list_games(**filters, archived=False)
        return [self.summary(record.id, record) for record in records], total

    def summary(self, game_id: str, record: GameRecord | None = None) -> dict[str, Any]:
        """A live room's summary, or an ended game's from storage."""
        room = self.rooms.get(game_id)
        if room is not None:
            with contextlib.suppress(Refusal):  # a dormant game that did not replay: gone
                return room.summary()
        if record is None:
            stored = self._storage.load_game(game_id)
            if stored is None:
                raise Refusal(ErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
            record = stored.game
        return summary_of(record, self._storage.seats(game_id))

    async def name_for(self, name: object, account: Account | None) -> str:
        """A seat's name: a signed-in player's is their account's (so that it names
        their profile, /@/NAME); a guest's may not be an account's (nor look like one)."""
        if account is not None:
            if self.moderation is not None:
                self.moderation.refuse_banned(account.id)
            return account.name
        checked = check_name(name)
        if self._accounts is not None:
            holder = await self._accounts.holder_of(checked)
            if holder is not None:
                raise Refusal(ErrorCode.NAME_TAKEN, f"{checked!r} is a registered player's "
                                                      "name: sign in to play as them")
        return checked

    def broadcast(self, game_id: str, message: ServerMessage) -> None:
        """To a room's subscribers, if the room is still kept (an ended game's is, for a
        while)."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.broadcast(message)

    def _room_changed(self, room: Room) -> None:
        self._lapses.watch(room)
        if room.record.rated:
            self.rated_claims.room_changed(room)
        self.on_room_changed(room)

    def _retire(self, room: Room) -> None:
        """An ended game no longer counts against its creator, and leaves memory after a
        while (its replay stays in storage)."""
        if room.record.rated:
            self.rated_claims.room_changed(room)
            if room.state == FINISHED:
                self.on_rated_finished()
        self.on_game_ended()
        address = self._creators.pop(room.id, None)
        if address is not None:
            live = self._live_by_address[address]
            live.discard(room.id)
            if not live:
                del self._live_by_address[address]

        self.histories.forget(room.id)

        def forget() -> None:
            if room.rematch_standing:  # kept until the offer ends
                self._clock.call_later(self._settings.ended_room_seconds, forget)
                return
            self.rooms.pop(room.id, None)
        self._clock.call_later(self._settings.ended_room_seconds, forget)


async def _renamed_nowhere(account_id: int, name: str) -> None:
    """No archive (a lobby on its own, in tests)."""


def rated_option(raw: object) -> bool:
    """A create request's `rated`: true or false (false when not given)."""
    if not isinstance(raw, bool):
        raise Refusal(ErrorCode.BAD_OPTION, "rated is true or false")
    return raw


def table_time_control(request: Mapping[str, Any], rated: bool, settings: Settings
                       ) -> TimeControl | None:
    """A create request's clock: its `time_control`, or the server's default for a rated
    or an unrated table (`rated_time_control`, `unrated_time_control`). A rated table
    always has one."""
    if "time_control" not in request:
        return TimeControl.parse(settings.rated_time_control if rated
                                 else settings.unrated_time_control)
    control = TimeControl.from_request(request["time_control"])
    if control is None and rated:
        raise Refusal(ErrorCode.BAD_TIME_CONTROL, "a rated table always has a clock")
    return control


def time_control_option(control: TimeControl | None) -> dict[str, Any]:
    """A table's options for its clock (none: no key)."""
    return {} if control is None else {"time_control": control.to_dict()}


def needs_account(why: str) -> Refusal:
    return Refusal(ErrorCode.RATED_NEEDS_ACCOUNT, why)
def _seat(seat: Seat, holder: SeatHolder) -> str:
    """The seat taken by `holder`; its new token."""
    token = new_token()
    seat.name, seat.token_hash, seat.joined_at = holder.name, hash_token(token), utc_now()
    seat.account_id, seat.bot_account = holder.account_id, holder.bot_account
    return token


def table_bot_pace(request: Mapping[str, Any], account: Account | None,
                   settings: Settings) -> BotPace:
    """A create request's `bot_pace`, or the server's (`bot_pace`); a bot account's table
    is instant unless it asks (nobody need watch bots play bots)."""
    if "bot_pace" not in request:
        return BotPace.INSTANT if account is not None and account.bot else settings.bot_pace
    raw = request["bot_pace"]
    paces = {pace.value: pace for pace in BotPace}
    if not isinstance(raw, str) or raw not in paces:
        raise Refusal(ErrorCode.BAD_OPTION, f"bot_pace is one of {', '.join(paces)}, "
                                            f"not {raw!r}")
    return paces[raw]


def bot_pace_option(pace: BotPace) -> dict[str, Any]:
    """A table's options for its bots' pace (instant, as tables made before paces: no key)."""
    return {} if pace == BotPace.INSTANT else {"bot_pace": pace.value}


def _bot_seats(bots: object, seats: int) -> dict[int, str]:
    """`{"1": "big_money"}` (seat -> strategy); seat 0 is the creator's."""
    if not isinstance(bots, dict):
        raise Refusal(ErrorCode.BAD_BOTS, "bots maps seat numbers to strategy names")
    chosen: dict[int, str] = {}
    for key, strategy in bots.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3
                and str(int(key)) == key):
            raise Refusal(ErrorCode.BAD_BOTS, f"{key!r} is not a seat number")
        index = int(key)
        if not 1 <= index < seats:
            raise Refusal(ErrorCode.BAD_BOTS, f"bot seats are 1 to {seats - 1}; seat 0 is yours")
        if not isinstance(strategy, str) or strategy not in STRATEGIES:
            raise Refusal(ErrorCode.BAD_BOTS, f"unknown strategy {strategy!r}; "
                                        f"known: {', '.join(STRATEGIES)}")
        chosen[index] = strategy
    return chosen
