"""The node's part of the archive of ended games (accounts/archive.py): its outbox handed
on, and games read back from it, in one place for every reader (replays, listings,
exports, dumps).

The node's games database is the outbox: an ended game whose row is not yet marked
`archived_at` waits (written ahead with the game's end). `hand_over` gives them to the
archive, a batch in one transaction, which refuses a second copy of a game by its id,
and only then marks the node's rows: a node killed between the two hands the games over
again at its next start, and the archive keeps one copy of each. Archived rows are
pruned from the node's file once they are older than `archive_keep_hours` (`prune`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from dominion.protocol import ErrorCode

from ..accounts import open_account_store
from ..accounts.archive import ArchivedBody, ArchivedGame, ArchivedLine, ArchivedSeat, ArchiveStore
from ..accounts.moderation import FullStore
from ..accounts.store import sqlite_path_beside
from ..refusal import Refusal
from ..replays import finished_replay, replay_work
from ..replays.build import Derived, chat_records
from ..replays.dump import EndedGame, public_players, stored_replay_of
from ..replays.fields import seat_ratings
from ..replays.stored_replay import STORED_VERSION, pack, replay_line, stored_replay
from ..storage import Storage, StorageError, StoredGame
from ..storage.keyset import Keyset
from ..storage.rows import pack_game, unpack_counted, unpack_game
from .clock import utc_now
from .summary import summary_of

BATCH = 100
"""Games read from the archive, or from the outbox, at a time."""
Pay = Callable[[int], Awaitable[None]]
"""Paying for a replay's work (in events) before it is done; it may wait, or raise."""


@dataclass(frozen=True)
class Export:
    """An export's replays, one line each."""

    lines: AsyncIterator[bytes]
    next_key: Keyset | None = None
    """Where the next page starts (the last selected game), when this one was full."""


def archived_game(stored: StoredGame, chat: list[dict[str, Any]],
                  derived: Derived | None = None) -> ArchivedGame:
    """An ended game and its chat (every line, removed ones marked) as the archive takes it,
    with its replay made from its answers (once: dumps and exports splice it in), played
    back unless `derived` from them already."""
    record = stored.game
    assert record.finished_at is not None, "only an ended game is archived"
    return ArchivedGame(
        game_id=record.id, finished_at=record.finished_at, state=str(record.state),
        edition=record.edition, players=record.seats, rated=record.rated,
        people=not any(seat.bot is not None or seat.bot_account for seat in stored.seats),
        takeovers=any(seat.taken_over_at is not None for seat in stored.seats),
        cards=tuple(record.kingdom),
        seats=tuple(ArchivedSeat(seat.seat, seat.name, seat.account_id)
                    for seat in stored.seats),
        chat=tuple(ArchivedLine(line["id"], line["at"], line["seat"], line["name"],
                                line["text"], line.get("removed_at")) for line in chat),
        body=pack_game(stored),
        replay=pack(stored_replay(finished_replay(stored, [], None, derived))),
        replay_version=STORED_VERSION)


def stored_game(archived: ArchivedBody, answers: bool = True) -> StoredGame:
    """An archived game as storage's record, its seats named as they are now (without its
    answers when not `answers`)."""
    return _named_now(unpack_game(archived.body, answers), archived)


def _named_now(stored: StoredGame, archived: ArchivedBody) -> StoredGame:
    return replace(stored, seats=tuple(replace(seat, name=archived.names.get(seat.seat,
                                                                             seat.name))
                                       for seat in stored.seats))


def as_ended_game(archived: ArchivedBody, stored: StoredGame | None = None) -> EndedGame:
    """An archived game as a dump or an export reads it (`stored`: already read): its
    replay when the archive kept it under this version, and then not the answers the
    replay holds (else it is made again, from its events if it has them, or its answers)."""
    current = archived.replay_version == STORED_VERSION
    if stored is None:
        stored = stored_game(archived, answers=not current)
    return EndedGame(stored, None, archived.replay if current else None, archived.events)


def exported_game(archived: ArchivedBody) -> tuple[EndedGame, int]:
    """An archived game as an export reads it (`as_ended_game`), and its answers' count,
    by which its replay's work is paid (the answers made only when the replay is to be
    made again)."""
    stored, answers = unpack_counted(archived.body, archived.replay_version != STORED_VERSION)
    return as_ended_game(archived, _named_now(stored, archived)), answers


async def hand_over(storage: Storage, archive: ArchiveStore) -> int:
    """Every ended game waiting in the node's outbox handed to the archive (a batch a
    transaction), then marked; how many the archive took now (not those it had already).
    The archive's refusals (unreachable) come out of here, and the games wait."""
    taken = 0
    while waiting := storage.unarchived_games(BATCH):
        games = []
        for stored, chat in waiting:
            games.append(archived_game(stored, chat))
            await asyncio.sleep(0)  # a game's play-back at a time: the live games go between
        taken += await archive.archive_games(games, datetime.now(UTC))
        await storage.games_archived([stored.game.id for stored, _ in waiting], utc_now())
    return taken


async def prune(storage: Storage, keep: timedelta) -> int:
    """Delete the node's games the archive took more than `keep` ago; how many went."""
    before = (datetime.now(UTC) - keep).strftime("%Y-%m-%dT%H:%M:%SZ")
    pruned = 0
    while gone := await storage.prune_archived(before):
        pruned += gone
    return pruned


class Archive:
    """Ended games as every reader gets them: from the node's own database while it holds
    them, else from the archive."""

    def __init__(self, storage: Storage, store: ArchiveStore) -> None:
        self.storage = storage
        self.store = store

    async def ended_game(self, game_id: str) -> tuple[StoredGame, list[dict[str, Any]]] | None:
        """An ended game and its chat (lines not removed), or None: no such ended game here
        or in the archive."""
        stored = self.storage.load_game(game_id)
        if stored is not None and stored.game.finished_at is not None:
            return stored, self.storage.chat(game_id)
        if stored is not None:
            return None  # live here: not archived
        found = await self.from_archive(game_id)
        return None if found is None else (found[0].stored, found[1])

    async def from_archive(self, game_id: str) -> tuple[EndedGame, list[dict[str, Any]]] | None:
        """A game as the archive has it, with the replay it keeps (under this version) and
        its answers (a replay's work is paid by them), and its chat (lines not removed); None
        when the archive lacks it."""
        found = await self.store.archived([game_id])
        if not found:
            return None
        game = as_ended_game(found[0], stored_game(found[0]))
        return game, await self.store.archived_chat(game_id)

    async def summary(self, game_id: str) -> dict[str, Any]:
        """An archived game's public summary; `unknown_game` when the archive lacks it."""
        found = await self.store.archived([game_id])
        if not found:
            raise Refusal(ErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        stored = stored_game(found[0])
        return summary_of(stored.game, stored.seats)

    async def account_played(self, account_id: int) -> bool:
        """Whether the archive holds a game the account sat in (on any node)."""
        found, _ = await self.store.list_archived(
            {"account_id": account_id, "limit": 1, "offset": 0}, counted=False)
        return bool(found)

    async def chat(self, game_id: str) -> list[dict[str, Any]]:
        """Every chat line of a game, removed ones too (for admins): the node's while it
        holds the game, else the archive's."""
        if self.storage.load_game(game_id) is not None:
            return self.storage.chat(game_id, removed=True)
        return await self.store.archived_chat(game_id, removed=True)

    async def remove_chat(self, game_id: str, line: int, at: str) -> bool:
        """Remove a chat line of an ended game wherever it is kept, the node's database
        and the archive; False when neither had it to remove."""
        here = await self.storage.remove_chat(game_id, line, at)
        return await self.store.remove_archived_chat(game_id, line, at) or here

    async def listing_part(self, filters: Mapping[str, Any]
                           ) -> tuple[list[dict[str, Any]], int]:
        """The archive's part of a listing: the summaries of its first `offset + limit`
        games matching `filters` (the filters of `Storage.list_games`), newest first, and
        how many match; the nodes' parts hold the games it does not have."""
        asked = {**filters, "offset": 0, "limit": filters["offset"] + filters["limit"]}
        found, total = await self.store.list_archived(asked)
        games = [stored_game(archived) for archived in found]
        return [summary_of(stored.game, stored.seats) for stored in games], total

    async def export(self, filters: Mapping[str, Any], pay: Pay) -> Export:
        """Ended games' replays matching `filters`, newest first, one line each, each one's
        work paid for with `pay` before it is made: the archive's games, and this node's
        it has not taken yet (another node's wait on it a moment, for their archiving)."""
        offset, limit = filters["offset"], filters["limit"]
        asked = {**filters, "offset": 0, "limit": offset + limit}
        local, _ = self.storage.list_games(**asked, counted=False, archived=False)
        found, _ = await self.store.list_archived(asked, counted=False)
        bodies = {archived.game_id: archived for archived in found}
        keys = sorted({(record.finished_at or "", record.id) for record in local}
                      | {(archived.finished_at, archived.game_id) for archived in found},
                      reverse=True)[offset:offset + limit]
        return Export(self._lines([game_id for _, game_id in keys], bodies, pay),
                      next_key=keys[-1] if len(keys) == limit else None)

    async def _lines(self, game_ids: list[str], bodies: Mapping[str, ArchivedBody],
                     pay: Pay) -> AsyncIterator[bytes]:
        archived_ids = [game_id for game_id in game_ids if game_id in bodies]
        chats = await self.store.archived_chats(archived_ids) if archived_ids else {}
        for game_id in game_ids:
            archived = bodies.get(game_id)
            if archived is not None:
                game, answers = exported_game(archived)
                await pay(replay_work(answers))
                yield replay_line(stored_replay_of(game), public_players(game),
                                  chat_records(chats[game_id]))
            elif (found := await self.ended_game(game_id)) is not None:
                stored, chat = found
                await pay(replay_work(len(stored.answers)))
                yield orjson.dumps(finished_replay(stored, chat)) + b"\n"
            # else pruned meanwhile: then the archive has it, on the next page


DUMP_BATCH = 1_000
"""Games a dump reads from the archive at a time: few round trips, a bounded memory."""
def read_archive(accounts_url: str, games_db: str, since: str | None, until: str | None
                 ) -> Iterator[EndedGame]:
    """The games of the archive at `accounts_url` (empty: the SQLite file beside
    `games_db`) that ended in [since, until), oldest first, each with its ratings, a batch
    at a time, for a command that runs outside the server (`dominion-server dump`);
    StorageError when a single server's archive is not there."""
    if not accounts_url and not sqlite_path_beside(games_db).is_file():
        raise StorageError(f"no archive at {sqlite_path_beside(games_db)}: give the server's "
                           "--db (its archive is the accounts' file beside it), or "
                           "--accounts-url")
    loop = asyncio.new_event_loop()
    store = open_account_store(accounts_url, games_db)
    try:
        loop.run_until_complete(store.start())
        yield from ended_games(store, since, until, loop)
    except Refusal as error:  # the archive's PostgreSQL cannot be reached
        raise StorageError(error.message) from None
    finally:
        loop.run_until_complete(store.close())
        loop.close()


def ended_games(store: FullStore, since: str | None, until: str | None,
                loop: asyncio.AbstractEventLoop) -> Iterator[EndedGame]:
    """The archive's games that ended in [since, until), oldest first, with the rated ones'
    ratings from the ledger beside it, read a batch at a time on `loop` (not running: a
    dump writes its files between the batches)."""
    after = ("", "")
    while found := loop.run_until_complete(store.archived_between(since, until, after,
                                                                  DUMP_BATCH)):
        games = [as_ended_game(archived) for archived in found]
        rated = [game.stored.game.id for game in games if game.stored.game.rated]
        ledger = loop.run_until_complete(store.game_ratings(rated)) if rated else {}
        for game in games:
            known = ledger.get(game.stored.game.id)
            yield game if known is None else game._replace(ratings=seat_ratings(known))
        after = (found[-1].finished_at, found[-1].game_id)
