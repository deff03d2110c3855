"""Check a finished game's replay: the seed against its commitment, and every answer
re-played through the engine against every recorded event and the result.

Usable from Python (`verify_replay(data)`) and as `dominion replay verify FILE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from ..engine import Game, IllegalAnswer, InvalidSetup, Setup, event_record
from ..engine.scoring import score_game
from .fields import with_turns
from .format import FORMAT, VERSION, abandoned_result, answer_entry, commitment_of


@dataclass
class Verification:
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    """What is wrong, the first difference first."""

    def fail(self, problem: str) -> Verification:
        self.ok = False
        self.problems.append(problem)
        return self


def verify_replay(replay: dict[str, Any]) -> Verification:
    result = Verification()
    if replay.get("format") != FORMAT or replay.get("version") != VERSION:
        return result.fail(f"not a {FORMAT} version {VERSION} file")
    if not replay.get("complete"):
        return result.fail("this replay is of an unfinished game: it has no seed or answers")
    try:
        seed = int(replay["seed"])
        setup = Setup.from_dict(replay["setup"])
        entries = [answer_entry(a) for a in replay["answers"]]
        recorded = list(replay["events"])
    except (KeyError, TypeError, ValueError, InvalidSetup) as error:
        return result.fail(f"the replay is malformed: {error}")
    if commitment_of(seed) != replay.get("commitment"):
        result.fail("the seed does not match the commitment published at the start")
    game = Game(setup, seed)
    illegal_answer = None
    for index, entry in enumerate(entries):
        try:
            game.apply(entry)
        except IllegalAnswer as illegal:
            illegal_answer = f"answer {index + 1} is not legal at that point: {illegal.message}"
            break
    # in game order: a changed answer shows first as the event where the game went
    # another way, and only later as an answer that no longer fits
    replayed = [event_record(e) for e in game.events]
    if any("turn" in event for event in recorded):  # minor 1 on: each event says its turn
        replayed = list(with_turns(replayed))
    if illegal_answer is not None or not _same(replayed, recorded):
        _first_difference(result, _plain(replayed), recorded)
    if illegal_answer is not None:
        result.fail(illegal_answer)
    if len(replayed) != len(recorded):
        result.fail(f"the answers give {len(replayed)} events; the replay records "
                    f"{len(recorded)}")
    expected_result = None if game.result is None else _plain(game.result.to_dict())
    recorded_result = replay.get("result")
    if game.result is None and isinstance(recorded_result, dict) and recorded_result.get(
            "abandoned") is True:
        # abandoned by the server: the standing when it stopped, nobody winning
        expected_result = _plain(abandoned_result(score_game(game)))
    if expected_result != recorded_result:
        result.fail(f"the result differs: the answers give {expected_result}, "
                    f"the replay records {replay.get('result')}")
    return result


def _same(replayed: list[dict[str, Any]], recorded: list[Any]) -> bool:
    """Whether the events are the recorded ones, as their JSON's bytes: one comparison in C
    for the usual case, a true replay (the replay's own JSON keeps the events' keys in the
    engine's order). False if they differ in any way, or if what is recorded is no JSON."""
    try:
        return orjson.dumps(replayed, option=orjson.OPT_NON_STR_KEYS) == orjson.dumps(recorded)
    except TypeError:  # orjson's JSONEncodeError: what is recorded is not JSON
        return False


def _first_difference(result: Verification, replayed: list[Any], recorded: list[Any]) -> None:
    """Say where the replayed events first part from the recorded ones, if they do (a
    shorter list that agrees so far is told by the caller)."""
    for seq, (expected, found) in enumerate(zip(replayed, recorded, strict=False), start=1):
        if expected != found:
            result.fail(f"event {seq} differs: the answers give {expected}, "
                        f"the replay records {found}")
            break


def _plain(value: Any) -> Any:
    """Engine data as it reads back from JSON (str enums to str, tuples to lists, keys to
    str): a round trip through orjson, which does in C what a walk of every event's
    values did in Python (most of a check's time)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
