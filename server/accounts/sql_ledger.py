"""The rating ledger's part of the account store (store.RatingStore), written once over
a `Database` (database.py); its queries and rows are in ledger_sql.py."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from ..ratings import INITIAL, Pool, Rating, ledger
from ..ratings.ledger import (
    BotRecord,
    GameRatings,
    HistoryPoint,
    LeaderboardRow,
    LedgerEntry,
    RatedGame,
)
from . import ledger_sql
from .database import Database, Isolation, Listed, Queries

RATINGS = ("ratings", "rating_ledger")


class LedgerQueries:
    db: Database

    async def apply_rated_game(self, game: RatedGame, now: datetime, pair_limit: int = 0
                               ) -> bool:
        pool = game.pool
        dialect = self.db.dialect
        async with self.db.transaction() as tx:
            # uncounted until the pairs are counted below, so that it never counts itself
            appended = await tx.fetchrow(
                "INSERT INTO rating_ledger (game_id, pool, finished_at, applied_at, "
                "uncounted, aborted) VALUES (?, ?, ?, ?, TRUE, ?) ON CONFLICT (game_id) "
                "DO NOTHING RETURNING id",
                game.game_id, pool.value, game.finished_at, now, game.aborted)
            if appended is None:
                return False  # the ledger has it: applied once already
            ids = ledger.accounts_of(game.seats)
            # every account's row exists, then is locked in id order: another node's game
            # with the same players waits for this one (and never deadlocks)
            await tx.executemany(
                "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES "
                "(?, ?, ?, ?, 0) ON CONFLICT DO NOTHING",
                [(account, pool.value, INITIAL.mu, INITIAL.sigma) for account in ids])
            found = await tx.fetch(
                "SELECT account_id, mu, sigma, games FROM ratings WHERE pool = ? AND "
                f"account_id {dialect.among(Listed.IDS)} ORDER BY account_id"
                f"{dialect.for_update}", pool.value, dialect.listed(ids, Listed.IDS))
            # counted after the locks: two nodes' games of one pair are counted in turn
            counted = not game.aborted and await _under_pair_limit(tx, ids, game.finished_at,
                                                                   pair_limit)
            if counted:
                await tx.execute("UPDATE rating_ledger SET uncounted = FALSE WHERE id = ?",
                                 appended[0])
            seats = ledger.apply(game, {account: Rating(mu, sigma, games)
                                        for account, mu, sigma, games in found}, counted)
            await tx.executemany(
                "INSERT INTO rating_ledger_seats (ledger_id, seat, account_id, bot, rank, "
                "mu_before, sigma_before, mu_after, sigma_after) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(appended[0], *ledger_sql.seat_values(seat)) for seat in seats])
            await tx.executemany(
                "UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE account_id = ? AND "
                "pool = ?",
                [(seat.after.mu, seat.after.sigma, seat.after.games, seat.seated.account_id,
                  pool.value) for seat in seats if seat.seated.account_id is not None])
        return True

    async def game_ratings(self, game_ids: Collection[str]) -> dict[str, GameRatings]:
        if not game_ids:
            return {}
        dialect = self.db.dialect
        rows = await self.db.fetch(ledger_sql.game_ratings_sql(dialect.among(Listed.TEXTS)),
                                   dialect.listed(list(game_ids), Listed.TEXTS))
        return ledger_sql.game_ratings(rows)

    async def ratings_of(self, account_id: int) -> dict[Pool, Rating]:
        rows = await self.db.fetch("SELECT pool, mu, sigma, games FROM ratings WHERE "
                                   "account_id = ?", account_id)
        return {Pool(pool): Rating(mu, sigma, games) for pool, mu, sigma, games in rows}

    async def rating_history(self, account_id: int, pool: Pool, limit: int
                             ) -> list[HistoryPoint]:
        return ledger_sql.history(await self.db.fetch(ledger_sql.HISTORY_SQL, account_id,
                                                      pool.value, limit))

    async def record_against_bots(self, account_id: int, pool: Pool) -> list[BotRecord]:
        rows = await self.db.fetch(ledger_sql.RECORD_SQL, account_id, pool.value)
        return [BotRecord(*row) for row in rows]

    async def leaderboard(self, pool: Pool, limit: int, offset: int
                          ) -> tuple[list[LeaderboardRow], int]:
        bots = len(ledger.bot_ratings(pool))
        async with self.db.transaction(Isolation.SNAPSHOT) as tx:
            games: dict[str, int] = dict(await tx.fetch(ledger_sql.BOT_GAMES_SQL, pool.value))
            rows = await tx.fetch(ledger_sql.leaderboard_sql(bots),
                                  *ledger_sql.leaderboard_parameters(pool, games, limit,
                                                                     offset))
            total = await tx.fetchrow(ledger_sql.BOARD_TOTAL_SQL, pool.value)
        assert total is not None
        return ledger_sql.board_rows(rows), int(total[0]) + bots

    async def recompute_ratings(self) -> list[ledger.RatingChange]:
        # no game is applied meanwhile: the ledger is read and rewritten as a whole
        async with self.db.transaction(lock_tables=RATINGS) as tx:
            games = ledger_sql.games_of(await tx.fetch(ledger_sql.LEDGER_GAMES_SQL),
                                        await tx.fetch(ledger_sql.LEDGER_SEATS_SQL))
            before = {(account, Pool(pool)): Rating(mu, sigma, count)
                      for account, pool, mu, sigma, count in await tx.fetch(
                          "SELECT account_id, pool, mu, sigma, games FROM ratings")}
            uncounted = {game_id for (game_id,) in await tx.fetch(ledger_sql.UNCOUNTED_SQL)}
            applied, after = ledger.replay((game for _, game in games), uncounted)
            await tx.executemany(ledger_sql.REWRITE_SEAT_SQL,
                                 ledger_sql.rewritten(games, applied))
            await tx.execute("DELETE FROM ratings")
            await tx.executemany(
                "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES "
                "(?, ?, ?, ?, ?)",
                [(account, pool.value, rating.mu, rating.sigma, rating.games)
                 for pool, rated in after.items() for account, rating in rated.items()])
            names: dict[int, str] = dict(await tx.fetch("SELECT id, name FROM accounts"))
        return ledger.changes(before, after, names)

    async def suspicious_pairs(self, since: str, limit: int, offset: int
                               ) -> list[ledger.PairRecord]:
        rows = await self.db.fetch(ledger_sql.PAIRS_SQL, since, limit, offset)
        return [ledger.PairRecord(name, other, int(games), int(wins), int(losses), int(counted),
                                  int(early))
                for name, other, games, wins, losses, counted, early in rows]

    async def ledger_entries(self) -> list[LedgerEntry]:
        return ledger_sql.entries(await self.db.fetch(ledger_sql.LEDGER_ENTRIES_SQL))

    async def mark_records_lost(self, game_ids: Collection[str], now: datetime) -> int:
        async with self.db.transaction() as tx:
            return sum([await tx.execute(ledger_sql.MARK_LOST_SQL, now, game)
                        for game in game_ids])


async def _under_pair_limit(tx: Queries, accounts: list[int], finished_at: str,
                            limit: int) -> bool:
    """Whether every two of the accounts have had fewer than `limit` counted games together
    in the day before `finished_at` (a `limit` of 0: no limit)."""
    if limit == 0:
        return True
    since = ledger.pair_window_start(finished_at)
    for low, high in ledger.pairs_of(accounts):
        together = await tx.fetchrow(ledger_sql.PAIR_GAMES_SQL, low, high, since, finished_at)
        if together is not None and int(together[0]) >= limit:
            return False
    return True
