"""The web page's game state (clients/web/js/state.js) is the server's view: random games
of every Kingdom card (both editions), run through Node, show the engine's counters, what
every player owns and their points after every answer, for every seat and a spectator,
from the `update` frames alone; a page that arrives mid-game starts from a snapshot. A
complete replay's reader (every card shown) follows hands, piles and play areas through
the events."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dominion.bots import make_strategy
from dominion.server.engine import Game, Setup, event_record, view
from tests.clients.view_games import answer_as, changes, kingdoms

from .node import needs_node, run_node

pytestmark = pytest.mark.integration  # Node.js runs the modules

HERE = Path(__file__).parent


def live_steps(edition: int) -> Iterator[dict[str, Any]]:
    """JSON lines for state_check.mjs: every viewer's update after every answer."""
    for number, kingdom in enumerate(kingdoms(edition)):
        yield {"game_start": f"edition {edition} game {number}"}
        late = 40 + number * 7  # a page that arrives mid-game starts from a snapshot here
        for index, change in enumerate(changes(edition, number, kingdom)):
            update = change.update
            if index // (2 + number % 3 + 1) == late and change.viewer == 0:
                yield {"viewer": 0, "snapshot": change.expected}
            yield {"game": change.game, "viewer": change.viewer, "seq": update.seq,
                   "events": list(update.events), "decision": update.decision,
                   "view": update.view, "expected": change.expected}


def replay_steps(edition: int) -> Iterator[dict[str, Any]]:
    """A complete replay's events, and what the engine holds after each answer."""
    for number, kingdom in enumerate(kingdoms(edition)):
        yield {"game_start": f"replay edition {edition} game {number}"}
        game = Game(Setup.create(3, edition=edition, kingdom=kingdom), seed=number)
        strategy = make_strategy("random", random.Random(number))
        seen = 0
        for _ in range(300):
            events = [event_record(event) for event in game.events[seen:]]
            seen = len(game.events)
            everyone = view(game, None)
            everyone["players"] = [view(game, seat)["players"][seat]
                                   for seat in range(len(game.players))]
            yield {"game": f"replay {edition} {number}", "replay": True, "seq": seen,
                   "events": events, "expected": everyone}
            if game.pending is None:
                break
            answer_as(strategy, game)


@needs_node
def test_the_pages_state_is_the_engines_view() -> None:
    lines = [json.dumps(step) for edition in (1, 2)
             for steps in (live_steps(edition), replay_steps(edition)) for step in steps]
    report = run_node(str(HERE / "state_check.mjs"), stdin="\n".join(lines), timeout=300)
    assert report["problems"] == []
    assert report["checked"] > 5000, report
    assert report["replayed"] > 1000, report
