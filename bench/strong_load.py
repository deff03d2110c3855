"""The strong bot on a server: what its thinking costs, and whether games against it slow
anyone else down (issue 29).

  cost     the bot's decisions through a pool of worker processes, in this process
           (`BotWorkers`, as the server's rooms ask it): the first decision (which starts
           the worker: Python and the bot's modules) and every other one of --cost-games
           games of `strong` against `strong:1`, from asking to the answer, in ms
  load     `dominion-server` on 127.0.0.1 (a fresh SQLite file, --bot-workers workers)
           with --games people playing `strong`, game after game, over the network
           (tests/adversarial/attacks.py's `Probe`: Big Money on "First Game"), each
           taking --think seconds before an answer as a person would; the strong bot
           answers at once. Beside them the *probe* plays an unrelated game over the
           network against `big_money`, game after game, timing each answer from sending
           it to the update with its next decision. The target: the probe's p99 under
           50 ms. The people's own waits (their answer to their next decision, the bot's
           turn included) are reported too. So is what the load phase's answers cost the
           machine, which a busy machine does not distort as it does the wall figures:
           the server's CPU per answer (its event loop's thread, and all its threads) and
           its bot workers' (the server's child processes), over the measured seconds.

    python bench/strong_load.py [--games 100] [--seconds 30] [--bot-workers 1]
                                [--think 0.5] [--cost-games 20] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests
sys.path.insert(0, str(Path(__file__).resolve().parent))  # its fellow benches, as a script

from dominion.bots.strong import Level, StrongBot
from dominion.server.engine import Game, Setup
from dominion.server.engine.setup import random_kingdom
from dominion.server.play.bots import seat_table
from dominion.server.play.thinking import BotWorkers
from tests.adversarial.attacks import Probe, ServerProcess

from server_load import cpu_seconds  # isort: skip (found through the path above)

TARGET_P99_MS = 50.0
LOAD_SERVER = (
    "--games-per-address",
    "1000000",
    "--games-per-hour",
    "1000000",
    "--connections-per-address",
    "100000",
    "--http-connections-per-address",
    "100000",
    "--server-work-per-second",
    "1000000000",
    "--server-work-burst",
    "1000000000",
)
"""The default limits, but one address (the benchmark's) may play all the games."""


def percentiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"count": len(values)}
    cuts = statistics.quantiles(values, n=100)
    return {
        "count": len(values),
        "mean_ms": round(statistics.fmean(values), 3),
        "p50_ms": round(cuts[49], 3),
        "p99_ms": round(cuts[98], 3),
        "max_ms": round(max(values), 3),
    }


async def cost(games: int) -> dict[str, Any]:
    """Every decision of `games` games through one worker, timed from asking to answer."""
    workers = BotWorkers(1)
    times: list[float] = []
    first_ms = 0.0
    try:
        for number in range(games):
            setup = Setup.create(["a", "b"], kingdom=random_kingdom(2, random.Random(number)))
            game = Game(setup, number)
            bots: list[StrongBot] = [StrongBot(), StrongBot(level=Level.MONEY)]
            while (decision := game.pending) is not None:
                seat = decision.player
                started = time.perf_counter()
                choice, after = await workers.choose(bots[seat], decision, seat_table(game, seat))
                elapsed = (time.perf_counter() - started) * 1000
                if first_ms == 0.0:
                    first_ms = elapsed
                else:
                    times.append(elapsed)
                assert isinstance(after, StrongBot)
                bots[seat] = after
                game.answer(seat, decision.id, choice)
    finally:
        await workers.close()
    return {"games": games, "first_decision_ms": round(first_ms, 1), "decision": percentiles(times)}


def children(pid: int) -> list[int]:
    """A process's child processes (the server's: its bot workers)."""
    with open(f"/proc/{pid}/task/{pid}/children") as listed:
        return [int(child) for child in listed.read().split()]


def spent(pid: int, db: Path) -> dict[str, float]:
    """The answers stored so far, and the CPU seconds the server has spent: its event
    loop's thread, all its threads, and its child processes."""
    with contextlib.closing(sqlite3.connect(db)) as reader:
        answers = reader.execute("SELECT count(*) FROM answers").fetchone()[0]
    return {
        "answers": answers,
        "loop": cpu_seconds(pid, main_thread=True),
        "server": cpu_seconds(pid),
        "workers": sum(cpu_seconds(child) for child in children(pid)),
    }


def cost_per_answer(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """CPU µs per answer stored between two of `spent`'s readings."""
    answers = after["answers"] - before["answers"]
    return {
        "answers": answers,
        **{
            f"{what}_cpu_us": round((after[what] - before[what]) / max(answers, 1) * 1e6, 1)
            for what in ("loop", "server", "workers")
        },
    }


def stops(server: ServerProcess) -> bool:
    """Stop the server; whether it exited within the wait for SIGTERM (if not, it is
    killed, and the run's figures are kept and say so)."""
    try:
        server.stop()
    except subprocess.TimeoutExpired:
        server.kill()
        return False
    return True


async def load(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    server = ServerProcess.start(folder, *LOAD_SERVER, "--bot-workers", str(args.bot_workers))
    try:
        # the people's connections are not limited in number; the probe has its own
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session,
            aiohttp.ClientSession() as own,
        ):
            warm = Probe(server.url, opponent="strong")
            await warm.play(session, games=1)
            stop = asyncio.Event()
            people = [
                Probe(server.url, opponent="strong", think_seconds=args.think)
                for _ in range(args.games)
            ]
            probe = Probe(server.url)
            playing = [
                *(asyncio.ensure_future(person.play(session, until=stop)) for person in people),
                asyncio.ensure_future(probe.play(own, until=stop)),
            ]
            before = spent(server.process.pid, folder / "games.sqlite3")
            started = time.monotonic()
            await asyncio.sleep(args.seconds)
            seconds = time.monotonic() - started
            after = spent(server.process.pid, folder / "games.sqlite3")
            stop.set()
            await asyncio.gather(*playing)
    finally:
        stopped = stops(server)
    with contextlib.closing(sqlite3.connect(folder / "games.sqlite3")) as db:
        answers = db.execute("SELECT count(*) FROM answers").fetchone()[0]
    latency = probe.percentiles()
    waits = [ms for person in people for ms in person.latencies_ms]
    return {
        "games": args.games,
        "seconds": round(seconds, 1),
        "bot_workers": args.bot_workers,
        "think_seconds": args.think,
        "games_finished": sum(person.games for person in people),
        "answers_stored": answers,
        "answers_per_second": round(answers / seconds, 1),
        "measured": cost_per_answer(before, after),
        "against_strong": percentiles(waits),
        "probe": latency,
        "probe_games": probe.games,
        "target_met": latency.get("p99_ms", float("inf")) < TARGET_P99_MS,
        "server_faults": len(server.faults()),
        "server_stopped_at_sigterm": stopped,
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="strong-load-") as folder:
        return {
            "date": time.strftime("%Y-%m-%d"),
            "cost": await cost(args.cost_games),
            "load": await load(Path(folder), args),
        }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="live games against strong")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the probe plays")
    parser.add_argument("--bot-workers", type=int, default=1, help="the server's bot_workers")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="seconds each person playing strong takes before an answer",
    )
    parser.add_argument(
        "--cost-games", type=int, default=20, help="games whose every decision the cost phase times"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    result = asyncio.run(main(arguments))
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        cost_, load_ = result["cost"], result["load"]
        print(f"cost: first decision {cost_['first_decision_ms']} ms; then {cost_['decision']}")
        print(
            f"load: {load_['games']} games against strong, {load_['bot_workers']} workers, "
            f"{load_['think_seconds']} s per person's answer, "
            f"{load_['answers_per_second']} answers/s; CPU per answer "
            f"{load_['measured']}; waits against strong "
            f"{load_['against_strong']}; probe {load_['probe']} over "
            f"{load_['probe_games']} games; "
            f"target {'met' if load_['target_met'] else 'NOT met'}"
        )
