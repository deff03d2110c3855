"""The protocol's one exception, its stable error codes, and the WebSocket close codes."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class ErrorCode(StrEnum):
    """Every stable `code` of a refusal, on the WebSocket (`error` frames) and over REST
    (`{"error": {"code": ...}}`): the one list, used by the engine, the server and the
    protocol alike (docs/PROTOCOL.md, section 10). Clients switch on these, never on
    messages.

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
    GAME_NOT_OVER = "game_not_over"
    REMATCH_PENDING = "rematch_pending"
    NO_REMATCH = "no_rematch"
    REMATCH_EXPIRED = "rematch_expired"
    ALREADY_RESIGNED = "already_resigned"
    ALREADY_PLAYING = "already_playing"
    BAD_TEXT = "bad_text"
    # Answers (the engine's refusals).
    STALE_DECISION = "stale_decision"
    NOT_YOUR_DECISION = "not_your_decision"
    BAD_OPTION = "bad_option"
    DUPLICATE_OPTION = "duplicate_option"
    TOO_FEW_OPTIONS = "too_few_options"
    TOO_MANY_OPTIONS = "too_many_options"
    BAD_ANSWER = "bad_answer"
    """The answer is not a list of option ids (the decoder refuses such frames first)."""
    BAD_PLAYER = "bad_player"
    """No such seat (the engine's; the server only names seats it has)."""
    # The lobby over REST: tables and their set-up.
    BAD_JSON = "bad_json"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    BODY_TOO_LARGE = "body_too_large"
    BODY_TIMEOUT = "body_timeout"
    BAD_NAME = "bad_name"
    BAD_SEATS = "bad_seats"
    BAD_EDITION = "bad_edition"
    BAD_KINGDOM = "bad_kingdom"
    UNKNOWN_KINGDOM_SET = "unknown_kingdom_set"
    BAD_KINGDOM_SIZE = "bad_kingdom_size"
    UNKNOWN_CARD = "unknown_card"
    CARD_NOT_IN_EDITION = "card_not_in_edition"
    DUPLICATE_CARD = "duplicate_card"
    BAD_PLAYERS = "bad_players"
    BAD_PLAYER_COUNT = "bad_player_count"
    BAD_SECRET_QUESTIONS = "bad_secret_questions"
    BAD_DISCARD_TOPS = "bad_discard_tops"
    BAD_BOTS = "bad_bots"
    GAME_FULL = "game_full"
    GAME_STARTED = "game_started"
    ALREADY_SEATED = "already_seated"
    """An account holds one seat at a table, and one in live rated games."""
    TOO_MANY_GAMES = "too_many_games"
    RATED_NEEDS_ACCOUNT = "rated_needs_account"
    """A rated table is created and joined only by signed-in accounts (and in-server bots)."""
    # REST listings and downloads.
    BAD_PAGING = "bad_paging"
    BAD_FILTER = "bad_filter"
    BAD_FORMAT = "bad_format"
    BAD_STATE = "bad_state"
    # HTTP.
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    UNKNOWN_HOST = "unknown_host"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    # The server's own state.
    STORAGE_UNAVAILABLE = "storage_unavailable"
    CLUSTER_UNAVAILABLE = "cluster_unavailable"
    # Accounts and sign-in (REST).
    BAD_ACCOUNT_NAME = "bad_account_name"
    MIXED_SCRIPTS = "mixed_scripts"
    NAME_RESERVED = "name_reserved"
    NAME_TAKEN = "name_taken"
    WEAK_PASSWORD = "weak_password"
    WRONG_CREDENTIALS = "wrong_credentials"
    NOT_SIGNED_IN = "not_signed_in"
    CROSS_SITE_REQUEST = "cross_site_request"
    ACCOUNTS_UNAVAILABLE = "accounts_unavailable"
    # Personal access tokens and bot accounts (REST and the WebSocket's hello).
    TOKEN_INVALID = "token_invalid"
    TOKEN_EXPIRED = "token_expired"
    SCOPE_MISSING = "scope_missing"
    BAD_SCOPES = "bad_scopes"
    BAD_TOKEN_REQUEST = "bad_token_request"
    TOO_MANY_TOKENS = "too_many_tokens"
    ALREADY_PLAYED = "already_played"
    BOT_ACCOUNT = "bot_account"
    UNKNOWN_PLAYER = "unknown_player"
    BAD_CREDENTIAL = "bad_credential"
    BAD_PASSKEY_NAME = "bad_passkey_name"
    PASSKEY_CHALLENGE_EXPIRED = "passkey_challenge_expired"
    PASSKEY_REFUSED = "passkey_refused"
    UNKNOWN_PASSKEY = "unknown_passkey"
    # Moderation (REST, and `chat` on the WebSocket).
    NOT_AN_ADMIN = "not_an_admin"
    ACCOUNT_BANNED = "account_banned"
    ADDRESS_BANNED = "address_banned"
    MUTED = "muted"
    UNKNOWN_ACCOUNT = "unknown_account"
    BAD_REASON = "bad_reason"
    BAD_DURATION = "bad_duration"
    BAD_PREFIX = "bad_prefix"
    ALREADY_REPORTED = "already_reported"
    # Automatch (the WebSocket's `seek` and its answers).
    ALREADY_SEEKING = "already_seeking"
    NOT_SEEKING = "not_seeking"
    UNKNOWN_TABLE = "unknown_table"
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
    UNAUTHORIZED = 4007
    """The access token of `hello` (or of the upgrade's Authorization header) was refused,
    after the error that says why."""
    BANNED = 4008
    """The client's address was banned by an admin: do not reconnect."""


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
