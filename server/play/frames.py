"""The frames that tell each viewer about a game: a snapshot, or one change.

Pure functions of the game and its latest events, so that what a viewer receives can be
checked without a running server (tests/server/test_question_secrecy.py compares the
frames of two games that differ only in hidden cards, byte for byte).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from dominion.protocol import (
    MAX_SERVER_FRAME_BYTES,
    ClockState,
    ErrorCode,
    GameEvent,
    GameOver,
    PendingDecision,
    ProtocolError,
    Snapshot,
    Update,
    encode_server,
)
from dominion.protocol.codec import array_header, map_header, pack
from dominion.protocol.spec import write_fields

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
    pending, last_seq = game.pending, game.event_count
    over = [] if pending is not None else [encode_server(GameOver(
        game=game_id, result=game.result.end_dict() if game.result else {}), checked=False)]
    updates = _updates(game_id, game, forms, current, ownership, events, clocks)
    encoded: dict[int, bytes] = {}
    frames: dict[Audience, list[bytes]] = {}
    for viewer, version in audiences:
        out = frames[viewer, version] = []
        if version >= 2:
            out.append(updates[viewer])
            out.extend(over)
            continue
        seen = forms[viewer]
        first_seq = last_seq - len(seen) + 1
        for offset, form in enumerate(seen):
            frame = encoded.get(id(form))
            if frame is None:
                frame = encoded[id(form)] = encode_server(
                    GameEvent(game=game_id, seq=first_seq + offset, event=form),
                    checked=False)
            out.append(frame)
        if pending is None:
            out.extend(over)
        else:
            out.append(encode_server(PendingDecision(game=game_id,
                                                     decision=decision_view(pending, viewer)),
                                     checked=False))
    return frames


_SPLICED: Final = ("events", "decision", "view")
"""The fields of an `update` that differ between its recipients (the rest is packed once)."""
_BY_ITEM: Final = frozenset({"players"})
"""The view's arrays whose items recipients share (every player's public map) but not
the array itself (a seat's own map, with its hand, takes its place in the seat's copy)."""
_KEYS: dict[str, bytes] = {}
"""Map keys, packed (the fields of updates and views: a fixed few)."""


class _Pieces:
    """What a change's recipients share, each packed once: the maps and arrays that
    `fan_out` and `board_views` share between viewers are the same objects, so they are
    known by identity (and kept alive here, so that no identity is reused meanwhile)."""

    __slots__ = ("_packed",)

    def __init__(self) -> None:
        self._packed: dict[int, tuple[object, bytes]] = {}

    def of(self, value: object) -> bytes:
        known = self._packed.get(id(value))
        if known is not None:
            return known[1]
        data = pack(value)
        self._packed[id(value)] = (value, data)
        return data


def _key(key: str) -> bytes:
    data = _KEYS.get(key)
    if data is None:
        data = _KEYS[key] = pack(key)
    return data


def _spliced_map(fields: Mapping[str, Any], pieces: _Pieces) -> bytes:
    """A view as `pack` would pack it, from its parts packed once for all recipients."""
    parts = [map_header(len(fields))]
    for key, value in fields.items():
        parts.append(_key(key))
        if key in _BY_ITEM:
            parts.append(array_header(len(value)))
            parts.extend([pieces.of(item) for item in value])
        else:
            parts.append(pieces.of(value))
    return b"".join(parts)


def _updates(game_id: str, game: Game, forms: Mapping[int | None, list[dict[str, Any]]],
             viewers: Sequence[int | None], ownership: Ownership | None,
             events: Sequence[Event], clocks: ClockState | None) -> dict[int | None, bytes]:
    """Each viewer's `update` frame: the same bytes as `encode_server(Update(...),
    checked=False)`, spliced from pieces that are packed once however many receive them
    (what everyone may see: the events' public forms, the Supply, the players' public
    maps, the turn, the clocks...)."""
    if not viewers:
        return {}
    boards = board_views(game, viewers, ownership, events)
    pending = game.pending
    outsiders = None if pending is None else decision_view(pending, None)
    # the update's fields in their order, as the codec writes them: the shared ones packed
    head = write_fields(Update(game=game_id, seq=game.event_count, events=(), decision=None,
                               view={}, clocks=clocks), {"type": Update.TYPE})
    template: list[bytes | str] = [map_header(len(head))]
    for key, value in head.items():
        template.append(_key(key))
        template.append(key if key in _SPLICED else pack(value))
    pieces = _Pieces()
    frames: dict[int | None, bytes] = {}
    for viewer in viewers:
        if viewer in frames:
            continue
        seen = forms[viewer]
        decision = outsiders if pending is None or viewer != pending.player \
            else decision_view(pending, viewer)
        parts: list[bytes] = []
        for part in template:
            if isinstance(part, bytes):
                parts.append(part)
            elif part == "events":
                parts.append(array_header(len(seen)))
                parts.extend([pieces.of(form) for form in seen])
            elif part == "decision":
                parts.append(pieces.of(decision))
            else:
                parts.append(_spliced_map(boards[viewer], pieces))
        frame = frames[viewer] = b"".join(parts)
        if len(frame) > MAX_SERVER_FRAME_BYTES:
            raise ProtocolError(ErrorCode.FRAME_TOO_LARGE, f"the frame has {len(frame)} "
                                f"bytes; the limit is {MAX_SERVER_FRAME_BYTES}")
    return frames
