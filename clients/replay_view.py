"""`dominion replay show` on a terminal: the game's screen, one turn at a time.

The same full screen as `play` and `watch` (`clients.tui`): the Supply and the players
as they were when the turn started, the log up to the end of the turn, and everyone's
hand at its start (a finished game's replay reveals every card). Enter shows the next
turn, `b` the one before, a number that step (the turns are numbered in order, one
step each; each is headed by its player's own turn number), `q` or Ctrl-C leaves.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Board
from .i18n import _
from .render import Names, Turn, format_turn, log_lines, replay_players, turn_heading
from .state import GameState, ReplayHands
from .tui import FullScreen


@dataclass
class Step:
    """One turn: the game as it stood at its start, and the log up to its end."""

    state: GameState
    log_end: int
    hands: str


def steps(replay: Mapping[str, Any], names: Names) -> tuple[list[str], list[Step]]:
    """The replay's whole log, and a step per turn."""
    players = replay_players(replay)
    events: list[dict[str, Any]] = list(replay.get("events", []))
    hands = ReplayHands()
    log: list[str] = []
    found: list[Step] = []
    complete = bool(replay.get("complete"))
    for seq, event in enumerate(events, start=1):
        if event.get("kind") == "turn_started" and found:
            found[-1].log_end = len(log)
        hands.apply(seq, event)
        if event.get("kind") == "turn_started":
            state = copy.deepcopy(hands.state)
            shown = "" if not complete else format_turn(
                _turn(hands, players, event), players, names, complete)
            found.append(Step(state, len(log), shown))
        log.extend(log_lines([event], players, names))
    if found:
        found[-1].log_end = len(log)
    return log, found


def _turn(hands: ReplayHands, players: list[str], event: Mapping[str, Any]) -> Turn:
    data = event.get("data") or {}
    return Turn(int(data.get("turn", 1)), event.get("player"), turn_heading(event, players),
                [hands.hand(seat) for seat in range(len(players))])


async def view_replay(replay: Mapping[str, Any], names: Names) -> int:
    log, turns = steps(replay, names)
    game = str((replay.get("game") or {}).get("id", "replay"))
    board = Board(game=game, names=names, state=GameState(game=game))
    screen = FullScreen(board, _("Enter: next turn · b: back · a number: that step · "
                                 "q: leave"))

    def show(index: int) -> None:
        step = turns[index]
        board.state = step.state
        board.log = log[:step.log_end]
        board.note = [_("Step {n} of {count}.").format(n=index + 1, count=len(turns)),
                      *step.hands.splitlines()[1:]]
        screen.log_offset = 0
        screen.refresh()

    async def browse() -> int:
        if not turns:
            return 0
        index = 0
        show(index)
        while True:
            kind, value = await screen.items.get()
            if kind == "quit":
                return 0
            text = str(value).strip().lower()
            if text in ("q", "quit", "exit"):
                return 0
            if text.isdigit():
                index = min(max(int(text) - 1, 0), len(turns) - 1)
            elif text in ("b", "back", "p"):
                index = max(index - 1, 0)
            elif index == len(turns) - 1:
                return 0
            else:
                index += 1
            show(index)

    return await screen.run(browse())


__all__ = ["view_replay"]
