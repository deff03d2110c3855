"""Answers per game: how many questions the engine asks, and how many of them are forced.

A forced question has one possible answer; the engine asks it anyway when skipping it
would tell other players something about hidden cards (docs/ENGINE.md, "Questions that
tell nothing"). Each is one more round trip for a client, answered without asking a
person. This counts them over complete bot games, per Kingdom and strategies:

    python bench/questions.py [--games 200] [--json]
    python bench/questions.py --games 200 --strategies big_money,big_money  # one line

Every configuration plays the same seeds, so two versions of the engine can be compared
with the same command. One configuration alone is also a fixed workload for counting
instructions (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import random

from dominion.bots import make_strategy
from dominion.server.engine import Game, Setup
from dominion.server.play.bots import seat_table

CONFIGS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "First Game", ("big_money", "big_money")),
    (2, "First Game", ("smithy_big_money", "big_money")),
    (2, "First Game", ("random", "random")),
    (2, "Improvements", ("random", "random", "random")),
    (2, "Sleight of Hand", ("random", "random", "random")),
    (1, "Interaction", ("random", "random", "random", "random")),
    (1, "Big Money", ("random", "random")),
)


def count(edition: int, kingdom: str, strategies: tuple[str, ...], games: int
          ) -> dict[str, object]:
    setup = Setup.create(len(strategies), edition=edition, kingdom=kingdom)
    answers = forced = 0
    for seed in range(games):
        game = Game(setup, seed=seed)
        rng = random.Random(seed)
        bots = [make_strategy(name, random.Random(rng.random())) for name in strategies]
        while (decision := game.pending) is not None:
            answers += 1
            forced += getattr(decision, "forced", False)
            seat = decision.player
            game.answer(seat, decision.id, bots[seat].choose(decision, seat_table(game, seat)))
    games = max(games, 1)
    return {"edition": edition, "kingdom": kingdom, "strategies": ",".join(strategies),
            "answers_per_game": round(answers / games, 1),
            "forced_per_game": round(forced / games, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--strategies", help="only these (comma-separated, one per seat), "
                        "with --kingdom and --edition")
    parser.add_argument("--kingdom", default="First Game")
    parser.add_argument("--edition", type=int, default=2)
    args = parser.parse_args()
    configs = (CONFIGS if args.strategies is None
               else ((args.edition, args.kingdom, tuple(args.strategies.split(","))),))
    rows = [count(edition, kingdom, strategies, args.games)
            for edition, kingdom, strategies in configs]
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(f"edition {row['edition']} {row['kingdom']:16} {row['strategies']:34} "
              f"{row['answers_per_game']:7} answers/game, {row['forced_per_game']:5} forced")


if __name__ == "__main__":
    main()
