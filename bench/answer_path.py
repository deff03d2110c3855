"""The server's work per answer without sockets or storage, in one process.

What the event loop's thread does for each answer of a 2-seat game, in the server's
order: decode the answer frame, check it against the pending decision, build its log
row, apply it, encode the ack, redact the new events for both seats (fan_out), and
encode each seat's `update` (protocol version 2) with the decision now pending. The
answers are recorded first from Big Money mirror games, so the strategies' cost is
not measured. Deterministic and quiet: the figure to compare when changing the
answer path (`bench/server_load.py` measures the whole server, but varies ±5% from
run to run).

    python bench/answer_path.py [--games 200] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from dominion.clients.bots import make_strategy
from dominion.protocol import decode_client, encode_client, encode_server
from dominion.protocol.messages import Ack, Update
from dominion.protocol.messages import Answer as AnswerFrame
from dominion.server.bots import EngineTable
from dominion.server.engine import Answer, Game, Setup, decision_view, fan_out
from dominion.server.storage import _answer_row

SETUP = Setup.create(2, kingdom="First Game")
GAME_ID = "g-0123456789abcdef"
AT = "2026-11-30T00:00:00Z"
SEATS = (0, 1)

Recorded = list[tuple[int, bytes]]
"""One game's answers: the answering seat and the answer's frame."""


def record(seed: int) -> Recorded:
    """A Big Money mirror game's answers, as the frames its clients would send."""
    strategies = [make_strategy("big_money"), make_strategy("big_money")]
    game = Game(SETUP, seed=seed)
    tables = [EngineTable(game, seat) for seat in SEATS]
    answers: Recorded = []
    while (decision := game.pending) is not None:
        seat = decision.player
        choice = tuple(strategies[seat].choose(decision, tables[seat]))
        answers.append((seat, encode_client(AnswerFrame(
            id=len(answers) + 1, game=GAME_ID, decision=decision.id, options=choice))))
        game.answer(seat, decision.id, choice)
    return answers


def serve(games: list[tuple[int, Recorded]]) -> None:
    for seed, answers in games:
        game = Game(SETUP, seed=seed)
        for seat, frame in answers:
            message = decode_client(frame)
            assert isinstance(message, AnswerFrame)
            picked = game.check_answer(seat, message.decision, message.options)
            _answer_row(GAME_ID, game.answer_count, Answer(seat, message.decision, picked), AT)
            events = game.answer(seat, message.decision, picked)
            encode_server(Ack(id=message.id), checked=False)
            forms = fan_out(events, SEATS)
            pending = game.pending
            for viewer in SEATS:
                encode_server(Update(
                    game=GAME_ID, seq=game.event_count, events=tuple(forms[viewer]),
                    decision=None if pending is None else decision_view(pending, viewer)),
                    checked=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = [(seed, record(seed)) for seed in range(args.games)]
    answers = sum(len(recorded) for _, recorded in games)
    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        serve(games)
        best = min(best, time.perf_counter() - started)
    result = {"python": platform.python_version(), "games": args.games, "answers": answers,
              "us_per_answer": round(1e6 * best / answers, 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:14} {value}")


if __name__ == "__main__":
    main()
