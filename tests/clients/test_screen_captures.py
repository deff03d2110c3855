"""The screen of `dominion play` at 80×24 and 120×40, in English and Polish, as text:
written to docs/screens/ and into docs/CLIENTS.md by this test, so they never go stale.

The game is the engine's, with a fixed seed, played by two Big Money players until Ann
(seat 0) is in her Buy phase; a fake server sends it to the client as her `resume` from
event 0 would, so the captures are the same on every run."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.protocol import ServerMessage
from tests.tiers import Tier, starts

from .fakeserver import fake_server, seat_zero_when
from .terminal import Terminal

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "docs" / "screens"
CLIENTS_DOC = ROOT / "docs" / "CLIENTS.md"
GAME = "g-5ee7a1c0ffee"


def position() -> list[ServerMessage]:
    """Ann's fifth Buy phase of a seeded game, as seat 0 has seen it all."""
    return seat_zero_when("First Game", 11, GAME, lambda game, pending: pending.kind == "buy"
                          and game.turn.number >= 9)


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server() -> Iterator[str]:
    with fake_server(position, seat=0) as url:
        yield url


def capture(server: str, config_dir: Path, lang: str, columns: int, rows: int) -> str:
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "tokens.json").write_text(json.dumps(
        {GAME: {"seat": 0, "token": "tk-ann", "server": server, "name": "Ann"}}))
    terminal = Terminal(config_dir, "play", "--game", GAME, "--server", server, "--lang",
                        lang, rows=rows, columns=columns)
    try:
        screen = terminal.wait(lambda text: bool(re.search(r"^\s*1\. ", text, re.M)))
        terminal.child.sendcontrol("c")
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    return screen


def publish(name: str, screen: str) -> None:
    """Write the capture to docs/screens/ and into its block in docs/CLIENTS.md."""
    (SCREENS / f"{name}.txt").write_text(screen + "\n", encoding="utf-8")
    doc = CLIENTS_DOC.read_text(encoding="utf-8")
    block = re.compile(rf"(<!-- screen {name} -->\n```text\n)(.*?)(```\n)", re.S)
    assert block.search(doc), f"docs/CLIENTS.md has no block for the screen {name}"
    CLIENTS_DOC.write_text(block.sub(lambda m: m.group(1) + screen + "\n" + m.group(3), doc),
                           encoding="utf-8")


@pytest.mark.parametrize(("lang", "columns", "rows"), [
    ("en", 80, 24), ("en", 120, 40), ("pl", 80, 24), ("pl", 120, 40)])
def test_the_screen_at_both_sizes_in_both_languages(server: str, tmp_path: Path, lang: str,
                                                    columns: int, rows: int) -> None:
    screen = capture(server, tmp_path / "config", lang, columns, rows)
    lines = screen.splitlines()
    assert len(lines) == rows and all(len(line) <= columns for line in lines)
    words = {"en": ("Dominion g-", "Ann's turn", "Buy phase", "Supply", "Province",
                    "Your hand:", "Actions 1 · Buys 1 · $0", "Play all Treasures", "help"),
             "pl": ("Dominion g-", "Ann: tura", "faza zakupu", "Zasoby", "Prowincja",
                    "Twoja ręka:", "Akcje 1 · Zakupy 1 · monety: 0",
                    "Zagraj wszystkie Skarby", "pomoc")}[lang]
    for word in words:
        assert word in screen, word
    assert lines[0].startswith("Dominion g-")  # nothing scrolled off the top
    assert lines[-2].startswith(">")  # the input line, then the hints
    publish(f"{lang}-{columns}x{rows}", screen)
