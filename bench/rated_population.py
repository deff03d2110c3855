"""How well the ratings predict over a real ledger: bots of known strength play rated
games on a real server (issue 27).

`dominion-server` starts in a temporary folder on a free loopback port (a fresh SQLite
file, and the account store beside it). For each strategy of --strategies (weakest
first: random < big_money < smithy_big_money < strong) --players-per-strategy accounts
are registered over REST, each from a loopback address of its own (as their owners
would: the server lets an address register only a few), made bot accounts, and given a
`bot:play` access token. Then --tables tables at a time are created over REST with
`"rated": true` by one of the accounts and joined by others (the pools take turns:
2-player tables, and tables of 3 to 6 players, sizes drawn evenly). Each seat but the
creator's is an in-server bot of a random strategy with probability --bot-seats (and
so is every seat the accounts are too few to fill); the accounts' seats are played over
the WebSocket by network bots of the account's strategy (`NetworkBot`). An account sits
at one table at a time. The Kingdom is bench/ratings.py's (First Game with Witch for
Workshop). --seed draws the tables and the bots' choices; the server shuffles the decks.

Once --games games have finished, the bench waits until the server's outbox has applied
them all (the ledger's row count), reads the leaderboards (`GET /api/v1/ratings/{pool}`),
stops the server and scores the ledger as `bench/ratings.py --ledger` does: each game
predicted from its players' ratings before it, against a uniform guess. It checks that
each pool's accounts come out on the leaderboard in the strategies' order, by their mean
shown rating (exit status 1 if not).

    python bench/rated_population.py [--games 600] [--players-per-strategy 3]
                                     [--tables 4] [--bot-seats 0.2] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from ratings import KINGDOM, KNOWN_ORDER, ledger_games, score_ledger

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests

from dominion.clients.network_bot import play_seat
from dominion.server.ratings import Pool
from dominion.server.ratings.ledger import BOT_MU
from tests.adversarial.attacks import ServerProcess, loopback_sources

PASSWORD = "correct horse battery staple"
SERVER_OPTIONS = ("--games-per-address", "1000000", "--games-per-hour", "1000000",
                  "--connections-per-address", "100000",
                  "--http-connections-per-address", "100000",
                  "--server-work-per-second", "1000000000", "--server-work-burst", "1000000000",
                  "--password-time-cost", "1", "--password-memory-kib", "64",
                  "--seat-grace-seconds", "600")
"""The default limits, but one address (the network bots') may play every game; cheap
password hashes; and no seat taken over by a bot while its network bot connects (a
seat a bot takes over is ranked last)."""
SIZES = {Pool.TWO_PLAYER: (2,), Pool.MULTIPLAYER: (3, 4, 5, 6)}
LEDGER_WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class BotAccount:
    name: str
    strategy: str
    source: str
    """The loopback address its owner registered from, and its REST requests come from."""
    token: str
    """Its `bot:play` access token."""


async def rest(session: aiohttp.ClientSession, method: str, url: str, expect: int,
               body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.request(method, url, json=body, headers=headers) as response:
        answer = await response.json()
        if response.status != expect:
            raise RuntimeError(f"{method} {url}: {response.status} {answer}")
        return answer


def from_source(source: str, **options: Any) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)),
                                 **options)


async def register(url: str, name: str, strategy: str, source: str) -> BotAccount:
    """Register `name` from `source`, make it a bot account, give it a bot:play token."""
    async with from_source(source, cookie_jar=aiohttp.CookieJar(unsafe=True),
                           headers={"Origin": url}) as owner:  # the cookie counts
        api = f"{url}/api/v1/account"
        await rest(owner, "POST", f"{api}/register", 201, {"name": name, "password": PASSWORD})
        await rest(owner, "POST", f"{api}/bot", 200)
        created = await rest(owner, "POST", f"{api}/tokens", 201,
                             {"description": "rated population", "scopes": ["bot:play"]})
    return BotAccount(name, strategy, source, created["token"]["secret"])


class Population:
    """The accounts not at a table, and the tables' games played so far."""

    def __init__(self, accounts: Sequence[BotAccount], games: int, bot_seats: float,
                 rng: random.Random) -> None:
        self.idle = list(accounts)
        self.accounts = len(accounts)
        self.changed = asyncio.Condition()
        self.games = games
        self.bot_seats = bot_seats
        self.rng = rng
        self.started = 0
        self.finished = 0
        self.sizes: dict[int, int] = {}
        self.in_server_seats = 0

    def next_table(self) -> tuple[int, dict[str, str]] | None:
        """The next table's size and in-server bot seats; None once all are started."""
        if self.started == self.games:
            return None
        pool = list(Pool)[self.started % len(Pool)]  # the pools take turns
        self.started += 1
        size = self.rng.choice(SIZES[pool])
        bots = {str(seat): self.rng.choice(sorted(BOT_MU)) for seat in range(1, size)
                if self.rng.random() < self.bot_seats or seat >= self.accounts}
        return size, bots

    async def seat(self, count: int) -> list[BotAccount]:
        async with self.changed:
            await self.changed.wait_for(lambda: len(self.idle) >= count)
            chosen = self.rng.sample(self.idle, count)
            for account in chosen:
                self.idle.remove(account)
            return chosen

    async def release(self, accounts: Sequence[BotAccount]) -> None:
        async with self.changed:
            self.idle.extend(accounts)
            self.changed.notify_all()


async def play_table(url: str, session: aiohttp.ClientSession, size: int,
                     bots: dict[str, str], seated: Sequence[BotAccount], seed: int) -> None:
    """Create the rated table as its first account, join the others, play it out."""
    creator, *others = seated
    async with from_source(creator.source) as own:
        created = await rest(own, "POST", f"{url}/api/v1/games", 201, {
            "seats": size, "rated": True, "kingdom": KINGDOM.split(","), "bots": bots},
            token=creator.token)
    game = created["game"]["id"]
    tokens = [created["token"]]
    for account in others:
        async with from_source(account.source) as own:
            joined = await rest(own, "POST", f"{url}/api/v1/games/{game}/join", 200, {},
                                token=account.token)
        tokens.append(joined["token"])
    await asyncio.gather(*(
        play_seat(url, game, token, account.strategy, name=account.name, seed=seed + seat,
                  session=session)
        for seat, (account, token) in enumerate(zip(seated, tokens, strict=True))))


async def tables(url: str, population: Population, session: aiohttp.ClientSession) -> None:
    """One table after another until every game has been started."""
    while (table := population.next_table()) is not None:
        size, bots = table
        population.sizes[size] = population.sizes.get(size, 0) + 1
        population.in_server_seats += len(bots)
        seated = await population.seat(size - len(bots))
        try:
            await play_table(url, session, size, bots, seated, population.rng.getrandbits(32))
        finally:
            await population.release(seated)
        population.finished += 1


def ledger_rows(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as read:
        rows: int = read.execute("SELECT count(*) FROM rating_ledger").fetchone()[0]
        return rows


async def wait_for_ledger(db: Path, games: int) -> float:
    """Seconds until the ledger holds `games` games (the outbox applied them all)."""
    started = time.monotonic()
    while ledger_rows(db) < games:
        if time.monotonic() - started > LEDGER_WAIT_SECONDS:
            raise RuntimeError(f"the ledger holds {ledger_rows(db)} of {games} games")
        await asyncio.sleep(0.1)
    return time.monotonic() - started


async def leaderboards(url: str) -> dict[str, list[dict[str, Any]]]:
    async with aiohttp.ClientSession() as session:
        return {pool.value: (await rest(session, "GET",
                                        f"{url}/api/v1/ratings/{pool.value}?limit=100",
                                        200))["players"]
                for pool in Pool}


def by_strategy(board: Sequence[dict[str, Any]], accounts: Sequence[BotAccount],
                strategies: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each strategy's accounts on a leaderboard: their shown ratings and ranks."""
    strategy_of = {account.name: account.strategy for account in accounts}
    rows = [row for row in board if not row["in_server"] and row["name"] in strategy_of]
    summary: dict[str, dict[str, Any]] = {}
    for name in strategies:
        own = [row for row in rows if strategy_of[row["name"]] == name]
        summary[name] = {
            "mean_rating": round(statistics.fmean(row["rating"] for row in own), 1)
            if own else None,
            "ratings": [row["rating"] for row in own], "ranks": [row["rank"] for row in own],
            "games": sum(row["games"] for row in own)}
    return summary


def in_order(summary: dict[str, dict[str, Any]], strategies: Sequence[str]) -> bool:
    means = [summary[name]["mean_rating"] for name in strategies]
    return None not in means and means == sorted(means)


async def run(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    strategies = args.strategies.split(",")
    rng = random.Random(args.seed)
    server = ServerProcess.start(folder, *SERVER_OPTIONS)
    try:
        started = time.monotonic()
        names = [(f"{name}-{i + 1}", name) for name in strategies
                 for i in range(args.players_per_strategy)]
        accounts = await asyncio.gather(*(
            register(server.url, name, strategy, source) for (name, strategy), source
            in zip(names, loopback_sources(len(names)), strict=True)))
        population = Population(accounts, args.games, args.bot_seats, rng)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            await asyncio.gather(*(tables(server.url, population, session)
                                   for _ in range(args.tables)))
        played = time.monotonic() - started
        ledger_wait = await wait_for_ledger(folder / "games.accounts.sqlite3", args.games)
        boards = await leaderboards(server.url)
    finally:
        server.stop()
    faults = server.faults()
    pools = {pool.value: scores.to_dict([]) for pool, scores
             in score_ledger(ledger_games(str(folder / "games.accounts.sqlite3"))).items()}
    for pool, scores in pools.items():
        scores.pop("strategies")
        scores["leaderboard"] = by_strategy(boards[pool], accounts, strategies)
        scores["in_known_order"] = in_order(scores["leaderboard"], strategies)
    return {"date": time.strftime("%Y-%m-%d"), "games": population.finished,
            "accounts": len(accounts), "tables_at_once": args.tables,
            "table_sizes": dict(sorted(population.sizes.items())),
            "in_server_seats": population.in_server_seats, "seed": args.seed,
            "seconds_playing": round(played, 1), "seconds_ledger_wait": round(ledger_wait, 2),
            "ledger_games": sum(scores["games"] for scores in pools.values()),
            "pools": pools, "server_faults": len(faults),
            "in_known_order": all(scores["in_known_order"] for scores in pools.values())}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=600, help="in all, half in each pool")
    parser.add_argument("--players-per-strategy", type=int, default=3)
    parser.add_argument("--strategies", default=",".join(KNOWN_ORDER),
                        help="comma-separated, weakest first: the order the accounts must "
                             "come out in on the leaderboards")
    parser.add_argument("--tables", type=int, default=4, help="tables played at once")
    parser.add_argument("--bot-seats", type=float, default=0.2,
                        help="the chance that a seat besides the creator's is an in-server bot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser.parse_args(argv)


def main() -> int:
    args = parse()
    with tempfile.TemporaryDirectory(prefix="rated-population-") as folder:
        report = asyncio.run(run(Path(folder), args))
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['games']} rated games ({report['table_sizes']} by size, "
              f"{report['in_server_seats']} in-server bot seats) by {report['accounts']} "
              f"bot accounts in {report['seconds_playing']} s; the ledger held them all "
              f"{report['seconds_ledger_wait']} s later")
        for pool, scores in report["pools"].items():
            print(f"{pool}: {scores['games']} games, log-loss {scores['log_loss']} "
                  f"(uniform {scores['uniform_log_loss']}), Brier {scores['brier']} "
                  f"(uniform {scores['uniform_brier']})")
            for name, board in scores["leaderboard"].items():
                print(f"  {name}: mean shown {board['mean_rating']}, shown {board['ratings']}, "
                      f"ranks {board['ranks']}")
        print("in the known order" if report["in_known_order"] else "NOT in the known order")
    return 0 if report["in_known_order"] and report["server_faults"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
