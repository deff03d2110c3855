"""Complete 2-player Big Money mirror games per second, in one process.

Two ways through the same games (same seeds, same answers):
  direct     in-process bots answer the engine's Decision objects;
  interface  what the server does per answer: the decider gets its decision as a
             plain map (decision_view), answers by option ids, and every new event
             is redacted for each seat and a spectator (fan_out).

    python bench/engine.py [--games 2000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable

from dominion.clients.bots import make_strategy
from dominion.clients.bots.wire import WireDecision
from dominion.server.bots import EngineTable, play_out
from dominion.server.engine import Game, Setup, decision_view, fan_out

SETUP = Setup.create(2, kingdom="First Game")


def direct(seeds: range) -> None:
    bots = [make_strategy("big_money"), make_strategy("big_money")]
    for seed in seeds:
        play_out(Game(SETUP, seed=seed), bots)


def interface(seeds: range) -> None:
    bots = [make_strategy("big_money"), make_strategy("big_money")]
    viewers = (0, 1, None)
    for seed in seeds:
        game = Game(SETUP, seed=seed)
        tables = [EngineTable(game, 0), EngineTable(game, 1)]
        sent = 0
        while (decision := game.pending) is not None:
            fan_out(game.events[sent:], viewers)
            sent = len(game.events)
            seat = decision.player
            wire = WireDecision.from_map(decision_view(decision, seat))
            for viewer in viewers:
                if viewer != seat:
                    decision_view(decision, viewer)
            game.answer(seat, wire.id, bots[seat].choose(wire, tables[seat]))


def games_per_second(run: Callable[[range], None], games: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run(range(games))
        best = min(best, time.perf_counter() - started)
    return games / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {
        "python": platform.python_version(),
        "games": args.games,
        "direct_games_per_second": round(games_per_second(direct, args.games, args.repeat)),
        "interface_games_per_second": round(
            games_per_second(interface, args.games, args.repeat)),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    sys.exit(0)


if __name__ == "__main__":
    main()
