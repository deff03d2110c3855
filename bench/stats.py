"""The card statistics over a million games: how long a refresh takes to read the dumps,
and each statistics query's latency (p50, p95) on one core (docs/BENCHMARKS.md, "Card
statistics").

Real games first: `dominion-server fill` plays `--games` bot games and `dominion-server
dump` writes their month. A million real games would take this machine hours to play and
dump (about 200 games a CPU second each), so the million is made by scaling: each of
`--parts` day dumps holds the real games' rows repeated (fresh game ids) until the parts
hold `--scale-to` games in all. The figures' distribution is the real games', repeated;
the work of a refresh and of a query is the same as over as many distinct games (a query
reads the summed counts, whose size depends on the cards, openings and lengths seen, not
on the games).

`--dumps DIR` reads a folder of real dumps instead (`dominion-server dump --period
2026-12 --out DIR` of a filled server): no scaling, no extra day; the refresh and the
queries over what is there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
from aiohttp.test_utils import TestClient, TestServer

from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.replays.dump import LICENCE, DumpFile
from dominion.server.replays.statistics import BAND_WIDTH, Filters, Statistics, Who
from dominion.server.settings import Settings

TABLES = ("games", "seats", "gains")


def server(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "dominion.server.main", *arguments], check=True,
                   capture_output=True)


def real_dump(folder: Path, games: int) -> str:
    """Fill and dump `games` real bot games; the period of their dump."""
    db = folder / "games.sqlite3"
    server("fill", "--db", str(db), "--games", str(games), "--seed", "40")
    period = datetime.now(UTC).strftime("%Y-%m")
    server("dump", "--db", str(db), "--period", period, "--out", str(folder))
    return period


def scaled_parts(real: Path, period: str, out: Path, parts: int, total: int) -> int:
    """`parts` day dumps in `out` holding `total` games between them, each the real dump's
    rows repeated with fresh game ids; the games written."""
    db = duckdb.connect()
    base = {table: f"'{real}/dominion-{period}.{table}.parquet'" for table in TABLES}
    real_games = db.execute(f"SELECT count(*) FROM {base['games']}").fetchone()[0]  # type: ignore[index]
    copies = math.ceil(total / parts / real_games)
    written = 0
    for day in range(1, parts + 1):
        name = f"2026-11-{day:02d}"
        files: list[dict[str, Any]] = []
        for table in TABLES:
            target = DumpFile(f"dominion-{name}.{table}.parquet")
            db.execute(f"""
                COPY (SELECT * REPLACE (game_id || '-{day}-' || copy AS game_id)
                      FROM {base[table]}, range({copies}) AS r(copy))
                TO '{target.partial(out)}' (FORMAT PARQUET, COMPRESSION ZSTD)""")
            target.rows = db.execute(f"SELECT count(*) FROM read_parquet('{target.partial(out)}')"
                                     ).fetchone()[0]  # type: ignore[index]
            target.seal(out)
            target.publish(out)
            files.append({"name": target.name, "rows": target.rows, "bytes": target.bytes,
                          "sha256": target.sha256})
        written += files[0]["rows"]
        (out / f"dominion-{name}.manifest.json").write_text(json.dumps(
            {"period": name, "made_at": "2026-12-02T00:00:00Z", "licence": LICENCE,
             "files": files}))
    return written


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
    return {"p50_ms": round(at(0.50) * 1000, 2), "p95_ms": round(at(0.95) * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2)}


def random_filters(rng: random.Random) -> Filters:
    return Filters(edition=rng.choice([None, 1, 2]), players=rng.choice([None, None, 2, 3, 4]),
                   rated_only=rng.random() < 0.2,
                   band=rng.choice([None] * 4 + [BAND_WIDTH * 7]),
                   who=rng.choice([Who.BOTS, Who.BOTS, Who.PEOPLE]))


def queries(statistics: Statistics, count: int) -> dict[str, dict[str, float]]:
    """Each query `count` times under random filters: its latencies."""
    rng = random.Random(40)
    asks: dict[str, Any] = {"cards": statistics.cards,
                             "openings": lambda f: statistics.openings(f, 20),
                             "first_player": statistics.first_player,
                             "lengths": statistics.lengths}
    times: dict[str, list[float]] = {name: [] for name in asks}
    for _ in range(count):
        filters = random_filters(rng)
        for name, ask in asks.items():
            started = time.perf_counter()
            ask(filters)
            times[name].append(time.perf_counter() - started)
    return {name: percentiles(values) for name, values in times.items()}


async def over_http(statistics: Statistics, db: Path, count: int) -> dict[str, float]:
    """`GET /api/v1/stats/cards` `count` times under random filters, through the server's
    whole path (HTTP, the query in a worker thread, JSON), the statistics read already:
    its latencies. Each request from an address of its own (a trusted proxy says which),
    so that no address's allowance of look-ups refuses it."""
    app = create_app(Settings(db=str(db), trusted_proxies=("127.0.0.1",)))
    rng = random.Random(41)
    times = []
    async with TestClient(TestServer(app)) as client:
        app[STATE].statistics = statistics
        for n in range(count):
            filters = random_filters(rng)
            query = {"who": filters.who.value, "rated": str(filters.rated_only).lower(),
                     **{name: str(value) for name in ("edition", "players", "band")
                        if (value := getattr(filters, name)) is not None}}
            started = time.perf_counter()
            response = await client.get("/api/v1/stats/cards", params=query, headers={
                "X-Forwarded-For": f"10.{n // 250 % 250}.{n % 250}.1"})
            assert response.status == 200, await response.text()
            await response.read()
            times.append(time.perf_counter() - started)
    return percentiles(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="real games to play and dump")
    parser.add_argument("--scale-to", type=int, default=1_000_000, help="games in all")
    parser.add_argument("--parts", type=int, default=30, help="day dumps they are split into")
    parser.add_argument("--queries", type=int, default=200, help="queries of each kind")
    parser.add_argument("--dumps", type=Path, help="a folder of real dumps to read instead")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if arguments.dumps:
        result = over_real_dumps(arguments.dumps, arguments.queries)
    else:
        result = over_scaled_dumps(arguments)
    if arguments.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))


def timed_refresh(statistics: Statistics) -> dict[str, float]:
    """A refresh reading every part: its wall and CPU seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    statistics.refresh()
    return {"seconds": round(time.perf_counter() - started, 2),
            "cpu_seconds": round(time.process_time() - cpu, 2)}


def over_real_dumps(folder: Path, count: int) -> dict[str, Any]:
    """The refresh and the queries over a folder of real dumps."""
    statistics = Statistics(folder)
    refresh = timed_refresh(statistics)
    with tempfile.TemporaryDirectory() as temporary:
        result = {"games": sum(entry["rows"]
                               for path in folder.glob("dominion-*.manifest.json")
                               for entry in json.loads(path.read_text())["files"]
                               if entry["name"].endswith(".games.parquet")),
                  "parquet_bytes": sum(path.stat().st_size for path in folder.glob("*.parquet")),
                  "refresh": refresh, "queries": queries(statistics, count),
                  "cards_over_http": asyncio.run(over_http(
                      statistics, Path(temporary) / "http.sqlite3", count))}
    statistics.close()
    return result


def over_scaled_dumps(arguments: argparse.Namespace) -> dict[str, Any]:
    """Real games played and dumped, scaled to `--scale-to` in `--parts` day dumps: the
    refresh, one more day's, and the queries."""
    with tempfile.TemporaryDirectory() as temporary:
        real, scaled = Path(temporary) / "real", Path(temporary) / "dumps"
        real.mkdir()
        scaled.mkdir()
        period = real_dump(real, arguments.games)
        games = scaled_parts(real, period, scaled, arguments.parts, arguments.scale_to)
        statistics = Statistics(scaled)
        refresh = timed_refresh(statistics)
        # one more day's dump, read incrementally
        extra = Path(temporary) / "extra"
        extra.mkdir()
        scaled_parts(real, period, extra, 1, math.ceil(games / arguments.parts))
        for made in extra.iterdir():
            made.rename(scaled / made.name.replace("2026-11-01", "2026-10-31"))
        started = time.perf_counter()
        assert statistics.refresh() == ["2026-10-31"]
        incremental = round(time.perf_counter() - started, 2)
        result: dict[str, Any] = {
            "real_games": arguments.games, "games": games, "parts": arguments.parts,
            "parquet_bytes": sum(path.stat().st_size for path in scaled.glob("*.parquet")),
            "refresh": refresh, "incremental_part_seconds": incremental,
            "queries": queries(statistics, arguments.queries),
            "cards_over_http": asyncio.run(over_http(statistics, Path(temporary) / "http.sqlite3",
                                                     arguments.queries))}
        statistics.close()
    return result


if __name__ == "__main__":
    main()
