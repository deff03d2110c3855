"""The rules of the queue, written once over a `Store` (store.py): seeking, the waves
that claim players for tables, confirming, dissolving, and the counts the lobby shows.

Records, under these keys (a `RedisStore` prefixes them with `dominion:am:`):

    ticket:PLAYER    a player's seek and where it stands (waiting, offered a table,
                     ready: the game made, ended: declined or lapsed); alive until its
                     node stops refreshing it plus the grace time (a reconnect keeps it)
    table:ID         a formed table: its players, who accepted, the deadline
    strikes:WHOSE    declined or lapsed tables, fading (penalty.py): an account's, or a
                     guest's address prefix's (a guest's next seek is another player);
                     several close together set the player apart
    handed:GAME      the seats of a game made went out, and it has not started yet (a
                     node restarted in between starts it; one without the mark abandons
                     it: nobody was told of it)
    tickets, tables  sets of the players and tables there are

Every change of several records is atomic (`Store.change`): a player claimed for one
table cannot be claimed for another, whichever node forms the wave.
"""

from __future__ import annotations

import secrets
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from dominion.protocol import ErrorCode, MatchEnd

from ..ratings.model import Pool, Rating, pool_for
from ..refusal import Refusal
from .matcher import Seek, form_tables
from .penalty import DEFAULT_APART, Apart, Strikes
from .store import Record, Store, Writes

TICKETS = "tickets"
TABLES = "tables"
STARTING_SECONDS = 10.0
"""How long past its deadline a fully accepted table may take to make its game before
its players go back to the queue (the node making it died)."""
ENDED_SECONDS = 30.0
"""How long an ended seek stays, for its node to tell the player why."""


class TicketState(StrEnum):
    WAITING = "waiting"
    OFFERED = "offered"
    READY = "ready"
    ENDED = "ended"


class TableState(StrEnum):
    PENDING = "pending"
    STARTING = "starting"
    """Everyone accepted; one node is making the game."""


@dataclass(frozen=True, slots=True)
class Ticket:
    player: str
    name: str
    account: int | None
    bot_account: bool
    sizes: tuple[int, ...]
    edition: int
    rated: bool
    ratings: dict[str, tuple[float, float]]
    """Pool -> (mu, sigma), looked up when the seek began."""
    since: float
    penalty: float
    alive_until: float
    node: str
    strikes: str
    """Whom declines and lapses count against: the account, or a guest's address's
    network prefix (edge/prefixes.py: a new name, or a new address of it, is no escape)."""
    state: TicketState = TicketState.WAITING
    table: str | None = None
    reason: MatchEnd | None = None
    """Why the seek ended, or (waiting again) why its last table was dissolved."""
    game: str | None = None
    seat: int | None = None
    token: str | None = None
    """The seat's token, while READY (until the player's node has handed it over)."""
    apart_until: float = 0.0
    """Until then matched only with others set apart (penalty.py), as of the seek."""

    def record(self) -> Record:
        return asdict(self)

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Ticket:
        values = dict(record)
        values["sizes"] = tuple(values["sizes"])
        values["ratings"] = {pool: tuple(pair) for pool, pair in values["ratings"].items()}
        values["state"] = TicketState(values["state"])
        values["reason"] = None if values["reason"] is None else MatchEnd(values["reason"])
        return cls(**values)

    def seek(self) -> Seek:
        return Seek(self.player, frozenset(self.sizes), self.edition, self.rated,
                    {Pool(pool): Rating(mu, sigma) for pool, (mu, sigma) in self.ratings.items()},
                    self.since, self.penalty, self.apart_until)


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    size: int
    edition: int
    rated: bool
    players: tuple[str, ...]
    names: tuple[str, ...]
    strikes: tuple[str, ...]
    """Each player's `Ticket.strikes`."""
    deadline: float
    accepted: tuple[str, ...] = ()
    state: TableState = TableState.PENDING
    ratings: tuple[tuple[float, float], ...] = ()
    """A rated table's: each player's (mu, sigma) in its pool, as their seek began."""

    def record(self) -> Record:
        return asdict(self)

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Table:
        values = dict(record)
        for name in ("players", "names", "strikes", "accepted"):
            values[name] = tuple(values[name])
        values["ratings"] = tuple(tuple(pair) for pair in values.get("ratings", ()))
        values["state"] = TableState(values["state"])
        return cls(**values)

    def shown_ratings(self) -> tuple[Rating, ...] | None:
        """A rated table's players' ratings, in the order of `players` (None: unrated)."""
        if not self.rated or len(self.ratings) != len(self.players):
            return None
        return tuple(Rating(mu, sigma) for mu, sigma in self.ratings)


@dataclass(frozen=True, slots=True)
class Counts:
    """What the lobby shows: seeks waiting per table size (a seek of 3 or 4 counts for
    both) and the median wait of those waiting."""

    waiting: dict[int, int] = field(default_factory=dict)
    median_wait: float = 0.0


def ticket_key(player: str) -> str:
    return f"ticket:{player}"


def table_key(table: str) -> str:
    return f"table:{table}"


def handed_key(game: str) -> str:
    return f"handed:{game}"


def strikes_key(whose: str) -> str:
    return f"strikes:{whose}"


def _strikes(record: Record | None) -> Strikes:
    if record is None:
        return Strikes()
    return Strikes(record["count"], record["at"], tuple(record.get("recent", ())))


def _strikes_record(strikes: Strikes) -> Record:
    return {"count": strikes.count, "at": strikes.at, "recent": list(strikes.recent)}


def _ticket(record: Record | None, now: float) -> Ticket | None:
    """A ticket that is still alive."""
    if record is None:
        return None
    ticket = Ticket.of(record)
    return ticket if ticket.alive_until >= now else None


class Queue:
    def __init__(self, store: Store, confirm_seconds: float, grace_seconds: float,
                 apart: Apart = DEFAULT_APART) -> None:
        self.store = store
        self._confirm = confirm_seconds
        self._grace = grace_seconds
        self._apart = apart

    # -- a player's seek ---------------------------------------------------------

    async def seek(self, wanted: Ticket, now: float) -> Ticket:
        """Start waiting, or (the same player, within the grace time) take the seek up
        again where it stands: its place, a table offered, a game made."""
        key, strikes = ticket_key(wanted.player), strikes_key(wanted.strikes)

        def change(found: Mapping[str, Record | None]) -> tuple[Ticket, Writes]:
            held = _ticket(found[key], now)
            alive = now + self._grace
            if held is not None and held.state is not TicketState.ENDED:
                ticket = replace(held, node=wanted.node, alive_until=alive)
                if held.state is TicketState.WAITING:  # new preferences, the same place
                    ticket = replace(ticket, sizes=wanted.sizes, edition=wanted.edition,
                                     rated=wanted.rated, name=wanted.name,
                                     ratings=wanted.ratings)
            else:
                counted = _strikes(found[strikes])
                ticket = replace(wanted, since=now, alive_until=alive,
                                 penalty=counted.penalty(now),
                                 apart_until=counted.apart_until(now, self._apart))
            writes = Writes(put={key: ticket.record()})
            writes.index(TICKETS, ticket.player)
            return ticket, writes
        return await self.store.change((key, strikes), change)

    async def refresh(self, player: str, node: str, now: float) -> None:
        """The player's node still holds their connection: the seek stays alive."""
        key = ticket_key(player)

        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            held = _ticket(found[key], now)
            if held is None or held.node != node:
                return None, Writes()
            return None, Writes(put={key: replace(held, alive_until=now + self._grace).record()})
        await self.store.change((key,), change)

    async def cancel(self, player: str, now: float) -> None:
        """Stop waiting; cancelling a table offered declines it."""
        held = await self.tickets([player], now)
        ticket = held[player]
        if ticket is not None and ticket.state is TicketState.OFFERED and ticket.table:
            await self.answer(player, ticket.table, False, now)
            return
        key = ticket_key(player)

        def change(found: Mapping[str, Record | None]) -> tuple[bool, Writes]:
            ticket = _ticket(found[key], now)
            if ticket is None or ticket.state is not TicketState.WAITING:
                return False, Writes()
            writes = Writes(delete={key})
            writes.unindex(TICKETS, player)
            return True, writes
        if not await self.store.change((key,), change):
            raise Refusal(ErrorCode.NOT_SEEKING, "you are not waiting for a game")

    async def delivered(self, player: str) -> None:
        """The player's node told them how their seek ended (a game, or why not)."""
        key = ticket_key(player)

        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            record = found[key]
            if record is None or Ticket.of(record).state not in (TicketState.READY,
                                                                 TicketState.ENDED):
                return None, Writes()
            writes = Writes(delete={key})
            writes.unindex(TICKETS, player)
            return None, writes
        await self.store.change((key,), change)

    async def tickets(self, players: Sequence[str], now: float) -> dict[str, Ticket | None]:
        found = await self.store.read([ticket_key(player) for player in players])
        return {player: _ticket(found[ticket_key(player)], now) for player in players}

    async def tables(self, ids: Sequence[str]) -> dict[str, Table | None]:
        found = await self.store.read([table_key(table) for table in ids])
        return {table: None if (record := found[table_key(table)]) is None
                else Table.of(record) for table in ids}

    # -- waves -------------------------------------------------------------------

    async def wave(self, now: float) -> list[Table]:
        """Dissolve the tables past their deadline, forget dead seeks, and claim players
        for new tables. Run by the node holding the lease (any node may: claims are
        atomic, so at worst a wave finds its players taken)."""
        await self.expire(now)
        players = sorted(await self.store.members(TICKETS))
        records = await self.store.read([ticket_key(player) for player in players])
        waiting = []
        for player in players:
            ticket = _ticket(records[ticket_key(player)], now)
            if ticket is None:
                await self._forget(player, now)
            elif ticket.state is TicketState.WAITING:
                waiting.append(ticket)
        by_player = {ticket.player: ticket for ticket in waiting}
        formed = []
        for table in form_tables((ticket.seek() for ticket in waiting), now):
            members = [by_player[player] for player in table.players]
            pool = pool_for(table.size).value
            claimed = await self._claim(Table(
                secrets.token_hex(8), table.size, table.edition, table.rated, table.players,
                tuple(ticket.name for ticket in members),
                tuple(ticket.strikes for ticket in members), now + self._confirm,
                ratings=tuple(ticket.ratings[pool] for ticket in members
                              if pool in ticket.ratings) if table.rated else ()), now)
            if claimed:
                formed.append(claimed)
        return formed

    async def _forget(self, player: str, now: float) -> None:
        key = ticket_key(player)

        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            if _ticket(found[key], now) is not None:
                return None, Writes()
            writes = Writes(delete={key})
            writes.unindex(TICKETS, player)
            return None, writes
        await self.store.change((key,), change)

    async def _claim(self, table: Table, now: float) -> Table | None:
        """Every player of the table, atomically, if each is still waiting for such a
        table (None: one was not; nobody was claimed)."""
        keys = [ticket_key(player) for player in table.players]

        def change(found: Mapping[str, Record | None]) -> tuple[Table | None, Writes]:
            tickets = [_ticket(found[key], now) for key in keys]
            if not all(ticket is not None and ticket.state is TicketState.WAITING
                       and table.size in ticket.sizes and ticket.edition == table.edition
                       and ticket.rated == table.rated for ticket in tickets):
                return None, Writes()
            writes = Writes(put={key: replace(ticket, state=TicketState.OFFERED,
                                              table=table.id).record()
                                 for key, ticket in zip(keys, tickets, strict=True)
                                 if ticket is not None})
            writes.put[table_key(table.id)] = table.record()
            writes.index(TABLES, table.id)
            return table, writes
        return await self.store.change(keys, change)

    async def expire(self, now: float) -> None:
        """Tables past their deadline: who did not accept lapsed (their seek ends, with a
        strike), who did goes back to the front of the queue."""
        ids = sorted(await self.store.members(TABLES))
        for table_id, table in (await self.tables(ids)).items():
            if table is None:
                await self._dissolve_gone(table_id)
            elif table.state is TableState.PENDING and now > table.deadline:
                await self._dissolve(table, [p for p in table.players if p not in table.accepted],
                                     MatchEnd.LAPSED, now)
            elif now > table.deadline + STARTING_SECONDS:
                await self._dissolve(table, [], MatchEnd.LAPSED, now)

    async def _dissolve_gone(self, table_id: str) -> None:
        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            writes = Writes()
            writes.unindex(TABLES, table_id)
            return None, writes
        await self.store.change((), change)

    async def dissolve(self, table: Table, now: float) -> None:
        """Everyone back to the front of the queue, nobody struck (the game could not be
        made)."""
        await self._dissolve(table, [], MatchEnd.LAPSED, now)

    async def _dissolve(self, table: Table, struck: Sequence[str], reason: MatchEnd,
                        now: float) -> None:
        counted = dict(zip(table.players, table.strikes, strict=True))
        keys = [table_key(table.id), *map(ticket_key, table.players),
                *(strikes_key(counted[player]) for player in struck)]

        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            writes = Writes(delete={table_key(table.id)})
            writes.unindex(TABLES, table.id)
            if found[table_key(table.id)] is None:
                return None, writes
            for player in table.players:
                ticket = _ticket(found[ticket_key(player)], now)
                if ticket is None or ticket.table != table.id:
                    continue
                if player in struck:
                    key = strikes_key(counted[player])
                    writes.put[key] = _strikes_record(_strikes(found[key]).struck(now, self._apart))
                    ticket = replace(ticket, state=TicketState.ENDED, table=None,
                                     reason=reason, alive_until=now + ENDED_SECONDS)
                else:
                    ticket = replace(ticket, state=TicketState.WAITING, table=None,
                                     reason=reason)
                writes.put[ticket_key(player)] = ticket.record()
            return None, writes
        await self.store.change(keys, change)

    # -- confirming --------------------------------------------------------------

    async def answer(self, player: str, table_id: str, accept: bool, now: float
                     ) -> Table | None:
        """Accept or decline a table offered. Returns the table when this acceptance was
        the last one: the caller makes its game and then calls `seat` (or `dissolve`)."""
        table = (await self.tables([table_id]))[table_id]
        if table is None or player not in table.players or table.state is not \
                TableState.PENDING:
            raise Refusal(ErrorCode.UNKNOWN_TABLE, "no table is waiting for your answer "
                                                     f"under {table_id[:40]!r}")
        if not accept:
            await self._dissolve(table, [player], MatchEnd.DECLINED, now)
            return None
        key = table_key(table_id)

        def change(found: Mapping[str, Record | None]) -> tuple[Table | None, Writes]:
            record = found[key]
            current = None if record is None else Table.of(record)
            if current is None or current.state is not TableState.PENDING:
                raise Refusal(ErrorCode.UNKNOWN_TABLE, "that table was dissolved")
            if player in current.accepted:
                return None, Writes()
            accepted = (*current.accepted, player)
            done = len(accepted) == len(current.players)
            updated = replace(current, accepted=accepted,
                              state=TableState.STARTING if done else TableState.PENDING)
            return (updated if done else None), Writes(put={key: updated.record()})
        return await self.store.change((key,), change)

    async def seat(self, table: Table, game: str, tokens: Mapping[str, tuple[int, str]],
                   now: float) -> bool:
        """The game is made: each player's ticket holds their seat and its token until
        their node hands it over. False: the table was dissolved first (it lapsed past
        its starting time), its players are back in the queue and nobody may be told of
        the game. Asked again after a failure, it answers what the first try did. The
        seats stay marked as handed out until `started`."""
        keys = [table_key(table.id), handed_key(game), *map(ticket_key, table.players)]

        def change(found: Mapping[str, Record | None]) -> tuple[bool, Writes]:
            record = found[table_key(table.id)]
            if record is None or Table.of(record).state is not TableState.STARTING:
                # handed out by an earlier try whose answer was lost, or dissolved
                return found[handed_key(game)] is not None, Writes()
            writes = Writes(delete={table_key(table.id)},
                            put={handed_key(game): {"table": table.id}})
            writes.unindex(TABLES, table.id)
            for player in table.players:
                ticket = _ticket(found[ticket_key(player)], now)
                if ticket is None:  # gone past the grace time: the seat waits, then a bot
                    continue
                seat, token = tokens[player]
                writes.put[ticket_key(player)] = replace(  # sizes: the table's, from now
                    ticket, state=TicketState.READY, sizes=(table.size,), game=game,
                    seat=seat, token=token, alive_until=now + self._grace).record()
            return True, writes
        return await self.store.change(keys, change)

    async def handed(self, game: str) -> bool:
        """Did the seats of this game made go out (and has it not started yet)?"""
        return (await self.store.read([handed_key(game)]))[handed_key(game)] is not None

    async def started(self, game: str) -> None:
        """The game whose seats went out has started: the mark is no longer needed."""
        def change(found: Mapping[str, Record | None]) -> tuple[None, Writes]:
            return None, Writes(delete={handed_key(game)})
        await self.store.change((), change)

    # -- the lobby's counts ------------------------------------------------------

    async def counts(self, now: float) -> Counts:
        players = sorted(await self.store.members(TICKETS))
        tickets = (await self.tickets(players, now)).values()
        waiting = [ticket for ticket in tickets
                   if ticket is not None and ticket.state is TicketState.WAITING]
        sizes: dict[int, int] = {}
        for ticket in waiting:
            for size in ticket.sizes:
                sizes[size] = sizes.get(size, 0) + 1
        median = statistics.median(now - ticket.since for ticket in waiting) if waiting else 0.0
        return Counts(dict(sorted(sizes.items())), median)
