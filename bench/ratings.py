"""How well the ratings predict: a simulated population of bots of known strength.

Several players of each strategy (random < big_money < smithy_big_money, weakest first)
play 2-player games and 3-6-player games through the engine, as `dominion-sim` plays
them, seats drawn at random from the population. Each game is rated by the model of
server/ratings (or another of openskill's, `--model`), 2-player and 3-6-player games in
their own pools. Before each game the model predicts each seat's chance to win; after
it, the prediction is scored against who won (a shared win splits the outcome evenly):

  log-loss  -sum(outcome_i * ln p_i), per game (a uniform guess scores ln(seats));
  Brier     sum((p_i - outcome_i)^2), per game (a uniform guess scores 1 - 1/seats).

Then it reports each strategy's final ratings, and checks that they come out in the
strategies' known order (exit status 1 if not).

With `--ledger DB` it scores a real ledger instead (the account store's: the SQLite file
beside the games' database, or a PostgreSQL URL): its games in order, each predicted from
the ratings its players had before it, as today's parameters rebuild them
(`dominion-server ratings recompute` does the same).

    python bench/ratings.py [--games 1500] [--players-per-strategy 3] [--seed 1] [--json]
    python bench/ratings.py --ledger games.accounts.sqlite3 [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

from dominion.bots import STRATEGIES, make_strategy
from dominion.server.accounts.ledger_sql import LEDGER_GAMES_SQL, LEDGER_SEATS_SQL, games_of
from dominion.server.engine import Game, Setup
from dominion.server.play.bots import play_out
from dominion.server.ratings import INITIAL, Pool, Rating, ranks, update, win_probabilities
from dominion.server.ratings.ledger import RatedGame, replay
from dominion.server.ratings.model import Model, make_model

KNOWN_ORDER = ("random", "big_money", "smithy_big_money", "strong")
"""Weakest first."""
KINGDOM = "cellar,market,merchant,militia,mine,moat,remodel,smithy,village,witch"
"""First Game with Witch for Workshop: Smithy for `smithy_big_money`, and Witch for the
strong bot's plan (on First Game itself its plan is Smithy Big Money: the two tie)."""
MODELS: dict[str, type[Model]] = {
    "plackett_luce": PlackettLuce, "thurstone_mosteller_full": ThurstoneMostellerFull,
    "bradley_terry_full": BradleyTerryFull}
"""openskill's models that rate every ranking at once, each with the same parameters."""
SEATS = {Pool.TWO_PLAYER: (2,), Pool.MULTIPLAYER: (3, 4, 5, 6)}


@dataclass
class Scores:
    """One pool's predictions scored."""

    games: int = 0
    log_loss: float = 0.0
    brier: float = 0.0
    uniform_log_loss: float = 0.0
    uniform_brier: float = 0.0
    ratings: dict[str, Rating] = field(default_factory=dict)

    def add(self, predicted: Sequence[float], ranked: Sequence[int]) -> None:
        winners = [seat for seat, rank in enumerate(ranked) if rank == 0]
        outcome = [1 / len(winners) if seat in winners else 0.0 for seat in range(len(ranked))]
        uniform = 1 / len(ranked)
        self.games += 1
        self.log_loss -= sum(o * math.log(max(p, 1e-12))
                             for o, p in zip(outcome, predicted, strict=True) if o)
        self.brier += sum((p - o) ** 2 for o, p in zip(outcome, predicted, strict=True))
        self.uniform_log_loss -= math.log(uniform)
        self.uniform_brier += sum((uniform - o) ** 2 for o in outcome)

    def to_dict(self, strategies: Sequence[str]) -> dict[str, Any]:
        games = max(self.games, 1)
        by_strategy = {name: [rating for player, rating in self.ratings.items()
                              if player.rsplit(" ", 1)[0] == name] for name in strategies}
        return {
            "games": self.games,
            "log_loss": round(self.log_loss / games, 4),
            "brier": round(self.brier / games, 4),
            "uniform_log_loss": round(self.uniform_log_loss / games, 4),
            "uniform_brier": round(self.uniform_brier / games, 4),
            "strategies": {name: {
                "mu": round(statistics.fmean(r.mu for r in rated), 1),
                "sigma": round(statistics.fmean(r.sigma for r in rated), 1),
                "display": [r.display for r in rated],
                "provisional": sum(r.provisional for r in rated),
            } for name, rated in by_strategy.items()},
        }


def play(names: Sequence[str], strategies: Sequence[str], kingdom: str, seed: int,
         rng: random.Random) -> list[int]:
    """One game of these players through the engine; its ranks."""
    cards = kingdom.split(",") if "," in kingdom else kingdom
    game = Game(Setup.create(list(names), kingdom=cards, rng=rng), seed=seed)
    play_out(game, [make_strategy(name, seed * 8 + seat) for seat, name in enumerate(strategies)])
    assert game.result is not None
    return ranks(game.result)


def run(strategies: Sequence[str], games: int, per_strategy: int, kingdom: str, seed: int,
        model_name: str) -> dict[Pool, Scores]:
    model = make_model(MODELS[model_name])
    rng = random.Random(seed)
    players = [f"{name} {i + 1}" for name in strategies for i in range(per_strategy)]
    pools = {pool: Scores(ratings=dict.fromkeys(players, INITIAL)) for pool in Pool}
    for number in range(games):
        pool = list(Pool)[number % len(Pool)]  # the pools take turns: as many games each
        seated = rng.sample(players, rng.choice(SEATS[pool]))
        scores = pools[pool]
        before = [scores.ratings[player] for player in seated]
        ranked = play(seated, [player.rsplit(" ", 1)[0] for player in seated], kingdom,
                      rng.getrandbits(64), rng)
        scores.add(win_probabilities(before, model), ranked)
        scores.ratings.update(zip(seated, update(before, ranked, model), strict=True))
    return pools


def ledger_games(db: str) -> list[RatedGame]:
    """The ledger's games in order, from the accounts' SQLite file or a PostgreSQL URL."""
    queries = (LEDGER_GAMES_SQL, LEDGER_SEATS_SQL)
    if db.startswith(("postgres://", "postgresql://")):
        import asyncpg

        async def fetch() -> list[list[Any]]:
            connection = await asyncpg.connect(db)
            try:
                return [list(await connection.fetch(query)) for query in queries]
            finally:
                await connection.close()
        games, seats = asyncio.run(fetch())
    else:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as read:
            games, seats = (read.execute(query).fetchall() for query in queries)
    return [game for _, game in games_of(games, seats)]


def score_ledger(games: Sequence[RatedGame]) -> dict[Pool, Scores]:
    """Each game predicted from its players' ratings before it, and scored."""
    applied, _ = replay(games)
    pools = {pool: Scores() for pool in Pool}
    for game, seats in zip(games, applied, strict=True):
        pools[game.pool].add(win_probabilities([seat.before for seat in seats]),
                             [seat.seated.rank for seat in seats])
    return pools


def in_order(report: dict[str, Any], strategies: Sequence[str]) -> bool:
    """Each pool's strategies' mean mu rises in the order given (weakest first)."""
    return all([pool["strategies"][name]["mu"] for name in strategies]
               == sorted(pool["strategies"][name]["mu"] for name in strategies)
               for pool in report["pools"].values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1500, help="in all, half in each pool")
    parser.add_argument("--players-per-strategy", type=int, default=3)
    parser.add_argument("--strategies", default=",".join(KNOWN_ORDER),
                        help="comma-separated, weakest first: the order the ratings must "
                             f"come out in; known: {', '.join(STRATEGIES)}")
    parser.add_argument("--kingdom", default=KINGDOM,
                        help="a recommended set's name or 10 comma-separated card ids "
                             "(default: First Game with Witch for Workshop)")
    parser.add_argument("--model", choices=MODELS, default="plackett_luce")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ledger", metavar="DB",
                        help="score this ledger instead (the accounts' SQLite file, or a "
                             "postgresql:// URL)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.ledger:
        return report_ledger(args.ledger, args.json)
    strategies = args.strategies.split(",")
    started = time.process_time()
    pools = run(strategies, args.games, args.players_per_strategy, args.kingdom, args.seed,
                args.model)
    report = {"model": args.model, "games": args.games, "kingdom": args.kingdom,
              "seed": args.seed, "players_per_strategy": args.players_per_strategy,
              "pools": {pool.value: scores.to_dict(strategies) for pool, scores in pools.items()},
              "cpu_seconds": round(time.process_time() - started, 2)}
    report["in_known_order"] = in_order(report, strategies)
    if args.json:
        print(json.dumps(report))
    else:
        for pool, scores in report["pools"].items():
            print(f"{pool}: {scores['games']} games, log-loss {scores['log_loss']} "
                  f"(uniform {scores['uniform_log_loss']}), Brier {scores['brier']} "
                  f"(uniform {scores['uniform_brier']})")
            for name, rated in scores["strategies"].items():
                print(f"  {name}: mu {rated['mu']}, sigma {rated['sigma']}, "
                      f"shown {rated['display']}")
        print("in the known order" if report["in_known_order"] else "NOT in the known order")
    return 0 if report["in_known_order"] else 1


def report_ledger(db: str, as_json: bool) -> int:
    started = time.process_time()
    pools = {pool.value: scores.to_dict([])
             for pool, scores in score_ledger(ledger_games(db)).items()}
    if as_json:
        print(json.dumps({"ledger": db, "pools": pools,
                          "cpu_seconds": round(time.process_time() - started, 2)}))
        return 0
    for pool, scores in pools.items():
        print(f"{pool}: {scores['games']} games, log-loss {scores['log_loss']} "
              f"(uniform {scores['uniform_log_loss']}), Brier {scores['brier']} "
              f"(uniform {scores['uniform_brier']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
