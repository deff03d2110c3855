"""A dump loaded into DuckDB: its three Parquet tables and its replays (the zstd NDJSON
as it is, one JSON value a row) copied into a DuckDB file, each one's rows and time, then
the analyst's first question (first-player advantage) over the loaded tables
(docs/BENCHMARKS.md, "Replays as data").

Run it on the files `dominion-server dump --period P --out DIR` wrote:
`python bench/dump_load.py DIR P`. One DuckDB thread: the figures are one core's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import duckdb

TABLES = ("games", "seats", "gains")
FIRST_PLAYER = ("SELECT avg(CAST(s.winner AS INT)) FROM seats s JOIN games g USING (game_id) "
                "WHERE g.players = 2 AND s.seat = g.first_player")


def timed(connection: duckdb.DuckDBPyConnection, what: str, sql: str, table: str) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    connection.execute(sql)
    found = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
    print(f"{what}: {found[0] if found else 0} rows, {time.process_time() - cpu:.2f} s CPU, "
          f"{time.perf_counter() - wall:.2f} s wall")


def main() -> None:
    parsing = argparse.ArgumentParser(description=__doc__)
    parsing.add_argument("folder", type=Path, help="where the dump's files are")
    parsing.add_argument("period", help="the dump's period (2026-12, 2026-12-02, all)")
    arguments = parsing.parse_args()
    base = arguments.folder / f"dominion-{arguments.period}"
    connection = duckdb.connect(str(arguments.folder / "dump.duckdb"))
    connection.execute("SET threads = 1")
    for table in TABLES:
        timed(connection, table, f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM "
                                 f"'{base}.{table}.parquet'", table)
    timed(connection, "replays", "CREATE OR REPLACE TABLE replays AS SELECT "
                                 "json->>'$.game.id' AS game_id, json FROM read_ndjson_objects("
                                 f"'{base}.replays.ndjson.zst', compression = 'zstd', "
                                 "maximum_object_size = 16777216)", "replays")
    cpu, wall = time.process_time(), time.perf_counter()
    found = connection.execute(FIRST_PLAYER).fetchone()
    print(f"first player's win rate, 2 players: {found[0] if found else None}, "
          f"{time.process_time() - cpu:.3f} s CPU, {time.perf_counter() - wall:.3f} s wall")


if __name__ == "__main__":
    main()
