"""The people at a live game's page, run through Node without a browser
(tests/web/people_check.mjs): names drawn from the table's summary (an account's linked to
its profile, a bot's marked "BOT" with an accessible name) on the players' chips and the end
table; the summary asked for again once the game starts and when it ends; a chat line a
moderator removed (`chat_removed`) and a game an admin abandoned (`game_abandoned`); in the
lists, a person a bot played on for said to have left ("resigned", "left"), not a bot."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None,
                    reason="Node.js is not installed (apt-get install nodejs; .ci/run does)")
def test_names_marks_removed_chat_and_an_abandoned_game() -> None:
    assert NODE is not None
    done = subprocess.run([NODE, str(HERE / "people_check.mjs")], capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout)["problems"] == []
