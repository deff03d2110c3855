"""A finished game's replay as the archive keeps it for dumps and exports, made once when
the game is archived: the replay's bytes that never change once the game has ended (all
but its `players`, whose names and ratings may change later, and its `chat`), and its rows
of a dump's games and gains tables. A dump or an export line splices them around the
players and the chat as they are now, with no JSON parsed or re-encoded
(docs/REPLAYS.md, "Dumps").

Versioned (`STORED_VERSION`): a row kept under another version is made again from its
events, or its answers, when it is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import zstandard

from .format import MINOR, VERSION
from .tables import gain_columns, game_row

LAYOUT = 1
"""How the parts are laid out, and the tables' columns they hold: one more for any change
to either (a change of the replay format's version or minor changes `STORED_VERSION`
by itself)."""
STORED_VERSION = (VERSION * 100 + MINOR) * 100 + LAYOUT
LEVEL = 3
"""zstd's level, as for the events (`build.DERIVED_LEVEL`)."""
_PARTS = b"\n"
"""Between the parts: compact JSON never holds a raw line feed."""


@dataclass(frozen=True, slots=True)
class StoredReplay:
    head: bytes
    """The replay's JSON up to its players: `{"format":...,"game":{...}`."""
    tail: bytes
    """Its keys after the players but before the chat: `"setup":...,"ending":...`."""
    game_row: list[Any]
    """Its row of the games table."""
    gains: list[list[Any]]
    """Its rows of the gains table, column by column (`tables.gain_columns`)."""


def stored_replay(replay: Mapping[str, Any]) -> StoredReplay:
    """A finished game's replay (`build.finished_replay`) as the archive keeps it."""
    keys = list(replay)
    players, chat = keys.index("players"), keys.index("chat")
    assert chat == len(keys) - 1, "the chat is the replay's last key"
    head = orjson.dumps({key: replay[key] for key in keys[:players]})[:-1]
    tail = orjson.dumps({key: replay[key] for key in keys[players + 1:chat]})[1:-1]
    return StoredReplay(head, tail, game_row(replay), gain_columns(replay))


def replay_line(stored: StoredReplay, players: Sequence[Mapping[str, Any]],
                chat: Sequence[Mapping[str, Any]]) -> bytes:
    """The replay's NDJSON line with these players and chat: the bytes of
    `orjson.dumps(finished_replay(...)) + b"\\n"`."""
    return b"".join((stored.head, b',"players":', orjson.dumps(players), b",", stored.tail,
                     b',"chat":', orjson.dumps(chat), b"}\n"))


def pack(stored: StoredReplay) -> bytes:
    text = _PARTS.join((stored.head, stored.tail, orjson.dumps(stored.game_row),
                        orjson.dumps(stored.gains)))
    return zstandard.ZstdCompressor(level=LEVEL).compress(text)


def unpack(data: bytes) -> StoredReplay:
    head, tail, row, gains = zstandard.ZstdDecompressor().decompress(data).split(_PARTS)
    return StoredReplay(head, tail, orjson.loads(row), orjson.loads(gains))
