"""The archive of ended games (archive.ArchiveStore), written once over a `Database`
(database.py) beside the rating ledger."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from .archive import ArchivedBody, ArchivedGame, Keyset
from .database import Database, Listed, Queries, Row

ENDED_STATES = ("finished", "abandoned")
ENDED = "ended"
_BODY = ("SELECT g.game_id, g.finished_at, g.body, g.replay, g.replay_version, g.events "
         "FROM archived_games g")
_CHAT = "line, at, seat, name, text"


class ArchiveQueries:
    db: Database

    async def archive_games(self, games: Sequence[ArchivedGame], now: datetime) -> int:
        taken = 0
        async with self.db.transaction() as tx:
            for game in games:
                taken += await self._archive(tx, game, now)
        return taken

    async def _archive(self, tx: Queries, game: ArchivedGame, now: datetime) -> bool:
        inserted = await tx.fetchrow(
            "INSERT INTO archived_games (game_id, finished_at, state, edition, players, "
            "rated, people, takeovers, body, replay, replay_version, archived_at) VALUES (?, "
            "?, ?, ?, ?, ?, ?, ?, ?, ?, ?::integer, ?) ON CONFLICT (game_id) DO NOTHING "
            "RETURNING game_id",
            game.game_id, game.finished_at, game.state, game.edition, game.players,
            game.rated, game.people, game.takeovers, game.body, game.replay,
            game.replay_version, now)
        if inserted is None:
            return False  # archived once already
        await tx.executemany(
            "INSERT INTO archived_seats (game_id, seat, name, account_id) VALUES (?, ?, ?, ?)",
            [(game.game_id, seat.seat, seat.name, seat.account_id) for seat in game.seats])
        await tx.executemany("INSERT INTO archived_cards (card, game_id) VALUES (?, ?)",
                             [(card, game.game_id) for card in dict.fromkeys(game.cards)])
        await tx.executemany(
            "INSERT INTO archived_chat (game_id, line, at, seat, name, text, removed_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game.game_id, line.line, line.at, line.seat, line.name, line.text,
              line.removed_at) for line in game.chat])
        return True

    async def archived(self, game_ids: Collection[str]) -> list[ArchivedBody]:
        dialect = self.db.dialect
        rows = await self.db.fetch(
            f"{_BODY} WHERE g.game_id {dialect.among(Listed.TEXTS)} "
            "ORDER BY g.finished_at DESC, g.game_id DESC",
            dialect.listed(list(game_ids), Listed.TEXTS))
        return await self._bodies(rows)

    async def archived_ids(self, game_ids: Collection[str]) -> set[str]:
        dialect = self.db.dialect
        rows = await self.db.fetch(
            f"SELECT game_id FROM archived_games WHERE game_id {dialect.among(Listed.TEXTS)}",
            dialect.listed(list(game_ids), Listed.TEXTS))
        return {row[0] for row in rows}

    async def list_archived(self, filters: Mapping[str, Any], counted: bool = True
                            ) -> tuple[list[ArchivedBody], int]:
        state = filters.get("state")
        if state not in (None, ENDED, *ENDED_STATES):
            return [], 0  # live games are never archived
        seated = "EXISTS (SELECT 1 FROM archived_seats s WHERE s.game_id = g.game_id AND "
        cards = (filters.get("card"), *filters.get("cards", ()))
        conditions: list[tuple[object, str]] = [
            (None if state == ENDED else state, "g.state = ?"),
            (filters.get("player"), f"{seated}s.name = ?)"),
            (filters.get("account_id"), f"{seated}s.account_id = ?::bigint)"),
            (filters.get("since"), "g.finished_at >= ?::text"),
            (filters.get("until"), "g.finished_at < ?::text"),
            (filters.get("edition"), "g.edition = ?::integer"),
            (filters.get("players"), "g.players = ?::integer"),
            *((card, "EXISTS (SELECT 1 FROM archived_cards k WHERE k.card = ? AND "
                     "k.game_id = g.game_id)") for card in cards),
            (filters.get("rated"), "g.rated = ?"),
            (filters.get("people"), "g.people = ?"),
            (filters.get("takeovers"), "g.takeovers = ?"),
        ]
        where = [condition for value, condition in conditions if value is not None]
        params: list[Any] = [value for value, _ in conditions if value is not None]
        before: Keyset | None = filters.get("before")
        if before is not None:  # keyset: the games after it, newest first
            where.append("g.finished_at <= ?::text AND (g.finished_at < ?::text OR "
                         "g.game_id < ?::text)")
            params += [before[0], before[0], before[1]]
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        total = 0
        if counted:
            found = await self.db.fetchrow(f"SELECT count(*) FROM archived_games g{clause}",
                                           *params)
            total = int(found[0]) if found else 0
        rows = await self.db.fetch(
            f"{_BODY}{clause} ORDER BY g.finished_at DESC, g.game_id DESC "
            "LIMIT ?::bigint OFFSET ?::bigint", *params, filters.get("limit", 50),
            filters.get("offset", 0))
        return await self._bodies(rows), total

    async def archived_between(self, since: str | None, until: str | None, after: Keyset,
                               limit: int) -> list[ArchivedBody]:
        # one row-value bound, which both databases seek the index to: spelt as `>= since`
        # and an OR, the scan began at the period's start for every page (a million
        # games' dump spent more on it than on its first page's reading)
        start = max((since or "", ""), after)
        rows = await self.db.fetch(
            f"{_BODY} WHERE (g.finished_at, g.game_id) > (?::text, ?::text) AND "
            "g.finished_at < ?::text ORDER BY g.finished_at, g.game_id LIMIT ?::bigint",
            start[0], start[1], until or "\uffff", limit)
        return await self._bodies(rows)

    async def archived_chat(self, game_id: str, removed: bool = False
                            ) -> list[dict[str, Any]]:
        return (await self.archived_chats([game_id], removed))[game_id]

    async def archived_chats(self, game_ids: Collection[str], removed: bool = False
                             ) -> dict[str, list[dict[str, Any]]]:
        dialect = self.db.dialect
        columns = f"{_CHAT}, removed_at" if removed else _CHAT
        which = "" if removed else " AND removed_at IS NULL"
        rows = await self.db.fetch(
            f"SELECT game_id, {columns} FROM archived_chat WHERE game_id "
            f"{dialect.among(Listed.TEXTS)}{which} ORDER BY game_id, line",
            dialect.listed(list(game_ids), Listed.TEXTS))
        keys = ("id", "at", "seat", "name", "text", "removed_at")
        chats: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in game_ids}
        for game_id, *line in rows:
            chats[game_id].append(dict(zip(keys, line, strict=False)))
        return chats

    async def remove_archived_chat(self, game_id: str, line: int, at: str) -> bool:
        return await self.db.execute(
            "UPDATE archived_chat SET removed_at = ? WHERE game_id = ? AND line = ?::bigint "
            "AND removed_at IS NULL", at, game_id, line) == 1

    async def rename_archived_seats(self, account_id: int, name: str) -> None:
        async with self.db.transaction() as tx:
            await tx.execute(
                "UPDATE archived_chat SET name = ? WHERE EXISTS (SELECT 1 FROM archived_seats "
                "s WHERE s.account_id = ?::bigint AND s.game_id = archived_chat.game_id AND "
                "s.seat = archived_chat.seat)", name, account_id)
            await tx.execute("UPDATE archived_seats SET name = ? WHERE account_id = ?::bigint",
                             name, account_id)

    async def _bodies(self, rows: list[Row]) -> list[ArchivedBody]:
        """The games' rows with their seats' names (one more query for them all)."""
        if not rows:
            return []
        dialect = self.db.dialect
        seats = await self.db.fetch(
            f"SELECT game_id, seat, name FROM archived_seats WHERE game_id "
            f"{dialect.among(Listed.TEXTS)}",
            dialect.listed([row[0] for row in rows], Listed.TEXTS))
        names: dict[str, dict[int, str | None]] = {row[0]: {} for row in rows}
        for game_id, seat, name in seats:
            names[game_id][seat] = name
        return [ArchivedBody(game_id, finished_at, bytes(body), names[game_id],
                             _bytes(replay), version, _bytes(events))
                for game_id, finished_at, body, replay, version, events in rows]


def _bytes(value: Any) -> bytes | None:
    """A nullable BYTES column's value as bytes, whichever type the driver reads."""
    return None if value is None else bytes(value)
