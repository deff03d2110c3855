"""A card's text in Debian's Chromium, on a laptop and on a phone: shown beside its card and
inside the window when a mouse is over the card or it has keyboard focus, and never away
from it: a scroll, the card moving, or the card leaving the page takes the text away
(issue 25: on a phone it sat under the header far from its card, and on a laptop the
leftmost card's text reached past the window's edge)."""

from __future__ import annotations

import pytest

from .browser import (
    Browser,
    Locator,
    Page,
    browser,
    create_table,
    decision_id,
    expect,
    my_turn,
    new_page,
    page_errors,
    server_url,
)

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium

DETACHED = """() => [...document.querySelectorAll('.tooltip')]
  .filter((tip) => getComputedStyle(tip).display !== 'none')
  .flatMap((tip) => {
    const card = document.querySelector(`.card[data-key="${tip.dataset.for}"]`);
    if (!card) return [`${tip.dataset.for}: shown without its card`];
    const text = document.getElementById(card.getAttribute('aria-describedby'));
    if (text?.textContent !== tip.textContent) return [`${tip.dataset.for}: another card's text`];
    const t = tip.getBoundingClientRect(), c = card.getBoundingClientRect();
    const problems = [];
    if (t.left < 0 || t.top < 0 || t.right > innerWidth || t.bottom > innerHeight) {
      problems.push(`${tip.dataset.for}: past the window's edge`);
    }
    const beside = Math.abs(t.bottom - c.top) <= 12 || Math.abs(t.top - c.bottom) <= 12;
    if (!beside || t.right < c.left || t.left > c.right) {
      problems.push(`${tip.dataset.for}: away from its card`);
    }
    return problems;
  })"""
"""What is wrong with every card text shown: none may be away from its card or past the
window's edge."""


SCROLLED_TO = """(card) => new Promise((done) => {
  const before = scrollY;
  card.scrollIntoView({ block: 'center' });
  if (scrollY === before) done();
  else addEventListener('scroll', () => done(), { once: true });
})"""
"""Scroll the page to put the card in the middle of the window, until the page has been
told that it scrolled (on the next frame)."""


def detached(page: Page) -> list[str]:
    problems: list[str] = page.evaluate(DETACHED)
    return problems


def tip_of(page: Page, selector: str) -> Locator:
    """The tooltip while it shows the text of the card `selector` finds (its first)."""
    key = page.locator(selector).first.get_attribute("data-key")
    return page.locator(f'.tooltip[data-for="{key}"]')


def focus_by_keyboard(page: Page, selector: str) -> None:
    """Keyboard focus on the card (a programmatic focus after a click would not show it)."""
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_a_cards_text_is_shown_beside_its_card_and_goes_with_it(
        browser: Browser, server_url: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server_url, size=size)
    create_table(page, "Tia")
    assert my_turn(page)
    first = ".hand li:first-child .card"
    tip = tip_of(page, first)
    # a mouse over the leftmost card of the hand: its text beside it, inside the window
    # (on a phone the hand is scrolled to first, clear of the decision's bar, the mouse
    # away: a scroll, reported on the next frame, takes away a text shown before it)
    page.mouse.move(0, 0)
    page.locator(first).evaluate(SCROLLED_TO)
    page.hover(first)
    expect(tip).to_be_visible()
    assert detached(page) == []
    # the page scrolls (back up, if it was scrolled to the hand): the text goes (it would
    # stay where the card was)
    page.mouse.wheel(0, -200 if page.evaluate("scrollY") > 0 else 200)
    expect(tip).to_be_hidden()
    page.mouse.move(0, 0)
    page.evaluate("scrollTo(0, 0)")
    # keyboard focus shows it beside the card too, and a scroll takes it away
    focus_by_keyboard(page, first)
    expect(tip).to_be_visible()
    assert detached(page) == []
    page.evaluate("scrollTo(0, 300)")
    expect(tip).to_be_hidden()
    page.evaluate("scrollTo(0, 0)")
    # the card moves away from under the mouse: its text does not follow it
    pile = '.supply .card[data-card="province"]'
    pile_tip = tip_of(page, pile)
    page.hover(pile)
    expect(pile_tip).to_be_visible()
    assert detached(page) == []
    page.evaluate("document.querySelector('.supply').style.marginTop = '120px'")
    expect(pile_tip).to_be_hidden()
    page.evaluate("document.querySelector('.supply').style.marginTop = ''")
    # the card leaves the hand (played from the keyboard): no text is left behind it
    before = decision_id(page)
    focus_by_keyboard(page, '.hand .card[data-option]')
    expect(page.locator(".tooltip.shown")).to_have_count(1)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#decision:not([data-decision="{before}"])')
    page.wait_for_timeout(100)  # (a frame or two for a text to go: it must not stay)
    assert detached(page) == []
    assert page_errors(page) == []


SHOWN_TIPS = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
  () => done([...document.querySelectorAll('.tooltip.shown')].map((tip) => tip.dataset.for)))))"""
"""The cards whose text is shown, two frames on (time for a text to be placed and drawn)."""


def test_a_tap_shows_no_text_but_a_long_press_does(browser: Browser, server_url: str) -> None:
    """On a phone's touch screen: tapping "Create", then a pile, leaves no card's text over
    the Supply; a long press opens the card's text; no key is drawn on a card or the bar."""
    page = new_page(browser, server_url, size=(390, 844), touch=True)
    create_table(page, "Tia", tap=True)
    assert my_turn(page)
    assert page.evaluate(SHOWN_TIPS) == []
    page.tap('.supply .card[data-card="duchy"]', force=True)  # (not offered: aria-disabled)
    assert page.evaluate(SHOWN_TIPS) == []
    # the mouse a phone's browser makes up where the finger last was, and moves over what
    # the page draws there next (the table where "Create" was): no hover on a phone
    page.locator('.supply .card[data-card="province"]').dispatch_event(
        "pointerover", {"pointerType": "mouse", "bubbles": True})
    assert page.evaluate(SHOWN_TIPS) == []
    # the keys are a keyboard's: none drawn, though the page's shortcuts still work
    assert page.locator(".card kbd").count() > 0
    assert page.locator(".card kbd:visible").count() == 0
    assert page.locator("#decision kbd").count() > 0  # nor on the bar's buttons
    assert page.locator("#decision kbd:visible").count() == 0
    # a long press (the context menu it opens) shows the card's whole text
    page.locator('.supply .card[data-card="province"]').dispatch_event("contextmenu")
    info = page.locator(".card-info")
    expect(info).to_be_visible()
    expect(info).to_contain_text("Province")
    assert page_errors(page) == []


WORDS_BROKEN = """() => [...document.querySelectorAll('.card-name')].flatMap((name) => {
  const size = parseFloat(getComputedStyle(name).fontSize);
  const card = name.closest('.card').getBoundingClientRect();
  const problems = size < 12 ? [`${name.textContent}: ${size} px`] : [];
  const text = name.firstChild;
  let at = 0;
  for (const word of name.textContent.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    at += word.length + 1;
    const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
    const lines = new Set(boxes.map((box) => Math.round(box.bottom))).size;
    const breaks = word.split('\u00ad').length - 1; // its soft hyphens: where it may break
    if (lines > 1 + breaks) problems.push(`${word}: broken over ${lines} lines`);
    if (boxes.some((box) => box.left < card.left || box.right > card.right)) {
      problems.push(`${word}: past its card's edge`);
    }
  }
  return problems;
})"""
"""What is wrong with the cards' names: letters under 12 px, a word broken between lines
elsewhere than at its soft hyphens, or wider than its card."""


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_names_on_a_phone_are_readable_and_whole(browser: Browser, server_url: str,
                                                 locale: str) -> None:
    """At 390×844, in English and in Polish (longer words): every name at 12 px
    or more, each word of it on one line inside its card, and the type line shown."""
    page = new_page(browser, server_url, size=(390, 844), locale=locale)
    create_table(page, "Tia", kingdom="Deck Top")  # Moneylender, Laboratorium, Rękodzielnik
    assert my_turn(page)
    assert page.evaluate(WORDS_BROKEN) == []
    for selector in ('.supply .card[data-card="laboratory"]', ".hand .card"):
        expect(page.locator(f"{selector} .card-types").first).to_be_visible()
    assert page.locator(".card .card-icon:visible").count() >= 17  # the Supply's at least
    assert page_errors(page) == []
