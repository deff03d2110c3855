"""`dominion play` answers forced questions by itself: a person is never shown a question
with one possible answer (docs/PROTOCOL.md, section 9.2).

Ann buys a Smithy and plays on against a big_money bot. On each of her turns after that
the engine asks her Action phase, since she owns an Action card; when the Smithy is not
in her hand that question is forced. The game's replay then holds more answers from her
seat than she typed: the client sent the forced ones.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from dominion.clients.lobby import Lobby

from .serverproc import server_url
from .test_play_interactive import PROMPT, dominion_play, exits_cleanly, options

__all__ = ["server_url"]

TYPED_ANSWERS = 24
"""About ten of her turns: the Smithy cannot be in her hand at the start of all of them."""


def answer(kind: str, shown: dict[str, int], has_smithy: bool) -> str:
    if kind == "buy":
        if "Play all Treasures" in shown:
            return "all"
        if not has_smithy and any(label.startswith("Buy Smithy ") for label in shown):
            return "buy smithy"
        if any(label.startswith("Buy Silver ") for label in shown):
            return "buy silver"
        return "end"
    assert kind == "play_action", kind  # nothing else is asked in this game
    return "end"


async def seat_answers(server: str, game: str, seat: int) -> int:
    async with aiohttp.ClientSession() as session:
        replay = await Lobby(server, session).replay(game)
    return sum(1 for a in replay["answers"] if a["player"] == seat and not a.get("resign"))


def test_forced_questions_are_answered_without_asking_the_person(server_url: str,
                                                                  tmp_path: Path) -> None:
    with dominion_play(tmp_path, "--server", server_url, "--name", "Ann", "--kingdom",
                       "First Game") as child:
        child.expect(r"Created (g-\w+): you are seat 0 of 2")
        game = child.match.group(1)
        child.expect(PROMPT)
        screen, kind = child.before, child.match.group(1)
        typed, has_smithy = 0, False
        while typed < TYPED_ANSWERS:
            shown = options(screen)
            assert len(shown) >= 2, screen  # never a question with a single answer
            line = answer(kind, shown, has_smithy)
            has_smithy = has_smithy or line == "buy smithy"
            child.sendline(line)
            typed += 1
            child.expect(PROMPT)
            screen, kind = child.before, child.match.group(1)
        assert has_smithy
        child.sendline("resign")  # a two-player game then ends
        child.expect(r"Game over\s*\n")
        exits_cleanly(child)
    answered = asyncio.run(seat_answers(server_url, game, 0))
    assert answered > typed, "no forced question was answered by the client"
