"""The protocol's one exception, its stable error codes, and the WebSocket close codes."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class ErrorCode(StrEnum):
    """Stable `code` values of `error` frames. Clients switch on these, never on messages.

    New codes may appear in a minor revision: treat an unknown code like `internal_error`.
    """

    # The frame itself (raised by the decoder).
    FRAME_TOO_LARGE = "frame_too_large"
    NOT_MSGPACK = "not_msgpack"
    TOO_DEEP = "too_deep"
    TOO_LONG = "too_long"
    NOT_A_MAP = "not_a_map"
    UNKNOWN_TYPE = "unknown_type"
    MISSING_FIELD = "missing_field"
    BAD_FIELD_TYPE = "bad_field_type"
    OUT_OF_RANGE = "out_of_range"
    # The session.
    HELLO_REQUIRED = "hello_required"
    HELLO_REPEATED = "hello_repeated"
    UNSUPPORTED_VERSION = "unsupported_version"
    RATE_LIMITED = "rate_limited"
    # Games.
    UNKNOWN_GAME = "unknown_game"
    BAD_TOKEN = "bad_token"
    NOT_IN_GAME = "not_in_game"
    NOT_A_PLAYER = "not_a_player"
    GAME_OVER = "game_over"
    GAME_NOT_STARTED = "game_not_started"
    ALREADY_RESIGNED = "already_resigned"
    ALREADY_PLAYING = "already_playing"
    BAD_TEXT = "bad_text"
    # Answers.
    STALE_DECISION = "stale_decision"
    NOT_YOUR_DECISION = "not_your_decision"
    BAD_OPTION = "bad_option"
    DUPLICATE_OPTION = "duplicate_option"
    TOO_FEW_OPTIONS = "too_few_options"
    TOO_MANY_OPTIONS = "too_many_options"
    # Anything else.
    INTERNAL_ERROR = "internal_error"


class CloseCode(IntEnum):
    """WebSocket close codes the server uses (RFC 6455 codes, and 4000-4999 for ours)."""

    NORMAL = 1000
    GOING_AWAY = 1001
    """The server is shutting down or restarting; reconnect and `resume`."""
    MESSAGE_TOO_BIG = 1009
    """A frame far beyond `max_frame_bytes` (the transport refused to read it)."""
    INTERNAL_ERROR = 1011
    PROTOCOL_ERROR = 4000
    """A text frame, no `hello` first, or too many malformed frames."""
    UNSUPPORTED_VERSION = 4001
    """No common protocol version (after an `unsupported_version` error)."""
    HANDSHAKE_TIMEOUT = 4002
    """No `hello` arrived in time."""
    RATE_LIMITED = 4003
    """Kept sending after `rate_limited` errors."""
    TOO_SLOW = 4004
    """The client read too slowly: its outbound queue filled up. Reconnect and `resume`."""
    IDLE_TIMEOUT = 4005
    """Nothing received for `idle_timeout_seconds`."""
    REPLACED = 4006
    """A newer connection joined the same seat."""


class ProtocolError(Exception):
    """Any malformed frame. `code` is stable; `message` is for people.

    `request_id` is the frame's `id` when it could be read, so the error can answer
    the request; otherwise None (the `error` frame then carries `"id": null`).
    """

    def __init__(self, code: ErrorCode, message: str, request_id: int | None = None) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id
