"""Every bot is handed its seat's view and nothing else (docs/BOTS.md, "Honest by
construction"): from the decision and the table a bot receives, and from everything it
keeps, no object of the game's state can be reached, in `play_out` (dominion-sim and the
benchmarks) and in a room's bot loop alike.

The walk follows objects' references (`gc.get_referents`, and the attributes of slotted
and compiled objects) but not into classes, modules or functions: those are code, which
any bot can import; what is checked is that nothing handed to it refers to a game."""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterable, Iterator
from dataclasses import replace

from dominion.bots import DecisionLike, Strategy, Table, make_strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong import Level, StrongBot
from dominion.server.engine import Answer, Game, Setup, view
from dominion.server.engine.setup import random_kingdom
from dominion.server.engine.view import Ownership
from dominion.server.metrics import Metrics
from dominion.server.play.bots import play_out, seat_table
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room
from dominion.server.play.seats import Seat
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog
from tests.eventually import eventually

CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
        types.MethodType, types.CodeType, types.WrapperDescriptorType,
        types.MethodDescriptorType, types.GetSetDescriptorType,
        types.MemberDescriptorType)
"""What the walk does not go into: code, not data."""
DECISIONS = "dominion.server.engine.decisions"
"""The engine module whose objects a bot is handed: a decision, its options and kinds
(plain data, as a network bot's `WireDecision` is)."""


def _attributes(thing: object) -> Iterator[object]:
    """The values of `thing`'s slots and compiled attributes (which `gc` may not list)."""
    for kind in type(thing).__mro__:
        for name in getattr(kind, "__slots__", ()):
            if hasattr(thing, name):
                yield getattr(thing, name)


def reachable(roots: Iterable[object]) -> Iterator[object]:
    """Every object reachable from `roots` by references, but for code's insides."""
    seen: set[int] = set()
    waiting = list(roots)
    while waiting:
        thing = waiting.pop()
        if id(thing) in seen:
            continue
        seen.add(id(thing))
        yield thing
        if isinstance(thing, CODE):
            continue
        waiting.extend(gc.get_referents(thing))
        waiting.extend(_attributes(thing))


def game_state_in(roots: Iterable[object]) -> list[str]:
    """The server's objects (but a decision's) reachable from `roots`, by type name."""
    found = {type(thing).__module__ + "." + type(thing).__qualname__
             for thing in reachable(roots) if not isinstance(thing, CODE)}
    return sorted(name for name in found
                  if name.startswith("dominion.server.") and not name.startswith(DECISIONS))


class Spy:
    """Plays as `inner` does, and keeps everything it was handed."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.name = inner.name
        self.handed: list[tuple[DecisionLike, Table]] = []

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        self.handed.append((decision, table))
        return self.inner.choose(decision, table)


def spies() -> list[Spy]:
    return [Spy(StrongBot()), Spy(StrongBot(level=Level(1))), Spy(make_strategy("big_money")),
            Spy(make_strategy("smithy_big_money"))]


def handed_and_kept(players: Iterable[Spy]) -> list[object]:
    return [thing for spy in players for thing in (spy.inner, *spy.handed)]


def test_the_walk_finds_a_game_held_anywhere() -> None:
    game = Game(Setup.create(2), seed=1)
    assert "dominion.server.engine.game.Game" in game_state_in([{"deep": [(1, game)]}])
    assert "dominion.server.engine.state.PlayerState" in game_state_in(
        [Spy(make_strategy("big_money")), [game.players[0]]])


def test_bots_playing_in_process_are_handed_nothing_of_the_game() -> None:
    rng = random.Random(3)
    for edition in (1, 2):
        game = Game(replace(Setup.create(4, edition=edition),
                            kingdom=random_kingdom(edition, rng)), seed=rng.getrandbits(64))
        players = spies()
        play_out(game, players)
        assert game.result is not None and all(spy.handed for spy in players)
        assert all(type(table) is SeatTable for spy in players for _, table in spy.handed)
        assert game_state_in(handed_and_kept(players)) == []


def test_a_seats_table_is_the_view_the_server_sends_it() -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=2)
    for seat in range(3):
        table = seat_table(game, seat)
        assert table.seat == seat and table.hand() == game.players[seat].hand
        others = [other for other in range(3) if other != seat]
        assert all("hand" not in table.view["players"][other] for other in others)
        assert table.holdings(seat) == table.view["players"][seat]["owned"]
    assert game_state_in([seat_table(game, 0)]) == []


def part_of(part: object, whole: object) -> bool:
    """Whether every key of the maps in `part` is in `whole`'s, with the same value (lists
    item by item)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            key in whole and part_of(value, whole[key]) for key, value in part.items())
    if isinstance(part, list):
        return (isinstance(whole, list) and len(part) == len(whole)
                and all(map(part_of, part, whole)))
    return part == whole and type(part) is type(whole)


def test_the_view_a_bot_reads_is_part_of_the_view_the_server_sends_its_seat() -> None:
    """`play_out` hands a bot only the part of its seat's view that bots read: every key
    of the table's map is the full view's, so a bot knows no more than a network client,
    and a table read from the full view (`from_view`, as a network bot's) holds the same.
    So does a table built from parts kept between changes (`Ownership`), as `play_out`
    builds it."""
    rng = random.Random(5)
    for edition in (1, 2):
        game = Game(replace(Setup.create(3, edition=edition),
                            kingdom=random_kingdom(edition, rng)), seed=rng.getrandbits(64))
        players = spies()[1:]
        play_out(game, players)
        replayed = Game(game.setup, game.seed)
        ownership = Ownership()
        for entry in game.answers:
            assert isinstance(entry, Answer)
            whole = view(replayed, entry.player)
            for table in (seat_table(replayed, entry.player),
                          seat_table(replayed, entry.player, ownership)):
                assert part_of(table.view, whole)
                assert "hand" in table.view["players"][entry.player]
                again = SeatTable.from_view(whole, table.catalogue)
                assert again.view == table.view
            replayed.apply(entry)


async def test_a_rooms_bots_are_handed_nothing_of_the_game() -> None:
    log = MemoryGameLog()
    kingdom = tuple(Setup.create(["a", "b"], kingdom="Size Distortion").kingdom)
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, kingdom=kingdom)
    seats = [Seat(0, "Bot 1", bot="strong"), Seat(1, "Bot 2", bot="big_money")]
    room = Room(record, seats, log, Settings(), Metrics(), HistoryCache(100_000))
    players = [Spy(StrongBot()), Spy(make_strategy("big_money"))]
    for seat, spy in zip(room.seats, players, strict=True):
        seat.strategy = spy
    try:
        await log.create_game(room.record, [seat.record() for seat in room.seats])
        await room.start_if_full()
        await eventually(lambda: room.state == GameState.FINISHED, seconds=60)
        assert all(spy.handed for spy in players)
        assert game_state_in(handed_and_kept(players)) == []
    finally:
        await room.close()
