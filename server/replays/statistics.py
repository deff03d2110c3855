"""Card statistics, as CouncilRoom showed them, read from the dumps' Parquet tables
(docs/STATISTICS.md): per Kingdom card the win rate of the players who gained it against
those who did not, among games where it was in the Supply, and its gain rate; openings
(what a player gained on their turns 1 and 2) with their frequencies and win rates;
the first player's advantage by player count; and the distribution of game lengths. Each
is filterable by edition, player count, rated games only and rating band, and counts
people and bots apart; every rate comes with its sample size and a 95 % Wilson interval.

The engine is DuckDB (the `[stats]` extra): it reads the dumps' Parquet files where they
lie, in one process, and the same files load into Spark or Trino when a host outgrows a
machine. A refresh reads each dump part (a day's or a month's files, by its manifest)
once into small tables of counts per part, then sums the parts into the tables the
queries read: a query's work depends on the number of cards, openings and lengths, not
on the number of games.
"""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

BAND_WIDTH = 200
"""A rating band's width: band 1400 is a rating (before the game) of 1400 to 1599."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""
OPENING_TURNS = 2
"""An opening is what a player gained on their own turns 1 and 2."""
_PART = re.compile(r"^dominion-(\d{4}-\d{2}(?:-\d{2})?)\.manifest\.json$")
"""The manifests the statistics read: a month's or a day's (an `all` dump is for download
only: it repeats the others' games)."""
_TABLES = ("games", "seats", "gains")
_DIMENSIONS = "edition, players, rated, band, who"


class Who(StrEnum):
    """Whose figures: people and bots are counted apart."""

    PEOPLE = "people"
    """Seats a person held (for a game's figures: games a person played in)."""
    BOTS = "bots"
    """Seats a bot held, in-server or a bot account (games only bots played)."""


@dataclass(frozen=True, slots=True)
class Filters:
    edition: int | None = None
    players: int | None = None
    rated_only: bool = False
    band: int | None = None
    """A rating band's lower end (a multiple of BAND_WIDTH): only seats (for a game's
    figures, games whose seats' mean rating) in it; rated games only, then."""
    who: Who = Who.PEOPLE


@dataclass(frozen=True, slots=True)
class Rate:
    """`hits` of `n`, with its 95 % Wilson interval [low, high] (all 0 when n is 0)."""

    n: int
    hits: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, hits: int, n: int) -> Rate:
        low, high = wilson(hits, n)
        return cls(n, hits, hits / n if n else 0.0, low, high)


@dataclass(frozen=True, slots=True)
class CardFigures:
    card: str
    in_supply: int
    """Seats in games with the card in the Supply."""
    gain_rate: Rate
    """Of those seats, the ones that gained (or bought) it at least once."""
    with_card: Rate
    """The wins of the seats that gained it."""
    without_card: Rate
    """The wins of the seats that did not."""


@dataclass(frozen=True, slots=True)
class Opening:
    cards: tuple[str, ...]
    """Sorted; empty: nothing gained on turns 1 and 2."""
    share: Rate
    """How many of the seats opened so."""
    wins: Rate


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    players: int
    wins: Rate
    """The first player's wins (a shared win counts) in games of that many players."""
    fair: float
    """Their share if the order made no difference: 1 / players."""


@dataclass(frozen=True, slots=True)
class Length:
    turns: int
    """A game's length: the most turns any of its players took."""
    games: int


@dataclass(frozen=True, slots=True)
class Part:
    period: str
    games_sha256: str
    games: int


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of `hits` successes in `n` trials ((0, 0) for none)."""
    if n == 0:
        return 0.0, 0.0
    p, z2 = hits / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def dump_parts(folder: Path) -> dict[str, Path]:
    """The month and day dumps in `folder` by period, each game once: a day's dump is left
    out when its month's is there."""
    found = {match[1]: path for path in sorted(folder.glob("dominion-*.manifest.json"))
             if (match := _PART.match(path.name))}
    return {period: path for period, path in found.items()
            if len(period) == 7 or period[:7] not in found}


# One part's counts, from its three tables (bound as views `games`, `seats`, `gains`).
# A seat's band is its rating before the game; a game's, its rated seats' mean. Seats
# taken over by a bot and abandoned games count nowhere: no one played them to the end.
_SEAT_FACTS = f"""
CREATE OR REPLACE TEMP TABLE seat_facts AS
SELECT s.game_id, s.seat, g.edition, g.players, g.rated,
       CAST(floor(s.rating_before / {BAND_WIDTH}) * {BAND_WIDTH} AS INTEGER) AS band,
       CASE WHEN s.kind = 'person' THEN 'people' ELSE 'bots' END AS who,
       s.winner, g.kingdom
FROM seats s JOIN games g USING (game_id)
WHERE g.state = 'finished' AND NOT s.taken_over
"""
_PART_COUNTS = {
    "card_part": f"""
SELECT ? AS part, {_DIMENSIONS}, card, count(*) AS seats,
       count(*) FILTER (WHERE winner) AS wins,
       count(*) FILTER (WHERE gained) AS gainers,
       count(*) FILTER (WHERE gained AND winner) AS gainer_wins
FROM (SELECT f.*, unnest(f.kingdom) AS card FROM seat_facts f) k
LEFT JOIN (SELECT DISTINCT game_id, seat, card, true AS gained FROM gains)
    USING (game_id, seat, card)
GROUP BY ALL""",
    "opening_part": f"""
SELECT ? AS part, {_DIMENSIONS}, coalesce(o.opening, '') AS opening, count(*) AS seats,
       count(*) FILTER (WHERE winner) AS wins
FROM seat_facts f LEFT JOIN (
    SELECT game_id, seat, string_agg(card, '+' ORDER BY card) AS opening FROM gains
    WHERE player_turn BETWEEN 1 AND {OPENING_TURNS} GROUP BY game_id, seat
) o USING (game_id, seat)
GROUP BY ALL""",
    "game_part": f"""
SELECT ? AS part, edition, players, rated,
       CAST(floor(avg(s.rating_before) / {BAND_WIDTH}) * {BAND_WIDTH} AS INTEGER) AS band,
       CASE WHEN bool_or(s.kind = 'person') THEN 'people' ELSE 'bots' END AS who,
       max(s.turns) AS length,
       bool_or(s.seat = g.first_player AND s.winner) AS first_won
FROM games g JOIN seats s USING (game_id)
WHERE g.state = 'finished'
GROUP BY g.game_id, edition, players, rated""",
}
_MERGED = {
    "cards": ("card_part", "card", "sum(seats) AS seats, sum(wins) AS wins, "
              "sum(gainers) AS gainers, sum(gainer_wins) AS gainer_wins"),
    "openings": ("opening_part", "opening", "sum(seats) AS seats, sum(wins) AS wins"),
    "lengths": ("game_counts", "length", "sum(games) AS games, sum(first_wins) AS first_wins"),
}


class Statistics:
    """The statistics of the dumps in one folder, in a DuckDB database in memory.
    `refresh` reads the parts that are new or changed since the last, in one transaction
    (one refresh at a time); the queries read the sums, each on a cursor of its own, so
    that they go on answering from the sums before it while a refresh reads (the server
    calls both from worker threads)."""

    def __init__(self, folder: Path) -> None:
        import duckdb

        self.folder = folder
        self._db = duckdb.connect(":memory:", config={"threads": 1})
        self._writer = self._db.cursor()
        self._refreshing = threading.Lock()
        self._cursors = threading.Lock()
        self._parts: dict[str, Part] = {}
        self._writer.execute("""
            CREATE TABLE card_part (part TEXT, edition TINYINT, players TINYINT,
                rated BOOLEAN, band INTEGER, who TEXT, card TEXT, seats BIGINT, wins BIGINT,
                gainers BIGINT, gainer_wins BIGINT);
            CREATE TABLE opening_part (part TEXT, edition TINYINT, players TINYINT,
                rated BOOLEAN, band INTEGER, who TEXT, opening TEXT, seats BIGINT,
                wins BIGINT);
            CREATE TABLE game_counts (part TEXT, edition TINYINT, players TINYINT,
                rated BOOLEAN, band INTEGER, who TEXT, length INTEGER, games BIGINT,
                first_wins BIGINT);
            """)
        self._merge()

    @property
    def parts(self) -> list[Part]:
        """The parts the figures count (replaced whole by a refresh, never changed)."""
        return list(self._parts.values())

    def refresh(self) -> list[str]:
        """Read the parts that are new or whose files changed, drop those whose files
        went; the periods read. A part that cannot be read leaves the figures as they
        were (and raises)."""
        with self._refreshing:
            found = dump_parts(self.folder)
            changed: list[tuple[str, dict[str, Any]]] = []
            for period, path in found.items():
                manifest = json.loads(path.read_text())
                files = {name: entry for entry in manifest["files"]
                         if (name := _table_of(entry["name"])) in _TABLES}
                if set(files) != set(_TABLES):
                    continue
                known = self._parts.get(period)
                if known is None or known.games_sha256 != files["games"]["sha256"]:
                    changed.append((period, files))
            gone = [period for period in self._parts if period not in found]
            if not changed and not gone:
                return []
            parts = dict(self._parts)
            self._writer.execute("BEGIN")
            try:
                for period in gone + [period for period, _ in changed]:
                    for table in ("card_part", "opening_part", "game_counts"):
                        self._writer.execute(f"DELETE FROM {table} WHERE part = ?", [period])
                    parts.pop(period, None)
                for period, files in changed:
                    parts[period] = self._read_part(period, files)
                self._merge()
                self._writer.execute("COMMIT")
            except BaseException:
                self._writer.execute("ROLLBACK")
                raise
            self._parts = parts
        return [period for period, _ in changed]

    def _read_part(self, period: str, files: dict[str, dict[str, Any]]) -> Part:
        for table in _TABLES:
            where = str(self.folder / files[table]["name"]).replace("'", "''")
            self._writer.execute(f"CREATE OR REPLACE TEMP VIEW {table} AS "
                             f"SELECT * FROM read_parquet('{where}')")
        self._writer.execute(_SEAT_FACTS)
        for table in ("card_part", "opening_part"):
            self._writer.execute(f"INSERT INTO {table} {_PART_COUNTS[table]}", [period])
        self._writer.execute(f"""
            INSERT INTO game_counts
            SELECT part, {_DIMENSIONS}, length, count(*), count(*) FILTER (WHERE first_won)
            FROM ({_PART_COUNTS['game_part']}) GROUP BY ALL""", [period])
        self._writer.execute("DROP TABLE seat_facts")
        return Part(period, files["games"]["sha256"], files["games"]["rows"])

    def _merge(self) -> None:
        for merged, (table, key, sums) in _MERGED.items():
            self._writer.execute(f"CREATE OR REPLACE TABLE {merged} AS SELECT {_DIMENSIONS}, "
                             f"{key}, {sums} FROM {table} GROUP BY ALL")

    def _select(self, table: str, key: str, sums: str, filters: Filters
                ) -> list[tuple[Any, ...]]:
        where, values = _where(filters)
        with self._cursors:
            cursor = self._db.cursor()
        try:
            return cursor.execute(
                f"SELECT {key}, {sums} FROM {table} WHERE {where} GROUP BY ALL ORDER BY 1",
                values).fetchall()
        finally:
            cursor.close()

    def cards(self, filters: Filters) -> list[CardFigures]:
        """Every Kingdom card seen under the filters, by its id."""
        rows = self._select("cards", "card", "sum(seats), sum(wins), sum(gainers), "
                            "sum(gainer_wins)", filters)
        return [CardFigures(card, int(seats), Rate.of(int(gainers), int(seats)),
                            Rate.of(int(gainer_wins), int(gainers)),
                            Rate.of(int(wins - gainer_wins), int(seats - gainers)))
                for card, seats, wins, gainers, gainer_wins in rows]

    def openings(self, filters: Filters, limit: int) -> tuple[int, list[Opening]]:
        """The seats counted, and the `limit` most frequent openings, most frequent first."""
        rows = self._select("openings", "opening", "sum(seats), sum(wins)", filters)
        total = sum(int(seats) for _, seats, _ in rows)
        rows.sort(key=lambda row: (-row[1], row[0]))
        return total, [Opening(tuple(opening.split("+")) if opening else (),
                               Rate.of(int(seats), total), Rate.of(int(wins), int(seats)))
                       for opening, seats, wins in rows[:limit]]

    def first_player(self, filters: Filters) -> list[FirstPlayer]:
        rows = self._select("lengths", "players", "sum(games), sum(first_wins)", filters)
        return [FirstPlayer(int(players), Rate.of(int(wins), int(games)), 1 / players)
                for players, games, wins in rows]

    def lengths(self, filters: Filters) -> list[Length]:
        rows = self._select("lengths", "length", "sum(games)", filters)
        return [Length(int(turns), int(games)) for turns, games in rows if turns is not None]

    def close(self) -> None:
        with self._refreshing, self._cursors:
            self._writer.close()
            self._db.close()


def _table_of(name: str) -> str:
    """`dominion-2026-12.seats.parquet` -> `seats`."""
    parts = name.split(".")
    return parts[1] if len(parts) == 3 and parts[2] == "parquet" else ""


def _where(filters: Filters) -> tuple[str, list[Any]]:
    clauses: list[str] = ["who = ?"]
    values: list[Any] = [filters.who.value]
    if filters.edition is not None:
        clauses.append("edition = ?")
        values.append(filters.edition)
    if filters.players is not None:
        clauses.append("players = ?")
        values.append(filters.players)
    if filters.rated_only or filters.band is not None:
        clauses.append("rated")
    if filters.band is not None:
        clauses.append("band = ?")
        values.append(filters.band)
    return " AND ".join(clauses), values
