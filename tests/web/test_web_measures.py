"""Issue 25's measures of the web client, in Debian's Chromium: axe-core finds no serious or
critical violation on the lobby (its "Play now" panel waiting too), a game, an opponent's
Attack said, the end and a replay, in every language of the page; none of them scrolls
sideways from 360 to 1920 px; bench/web.py (first load, drawing, screenshots) runs; and
docs/CLIENTS.md shows screenshots that exist, with the command that makes them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .browser import Browser, browser, new_page, server_url
from .measures import (
    LANGUAGES,
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

__all__ = ["browser", "server_url"]  # fixtures
ROOT = Path(__file__).resolve().parent.parent.parent
SCREENSHOTS_COMMAND = "python bench/web.py --screenshots docs/screenshots"
SCREENSHOT_BYTES = 150_000


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
    """Every state in every other language, on the same pages (at a laptop's size, the
    one the screenshots show the most words at): longer words (Lithuanian's, Slovak's)
    must not break the page's contrast, names or labels; the page is put back into
    English for the other measures."""
    page = tables.pages[state]
    width, height = SIZES["laptop"]
    page.set_viewport_size({"width": width, "height": height})
    try:
        in_language(page, lang)
        violations = axe_violations(page)
    finally:
        in_language(page, "en")
    assert not violations, "\n".join(map(str, violations))


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


@pytest.mark.system  # Chromium
def test_the_web_bench_measures_and_writes_its_screenshots(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "web.py"), "--answers", "4",
                           "--screenshots", str(tmp_path)],
                          capture_output=True, text=True, timeout=400, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for page in ("lobby", "game"):
        load = report["first_load"][page]
        assert load["requests"] > 5 and load["gzip_bytes"] < load["body_bytes"], load
    assert report["first_load"]["game"]["websocket_bytes_received"] > 0
    drawing = report["drawing"]
    assert drawing["answers"] == 4
    assert drawing["arrival_to_frame_end"]["count"] >= 4
    assert (drawing["arrival_to_frame_end"]["max_ms"]
            >= drawing["frame_work"]["max_ms"] > 0), drawing
    frames = drawing["frame_work_per_frame"]
    assert 1 <= frames["count"] <= drawing["frame_work"]["count"], drawing
    assert drawing["script_per_frame"]["count"] == frames["count"]
    assert 0 < drawing["script_per_frame"]["max_ms"] <= frames["max_ms"], drawing
    # the same messages' frames on Chromium's trace: each found, with its thread's time
    assert drawing["frame_cpu"]["count"] == drawing["frame_work"]["count"], drawing
    assert drawing["frame_cpu"]["max_ms"] > 0, drawing
    host = drawing["host"]
    assert min(host.values()) >= 0 and host["busy_percent"] + host["steal_percent"] <= 100, host
    assert sorted(report["screenshots"]) == sorted(screenshot_names())
    for name in report["screenshots"]:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) <= SCREENSHOT_BYTES, name


def test_clients_md_shows_screenshots_that_exist_and_says_how_to_make_them() -> None:
    clients = (ROOT / "docs" / "CLIENTS.md").read_text()
    linked = re.findall(r"!\[[^\]]*\]\((screenshots/[^)]+)\)", clients)
    missing = [link for link in linked if not (ROOT / "docs" / link).is_file()]
    assert not missing, missing
    assert {f"screenshots/{name}" for name in screenshot_names()} <= set(linked)
    assert SCREENSHOTS_COMMAND in clients
    for name in screenshot_names():
        assert (ROOT / "docs" / "screenshots" / name).stat().st_size <= SCREENSHOT_BYTES, name
