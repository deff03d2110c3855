"""`dominion play` driven as a person would: keystrokes into a pseudo-terminal of 80×24
or 120×40, the screen read back through a terminal emulator (pyte), whole games against
a server-side big_money bot, in English and in Polish; mistakes, confirmations, card
help, Ctrl-C; and a rejoin whose log shows the seat's own past draws again."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from dominion.clients.lobby import Lobby
from dominion.clients.net import Client

from .serverproc import server_url
from .terminal import Terminal

pytestmark = pytest.mark.system  # whole games through a pseudo-terminal

__all__ = ["server_url"]

OPTION = re.compile(r"(\d+|[et])\. (.+?)(?=\s{2,}(?:\d+|[et])\. |$)")
"""An option: its number, or the fixed action's letter (e, t), then its label."""
WORDS = {
    "en": {"all": "Play all Treasures", "buy": "Buy {card} ", "end": "end",
           "cards": ("Province", "Gold", "Silver"), "hand": "Your hand:",
           "counters": r"Actions \d+ · Buys \d+ · \$\d+", "over": "Press Enter to leave"},
    "pl": {"all": "Zagraj wszystkie Skarby", "buy": "Kup: {card} ", "end": "koniec",
           "cards": ("Prowincja", "Złoto", "Srebrniki"), "hand": "Twoja ręka:",
           "counters": r"Akcje \d+ · Zakupy \d+ · monety: \d+", "over": "Naciśnij Enter"},
}


def options(screen: str) -> dict[str, str]:
    """The options on the screen: label -> number or letter."""
    found = {}
    for line in screen.splitlines():
        if re.match(r"^\s*(\d+|[et])\. ", line):
            found.update({label: key for key, label in OPTION.findall(line.strip())})
    return found


def decided(screen: str, words: dict[str, object]) -> bool:
    """A decision of ours is on the screen, or the game is over."""
    return bool(options(screen)) or str(words["over"]) in screen


def answer(shown: dict[str, str], words: dict[str, object], count: int) -> str:
    """A simple Big Money player typing as a person would: words, names, numbers."""
    if str(words["all"]) in shown:
        return "all" if words is WORDS["en"] else "wszystkie"
    for card in words["cards"]:  # type: ignore[attr-defined]
        prefix = str(words["buy"]).format(card=card)
        label = next((k for k in shown if k.startswith(prefix)), None)
        if label:
            return str(card).lower() if count % 2 else str(shown[label])
    return str(words["end"])


def interrupted(terminal: Terminal) -> str:
    """Ctrl-C: the program leaves cleanly, saying how long the seat is held; its output."""
    try:
        terminal.child.sendcontrol("c")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    after = terminal.output.decode(errors="replace")
    assert "Traceback" not in after and "KeyboardInterrupt" not in after
    assert "Your seat is held for 120 seconds" in after
    return after


def whole_game(terminal: Terminal, lang: str) -> int:
    """Play to the end; check the screen after every answer; the number of answers."""
    words = WORDS[lang]

    def whole(text: str) -> bool:
        """Nothing scrolled off: the status on top, the hand, the counters, a decision of
        ours and the empty input line at the bottom, all on one screen. (Waited for, not
        asserted at once: on a busy machine a screen half drawn may stay longer than the
        settle time; one never drawn whole fails the wait.)"""
        lines = text.splitlines()
        return len(lines) > 2 and lines[0].startswith("Dominion g-") \
            and str(words["hand"]) in text and bool(re.search(str(words["counters"]), text)) \
            and bool(options(text)) and lines[-2].startswith(">") \
            and not lines[-2].strip(">").strip()

    screen = terminal.wait(lambda text: str(words["over"]) in text or whole(text))
    answers = 0
    while str(words["over"]) not in screen:
        before = screen
        terminal.type(answer(options(screen), words, answers))
        answers += 1
        screen = terminal.wait(lambda text, before=before: text != before and (
            str(words["over"]) in text or whole(text)))
    return answers


def test_a_whole_game_at_80x24(server_url: str, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", "--server", server_url, "--name", "Ann",
                        "--kingdom", "First Game", "--no-confirm", rows=24, columns=80)
    try:
        answers = whole_game(terminal, "en")
        terminal.type("")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    after = terminal.output.decode(errors="replace")
    assert answers > 10 and re.search(r"Scores: Ann -?\d+, Easy bot -?\d+\.", after)


def test_a_whole_game_in_polish_at_120x40(server_url: str, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", "--server", server_url, "--name", "Ania",
                        "--kingdom", "First Game", "--no-confirm", rows=40, columns=120,
                        env={"DOMINION_LANG": "pl"})
    try:
        answers = whole_game(terminal, "pl")
        final = terminal.text()
        terminal.type("")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    assert answers > 10 and "Wygryw" in final and "Wyniki:" in final
    for english in ("Buy", "Play", "Your hand", "turn", "Supply", "Winner"):
        assert english not in final, english


def test_a_tables_clock_counts_down_warns_and_runs_out(server_url: str,
                                                       tmp_path: Path) -> None:
    """A table with the shortest clock the server takes (30 s): beside each name its
    time, yours running from the server's frames; under 30 s the warning; left alone,
    the clock runs out and the game ends, the bot the winner, said as a time-out."""
    terminal = Terminal(tmp_path, "play", "--server", server_url, "--name", "Ann",
                        "--kingdom", "First Game", "--clock", "0.5+0", "--no-confirm",
                        rows=24, columns=80)
    try:
        screen = terminal.wait("Hurry: your clock has")
        assert re.search(r"Ann \[0:\d\d\] \(you\)", screen), screen
        assert re.search(r"Easy bot \[0:30\]", screen), screen
        screen = terminal.wait("Press Enter to leave")
        assert "Ann [0:00] (you)" in screen and "Ann is out of time and resigns." in screen
        assert "Out of time, so resigned: Ann. Winner: Easy bot." in " ".join(
            screen.split())
        terminal.type("")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()


def test_mistakes_confirmations_help_and_ctrl_c(server_url: str, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", "--server", server_url, "--name", "Ann",
                        "--kingdom", "First Game", rows=24, columns=80)
    words = WORDS["en"]
    try:
        screen = terminal.wait(lambda text: decided(text, words))
        game = re.search(r"Dominion (g-\w+)", screen)
        assert game and "Play all Treasures" in options(screen)
        for typed, explained in [
            ("sliver", "Did you mean Silver?"),
            ("1 2", "Too many: you chose 2."),
            ("help smithy", "+3 Cards."),
            ("end", "You still have Treasures in your hand not played"),
            ("no", "Cancelled: nothing was done."),
            ("resign", "Resign? The game ends now and you lose."),
            ("no", "Cancelled: nothing was done."),
        ]:
            terminal.type(typed)
            screen = terminal.wait(lambda text, explained=explained: explained in " ".join(
                text.split()))
            assert "Play all Treasures" in options(screen)  # still asked the same
    finally:
        after = interrupted(terminal)
    assert f"You left {game.group(1)}." in after and "a bot plays it for you" in after
    assert f"dominion play --game {game.group(1)}" in after


def plain_play(config: Path, *args: str, lines: str) -> subprocess.CompletedProcess[str]:
    """`dominion play` in line mode, with `lines` as its standard input."""
    return subprocess.run([sys.executable, "-m", "dominion.clients.cli", "play", *args],
                          input=lines, capture_output=True, text=True, timeout=60,
                          check=False, env={**os.environ, "DOMINION_CONFIG_DIR": str(config),
                                            "DOMINION_LANG": "en"})


def test_a_rejoin_shows_the_seats_own_past_draws(server_url: str, tmp_path: Path) -> None:
    first = plain_play(tmp_path, "--server", server_url, "--name", "Ann", "--no-confirm",
                       lines="all\nend\nall\nquit\n")
    assert first.returncode == 0, first.stderr
    game = re.search(r"Created (g-\w+)", first.stdout)
    assert game, first.stdout
    drawn = re.findall(r"Ann draws ((?:\w+, )*\w+)\.", first.stdout)
    assert drawn, first.stdout
    again = plain_play(tmp_path, "--game", game.group(1), "--server", server_url,
                       lines="quit\n")
    assert again.returncode == 0, again.stderr
    assert f"Taking seat 0 of {game.group(1)} again." in again.stdout
    # the cards Ann drew before she left are in her log again, as she saw them
    assert re.findall(r"Ann draws ((?:\w+, )*\w+)\.", again.stdout)[:len(drawn)] == drawn


async def join_and_resign(server: str, game: str) -> None:
    """Bob takes the free seat, waits until Ann is asked something, and resigns."""
    async with aiohttp.ClientSession() as session:
        joined = await Lobby(server, session).join(game, "Bob")
        async with Client(server, session=session) as client:
            state = await client.join(game, joined["token"])
            answered: set[int] = set()
            while not (state.decision and state.decision.get("player") == 0):
                decision = state.decision
                if decision and "options" in decision and decision["id"] not in answered:
                    # Bob may start: he ends his turn
                    answered.add(decision["id"])
                    ending = [o["id"] for o in decision["options"]
                              if o["kind"] == "end_phase"] or list(range(decision["min"]))
                    await client.answer(game, decision["id"], ending[:1])
                await client.next_push(timeout=20)
            await client.resign(game)


def test_waiting_for_players_and_a_decision_that_goes_away(server_url: str,
                                                            tmp_path: Path) -> None:
    """The table waits for a second person; when Bob resigns while Ann is being asked,
    her question gives way to the result, which says that Bob resigned."""
    terminal = Terminal(tmp_path, "play", "--server", server_url, "--name", "Ann",
                        "--bot", "none", rows=24, columns=80)
    try:
        screen = terminal.wait("Waiting for players at g-")
        game = re.search(r"Dominion (g-\w+)", screen)
        assert game and "0: Ann (you), 1: (free)" in " ".join(screen.split())
        asyncio.run(asyncio.wait_for(join_and_resign(server_url, game.group(1)), 30))
        screen = terminal.wait("Press Enter to leave")
        assert "Bob resigned." in screen and "Winner: Ann." in screen
        terminal.type("")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()


def test_ctrl_c_in_line_mode_leaves_as_quit_does(server_url: str, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", "--plain", "--server", server_url, "--name", "Ann",
                        rows=24, columns=80)
    try:
        # the prompt is out (the bot's last log lines may still follow it)
        terminal.wait(lambda text: "Play all Treasures" in text
                      and re.search(r"^>", text, re.M) is not None)
    finally:
        after = interrupted(terminal)
    assert "You left g-" in after
