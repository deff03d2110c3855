"""The replay export to one client: replays per second, and the server's CPU per replay.

Archives finished bot games as the server's outbox hands them over (`dominion-server fill
--direct`: the archive beside the games file keeps each one's replay), starts the server
on them (its per-address work budget raised out of the way: this measures the route, not
the budget), and reads the whole archive a page at a time with the cursor, once in each
format and coding: NDJSON or msgpack, plain, gzip or zstd; each replay is spliced from
the kept one, as in production. `--played-back` marks the kept replays as another
version's, so that each is made again by playing its answers back (a game archived before
the archive kept replays). Meanwhile, in a process of its own, a 2-player game is played
over the WebSocket protocol, both seats answering as people would (bench/server_load.py's
clients, THINK_MS apart), game after game: its answers' round trips (an answer sent to
the game's next decision) are an unrelated game's latency during an export; the same
game alone, before the export, is the baseline (docs/BENCHMARKS.md, "The replay export").
`--budgeted` keeps the server's work budgets instead: one page an export, paced as a
server paces one address's export, for the game's latency beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from contextlib import closing
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp
import msgpack  # type: ignore[import-untyped]
import orjson
import zstandard
from prometheus_client.parser import text_string_to_metric_families
from server_load import HOST, Driver, free_port, percentiles, stop, wait_for_port

from dominion.server.accounts.store import sqlite_path_beside

VARIANTS = (("application/x-ndjson", ""), ("application/x-ndjson", "gzip"),
            ("application/x-ndjson", "zstd"), ("application/msgpack", ""),
            ("application/msgpack", "zstd"))
BUDGETS = ("work-per-second", "work-burst", "server-work-per-second", "server-work-burst")
"""Raised out of the way (but with --budgeted): the bench measures the route, not the
budgets."""
THINK_MS = 20
"""The probing game's pause before each answer (jittered by half either way)."""
ALONE_SECONDS = 3.0
"""How long the probing game is measured alone, before the exports."""


def build(db: str, games: int, played_back: bool) -> None:
    """`games` finished bot games in the archive beside `db`, as the outbox hands them
    over; with `played_back`, their kept replays marked as made by another version."""
    subprocess.run([sys.executable, "-m", "dominion.server.main", "fill", "--direct",
                    "--db", db, "--games", str(games), "--seed", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    if played_back:
        with closing(sqlite3.connect(sqlite_path_beside(db))) as archive, archive:
            archive.execute("UPDATE archived_games SET replay_version = replay_version - 1")


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Decoder:
    """Undoes a page's coding, then counts its replays as they come."""

    def __init__(self, media: str, coding: str) -> None:
        self.media = media
        self.inflate: Any = (zlib.decompressobj(31) if coding == "gzip"
                             else zstandard.ZstdDecompressor().decompressobj()
                             if coding == "zstd" else None)
        self.unpacker = msgpack.Unpacker(raw=False)
        self.pending = b""
        self.replays = 0

    def feed(self, chunk: bytes) -> None:
        data = chunk if self.inflate is None else self.inflate.decompress(chunk)
        if self.media == "application/msgpack":
            self.unpacker.feed(data)
            self.replays += sum(1 for _ in self.unpacker)
            return
        *lines, self.pending = (self.pending + data).split(b"\n")
        for line in lines:
            orjson.loads(line)
            self.replays += 1


async def export_all(base: str, media: str, coding: str, query: dict[str, str],
                     pages: int | None) -> dict[str, Any]:
    """The games the export's `query` selects, a page at a time (the first `pages`; None:
    every one): replays, bytes and seconds."""
    replays, received, cursor = 0, 0, None
    headers = {"Accept": media, "Accept-Encoding": coding or "identity"}
    started = time.perf_counter()
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        for _ in itertools.repeat(None) if pages is None else range(pages):
            params = {**query, **({"cursor": cursor} if cursor else {})}
            async with http.get(base + "/api/v1/replays/export", params=params,
                                headers=headers) as response:
                assert response.status == 200, await response.text()
                decoder = Decoder(media, coding)  # a page is one compressed stream
                async for chunk in response.content.iter_any():
                    received += len(chunk)
                    decoder.feed(chunk)
                replays += decoder.replays
                cursor = response.headers.get("X-Dominion-Next-Cursor")
            if cursor is None:
                break
    return {"replays": replays, "bytes": received,
            "seconds": time.perf_counter() - started}


def probe(base: str, pipe: Connection) -> None:
    """The probing game (both seats of a 2-player game, big_money's answers, THINK_MS
    apart, a new game when one ends), in a process of its own so that the export's
    client, decoding, never delays it: "ready" once it plays, then its answers' round
    trips in seconds between each "measure" and "stop" it is told, until "end"."""

    async def run() -> None:
        driver = Driver(base, 1, 10**9, THINK_MS / 1000, "probe", 2)
        await driver.start()
        driver.play()
        loop = asyncio.get_running_loop()
        pipe.send("ready")
        while (told := await loop.run_in_executor(None, pipe.recv)) != "end":
            driver.stats.measuring = told == "measure"
            if told == "stop":
                pipe.send(driver.stats.latencies)
                driver.stats.latencies = []
        await driver.finish()

    asyncio.run(run())


def probed(pipe: Connection) -> dict[str, float]:
    """The probing game's round trips since "measure": p50, p99, max (ms), count."""
    pipe.send("stop")
    return percentiles(pipe.recv())


async def answered(base: str) -> dict[float, float]:
    """The server's answers so far (from frame read to ack) by bucket of
    `dominion_answer_seconds`: cumulative counts by upper bound, in seconds."""
    async with aiohttp.ClientSession() as http, http.get(f"{base}/metrics") as reply:
        text = await reply.text()
    return {float(sample.labels["le"]): sample.value
            for family in text_string_to_metric_families(text)
            if family.name == "dominion_answer_seconds"
            for sample in family.samples if sample.name.endswith("_bucket")}


def p99_bound_ms(before: dict[float, float], after: dict[float, float]) -> float:
    """The upper bound (ms) of the bucket that holds the 99th percentile of the answers
    between two readings of `answered` (the server's share of a round trip)."""
    total = after[float("inf")] - before.get(float("inf"), 0)
    return next(1000 * bound for bound in sorted(after)
                if after[bound] - before.get(bound, 0) >= 0.99 * total)


async def measure(base: str, pid: int, pipe: Connection, media: str, coding: str,
                  query: dict[str, str], pages: int | None) -> dict[str, Any]:
    pipe.send("measure")
    cpu, answers = cpu_seconds(pid), await answered(base)
    result = await export_all(base, media, coding, query, pages)
    result["server_cpu_s"] = cpu_seconds(pid) - cpu
    result["probe"] = probed(pipe)
    result["server_answer_p99_ms"] = p99_bound_ms(answers, await answered(base))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--limit", type=int, default=1000, help="replays a page")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each variant (best)")
    parser.add_argument("--db", help="use (or build) this games file, its archive beside "
                                     "it; kept afterwards")
    parser.add_argument("--played-back", action="store_true",
                        help="each replay made again by playing its answers back (when "
                             "the bench builds the archive)")
    parser.add_argument("--budgeted", action="store_true",
                        help="keep the server's work budgets (an export paced as a server "
                             "paces it) and read one page of --limit replays a variant")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="export-bench-")
    db = args.db or os.path.join(folder, "games.sqlite3")
    try:
        if not sqlite_path_beside(db).exists():
            build(db, args.games, args.played_back)
        port = free_port()
        # the games archived before the server starts, not the probing game's (a second
        # later: an end time is in whole seconds, and `until` leaves its own second out)
        until = (datetime.now(UTC) + timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        query = {"limit": str(args.limit), "until": until}
        with open(os.path.join(folder, "server.log"), "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "dominion.server.main", "--host", HOST, "--port",
                 str(port), "--db", db, "--log-level", "WARNING",
                 *(arg for name in BUDGETS if not args.budgeted
                   for arg in (f"--{name}", str(10**9)))],
                stdout=log, stderr=log)
        pipe, probes_end = multiprocessing.Pipe()
        prober = multiprocessing.Process(target=probe, args=(f"http://{HOST}:{port}",
                                                             probes_end))
        try:
            wait_for_port(process, port, "the server")
            base = f"http://{HOST}:{port}"
            prober.start()
            assert pipe.recv() == "ready"
            pipe.send("measure")
            answers = asyncio.run(answered(base))
            time.sleep(ALONE_SECONDS)
            alone = probed(pipe)
            alone["server_p99_at_most"] = p99_bound_ms(answers, asyncio.run(answered(base)))
            runs: dict[str, list[dict[str, Any]]] = {}
            for _ in range(args.repeat):  # interleaved: the machine's load drifts
                for media, coding in VARIANTS:
                    name = f"{media.split('/')[1]}+{coding or 'identity'}"
                    runs.setdefault(name, []).append(asyncio.run(
                        measure(base, process.pid, pipe, media, coding, query,
                                1 if args.budgeted else None)))
            pipe.send("end")
            prober.join()
        finally:
            if prober.is_alive():
                prober.kill()
            stop(process)
        result: dict[str, Any] = {"games": args.games, "limit": args.limit,
                                  "played_back": args.played_back,
                                  "budgeted": args.budgeted, "probe_alone": alone,
                                  "variants": {}}
        for name, measured in runs.items():
            best = min(measured, key=lambda run: run["seconds"])
            result["variants"][name] = {
                "replays": best["replays"],
                "replays_per_second": best["replays"] / best["seconds"],
                "server_cpu_ms_per_replay": 1000 * best["server_cpu_s"] / best["replays"],
                "bytes_per_replay": best["bytes"] / best["replays"],
                "probe_p99_ms": max(run["probe"]["p99"] for run in measured),
                "server_answer_p99_at_most_ms": max(run["server_answer_p99_ms"]
                                                    for run in measured),
                "probe_answers": sum(run["probe"]["count"] for run in measured)}
        if args.json:
            print(json.dumps(result))
        else:
            print(f"the probing game alone: p50 {alone['p50']:.1f} ms, p99 "
                  f"{alone['p99']:.1f} ms ({alone['count']} answers), in the server <= "
                  f"{alone['server_p99_at_most']:g} ms")
            for name, figures in result["variants"].items():
                print(f"{name:22} {figures['replays_per_second']:7.0f} replays/s, server "
                      f"{figures['server_cpu_ms_per_replay']:.2f} ms CPU a replay, "
                      f"{figures['bytes_per_replay']:7.0f} B a replay, a game's answer p99 "
                      f"{figures['probe_p99_ms']:.1f} ms ({figures['probe_answers']}), in "
                      f"the server <= {figures['server_answer_p99_at_most_ms']:g} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
