"""The full screen at 80×24 when it is crowded: a Buy phase with 17 options and every
pile in the Supply, a card's text, and the long help, in English and Polish."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.clients import i18n
from dominion.clients.render import Names
from dominion.clients.words import help_text, syntax
from dominion.protocol import ServerMessage
from dominion.server.engine import Setup, catalogue_dict, decision_view
from tests.tiers import Tier, starts

from .fakeserver import fake_server, seat_zero_when
from .terminal import Terminal

GAME = "g-c0ffee5eed01"
KINGDOM = "Improvements"  # Cellar, Moat, Witch… every one of them affordable with $6


def crowded() -> list[ServerMessage]:
    """Ann's Buy phase with $6 after her Treasures: a Buy option for 16 piles."""
    return seat_zero_when(KINGDOM, 1, GAME, lambda game, pending: pending.kind == "buy"
                          and len(decision_view(pending, 0)["options"]) >= 17)


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server() -> Iterator[str]:
    with fake_server(crowded, seat=0) as url:
        yield url


@pytest.fixture
def names(lang: str) -> Iterator[Names]:
    """The catalogue, with this process's words in `lang` (as the client's will be)."""
    i18n.use(lang)
    try:
        yield Names.from_cards_endpoint({"editions": catalogue_dict()}, lang)
    finally:
        i18n.use("en")


def play(server: str, config_dir: Path, lang: str) -> Terminal:
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "tokens.json").write_text(json.dumps(
        {GAME: {"seat": 0, "token": "tk-ann", "server": server, "name": "Ann"}}))
    terminal = Terminal(config_dir, "play", "--game", GAME, "--server", server, "--lang",
                        lang, rows=24, columns=80)
    terminal.wait("16. ")  # and "e. End turn"
    return terminal


def supply_panel(screen: str) -> str:
    """The left of the body, up to the Supply's border."""
    lines = screen.splitlines()
    return "\n".join(line.split("│")[0] for line in lines[1:] if "│" in line)


LANGS = pytest.mark.parametrize("lang", ["en", "pl"])


@LANGS
def test_every_pile_is_on_screen_with_17_options(server: str, tmp_path: Path, lang: str,
                                                 names: Names) -> None:
    terminal = play(server, tmp_path / "config", lang)
    try:
        screen = terminal.text()
        panel = supply_panel(screen)
    finally:
        terminal.close()
    setup = Setup.create(["Ann", "Bob"], edition=2, kingdom=KINGDOM)
    piles = ["copper", "silver", "gold", "estate", "duchy", "province", "curse",
             *setup.kingdom]
    for card in piles:
        assert re.search(rf"{re.escape(names(card))}\b.*?\d", panel), (card, panel)


@LANGS
def test_help_card_shows_its_text_once(server: str, tmp_path: Path, lang: str,
                                       names: Names) -> None:
    terminal = play(server, tmp_path / "config", lang)
    try:
        terminal.type(f"help {names('witch')}")
        screen = terminal.wait(f"{names('witch')} · $5")
    finally:
        terminal.close()
    text = " ".join(screen.split())
    card_text = names.entries["witch"][0]["text_pl" if lang == "pl" else "text"]
    assert text.count(card_text.split(".")[0]) == 1, screen


@LANGS
def test_the_long_help_wraps_at_words_and_can_be_read_to_its_end(
        server: str, tmp_path: Path, lang: str, names: Names) -> None:
    wanted = f"{help_text('buy')} {syntax()}".split()
    terminal = play(server, tmp_path / "config", lang)
    try:
        terminal.type("help")
        pages = [terminal.wait(wanted[0])]
        while wanted[-1] not in pages[-1].split() and len(pages) < 5:
            terminal.child.send(" ")  # a space on the empty line shows the next page
            pages.append(terminal.wait(lambda text: True, settle=0.5))
    finally:
        terminal.close()
    seen = " ".join(pages).split()
    for word in wanted:  # every word whole, none cut at the end of a line
        assert word in seen, (word, pages)
