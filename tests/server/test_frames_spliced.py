"""A change's `update` frames are spliced from pieces its recipients share, each packed
once (server/play/frames.py): the bytes must be exactly those the codec makes of the
whole `Update`, and the frames of a fixed set of games must not change at all."""

from __future__ import annotations

import hashlib
import random

import pytest

from dominion.bots import make_strategy
from dominion.protocol import ClockState, GameOver, Update, encode_server
from dominion.server.engine import Event, Game, Setup, decision_view, fan_out
from dominion.server.engine.cards import kingdom_cards
from dominion.server.engine.view import Ownership, board_views
from dominion.server.play.frames import Audience, change_frames
from tests.clients.view_games import answer_as

GAME_ID = "g-0123456789abcdef"
WIRE_DIGEST = "427d18cdb961f7235bf0fcc0ef84cdab5bb67c89aa5f96cc410e0e24371c4e7e"
"""sha256 of every frame of `GAMES`, as the codec made them whole before the splice."""
GAMES = [(edition, number) for edition in (1, 2) for number in range(3)]


def whole_updates(game: Game, events: list[Event], viewers: list[int | None],
                  clocks: ClockState | None) -> dict[int | None, list[bytes]]:
    """The `update` frames (and `game_over`) as the codec makes them of whole messages."""
    forms = fan_out(events, viewers)
    boards = board_views(game, viewers, None, events)
    pending = game.pending
    over = [] if pending is not None else [encode_server(GameOver(
        game=GAME_ID, result=game.result.end_dict() if game.result else {}), checked=False)]
    return {viewer: [encode_server(Update(
        game=GAME_ID, seq=game.event_count, events=tuple(forms[viewer]),
        decision=None if pending is None else decision_view(pending, viewer),
        view=boards[viewer], clocks=clocks), checked=False), *over]
        for viewer in viewers}


def games(edition: int, number: int, answers: int = 150):
    """Each change of a random game: the game, its latest events and a clock state."""
    players = 2 + number % 3
    kingdom = random.Random(number).sample(list(kingdom_cards(edition)), 10)
    game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number,
                history=False)
    strategy = make_strategy("random", random.Random(number))
    events = list(game.events)
    for count in range(answers):
        clocks = None if number % 2 else ClockState(
            remaining_ms=tuple(60_000 - 7 * count * (seat + 1) for seat in range(players)),
            running=None if game.pending is None else game.pending.player,
            initial_ms=60_000, increment_ms=2_000)
        yield game, events, clocks
        if game.pending is None:
            return
        events = answer_as(strategy, game)


@pytest.mark.parametrize(("edition", "number"), GAMES)
def test_spliced_updates_are_the_whole_messages_bytes(edition: int, number: int) -> None:
    ownership = Ownership()
    for game, events, clocks in games(edition, number):
        viewers: list[int | None] = [*range(len(game.players)), None]
        audiences: list[Audience] = [(viewer, 2) for viewer in viewers] + [(0, 1)]
        frames = change_frames(GAME_ID, game, events, audiences, ownership, clocks)
        expected = whole_updates(game, events, viewers, clocks)
        for viewer in viewers:
            assert frames[viewer, 2] == expected[viewer], (edition, number, viewer)


def test_the_frames_of_fixed_games_are_unchanged() -> None:
    digest = hashlib.sha256()
    for edition, number in GAMES:
        ownership = Ownership()
        for game, events, clocks in games(edition, number):
            viewers: list[int | None] = [*range(len(game.players)), None]
            audiences = [(viewer, version) for viewer in viewers for version in (1, 2)]
            frames = change_frames(GAME_ID, game, events, audiences, ownership, clocks)
            for audience in audiences:
                for frame in frames[audience]:
                    digest.update(len(frame).to_bytes(4, "big") + frame)
    assert digest.hexdigest() == WIRE_DIGEST
