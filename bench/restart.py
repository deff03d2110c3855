"""A restart with many unfinished games: how soon the server listens, and how soon every
game can be played again.

One run builds a games file of N unfinished two-player games ("playing", each with
--answers answers already stored, as big_money played them), then:

  read      in this process: every game's seats and answers read as a restart reads
            them, a page at a time (`Storage.unfinished_games`), in CPU seconds (best of
            --repeat), and the most memory the process held while reading.
  rebuild   in this process: `Lobby.restore()` on that file, reading and rebuilding
            every game, in CPU seconds (best of --repeat): what the server's restore
            costs without its start and its sockets. A game nothing needs at once comes
            back dormant (server/play/dormant.py); `wake`, the CPU seconds to replay
            every dormant game afterwards, as their first players would.
  memory    with --memory, in this process under tracemalloc: the memory the lobby holds
            per game once restored (dormant), and once every game is replayed.
  restart   `python -m dominion.server.main` on that file, as a separate process, timed
            from its launch: `ready`, when its port accepts a connection; `playable`, when
            a player of the last game restored (the newest) joins it over a WebSocket
            and is acknowledged; `restored`, when every game is back (its /metrics
            count them live), so that its bots and timers run again, and
            `restored_cpu`, the CPU seconds the server had used by then. Both seats of
            every game hold known tokens. Runs on a file of one game interleave with
            them: the start's own cost (imports, the account store), which the games'
            restore adds to.

The games are copies of a few distinct games (same set-up, seed and answers under
different ids): replaying each costs what a distinct game of that length costs.

    python bench/restart.py [--games 1000] [--answers 40] [--repeat 3] [--json]
    python bench/restart.py --games 10000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from dominion.bots import make_strategy
from dominion.protocol import (
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    Ack,
    Hello,
    Join,
    decode_server,
    encode_client,
)
from dominion.server.engine import Answer, Game, Setup
from dominion.server.gc_tuning import tune_gc
from dominion.server.metrics import Metrics
from dominion.server.play.bots import seat_table
from dominion.server.play.lobby import RESTORE_PAGE_GAMES, Lobby
from dominion.server.play.seat_tokens import hash_token
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, SeatRecord, Storage

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import HOST, free_port, stop

DISTINCT_GAMES = 16
RESTORE_SECONDS = 3600
"""How long every game may take to come back before the bench gives up."""
AT = "2026-01-01T00:00:00.000000Z"


def token_of(index: int, seat: int) -> str:
    return f"bench-restart-token-{index:07d}-{seat}"


def game_id_of(index: int) -> str:
    return f"g-{index:012x}"


def distinct_games(answers: int) -> list[tuple[Setup, int, list[Answer]]]:
    """A few games played `answers` answers in (none over yet)."""
    made = []
    for seed in range(DISTINCT_GAMES):
        setup = Setup.create(2, edition=2, kingdom="First Game")
        game = Game(setup, seed, history=False)
        bots = [make_strategy("big_money", seed * 8 + seat) for seat in range(2)]
        log: list[Answer] = []
        while len(log) < answers and (decision := game.pending) is not None:
            seat = decision.player
            choices = bots[seat].choose(decision, seat_table(game, seat))
            log.append(Answer(seat, decision.id, game.check_answer(seat, decision.id, choices)))
            game.apply(log[-1])
        if game.pending is None:
            raise SystemExit(f"a game ended within {answers} answers; ask for fewer")
        made.append((setup, seed, log))
    return made


async def build(db: str, games: int, answers: int) -> None:
    """The first DISTINCT_GAMES games through the server's own storage, then every other
    game as a copy of their rows under its own id, created time and tokens, in one
    transaction (100,000 games: 33 s of CPU on the project's machine)."""
    made = distinct_games(answers)
    storage = Storage.open(db, synchronous="NORMAL")
    await storage.start()

    async def one(index: int) -> None:
        setup, seed, log = made[index % len(made)]
        game_id = game_id_of(index)
        record = GameRecord(id=game_id, created_at=created_at(index), state=GameState.OPEN,
                            edition=2, seats=2, kingdom=tuple(setup.kingdom))
        seats = [SeatRecord(seat, f"p{index}-{seat}", hash_token(token_of(index, seat)),
                            joined_at=created_at(index)) for seat in range(2)]
        await storage.create_game(record, seats)
        await storage.start_game(game_id, started_at=created_at(index), seed=seed,
                                 commitment="bench", setup=setup.to_dict())
        await storage.append_answers(game_id, 0, log, AT)

    try:
        await asyncio.gather(*(one(i) for i in range(min(games, len(made)))))
    finally:
        await storage.close()
    if games > len(made):
        copy_games(db, len(made), games)


def created_at(index: int) -> str:
    """Restored in index order (up to a million games)."""
    return f"2026-01-01T00:00:00.{index:06d}Z"


def copy_games(db: str, first: int, games: int) -> None:
    """Games `first` to `games` - 1 as copies of games 0 to `first` - 1, in one transaction."""
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        connection.execute("BEGIN")
        for table, key in (("games", "id"), ("seats", "game_id"), ("answers", "game_id")):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            rows: dict[str, list[tuple[Any, ...]]] = {}
            for row in connection.execute(f"SELECT * FROM {table} WHERE {key} < ?",
                                          [game_id_of(first)]):
                rows.setdefault(row[columns.index(key)], []).append(row)
            marks = ", ".join("?" * len(columns))
            connection.executemany(f"INSERT INTO {table} VALUES ({marks})",
                                   copies(rows, columns, key, first, games))
        connection.execute("COMMIT")
    finally:
        connection.close()


def copies(rows: dict[str, list[tuple[Any, ...]]], columns: list[str], key: str, first: int,
           games: int) -> Iterator[list[Any]]:
    """Each copied game's rows of one table: its id, times, names and token hashes."""
    at = columns.index(key)
    seat = columns.index("seat") if "seat" in columns else -1
    times = [columns.index(name) for name in ("created_at", "started_at", "joined_at")
             if name in columns]
    for index in range(first, games):
        for row in rows[game_id_of(index % first)]:
            copy = list(row)
            copy[at] = game_id_of(index)
            for column in times:
                copy[column] = created_at(index)
            if seat >= 0:
                copy[columns.index("name")] = f"p{index}-{row[seat]}"
                copy[columns.index("token_hash")] = hash_token(token_of(index, row[seat]))
            yield copy


def read_seconds(db: str, repeat: int) -> tuple[float, float]:
    """CPU seconds to read every unfinished game a page at a time, and the process's
    peak memory (MiB) once done."""
    tune_gc()  # as the server runs
    best = float("inf")
    for _ in range(repeat):
        storage = Storage.open(db)
        try:
            started = time.process_time()  # CPU time: the machine may be busy
            after = None
            while page := storage.unfinished_games(after, RESTORE_PAGE_GAMES):
                after = (page[-1].game.created_at, page[-1].game.id)
            best = min(best, time.process_time() - started)
        finally:
            asyncio.run(storage.close())
    return best, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rebuild_seconds(db: str, repeat: int) -> tuple[float, float]:
    """CPU seconds for the lobby to read and rebuild every unfinished game, and then to
    replay every game it brought back dormant (best of `repeat` each)."""
    runs = [asyncio.run(rebuild_once(db)) for _ in range(repeat)]
    return min(run[0] for run in runs), min(run[1] for run in runs)


async def rebuild_once(db: str, traced: list[int] | None = None) -> tuple[float, float]:
    """The restore's CPU seconds and the wake's; `traced`, if given, gets the memory
    tracemalloc counts before the restore, after it and after the wake."""
    settings = Settings(db=db, seat_grace_seconds=86400)
    storage = Storage.open(db)
    await storage.start()
    lobby = Lobby(storage, settings, Metrics())
    try:
        if traced is not None:
            traced.append(tracemalloc.get_traced_memory()[0])
        started = time.process_time()
        await lobby.restore()
        restored = time.process_time()
        if traced is not None:
            traced.append(tracemalloc.get_traced_memory()[0])
        for room in lobby.rooms.values():
            room.game  # noqa: B018 (a dormant game is replayed when first needed)
        woken = time.process_time()
        if traced is not None:
            traced.append(tracemalloc.get_traced_memory()[0])
        return restored - started, woken - restored
    finally:
        await lobby.close()
        await storage.close()


def memory_per_game(db: str, games: int) -> tuple[float, float]:
    """KiB the lobby holds per game once restored (dormant), and once replayed."""
    traced: list[int] = []
    tracemalloc.start()
    try:
        asyncio.run(rebuild_once(db, traced))
    finally:
        tracemalloc.stop()
    before, restored, woken = traced
    return (restored - before) / games / 1024, (woken - before) / games / 1024


async def join_when_served(base: str, game: str, token: str, deadline: float) -> None:
    """Join `game` as soon as the server accepts a WebSocket; wait for the Ack."""
    version = SUPPORTED_VERSIONS[-1]
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                ws = await http.ws_connect(f"{base}/api/v1/ws",
                                           protocols=(SUBPROTOCOLS[-1],), max_msg_size=1 << 22)
                break
            except aiohttp.ClientConnectionError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not listen in time") from None
                await asyncio.sleep(0.005)
        async with ws:
            await ws.send_bytes(encode_client(Hello(id=1, versions=(version,),
                                                    client="restart")))
            await ws.send_bytes(encode_client(Join(id=2, game=game, token=token)))
            async for frame in ws:
                message = decode_server(frame.data)
                if getattr(message, "id", None) == 2:
                    if not isinstance(message, Ack):
                        raise SystemExit(f"the join was refused: {message}")
                    return


async def all_restored(base: str, games: int, deadline: float) -> None:
    """Wait until the server has every game back (its live games, in /metrics)."""
    async with aiohttp.ClientSession() as http:
        while True:
            async with http.get(f"{base}/metrics") as response:
                text = await response.text()
            live = next((float(line.split()[1]) for line in text.splitlines()
                         if line.startswith("dominion_live_games ")), 0.0)
            if live >= games:
                return
            if time.monotonic() > deadline:
                raise SystemExit(f"{live:.0f} of {games} games restored in time")
            await asyncio.sleep(0.05)


def cpu_seconds(pid: int) -> float:
    """The CPU seconds a process has used so far, its threads' included (Linux's /proc):
    on a busy machine its wall times stretch with the load, its CPU times much less."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def restart_seconds(db: str, games: int) -> dict[str, float]:
    """Launch the server on `db`: seconds to listening, and to the last game joined."""
    import socket
    import subprocess

    port = free_port()
    started = time.monotonic()
    with open(db + ".log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "dominion.server.main", "--host", HOST, "--port", str(port),
             "--db", db, "--log-level", "WARNING",
             # nobody comes back: no bot takes a seat over and plays its game to the end
             # while the others are restored (the live games then count the restored)
             "--seat-grace-seconds", "86400"], stdout=log, stderr=log)
    try:
        deadline = started + 600
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=0.2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start; see " + db + ".log") from None
                time.sleep(0.002)
        ready = time.monotonic() - started
        last = games - 1
        base = f"http://{HOST}:{port}"
        asyncio.run(join_when_served(base, game_id_of(last), token_of(last, 0), deadline))
        playable = time.monotonic() - started
        print(f"{games} games: ready {ready:.2f} s, the newest playable {playable:.2f} s",
              file=sys.stderr, flush=True)  # before the long wait, which may not end
        asyncio.run(all_restored(base, games, started + RESTORE_SECONDS))
        return {"ready_s": ready, "playable_s": playable,
                "restored_s": time.monotonic() - started,
                "restored_cpu_s": cpu_seconds(process.pid)}
    finally:
        stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--answers", type=int, default=40, help="answers stored per game")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure (best)")
    parser.add_argument("--db", help="use (or build) this games file; kept afterwards")
    parser.add_argument("--memory", action="store_true",
                        help="also the memory per game, dormant and replayed (tracemalloc)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = None
    if args.db:
        db = args.db
    else:
        folder = tempfile.mkdtemp(prefix="restart-bench-")
        db = os.path.join(folder, "games.sqlite3")
    try:
        if not os.path.exists(db):
            started = time.perf_counter()
            asyncio.run(build(db, args.games, args.answers))
            print(f"built {args.games} games in {time.perf_counter() - started:.1f} s",
                  file=sys.stderr)
        read_s, read_mib = read_seconds(db, args.repeat)
        rebuild_s, wake_s = rebuild_seconds(db, args.repeat)
        result: dict[str, Any] = {"games": args.games, "answers_per_game": args.answers,
                                  "read_s": read_s, "read_peak_mib": read_mib,
                                  "rebuild_s": rebuild_s, "wake_s": wake_s}
        print(f"read {read_s:.2f} s (CPU; peak {read_mib:.0f} MiB), rebuilt "
              f"{rebuild_s:.2f} s (CPU), every dormant game replayed after {wake_s:.2f} s",
              file=sys.stderr, flush=True)
        if args.memory:
            result["dormant_kib"], result["replayed_kib"] = memory_per_game(db, args.games)
            print(f"per game: {result['dormant_kib']:.2f} KiB dormant, "
                  f"{result['replayed_kib']:.2f} KiB replayed", file=sys.stderr, flush=True)
        empty = os.path.join(os.path.dirname(db), "empty-" + os.path.basename(db))
        if not os.path.exists(empty):
            asyncio.run(build(empty, 1, args.answers))
        runs, bare = [], []
        for _ in range(args.repeat):  # interleaved: the machine's load drifts
            bare.append(restart_seconds(empty, 1))
            runs.append(restart_seconds(db, args.games))
        for key in ("ready_s", "playable_s", "restored_s", "restored_cpu_s"):
            result[key] = min(run[key] for run in runs)
            result["bare_" + key] = min(run[key] for run in bare)
        if args.json:
            print(json.dumps(result))
        else:
            print(f"{args.games} unfinished games, {args.answers} answers each: read "
                  f"{result['read_s']:.2f} s, rebuilt {result['rebuild_s']:.2f} s; restart: "
                  f"ready {result['ready_s']:.2f} s, "
                  f"the newest game playable {result['playable_s']:.2f} s, every game back "
                  f"{result['restored_s']:.2f} s; with one game: "
                  f"ready {result['bare_ready_s']:.2f} s, playable "
                  f"{result['bare_playable_s']:.2f} s (best of {args.repeat})")
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
