"""The bots' levels on the rating scale: each one's performance rating against the
scale's fixed points.

The in-server bots that sit at rated tables are the scale's fixed points
(server/ratings/ledger.py, `BOT_MU`; docs/RATINGS.md, "Bots are fixed points"). Each
subject here (every level of the strong bot, and the simple bots) plays 2-player games
against each fixed point but itself, through `bench/strength.py`'s harness (random
Kingdoms of both editions, each deal played from both seats). Its rating is the `mu`
at which the project's model (server/ratings, `win_probabilities`, with a settled bot's
`sigma`) expects the score it made over those games (wins plus half the shared wins);
its 95 % interval, the `mu` that expects each end of the score's interval. A fixed
point measured this way shows how well its fixed value agrees with head-to-head play.

    python bench/levels.py [--games 400] [--jobs 2] [--seed 0] [--json]
    python bench/levels.py --subjects strong:1,strong:2 --games 1000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from strength import measure

from dominion.bots import STRATEGIES
from dominion.server.ratings import Pool, Rating
from dominion.server.ratings.ledger import BOT_MU, BOT_SIGMA, bot_rating
from dominion.server.ratings.model import win_probabilities

SUBJECTS = ("big_money", "smithy_big_money", "strong:1", "strong:2", "strong:3")
"""Weakest first; `strong:3` is `strong`, the default level."""
SAME = {"strong:3": "strong"}
"""A subject that is a fixed point under another name: it does not play itself."""
ANCHORS = ("big_money", "smithy_big_money", "strong")
"""The fixed points played against; not `random`, which every subject beats nearly
always, as the model expects: such games would tell nothing."""
KINGDOMS = ("random2", "random1")
LOW, HIGH = -2000.0, 6000.0
"""Where the rating is looked for (the fixed points lie from -150 to 2,690)."""


def expected_score(mu: float, played: Sequence[tuple[str, int]]) -> float:
    """The share of `played` games (anchor, games) the model expects a player rated `mu`
    (settled) to win against those fixed points, 2-player."""
    me = Rating(mu=mu, sigma=BOT_SIGMA)
    total = sum(games for _, games in played)
    return sum(games * win_probabilities([me, bot_rating(anchor, Pool.TWO_PLAYER)])[0]
               for anchor, games in played) / total


def rating_for(score: float, played: Sequence[tuple[str, int]]) -> float:
    """The `mu` at which the model expects `score` (bisection: it rises with `mu`)."""
    low, high = LOW, HIGH
    for _ in range(60):
        middle = (low + high) / 2
        if expected_score(middle, played) < score:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def rate(subject: str, games: int, *, seed: int, jobs: int) -> dict[str, Any]:
    """Play `subject` against each anchor but itself; its scores and performance rating."""
    itself = SAME.get(subject, subject)
    anchors = [anchor for anchor in ANCHORS if anchor != itself]
    report = measure(subject, [(anchor, 2) for anchor in anchors], KINGDOMS, games,
                     seed=seed, jobs=jobs)
    played: list[tuple[str, int]] = []
    scores: dict[str, Any] = {}
    total = variance = 0.0
    for entry in report["matchups"]:
        summary = entry["random_kingdoms"]
        count = summary["games"]
        low, high = summary["score_interval"]
        played.append((entry["opponent"], count))
        scores[entry["opponent"]] = {"games": count, "score": summary["score"],
                                     "score_interval": [low, high],
                                     "decision_cpu_us_mean": summary["decision_cpu_us_mean"]}
        total += count * summary["score"]
        variance += (count * (high - low) / (2 * 1.96)) ** 2
    games_played = sum(count for _, count in played)
    score = total / games_played
    half = 1.96 * math.sqrt(variance) / games_played
    rating = {"mu": round(rating_for(score, played)),
              "interval": [round(rating_for(max(0.0, score - half), played)),
                           round(rating_for(min(1.0, score + half), played))]}
    fixed = BOT_MU.get(itself, {}).get(Pool.TWO_PLAYER)
    return {"subject": subject, "score": score, "scores": scores, "rating": rating,
            "fixed_mu": fixed, "seconds": report["seconds"]}


def _print(results: Sequence[dict[str, Any]], games: int) -> None:
    print(f"2-player, {games} games per anchor and Kingdom kind ({', '.join(KINGDOMS)})")
    print(f"{'subject':<18}" + "".join(f"{anchor:>20}" for anchor in ANCHORS)
          + f"{'rating (95%)':>22}{'fixed mu':>10}{'us/dec':>8}")
    for result in results:
        cells = []
        for anchor in ANCHORS:
            seen = result["scores"].get(anchor)
            cells.append("—" if seen is None else
                         f"{seen['score']:.1%} ({seen['score_interval'][0]:.0%}-"
                         f"{seen['score_interval'][1]:.0%})")
        rating = result["rating"]
        low, high = rating["interval"]
        shown = f"{rating['mu']} ({low}-{high})"
        fixed = result["fixed_mu"]
        cpu = max(seen["decision_cpu_us_mean"] for seen in result["scores"].values())
        print(f"{result['subject']:<18}" + "".join(f"{cell:>20}" for cell in cells)
              + f"{shown:>22}{'—' if fixed is None else round(fixed):>10}{cpu:>8.0f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subjects", default=",".join(SUBJECTS),
                        help=f"comma-separated strategies (default {','.join(SUBJECTS)})")
    parser.add_argument("--games", type=int, default=400,
                        help="games per anchor and Kingdom kind (default 400)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    subjects = [name.strip() for name in args.subjects.split(",") if name.strip()]
    if bad := [name for name in subjects if name not in STRATEGIES]:
        parser.error(f"unknown strategies {bad}; known: {', '.join(STRATEGIES)}")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    results = [rate(subject, args.games, seed=args.seed, jobs=args.jobs)
               for subject in subjects]
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "subjects": results}))
    else:
        _print(results, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
