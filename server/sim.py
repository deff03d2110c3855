"""`dominion-sim`: play many in-process bot games and report how each strategy fared."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dominion.clients.bots import STRATEGIES, make_strategy

from .engine import Game, InvalidSetup, Setup
from .engine.setup import random_kingdom
from .gc_tuning import tune_gc
from .play.bots import play_out

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


def simulate(
    strategies: Sequence[str],
    games: int,
    *,
    edition: int = 2,
    kingdom: Sequence[str] | str | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
) -> Report:
    """Play `games` games, one seat per strategy; the same seed gives the same games.

    The set-up is made once when the Kingdom is fixed, and each seat keeps one bot for
    every game (a strategy holds no state but its random generator)."""
    master = random.Random(seed)
    report = Report(strategies=list(strategies))
    task = progress.add_task("games", total=games) if progress else None
    started = time.perf_counter()
    names = [f"{name} {seat + 1}" for seat, name in enumerate(strategies)]
    base = Setup.create(names, edition=edition, kingdom=kingdom, rng=master)
    bots = [make_strategy(name, random.Random(master.getrandbits(64))) for name in strategies]
    seats = len(strategies)
    for _ in range(games):
        setup = base if kingdom is not None else replace(
            base, kingdom=random_kingdom(edition, master))
        game = Game(setup, seed=master.getrandbits(64))
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
        if progress is not None and task is not None:
            progress.advance(task)
    report.seconds = time.perf_counter() - started
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
    try:
        Setup.create(strategies, edition=args.edition, kingdom=kingdom)
    except InvalidSetup as error:
        err.print(f"invalid set-up: {error.message}")
        return 2
    show_progress = args.games >= PROGRESS_FROM and err.is_terminal
    with Progress(console=err, transient=True, disable=not show_progress) as progress:
        report = simulate(strategies, args.games, edition=args.edition, kingdom=kingdom,
                          seed=args.seed, progress=progress)
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
