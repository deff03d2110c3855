"""Other people's text (player names, chat) never reaches the screen raw: a name holding
a window-title and a clear-screen sequence, a right-to-left override, NUL and a
zero-width space is shown escaped by `dominion watch`, on the full screen and in line
mode. The server will refuse such names; a fake server sends them here, as a hostile or
older server could."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.clients.safe import peer
from dominion.protocol import ChatLine, GameOver, ServerMessage, Update
from tests.tiers import Tier, starts

from .fakeserver import fake_server
from .terminal import Terminal

GAME = "g-evil"
TITLE = "\x1b]0;PWNED\x07"
EVIL = [f"{TITLE}Eve\x1b[2J\x1b[H", "\u202eliam", "Nu\x00ll", "Z\u200bW"]
CHAT = "hi\x1b[2J\x1b]2;CHAT\x07 there"
RAW = ("\x1b]", "\x1b[2J", "\u202e", "\x00", "\u200b")


def frames() -> list[ServerMessage]:
    events = [
        {"kind": "game_started", "data": {"players": EVIL, "edition": 2, "kingdom": [],
                                           "first_player": 0, "supply": {"copper": 32}}},
        {"kind": "turn_started", "player": 0, "data": {"turn": 1, "player_turn": 1}},
        {"kind": "bought", "player": 1, "cards": ["copper"], "zone": "discard"},
        {"kind": "resigned", "player": 2},
    ]
    result = {"scores": [3, 3, 3, 3], "turns": [1, 1, 1, 1], "winners": [0, 3],
              "decks": [{}, {}, {}, {}], "resigned": [2]}
    players = [{"seat": seat, "name": name, "hand_size": 0, "discard_top": None,
                "in_play": [], "set_aside": [], "turns": 1, "owned": {}, "points": 3,
                "resigned": seat == 2} for seat, name in enumerate(EVIL)]
    view = {"viewer": None, "edition": 2, "kingdom": [], "supply": {"copper": 31},
            "trash": [], "turn": {"number": 1, "player": 0, "player_turn": 1,
                                  "phase": "buy", "actions": 1, "buys": 1, "coins": 0},
            "players": players, "result": result, "event_count": len(events)}
    return [Update(game=GAME, seq=len(events), events=tuple(events), decision=None,
                   view=view),
            ChatLine(game=GAME, sender=EVIL[0], text=CHAT), GameOver(game=GAME, result=result)]


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server() -> Iterator[str]:
    with fake_server(frames) as url:
        yield url


def test_peer_escapes_what_could_act_on_a_terminal() -> None:
    assert peer(EVIL[0]) == "\\x1b]0;PWNED\\x07Eve\\x1b[2J\\x1b[H"
    assert peer(EVIL[1]) == "\\u202eliam"
    assert peer("Zoë 🂡") == "Zoë 🂡"
    assert len(peer("x" * 1000)) < 300


def test_watch_in_line_mode_prints_hostile_names_escaped(server: str,
                                                         tmp_path: Path) -> None:
    watched = subprocess.run([sys.executable, "-m", "dominion.clients.cli", "watch", GAME,
                              "--server", server], capture_output=True, timeout=60,
                             env={"DOMINION_CONFIG_DIR": str(tmp_path), "PATH": "",
                                  "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
                             stdin=subprocess.DEVNULL, check=False)
    out = watched.stdout.decode()
    assert watched.returncode == 0, watched.stderr.decode()
    assert not [raw for raw in RAW if raw in out], out
    for shown in ("\\x1b]0;PWNED\\x07Eve", "\\u202eliam", "Nu\\x00ll", "Z\\u200bW",
                  "hi\\x1b[2J\\x1b]2;CHAT\\x07 there", "Winners:"):
        assert shown in out, shown


def test_watch_on_the_full_screen_shows_hostile_names_escaped(server: str,
                                                              tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "watch", GAME, "--server", server, rows=24,
                        columns=100)
    try:
        screen = terminal.wait("Press Enter")
        assert terminal.screen.title == "" and terminal.screen.icon_name == ""
        assert "\\x1b]0;PWNED\\x07Eve" in screen and "\\u202eliam" in screen
        assert "\\x1b[2J" in screen
        terminal.type("")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    assert b"PWNED\x07" not in terminal.output and b"\xe2\x80\xae" not in terminal.output

