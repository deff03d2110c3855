"""The web client's figures (issue 25; docs/BENCHMARKS.md, "The web client"), in Debian's
Chromium driven by Playwright against a real server on this machine:

- first load: every request of a first visit (the lobby; the lobby and a 6-player game
  created from it), the bytes that went over the wire and what gzip would make of them;
- drawing an update: in a 6-player game (a person clicking, five bots), for each
  WebSocket message, the work of the frame that draws it, from the frame's start to the
  end of its style, layout and paint (`frame_work`: what issue 25's "drawing an update"
  is); and the time from the message's arrival to the end of that frame, which adds the
  message's handling and the wait for the next frame (`arrival_to_frame_end`: at 60
  frames a second, up to 16.7 ms of waiting that no drawing can shorten); per frame, its
  work and the page's own script in it. p50, p95 and the largest, measured from outside
  the page (tests/web/measures.py, FRAME_TIMING). Besides, from a Chromium trace of the
  same game, for each message the main-thread CPU time of the frame that drew it
  (`frame_cpu`: the work alone, which no wait for a core lengthens), and how busy the
  host's cores were meanwhile and what share of their time its hypervisor took
  (`host`: Linux's /proc/stat).

    python bench/web.py [--answers 150]                 # prints a JSON report
    python bench/web.py --screenshots docs/screenshots  # and the screenshots CLIENTS.md shows

The screenshots, `STATE-SIZE-LANG.png`: the lobby, a 6-player game in progress, a 2-player
game just after the strong bot's Attack on its person was said, the end of a 6-player
game and its replay halfway, at phone (390×844) and laptop (1280×800) sizes, in each of
the page's languages (en, pl, sk, lt: switched on the same pages), at a device scale
factor of 1, reduced to 256 colours by pngquant (each under 150 KB).
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests

from playwright import sync_api

from tests.clients.serverproc import stop
from tests.server.test_process import start_server
from tests.web.browser import CHROMIUM, FLAGS, Browser, new_page
from tests.web.measures import (
    FRAME_TIMING,
    LANGUAGES,
    SCREENSHOT_STATES,
    SIZES,
    TRACE_CATEGORIES,
    HostTicks,
    PageState,
    Tables,
    draw_times,
    first_load,
    frame_cpu,
    in_language,
    percentiles,
    play,
    screenshot_name,
    six_player_game,
    start_counting,
)

PNGQUANT = ("pngquant", "--quality", "70-95", "--speed", "3", "--force", "--ext", ".png")
"""A PNG of 256 colours, a quarter of the bytes (the pngquant-cli package, .[dev])."""


def drawing(browser: Browser, url: str, answers: int) -> dict[str, Any]:
    """A 6-player game played by clicking for `answers` answers (or to its end), traced
    by Chromium for each frame's main-thread CPU time; and how busy the host was."""
    page = new_page(browser, "about:blank", size=SIZES["laptop"])
    page.add_init_script(FRAME_TIMING)
    page.goto(url)
    six_player_game(page)
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    moment = start_counting(page)
    before = HostTicks.now()
    given = play(page, answers)
    after = HostTicks.now()
    trace = browser.stop_tracing()
    times = draw_times(page)
    cpu = frame_cpu(times.began, trace, moment)
    page.context.close()
    host = after.since(before) if before and after else {}
    return {"answers": given, **times.report(), "frame_cpu": percentiles(cpu), "host": host}


def screenshots(browser: Browser, url: str, folder: Path) -> list[str]:
    """Write `STATE-SIZE-LANG.png` for each state, size and language; return the files'
    names."""
    if shutil.which(PNGQUANT[0]) is None:
        raise SystemExit("pngquant is not installed (pip install -e '.[dev]')")
    folder.mkdir(parents=True, exist_ok=True)
    tables = Tables.open(browser, url)
    written = []
    for lang in LANGUAGES:
        for state in SCREENSHOT_STATES:
            page = tables.pages[state]
            in_language(page, lang)
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                if state is PageState.LOBBY:  # its "More options" opens by the width loaded at
                    page.reload()
                    page.wait_for_selector(".game-row")
                page.evaluate("() => window.scrollTo(0, 0)")
                name = screenshot_name(state, size, lang)
                # the cards still flying from the last answer: landed
                page.screenshot(path=str(folder / name), animations="disabled")
                written.append(name)
    subprocess.run([*PNGQUANT, *(str(folder / name) for name in written)], check=True)
    return written


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        # its rated game is resigned at once (tests/web/rated.py): rated all the same
        process, url = start_server(Path(folder) / "games.sqlite3", "--rated-min-turns", "0")
        try:
            with sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS,
                                                     headless=True)
                report: dict[str, Any] = {
                    "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    "chromium": browser.version, "python": platform.python_version(),
                    "first_load": {"lobby": first_load(browser, url, game=False),
                                   "game": first_load(browser, url, game=True)},
                    "drawing": drawing(browser, url, args.answers),
                }
                if args.screenshots is not None:
                    report["screenshots"] = screenshots(browser, url, args.screenshots)
                browser.close()
        finally:
            stop(process)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=150,
                        help="the person's answers in the measured game (it may end sooner)")
    parser.add_argument("--screenshots", type=Path, metavar="FOLDER",
                        help="also write the screenshots there")
    print(json.dumps(run(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()
