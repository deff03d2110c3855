"""One SHA-256 over everything the engine tells the world, for many seeded games: an
optimisation of the engine must leave it unchanged.

Each game (both editions, 2 to 4 seats, a random Kingdom drawn from its number, random
and Big Money bots, every fourth game with a resignation) adds to the hash:
  - every viewer's snapshot frame at the start and at the end (each seat, a spectator);
  - after every answer, the change's frames for every viewer in protocol versions 1
    and 2 (server/play/frames.py `change_frames`, as a room builds them);
  - every event in full (`event_record`, as stored replays hold them) and the result;
and the game replayed from its set-up, seed and answers must give the same events and
frames. `dominion-sim`'s report (all but its timing) for a seeded run is hashed too.

    python bench/engine_digest.py [--games 300] [--json]

tests/engine/test_digest.py pins the digest of a few games; this script checks more.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any

from dominion.bots import make_strategy
from dominion.server.engine import Game, Setup, replay
from dominion.server.engine.view import Ownership, event_record
from dominion.server.play.bots import seat_table
from dominion.server.play.frames import change_frames, snapshot_frame
from dominion.server.sim import simulate

GAME_ID = "g-0123456789abcdef"
STRATEGIES = ("random", "big_money", "smithy_big_money")
RESIGN_AFTER = 40
"""Answers before seat 0 resigns, in every fourth game."""


def _strategies(number: int, seats: int) -> list[str]:
    return [STRATEGIES[(number + seat) % len(STRATEGIES)] for seat in range(seats)]


def _snapshots(game: Game, viewers: list[int | None]) -> bytes:
    return b"".join(snapshot_frame(GAME_ID, game, viewer) for viewer in viewers)


def play(number: int, hasher: Any) -> int:
    """Play game `number`, hashing what it tells; its answers."""
    rng = random.Random(number)
    seats = 2 + number % 3
    setup = Setup.create(seats, edition=1 + number % 2, rng=rng)
    seed = rng.getrandbits(64)
    game = Game(setup, seed=seed)
    viewers: list[int | None] = [*range(seats), None]
    audiences = [(viewer, version) for viewer in viewers for version in (1, 2)]
    bots = [make_strategy(name, seed * 8 + seat)
            for seat, name in enumerate(_strategies(number, seats))]
    ownership = Ownership()
    hasher.update(_snapshots(game, viewers))
    resign = number % 4 == 3
    while (decision := game.pending) is not None:
        if resign and game.answer_count == RESIGN_AFTER:
            events = game.resign(0)
        else:
            seat = decision.player
            answer = bots[seat].choose(decision, seat_table(game, seat))
            events = game.answer(seat, decision.id, answer)
        for audience, frames in change_frames(GAME_ID, game, events, audiences,
                                              ownership).items():
            hasher.update(repr(audience).encode())
            hasher.update(b"".join(frames))
    hasher.update(_snapshots(game, viewers))
    hasher.update(json.dumps([event_record(event) for event in game.events],
                             sort_keys=True).encode())
    assert game.result is not None
    hasher.update(json.dumps(game.result.to_dict(), sort_keys=True).encode())
    again = replay(setup, seed, game.answers)
    if again.events != game.events or _snapshots(again, viewers) != _snapshots(game, viewers):
        raise AssertionError(f"game {number} does not replay to the same events and frames")
    return game.answer_count


def sim_report(games: int) -> dict[str, Any]:
    """`dominion-sim --seed 1 --jobs 1`'s report, random Kingdoms, without its timing."""
    report = simulate(["big_money", "smithy_big_money"], games, seed=1, jobs=1).to_dict()
    del report["seconds"], report["games_per_second"]
    return report


def digest(games: int, sim_games: int) -> tuple[str, int]:
    """The digest of games 0 to `games` - 1 and a `sim_games` simulation; the answers."""
    hasher = hashlib.sha256()
    answers = sum(play(number, hasher) for number in range(games))
    hasher.update(json.dumps(sim_report(sim_games), sort_keys=True).encode())
    return hasher.hexdigest(), answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--sim-games", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    value, answers = digest(args.games, args.sim_games)
    result = {"games": args.games, "sim_games": args.sim_games, "answers": answers,
              "digest": value}
    print(json.dumps(result) if args.json else "\n".join(f"{key:10} {item}"
                                                         for key, item in result.items()))
    sys.exit(0)


if __name__ == "__main__":
    main()
