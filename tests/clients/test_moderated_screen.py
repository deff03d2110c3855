"""The full screen at 80×24 when a moderator steps in, in English and Polish: the players
panel marks the seats bots play as "[bot]" (an in-server bot's, a bot account's); a chat
line an admin removed (`chat_removed`) leaves the log; a game an admin abandoned
(`game_abandoned`) says so, and why, and asks nothing more. In line mode the abandonment
is said too (a chat line it printed cannot be taken back)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.protocol import ChatLine, ChatRemoved, GameAbandoned, ServerMessage
from tests.tiers import Tier, starts

from .fakeserver import fake_server, seat_zero_when
from .terminal import Terminal

GAME = "g-abad0ed00001"
VILE = "something vile"
REASON = "the table was used to harass a player"
SUMMARY = {"id": GAME, "state": "abandoned", "edition": 2, "result": None, "seats": [
    {"seat": 0, "name": "Ann", "bot": None, "bot_account": False, "account": False},
    {"seat": 1, "name": "Bob", "bot": "strong", "bot_account": False, "account": False}]}


def frames() -> list[ServerMessage]:
    """Ann is asked to buy; Bob says something vile, an admin removes it, and then
    abandons the game."""
    asked = seat_zero_when("First Game", 1, GAME, lambda game, pending: pending.kind == "buy")
    return [*asked, ChatLine(game=GAME, sender="Bob", text=VILE, line=3),
            ChatLine(game=GAME, sender="Ann", text="bye now", line=4),
            ChatRemoved(game=GAME, line=3), GameAbandoned(game=GAME, reason=REASON)]


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server() -> Iterator[str]:
    with fake_server(frames, seat=0, summary=SUMMARY) as url:
        yield url


WORDS = {
    "en": ("Bob [bot]", "(a chat line removed by a moderator)",
           "The game was abandoned", "abandoned with no result"),
    "pl": ("Bob [bot]", "(wiadomość czatu usunięta przez moderatora)",
           "Gra została przerwana", "przerwana bez wyniku"),
}


def play(server: str, config_dir: Path, lang: str) -> Terminal:
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "tokens.json").write_text(json.dumps(
        {GAME: {"seat": 0, "token": "tk-ann", "server": server, "name": "Ann"}}))
    return Terminal(config_dir, "play", "--game", GAME, "--server", server, "--lang", lang,
                    rows=24, columns=80)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_bots_marked_a_removed_line_gone_and_the_abandonment_said(
        server: str, tmp_path: Path, lang: str) -> None:
    bot, removed, abandoned, status = WORDS[lang]
    terminal = play(server, tmp_path / "config", lang)
    try:
        screen = terminal.wait(lambda text: bot in text and abandoned in text)
    finally:
        terminal.close()
    assert VILE not in screen, screen
    assert removed in screen and "bye now" in screen, screen
    assert REASON in screen and status in screen.splitlines()[0], screen
    assert "1. " not in screen, screen  # no question is left to answer


def test_line_mode_says_the_game_was_abandoned_and_why(server: str, tmp_path: Path) -> None:
    watched = subprocess.run([sys.executable, "-m", "dominion.clients.cli", "watch", GAME,
                              "--server", server], capture_output=True, timeout=60,
                             env={"DOMINION_CONFIG_DIR": str(tmp_path), "PATH": "",
                                  "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
                             stdin=subprocess.DEVNULL, check=False)
    out = watched.stdout.decode()
    assert watched.returncode == 0, watched.stderr.decode()
    assert "The game was abandoned: it ended with no result." in out, out
    assert f"Why: {REASON}" in out, out
