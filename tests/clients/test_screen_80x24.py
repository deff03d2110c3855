"""The full screen at 80×24 against a server-side bot, read back through a pseudo-terminal:
the players panel fits its columns and shows every player, log lines break at words
(on the first draw and after help), the fixed actions keep their keys from phase to
phase, and the resign prompt says what resigning does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .serverproc import server_url
from .terminal import Terminal

pytestmark = pytest.mark.integration

__all__ = ["server_url"]


def start(config: Path, server: str, *args: str) -> Terminal:
    return Terminal(config, "play", "--server", server, "--name", "Ann", "--kingdom",
                    "First Game", *args, rows=24, columns=80)


def right_panel(screen: str) -> tuple[list[str], list[str], int]:
    """The players panel's rows, the log's rows, and their width."""
    lines = screen.splitlines()[1:]
    end = next(i for i, line in enumerate(lines) if line.startswith("────"))
    panel = [line.split("│", 1)[1] for line in lines[:end] if "│" in line]
    rule = next(i for i, row in enumerate(panel) if row.startswith("────"))
    return panel[:rule], panel[rule + 1:], len(panel[rule])


def broken_at_words(rows: list[str], width: int) -> list[str]:
    """The log rows that were cut rather than wrapped: a row that goes on (the next row
    is its indented rest) is as long as the width allows, and every other row ends its
    sentence or heading."""
    bad = []
    for row, after in zip(rows, [*rows[1:], ""], strict=True):
        if after.startswith("  "):
            if len(row.rstrip()) + 1 + len(after.split()[0]) < width - 1:
                bad.append(row)  # wrapped short of the log's width
        elif row.strip() and not row.rstrip().endswith((".", "──")):
            bad.append(row)  # cut off
    return bad


def test_every_player_fits_and_log_lines_break_at_words(server_url: str,
                                                        tmp_path: Path) -> None:
    terminal = start(tmp_path, server_url)
    try:
        screen = terminal.wait("Play all Treasures")
        players, log, width = right_panel(screen)
        assert len(players) == 3, screen  # the headings, Ann, the bot: none wrapped
        assert players[0].split()[0] == "Player" and players[0].split()[-1] in (
            "Discard", "Disc."), screen
        assert "Ann (you)" in players[1] and "Easy bot" in players[2], screen
        assert all(len(row.rstrip()) <= width for row in players)
        assert not broken_at_words(log[1:], width), screen  # (the first may be a rest)
    finally:
        terminal.close()


def test_the_log_has_its_full_width_again_after_help(server_url: str,
                                                     tmp_path: Path) -> None:
    terminal = start(tmp_path, server_url)
    try:
        terminal.wait("Play all Treasures")
        terminal.type("help")
        terminal.wait("Answer with")
        terminal.type("all")  # the answer takes the note away
        screen = terminal.wait(lambda text: "Answer with" not in text
                               and "Play all Treasures" not in text and "Buy " in text)
        players, log, width = right_panel(screen)
        assert len(players) >= 3 and "Easy bot" in "".join(players), screen
        assert not broken_at_words(log[1:], width), screen
    finally:
        terminal.close()


@pytest.mark.parametrize(("seats", "said"), [
    ([], "Resign? The game ends now and you lose."),
    (["--seats", "3", "--bot", "big_money", "--bot", "random"],  # 3 players
     "Resign? You can no longer win, and a bot plays your seat to the end."),
])
def test_the_resign_prompt_says_what_resigning_does(server_url: str, tmp_path: Path,
                                                    seats: list[str], said: str) -> None:
    terminal = start(tmp_path, server_url, *seats)
    try:
        screen = terminal.wait("Play all Treasures")
        players, _log, _width = right_panel(screen)
        count = 3 if seats else 2
        assert len(players) == 1 + count, screen  # the headings and every player's row
        terminal.type("resign")
        screen = terminal.wait(said)
        assert "(yes/no)" in screen
        terminal.type("no")
        terminal.wait("Cancelled: nothing was done.")
    finally:
        terminal.close()


def test_the_fixed_actions_have_letters_and_numbers_are_only_cards(server_url: str,
                                                                   tmp_path: Path) -> None:
    terminal = start(tmp_path, server_url, "--no-confirm")
    try:
        screen = terminal.wait("Play all Treasures")
        assert " t. Play all Treasures" in screen and " e. End turn" in screen, screen
        numbered = re.findall(r"\d+\. (\w+ \w+)", screen)
        assert numbered and all(label.startswith(("Play Copper", "Play Silver", "Buy "))
                                for label in numbered), numbered
        terminal.type("t")  # typed ahead or not, "t" only ever plays the Treasures
        screen = terminal.wait(lambda text: "Play all Treasures" not in text
                               and " e. End turn" in text)
        assert "· $0" not in screen
        terminal.type("e")
        terminal.wait(lambda text: "Ann's turn 2 (you)" in text and " t. Play all" in text)
    finally:
        terminal.close()
