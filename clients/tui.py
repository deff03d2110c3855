"""The full-screen terminal interface (prompt_toolkit): one screen, redrawn in place.

    ┌ status: game · whose turn · phase · Actions · Buys · coins ─────────────────┐
    │ Supply (scrolls)          │ Players                                         │
    │                           │ Log (follows the game; PgUp/PgDn scroll it)     │
    ├ your hand (and your play area on your turn) ────────────────────────────────┤
    │ the decision: the question, the numbered options in columns, how many       │
    │ a note: a refusal explained, help, a card's text, a confirmation            │
    │ > the input line (completion of the options' names)                         │
    └ hints ──────────────────────────────────────────────────────────────────────┘

Everything below the Supply and the log keeps its height and stays next to the input
however small the terminal is (80×24 is enough); the Supply and the log get the rest
and scroll on their own. The Supply takes the columns it needs to show every pile in
that room; a note longer than the room it may take is paged (Space on an empty line).
prompt_toolkit redraws on a resize. Ctrl-C leaves as `quit` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import textwrap
from collections.abc import Awaitable
from typing import Any, TypeVar

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.styles import Style

from .board import (
    Board,
    decision_lines,
    mine_lines,
    player_lines,
    status_line,
    supply_lines,
)
from .i18n import _

T = TypeVar("T")
STYLE = Style.from_dict({
    "status": "reverse bold",
    "title": "bold",
    "note": "fg:ansired bold",
    "ask": "fg:ansiyellow bold",
    "hint": "fg:ansibrightblack",
    "line": "fg:ansibrightblack",
    "mine": "bold",
})
SCROLL = 5
BODY_ROWS = 3
"""The least the Supply and the log keep, however long a note is."""
LOG_COLUMNS = 20
"""The least the log keeps when the Supply needs more columns to show every pile."""


class FullScreen:
    """A `Display` for `clients.session.Session` (and the replay viewer)."""

    keeps_result = True

    def __init__(self, board: Board, hint: str) -> None:
        self.board = board
        self.hint = hint
        self.items: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.log_offset = 0
        """Lines scrolled up from the newest (0: the log follows the game)."""
        self.supply_offset = 0
        """Rows of the Supply scrolled away at the top."""
        self.note_page = 0
        """The page of a note too long for its area (Space on an empty line turns it)."""
        self._completer = WordCompleter([], ignore_case=True, sentence=True)
        self.input = Buffer(multiline=False, history=InMemoryHistory(),
                            completer=self._completer, complete_while_typing=False,
                            accept_handler=self._accept)
        self.app: Application[None] = Application(
            layout=Layout(self._layout(), focused_element=self.input), key_bindings=self._keys(),
            style=STYLE, full_screen=True, mouse_support=False,
            refresh_interval=1.0)  # the running clock counts down between frames

    # -- Display ------------------------------------------------------------------------

    def refresh(self) -> None:
        self.app.invalidate()

    def show_note(self, lines: list[str]) -> None:
        self.board.note = lines
        self.note_page = 0
        self.app.invalidate()

    def set_words(self, words: list[str]) -> None:
        self._completer.words = words

    async def run(self, work: Awaitable[T]) -> T:
        """Show the screen while `work` runs; the terminal is restored afterwards."""
        # log records would be written over the screen: none while it is shown
        quiet = logging.NullHandler()
        loggers = [logging.getLogger(name) for name in ("dominion", "asyncio", "aiohttp")]
        for logger in loggers:
            logger.addHandler(quiet)
            logger.propagate = False
        shown = asyncio.ensure_future(self.app.run_async())
        await asyncio.sleep(0)
        try:
            return await work
        finally:
            if self.app.is_running:
                self.app.exit()
            with contextlib.suppress(Exception):
                await shown
            for logger in loggers:
                logger.removeHandler(quiet)
                logger.propagate = True

    # -- input --------------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        buffer.cancel_completion()
        self.items.put_nowait(("line", buffer.text))
        self.log_offset = 0
        return False  # clear the line (it stays in the history)

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("c-c")
        @keys.add("c-q")
        def _quit(event: KeyPressEvent) -> None:
            self.items.put_nowait(("quit", "interrupt"))

        @keys.add("c-d", filter=Condition(lambda: not self.input.text))
        def _end(event: KeyPressEvent) -> None:
            self.items.put_nowait(("quit", "eof"))

        @keys.add(" ", filter=Condition(lambda: not self.input.text
                                        and self.note_page + 1 < len(self._note_pages())))
        def _next_page(event: KeyPressEvent) -> None:
            self.note_page += 1

        @keys.add("pageup")
        def _older(event: KeyPressEvent) -> None:
            self.log_offset = min(self.log_offset + SCROLL, max(len(self.board.log) - 1, 0))

        @keys.add("pagedown")
        def _newer(event: KeyPressEvent) -> None:
            self.log_offset = max(self.log_offset - SCROLL, 0)

        @keys.add("s-down")
        @keys.add("c-down")
        def _supply_down(event: KeyPressEvent) -> None:
            self.supply_offset = min(self.supply_offset + 1, len(self.board.state.supply))

        @keys.add("s-up")
        @keys.add("c-up")
        def _supply_up(event: KeyPressEvent) -> None:
            self.supply_offset = max(self.supply_offset - 1, 0)

        return keys

    # -- the layout ---------------------------------------------------------------------

    def _width(self) -> int:
        return int(self.app.output.get_size().columns)

    def _height(self) -> int:
        return int(self.app.output.get_size().rows)

    def _rows_around(self) -> int:
        """The rows everything but the body and the note takes: status, rule, your
        hand, the decision, the input line and the hints."""
        board = self.board
        return 4 + len(mine_lines(board.state, board.names)) + len(
            decision_lines(board, self._width()))

    def _note_pages(self) -> list[list[str]]:
        """The note wrapped at words, in pages as tall as the screen leaves room for;
        every page but the last ends with a line saying how to go on."""
        width = max(self._width() - 1, 20)
        rows = [row for line in self.board.note for row in textwrap.wrap(
            line, width, break_on_hyphens=False) or [""]]
        room = max(self._height() - self._rows_around() - BODY_ROWS, 2)
        if len(rows) <= room:
            return [rows]
        more = _("… Space: more")
        step = room - 1
        pages = [rows[start:start + step] for start in range(0, len(rows), step)]
        return [[*page, more] for page in pages[:-1]] + [pages[-1]]

    def _note_rows(self) -> list[str]:
        pages = self._note_pages()
        return pages[min(self.note_page, len(pages) - 1)]

    def _supply_columns(self) -> int:
        """As few columns as show every pile in the room left (two at least, when the
        terminal is 80 wide), so that no pile is ever off screen."""
        piles = len(self.board.state.supply)
        room = self._height() - self._rows_around() - len(self._note_rows()) - 1
        least = 2 if self._width() >= 80 else 1
        return next((columns for columns in range(least, 5)
                     if -(-piles // columns) <= room), 4)

    def _text(self, lines: list[str], style: str = "") -> StyleAndTextTuples:
        return [(style, "\n".join(lines))]

    def _supply_lines(self) -> list[str]:
        board = self.board
        if not board.state.supply:
            return []
        title, *rows = supply_lines(board.state, board.names, self._supply_columns())
        return [title + (" ▲" if self.supply_offset else ""), *rows[self.supply_offset:]]

    def _supply_width(self) -> int:
        """All the Supply's columns, however many, and the least for the log."""
        widest = max(self._width() // 2, self._width() - LOG_COLUMNS)
        return min(max((len(line) for line in self._supply_lines()), default=20) + 1, widest)

    def _right_width(self) -> int:
        """The columns of the players panel and the log: what the Supply and its border
        leave (computed, never the last frame's, which may be a note's narrower one)."""
        return max(self._width() - self._supply_width() - 1, 1)

    def _player_lines(self) -> list[str]:
        board = self.board
        if not board.state.players:
            return []
        return player_lines(board.state, board.names, board.seats, width=self._right_width())

    def _players_height(self) -> Dimension:
        """Every player's row while the body has room for it and a line of the log; a
        long note shrinks it (the rows come back when the note goes)."""
        rows = len(self._player_lines()) or 1
        body = self._height() - self._rows_around() - len(self._note_rows()) - 1
        least = max(min(rows, body - 2), 1)
        return Dimension(min=least, preferred=rows, max=rows)

    def _log_lines(self) -> list[str]:
        """The log up to where it is scrolled, wrapped at words; the window shows its end."""
        log = self.board.log
        width = max(self._right_width() - 1, 10)
        shown = log[:max(len(log) - self.log_offset, 1)] or [""]
        return [row for line in shown for row in textwrap.wrap(
            line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]]

    def _log_cursor(self) -> Point:
        lines = self._log_lines()
        return Point(x=len(lines[-1]), y=len(lines) - 1)

    def _layout(self) -> FloatContainer:
        board = self.board

        def text(get: Any, style: str = "") -> FormattedTextControl:
            return FormattedTextControl(lambda: self._text(get(), style), focusable=False)

        def note() -> StyleAndTextTuples:
            return [("class:ask" if board.ask else "class:note", "\n".join(self._note_rows()))]

        def mine() -> list[str]:
            return mine_lines(board.state, board.names)

        def decision() -> list[str]:
            return decision_lines(board, self._width())

        log = Window(FormattedTextControl(
            lambda: self._text(self._log_lines()), focusable=False, show_cursor=False,
            get_cursor_position=self._log_cursor))
        body = VSplit([
            Window(text(self._supply_lines), width=lambda: Dimension.exact(
                self._supply_width())),
            Window(width=1, char="│", style="class:line"),
            HSplit([
                Window(text(self._player_lines), height=self._players_height),
                Window(height=1, char="─", style="class:line"),
                log,
            ]),
        ], height=Dimension(min=3, weight=1))
        root = HSplit([
            Window(FormattedTextControl(lambda: [("class:status", status_line(board))]),
                   height=1, style="class:status"),
            body,
            Window(height=1, char="─", style="class:line"),
            Window(text(mine, "class:mine"), height=lambda: Dimension.exact(
                max(len(mine()), 1)), wrap_lines=True, dont_extend_height=True),
            Window(text(decision), height=lambda: Dimension.exact(len(decision())),
                   wrap_lines=False),
            ConditionalContainer(
                Window(FormattedTextControl(note), wrap_lines=False,
                       height=lambda: Dimension.exact(len(self._note_rows()))),
                filter=Condition(lambda: bool(board.note))),
            VSplit([Window(FormattedTextControl("> "), width=2),
                    Window(BufferControl(self.input), height=1)], height=1),
            Window(FormattedTextControl(lambda: [("class:hint", self.hint)]), height=1),
        ])
        return FloatContainer(root, floats=[
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))])


__all__ = ["FullScreen"]
