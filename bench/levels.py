"""The bots' levels on the rating scale, from their games against each other.

Every pair of subjects (the simple bots and each level of the strong bot) plays games
through `bench/strength.py`'s harness: random Kingdoms of both editions, each deal
played from every seat. With 2 players the pair meets head to head; with 3 to 6
(`--players`) the first of the pair sits alone against as many copies of the second
(the harness's tables), and the copies' score is the share of the game they won
together. The ratings are the ones under which the project's model (server/ratings,
`win_probabilities`, every player settled at a bot's `sigma`) expects each subject's
games to score what they did (wins plus half the shared wins): the model's
maximum-likelihood ratings, found one subject at a time until they settle. One subject
is held at its fixed value for the player count's pool (`big_money`, `BOT_MU`:
docs/RATINGS.md, "Bots are fixed points") to place the scale; the other fixed points'
own values are shown beside what their games say. A rating's 95 % interval is the
rating that expects each end of the subject's score interval, the others held where
they are.

    python bench/levels.py [--games 1000] [--jobs 2] [--seed 0] [--players 2] [--json]
    python bench/levels.py --subjects big_money,strong:1,strong --games 200
    python bench/levels.py --players 4 --games 500     # the 3-6-player pool
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strength import measure

from dominion.bots import STRATEGIES
from dominion.server.ratings import Rating, pool_for, win_probabilities
from dominion.server.ratings.ledger import BOT_MU, BOT_SIGMA

SUBJECTS = ("big_money", "smithy_big_money", "strong:1", "strong:2", "strong")
"""Weakest first (`strong` is `strong:3`, the default level). `random` is left out: it
loses nearly every game to every other bot, which puts no number on it."""
ANCHOR = "big_money"
"""The subject held at its fixed value: it places the scale."""
KINGDOMS = ("random2", "random1")
SWEEPS = 100
"""At most so many rounds of solving each subject's rating, the others held (they stop
once no rating moved by more than `PRECISION`)."""
LOW, HIGH = -3000.0, 7000.0
"""Where a rating is looked for."""
PRECISION = 0.05
STRATEGY_NAMES = {"strong:3": "strong"}
"""A level that is a fixed point under another name."""


@dataclass(frozen=True)
class Result:
    """What the first of a pair scored against the second: alone against `players` - 1
    copies of it."""

    games: int
    score: float
    low: float
    high: float
    """The score's 95 % interval."""
    players: int = 2

    def flipped(self) -> Result:
        """What the copies scored together (head to head: the second's score)."""
        return Result(self.games, 1 - self.score, 1 - self.high, 1 - self.low, self.players)


Results = Mapping[tuple[str, str], Result]


def play_pairs(subjects: Sequence[str], games: int, *, seed: int, jobs: int,
               players: int = 2) -> dict[tuple[str, str], Result]:
    """Every pair of `subjects` plays `games` games per Kingdom kind, the first alone
    against `players` - 1 copies of the second."""
    results: dict[tuple[str, str], Result] = {}
    for index, subject in enumerate(subjects[:-1]):
        later = subjects[index + 1:]
        report = measure(subject, [(other, players) for other in later], KINGDOMS, games,
                         seed=seed, jobs=jobs)
        for entry in report["matchups"]:
            summary = entry["random_kingdoms"]
            low, high = summary["score_interval"]
            results[subject, entry["opponent"]] = Result(summary["games"], summary["score"],
                                                         low, high, players)
    return results


def against(results: Results, subject: str) -> list[tuple[str, Result, bool]]:
    """Each opponent of `subject`, what `subject` scored against it, and whether
    `subject` sat alone (else its copies faced the opponent)."""
    found = []
    for (first, second), result in results.items():
        if first == subject:
            found.append((second, result, True))
        elif second == subject:
            found.append((first, result.flipped(), False))
    return found


def win_chance(mu: float, other: float, players: int = 2) -> float:
    """The model's chance that a settled player rated `mu` beats `players` - 1 settled
    players rated `other`."""
    table = [Rating(mu=mu, sigma=BOT_SIGMA)]
    table += [Rating(mu=other, sigma=BOT_SIGMA)] * (players - 1)
    return float(win_probabilities(table)[0])


def expected_score(mu: float, other: float, result: Result, alone: bool) -> float:
    """What the model expects a subject rated `mu` to score in `result`'s games against
    one rated `other`: alone, or as the copies (their chance that one of them wins)."""
    if alone:
        return win_chance(mu, other, result.players)
    return 1 - win_chance(other, mu, result.players)


def solve(expected: Callable[[float], float], score: float) -> float:
    """The `mu` at which `expected(mu)`, which rises with it, is `score` (bisection)."""
    low, high = LOW, HIGH
    while high - low > PRECISION:
        middle = (low + high) / 2
        if expected(middle) < score:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def fit(results: Results, anchor: str, anchor_mu: float) -> dict[str, dict[str, Any]]:
    """Each subject's rating, and its interval (None: the anchor, held at `anchor_mu`)."""
    subjects = sorted({name for pair in results for name in pair})
    mu = dict.fromkeys(subjects, anchor_mu)

    def expected_of(subject: str) -> Callable[[float], float]:
        played = against(results, subject)
        total = sum(result.games for _, result, _ in played)
        return lambda rating: sum(result.games * expected_score(rating, mu[other], result,
                                                                alone)
                                  for other, result, alone in played) / total

    def score_of(subject: str) -> tuple[float, float]:
        """Its score over all its games, and that score's standard error."""
        played = against(results, subject)
        total = sum(result.games for _, result, _ in played)
        score = sum(result.games * result.score for _, result, _ in played) / total
        error = math.sqrt(sum((result.games * (result.high - result.low) / (2 * 1.96)) ** 2
                              for _, result, _ in played)) / total
        return score, error

    for _ in range(SWEEPS):
        moved = 0.0
        for subject in subjects:
            if subject != anchor:
                before, mu[subject] = mu[subject], solve(expected_of(subject),
                                                         score_of(subject)[0])
                moved = max(moved, abs(mu[subject] - before))
        if moved <= PRECISION:
            break
    rated: dict[str, dict[str, Any]] = {}
    for subject in subjects:
        score, error = score_of(subject)
        expected = expected_of(subject)
        interval = None if subject == anchor else [
            round(solve(expected, max(0.0, score - 1.96 * error))),
            round(solve(expected, min(1.0, score + 1.96 * error)))]
        rated[subject] = {"mu": round(mu[subject]), "interval": interval, "score": score}
    return rated


def fixed_mu(subject: str, players: int = 2) -> float | None:
    return BOT_MU.get(STRATEGY_NAMES.get(subject, subject), {}).get(pool_for(players))



def _print(report: dict[str, Any]) -> None:
    subjects = report["subjects"]
    players = report["players"]
    table = "head to head" if players == 2 else f"the row alone against {players - 1} of the column"
    print(f"{players}-player ({table}), {report['games']} games per pair and Kingdom kind "
          f"({', '.join(KINGDOMS)}), seed {report['seed']}; {ANCHOR} held at its fixed value")
    print(f"{'':<18}" + "".join(f"{name:>18}" for name in subjects))
    scores = {(pair["first"], pair["second"]): pair for pair in report["pairs"]}
    for subject in subjects:
        cells = []
        for other in subjects:
            pair = scores.get((subject, other))
            mirrored = scores.get((other, subject))
            score = (pair["score"] if pair else 1 - mirrored["score"] if mirrored else None)
            cells.append("—" if score is None else f"{score:.1%}")
        print(f"{subject:<18}" + "".join(f"{cell:>18}" for cell in cells))
    print(f"{'subject':<18}{'rating (95%)':>22}{'fixed mu':>10}")
    for subject in subjects:
        rating = report["ratings"][subject]
        interval = rating["interval"]
        shown = f"{rating['mu']} " + ("(held)" if interval is None
                                      else f"({interval[0]}-{interval[1]})")
        fixed = rating["fixed_mu"]
        print(f"{subject:<18}{shown:>22}{'—' if fixed is None else round(fixed):>10}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subjects", default=",".join(SUBJECTS),
                        help=f"comma-separated strategies (default {','.join(SUBJECTS)}); "
                             f"{ANCHOR} is always one")
    parser.add_argument("--games", type=int, default=1000,
                        help="games per pair and Kingdom kind (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2,
                        help="players a game (2; 3-6: one subject against copies of another)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    subjects = list(dict.fromkeys([ANCHOR, *(name.strip() for name in args.subjects.split(",")
                                             if name.strip())]))
    if bad := [name for name in subjects if name not in STRATEGIES]:
        parser.error(f"unknown strategies {bad}; known: {', '.join(STRATEGIES)}")
    if len(subjects) < 2 or args.games < 1 or args.jobs < 1:
        parser.error("two subjects at least; --games and --jobs at least 1")
    if not 2 <= args.players <= 6:
        parser.error("--players is 2 to 6")
    results = play_pairs(subjects, args.games, seed=args.seed, jobs=args.jobs,
                         players=args.players)
    anchor_mu = fixed_mu(ANCHOR, args.players)
    assert anchor_mu is not None
    ratings = fit(results, ANCHOR, anchor_mu)
    for subject, rating in ratings.items():
        rating["fixed_mu"] = fixed_mu(subject, args.players)
    report = {"games": args.games, "seed": args.seed, "players": args.players,
              "subjects": subjects,
              "pairs": [{"first": first, "second": second, "games": result.games,
                         "score": result.score, "score_interval": [result.low, result.high]}
                        for (first, second), result in results.items()],
              "ratings": ratings}
    if args.json:
        print(json.dumps(report))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
