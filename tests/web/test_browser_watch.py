"""Watching the others play, in Debian's Chromium against a real server: a strong bot's
Attacks (Size Distortion's Witch, Bandit, Bureaucrat) on the person's side of the table;
its cards in play drawn as cards in its chip, the Attack said above the board in a live
region, and the cards flying between places, unless motion is unwanted."""

from __future__ import annotations

import re
from typing import Literal

import pytest

from .browser import (
    Browser,
    Page,
    browser,
    create_table,
    expect,
    my_turn,
    new_page,
    screenshot,
    server_url,
)
from .measures import ATTACK_KINGDOM, axe_violations, play_until_attacked

__all__ = ["browser", "server_url"]  # fixtures
PHONE = (390, 844)

WATCHER = """(() => {
  window.watched = { played: new Set(), flying: 0 };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.classList.contains("flying")) window.watched.flying += 1;
        const cards = node.matches('.chip[data-seat="1"] [data-card]') ? [node]
          : node.querySelectorAll('.chip[data-seat="1"] [data-card]');
        for (const card of cards) window.watched.played.add(card.dataset.card);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""
"""Notes the cards the bot's chip draws and the copies that fly, however briefly."""


def watch_a_bot(browser: Browser, server_url: str,
                motion: Literal["no-preference", "reduce"]) -> tuple[Page, str]:
    page = new_page(browser, "about:blank")
    page.emulate_media(reduced_motion=motion)
    page.add_init_script(WATCHER)
    page.goto(server_url)
    # fast: the bot's plays stay in view a moment (instant, its turn is over at once)
    create_table(page, "Ann", kingdom=ATTACK_KINGDOM, bots={1: "strong"}, pace="fast")
    return page, play_until_attacked(page)


@pytest.mark.system
def test_an_opponents_attack_is_shown_as_cards_said_and_flown(browser: Browser,
                                                              server_url: str) -> None:
    page, said = watch_a_bot(browser, server_url, "no-preference")
    assert re.match(r"Expert bot plays (Witch|Bandit|Bureaucrat): you ", said), said
    notice = page.locator(".attack-notice")
    expect(notice).to_have_attribute("aria-live", "polite")
    expect(notice).to_have_attribute("role", "status")
    played = page.evaluate("[...window.watched.played]")
    attack = said.split(" plays ", 1)[1].split(":", 1)[0].lower()
    assert attack in played, (said, played)  # the Attack was drawn as a card in the bot's chip
    assert page.evaluate("window.watched.flying") > 0
    screenshot(page, "attacked")
    assert not axe_violations(page), axe_violations(page)


@pytest.mark.system
def test_no_card_flies_when_motion_is_unwanted(browser: Browser, server_url: str) -> None:
    page, said = watch_a_bot(browser, server_url, "reduce")
    assert " plays " in said
    assert page.evaluate("window.watched.played.size") > 0  # the bot's plays were drawn
    assert page.evaluate("window.watched.flying") == 0
    assert page.evaluate("document.getAnimations().length") == 0


def test_on_a_phone_six_players_empty_play_rows_leave_the_question_and_hand_in_view(
        browser: Browser, server_url: str) -> None:
    """A 6-player game at 390×844: the others' cards-in-play rows take no height while
    empty, and the hand comes before the Supply: the pending question (the decision bar,
    at the screen's foot) and the whole hand above it are on the first screen."""
    phone = new_page(browser, server_url, size=PHONE)
    create_table(phone, "Pat", seats=6, bots=dict.fromkeys(range(1, 6), "big_money"))
    assert my_turn(phone)
    empty = phone.locator(".chip .chip-play:not(:has([data-card]))")
    assert empty.count() >= 1
    assert set(empty.evaluate_all("rows => rows.map((row) => row.offsetHeight)")) == {0}
    assert phone.evaluate("window.scrollY") == 0
    question, hand = (phone.locator(shown).bounding_box() for shown in ("#decision",
                                                                         ".mine .hand"))
    assert question is not None and hand is not None
    assert question["y"] + question["height"] <= PHONE[1]
    assert hand["y"] >= 0 and hand["y"] + hand["height"] <= question["y"], (hand, question)
    screenshot(phone, "phone-6-players")
