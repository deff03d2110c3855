"""The session's own rules, without a server: a question with one possible answer is
never shown but answered; slips are confirmed first (or not, when turned off)."""

from __future__ import annotations

import asyncio
from typing import Any

from dominion.clients.board import Board
from dominion.clients.render import Names
from dominion.clients.session import Session
from dominion.clients.state import GameState, PlayerState
from dominion.protocol import GameOver, RatingChanged, SeatRatingChange, Unrated


class Screen:
    keeps_result = False

    def __init__(self, board: Board) -> None:
        self.board = board
        self.items: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.shown: list[object] = []
        self.notes: list[str] = []

    def refresh(self) -> None:
        self.shown.append(self.board.decision)

    def show_note(self, lines: list[str]) -> None:
        self.notes += lines

    def set_words(self, words: list[str]) -> None:
        pass


class Server:
    def __init__(self) -> None:
        self.answers: list[tuple[int, tuple[int, ...]]] = []
        self.resigned = 0

    async def answer(self, game: str, decision: int, options: tuple[int, ...]) -> None:
        self.answers.append((decision, tuple(options)))

    async def resign(self, game: str) -> None:
        self.resigned += 1


def session(decision: dict[str, Any], confirm: bool = True, coins: int = 0
            ) -> tuple[Session, Screen, Server]:
    state = GameState(game="g", seat=0, turn_player=0, coins=coins, decision=decision)
    state.players = [PlayerState(seat=0, name="Ann", hand=["copper"]),
                     PlayerState(seat=1, name="Bob")]
    screen, server = Screen(Board(game="g", names=Names(), state=state)), Server()
    return Session(server, None, screen, "g", "tk", confirm=confirm), screen, server  # type: ignore[arg-type]


def asked(kind: str, options: list[tuple[str, str | None]], low: int = 1, high: int = 1
          ) -> dict[str, Any]:
    return {"id": 4, "player": 0, "kind": kind, "prompt": "?", "source": "militia",
            "min": low, "max": high, "ordered": False,
            "options": [{"id": i, "kind": k, "card": c} for i, (k, c) in enumerate(options)]}


def test_a_question_with_one_possible_answer_is_answered_and_never_shown() -> None:
    forced = asked("discard", [("card", "copper")] * 3, 2, 2)
    playing, screen, server = session(forced)
    playing._redraw_changed()
    asyncio.run(playing._answer_forced())
    assert server.answers == [(4, (0, 1))]
    assert forced not in screen.shown


def test_ending_the_turn_with_treasures_or_coins_left_is_confirmed() -> None:
    buy = asked("buy", [("play_all_treasures", None), ("buy", "copper"), ("end_phase", None)])
    playing, screen, server = session(buy, coins=2)
    playing._redraw_changed()
    asyncio.run(playing._line("end"))
    assert server.answers == [] and "End your turn anyway?" in screen.notes[-1]
    assert "Treasures in your hand not played and $2 and 1 Buy unused" in screen.notes[-1]
    asyncio.run(playing._line("no"))
    assert server.answers == [] and screen.notes[-1].startswith("Cancelled")
    asyncio.run(playing._line("end"))
    asyncio.run(playing._line("yes"))
    assert server.answers == [(4, (2,))]


def test_resigning_is_confirmed_and_confirmations_can_be_turned_off() -> None:
    buy = asked("buy", [("play_all_treasures", None), ("end_phase", None)])
    playing, screen, server = session(buy)
    playing._redraw_changed()
    asyncio.run(playing._line("resign"))
    assert server.resigned == 0 and "Resign?" in screen.notes[-1]
    asyncio.run(playing._line("y"))
    assert server.resigned == 1
    trusting, _screen, server = session(buy, confirm=False, coins=3)
    trusting._redraw_changed()
    asyncio.run(trusting._line("end"))
    assert server.answers == [(4, (1,))]


class Pushes:
    """A client whose pushes are these messages, then a closed connection."""

    def __init__(self, *messages: object) -> None:
        self.messages = list(messages)

    async def next_push(self) -> object:
        if not self.messages:
            raise ConnectionError("closed")
        return self.messages.pop(0)


def test_the_end_screen_says_a_rated_games_changes_or_why_it_is_unrated() -> None:
    playing, screen, _ = session({"id": 4, "player": 1, "kind": "buy", "prompt": "?",
                                  "source": None})
    screen.keeps_result = True  # type: ignore[misc]
    result = {"scores": [9, 3], "turns": [12, 11], "winners": [0]}
    playing.board.state.result = result
    playing.client = Pushes(GameOver("g", result), RatingChanged("g", (  # type: ignore[assignment]
        SeatRatingChange(0, 1500, 1516, True), SeatRatingChange(1, 1210, 1198, False))))
    asyncio.run(playing._pushes())
    playing._redraw_changed()
    news = "Ratings: Ann 1516? (+16), Bob 1198 (\u221212)."
    assert playing.board.note[-2:] == [news, "Press Enter to leave."]
    assert playing.board.log[-1] == news
    playing.client = Pushes(RatingChanged("g", (), Unrated.TOO_SHORT))  # type: ignore[assignment]
    asyncio.run(playing._pushes())
    playing._redraw_changed()
    assert playing.board.note[-2].startswith("Unrated: a player resigned before")


def test_a_buy_typed_before_the_treasures_plays_them_then_buys() -> None:
    names = Names([{"id": "province", "name": "Province", "cost": 8},
                   {"id": "copper", "name": "Copper", "cost": 0}])
    buy = asked("buy", [("play_all_treasures", None), ("buy", "copper"), ("end_phase", None)])
    for offered, answers, note in (
            ([("buy", "province"), ("end_phase", None)], [(4, (0,)), (5, (0,))], None),
            ([("buy", "copper"), ("end_phase", None)], [(4, (0,))],
             "Province costs $8; you have $5.")):
        playing, screen, server = session(buy)
        playing.board.names = names
        playing.board.state.supply = {"province": 8, "copper": 46}
        playing._redraw_changed()
        asyncio.run(playing._line("buy province"))
        assert server.answers == [(4, (0,))]  # "Play all Treasures", as the server offers it
        assert screen.notes[-1] == "Playing your Treasures, then buying Province."
        asyncio.run(playing._buy_waited())  # a push before the next question: nothing yet
        assert server.answers == [(4, (0,))]
        playing.board.state.coins = 5  # the server's count
        playing.board.state.decision = asked("buy", offered) | {"id": 5}
        playing._redraw_changed()
        asyncio.run(playing._buy_waited())
        assert server.answers == answers
        assert note is None or screen.notes[-1] == note
