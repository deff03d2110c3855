"""The frames that tell each viewer about a game: a snapshot, or one change.

Pure functions of the game and its latest events, so that what a viewer receives can be
checked without a running server (tests/server/test_question_secrecy.py compares the
frames of two games that differ only in hidden cards, byte for byte).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dominion.protocol import (
    ClockState,
    GameEvent,
    GameOver,
    PendingDecision,
    Snapshot,
    Update,
    encode_server,
)

from ..engine import Event, Game, decision_view, fan_out, view
from ..engine.view import Ownership, board_views

Audience = tuple[int | None, int]
"""Who receives a change's frames: a viewer (seat, or None for spectators) and a version."""


def snapshot_frame(game_id: str, game: Game, viewer: int | None,
                   clocks: ClockState | None = None) -> bytes:
    return encode_server(Snapshot(game=game_id, seq=game.event_count, view=view(game, viewer),
                                  clocks=clocks), checked=False)


def change_frames(game_id: str, game: Game, events: Sequence[Event],
                  audiences: Collection[Audience], ownership: Ownership | None = None,
                  clocks: ClockState | None = None) -> dict[Audience, list[bytes]]:
    """The frames that tell each audience (a viewer and a protocol version) about the
    latest `events` (the game's last ones) and what is pending now. Version 1: one
    `event` frame each, then `decision` (or `game_over`); version 2: one `update`
    with the game as the viewer now sees it (then `game_over` once the game has
    ended), with the `clocks` of a table that has them. Forms that viewers share are
    built, or encoded, once; `ownership`, kept between a game's changes, saves counting
    again what nobody gained or trashed."""
    viewers = list({viewer for viewer, _ in audiences})
    forms = fan_out(events, viewers)
    current = [viewer for viewer, version in audiences if version >= 2]
    boards = board_views(game, current, ownership) if current else {}
    pending, last_seq = game.pending, game.event_count
    over = [] if pending is not None else [encode_server(GameOver(
        game=game_id, result=game.result.end_dict() if game.result else {}), checked=False)]
    encoded: dict[int, bytes] = {}
    frames: dict[Audience, list[bytes]] = {}
    for viewer, version in audiences:
        seen = forms[viewer]
        decision = None if pending is None else decision_view(pending, viewer)
        out = frames[viewer, version] = []
        if version >= 2:
            out.append(encode_server(Update(game=game_id, seq=last_seq, events=tuple(seen),
                                            decision=decision, view=boards[viewer],
                                            clocks=clocks),
                                     checked=False))
            out.extend(over)
            continue
        first_seq = last_seq - len(seen) + 1
        for offset, form in enumerate(seen):
            frame = encoded.get(id(form))
            if frame is None:
                frame = encoded[id(form)] = encode_server(
                    GameEvent(game=game_id, seq=first_seq + offset, event=form),
                    checked=False)
            out.append(frame)
        if decision is None:
            out.extend(over)
        else:
            out.append(encode_server(PendingDecision(game=game_id, decision=decision),
                                     checked=False))
    return frames
