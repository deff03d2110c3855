"""What the web page draws (clients/web/js/board.js and controls.js, from the PageState
that clients/web/js/page_state.js keeps), run through Node without a browser: whole random
games, as every seat and a spectator receive them, show whose turn it is, the view's
counters, the Supply, the players and their points, a decision's options for the person
who decides and only for them, and the end screen; a person's intents (pick, confirm,
click a card, resign) and the protocol's messages change the PageState as they should,
and many changes in one frame are drawn once (tests/web/board_check.mjs)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.server.engine import catalogue_dict
from tests.clients.view_games import GAME_ID, changes, kingdoms

from .node import needs_node, run_node

pytestmark = pytest.mark.integration  # Node.js runs the modules

HERE = Path(__file__).parent


def steps() -> Iterator[str]:
    """JSON lines for board_check.mjs: the catalogue, then every viewer's updates of two
    whole games (2 and 3 players)."""
    yield json.dumps({"editions": catalogue_dict()})
    for number in (0, 1):
        yield json.dumps({"game_start": f"game {number}"})
        for change in changes(2, number, kingdoms(2)[number], answers=3000):
            update = change.update
            yield json.dumps({
                "where": f"{change.game} seq {update.seq}", "viewer": change.viewer,
                "message": {"type": "update", "game": GAME_ID, "seq": update.seq,
                            "events": list(update.events), "decision": update.decision,
                            "view": update.view}})


@needs_node
def test_the_board_draws_the_page_state() -> None:
    report = run_node(str(HERE / "board_check.mjs"), stdin="\n".join(steps()), timeout=300)
    assert report["problems"] == []
    assert report["checked"] > 2000, report
    assert report["ended"] >= 5, report  # both games' end, for every viewer
