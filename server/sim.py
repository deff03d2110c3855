"""`dominion-sim`: play many in-process bot games and report how each strategy fared."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dominion.bots import STRATEGIES, make_strategy

from .engine import Game, InvalidSetup, Setup
from .engine.setup import random_kingdom
from .gc_tuning import tune_gc
from .play.bots import play_out

if TYPE_CHECKING:
    from concurrent.futures import Future

PROGRESS_FROM = 200
"""Runs of at least this many games show a progress bar (on a terminal)."""


@dataclass
class Report:
    games: int = 0
    strategies: list[str] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    """Games a strategy won outright (ties are counted apart)."""
    seat_wins: Counter[int] = field(default_factory=Counter)
    """Games each seat won outright: in a mirror match the strategies' wins merge."""
    order_wins: Counter[int] = field(default_factory=Counter)
    """Games won outright by the player who took the first turn (0), the second (1)..."""
    ties: int = 0
    turns: int = 0
    """Turns taken, all players together."""
    decisions: int = 0
    seconds: float = 0.0

    def add(self, other: Report) -> None:
        """Count another part of the same run's games in this report."""
        self.games += other.games
        self.wins.update(other.wins)
        self.seat_wins.update(other.seat_wins)
        self.order_wins.update(other.order_wins)
        self.ties += other.ties
        self.turns += other.turns
        self.decisions += other.decisions

    def to_dict(self) -> dict[str, Any]:
        games = max(self.games, 1)
        names = dict.fromkeys(self.strategies)
        return {
            "games": self.games,
            "strategies": self.strategies,
            "wins": {name: self.wins[name] for name in names},
            "win_rates": {name: self.wins[name] / games for name in names},
            "wins_by_seat": [self.seat_wins[seat] for seat in range(len(self.strategies))],
            "wins_by_turn_order": [self.order_wins[position]
                                   for position in range(len(self.strategies))],
            "ties": self.ties,
            "average_turns": self.turns / games,
            "average_turns_per_player": self.turns / games / max(len(self.strategies), 1),
            "average_decisions": self.decisions / games,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


Games = list[tuple[tuple[str, ...] | None, int]]
"""Games to play: each one's Kingdom (None: the set-up's own) and seed."""

CHUNK = 250
"""Games a worker process plays per task: large enough that handing them over costs
nothing to speak of, small enough that the workers finish together."""


def default_jobs() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def simulate(
    strategies: Sequence[str],
    games: int,
    *,
    edition: int = 2,
    kingdom: Sequence[str] | str | None = None,
    seed: int | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Report:
    """Play `games` games, one seat per strategy; the same seed gives the same games, and
    the same report, whatever the number of `jobs` (processes) playing them.

    Each game's Kingdom and seed are drawn here, in order, and its bots are seeded from
    its seed, so a game is the same wherever it is played."""
    master = random.Random(seed)
    names = [f"{name} {seat + 1}" for seat, name in enumerate(strategies)]
    base = Setup.create(names, edition=edition, kingdom=kingdom, rng=master)

    def draw(count: int) -> Games:
        return [(None if kingdom is not None else random_kingdom(edition, master),
                 master.getrandbits(64)) for _ in range(count)]

    sizes = [min(CHUNK, games - start) for start in range(0, games, CHUNK)]
    task = progress.add_task("games", total=games) if progress else None
    report = Report(strategies=list(strategies))

    def count(part: Report) -> None:
        report.add(part)
        if progress is not None and task is not None:
            progress.advance(task, part.games)

    started = time.perf_counter()
    if jobs <= 1 or len(sizes) == 1:
        for size in sizes:
            count(play_games(strategies, base, draw(size)))
    else:
        from concurrent.futures import ProcessPoolExecutor  # only here: a cost at start-up

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            waiting: deque[Future[Report]] = deque()
            for size in sizes:
                if len(waiting) == 2 * jobs:  # two tasks a worker: games drawn as needed
                    count(waiting.popleft().result())
                waiting.append(pool.submit(play_games, strategies, base, draw(size)))
            while waiting:
                count(waiting.popleft().result())
    report.seconds = time.perf_counter() - started
    return report


def play_games(strategies: Sequence[str], base: Setup, games: Games) -> Report:
    """Play these games (in a worker process, or here) and count how they ended."""
    report = Report(strategies=list(strategies))
    seats = len(strategies)
    for kingdom, seed in games:
        setup = base if kingdom is None else base.with_kingdom(kingdom)
        game = Game(setup, seed=seed, history=False)  # only the result is read
        # a strategy's only state is its random generator: seeded by the game, it plays
        # the same game in any process
        bots = [make_strategy(name, seed * 8 + seat)
                for seat, name in enumerate(strategies)]
        report.decisions += play_out(game, bots)
        assert game.result is not None
        winners = game.result.winners
        if len(winners) == 1:
            (winner,) = winners
            report.wins[strategies[winner]] += 1
            report.seat_wins[winner] += 1
            report.order_wins[(winner - game.first_player) % seats] += 1
        else:
            report.ties += 1
        report.turns += game.turn.number
        report.games += 1
    return report


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominion-sim", description="Play bot games in-process and report the results."
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats; strategies repeat to fill them (default: one per strategy)")
    parser.add_argument("--strategies", default="big_money,big_money",
                        help=f"comma-separated, one per seat; known: {', '.join(STRATEGIES)}")
    parser.add_argument("--edition", type=int, default=2, choices=(1, 2))
    parser.add_argument("--kingdom", default=None,
                        help="a recommended set's name, or 10 comma-separated card ids "
                             "(default: random per game)")
    parser.add_argument("--seed", type=int, default=None, help="makes the run repeatable")
    parser.add_argument("--jobs", type=int, default=None,
                        help="processes playing the games (default: one per core); the "
                             "same seed gives the same report whatever their number")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in strategies if s not in STRATEGIES]
    err = Console(stderr=True)
    if unknown or not strategies:
        err.print(f"unknown strategy: {', '.join(unknown) or '(none)'}; "
                  f"known: {', '.join(STRATEGIES)}")
        return 2
    if args.players is not None:
        strategies = [strategies[i % len(strategies)] for i in range(args.players)]
    kingdom: list[str] | str | None = args.kingdom
    if args.kingdom and "," in args.kingdom:
        kingdom = [c.strip() for c in args.kingdom.split(",")]
    if args.games < 1:
        err.print("--games must be at least 1")
        return 2
    if args.jobs is not None and args.jobs < 1:
        err.print("--jobs must be at least 1")
        return 2
    try:
        Setup.create(strategies, edition=args.edition, kingdom=kingdom)
    except InvalidSetup as error:
        err.print(f"invalid set-up: {error.message}")
        return 2
    show_progress = args.games >= PROGRESS_FROM and err.is_terminal
    with Progress(console=err, transient=True, disable=not show_progress) as progress:
        report = simulate(strategies, args.games, edition=args.edition, kingdom=kingdom,
                          seed=args.seed, jobs=args.jobs or default_jobs(),
                          progress=progress)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        _print_report(report)
    return 0


def _print_report(report: Report) -> None:
    data = report.to_dict()
    table = Table(title=f"{report.games} games")
    table.add_column("strategy")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for name, wins in data["wins"].items():
        table.add_row(name, str(wins), f"{data['win_rates'][name]:.1%}")
    console = Console()
    console.print(table)
    games = max(report.games, 1)
    by_seat = Table(title="wins by seat and by turn order")
    by_seat.add_column("")
    for position in range(len(report.strategies)):
        by_seat.add_column(str(position + 1), justify="right")
    by_seat.add_row("seat (strategy)", *(
        f"{wins / games:.1%} ({name})"
        for wins, name in zip(data["wins_by_seat"], report.strategies, strict=True)))
    by_seat.add_row("turn order", *(f"{wins / games:.1%}" for wins in data["wins_by_turn_order"]))
    console.print(by_seat)
    console.print(
        f"ties: {report.ties}  average turns: {data['average_turns']:.1f} "
        f"({data['average_turns_per_player']:.1f} per player)  "
        f"time: {report.seconds:.2f}s ({data['games_per_second']} games/s)"
    )


def cli() -> int:
    """The `dominion-sim` command: `main`, in a process of its own."""
    tune_gc()  # a run keeps few objects: fewer collections, none over the loaded modules
    return main()


if __name__ == "__main__":
    sys.exit(cli())
