"""Version, subprotocol name and the hard limits every frame is held to."""

from __future__ import annotations

VERSION = 2
"""The newest protocol version this package speaks (the major version; docs/PROTOCOL.md)."""
SUPPORTED_VERSIONS = (2, 1)
"""Every version this package speaks, newest first."""
SUBPROTOCOLS = tuple(f"dominion.v{version}.msgpack" for version in SUPPORTED_VERSIONS)
"""The WebSocket subprotocol names (Sec-WebSocket-Protocol), newest first."""
SUBPROTOCOL = SUBPROTOCOLS[0]

MAX_INT = 2**31 - 1
"""Largest request id, decision id, sequence number or other count on the wire."""
MAX_CLIENT_FRAME_BYTES = 16 * 1024
"""Largest client-to-server frame the decoder accepts by default."""
MAX_SERVER_FRAME_BYTES = 1024 * 1024
"""Largest server-to-client frame."""
MAX_DEPTH = 16
"""Deepest nesting of maps and arrays; the frame's own map is depth 1."""

MAX_VERSIONS = 16
MAX_NAME_LENGTH = 100
"""Client and server names and versions, player names in chat."""
MAX_GAME_ID_LENGTH = 64
MAX_TOKEN_LENGTH = 128
MAX_CHAT_LENGTH = 500
"""Hard cap on chat text (code points); the server may advertise a lower one in `welcome`."""
MAX_OPTION_ID = 65535
MAX_ANSWER_OPTIONS = 1024
MAX_UPDATE_EVENTS = 10_000
"""Events in one `update` (version 2): a resume sends a snapshot instead of more."""
MAX_CARDS = 1000
"""Catalogue entries in one `ack`."""
