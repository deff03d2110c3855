"""`dominion play`: an interactive game in the terminal.

    dominion play                              # a new table: you and a big_money bot
    dominion play --seats 3 --bot random       # you, a random bot, and a free seat
    dominion play --game GAME                  # join a table (or take your seat again)

The screen is drawn with `rich`; answers are read with `prompt_toolkit` (completion of
the current options' names and numbers, history), or line by line from standard input
when it is not a terminal. The screen is drawn again whenever a decision is yours;
while other players decide, the log lines are printed as they arrive. Reading what a
person typed is `clients.choose.parse_input`, a pure function.

Like every other command except `replay verify`, this uses only the REST lobby and the
protocol: the numbers shown come from the snapshot and the events (`clients.state`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Mapping
from typing import Any

import aiohttp
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dominion.protocol import ChatLine, GameOver, Snapshot

from . import config
from .choose import HELP, InputError, allowed, option_label, parse_input
from .lobby import Lobby
from .net import Client, ConnectionLost, ServerError, events_of
from .render import Names, describe, result_line, turn_heading
from .state import GameState

BASE_CARDS = ("copper", "silver", "gold", "estate", "duchy", "province", "curse")
LOG_LINES = 14
SYNTAX = ("Answer with option numbers ('3', '1 4 5', '1,4') or card names (a unique "
          "prefix is enough; 'buy silver', 'play copper' when both are offered; commas "
          "between several names); 'all' plays all Treasures; 'end' or 'done' ends the "
          "phase; an empty line or 'none' chooses nothing when that is allowed; 'help', "
          "'quit' (leave; come back with `dominion play --game GAME`), 'resign'.")


# -- the screen -----------------------------------------------------------------------


class Screen:
    """Draws one game, as one seat sees it, with `rich`."""

    def __init__(self, console: Console, names: Names, game: str) -> None:
        self.console = console
        self.names = names
        self.game = game

    def card_cell(self, card: str | None) -> str:
        return self.names(card) if card else "-"

    def supply(self, state: GameState) -> Table:
        table = Table(title="Supply", title_justify="left", box=None, pad_edge=False)
        for _ in range(2):
            table.add_column("Card")
            table.add_column("$", justify="right")
            table.add_column("Left", justify="right")
        base = [c for c in BASE_CARDS if c in state.supply]
        kingdom = sorted((c for c in state.supply if c not in BASE_CARDS),
                         key=lambda c: (state.costs.get(c, 0), self.names(c)))
        for row in range(max(len(base), len(kingdom))):
            cells: list[str] = []
            for column in (base, kingdom):
                if row < len(column):
                    card = column[row]
                    left = state.supply.get(card, 0)
                    cells += [self.names(card), str(state.costs.get(card, "?")),
                              str(left) if left else "empty"]
                else:
                    cells += ["", "", ""]
            table.add_row(*cells)
        return table

    def players(self, state: GameState) -> Table:
        table = Table(title="Players", title_justify="left", box=None, pad_edge=False)
        for column in ("", "Player", "Hand", "Discard top", "In play", "Turns"):
            table.add_column(column)
        for player in state.players:
            marker = ">" if player.seat == state.turn_player else ""
            name = player.name + (" (you)" if player.seat == state.seat else "")
            if player.resigned:
                name += " (resigned)"
            table.add_row(marker, name, str(player.hand_size),
                          self.card_cell(player.discard_top),
                          self.names.counted(player.in_play) if player.in_play else "-",
                          str(player.turns))
        return table

    def turn_line(self, state: GameState) -> Text:
        names = state.names()
        who = names[state.turn_player] if state.turn_player is not None and \
            0 <= state.turn_player < len(names) else "?"
        if state.turn_player == state.seat:
            who += " (you)"
        return Text(f"Turn {state.turn_number} — {who}, {state.phase} phase · "
                    f"Actions {state.actions} · Buys {state.buys} · Coins {state.coins}",
                    style="bold")

    def mine(self, state: GameState) -> Text:
        seat = state.seat
        if seat is None or not 0 <= seat < len(state.players):
            return Text("")
        me = state.players[seat]
        hand = self.names.counted(sorted(me.hand or [], key=self.names)) if me.hand else \
            "nothing"
        in_play = self.names.many(me.in_play) if me.in_play else "nothing"
        return Text(f"Your hand: {hand}\nYour play area: {in_play}")

    def log(self, lines: list[str]) -> Panel:
        shown = lines[-LOG_LINES:] or ["(nothing yet)"]
        return Panel(Text("\n".join(shown)), title="Log", title_align="left")

    def decision(self, decision: Mapping[str, Any], state: GameState) -> Panel:
        kind = str(decision.get("kind"))
        lines = Text()
        lines.append(f"{decision.get('prompt', '')}\n", style="bold")
        source = decision.get("source")
        if source:
            lines.append(f"Because of: {self.names(source)}\n")
        for number, option in enumerate(decision.get("options", ()), start=1):
            label = option_label(option, decision, self.names, state.costs)
            lines.append(f"  {number:>2}. {label}\n")
        text = allowed(decision)
        lines.append(text[0].upper() + text[1:] + ".")
        if decision.get("ordered"):
            lines.append("\nOrder matters: the first one you choose ends on top.")
        lines.append(f"\nHelp: {HELP.get(kind, kind)}", style="italic")
        return Panel(lines, title=f"Your decision: {kind}", title_align="left")

    def draw(self, state: GameState, log: list[str], decision: Mapping[str, Any] | None,
             note: str | None = None) -> None:
        self.console.clear()
        self.console.rule(f"Dominion {self.game}: {', '.join(state.names())}")
        parts: list[Any] = [self.supply(state), Text(""), self.players(state), Text(""),
                            self.turn_line(state), self.mine(state), self.log(log)]
        if decision is not None:
            parts.append(self.decision(decision, state))
        if note:
            parts.append(Text(note, style="red"))
        self.console.print(Group(*parts))

    def game_over(self, state: GameState) -> None:
        result = state.result or {}
        names = state.names()
        table = Table(title="Game over", title_justify="left")
        table.add_column("Player")
        table.add_column("Score", justify="right")
        table.add_column("Turns", justify="right")
        turns = result.get("turns", [])
        for seat, score in enumerate(result.get("scores", [])):
            name = names[seat] if seat < len(names) else f"seat {seat}"
            if seat == state.seat:
                name += " (you)"
            table.add_row(name, str(score), str(turns[seat]) if seat < len(turns) else "")
        self.console.print(table)
        self.console.print(result_line(result, names), markup=False)


# -- reading lines --------------------------------------------------------------------


class LineReader:
    """Reads one answer at a time: prompt_toolkit on a terminal, else plain lines.

    `read` may be cancelled (the decision changed): a prompt is closed; a plain read
    in progress is kept and its line is the answer to the next `read`.
    """

    def __init__(self) -> None:
        self._pending: asyncio.Future[str] | None = None
        self._session: Any = None
        if sys.stdin.isatty():
            try:
                from prompt_toolkit import PromptSession
                from prompt_toolkit.history import InMemoryHistory
            except ImportError:  # not installed: plain lines, no completion
                return
            self._session = PromptSession(history=InMemoryHistory())

    async def read(self, message: str, words: list[str]) -> str:
        if self._session is not None:
            from prompt_toolkit.completion import WordCompleter
            from prompt_toolkit.patch_stdout import patch_stdout

            completer = WordCompleter(words, ignore_case=True, sentence=True)
            with patch_stdout(raw=True):
                text: str = await self._session.prompt_async(message, completer=completer)
            return text
        sys.stdout.write(message)
        sys.stdout.flush()
        if self._pending is None:
            self._pending = asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        line = await asyncio.shield(self._pending)
        self._pending = None
        if not line:
            raise EOFError
        return line.rstrip("\n")


# -- the game -------------------------------------------------------------------------


class Play:
    """One seat of one game, played by a person at the terminal."""

    def __init__(self, client: Client, lobby: Lobby, screen: Screen, game: str,
                 token: str) -> None:
        self.client = client
        self.lobby = lobby
        self.screen = screen
        self.console = screen.console
        self.names = screen.names
        self.game = game
        self.token = token
        self.state = GameState(game=game)
        self.log: list[str] = []
        self.printed = 0
        self.changed = asyncio.Event()
        self.failure: BaseException | None = None
        self.answered: int | None = None
        self.note: str | None = None

    async def run(self) -> int:
        self.state = await self.client.join(self.game, self.token)
        reader = asyncio.ensure_future(self._read_pushes())
        try:
            await self._wait_for_start()
            await self._earlier_log()
            return await self._play(LineReader())
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    async def _read_pushes(self) -> None:
        """Every push: a log line for the events, and `changed` set."""
        while True:
            try:
                message = await self.client.next_push()
            except Exception as error:  # the client is closed for good
                self.failure = error
                self.changed.set()
                return
            if getattr(message, "game", self.game) != self.game:
                continue
            players = self.state.names()
            for _, event in events_of(message):  # an update's events, or one v1 event
                if event.get("kind") == "turn_started":
                    self.log.append(f"-- {turn_heading(event, players)} --")
                elif event.get("kind") != "game_ended":
                    line = describe(event, players, self.names)
                    if line:
                        self.log.append(line)
            if isinstance(message, Snapshot) and self.state.snapshots > 1:
                self.log.append("(caught up after reconnecting)")
            elif isinstance(message, ChatLine):
                self.log.append(f"<{message.sender}> {message.text}")
            elif isinstance(message, GameOver):
                self.log.append("Game over. " + result_line(message.result, players))
            self.changed.set()

    async def _changes(self, timeout: float | None = None) -> None:
        """Wait for a push (or the timeout); raise what ended the client."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)
        self.changed.clear()
        if self.failure is not None:
            raise self.failure

    def _print_new_lines(self) -> None:
        for line in self.log[self.printed:]:
            self.console.print(f"  {line}", markup=False, highlight=False)
        self.printed = len(self.log)

    async def _wait_for_start(self) -> None:
        shown = None
        while not self.state.started:
            try:
                summary = await self.lobby.game(self.game)
            except Exception:  # the table list is only shown; the game still starts
                summary = {}
            seats = []
            for index, seat in enumerate(summary.get("seats", [])):
                name = seat.get("name") or "(free)"
                if seat.get("bot"):
                    name += f" [{seat['bot']} bot]"
                if index == self.state.seat:
                    name += " (you)"
                seats.append(f"{index}: {name}")
            text = f"Waiting for players at {self.game} — seats " + ", ".join(seats)
            if seats and text != shown:
                self.console.print(text, markup=False, highlight=False)
                self.console.print(f"Others join with: dominion play --game {self.game}",
                                   markup=False, highlight=False)
                shown = text
            await self._changes(1.0)
        self.console.print("The game starts.")

    async def _earlier_log(self) -> None:
        """Joined a running game: the log so far, from the public replay."""
        if self.state.seq == 0 or self.printed:
            return
        try:
            replay = await self.lobby.replay(self.game)
        except Exception:  # the log then starts now
            return
        events = replay.get("events", []) if isinstance(replay, dict) else []
        players = self.state.names()
        earlier = []
        for event in events[: self.state.seq]:
            if event.get("kind") == "turn_started":
                earlier.append(f"-- {turn_heading(event, players)} --")
            else:
                line = describe(event, players, self.names)
                if line:
                    earlier.append(line)
        self.log[:0] = earlier
        self.printed += len(earlier)

    def _pending(self) -> dict[str, Any] | None:
        decision = self.state.my_decision()
        if decision is None or decision["id"] == self.answered:
            return None
        return decision

    async def _play(self, reader: LineReader) -> int:
        waiting_for: tuple[object, ...] | None = None
        redraw = True
        while True:
            state = self.state
            if state.over:
                self._print_new_lines()
                self.screen.game_over(state)
                return 0
            decision = self._pending()
            if decision is None:
                pending = state.decision
                if pending is not None and (state.turn_number, pending.get("player"),
                                            pending.get("kind")) != waiting_for:
                    self._print_new_lines()
                    waiting_for = (state.turn_number, pending.get("player"), pending.get("kind"))
                    who = state.names()[pending["player"]] if isinstance(
                        pending.get("player"), int) and pending["player"] < len(
                        state.players) else "?"
                    if pending.get("player") != state.seat:
                        self.console.print(f"Waiting for {who}: {pending.get('kind')} — "
                                           f"{pending.get('prompt', '')}", markup=False,
                                           highlight=False, style="dim")
                await self._changes(5.0)
                self._print_new_lines()
                redraw = True
                continue
            if redraw:
                self.screen.draw(state, self.log, decision, self.note)
                self.printed = len(self.log)
                self.note = None
                redraw = False
            line = await self._read(reader, decision)
            if line is None:  # the decision changed while we waited
                redraw = True
                continue
            try:
                parsed = parse_input(line, decision, self.names)
            except InputError as error:
                self.console.print(f"Not an answer: {error}", markup=False, highlight=False,
                                   style="red")
                continue
            if parsed.command == "help":
                self.console.print(HELP.get(str(decision.get("kind")), ""), markup=False,
                                   highlight=False)
                self.console.print(SYNTAX, markup=False, highlight=False)
                continue
            if parsed.command == "quit":
                self.console.print(f"You left {self.game}; your seat waits for you: "
                                   f"dominion play --game {self.game}", markup=False,
                                   highlight=False)
                return 0
            try:
                if parsed.command == "resign":
                    await self.client.resign(self.game)
                    self.console.print("You resigned.")
                    continue
                await self.client.answer(self.game, decision["id"], parsed.options)
                self.answered = decision["id"]
            except ServerError as error:
                self.note = f"The server refused that: {error.code}: {error.message}"
                redraw = True
            except ConnectionLost:
                self.note = "The connection was lost; reconnecting — answer again."
                redraw = True
                await self._changes(5.0)
            else:
                redraw = True

    async def _read(self, reader: LineReader, decision: Mapping[str, Any]) -> str | None:
        """A line for `decision`, or None if it stopped being ours meanwhile."""
        words = ["all", "end", "none", "help", "quit"]
        for number, option in enumerate(decision.get("options", ()), start=1):
            words.append(str(number))
            words.append(option_label(option, decision, self.names, self.state.costs))
            if option.get("card"):
                words.append(self.names(option["card"]))
        words = list(dict.fromkeys(words))
        task = asyncio.ensure_future(reader.read(f"{decision.get('kind')}> ", words))
        try:
            while True:
                waiter = asyncio.ensure_future(self.changed.wait())
                done, _ = await asyncio.wait({task, waiter},
                                             return_when=asyncio.FIRST_COMPLETED)
                if task in done:
                    waiter.cancel()
                    return task.result()
                self.changed.clear()
                if self.failure is not None:
                    raise self.failure
                current = self._pending()
                if self.state.over or current is None or current["id"] != decision["id"]:
                    return None
                for line in self.log[self.printed:]:  # chat, mostly
                    print(f"  {line}")
                self.printed = len(self.log)
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


# -- taking a seat --------------------------------------------------------------------


async def take_seat(args: argparse.Namespace, settings: config.Settings, lobby: Lobby,
                    console: Console) -> tuple[str, str]:
    """Join `--game` (with the saved token if there is one) or create a table."""
    from .cli import _bots

    if args.game:
        saved = config.load_token(args.game)
        if saved is not None and saved.get("server", settings.server) == settings.server:
            console.print(f"Taking seat {saved['seat']} of {args.game} again.")
            return args.game, str(saved["token"])
        joined = await lobby.join(args.game, settings.name)
        config.save_token(args.game, joined["seat"], joined["token"], settings.server,
                          settings.name)
        console.print(f"Joined {args.game} as seat {joined['seat']}.")
        return args.game, str(joined["token"])
    if not args.bot:
        bots = {1: "big_money"} if args.seats >= 2 else {}
    elif args.bot == ["none"]:
        bots = {}
    else:
        bots = _bots(args.bot, args.seats)
    text: str | None = args.kingdom
    kingdom: str | list[str] | None = text
    if text and "," in text:
        kingdom = [card.strip() for card in text.split(",")]
    created = await lobby.create(settings.name, args.seats, edition=args.edition,
                                 kingdom=kingdom, bots=bots)
    game = created["game"]["id"]
    config.save_token(game, created["seat"], created["token"], settings.server, settings.name)
    console.print(f"Created {game}: you are seat {created['seat']} of {args.seats}.")
    return game, str(created["token"])


async def run_play(args: argparse.Namespace, settings: config.Settings) -> int:
    from .cli import card_names

    console = Console(highlight=False)
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(settings.server, session)
        names = await card_names(session, settings.server, settings.lang)
        game, token = await take_seat(args, settings, lobby, console)
        async with Client(settings.server, name="dominion-play/0.1", session=session) as client:
            screen = Screen(console, names, game)
            try:
                return await Play(client, lobby, screen, game, token).run()
            except EOFError:
                console.print(f"\nEnd of input: you left {game}; come back with "
                              f"dominion play --game {game}")
                return 0


__all__ = ["LineReader", "Play", "Screen", "run_play", "take_seat"]
