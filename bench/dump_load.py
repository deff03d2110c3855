"""A dump loaded into DuckDB: its three Parquet tables and its replays (the zstd NDJSON
as it is, one JSON value a row) copied into a DuckDB file, each one's rows and time, then
the analyst's first question (first-player advantage) over the loaded tables
(docs/BENCHMARKS.md, "Replays as data").

Run it on the files `dominion-server dump --period P --out DIR` wrote:
`python bench/dump_load.py DIR P`. One DuckDB thread: the figures are one core's.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import duckdb

TABLES = ("games", "seats", "gains")
FIRST_PLAYER = ("SELECT avg(CAST(s.winner AS INT)) FROM seats s JOIN games g USING (game_id) "
                "WHERE g.players = 2 AND s.seat = g.first_player")


def timed(connection: duckdb.DuckDBPyConnection, sql: str, table: str) -> dict[str, Any]:
    """Run `sql`, which makes `table`: its rows, CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    connection.execute(sql)
    found = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
    return {"rows": found[0] if found else 0, "cpu_seconds": time.process_time() - cpu,
            "wall_seconds": time.perf_counter() - wall}


def load(folder: Path, period: str) -> dict[str, Any]:
    """Each table's and the replays' load, and the first question's answer and time."""
    base = folder / f"dominion-{period}"
    connection = duckdb.connect(str(folder / "dump.duckdb"))
    connection.execute("SET threads = 1")
    figures = {table: timed(connection, f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM "
                                        f"'{base}.{table}.parquet'", table)
               for table in TABLES}
    figures["replays"] = timed(
        connection, "CREATE OR REPLACE TABLE replays AS SELECT json->>'$.game.id' AS game_id, "
                    f"json FROM read_ndjson_objects('{base}.replays.ndjson.zst', "
                    "compression = 'zstd', maximum_object_size = 16777216)", "replays")
    cpu = time.process_time()
    found = connection.execute(FIRST_PLAYER).fetchone()
    figures["first_player"] = {"win_rate": found[0] if found else None,
                               "cpu_seconds": time.process_time() - cpu}
    return figures


def main() -> None:
    parsing = argparse.ArgumentParser(description=__doc__)
    parsing.add_argument("folder", type=Path, help="where the dump's files are")
    parsing.add_argument("period", help="the dump's period (2026-12, 2026-12-02, all)")
    parsing.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parsing.parse_args()
    figures = load(arguments.folder, arguments.period)
    if arguments.json:
        print(json.dumps(figures))
        return
    for what, found in figures.items():
        print(f"{what}: " + ", ".join(f"{key} {value:.3f}" if isinstance(value, float)
                                      else f"{key} {value}" for key, value in found.items()))


if __name__ == "__main__":
    main()
