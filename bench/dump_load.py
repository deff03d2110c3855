"""A dump loaded into DuckDB: its three Parquet tables copied into a DuckDB file, each
one's rows and time; its replays (the zstd NDJSON as it is) read where they lie, every
one parsed to count its answers; then the analyst's first question (first-player
advantage) over the loaded tables (docs/BENCHMARKS.md, "Replays as data").

The replays are queried in place, not copied: a million of them are some 33 GB of JSON,
which a table would hold twice over, while a scan streams them in bounded memory.

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
MEMORY_LIMIT = "2GB"
"""DuckDB's own bound (its default is most of the machine's memory): the load must stream."""
FIRST_PLAYER = ("SELECT avg(CAST(s.winner AS INT)) FROM seats s JOIN games g USING (game_id) "
                "WHERE g.players = 2 AND s.seat = g.first_player")


def timed(connection: duckdb.DuckDBPyConnection, sql: str, count: str) -> dict[str, Any]:
    """Run `sql`, then `count` (its rows, and what else it finds): CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    connection.execute(sql)
    found = connection.execute(count)
    row = found.fetchone() or ()
    names = [column[0] for column in found.description or ()]
    return {**dict(zip(names, row, strict=True)), "cpu_seconds": time.process_time() - cpu,
            "wall_seconds": time.perf_counter() - wall}


def load(folder: Path, period: str) -> dict[str, Any]:
    """Each table's and the replays' load, and the first question's answer and time."""
    base = folder / f"dominion-{period}"
    database = folder / "dump.duckdb"
    database.unlink(missing_ok=True)  # each run loads afresh
    connection = duckdb.connect(str(database))
    connection.execute("SET threads = 1")
    connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    connection.execute("SET preserve_insertion_order = false")
    figures = {table: timed(connection, f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM "
                                        f"'{base}.{table}.parquet'",
                            f"SELECT count(*) AS rows FROM {table}")
               for table in TABLES}
    figures["replays"] = timed(
        connection, "CREATE OR REPLACE VIEW replays AS SELECT json FROM read_ndjson_objects("
                    f"'{base}.replays.ndjson.zst', compression = 'zstd', "
                    "maximum_object_size = 16777216)",
        "SELECT count(*) AS rows, sum(json_array_length(json, '$.answers')) AS answers "
        "FROM replays")
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
