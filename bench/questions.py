"""Answers per game: how many questions the engine asks, and how many of them are forced.

A forced question has one possible answer; the engine asks it anyway when skipping it
would tell other players something about hidden cards (docs/ENGINE.md, "Questions that
tell nothing"). Each is one more round trip for a client, answered without asking a
person. This counts them over complete bot games, per Kingdom and strategies:

    python bench/questions.py [--games 200] [--json]

Every configuration plays the same seeds, so two versions of the engine can be compared
with the same command.
"""

from __future__ import annotations

import argparse
import json
import random

from dominion.clients.bots import make_strategy
from dominion.server.bots import EngineTable
from dominion.server.engine import Game, Setup

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
        tables = [EngineTable(game, seat) for seat in range(len(strategies))]
        while (decision := game.pending) is not None:
            answers += 1
            forced += getattr(decision, "forced", False)
            seat = decision.player
            game.answer(seat, decision.id, bots[seat].choose(decision, tables[seat]))
    return {"edition": edition, "kingdom": kingdom, "strategies": ",".join(strategies),
            "answers_per_game": round(answers / games, 1),
            "forced_per_game": round(forced / games, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [count(edition, kingdom, strategies, args.games)
            for edition, kingdom, strategies in CONFIGS]
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(f"edition {row['edition']} {row['kingdom']:16} {row['strategies']:34} "
              f"{row['answers_per_game']:7} answers/game, {row['forced_per_game']:5} forced")


if __name__ == "__main__":
    main()
