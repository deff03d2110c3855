"""The people at a live game's page, run through Node without a browser
(tests/web/people_check.mjs): names drawn from the table's summary (an account's linked to
its profile, a bot's marked "BOT" with an accessible name) on the players' chips and the end
table; the summary asked for again once the game starts and when it ends; a chat line a
moderator removed (`chat_removed`) and a game an admin abandoned (`game_abandoned`); in the
lists, a person a bot played on for said to have left ("resigned", "left"), not a bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from .node import needs_node, run_node

pytestmark = pytest.mark.integration  # Node.js runs the modules

HERE = Path(__file__).parent


@needs_node
def test_names_marks_removed_chat_and_an_abandoned_game() -> None:
    assert run_node(str(HERE / "people_check.mjs"))["problems"] == []
