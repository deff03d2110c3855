"""The replay export to one client: replays per second, and the server's CPU per replay.

Fills a games file with finished bot games (`dominion-server fill`), starts the server on
it (its per-address work budget raised out of the way: this measures the route, not the
budget), and reads the whole archive a page at a time with the cursor, once in each
format and coding: NDJSON or msgpack, plain, gzip or zstd. Meanwhile another client asks
for `/healthz` every 20 ms: its round trip's p99 stands in for an unrelated game's
latency during an export (docs/BENCHMARKS.md, "The replay export").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp
import msgpack  # type: ignore[import-untyped]
import zstandard
from server_load import HOST, free_port, stop, wait_for_port

from dominion.server.play.fill import fill
from dominion.server.storage import Storage

VARIANTS = (("application/x-ndjson", ""), ("application/x-ndjson", "gzip"),
            ("application/x-ndjson", "zstd"), ("application/msgpack", ""),
            ("application/msgpack", "zstd"))
BUDGETS = ("work-per-second", "work-burst", "server-work-per-second", "server-work-burst")
"""Raised out of the way: the bench measures the route, not the budgets."""


async def build(db: str, games: int) -> None:
    storage = Storage.open(db)
    await storage.start()
    try:
        await fill(storage, games, seed=1)
    finally:
        await storage.close()


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
            json.loads(line)
            self.replays += 1


async def export_all(base: str, media: str, coding: str, limit: int) -> dict[str, Any]:
    """Every ended game, a page at a time: replays, bytes and seconds."""
    replays, received, cursor = 0, 0, None
    headers = {"Accept": media, "Accept-Encoding": coding or "identity"}
    started = time.perf_counter()
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        while True:
            params = {"limit": str(limit), **({"cursor": cursor} if cursor else {})}
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


def probe(base: str, stop_when: Any, taken: Any) -> None:
    """/healthz round trips in milliseconds, one each 20 ms, until told to stop: in a
    process of its own, so that the export's client, decoding, never delays it."""
    import urllib.request
    while not stop_when.is_set():
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/healthz") as response:
            response.read()
        taken.append((time.perf_counter() - started) * 1000)
        time.sleep(0.02)


async def measure(base: str, pid: int, media: str, coding: str, limit: int
                  ) -> dict[str, Any]:
    with multiprocessing.Manager() as manager:
        done, taken = manager.Event(), manager.list()
        prober = multiprocessing.Process(target=probe, args=(base, done, taken))
        prober.start()
        while not taken:  # probing before the export begins (a busy machine starts it late)
            await asyncio.sleep(0.01)
        cpu = cpu_seconds(pid)
        result = await export_all(base, media, coding, limit)
        result["server_cpu_s"] = cpu_seconds(pid) - cpu
        done.set()
        prober.join()
        latencies = sorted(taken)
    result["probe_p99_ms"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--limit", type=int, default=1000, help="replays a page")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each variant (best)")
    parser.add_argument("--db", help="use (or build) this games file; kept afterwards")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="export-bench-")
    db = args.db or os.path.join(folder, "games.sqlite3")
    try:
        if not os.path.exists(db):
            asyncio.run(build(db, args.games))
        port = free_port()
        with open(os.path.join(folder, "server.log"), "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "dominion.server.main", "--host", HOST, "--port",
                 str(port), "--db", db, "--log-level", "WARNING",
                 *(arg for name in BUDGETS for arg in (f"--{name}", str(10**9)))],
                stdout=log, stderr=log)
        try:
            wait_for_port(process, port, "the server")
            base = f"http://{HOST}:{port}"
            runs: dict[str, list[dict[str, Any]]] = {}
            for _ in range(args.repeat):  # interleaved: the machine's load drifts
                for media, coding in VARIANTS:
                    name = f"{media.split('/')[1]}+{coding or 'identity'}"
                    runs.setdefault(name, []).append(
                        asyncio.run(measure(base, process.pid, media, coding, args.limit)))
        finally:
            stop(process)
        result: dict[str, Any] = {"games": args.games, "limit": args.limit, "variants": {}}
        for name, measured in runs.items():
            best = min(measured, key=lambda run: run["seconds"])
            result["variants"][name] = {
                "replays": best["replays"],
                "replays_per_second": best["replays"] / best["seconds"],
                "server_cpu_ms_per_replay": 1000 * best["server_cpu_s"] / best["replays"],
                "bytes_per_replay": best["bytes"] / best["replays"],
                "probe_p99_ms": max(run["probe_p99_ms"] for run in measured)}
        if args.json:
            print(json.dumps(result))
        else:
            for name, figures in result["variants"].items():
                print(f"{name:22} {figures['replays_per_second']:7.0f} replays/s, server "
                      f"{figures['server_cpu_ms_per_replay']:.2f} ms CPU a replay, "
                      f"{figures['bytes_per_replay']:7.0f} B a replay, /healthz p99 "
                      f"{figures['probe_p99_ms']:.1f} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
