"""How strong a bot is: seeded games against each of the existing bots.

Every matchup is played on three kinds of Kingdom: random ones of the second edition,
random ones of the first, and the recommended (fixed) sets of both, in turn. Each
Kingdom and game seed is played once from every seat, so the bot takes each place in
turn order equally often and the luck of the shuffles is shared. Reported per matchup
and Kingdom kind: wins and ties with 95 % Wilson intervals, and the bot's CPU time per
decision; the targets of issue 29 are checked on random Kingdoms (docs/BOTS.md).

`--references` plays the public simulators' reference strategies instead (ported in
bench/references/: Dominiate's and DominionSim's), each on random Kingdoms that hold its
cards, and reports the score (wins plus half the shared wins) with its 95 % interval,
against the targets of issue 39. `--bot` may name a reference too, to check a port
against its simulator's figure against Big Money Ultimate. With `--players 4` the bot
sits at a table of three different references instead, drawn for each deal from those
named, on a Kingdom that holds all their cards.

    python bench/strength.py [--games 2000] [--jobs 2] [--json]
    python bench/strength.py --games 200 --opponents big_money --kingdoms random2
    python bench/strength.py --games 2000 --opponents smithy_big_money --players 2 \
        --require smithy      # only Kingdoms in which Smithy Big Money buys its Smithy
    python bench/strength.py --references all --games 2000 --jobs 1
    python bench/strength.py --bot double_witch --references big_money_ultimate
    python bench/strength.py --references all --players 4 --games 2000 --jobs 1
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from references import REFERENCES

from dominion.bots import STRATEGIES, DecisionLike, Strategy, Table, make_strategy
from dominion.bots.strong import StrongBot
from dominion.server.engine import Game, Setup
from dominion.server.engine.cards import kingdom_cards
from dominion.server.engine.setup import KINGDOM_SIZE, RECOMMENDED_KINGDOMS, random_kingdom
from dominion.server.play.bots import play_out

KINGDOMS = ("random2", "random1", "fixed")
"""Random second-edition Kingdoms, random first-edition ones, the recommended sets."""
MATCHUPS = (("random", 2), ("big_money", 2), ("smithy_big_money", 2), ("big_money", 4))
"""Opponent and players: in a 4-player game the bot meets three of the opponent."""
TARGETS = {("big_money", 2): 0.70, ("smithy_big_money", 2): 0.60, ("big_money", 4): 0.70}
"""Win rates issues 29 and 39 ask for on random Kingdoms (4 players: 39's, up from 29's
40 %); met when the interval's lower bound is above the target less 3 points."""
MARGIN = 0.03
REFERENCE_TARGET = 0.55
"""The score issue 39 asks for against each reference (Workshop/Gardens: its own)."""
REFERENCE_TARGETS = {"workshop_gardens": 0.50}
REFERENCE_AVERAGE_TARGET = 0.65
TABLE = "reference_table"
"""The 4-player matchup: the bot and three different references (a quarter is par)."""
TABLE_TARGET = 0.35
FIXED = [(edition, kingdom) for edition in (2, 1)
         for kingdom in RECOMMENDED_KINGDOMS[edition].values()]
CHUNK = 50
"""Games a worker plays per task."""


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96)."""
    if not trials:
        return (0.0, 1.0)
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


class Timed:
    """A strategy whose decisions are timed, in CPU time: the process's, so that a busy
    machine's other work is not counted."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0
        self.seconds = 0.0
        self.slowest = 0.0

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        started = time.process_time()
        answer = self.inner.choose(decision, table)
        spent = time.process_time() - started
        self.decisions += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        return answer


def new_bot(name: str, seed: int) -> Strategy:
    """A bot by name: one of the known strategies, a reference, or the strong bot."""
    if name == StrongBot.name and name not in STRATEGIES:
        return StrongBot()
    if name in REFERENCES:
        return REFERENCES[name]()
    return make_strategy(name, seed)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    ties: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    turns: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.ties += other.ties
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        self.turns += other.turns

    def score(self) -> tuple[float, float, float]:
        """Wins plus half the shared wins, a share of the games, and its 95 % interval
        (normal, from the games' own spread: each game scores 1, 1/2 or 0)."""
        games = max(self.games, 1)
        mean = (self.wins + self.ties / 2) / games
        losses = self.games - self.wins - self.ties
        spread = (self.wins * (1 - mean) ** 2 + self.ties * (0.5 - mean) ** 2
                  + losses * mean ** 2) / games
        half = 1.96 * math.sqrt(spread / games)
        return mean, max(0.0, mean - half), min(1.0, mean + half)

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        score, score_low, score_high = self.score()
        tie_low, tie_high = wilson(self.ties, self.games)
        return {
            "games": self.games, "wins": self.wins, "ties": self.ties,
            "win_rate": self.wins / max(self.games, 1), "win_interval": [low, high],
            "tie_rate": self.ties / max(self.games, 1), "tie_interval": [tie_low, tie_high],
            "score": score, "score_interval": [score_low, score_high],
            "average_turns": self.turns / max(self.games, 1),
            "decision_cpu_us_mean": 1e6 * self.seconds / max(self.decisions, 1),
            "decision_cpu_ms_worst": 1e3 * self.slowest,
        }


@dataclass(frozen=True)
class Task:
    bot: str
    opponent: str
    players: int
    kingdoms: str
    seed: int
    first: int
    count: int
    """Games `first` to `first + count` of the matchup's sequence."""
    require: tuple[str, ...] = ()
    """Cards every Kingdom holds (random ones are drawn again until they do)."""
    pool: tuple[str, ...] = ()
    """At a `TABLE`: the references each deal's opponents are drawn from."""


def table_of(task: Task, deal: int) -> list[str]:
    """The references at a deal's table, in seat order after the bot's (none but a
    `TABLE`'s)."""
    if task.opponent != TABLE:
        return []
    return random.Random(f"{task.seed}:table:{deal}").sample(task.pool, task.players - 1)


def fixed_sets(require: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """The recommended sets holding every card of `require`."""
    return [(edition, kingdom) for edition, kingdom in FIXED
            if all(card in kingdom for card in require)]


def games_of(task: Task) -> Iterator[tuple[int, tuple[str, ...], int, int]]:
    """(edition, Kingdom, game seed, the bot's seat) of each of the task's games: the game
    numbered g plays deal g // players from seat g % players."""
    for number in range(task.first, task.first + task.count):
        deal = number // task.players
        rng = random.Random(f"{task.seed}:{task.kingdoms}:{deal}")
        if task.kingdoms == "fixed":
            sets = fixed_sets(task.require)
            edition, kingdom = sets[deal % len(sets)]
        elif task.opponent == TABLE:  # the table's cards, the rest random
            edition = 2 if task.kingdoms == "random2" else 1
            needed = cards_needed([task.bot, *table_of(task, deal)], task.require)
            rest = [card for card in kingdom_cards(edition) if card not in needed]
            kingdom = tuple(sorted((*needed, *rng.sample(rest, KINGDOM_SIZE - len(needed)))))
        else:
            edition = 2 if task.kingdoms == "random2" else 1
            kingdom = random_kingdom(edition, rng)
            while not all(card in kingdom for card in task.require):
                kingdom = random_kingdom(edition, rng)
        yield edition, kingdom, rng.getrandbits(64), number % task.players


def play(task: Task) -> Tally:
    tally = Tally()
    setups: dict[int, Setup] = {}
    for number, (edition, kingdom, seed, seat) in enumerate(games_of(task), task.first):
        base = setups.get(edition)
        if base is None:
            base = setups[edition] = Setup.create(task.players, edition=edition,
                                                  kingdom=FIXED[0][1] if edition == 2
                                                  else FIXED[-1][1])
        game = Game(replace(base, kingdom=kingdom), seed=seed, history=False)
        bot = Timed(new_bot(task.bot, seed))
        table = table_of(task, number // task.players)  # the seats after the bot's
        bots: list[Strategy] = [
            bot if other == seat else REFERENCES[table[(other - seat) % task.players - 1]]()
            if table else new_bot(task.opponent, seed * 8 + other)
            for other in range(task.players)]
        play_out(game, bots)
        assert game.result is not None
        winners = game.result.winners
        tally.games += 1
        tally.wins += list(winners) == [seat]
        tally.ties += len(winners) > 1 and seat in winners
        tally.turns += game.turn.number
        tally.decisions += bot.decisions
        tally.seconds += bot.seconds
        tally.slowest = max(tally.slowest, bot.slowest)
    return tally


def cards_needed(names: Sequence[str], require: Sequence[str]) -> tuple[str, ...]:
    """The cards every Kingdom of a matchup holds: `require`, and those of the references
    among `names` (the players)."""
    needed = list(require)
    for name in names:
        if name in REFERENCES:
            needed += [card for card in REFERENCES[name].requires if card not in needed]
    return tuple(needed)


def measure(bot: str, matchups: Sequence[tuple[str, int]], kingdoms: Sequence[str],
            games: int, *, seed: int = 0, jobs: int = 1, require: Sequence[str] = (),
            pool: Sequence[str] = (),
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play `games` games per matchup and Kingdom kind; the report as plain data (`pool`:
    the references a `TABLE`'s opponents are drawn from)."""
    rows = [(opponent, players, kind) for opponent, players in matchups for kind in kingdoms]
    tasks = [Task(bot, opponent, players, kind, seed, first, min(CHUNK, games - first),
                  cards_needed([bot, opponent], require), tuple(pool))
             for opponent, players, kind in rows for first in range(0, games, CHUNK)]
    tallies = {row: Tally() for row in rows}
    started = time.perf_counter()
    if jobs <= 1:
        results: Iterator[Tally] = map(play, tasks)
        for task, tally in zip(tasks, results, strict=True):
            tallies[(task.opponent, task.players, task.kingdoms)].add(tally)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as workers:
            for task, tally in zip(tasks, workers.map(play, tasks), strict=True):
                tallies[(task.opponent, task.players, task.kingdoms)].add(tally)
    report: dict[str, Any] = {"bot": bot, "games_per_row": games, "seed": seed,
                              "require": list(require),
                              "seconds": round(time.perf_counter() - started, 1),
                              "matchups": []}
    scores = []
    for opponent, players in matchups:
        random_kingdoms = Tally()
        by_kind = {}
        for kind in kingdoms:
            tally = tallies[(opponent, players, kind)]
            by_kind[kind] = tally.to_dict()
            if kind != "fixed":
                random_kingdoms.add(tally)
        entry: dict[str, Any] = {"opponent": opponent, "players": players,
                                 "kingdoms": by_kind}
        if random_kingdoms.games:
            entry["random_kingdoms"] = summary = random_kingdoms.to_dict()
            if opponent in REFERENCES:  # the score against a reference, ties count half
                goal = REFERENCE_TARGETS.get(opponent, REFERENCE_TARGET)
                summary["target"] = goal
                summary["target_met"] = summary["score_interval"][0] > goal - MARGIN
                scores.append(summary["score"])
            elif opponent == TABLE:
                summary["target"] = TABLE_TARGET
                summary["target_met"] = summary["score_interval"][0] > TABLE_TARGET - MARGIN
            elif (target := None if require else TARGETS.get((opponent, players))):
                summary["target"] = target
                summary["target_met"] = summary["win_interval"][0] > target - MARGIN
        report["matchups"].append(entry)
        if progress is not None:
            progress(f"{opponent} x{players - 1} done")
    if scores:
        average = sum(scores) / len(scores)
        report["reference_average"] = {
            "score": average, "target": REFERENCE_AVERAGE_TARGET,
            "target_met": average > REFERENCE_AVERAGE_TARGET}
    return report


def _print(report: dict[str, Any]) -> None:
    print(f"{report['bot']}: {report['games_per_row']} games per row, seed {report['seed']}, "
          f"{report['seconds']} s")
    print(f"{'opponent':<24}{'kingdoms':<15}{'games':>6}{'wins':>7}{'95% interval':>14}"
          f"{'ties':>6}{'score':>7}{'95% interval':>14}{'us/dec':>8}{'worst ms':>9}")
    for entry in report["matchups"]:
        label = f"{entry['opponent']} x{entry['players'] - 1}"
        rows = [*entry["kingdoms"].items()]
        if "random_kingdoms" in entry:
            rows.append(("random (both)", entry["random_kingdoms"]))
        for kind, row in rows:
            low, high = row["win_interval"]
            score_low, score_high = row["score_interval"]
            met = ""
            if "target" in row:
                met = f"  target {row['target']:.0%}: {'met' if row['target_met'] else 'NOT met'}"
            print(f"{label:<24}{kind:<15}{row['games']:>6}{row['win_rate']:>7.1%}"
                  f"{f'{low:.1%}-{high:.1%}':>14}{row['tie_rate']:>6.1%}{row['score']:>7.1%}"
                  f"{f'{score_low:.1%}-{score_high:.1%}':>14}"
                  f"{row['decision_cpu_us_mean']:>8.0f}{row['decision_cpu_ms_worst']:>9.1f}{met}")
    if "reference_average" in report:
        average = report["reference_average"]
        print(f"average score over the references: {average['score']:.1%} (target "
              f"{average['target']:.0%}: {'met' if average['target_met'] else 'NOT met'})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default=StrongBot.name, help="the bot measured")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per matchup and Kingdom kind (default 2000)")
    parser.add_argument("--opponents", default=None,
                        help="comma-separated opponents (default: every existing bot)")
    parser.add_argument("--references", default=None,
                        help="play these reference strategies (comma-separated, or 'all': "
                             f"{', '.join(REFERENCES)}), 2-player, on Kingdoms holding "
                             "their cards (default kingdoms: random2,random1)")
    parser.add_argument("--players", default=None,
                        help="player counts: 2 (one opponent), 4 (three Big Money bots; "
                             "with --references: a table of three of them) (default 2,4; "
                             "with --references: 2)")
    parser.add_argument("--kingdoms", default=None,
                        help=f"comma-separated, of {', '.join(KINGDOMS)}")
    parser.add_argument("--require", default="",
                        help="comma-separated cards every Kingdom must hold (default: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    references: list[str] | None = None
    if args.references is not None:
        references = (list(REFERENCES) if args.references == "all" else
                      [name.strip() for name in args.references.split(",") if name.strip()])
        if bad_references := [name for name in references if name not in REFERENCES]:
            parser.error(f"unknown references {bad_references}; known: {', '.join(REFERENCES)}")
    default_kingdoms = "random2,random1" if references is not None else ",".join(KINGDOMS)
    kingdoms = [kind.strip() for kind in (args.kingdoms or default_kingdoms).split(",")
                if kind.strip()]
    players = {int(count) for count in (args.players or ("2" if references is not None
                                                          else "2,4")).split(",")
               if count.strip()}
    opponents = None if args.opponents is None else {
        name.strip() for name in args.opponents.split(",") if name.strip()}
    unknown = [kind for kind in kingdoms if kind not in KINGDOMS]
    if unknown or not kingdoms:
        parser.error(f"unknown kingdoms {unknown}; known: {', '.join(KINGDOMS)}")
    require = [card.strip() for card in args.require.split(",") if card.strip()]
    editions = {"random2": 2, "random1": 1}
    for kind in kingdoms:
        cards = (set(kingdom_cards(editions[kind])) if kind in editions
                 else {card for _, kingdom in fixed_sets(require) for card in kingdom})
        if not set(require) <= cards:
            parser.error(f"no {kind} Kingdom holds {', '.join(require)}")
    if opponents is not None and (bad := opponents - set(STRATEGIES)):
        parser.error(f"unknown opponents {sorted(bad)}; known: {', '.join(STRATEGIES)}")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if references is not None:
        if 4 in players and len(references) < 3:
            parser.error("a table of 4 needs at least three references")
        matchups = [(name, 2) for name in references if 2 in players]
        matchups += [(TABLE, 4)] if 4 in players else []
    else:
        matchups = [(opponent, count) for opponent, count in MATCHUPS
                    if count in players and (opponents is None or opponent in opponents)]
    if not matchups:
        parser.error("no matchup left: see --opponents and --players")
    report = measure(args.bot, matchups, kingdoms, args.games, seed=args.seed,
                     jobs=args.jobs, require=require, pool=references or (),
                     progress=None if args.json else lambda line: print(line, file=sys.stderr))
    if args.json:
        print(json.dumps(report))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
