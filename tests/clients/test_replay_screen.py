"""`dominion replay show` on a terminal: the game's full screen, one turn at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .terminal import Terminal
from .test_cli_replay import documented_replay


@pytest.mark.integration  # the command, a program
def test_a_replay_is_shown_turn_by_turn_on_the_game_screen(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(documented_replay()))
    terminal = Terminal(tmp_path, "replay", "show", str(replay), rows=24, columns=80)
    try:
        first = terminal.wait("Step 1 of")
        assert first.startswith("Dominion ") and "Supply" in first and "Player" in first
        assert "'s hand:" in first  # a finished game's replay shows every hand
        terminal.type("")
        second = terminal.wait("Step 2 of")
        assert second != first
        terminal.type("b")
        terminal.wait("Step 1 of")
        terminal.type("q")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
