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
    python bench/web.py --screenshots /tmp/s --languages en  # in English only
    python bench/web.py --baseline main --rounds 3      # before and after, interleaved

`--baseline REV` draws the same kind of game with the web client's files of git revision
REV too (served to the page in place of the server's own, the server unchanged), a game
of each in turn for `--rounds`: a change's before and after under the same load of the
host. `--breakdown` adds where each measured frame's CPU time went (its trace events'
own thread time by name: style, layout, paint, script...); `--reduced-motion` measures
with `prefers-reduced-motion: reduce` (no card flies). Each game's report has the CPU
time of a fixed piece of Python work taken around it (`reference_ms`) and, with a
baseline, its `frame_cpu` scaled to the run's quietest game by that time
(`frame_cpu_normalised`): a busy host's load inflates CPU time too.

The screenshots, `STATE-SIZE-LANG.png`: the lobby, a 6-player game in progress, a 2-player
game just after the strong bot's Attack on its person was said, the end of a 6-player
game and its replay halfway, at phone (390×844) and laptop (1280×800) sizes, in each of
the page's languages (en, pl, sk, lt: switched on the same pages), at a device scale
factor of 1, reduced to 256 colours by pngquant (each under 150 KB).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import datetime
import io
import json
import mimetypes
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests

from playwright import sync_api
from playwright.sync_api import Route

from tests.clients.serverproc import stop
from tests.server.test_process import start_server
from tests.web.browser import CHROMIUM, FLAGS, SERVER_ARGUMENTS, Browser, Page, new_page
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
    drawing_frames,
    first_load,
    in_language,
    percentiles,
    play,
    screenshot_name,
    six_player_game,
    start_counting,
)

PNGQUANT = ("pngquant", "--quality", "70-95", "--speed", "3", "--force", "--ext", ".png")
"""A PNG of 256 colours, a quarter of the bytes (the pngquant-cli package, .[dev])."""


ROOT = Path(__file__).resolve().parent.parent
WEB = "clients/web"
BREAKDOWN_CATEGORIES = ["disabled-by-default-devtools.timeline"]
"""Added to TRACE_CATEGORIES for `--breakdown`: style, layout, paint... as events of their own."""
BREAKDOWN_NAMES = 10
"""How many of the costliest kinds of work the breakdown names."""
REFERENCE_LOOPS = 300_000
"""The reference work's size: ~30 ms of one core on a quiet host."""


def reference_ms() -> float:
    """The CPU time (this thread's) of a fixed piece of work, the median of three: what
    the host's load does to CPU time (a core shared with another thread, its caches
    shared, its clock lowered) slows it as it slows the page's frames."""
    times = []
    for _ in range(3):
        began = time.thread_time()
        total = 0
        for number in range(REFERENCE_LOOPS):
            total += number * number % 7
        times.append((time.thread_time() - began) * 1000)
    return round(statistics.median(times), 2)


def normalised(reports: list[dict[str, Any]]) -> None:
    """Add to each game's report its `frame_cpu` as if the host had been as quiet as in
    the run's quietest game: scaled by the least reference time of the run over its own
    (`frame_cpu_normalised`), so that games played under different loads compare."""
    quietest = min(report["reference_ms"] for report in reports)
    for report in reports:
        scale = quietest / report["reference_ms"]
        report["frame_cpu_normalised"] = {
            key: round(value * scale, 2) for key, value in report["frame_cpu"].items()
            if key.endswith("_ms")}


def client_files(revision: str) -> dict[str, bytes]:
    """The web client's files at a git revision, by their path under clients/web."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, WEB], cwd=ROOT,
                             capture_output=True, check=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            read = tar.extractfile(member) if member.isfile() else None
            if read is not None:
                files[str(PurePosixPath(member.name).relative_to(WEB))] = read.read()
    return files


def serve_client(page: Page, files: dict[str, bytes]) -> None:
    """The page's client files (`/web/DIGEST/PATH`) from `files` in place of the server's."""
    def answer(route: Route) -> None:
        path = urlsplit(route.request.url).path.split("/", 3)[-1]
        body = files.get(path)
        if body is None:
            route.continue_()
            return
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        route.fulfill(body=body, content_type=kind)
    page.route("**/web/*/**", answer)


def frame_breakdown(trace: bytes, tasks: list[dict[str, Any]]) -> dict[str, Any]:
    """Where these frame tasks' (`drawing_frames`, one per message) CPU time went: the
    median milliseconds of each kind of main-thread work (trace events' own thread time:
    their `tdur` less their children's), the costliest kinds first; and the frames' work
    counted, as no load of the host changes it: the elements styled and the objects laid
    out (`elementCount` and `dirtyObjects` of their style and layout events), p50 and p95."""
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = collections.defaultdict(list)
    for event in json.loads(trace)["traceEvents"]:
        if event.get("ph") == "X" and "tdur" in event:
            by_thread[event["pid"], event["tid"]].append(event)
    for thread in by_thread.values():
        thread.sort(key=lambda event: (event["ts"], -event["dur"]))
    starts = {key: [event["ts"] for event in thread] for key, thread in by_thread.items()}
    per_frame: list[collections.Counter[str]] = []
    counted: dict[str, list[int]] = {"styled_elements": [], "laid_out_objects": []}
    for task in tasks:
        key = (task["pid"], task["tid"])
        thread = starts[key]
        first = bisect.bisect_left(thread, task["ts"])
        inside = by_thread[key][first:bisect.bisect_left(thread, task["ts"] + task["dur"])]
        own: collections.Counter[str] = collections.Counter()
        open_events: list[dict[str, Any]] = []
        for event in inside:
            while open_events and event["ts"] >= open_events[-1]["ts"] + open_events[-1]["dur"]:
                open_events.pop()
            own[event["name"]] += event["tdur"]
            if open_events:
                own[open_events[-1]["name"]] -= event["tdur"]
            open_events.append(event)
        per_frame.append(own)
        counted["styled_elements"].append(sum(
            event["args"].get("elementCount", 0) for event in inside
            if event["name"] == "UpdateLayoutTree"))
        counted["laid_out_objects"].append(sum(
            event["args"].get("beginData", {}).get("dirtyObjects", 0) for event in inside
            if event["name"] == "Layout"))
    names = set().union(*per_frame) if per_frame else set()
    medians = {name: statistics.median([own[name] for own in per_frame]) / 1000 for name in names}
    costly = sorted(medians.items(), key=lambda item: -item[1])[:BREAKDOWN_NAMES]
    return {"cpu_p50_ms_by_kind": {name: round(ms, 2) for name, ms in costly},
            **{what: counts_of(counts) for what, counts in counted.items()}}


def other_frames(trace: bytes, drew: list[dict[str, Any]]) -> dict[str, Any]:
    """The frames that drew no message (the cards flying, a clock ticking, the hover's
    tooltip followed) from the first frame that drew one to the last: how many, and their
    main-thread CPU time, in all and p50 / p95 (ms)."""
    if not drew:
        return {"count": 0}
    first, last = min(frame["ts"] for frame in drew), max(frame["ts"] for frame in drew)
    pid = drew[0]["pid"]
    drawing = {frame["ts"] for frame in drew}
    cpu = [event["tdur"] / 1000 for event in json.loads(trace)["traceEvents"]
           if event.get("name") == drew[0]["name"] and event.get("ph") == "X"
           and event["pid"] == pid and "tdur" in event
           and first <= event["ts"] <= last and event["ts"] not in drawing]
    return {**percentiles(cpu), "total_ms": round(sum(cpu), 1)}


def counts_of(counts: list[int]) -> dict[str, float]:
    """Counts' median and 95th percentile."""
    if len(counts) < 2:
        return {"count": len(counts)}
    return {"p50": statistics.median(counts),
            "p95": statistics.quantiles(counts, n=100, method="inclusive")[94]}


def drawing(browser: Browser, url: str, answers: int, *, files: dict[str, bytes] | None = None,
            reduced_motion: bool = False, breakdown: bool = False) -> dict[str, Any]:
    """A 6-player game played by clicking for `answers` answers (or to its end), traced
    by Chromium for each frame's main-thread CPU time; and how busy the host was. `files`:
    the client's files the page loads, in place of the server's."""
    page = new_page(browser, "about:blank", size=SIZES["laptop"])
    if files is not None:
        serve_client(page, files)
    if reduced_motion:
        page.emulate_media(reduced_motion="reduce")
    page.add_init_script(FRAME_TIMING)
    page.goto(url)
    six_player_game(page)
    categories = TRACE_CATEGORIES + (BREAKDOWN_CATEGORIES if breakdown else [])
    browser.start_tracing(page=page, categories=categories)
    moment = start_counting(page)
    before = HostTicks.now()
    reference = reference_ms()
    given = play(page, answers)
    reference = statistics.median([reference, reference_ms()])
    after = HostTicks.now()
    trace = browser.stop_tracing()
    times = draw_times(page)
    frames = drawing_frames(times.began, trace, moment)
    page.context.close()
    host = {**(after.since(before) if before and after else {}),
            "load_average": round(os.getloadavg()[0], 1)}
    cpu = percentiles([frame["tdur"] / 1000 for frame in frames])
    report = {"answers": given, **times.report(), "frame_cpu": cpu, "host": host,
              "reference_ms": reference}
    if breakdown:
        report["frame_breakdown"] = frame_breakdown(trace, frames)
        report["frames_drawing_no_message"] = other_frames(trace, frames)
    return report


def screenshots(browser: Browser, url: str, folder: Path,
                languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Write `STATE-SIZE-LANG.png` for each state, size and language of `languages`; return
    the files' names."""
    if shutil.which(PNGQUANT[0]) is None:
        raise SystemExit("pngquant is not installed (pip install -e '.[dev]')")
    folder.mkdir(parents=True, exist_ok=True)
    tables = Tables.open(browser, url)
    written = []
    for lang in languages:
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


def drawings(browser: Browser, url: str, args: argparse.Namespace) -> dict[str, Any]:
    """The drawing's figures: `drawing` for one game; with a baseline, `drawing` and
    `baseline` for a game each of this client and the baseline's, in turn, each round."""
    how = {"reduced_motion": args.reduced_motion, "breakdown": args.breakdown}
    if args.baseline is None:
        return {"drawing": drawing(browser, url, args.answers, **how)}
    files = client_files(args.baseline)
    rounds: dict[str, list[dict[str, Any]]] = {"baseline": [], "drawing": []}
    for _ in range(args.rounds):
        rounds["baseline"].append(drawing(browser, url, args.answers, files=files, **how))
        rounds["drawing"].append(drawing(browser, url, args.answers, **how))
    normalised(rounds["baseline"] + rounds["drawing"])
    return {"baseline_revision": args.baseline, **rounds}


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3", *SERVER_ARGUMENTS)
        try:
            with sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS,
                                                     headless=True)
                report: dict[str, Any] = {
                    "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    "chromium": browser.version, "python": platform.python_version(),
                    "first_load": {"lobby": first_load(browser, url, game=False),
                                   "game": first_load(browser, url, game=True)},
                }
                report.update(drawings(browser, url, args))
                if args.screenshots is not None:
                    report["screenshots"] = screenshots(browser, url, args.screenshots,
                                                        tuple(args.languages))
                browser.close()
        finally:
            stop(process)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=150,
                        help="the person's answers in the measured game (it may end sooner)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure the web client of this git revision, in turn")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --baseline: how many games of each")
    parser.add_argument("--reduced-motion", action="store_true",
                        help="measure with prefers-reduced-motion: reduce")
    parser.add_argument("--breakdown", action="store_true",
                        help="say where the measured frames' CPU time went")
    parser.add_argument("--screenshots", type=Path, metavar="FOLDER",
                        help="also write the screenshots there")
    parser.add_argument("--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES),
                        help="the screenshots' languages (default: all)")
    print(json.dumps(run(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()
