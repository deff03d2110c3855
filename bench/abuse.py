"""The server under attack, on loopback: long runs of the adversarial suite's attacks,
each while an unrelated game is played and timed.

One run, phase after phase, each against a fresh `dominion-server` process on 127.0.0.1
(its own SQLite file in a temporary folder):

  baseline      the probe alone: a network player against a bot, game after game; the
                latency of each answer is from sending it to the update that brings the
                player's next decision
  ws-fuzz       --frames fuzzed frames of every message type over raw sockets (random,
                mutated fields, mutated bytes, other msgpack values, broken framing), on a
                server with the per-frame rate limit raised so that every frame is read
  rest-fuzz     --requests requests over every OpenAPI path and method
  slow-readers  45 connections asking for the card catalogue and never reading (the
                per-address limit is 50; the probe needs one)
  resume-flood  10 spectators resuming a finished game from event 0 without pause
  chat-flood    40 signed-in spectators chatting 500-character lines without pause
  sigterm       SIGTERM in the middle of a resume flood: how long the server takes to stop
  addresses-unbounded  40 addresses (127.0.0.2 to .41) at once, each within its own
                limits: 20 open tables each, then exports of every ended game's replay
                (120 of them), again and again; on a server without the server-wide
                bounds (work, open tables), as every server was before them
  addresses     the same against the default limits
  sign-in-flood sign-ins with wrong passwords from the 40 addresses without pause,
                ignoring every refusal (credential stuffing); meanwhile the account's
                owner signs in from its known device (its device cookie) every half
                second: the share of those answered, signed in, within 2 s

For each: the probe's p50/p99/max latency, the server's RSS before and after (KiB),
errors by code, and what the server logged of its own faults (tracebacks, errors).
The floods run against the default limits. The target: the probe's p99 stays under
100 ms on a 2-core machine (under 50 ms for the 40 addresses against the default
limits, and for the sign-in flood), and during the sign-in flood at least 95 % of the
owner's sign-ins from a known device succeed within 2 s.

    python bench/abuse.py [--seconds 10] [--frames 100000] [--requests 5000] [--json]
                          [--phases addresses-unbounded,addresses,sign-in-flood]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests

from dominion.server.edge.api.openapi import openapi_document
from dominion.server.edge.api.sessions import DEVICE_COOKIE
from tests.adversarial.attacks import (
    Probe,
    ServerProcess,
    address_flood,
    chat_flood,
    chatter_token,
    finished_game,
    finished_games,
    fuzz_rest,
    fuzz_websocket,
    loopback_sources,
    resume_flood,
    slow_readers,
)

TARGET_P99_MS = 100.0
OWNER_WITHIN_SECONDS = 2.0
OWNER_TARGET_SHARE = 0.95
OWNER_EVERY_SECONDS = 0.5
"""How often the account's owner signs in during the sign-in flood."""
VICTIM = {"name": "Victim", "password": "correct horse battery"}
ADDRESSES_TARGET_P99_MS = 50.0
ADDRESSES = 40
"""Loopback addresses of the address, sign-in and table floods (`--addresses`)."""
GAMES_EACH = 3
"""Finished games each address makes before the attack: its exports' replays."""
TABLES_EACH = 20
"""Open tables each address asks for (games_per_address, by default)."""
UNBOUNDED_SERVER = (*("--seat-grace-seconds", "0.1"), "--server-work-per-second",
                    "1000000000", "--server-work-burst", "1000000000",
                    "--open-tables", "1000000")
SIGN_IN_SERVER = ("--seat-grace-seconds", "0.1", "--games-per-hour", "100000")
"""The default limits, but for the probe's games an hour: the flood's last hashes keep
the phase going past the 120 games the probe may start in an hour."""
SLOW = 45
FUZZ_SERVER = ("--messages-per-second", "1000000", "--burst", "1000000",
               "--games-per-hour", "1000000", "--games-per-address", "100000")
DEFAULT_SERVER = ("--seat-grace-seconds", "0.1")
"""The default limits; a game whose creator never joins is played out by bots at once."""
FIRST_ANSWER_SECONDS = 30.0
"""How long a phase waits past its attack for the probe's first timed answer."""

Attack = Callable[[ServerProcess, aiohttp.ClientSession], Awaitable[dict[str, Any]]]
Prepare = Callable[[ServerProcess], Awaitable[None]]


async def phase(name: str, folder: Path, options: tuple[str, ...], attack: Attack,
                prepare: Prepare | None = None, target_ms: float = TARGET_P99_MS
                ) -> dict[str, Any]:
    """Start a server, warm it up (and `prepare` it), run `attack` beside the probe,
    stop the server."""
    (folder / name).mkdir()
    server = ServerProcess.start(folder / name, *options)
    try:
        async with aiohttp.ClientSession() as session:
            warm = Probe(server.url)
            await warm.play(session, games=1)
            if prepare is not None:
                await prepare(server)
            before = server.rss_kib()
            probe = Probe(server.url)
            stop = asyncio.Event()
            playing = asyncio.ensure_future(probe.play(session, until=stop))
            started = time.monotonic()
            result = await attack(server, session)
            seconds = time.monotonic() - started
            # the phase ends once the probe has timed an answer: on a loaded machine a short
            # attack may leave it none (an answer the attack held up counts, as it should)
            await first_answer(probe, playing, server)
            stop.set()
            # (the sigterm phase ends the probe's game with the server)
            probe_error = next(iter(await asyncio.gather(playing, return_exceptions=True)))
            after = server.rss_kib() if server.process.poll() is None else None
    finally:
        code = server.stop() if server.process.poll() is None else server.process.returncode
    latency = probe.percentiles()
    return {"phase": name, "seconds": round(seconds, 1), **result, "probe": latency,
            "probe_games": probe.games,
            "probe_error": None if probe_error is None else repr(probe_error)[:200],
            "target_met": latency.get("p99_ms", 0.0) < target_ms,
            "rss_kib": {"before": before, "after": after}, "exit_code": code,
            "server_faults": len(server.faults())}


async def first_answer(probe: Probe, playing: asyncio.Future[None], server: ServerProcess,
                       seconds: float = FIRST_ANSWER_SECONDS) -> None:
    """Until the probe has timed one answer, its game has ended, the server has stopped
    (the sigterm phase), or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while (not probe.latencies_ms and not playing.done() and server.process.poll() is None
           and time.monotonic() < deadline):
        await asyncio.sleep(0.05)


def baseline(seconds: float) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        await asyncio.sleep(seconds)
        return {}
    return attack


def ws_fuzz(frames: int) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        async with session.post(f"{server.url}/api/v1/games", json={
                "name": "Target", "seats": 3}) as created:
            target = await created.json()
        report = await fuzz_websocket(server.url, frames=frames, seed=15, connections=8,
                                      games=[target["game"]["id"]], tokens=[target["token"]])
        return report.as_dict()
    return attack


def rest_fuzz(requests: int) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        report = await fuzz_rest(server.url, requests=requests, seed=15,
                                 document=openapi_document(), games=[])
        return {"requests": report.requests,
                "statuses": {str(k): v for k, v in report.statuses.most_common()},
                "errors": dict(report.codes.most_common()), "created": report.created}
    return attack


def slow(seconds: float) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        peak = server.rss_kib()
        reading = asyncio.ensure_future(slow_readers(server.url, connections=SLOW, requests=1000,
                                                     hold=seconds))
        while not reading.done():
            peak = max(peak, server.rss_kib())
            await asyncio.sleep(0.1)
        await reading
        async with session.get(f"{server.url}/metrics") as metrics:
            text = await metrics.text()
        closes = {line.split('"')[1]: float(line.rsplit(" ", 1)[1])
                  for line in text.splitlines() if line.startswith("dominion_disconnects_total")}
        return {"connections": SLOW, "peak_rss_kib": peak, "closes": closes}
    return attack


def flood(kind: str, seconds: float) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        game = await finished_game(session, server.url)
        if kind == "resume":
            replies = await resume_flood(server.url, game, connections=10, seconds=seconds)
        else:
            replies = await chat_flood(server.url, game, connections=40, seconds=seconds,
                                       access_token=await chatter_token(server.url))
        return {"replies": dict(replies.most_common())}
    return attack


def sigterm(seconds: float) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        game = await finished_game(session, server.url)
        flooding = asyncio.ensure_future(resume_flood(server.url, game, connections=10,
                                                      seconds=seconds * 2))
        await asyncio.sleep(seconds)
        sent = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(server.process.wait, 120)
        stopped = time.monotonic() - sent
        flooding.cancel()
        await asyncio.gather(flooding, return_exceptions=True)
        return {"exit_code_on_sigterm": code, "seconds_to_stop": round(stopped, 2)}
    return attack


def ended_games(sources: int) -> Prepare:
    async def prepare(server: ServerProcess) -> None:
        await finished_games(server.url, loopback_sources(sources), each=GAMES_EACH)
    return prepare


def addresses(seconds: float, sources: int, tables: int) -> Attack:
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        counts = await address_flood(server.url, loopback_sources(sources),
                                     seconds=seconds, tables=tables)
        return {"addresses": sources, "tables": counts.pop("tables", 0),
                "replays": counts.pop("replays", 0), "refused": dict(counts.most_common())}
    return attack


def sign_in_flood(seconds: float, sources: int) -> Attack:
    """Credential stuffing from `sources` addresses, in a process of its own (so that the
    probe's latency is the server's, not this process's loop's), while the account's
    owner signs in from its known device."""
    async def attack(server: ServerProcess, session: aiohttp.ClientSession) -> dict[str, Any]:
        async with session.post(f"{server.url}/api/v1/account/register",
                                json=VICTIM) as registered:
            assert registered.status == 201, await registered.text()
            device = registered.cookies[DEVICE_COOKIE].value
        with ProcessPoolExecutor(1) as flooder:
            flooding = asyncio.get_running_loop().run_in_executor(
                flooder, flood_sign_in, server.url, seconds, sources)
            owner = await owner_sign_ins(session, server.url, device, flooding)
            replies = await flooding
        return {"addresses": sources, "replies": replies, "owner": owner}
    return attack


async def owner_sign_ins(session: aiohttp.ClientSession, url: str, device: str,
                         flooding: asyncio.Future[Any]) -> dict[str, Any]:
    """The owner's sign-ins with the right password and its device cookie, one every
    OWNER_EVERY_SECONDS until the flood ends: how many, how many signed in within
    OWNER_WITHIN_SECONDS, and the slowest."""
    seconds: list[float] = []
    statuses: Counter[str] = Counter()
    headers = {"Cookie": f"{DEVICE_COOKIE}={device}", "Origin": url}
    while not flooding.done():
        sent = time.monotonic()
        async with session.post(f"{url}/api/v1/account/sign-in", json=VICTIM,
                                headers=headers) as reply:
            body = await reply.json()
        took = time.monotonic() - sent
        code = "signed_in" if reply.status == 200 else body.get("error", {}).get("code", "?")
        statuses[code] += 1
        seconds.append(took if reply.status == 200 else float("inf"))
        await asyncio.sleep(max(0.0, OWNER_EVERY_SECONDS - took))
    within = sum(took <= OWNER_WITHIN_SECONDS for took in seconds)
    share = within / len(seconds) if seconds else 0.0
    slowest = max((took for took in seconds if took != float("inf")), default=None)
    return {"sign_ins": len(seconds), "within_2s": within, "share_within_2s": round(share, 3),
            "target_met": share >= OWNER_TARGET_SHARE, "replies": dict(statuses),
            "slowest_s": None if slowest is None else round(slowest, 2)}


def flood_sign_in(url: str, seconds: float, sources: int) -> dict[str, int]:
    """Each address sends wrong passwords for a real account and for made-up names, two
    at a time, as fast as it is answered, ignoring every refusal; the replies by code."""
    async def flood() -> dict[str, int]:
        replies: Counter[str] = Counter()
        deadline = time.monotonic() + seconds

        async def guess(client: aiohttp.ClientSession, address: int, lane: int) -> None:
            for attempt in itertools.count():
                if time.monotonic() >= deadline:
                    return
                name = "Victim" if attempt % 2 else f"user{address}x{lane}x{attempt}"
                async with client.post(f"{url}/api/v1/account/sign-in", json={
                        "name": name, "password": f"guess{attempt}"}) as reply:
                    body = await reply.json()
                    replies[body.get("error", {}).get("code", str(reply.status))] += 1

        clients = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
                   for source in loopback_sources(sources)]
        try:
            await asyncio.gather(*(guess(client, index, lane)
                                   for index, client in enumerate(clients) for lane in (0, 1)))
        finally:
            await asyncio.gather(*(client.close() for client in clients))
        return dict(replies.most_common())
    return asyncio.run(flood())


class Phase(NamedTuple):
    name: str
    options: tuple[str, ...]
    attack: Attack
    prepare: Prepare | None = None
    target_ms: float = TARGET_P99_MS


def plan(args: argparse.Namespace) -> list[Phase]:
    flood_of_addresses = addresses(args.seconds, args.addresses, args.tables_each)
    return [
        Phase("baseline", DEFAULT_SERVER, baseline(args.seconds)),
        Phase("ws-fuzz", FUZZ_SERVER, ws_fuzz(args.frames)),
        Phase("rest-fuzz", FUZZ_SERVER, rest_fuzz(args.requests)),
        Phase("slow-readers", DEFAULT_SERVER, slow(args.seconds)),
        Phase("resume-flood", DEFAULT_SERVER, flood("resume", args.seconds)),
        Phase("chat-flood", DEFAULT_SERVER, flood("chat", args.seconds)),
        Phase("sigterm", DEFAULT_SERVER, sigterm(args.seconds)),
        Phase("addresses-unbounded", UNBOUNDED_SERVER, flood_of_addresses,
              ended_games(args.addresses), ADDRESSES_TARGET_P99_MS),
        Phase("addresses", DEFAULT_SERVER, flood_of_addresses, ended_games(args.addresses),
              ADDRESSES_TARGET_P99_MS),
        Phase("sign-in-flood", SIGN_IN_SERVER, sign_in_flood(args.seconds, args.addresses), None,
              ADDRESSES_TARGET_P99_MS),
    ]


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="abuse-") as temporary:
        folder = Path(temporary)
        results = []
        for chosen in plan(args):
            if args.phases and chosen.name not in args.phases:
                continue
            result = await phase(chosen.name, folder, chosen.options, chosen.attack,
                                 chosen.prepare, chosen.target_ms)
            results.append(result)
            if not args.json:
                print(json.dumps(result), flush=True)
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="how long each flood (and the baseline) runs")
    parser.add_argument("--frames", type=int, default=100_000, help="frames to fuzz")
    parser.add_argument("--requests", type=int, default=5_000, help="REST requests to fuzz")
    parser.add_argument("--addresses", type=int, default=ADDRESSES,
                        help="loopback addresses of the address and sign-in floods")
    parser.add_argument("--tables-each", type=int, default=TABLES_EACH,
                        help="open tables each of those addresses asks for")
    parser.add_argument("--json", action="store_true", help="one JSON document at the end")
    parser.add_argument("--phases", type=lambda text: text.split(","), default=[],
                        help="only these phases, comma-separated (default: all)")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps({"phases": results}))


if __name__ == "__main__":
    main()
