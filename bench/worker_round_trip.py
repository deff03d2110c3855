"""What a round trip to a worker process costs the server, by transport (issue 39's load
target): the calling process's CPU and the wall time per call of an echo to one spawned
worker, from an asyncio loop, with a payload the size of a bot's request (its seat's view).

  pool   `ProcessPoolExecutor` (what `BotWorkers` uses, server/play/thinking.py): the
         request is pickled by the executor's feeder thread and the answer read by its
         management thread, then handed to the loop
  pipe   a `multiprocessing` pipe the event loop reads itself (`add_reader`): no threads

    python bench/worker_round_trip.py [--calls 2000] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

PAYLOAD = {f"part{number}": list(range(20)) for number in range(40)}
"""About the size of a seat's view map (a few KiB pickled)."""
SPAWN = multiprocessing.get_context("spawn")


def echo(value: Any) -> Any:
    return value


def echo_pipe(connection: Connection) -> None:
    """In the worker: answer every request with itself until None."""
    while (request := connection.recv()) is not None:
        connection.send(request)


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def timed(call: Callable[[Any], Awaitable[Any]], calls: int) -> dict[str, float]:
    await call(PAYLOAD)  # the worker's start is not timed
    cpu, wall = own_cpu_seconds(), time.perf_counter()
    for _ in range(calls):
        await call(PAYLOAD)
    return {
        "cpu_us": round((own_cpu_seconds() - cpu) / calls * 1e6, 1),
        "wall_us": round((time.perf_counter() - wall) / calls * 1e6, 1),
    }


async def through_pool(calls: int) -> dict[str, float]:
    pool = ProcessPoolExecutor(1, mp_context=SPAWN)
    try:
        return await timed(lambda value: asyncio.wrap_future(pool.submit(echo, value)), calls)
    finally:
        pool.shutdown()


async def through_pipe(calls: int) -> dict[str, float]:
    mine, theirs = SPAWN.Pipe()
    worker = SPAWN.Process(target=echo_pipe, args=(theirs,))
    worker.start()
    loop = asyncio.get_running_loop()

    async def call(value: Any) -> Any:
        answer: asyncio.Future[Any] = loop.create_future()
        loop.add_reader(mine.fileno(), lambda: answer.set_result(mine.recv()))
        mine.send(value)
        try:
            return await answer
        finally:
            loop.remove_reader(mine.fileno())

    try:
        return await timed(call, calls)
    finally:
        mine.send(None)
        worker.join()


def main(args: argparse.Namespace) -> dict[str, Any]:
    runs: dict[str, list[dict[str, float]]] = {"pool": [], "pipe": []}
    for _ in range(args.rounds):  # interleaved: the machine's load changes between them
        runs["pool"].append(asyncio.run(through_pool(args.calls)))
        runs["pipe"].append(asyncio.run(through_pipe(args.calls)))
    return {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "calls": args.calls,
        "load_average": os.getloadavg()[0],
        **runs,
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="round trips per run")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each transport")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    result = main(arguments)
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        for transport in ("pool", "pipe"):
            print(transport, result[transport])
        print("load average", result["load_average"])
