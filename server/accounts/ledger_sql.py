"""The rating ledger's queries, written once for both databases with `?` marks (each
database's dialect renders them: database.py), and their rows to records and back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..ratings import Pool, Rating
from ..ratings.ledger import (
    GameRatings,
    HistoryPoint,
    LeaderboardRow,
    LedgerEntry,
    LedgerSeat,
    RatedGame,
    RatedSeat,
    bot_ratings,
)
from ..ratings.model import DISPLAY_Z, PROVISIONAL_SIGMA

LEDGER_GAMES_SQL = "SELECT id, game_id, finished_at FROM rating_ledger ORDER BY id"
LEDGER_SEATS_SQL = ("SELECT ledger_id, seat, rank, account_id, bot FROM rating_ledger_seats "
                    "ORDER BY ledger_id, seat")
"""The whole ledger in its order (`games_of` reads the two together)."""


UNCOUNTED_SQL = "SELECT game_id FROM rating_ledger WHERE uncounted = TRUE"
"""The ledger's games over the per-day pair limit when they were applied."""


PAIR_GAMES_SQL = ("SELECT count(*) FROM rating_ledger_seats a JOIN rating_ledger_seats b "
                  "ON b.ledger_id = a.ledger_id JOIN rating_ledger l ON l.id = a.ledger_id "
                  "WHERE a.account_id = ?::bigint AND b.account_id = ?::bigint AND "
                  "l.uncounted = FALSE AND l.finished_at > ?::text AND l.finished_at <= ?::text")
"""(account, other account, window start, game's finish) -> the counted games the two
played together in the window."""


PAIRS_SQL = ("SELECT na.name, nb.name, p.games, p.wins, p.losses, p.counted, p.early FROM "
             "(SELECT "
             "a.account_id AS a_id, b.account_id AS b_id, count(*) AS games, "
             "sum(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END) AS wins, "
             "sum(CASE WHEN a.rank > b.rank THEN 1 ELSE 0 END) AS losses, "
             "sum(CASE WHEN l.uncounted = FALSE THEN 1 ELSE 0 END) AS counted, "
             "sum(CASE WHEN l.aborted = TRUE THEN 1 ELSE 0 END) AS early "
             "FROM rating_ledger_seats a JOIN rating_ledger_seats b ON b.ledger_id = a.ledger_id "
             "AND b.account_id > a.account_id JOIN rating_ledger l ON l.id = a.ledger_id "
             "WHERE l.finished_at > ?::text GROUP BY a.account_id, b.account_id) AS p "
             "JOIN accounts na ON na.id = p.a_id JOIN accounts nb ON nb.id = p.b_id "
             "ORDER BY abs(p.wins - p.losses) DESC, p.games DESC, na.name, nb.name "
             "LIMIT ?::bigint OFFSET ?::bigint")
"""(since, limit, offset) -> a page of pairs of accounts that played rated games together
since then: names, games, wins and losses of the first, counted games, games given up
early; by
`PairRecord.score`, then games, highest first."""


LEDGER_ENTRIES_SQL = ("SELECT game_id, finished_at, record_lost_at IS NOT NULL FROM "
                      "rating_ledger ORDER BY id")


MARK_LOST_SQL = ("UPDATE rating_ledger SET record_lost_at = ?::timestamptz WHERE "
                 "game_id = ?::text AND record_lost_at IS NULL")
"""(when, game id) -> marks the game unless it is marked already."""


HISTORY_SQL = ("SELECT l.game_id, l.finished_at, s.mu_after, s.sigma_after, "
               "l.record_lost_at IS NOT NULL FROM "
               "rating_ledger_seats s JOIN rating_ledger l ON l.id = s.ledger_id WHERE "
               "s.account_id = ?::bigint AND l.pool = ?::text AND l.aborted = FALSE "
               "ORDER BY l.id DESC LIMIT ?::bigint")
"""(account, pool, limit) -> game, finished, mu and sigma after, record lost, newest
first."""


RECORD_SQL = ("SELECT b.bot, sum(CASE WHEN me.rank < b.rank THEN 1 ELSE 0 END), "
              "sum(CASE WHEN me.rank > b.rank THEN 1 ELSE 0 END), "
              "sum(CASE WHEN me.rank = b.rank THEN 1 ELSE 0 END) "
              "FROM rating_ledger_seats me JOIN rating_ledger l ON l.id = me.ledger_id "
              "JOIN rating_ledger_seats b ON b.ledger_id = me.ledger_id AND b.bot IS NOT NULL "
              "WHERE me.account_id = ?::bigint AND l.pool = ?::text AND l.aborted = FALSE "
              "GROUP BY b.bot ORDER BY b.bot")
"""(account, pool) -> per in-server bot: wins, losses, ties (once per bot seat)."""


BOT_GAMES_SQL = ("SELECT s.bot, count(*) FROM rating_ledger_seats s JOIN rating_ledger l "
                 "ON l.id = s.ledger_id WHERE l.pool = ?::text AND s.bot IS NOT NULL "
                 "AND l.aborted = FALSE GROUP BY s.bot")
"""(pool) -> per in-server bot: its rated games (seats) in the pool."""


BOARD_TOTAL_SQL = ("SELECT count(*) FROM ratings r JOIN accounts a ON a.id = r.account_id "
                   "WHERE r.pool = ?::text AND a.deleted_at IS NULL")
"""(pool) -> the live accounts rated in the pool."""


def leaderboard_sql(bots: int) -> str:
    """(pool, each bot's name, mu, sigma and games, limit, offset) -> a page of
    name, mu, sigma, games, bot, in_server: the accounts and the bots' fixed ratings
    together, settled ratings before provisional ones, each by the conservative estimate
    (`Rating.conservative`), highest first (an account before a bot it ties)."""
    values = ", ".join(["(?::text, ?::float8, ?::float8, ?::bigint, TRUE, TRUE)"] * bots)
    union = f" UNION ALL VALUES {values}" if bots else ""
    return ("SELECT name, mu, sigma, games, bot, in_server FROM (SELECT a.name AS name, "
            "r.mu AS mu, r.sigma AS sigma, r.games AS games, a.bot AS bot, FALSE AS in_server "
            "FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE "
            f"r.pool = ?::text AND a.deleted_at IS NULL{union}) AS board "
            f"ORDER BY sigma > {PROVISIONAL_SIGMA}, mu - {DISPLAY_Z} * sigma DESC, in_server, "
            "name "
            "LIMIT ?::bigint OFFSET ?::bigint")


def leaderboard_parameters(pool: Pool, bot_games: Mapping[str, int], limit: int,
                           offset: int) -> list[Any]:
    """`leaderboard_sql`'s parameters (its `bots` is `len(bot_ratings(pool))`)."""
    bots = [value for name, rating in bot_ratings(pool).items()
            for value in (name, rating.mu, rating.sigma, int(bot_games.get(name, 0)))]
    return [pool.value, *bots, limit, offset]


def history(rows: Sequence[Sequence[Any]]) -> list[HistoryPoint]:
    """`HISTORY_SQL`'s rows, oldest first."""
    return [HistoryPoint(game_id, finished_at, Rating(mu, sigma), bool(lost))
            for game_id, finished_at, mu, sigma, lost in reversed(rows)]


def game_ratings_sql(among: str) -> str:
    """(game ids as the dialect lists them: `among`) -> each seat of those ledger games:
    game, counted, aborted, seat, rank, account, bot, mu and sigma before and after."""
    return ("SELECT l.game_id, l.uncounted = FALSE, l.aborted, s.seat, s.rank, s.account_id, "
            "s.bot, "
            "s.mu_before, s.sigma_before, s.mu_after, s.sigma_after FROM rating_ledger l "
            f"JOIN rating_ledger_seats s ON s.ledger_id = l.id WHERE l.game_id {among} "
            "ORDER BY l.id, s.seat")


def game_ratings(rows: Sequence[Sequence[Any]]) -> dict[str, GameRatings]:
    """`game_ratings_sql`'s rows, by game."""
    seats: dict[str, list[LedgerSeat]] = {}
    counted: dict[str, tuple[bool, bool]] = {}
    for game_id, is_counted, aborted, seat, rank, account_id, bot, *values in rows:
        mu_before, sigma_before, mu_after, sigma_after = values
        counted[game_id] = bool(is_counted), bool(aborted)
        seats.setdefault(game_id, []).append(LedgerSeat(
            RatedSeat(seat, rank, account_id, bot), Rating(mu_before, sigma_before),
            Rating(mu_after, sigma_after)))
    return {game_id: GameRatings(game_id, counted[game_id][0], tuple(listed), counted[game_id][1])
            for game_id, listed in seats.items()}


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


REWRITE_SEAT_SQL = ("UPDATE rating_ledger_seats SET mu_before = ?::float8, "
                    "sigma_before = ?::float8, mu_after = ?::float8, sigma_after = ?::float8 "
                    "WHERE ledger_id = ?::bigint AND seat = ?::integer")
"""(mu and sigma before, mu and sigma after, ledger id, seat): a recompute's new values;
the row's game, seat, player and rank stay as they are."""


def rewritten(games: Sequence[tuple[int, RatedGame]], applied: Sequence[Sequence[LedgerSeat]]
              ) -> list[tuple[Any, ...]]:
    """`REWRITE_SEAT_SQL`'s parameters for every seat of the ledger."""
    return [(seat.before.mu, seat.before.sigma, seat.after.mu, seat.after.sigma, ledger_id,
             seat.seated.seat)
            for (ledger_id, _), seats in zip(games, applied, strict=True) for seat in seats]
