"""The engine's view maps fit the protocol's payload checks (the server will send them)."""

from __future__ import annotations

import itertools
import random

from dominion.protocol import (
    MAX_SERVER_FRAME_BYTES,
    Ack,
    GameEvent,
    GameOver,
    PendingDecision,
    Snapshot,
    Update,
    decode_server,
    encode_server,
)
from dominion.protocol.limits import MAX_UPDATE_EVENTS
from dominion.server.engine import (
    Game,
    Setup,
    catalogue_dict,
    decision_view,
    fan_out,
    view,
    visible_event,
)
from dominion.server.engine.view import board_views

VIEWERS = (0, 1, 2, None)


def play(seed: int) -> tuple[Game, list[tuple[int, int]]]:
    """A whole three-player game of random answers, and each change's (first, last)
    event numbers. Every change's frames are encoded and decoded for every viewer in
    both versions' forms."""
    rng = random.Random(seed)
    game = Game(Setup.create(["ann", "bob", "cy"], kingdom="First Game"), seed=seed + 4)
    changes = [(1, game.event_count)]  # the set-up's events, before any decision
    for _ in range(3000):
        pending = game.pending
        if pending is None:
            break
        for viewer in VIEWERS:  # version 1: the decision after the events
            decode_server(encode_server(PendingDecision("g", decision_view(pending, viewer))))
        picked = rng.sample(range(len(pending.options)), rng.randint(pending.min, pending.max))
        start = game.event_count
        events = game.answer(pending.player, pending.id, picked)
        assert game.event_count == start + len(events)
        changes.append((start + 1, game.event_count))
        if game.pending is None:  # the last update: the game's end, then game_over
            assert events[-1].kind == "game_ended"
        for seq, event in enumerate(events, start + 1):  # version 1: one frame per event
            for viewer in VIEWERS:
                decode_server(encode_server(GameEvent("g", seq, visible_event(event, viewer))))
        # version 2: one update per viewer, made as the server makes it (fan_out)
        forms = fan_out(events, VIEWERS)
        boards = board_views(game, VIEWERS)
        for viewer in VIEWERS:
            assert forms[viewer] == [visible_event(event, viewer) for event in events]
            decision = None if game.pending is None else decision_view(game.pending, viewer)
            update = Update("g", game.event_count, tuple(forms[viewer]), decision,
                            boards[viewer])
            decoded = decode_server(encode_server(update))
            assert decoded == update
            assert ("options" in (decision or {})) == (viewer == getattr(game.pending,
                                                                          "player", -1))
    return game, changes


def test_a_whole_game_encodes_for_every_viewer_in_both_versions() -> None:
    game, changes = play(7)
    for viewer in VIEWERS:
        decode_server(encode_server(Snapshot("g", game.event_count, view(game, viewer))))
    assert game.result is not None
    decode_server(encode_server(GameOver("g", game.result.end_dict())))
    # a resume of the ended game that missed nothing: no events, no decision
    last = decode_server(encode_server(Update("g", game.event_count, (), None,
                                              board_views(game, [None])[None])))
    assert isinstance(last, Update) and last.decision is None
    # updates number the events without gaps: each starts where the one before ended
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(changes))
    assert len(changes) > 1 and changes[-1][1] == game.event_count


def test_a_resume_from_the_start_fits_one_update() -> None:
    """A resume that missed every event of a long game: one update per viewer."""
    game, _ = play(3)
    assert game.event_count <= MAX_UPDATE_EVENTS
    boards = board_views(game, VIEWERS)
    for viewer, seen in fan_out(game.events, VIEWERS).items():
        decision = None if game.pending is None else decision_view(game.pending, viewer)
        update = Update("g", game.event_count, tuple(seen), decision, boards[viewer])
        frame = encode_server(update)
        assert len(frame) < MAX_SERVER_FRAME_BYTES // 10
        assert decode_server(frame) == update


def test_the_catalogue_fits_one_ack() -> None:
    entries: list[dict[str, object]] = []
    for cards in catalogue_dict().values():
        entries.extend(card for card in cards if card not in entries)
    frame = encode_server(Ack(1, cards=tuple(entries)))
    assert decode_server(frame) == Ack(1, cards=tuple(entries))
