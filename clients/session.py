"""One game at the terminal, played or watched: what happens on each push and each line
typed, whichever screen shows it (`clients.tui`, the full screen; `clients.plain`,
lines for screen readers and pipes).

Everything arrives in one queue, in order: `("change", None)` after a push changed the
game, `("line", text)` when the person pressed Enter, `("quit", why)` for Ctrl-C or the
end of the input. The session answers decisions that allow only one answer by itself,
asks before a slip can lose something (ending the turn with coins and a Buy or with
Treasures in hand; resigning), explains every refusal, and tells on leaving how long
the seat is held.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from dominion.protocol import (
    ChatLine,
    ChatRemoved,
    GameAbandoned,
    GameOver,
    RatingChanged,
    Snapshot,
)

from .board import Board, abandoned_lines
from .choose import (
    InputError,
    Parsed,
    Situation,
    forced_answer,
    option_label,
    parse_input,
    plain,
)
from .i18n import _, ngettext
from .lobby import Lobby
from .net import Client, ConnectionLost, ServerError, events_of
from .refusals import explain
from .render import bot_mark, log_lines, rating_line, result_line, seat_rating
from .safe import peer
from .words import help_text, syntax

Item = tuple[str, Any]
NO_DECISION: dict[str, Any] = {"options": [], "min": 0, "max": 0}
YES_WORDS = {"y", "yes", "tak", "ano", "taip"}  # never "t": it plays all Treasures, typed ahead


class Display(Protocol):
    """A screen: draws `board` on `refresh`, shows notes, and feeds `items`."""

    board: Board
    items: asyncio.Queue[Item]
    keeps_result: bool
    """True when the screen would vanish at the end: the result waits for Enter."""

    def refresh(self) -> None: ...

    def show_note(self, lines: list[str]) -> None: ...

    def set_words(self, words: list[str]) -> None: ...


@dataclass(frozen=True)
class Buying:
    """The card to buy once the server asks again after `after`, the Buy decision whose
    "Play all Treasures" was answered for it."""

    card: str
    after: int


@dataclass
class Leaving:
    """Why the session ended, and what to print once the screen is gone."""

    code: int
    message: list[str]


class Session:
    """A seat (`token`) or a spectator (`token` None) in one game."""

    def __init__(self, client: Client, lobby: Lobby, display: Display, game: str,
                 token: str | None, *, confirm: bool = True) -> None:
        self.client = client
        self.lobby = lobby
        self.display = display
        self.board = display.board
        self.game = game
        self.token = token
        self.confirm = confirm
        self.answered: int | None = None
        self.asking: Parsed | None = None
        """An answer or a resignation waiting for the person's yes."""
        self.grace: float | None = None
        self.forced: dict[str, Any] | None = None
        """Ours to answer, but with only one possible answer."""
        self.told_end = False
        """The push that ended the game has been read: the client's state knows of the end
        as soon as the frame arrives, before the pushes ahead of it are in the log."""
        self.chat_lines: dict[int, int] = {}
        """Where each numbered chat line is in the log (what `chat_removed` names)."""
        self.rating_news: str | None = None
        """What a rated game did to the players' ratings, once the server said it."""
        self.buying: Buying | None = None
        """A buy typed before the Treasures were played, waiting for the server's next
        question (`buy province` with Coppers in hand: docs/CLIENTS.md)."""

    @property
    def watching(self) -> bool:
        return self.token is None

    # -- the loop ---------------------------------------------------------------------

    async def run(self) -> Leaving:
        state = (await self.client.watch_from_start(self.game) if self.token is None
                 else await self.client.rejoin(self.game, self.token))
        self.board.state = state
        tasks = [asyncio.ensure_future(self._pushes()), asyncio.ensure_future(self._seats())]
        with contextlib.suppress(Exception):
            limits = (await self.lobby.server()).get("limits", {})
            self.grace = float(limits["seat_grace_seconds"])
        try:
            return await self._loop()
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _loop(self) -> Leaving:
        items = self.display.items
        self._redraw_changed()
        while True:
            kind, value = await items.get()
            if kind == "failure":
                raise value
            if kind == "quit" and not (value == "eof" and self.watching):
                return self._leave(value)  # (watching goes on without input, as in a pipe)
            if kind == "change":
                self._redraw_changed()
                await self._answer_forced()
                await self._buy_waited()
            elif self.board.over:
                return Leaving(0, [])
            elif kind == "line":
                leaving = await self._line(str(value))
                if leaving is not None:
                    return leaving
            if self.board.over and not self.display.keeps_result:
                return Leaving(0, [])

    def _redraw_changed(self) -> None:
        """Bring the board up to date with the game state."""
        state = self.board.state
        board = self.board
        board.over = state.over and self.told_end
        if state.started:
            board.waiting = None
        decision = state.my_decision()
        if decision is not None and decision["id"] == self.answered:
            decision = None
        # a question with one possible answer is never shown: `_answer_forced` answers it
        self.forced = decision if decision is not None and forced_answer(decision) is not None \
            else None
        board.decision = None if self.forced is not None else decision
        if board.decision is None and self.asking is not None and self.asking.command == \
                "answer":
            self.asking, board.ask = None, None  # the question it was about has gone
        if board.over and self.display.keeps_result:
            ended = (abandoned_lines(state.abandoned) if state.abandoned is not None
                     else [result_line(state.result or {}, state.names())])
            rated = [self.rating_news] if self.rating_news is not None else []
            board.note = [*ended, *rated, _("Press Enter to leave.")]
        self._words()
        self.display.refresh()

    def _words(self) -> None:
        words = ["help", "quit"] if self.watching else ["all", "end", "none", "help", "quit",
                                                        "resign"]
        decision = self.board.decision
        if decision is not None:
            for option in decision.get("options", ()):
                words.append(option_label(option, decision, self.board.names,
                                          self.board.names.costs))
        words += [f"help {self.board.names(card)}" for card in self.board.state.supply]
        self.display.set_words(list(dict.fromkeys(words)))

    async def _answer_forced(self) -> None:
        """Answer at once a decision that allows only one answer."""
        decision = self.forced
        forced = forced_answer(decision) if decision is not None else None
        if decision is not None and forced is not None:
            await self._answer(decision, forced)

    # -- a line typed ---------------------------------------------------------------------

    def _situation(self) -> Situation:
        state = self.board.state
        names = self.board.names
        me = state.players[state.seat] if state.seat is not None and 0 <= state.seat < len(
            state.players) else None
        return Situation(coins=state.coins, hand=list(me.hand or []) if me else [],
                         supply=state.supply, costs=names.costs, types=names.types,
                         spellings=names.spellings)

    async def _line(self, text: str) -> Leaving | None:
        board = self.board
        if self.asking is not None:
            asked, self.asking, board.ask = self.asking, None, None
            if plain(text) in YES_WORDS:
                return await self._carry_out(asked, confirmed=True)
            self.display.show_note([_("Cancelled: nothing was done.")])
            return None
        decision = board.decision
        try:
            parsed = parse_input(text, decision or NO_DECISION, board.names, self._situation())
        except InputError as error:
            if decision is None:
                self.display.show_note([self._not_yours()])
            else:
                self.display.show_note([str(error)])
            return None
        if parsed.command == "answer" and decision is None:
            self.display.show_note([self._not_yours()])
            return None
        return await self._carry_out(parsed, confirmed=not self.confirm)

    def _not_yours(self) -> str:
        if self.watching:
            return _("You are watching: 'help CARD' shows a card, 'quit' leaves.")
        if self.board.waiting is not None:
            return _("The game has not started yet.")
        return _("Nothing is yours to answer now.")

    async def _carry_out(self, parsed: Parsed, confirmed: bool) -> Leaving | None:
        board = self.board
        if parsed.command == "help":
            if parsed.card is not None:
                self.display.show_note(board.names.describe_card(parsed.card))
            else:
                kind = board.decision.get("kind") if board.decision else None
                self.display.show_note([line for line in (help_text(kind), syntax()) if line])
            return None
        if parsed.command == "quit":
            return self._leave("quit")
        if parsed.command == "resign":
            if self.watching:
                self.display.show_note([self._not_yours()])
                return None
            if not confirmed:
                self._ask(parsed, _("Resign? The game ends now and you lose. (yes/no)")
                          if self._resigning_ends_game() else
                          _("Resign? You can no longer win, and a bot plays your seat to "
                            "the end. (yes/no)"))
                return None
            try:
                await self.client.resign(self.game)
            except ServerError as error:
                self.display.show_note([explain(error.code, error.message)])
            else:
                self.display.show_note([_("You resigned; the game is over.")
                                        if self._resigning_ends_game() else
                                        _("You resigned; a bot plays your seat.")])
            return None
        decision = board.decision
        assert decision is not None
        if parsed.command == "buy_after_treasures":
            assert parsed.card is not None
            await self._answer(decision, parsed.options)
            if self.answered == decision["id"]:  # (else the note says why not)
                self.buying = Buying(parsed.card, decision["id"])
                self.display.show_note([_("Playing your Treasures, then buying {card}.")
                                        .format(card=board.names(parsed.card))])
            return None
        warning = None if confirmed else self._slip(decision, parsed.options)
        if warning is not None:
            self._ask(parsed, warning)
            return None
        await self._answer(decision, parsed.options)
        return None

    async def _buy_waited(self) -> None:
        """Once the server asks again after the Treasures were played for a buy: the buy,
        if its options offer it; else why not, with the coins the server counted."""
        waited, decision = self.buying, self.board.decision
        if waited is None or decision is None or decision["id"] == waited.after:
            return  # not asked again yet
        self.buying = None
        if decision.get("kind") != "buy":
            return  # the turn went on otherwise: the person answers
        options = decision.get("options", ())
        buy = next((i for i, option in enumerate(options) if option.get("kind") == "buy"
                    and option.get("card") == waited.card), None)
        if buy is not None:
            await self._answer(decision, (buy,))
            return
        names, coins = self.board.names, self.board.state.coins
        cost = names.costs.get(waited.card)
        self.display.show_note([
            _("{card} cannot be bought now.").format(card=names(waited.card)) if cost is None
            else _("{card} costs ${cost}; you have ${coins}.").format(
                card=names(waited.card), cost=cost, coins=coins)])

    def _resigning_ends_game(self) -> bool:
        """The server ends a game when fewer than two players are left in it (2 players:
        at once); otherwise a bot plays the resigned seat on."""
        still_in = [p for p in self.board.state.players if not p.resigned]
        return len(still_in) - 1 < 2

    def _ask(self, parsed: Parsed, question: str) -> None:
        self.asking = parsed
        self.board.ask = question
        self.display.show_note([question])

    def _slip(self, decision: Mapping[str, Any], options: tuple[int, ...]) -> str | None:
        """A warning when ending the turn would lose coins, a Buy, or unplayed Treasures."""
        chosen = [decision["options"][i] for i in options]
        if decision.get("kind") != "buy" or [o.get("kind") for o in chosen] != ["end_phase"]:
            return None
        state = self.board.state
        kinds = {o.get("kind") for o in decision.get("options", ())}
        lost = []
        if kinds & {"play", "play_all_treasures"}:
            lost.append(_("Treasures in your hand not played"))
        if state.coins > 0 and state.buys > 0:
            lost.append(ngettext("${coins} and {buys} Buy unused",
                                 "${coins} and {buys} Buys unused", state.buys).format(
                coins=state.coins, buys=state.buys))
        if not lost:
            return None
        return _("You still have {what}. End your turn anyway? (yes/no)").format(
            what=_(" and ").join(lost))

    async def _answer(self, decision: Mapping[str, Any], options: tuple[int, ...]) -> None:
        try:
            await self.client.answer(self.game, decision["id"], options)
        except ServerError as error:
            self.display.show_note([explain(error.code, error.message)])
            return
        except ConnectionLost:
            self.display.show_note([_("The connection was lost; reconnecting. Answer again "
                                      "when the question comes back.")])
            return
        self.answered = decision["id"]
        self.board.note = []
        self._redraw_changed()

    def _leave(self, why: object) -> Leaving:
        if self.watching or self.board.over:
            return Leaving(0, [_("You stopped watching {game}.").format(game=self.game)]
                           if self.watching and not self.board.over else [])
        come_back = _("Come back with: dominion play --game {game}").format(game=self.game)
        if self.grace is not None:
            held = _("Your seat is held for {seconds} seconds; after that a bot plays it for "
                     "you (or the game ends, if the server is set to abandon it).").format(
                seconds=round(self.grace))
        else:
            held = _("Your seat is held for a while; after that a bot plays it for you.")
        first = _("You left {game}.").format(game=self.game)
        if why == "eof":
            first = _("End of input: you left {game}.").format(game=self.game)
        return Leaving(0, [first, held, come_back])

    # -- pushes -----------------------------------------------------------------------

    async def _pushes(self) -> None:
        """Every push: log lines for its events, then a change in the queue."""
        items = self.display.items
        board = self.board
        while True:
            try:
                message = await self.client.next_push()
            except Exception as error:  # the client is closed for good
                items.put_nowait(("failure", error))
                return
            if getattr(message, "game", self.game) != self.game:
                continue
            players = board.state.names()
            board.log.extend(log_lines((e for _n, e in events_of(message)
                                        if e.get("kind") != "game_ended"), players,
                                       board.names))
            if isinstance(message, Snapshot):
                if board.state.snapshots > 1:
                    board.log.append(_("(caught up after reconnecting)"))
                elif message.seq > 0 and not board.log:
                    await self._earlier_log(message.seq)
            elif isinstance(message, ChatLine):
                if message.line is not None:
                    self.chat_lines[message.line] = len(board.log)
                board.log.append(f"<{peer(message.sender)}> {peer(message.text)}")
            elif isinstance(message, ChatRemoved):
                self._remove_chat_line(message.line)
            elif isinstance(message, GameOver):
                board.log.append(_("The game is over.") + " " + result_line(message.result,
                                                                           players))
                self.told_end = True
            elif isinstance(message, GameAbandoned):
                board.log.extend(abandoned_lines(message.reason))
                self.told_end = True
            elif isinstance(message, RatingChanged):
                self.rating_news = rating_line(message.changes, message.unrated, players)
                board.log.append(self.rating_news)
            items.put_nowait(("change", None))

    def _remove_chat_line(self, line: int) -> None:
        """A moderator removed a chat line: its words leave the log (a line already printed
        in line mode cannot be taken back: the note says it was removed)."""
        at = self.chat_lines.pop(line, None)
        if at is None:
            return
        removed = _("(a chat line removed by a moderator)")
        self.board.log[at] = removed
        self.display.show_note([removed])

    async def _earlier_log(self, seq: int) -> None:
        """Only a snapshot came (the game is longer than the server replays): the log so
        far from the public replay, as a spectator saw it."""
        try:
            replay = await self.lobby.replay(self.game)
        except Exception:  # the log then starts now
            return
        events = replay.get("events", []) if isinstance(replay, dict) else []
        self.board.log.append(_("(the moves before now, as a spectator saw them)"))
        self.board.log.extend(log_lines(events[:seq], self.board.state.names(),
                                        self.board.names))

    async def _seats(self) -> None:
        """Who sits where, from the lobby: once a second before the start (who is awaited),
        and once after it (which seats bots play, for the players panel)."""
        board = self.board
        while True:
            started = board.state.started
            with contextlib.suppress(Exception):  # only shown; the game still starts
                summary = await self.lobby.game(self.game)
                board.seats = list(summary.get("seats", []))
                seats = []
                for index, seat in enumerate(board.seats):
                    name = peer(seat["name"]) if seat.get("name") else _("(free)")
                    for mark in (bot_mark(seat), seat_rating(seat)):
                        if mark:
                            name += " " + mark
                    if index == board.state.seat:
                        name += " " + _("(you)")
                    seats.append(f"{index}: {name}")
                if not board.state.started:
                    board.waiting = _("Waiting for players at {game}: {seats}. Others join "
                                      "with: dominion play --game {game}").format(
                        game=self.game, seats=", ".join(seats))
                self.display.items.put_nowait(("change", None))
            if started:
                return
            await asyncio.sleep(1.0)


__all__ = ["Board", "Display", "Leaving", "Session"]
