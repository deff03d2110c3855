"""The rating ledger's queries, written once for both stores (each gives its own
parameter marks), and their rows to records and back."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..ratings import Pool, Rating
from ..ratings.ledger import (
    HistoryPoint,
    LeaderboardRow,
    LedgerEntry,
    LedgerSeat,
    RatedGame,
    RatedSeat,
    bot_ratings,
)

Mark = Callable[[int, str], str]
"""The n-th parameter's mark, of a PostgreSQL type: `?` for SQLite, `$n::type` for asyncpg."""


def sqlite_mark(number: int, kind: str) -> str:
    return "?"


def postgres_mark(number: int, kind: str) -> str:
    return f"${number}::{kind}"


LEDGER_GAMES_SQL = "SELECT id, game_id, finished_at FROM rating_ledger ORDER BY id"
LEDGER_SEATS_SQL = ("SELECT ledger_id, seat, rank, account_id, bot FROM rating_ledger_seats "
                    "ORDER BY ledger_id, seat")
"""The whole ledger in its order (`games_of` reads the two together)."""


LEDGER_ENTRIES_SQL = ("SELECT game_id, finished_at, record_lost_at IS NOT NULL FROM "
                      "rating_ledger ORDER BY id")


def mark_lost_sql(mark: Mark) -> str:
    """(when, game ids) -> marks those of the games not marked yet."""
    return (f"UPDATE rating_ledger SET record_lost_at = {mark(1, 'timestamptz')} WHERE "
            f"game_id = {mark(2, 'text')} AND record_lost_at IS NULL")


def history_sql(mark: Mark) -> str:
    """(account, pool, limit) -> game, finished, mu and sigma after, record lost, newest
    first."""
    return ("SELECT l.game_id, l.finished_at, s.mu_after, s.sigma_after, "
            "l.record_lost_at IS NOT NULL FROM "
            "rating_ledger_seats s JOIN rating_ledger l ON l.id = s.ledger_id WHERE "
            f"s.account_id = {mark(1, 'bigint')} AND l.pool = {mark(2, 'text')} "
            f"ORDER BY l.id DESC LIMIT {mark(3, 'bigint')}")


def record_sql(mark: Mark) -> str:
    """(account, pool) -> per in-server bot: wins, losses, ties (once per bot seat)."""
    return ("SELECT b.bot, sum(CASE WHEN me.rank < b.rank THEN 1 ELSE 0 END), "
            "sum(CASE WHEN me.rank > b.rank THEN 1 ELSE 0 END), "
            "sum(CASE WHEN me.rank = b.rank THEN 1 ELSE 0 END) "
            "FROM rating_ledger_seats me JOIN rating_ledger l ON l.id = me.ledger_id "
            "JOIN rating_ledger_seats b ON b.ledger_id = me.ledger_id AND b.bot IS NOT NULL "
            f"WHERE me.account_id = {mark(1, 'bigint')} AND l.pool = {mark(2, 'text')} "
            "GROUP BY b.bot ORDER BY b.bot")


def bot_games_sql(mark: Mark) -> str:
    """(pool) -> per in-server bot: its rated games (seats) in the pool."""
    return ("SELECT s.bot, count(*) FROM rating_ledger_seats s JOIN rating_ledger l ON "
            f"l.id = s.ledger_id WHERE l.pool = {mark(1, 'text')} AND s.bot IS NOT NULL "
            "GROUP BY s.bot")


def board_total_sql(mark: Mark) -> str:
    """(pool) -> the live accounts rated in the pool."""
    return ("SELECT count(*) FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE "
            f"r.pool = {mark(1, 'text')} AND a.deleted_at IS NULL")


def leaderboard_sql(mark: Mark, bots: int) -> str:
    """(pool, each bot's name, mu, sigma and games, limit, offset) -> a page of
    name, mu, sigma, games, bot, in_server: the accounts and the bots' fixed ratings
    together, highest shown rating first (an account before a bot it ties)."""
    values = [f"({mark(2 + 4 * i, 'text')}, {mark(3 + 4 * i, 'float8')}, "
              f"{mark(4 + 4 * i, 'float8')}, {mark(5 + 4 * i, 'bigint')}, TRUE, TRUE)"
              for i in range(bots)]
    union = f" UNION ALL VALUES {', '.join(values)}" if values else ""
    after = 2 + 4 * bots
    return ("SELECT name, mu, sigma, games, bot, in_server FROM (SELECT a.name AS name, "
            "r.mu AS mu, r.sigma AS sigma, r.games AS games, a.bot AS bot, FALSE AS in_server "
            "FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE "
            f"r.pool = {mark(1, 'text')} AND a.deleted_at IS NULL{union}) AS board "
            "ORDER BY mu - 3 * sigma DESC, in_server, name "
            f"LIMIT {mark(after, 'bigint')} OFFSET {mark(after + 1, 'bigint')}")


def leaderboard_parameters(pool: Pool, bot_games: Mapping[str, int], limit: int,
                           offset: int) -> list[Any]:
    """`leaderboard_sql`'s parameters (its `bots` is `len(bot_ratings(pool))`)."""
    bots = [value for name, rating in bot_ratings(pool).items()
            for value in (name, rating.mu, rating.sigma, int(bot_games.get(name, 0)))]
    return [pool.value, *bots, limit, offset]


def history(rows: Sequence[Sequence[Any]]) -> list[HistoryPoint]:
    """`history_sql`'s rows, oldest first."""
    return [HistoryPoint(game_id, finished_at, Rating(mu, sigma), bool(lost))
            for game_id, finished_at, mu, sigma, lost in reversed(rows)]


def entries(rows: Sequence[Sequence[Any]]) -> list[LedgerEntry]:
    """`LEDGER_ENTRIES_SQL`'s rows."""
    return [LedgerEntry(game_id, finished_at, bool(lost)) for game_id, finished_at, lost in rows]


def board_rows(rows: Sequence[Sequence[Any]]) -> list[LeaderboardRow]:
    return [LeaderboardRow(name, Rating(mu, sigma, games, fixed=bool(in_server)), bool(bot),
                           bool(in_server))
            for name, mu, sigma, games, bot, in_server in rows]


def seat_values(seat: LedgerSeat) -> tuple[Any, ...]:
    """A ledger seat's columns after its ledger id: seat, account_id, bot, rank, mu and
    sigma before, mu and sigma after."""
    seated = seat.seated
    return (seated.seat, seated.account_id, seated.bot, seated.rank, seat.before.mu,
            seat.before.sigma, seat.after.mu, seat.after.sigma)


def games_of(games: Sequence[Sequence[Any]], seats: Sequence[Sequence[Any]]
             ) -> list[tuple[int, RatedGame]]:
    """The ledger's games in order, each with its ledger id, from the rows of
    (id, game_id, finished_at) and of (ledger_id, seat, rank, account_id, bot)."""
    by_game: dict[int, list[RatedSeat]] = {}
    for ledger_id, seat, rank, account_id, bot in seats:
        by_game.setdefault(ledger_id, []).append(RatedSeat(seat, rank, account_id, bot))
    return [(ledger_id, RatedGame(game_id, finished_at, tuple(by_game.get(ledger_id, ()))))
            for ledger_id, game_id, finished_at in games]


def rewrite_seat_sql(mark: Mark) -> str:
    """(mu and sigma before, mu and sigma after, ledger id, seat): a recompute's new
    values; the row's game, seat, player and rank stay as they are."""
    return (f"UPDATE rating_ledger_seats SET mu_before = {mark(1, 'float8')}, "
            f"sigma_before = {mark(2, 'float8')}, mu_after = {mark(3, 'float8')}, "
            f"sigma_after = {mark(4, 'float8')} WHERE ledger_id = {mark(5, 'bigint')} "
            f"AND seat = {mark(6, 'integer')}")


def rewritten(games: Sequence[tuple[int, RatedGame]], applied: Sequence[Sequence[LedgerSeat]]
              ) -> list[tuple[Any, ...]]:
    """`rewrite_seat_sql`'s parameters for every seat of the ledger."""
    return [(seat.before.mu, seat.before.sigma, seat.after.mu, seat.after.sigma, ledger_id,
             seat.seated.seat)
            for (ledger_id, _), seats in zip(games, applied, strict=True) for seat in seats]
