"""`dominion play` driven as a person would: keystrokes into a pseudo-terminal, the
screen read back, a whole game against a server-side big_money bot to its end.

The terminal is TERM=dumb: prompt_toolkit then uses its plain line prompt and rich
prints no colours, so the screen is plain text to read (on a real terminal the same
program draws with colours, completion and history).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.clients.lobby import Lobby
from dominion.clients.net import Client

from .serverproc import server_url

pexpect = pytest.importorskip("pexpect")

__all__ = ["server_url"]

PROMPT = r"\n(\w+)> "
OPTION = re.compile(r"^\W*(\d+)\. (.+?)\s*\W*$", re.MULTILINE)


@contextlib.contextmanager
def dominion_play(tmp_path: Path, *args: str) -> Iterator[Any]:
    """`dominion play ARGS` in a 60x110 pseudo-terminal; killed if a test leaves it."""
    env = {**os.environ, "DOMINION_CONFIG_DIR": str(tmp_path), "TERM": "dumb",
           "COLUMNS": "110", "LINES": "60"}
    child = pexpect.spawn(sys.executable, ["-m", "dominion.clients.cli", "play", *args],
                          env=env, encoding="utf-8", timeout=20, dimensions=(60, 110))
    try:
        yield child
    finally:
        if child.isalive():
            child.terminate(force=True)


def exits_cleanly(child: Any) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def options(screen: str) -> dict[str, int]:
    """The numbered options of the last decision panel on the screen: label -> number."""
    panel = screen[screen.rfind("Your decision:"):]
    return {label: int(number) for number, label in OPTION.findall(panel)}


def answer(kind: str, shown: dict[str, int], count: int) -> str:
    """A simple Big Money player, typing as a person would (names, numbers, words)."""
    if kind == "buy":
        if "Play all Treasures" in shown:
            return "all"
        for card in ("Province", "Gold"):
            label = next((k for k in shown if k.startswith(f"Buy {card} ")), None)
            if label:
                return card.lower() if count % 2 else str(shown[label])
        if any(k.startswith("Buy Silver ") for k in shown):
            return "buy sil"
        return "end"
    if kind == "play_action":
        return "end"
    return "1"  # anything else: the first option (never asked in this game)


def test_a_whole_game_at_the_terminal(server_url: str, tmp_path: Path) -> None:
    started = time.monotonic()
    transcript = tmp_path / "screen.txt"
    with dominion_play(tmp_path, "--server", server_url, "--name", "Ann", "--kingdom",
                       "First Game") as child:
        child.logfile_read = transcript.open("w", encoding="utf-8")
        child.expect(r"Created (g-\w+): you are seat 0 of 2")
        game = child.match.group(1)
        child.expect(PROMPT)
        first = child.before
        assert "Supply" in first and "Province" in first and "Players" in first
        assert "Bot 2 (big_money)" in first and "Your hand:" in first
        assert re.search(r"Actions \d+ · Buys \d+ · Coins \d+", first)
        assert "Help:" in first and "Log" in first

        # A few mistakes and questions first: explained, never fatal.
        child.sendline("help")
        child.expect("Answer with option numbers")
        child.expect(PROMPT)
        child.sendline("99")
        child.expect("there is no option 99")
        child.expect(PROMPT)
        child.sendline("gold and silver")
        child.expect("is not an option here")
        child.expect(PROMPT)

        screen, kind, answers = first, child.match.group(1), 0
        shown: dict[str, int] = {}
        while True:
            shown = options(screen) if "Your decision:" in screen else shown
            assert shown, screen
            child.sendline(answer(kind, shown, answers))
            answers += 1
            index = child.expect([PROMPT, r"Game over\s*\n", "Not an answer: .*\n"])
            if index == 1:
                break
            assert index == 0, child.after  # every answer typed was understood
            screen, kind = child.before, child.match.group(1)
            assert time.monotonic() - started < 90, "the game takes too long"
        child.expect(r"Winner: ([^\r\n]+)")
        winner = child.match.group(1)
        exits_cleanly(child)
    text = transcript.read_text(encoding="utf-8")
    assert "Waiting for Bot 2 (big_money)" in text  # the other seat's turns, as a log
    assert "Bot 2 (big_money) buys" in text
    assert re.search(r"Scores: Ann -?\d+, Bot 2 \(big_money\) -?\d+\.", text)
    assert winner.rstrip(". ") in ("Ann", "Bot 2 (big_money)", "Ann and Bot 2 (big_money)")
    assert answers > 10 and game in text


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
    her prompt gives way to the game-over screen."""
    with dominion_play(tmp_path, "--server", server_url, "--name", "Ann",
                       "--bot", "none") as child:
        child.expect(r"Created (g-\w+)")
        game = child.match.group(1)
        child.expect(r"Waiting for players at g-\w+ — seats 0: Ann \(you\), 1: \(free\)")
        child.expect(f"dominion play --game {game}")
        asyncio.run(asyncio.wait_for(join_and_resign(server_url, game), 30))
        child.expect(r"Game over\s*\n")
        child.expect(r"Winner: Ann\.")
        exits_cleanly(child)
