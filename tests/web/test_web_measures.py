"""Issue 25's measures of the web client, in Debian's Chromium: axe-core finds no serious or
critical violation on the lobby (its "Play now" panel waiting too), a game, an opponent's
Attack said, the end and a replay, in every language of the page; none of them scrolls
sideways from 360 to 1920 px; and bench/web.py's screenshots of the same pages. (The
bench's own run: tests/web/test_web_bench.py, a file of its own so that a worker runs it
beside these.)"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from .browser import Browser, browser, new_page, server_url
from .measures import (
    LANGUAGES,
    SCREENSHOT_STATES,
    SIZES,
    WIDTHS,
    PageState,
    Tables,
    axe_violations,
    horizontal_overflow,
    in_language,
    keys_over_words,
    screenshot_names,
    wider_than_the_page,
)
from .test_web_bench import SCREENSHOT_BYTES, bench_module

__all__ = ["browser", "server_url"]  # fixtures


class KnownViolations(AssertionError):
    """axe-core found only violations that an xfail mark below names."""


KNOWN_VIOLATIONS: dict[tuple[PageState, str], frozenset[str]] = {}
"""Serious violations a page state is known to have (none since the table's redesign).
Each such case is expected to fail with these rules only (strict: once the page is
fixed, the mark must go)."""


def axe_case(state: PageState, size: str) -> object:
    known = KNOWN_VIOLATIONS.get((state, size))
    marks = [pytest.mark.xfail(raises=KnownViolations, strict=True,
                               reason=f"today's page: {', '.join(sorted(known))}")] if known else []
    return pytest.param(state, size, marks=marks, id=f"{state}-{size}")


@pytest.fixture(scope="module")
def tables(browser: Browser, server_url: str) -> Tables:
    return Tables.open(browser, server_url)


AXE_SIZES = ("phone", "laptop")
SCREENSHOT_LANGUAGES = ("lt",)
"""The bench's screenshots here: each state's and size's in the language of the longest
words, switched to on the pages (ten; docs/screenshots' forty are checked in
test_web_bench.py)."""


@pytest.mark.parametrize(("state", "size"),
                         [axe_case(state, size) for state in PageState for size in AXE_SIZES])
def test_axe_finds_no_serious_or_critical_violation(tables: Tables, state: PageState,
                                                    size: str) -> None:
    page = tables.pages[state]
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    violations = axe_violations(page)
    found = "\n".join(map(str, violations))
    unknown = {violation.rule for violation in violations} - KNOWN_VIOLATIONS.get((state, size),
                                                                                frozenset())
    assert not unknown, found
    if violations:
        raise KnownViolations(found)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("state", list(PageState))
def test_axe_finds_no_serious_or_critical_violation_in_every_language(
        tables: Tables, state: PageState, lang: str) -> None:
    """Every state in every other language, on the same pages, at a phone's size and a
    laptop's (one switch of language for both): longer words (Lithuanian's, Slovak's)
    must not break the page's contrast, names or labels, where a phone has the least
    room for them either; the page is put back into English for the other measures."""
    page = tables.pages[state]
    found: dict[str, str] = {}  # by size
    try:
        in_language(page, lang)
        for size in AXE_SIZES:
            width, height = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            violations = axe_violations(page)
            if violations:
                found[size] = "\n".join(map(str, violations))
    finally:
        in_language(page, "en")
    assert not found, "\n".join(f"{size}: {said}" for size, said in found.items())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("state", [PageState.GAME, PageState.ATTACK])
def test_no_key_covers_a_cards_type_line(tables: Tables, state: PageState, lang: str) -> None:
    """A card's key badge (bottom left, drawn for a keyboard) leaves its type line readable
    on a laptop, however long its words (Lithuanian's Curse is "Prakeiksmas")."""
    page = tables.pages[state]
    width, height = SIZES["laptop"]
    page.set_viewport_size({"width": width, "height": height})
    try:
        in_language(page, lang)
        covered = keys_over_words(page)
    finally:
        in_language(page, "en")
    assert not covered, covered


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("state", list(PageState))
def test_no_page_scrolls_sideways(tables: Tables, state: PageState, width: int) -> None:
    page = tables.pages[state]
    overflow = horizontal_overflow(page, width)
    assert overflow == 0, f"{overflow} px too wide: {wider_than_the_page(page)}"


def test_the_measures_see_what_they_look_for(browser: Browser) -> None:
    """A picture without words and a box wider than the screen are found (so a pass
    above means none was there)."""
    page = new_page(browser, "about:blank", size=(390, 844))
    page.set_content('<!doctype html><html lang="en"><title>t</title><body style="margin: 0">'
                     '<main><h1>t</h1><img src="data:,">'
                     '<div class="wide" style="width: 1000px">x</div></main></body></html>')
    assert "image-alt" in {violation.rule for violation in axe_violations(page)}
    assert horizontal_overflow(page, 390) == 1000 - 390
    assert wider_than_the_page(page) == ["div.wide"]
    page.context.close()


def test_the_web_bench_writes_its_screenshots(tables: Tables, browser: Browser,
                                              server_url: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`bench/web.py --screenshots`, of this module's pages: the bench plays to them with
    the same `Tables.open`, which need not run twice."""
    web = bench_module()
    monkeypatch.setattr(web, "Tables", SimpleNamespace(open=lambda *_: tables))
    try:
        written = web.screenshots(browser, server_url, tmp_path, SCREENSHOT_LANGUAGES)
    finally:
        for state in SCREENSHOT_STATES:  # back to English, as the measures expect
            in_language(tables.pages[state], "en")
    assert sorted(written) == sorted(screenshot_names(SCREENSHOT_LANGUAGES))
    for name in written:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) <= SCREENSHOT_BYTES, name
