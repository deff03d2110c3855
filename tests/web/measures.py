"""What issue 25 measures on the web client, shared by its tests (tests/web/test_web_measures.py)
and its benchmark (bench/web.py): the page in each of its states and languages, axe-core's
findings, horizontal overflow, the bytes of a first load and the time to draw an update."""

from __future__ import annotations

import bisect
import contextlib
import enum
import gzip
import json
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("axe_playwright_python",
                    reason="axe-playwright-python is not installed (pip install -e '.[dev]')")
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

from .browser import (
    Browser,
    Page,
    act,
    create_table,
    decision_id,
    more_options,
    my_turn,
    new_page,
)
from .rated import load_until, lose_a_rated_game, register

WIDTHS = (360, 390, 768, 1024, 1280, 1920)
"""From the narrowest phone in use to a wide desktop: none may scroll sideways."""
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
"""The sizes the page is measured and shown at (CSS pixels, at a device scale factor of 1)."""
LANGUAGES = ("en", "pl", "sk", "lt")
"""The page's languages (js/i18n.js), English, the page's default here, first."""
BLOCKING_IMPACTS = frozenset({"serious", "critical"})
"""axe-core's impacts that fail a page (it also reports minor and moderate ones)."""
BOTS = dict.fromkeys(range(1, 6), "big_money")
"""A 6-player table: its creator and five bots."""
LARGEST = 5
"""How many of a first load's largest responses the report names."""
ATTACK_KINGDOM = "Size Distortion"
"""A recommended Kingdom with Witch, Bandit and Bureaucrat, which the strong bot plays."""
GAME_ANSWERS = 12
"""A game in progress is measured after its person's first turns: cards in play, in the
discard piles, and a log."""


class PageState(enum.StrEnum):
    """The states of the page the issue's figures are taken on."""

    LOBBY = "lobby"
    LEADERBOARD = "leaderboard"  # the 2-player one: an account and the bots
    PROFILE = "profile"  # an account's, with a chart of its rating
    GAME = "game"  # a 6-player game in progress, its person asked
    ATTACK = "attack"  # a 2-player game, the strong bot's Attack on its person just said
    END = "end"  # the end of a 6-player game
    REPLAY = "replay"  # that game's replay, stepped halfway
    SEEKING = "seeking"  # the lobby, its queue waiting for a table


SCREENSHOT_STATES = (PageState.LOBBY, PageState.GAME, PageState.ATTACK, PageState.END,
                     PageState.REPLAY)


def screenshot_name(state: PageState, size: str, lang: str) -> str:
    return f"{state}-{size}-{lang}.png"


def screenshot_names(languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """The screenshots docs/CLIENTS.md shows (bench/web.py --screenshots writes them), or
    those of `languages`."""
    return [screenshot_name(state, size, lang)
            for lang in languages for state in SCREENSHOT_STATES for size in SIZES]


def in_language(page: Page, lang: str) -> None:
    """Switch the page to `lang` with the header's switch, and wait until it is drawn."""
    page.select_option("#language", lang)
    page.wait_for_selector(f"html[lang={lang}]", state="attached")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")


def six_player_game(page: Page, name: str = "Ann") -> str:
    """Create a table for the page's person and five bots and wait until the person is
    asked; return the game's id."""
    game = create_table(page, name, seats=6, bots=BOTS)
    assert my_turn(page)
    return game


def play(page: Page, answers: int | None = None) -> int:
    """Answer the page's questions by clicking until the game ends, or until `answers`
    have been given and the page asks its next question; return how many were given."""
    given = 0
    last = None
    while my_turn(page, last) and given != answers:
        last = decision_id(page)
        act(page)
        given += 1
    return given


def play_until_attacked(page: Page) -> str:
    """Play Big Money by clicking until the bot's Attack is said; return what is said."""
    notice = page.locator(".attack-notice")
    last = None
    while not notice.inner_text():
        assert my_turn(page, last), "the game ended before the bot attacked"
        last = page.get_attribute("#decision", "data-decision")
        act(page)
    return notice.inner_text()


@contextlib.contextmanager
def flying_nothing(page: Page) -> Iterator[Page]:
    """The page played with no card flying (`prefers-reduced-motion`), then put back as a
    person has it: the flights are most of a game's drawing (docs/BENCHMARKS.md, "The web
    client"), and a page at rest, where it is measured, is the same with or without them."""
    page.emulate_media(reduced_motion="reduce")
    try:
        yield page
    finally:
        page.emulate_media(reduced_motion="no-preference")


def attacked(browser: Browser, url: str, name: str) -> Page:
    """A 2-player game against the strong bot, played until its Attack on the person is said."""
    with flying_nothing(new_page(browser, url)) as page:
        create_table(page, name, kingdom=ATTACK_KINGDOM, bots={1: "strong"})
        play_until_attacked(page)
    return page


def step_replay_halfway(page: Page) -> None:
    """On a replay's page: go to the event halfway through the game."""
    page.wait_for_selector(".replay-controls")
    events = page.get_attribute(".replay-controls input[name=step]", "max")
    assert events is not None, "the replay's step field names no last event"
    halfway = int(events) // 2
    page.fill(".replay-controls input[name=step]", str(halfway))
    page.click(".replay-controls form button")
    page.wait_for_selector(f'.replay-controls [role=status]:has-text("Event {halfway} of")')


def seeking(browser: Browser, url: str, name: str) -> Page:
    """A lobby whose person waits for a 5- or 6-player table (nobody else here seeks one)."""
    page = new_page(browser, url)
    page.locator("form.create input[name=name]").fill(name)
    more_options(page)  # the queue's table sizes
    page.locator("form.create input[name=size][value='0']").uncheck()
    page.locator("form.create input[name=size][value='2']").check()
    page.locator('form.create [data-quick="queue"]').click()
    page.wait_for_selector('section.automatch[data-phase="waiting"]')
    return page


@dataclass
class Tables:
    """One page per state, kept open: the game's page waits on its person, so it holds
    still while it is measured."""

    pages: dict[PageState, Page] = field(default_factory=dict)

    @classmethod
    def open(cls, browser: Browser, url: str) -> Tables:
        tables = cls()
        with flying_nothing(new_page(browser, url)) as game_page:
            six_player_game(game_page, "Ann")
            play(game_page, GAME_ANSWERS)
        tables.pages[PageState.GAME] = game_page
        tables.pages[PageState.ATTACK] = attacked(browser, url, "Gus")
        with flying_nothing(new_page(browser, url)) as end_page:
            finished = six_player_game(end_page, "Bea")
            play(end_page)
        tables.pages[PageState.END] = end_page
        replay_page = new_page(browser, f"{url}/#/replay/{finished}")
        step_replay_halfway(replay_page)
        tables.pages[PageState.REPLAY] = replay_page
        rated = new_page(browser, url)
        register(rated, url, "Eve")
        lose_a_rated_game(rated, url)
        load_until(rated, f"{url}/@/Eve", ".pool-rating", ".rating-chart svg")
        tables.pages[PageState.PROFILE] = rated
        leaderboard = new_page(browser, f"{url}/#/top/2p")
        leaderboard.wait_for_selector('.ratings [data-player="Eve"]')
        tables.pages[PageState.LEADERBOARD] = leaderboard
        waiting = new_page(browser, url)
        create_table(waiting, "Cyd", bots={1: ""})  # a table with a seat for a person
        lobby = new_page(browser, url)  # an open table, a running game, a finished one
        lobby.wait_for_selector(".game-row")
        tables.pages[PageState.LOBBY] = lobby
        tables.pages[PageState.SEEKING] = seeking(browser, url, "Dee")
        return tables


@dataclass(frozen=True)
class Violation:
    """One of axe-core's rules that a page breaks, and where."""

    rule: str
    impact: str
    help: str
    nodes: tuple[str, ...]

    def __str__(self) -> str:
        where = "\n    ".join(self.nodes)
        return f"{self.rule} ({self.impact}): {self.help}\n    {where}"


AXE_SCRIPT: str = Axe().axe_script
"""axe-core, the copy axe-playwright-python bundles: nothing is fetched."""
BLOCKING_VIOLATIONS = """(impacts) => axe.run(document, {resultTypes: ["violations"]})
  .then((results) => results.violations.filter((found) => impacts.includes(found.impact))
    .map((found) => ({id: found.id, impact: found.impact, help: found.help,
                      nodes: found.nodes.map((node) => `${node.target.join(" ")}  ${node.html}`)})))
"""
"""axe-core's run, only the findings that fail a page sent back (not its whole report:
every rule's passes, with their descriptions)."""


def axe_violations(page: Page) -> list[Violation]:
    """axe-core's serious and critical findings on the page as it is now. axe-core is put
    into the page once, until it loads another document (the script and the whole report,
    sent for every run, were a fifth of its CPU)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    found: list[dict[str, Any]] = page.evaluate(BLOCKING_VIOLATIONS, sorted(BLOCKING_IMPACTS))
    return [Violation(violation["id"], violation["impact"], violation["help"],
                      tuple(violation["nodes"])) for violation in found]


def horizontal_overflow(page: Page, width: int) -> int:
    """How many CSS pixels the page scrolls sideways at `width` (0: none)."""
    height = (page.viewport_size or {"height": 800})["height"]
    page.set_viewport_size({"width": width, "height": height})
    overflow: int = page.evaluate(
        "() => document.scrollingElement.scrollWidth - window.innerWidth")
    return max(overflow, 0)


def wider_than_the_page(page: Page) -> list[str]:
    """The elements that reach past the right edge of the viewport and are not inside an
    element that scrolls or clips them (what makes the page scroll sideways)."""
    found: list[str] = page.evaluate("""() => [...document.body.querySelectorAll("*")]
      .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((node) => {
        for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== "visible") return false;
        }
        return true;
      })
      .slice(0, 8)
      .map((node) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}` +
        [...node.classList].map((name) => `.${name}`).join(""))""")
    return found



def keys_over_words(page: Page) -> list[str]:
    """The cards whose key's badge covers a word of their type line (their names)."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll(".card")]
      .filter((card) => {
        const key = card.querySelector(":scope > kbd");
        const types = card.querySelector(".card-types");
        if (!key || !types || !key.checkVisibility() || !types.checkVisibility()) return false;
        const words = document.createRange();
        words.selectNodeContents(types);
        const [badge, text] = [key.getBoundingClientRect(), words.getBoundingClientRect()];
        return badge.right > text.left && badge.left < text.right
          && badge.bottom > text.top && badge.top < text.bottom;
      })
      .map((card) => card.dataset.card)""")
    return found

FRAME_TIMING = """
(() => {
  // for every WebSocket message that leaves a frame to draw: when it arrived (the event's
  // timeStamp), when the frame that draws it began, and when that frame's work ended.
  // Style, layout and paint run in the frame's own task, after its callbacks: its work
  // ends when the next task begins. That is a task posted from the frame's callback at
  // the highest priority, or a WebSocket message's, whichever runs first (a message
  // handled before the posted task is not the frame's work)
  const drawn = [];
  const waiting = [];
  const finishing = [];
  let requested = 0;
  window.__dominionDrawn = drawn;
  const frameEnded = () => {
    const ended = performance.now();
    for (const [arrived, began] of finishing.splice(0)) drawn.push([arrived, began, ended]);
  };
  const nativeFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => {
    requested += 1;
    return nativeFrame((time) => {
      requested -= 1;
      const began = performance.now();
      const these = waiting.splice(0);
      callback(time);
      if (these.length) {
        finishing.push(...these.map((arrived) => [arrived, began]));
        scheduler.postTask(frameEnded, { priority: "user-blocking" });
      }
    });
  };
  const handler = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    configurable: true,
    get() { return handler.get.call(this); },
    set(listener) {
      handler.set.call(this, (event) => {
        frameEnded();
        listener.call(this, event);
        if (requested > 0) waiting.push(event.timeStamp);  // else: nothing to draw
      });
    },
  });
})();
"""
"""Injected before the page's own scripts (page.add_init_script): the page is measured
from outside, as it is."""


@dataclass(frozen=True)
class DrawTimes:
    """Milliseconds, one per message drawn: from its arrival to the end of the frame that
    drew it, and the two parts of that time (the wait for the frame: the message handled,
    then the next frame awaited; the frame's work: the page's drawing, style, layout and
    paint, which is what drawing an update costs). Besides, per frame that drew messages
    (a frame draws all the messages that came since the last one): its work, and the
    page's own script in it (its `dominion-render` measure)."""

    total: list[float]
    waiting: list[float]
    frame: list[float]
    per_frame: list[float]
    script: list[float]
    began: list[float]
    """When each message's frame began (the page's clock, ms): `frame_cpu` finds it there."""

    def report(self) -> dict[str, dict[str, float | int]]:
        return {"arrival_to_frame_end": percentiles(self.total),
                "wait_for_frame": percentiles(self.waiting),
                "frame_work": percentiles(self.frame),
                "frame_work_per_frame": percentiles(self.per_frame),
                "script_per_frame": percentiles(self.script)}


def draw_times(page: Page) -> DrawTimes:
    """The times of every message drawn since FRAME_TIMING was injected."""
    entries: list[list[float]] = page.evaluate("() => window.__dominionDrawn.slice()")
    renders: list[list[float]] = page.evaluate("""() => performance.getEntriesByName(
        'dominion-render').map((entry) => [entry.startTime, entry.duration])""")
    frames = sorted({(began, ended) for _, began, ended in entries})
    return DrawTimes([ended - arrived for arrived, _, ended in entries],
                     [began - arrived for arrived, began, _ in entries],
                     [ended - began for _, began, ended in entries],
                     [ended - began for began, ended in frames],
                     [sum(took for start, took in renders if began <= start < ended)
                      for began, ended in frames],
                     [began for _, began, _ in entries])


TRACE_CATEGORIES = ["cc", "devtools.timeline", "blink.user_timing"]
"""What `frame_cpu` reads of Chromium's trace: each frame's main-thread task with its
thread time (`cc`: ProxyMain::BeginMainFrame), and a mark that puts the page's clock
(performance.now) on the trace's."""
CLOCK_MARK = "dominion-clock"


def start_counting(page: Page) -> float:
    """Count the messages drawn from now on (the game's first drawing, the whole page
    mounted, is no update), and mark this moment of the page's clock on the trace; return
    that moment (ms)."""
    moment: float = page.evaluate(f"""() => {{
        window.__dominionDrawn.length = 0;
        performance.clearMeasures('dominion-render');
        return performance.mark('{CLOCK_MARK}').startTime; }}""")
    return moment


def frame_cpu(began: list[float], trace: bytes, moment: float) -> list[float]:
    """Milliseconds of the renderer's main thread's CPU time (its thread time, which
    neither waiting for a core nor another program's work counts), one per message whose
    frame `began` then (`DrawTimes.began`): that of the frame's whole task (its input, script,
    style, layout and paint, up to the commit), the one that drew the message (all of
    them, when the trace began before `start_counting`)."""
    return [frame["tdur"] / 1000 for frame in drawing_frames(began, trace, moment)]


def drawing_frames(began: list[float], trace: bytes, moment: float) -> list[dict[str, Any]]:
    """The trace's frame tasks (`ProxyMain::BeginMainFrame`, with their thread time) that
    drew the messages whose frames `began` then, one per message (see `frame_cpu`)."""
    events = json.loads(trace)["traceEvents"]
    mark = next(event for event in events if event.get("name") == CLOCK_MARK)
    offset = mark["ts"] - moment * 1000  # the trace's microseconds at the page's 0
    frames = sorted((event for event in events
                     if event.get("name") == "ProxyMain::BeginMainFrame"
                     and event.get("ph") == "X" and event["pid"] == mark["pid"]
                     and "tdur" in event), key=lambda event: event["ts"])
    starts = [frame["ts"] for frame in frames]
    drew = []
    for start in began:
        at = start * 1000 + offset
        index = bisect.bisect_right(starts, at) - 1
        if index >= 0 and frames[index]["ts"] + frames[index]["dur"] >= at:
            drew.append(frames[index])
    return drew


@dataclass(frozen=True)
class HostTicks:
    """The machine's CPU time by kind (Linux's /proc/stat), to say how busy the host was
    while a figure was taken and how much of its time its hypervisor gave elsewhere."""

    ticks: tuple[int, ...]

    @classmethod
    def now(cls) -> HostTicks | None:
        try:
            with open("/proc/stat") as stat:
                fields = stat.readline().split()
        except OSError:
            return None
        return cls(tuple(int(field) for field in fields[1:9]))

    def since(self, earlier: HostTicks) -> dict[str, float]:
        """user, nice, system, idle, iowait, irq, softirq, steal: percentages of the
        time between the two readings (every core's)."""
        spent = [now - then for now, then in zip(self.ticks, earlier.ticks, strict=True)]
        total = sum(spent) or 1
        busy = total - spent[3] - spent[4] - spent[7]
        return {"busy_percent": round(100 * busy / total, 1),
                "steal_percent": round(100 * spent[7] / total, 1)}


def percentiles(times: list[float]) -> dict[str, float | int]:
    ordered = sorted(times)
    if not ordered:
        return {"count": 0}
    quantiles = statistics.quantiles(ordered, n=100, method="inclusive")
    return {"count": len(ordered), "p50_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(quantiles[94], 2), "max_ms": round(ordered[-1], 2)}


@dataclass
class Transfer:
    """The requests of a page's first load (no cache), as they went over the wire."""

    responses: list[dict[str, Any]] = field(default_factory=list)

    websocket_bytes: int = 0

    def watch(self, page: Page) -> None:
        page.on("requestfinished", self._finished)
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def unwatch(self, page: Page) -> None:
        """Stop counting: a request still finishing as the page closes is not the load's
        (its handler would read a closed page)."""
        page.remove_listener("requestfinished", self._finished)

    def _frame(self, payload: bytes | str) -> None:
        self.websocket_bytes += len(payload)

    def _finished(self, request: Any) -> None:
        response = request.response()
        if response is None:
            return
        body = response.body()
        sizes = request.sizes()
        self.responses.append({
            "url": request.url, "status": response.status,
            "encoding": response.headers.get("content-encoding", "identity"),
            "wire_bytes": sizes["responseBodySize"] + sizes["responseHeadersSize"],
            "body_bytes": len(body), "gzip_bytes": len(gzip.compress(body, 6))})

    def report(self) -> dict[str, Any]:
        total = {key: sum(r[key] for r in self.responses)
                 for key in ("wire_bytes", "body_bytes", "gzip_bytes")}
        encodings = sorted({r["encoding"] for r in self.responses})
        largest = sorted(self.responses, key=lambda r: -r["body_bytes"])[:LARGEST]
        return {"requests": len(self.responses), **total, "encodings": encodings,
                "largest": {urlsplit(r["url"]).path: r["body_bytes"] for r in largest},
                "websocket_bytes_received": self.websocket_bytes}


def first_load(browser: Browser, url: str, *, game: bool) -> dict[str, Any]:
    """Every request of a first visit in a fresh profile: of the lobby, or (`game`) of the
    lobby and the 6-player table created from it, until the person is asked."""
    transfer = Transfer()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    transfer.watch(page)
    page.goto(url)
    page.wait_for_selector("form.create")
    if game:
        six_player_game(page)
    page.wait_for_load_state("networkidle")
    transfer.unwatch(page)
    context.close()
    return transfer.report()


__all__ = [
    "ATTACK_KINGDOM",
    "FRAME_TIMING",
    "LANGUAGES",
    "SCREENSHOT_STATES",
    "SIZES",
    "WIDTHS",
    "DrawTimes",
    "PageState",
    "Tables",
    "Violation",
    "attacked",
    "axe_violations",
    "draw_times",
    "first_load",
    "horizontal_overflow",
    "in_language",
    "keys_over_words",
    "percentiles",
    "play",
    "play_until_attacked",
    "screenshot_name",
    "screenshot_names",
    "six_player_game",
    "step_replay_halfway",
    "wider_than_the_page",
]
