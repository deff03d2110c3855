"""Complete 2-player Big Money mirror games per second, in one process.

Three ways through the same games (same seeds, same answers):
  direct       in-process bots answer the engine's Decision objects;
  interface    what the server does per answer: the decider gets its decision as a
               plain map (decision_view), answers by option ids, and every new event
               is redacted for each seat and a spectator (fan_out);
  answer path  the server's event-loop work per answer without sockets or storage,
               in its order, on answers recorded beforehand (so the bots' cost is left
               out): decode the answer frame, check it, build its log row, apply it,
               encode the ack, and build and encode each seat's `update` (protocol
               version 2: the redacted events, the decision and the view;
               server/play/frames.py change_frames). Reported in microseconds per
               answer: quiet enough to compare changes to that path, which the load
               benchmark's run-to-run spread hides.

    python bench/engine.py [--games 2000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable

from dominion.bots import make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import decode_client, encode_client, encode_server
from dominion.protocol.messages import Ack
from dominion.protocol.messages import Answer as AnswerFrame
from dominion.server.engine import Answer, Game, Setup, decision_view, fan_out
from dominion.server.engine.view import Ownership
from dominion.server.play.bots import play_out, seat_table
from dominion.server.play.frames import change_frames
from dominion.server.storage.rows import answer_row

SETUP = Setup.create(2, kingdom="First Game")
GAME_ID = "g-0123456789abcdef"
AT = "2026-11-30T00:00:00Z"
SEATS = (0, 1)
AUDIENCES = [(seat, 2) for seat in SEATS]
"""Both seats on protocol version 2."""

Recorded = list[tuple[int, bytes]]
"""One game's answers: the answering seat and the answer's frame."""


def direct(seeds: range) -> None:
    bots = [make_strategy("big_money"), make_strategy("big_money")]
    for seed in seeds:
        play_out(Game(SETUP, seed=seed), bots)


def interface(seeds: range) -> None:
    bots = [make_strategy("big_money"), make_strategy("big_money")]
    viewers = (0, 1, None)
    for seed in seeds:
        game = Game(SETUP, seed=seed)
        sent = 0
        while (decision := game.pending) is not None:
            fan_out(game.events[sent:], viewers)
            sent = len(game.events)
            seat = decision.player
            wire = WireDecision.from_map(decision_view(decision, seat))
            for viewer in viewers:
                if viewer != seat:
                    decision_view(decision, viewer)
            game.answer(seat, wire.id, bots[seat].choose(wire, seat_table(game, seat)))


def record(seed: int) -> Recorded:
    """A game's answers, as the frames its clients would send."""
    bots = [make_strategy("big_money"), make_strategy("big_money")]
    game = Game(SETUP, seed=seed)
    answers: Recorded = []
    while (decision := game.pending) is not None:
        seat = decision.player
        choice = tuple(bots[seat].choose(decision, seat_table(game, seat)))
        answers.append((seat, encode_client(AnswerFrame(
            id=len(answers) + 1, game=GAME_ID, decision=decision.id, options=choice))))
        game.answer(seat, decision.id, choice)
    return answers


def answer_path(games: list[Recorded]) -> None:
    for seed, answers in enumerate(games):
        game = Game(SETUP, seed=seed)
        ownership = Ownership()  # as a Room keeps it
        for seat, frame in answers:
            message = decode_client(frame)
            assert isinstance(message, AnswerFrame)
            picked = game.check_answer(seat, message.decision, message.options)
            answer_row(GAME_ID, game.answer_count, Answer(seat, message.decision, picked), AT)
            events = game.answer(seat, message.decision, picked)
            encode_server(Ack(id=message.id), checked=False)
            change_frames(GAME_ID, game, events, AUDIENCES, ownership)


def best_seconds(run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seeds = range(args.games)
    recorded = [record(seed) for seed in seeds]
    answers = sum(map(len, recorded))
    result = {
        "python": platform.python_version(),
        "games": args.games,
        "direct_games_per_second": round(
            args.games / best_seconds(lambda: direct(seeds), args.repeat)),
        "interface_games_per_second": round(
            args.games / best_seconds(lambda: interface(seeds), args.repeat)),
        "answers": answers,
        "answer_path_us_per_answer": round(
            1e6 * best_seconds(lambda: answer_path(recorded), args.repeat) / answers, 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    sys.exit(0)


if __name__ == "__main__":
    main()
