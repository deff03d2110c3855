"""The protocol's one exception, its stable error codes, and the WebSocket close codes."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from http import HTTPStatus


class ErrorCode(StrEnum):
    """Every stable `code` of a refusal, on the WebSocket (`error` frames) and over REST
    (`{"error": {"code": ...}}`): the one list, used by the engine, the server and the
    protocol alike (docs/PROTOCOL.md, section 10). Clients switch on these, never on
    messages.

    Each member's value is its code; `status` is the HTTP status of a REST refusal with it,
    and `description` says what it means there, for the OpenAPI document (empty: no REST
    route answers it). A description may name a server limit in braces (`{MAX_PLAYERS}`),
    filled in by the document (server/edge/api/openapi.py): the protocol does not know them.

    New codes may appear in a minor revision: treat an unknown code like `internal_error`.
    """

    _value_: str
    status: HTTPStatus
    description: str

    def __new__(cls, value: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST,
                description: str = "") -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.description = description
        return member

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
    RATE_LIMITED = ("rate_limited", HTTPStatus.TOO_MANY_REQUESTS,
        "this address (or every address together) has asked for more of this than the server "
        "allows for now (the message says when to retry)")
    # Games.
    UNKNOWN_GAME = ("unknown_game", HTTPStatus.NOT_FOUND,
        "no game has this id")
    BAD_TOKEN = ("bad_token", HTTPStatus.FORBIDDEN,
        "the token holds no seat in this game (or is not a string)")
    NOT_IN_GAME = "not_in_game"
    NOT_A_PLAYER = ("not_a_player", HTTPStatus.FORBIDDEN,
        "the signed-in account holds no seat in this game")
    GAME_OVER = ("game_over", HTTPStatus.CONFLICT,
        "the game has ended")
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
    BAD_OPTION = ("bad_option", HTTPStatus.BAD_REQUEST,
        "spectator_chat or rated is not true or false")
    DUPLICATE_OPTION = "duplicate_option"
    TOO_FEW_OPTIONS = "too_few_options"
    TOO_MANY_OPTIONS = "too_many_options"
    BAD_ANSWER = "bad_answer"
    """The answer is not a list of option ids (the decoder refuses such frames first)."""
    BAD_PLAYER = "bad_player"
    """No such seat (the engine's; the server only names seats it has)."""
    # The lobby over REST: tables and their set-up.
    BAD_JSON = ("bad_json", HTTPStatus.BAD_REQUEST,
        "the body is not valid JSON, or not a JSON object")
    UNSUPPORTED_MEDIA_TYPE = ("unsupported_media_type", HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
        "the body is not sent as application/json")
    BODY_TOO_LARGE = ("body_too_large", HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        "the body is larger than the server accepts (64 KiB), declared or sent")
    BODY_TIMEOUT = ("body_timeout", HTTPStatus.REQUEST_TIMEOUT,
        "the body did not arrive within the server's body timeout (5 s by default); the "
        "connection is closed")
    BAD_NAME = ("bad_name", HTTPStatus.BAD_REQUEST,
        "a name is a string of 1 to {MAX_NAME_LENGTH} characters, not only spaces, of letters, "
        "marks, numbers, punctuation, symbols and spaces (no control, format, private-use or "
        "unassigned characters, no lone surrogates)")
    BAD_SEATS = ("bad_seats", HTTPStatus.BAD_REQUEST,
        "seats is a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
    BAD_EDITION = ("bad_edition", HTTPStatus.BAD_REQUEST,
        "edition is 1 or 2")
    BAD_KINGDOM = ("bad_kingdom", HTTPStatus.BAD_REQUEST,
        "kingdom is null, a recommended set's name, or a list of card ids")
    UNKNOWN_KINGDOM_SET = ("unknown_kingdom_set", HTTPStatus.BAD_REQUEST,
        "no recommended set of this name in the edition")
    BAD_KINGDOM_SIZE = ("bad_kingdom_size", HTTPStatus.BAD_REQUEST,
        "a Kingdom list has exactly {KINGDOM_SIZE} cards")
    UNKNOWN_CARD = ("unknown_card", HTTPStatus.BAD_REQUEST,
        "no Kingdom card has this id")
    CARD_NOT_IN_EDITION = ("card_not_in_edition", HTTPStatus.BAD_REQUEST,
        "the card is not a Kingdom card of the chosen edition")
    DUPLICATE_CARD = ("duplicate_card", HTTPStatus.BAD_REQUEST,
        "a card is in the Kingdom list twice")
    BAD_PLAYERS = "bad_players"
    BAD_PLAYER_COUNT = "bad_player_count"
    BAD_SECRET_QUESTIONS = "bad_secret_questions"
    BAD_DISCARD_TOPS = "bad_discard_tops"
    BAD_BOTS = ("bad_bots", HTTPStatus.BAD_REQUEST,
        "bots maps seat numbers 1 to seats-1 to known strategy names")
    BAD_TIME_CONTROL = ("bad_time_control", HTTPStatus.BAD_REQUEST,
        "time_control is null (not at a rated table) or initial_seconds 30 to 10800 and "
        "increment_seconds 0 to 180, whole numbers")
    GAME_FULL = ("game_full", HTTPStatus.CONFLICT,
        "every seat of the table is taken")
    GAME_STARTED = ("game_started", HTTPStatus.CONFLICT,
        "the game has already started (or ended)")
    ALREADY_SEATED = ("already_seated", HTTPStatus.CONFLICT,
        "the account holds a seat at this table already, or one in another live rated game")
    """An account holds one seat at a table, and one in live rated games."""
    TOO_MANY_GAMES = ("too_many_games", HTTPStatus.TOO_MANY_REQUESTS,
        "this address already has as many open or running games as allowed, or the server as "
        "many open tables")
    RATED_NEEDS_ACCOUNT = ("rated_needs_account", HTTPStatus.FORBIDDEN,
        "a rated table is created and joined only by signed-in accounts (seats of in-server bots"
        " aside)")
    """A rated table is created and joined only by signed-in accounts (and in-server bots)."""
    # REST listings and downloads.
    BAD_PAGING = ("bad_paging", HTTPStatus.BAD_REQUEST,
        "limit or offset is not a whole number in range")
    BAD_CURSOR = ("bad_cursor", HTTPStatus.BAD_REQUEST,
        "an export's cursor is not one the server gave")
    BAD_FILTER = ("bad_filter", HTTPStatus.BAD_REQUEST,
        "a replay export filter is malformed or out of range")
    BAD_FORMAT = ("bad_format", HTTPStatus.BAD_REQUEST,
        "format is not json, msgpack or text")
    BAD_STATE = ("bad_state", HTTPStatus.BAD_REQUEST,
        "state is not one of the game states (for the export: not an ended one)")
    # HTTP.
    NOT_FOUND = ("not_found", HTTPStatus.NOT_FOUND,
        "no resource at this path")
    METHOD_NOT_ALLOWED = ("method_not_allowed", HTTPStatus.METHOD_NOT_ALLOWED,
        "the path exists but not with this method (see the Allow header)")
    UNKNOWN_HOST = ("unknown_host", HTTPStatus.MISDIRECTED_REQUEST,
        "the request arrived on a loopback address and its Host header names neither a loopback "
        "host nor public_url's host (a DNS-rebinding page's request: docs/SERVER.md, \"Threat "
        "model\")")
    TOO_MANY_CONNECTIONS = "too_many_connections"
    # The server's own state.
    STORAGE_UNAVAILABLE = ("storage_unavailable", HTTPStatus.SERVICE_UNAVAILABLE,
        "the server's storage is failing; it takes no new games now")
    CLUSTER_UNAVAILABLE = ("cluster_unavailable", HTTPStatus.SERVICE_UNAVAILABLE,
        "several nodes share a Redis that this node cannot reach now; it takes no new games and "
        "lists none until it can")
    # Accounts and sign-in (REST).
    BAD_ACCOUNT_NAME = ("bad_account_name", HTTPStatus.BAD_REQUEST,
        "an account name is 2 to 20 letters, marks (not first), numbers, '_', '-' and '.'")
    MIXED_SCRIPTS = ("mixed_scripts", HTTPStatus.BAD_REQUEST,
        "an account name mixes scripts (Latin and Cyrillic, say)")
    NAME_RESERVED = ("name_reserved", HTTPStatus.BAD_REQUEST,
        "the name is reserved (admin, bot, guest, the bots' strategies...)")
    NAME_TAKEN = ("name_taken", HTTPStatus.CONFLICT,
        "the name, or one that looks like it, is a registered player's (a guest may not take it;"
        " sign in as its owner)")
    WEAK_PASSWORD = ("weak_password", HTTPStatus.BAD_REQUEST,
        "a password is 8 to 256 characters, not one of the most common ones, and does not hold "
        "the name")
    WRONG_CREDENTIALS = ("wrong_credentials", HTTPStatus.UNAUTHORIZED,
        "no account has this name and password")
    WRONG_OLD_PASSWORD = ("wrong_old_password", HTTPStatus.FORBIDDEN,
        "the current password given is not the account's: nothing changed")
    NOT_SIGNED_IN = ("not_signed_in", HTTPStatus.UNAUTHORIZED,
        "no session cookie, or its session has ended")
    CROSS_SITE_REQUEST = ("cross_site_request", HTTPStatus.FORBIDDEN,
        "a browser sent this from another site's page (Origin or Sec-Fetch-Site)")
    ACCOUNTS_UNAVAILABLE = ("accounts_unavailable", HTTPStatus.SERVICE_UNAVAILABLE,
        "the account store cannot be reached now; games go on")
    # Personal access tokens and bot accounts (REST and the WebSocket's hello).
    TOKEN_INVALID = ("token_invalid", HTTPStatus.UNAUTHORIZED,
        "the Authorization header is not `Bearer` and a personal access token, or the token is "
        "mistyped, revoked or its account deleted")
    TOKEN_EXPIRED = ("token_expired", HTTPStatus.UNAUTHORIZED,
        "the personal access token has expired")
    SCOPE_MISSING = ("scope_missing", HTTPStatus.FORBIDDEN,
        "the token lacks the scope this needs (`read` to read, `play` for a person's account and"
        " `bot:play` for a bot's to play), or a token was sent where only the session may act")
    BAD_SCOPES = ("bad_scopes", HTTPStatus.BAD_REQUEST,
        "scopes is a list of distinct scopes of play, bot:play and read (a bot account's: no "
        "play)")
    BAD_TOKEN_REQUEST = ("bad_token_request", HTTPStatus.BAD_REQUEST,
        "description is a line of at most 100 characters; expires_in_days a whole number from 1 "
        "to 3650, or absent")
    TOO_MANY_TOKENS = ("too_many_tokens", HTTPStatus.CONFLICT,
        "the account holds 50 tokens: revoke one first")
    ALREADY_PLAYED = ("already_played", HTTPStatus.CONFLICT,
        "the account has taken a seat: it cannot become a bot account")
    BOT_ACCOUNT = ("bot_account", HTTPStatus.FORBIDDEN,
        "a bot account plays only with a bot:play token, never by its session")
    UNKNOWN_PLAYER = ("unknown_player", HTTPStatus.NOT_FOUND,
        "no account has this name, or it was deleted")
    BAD_CREDENTIAL = ("bad_credential", HTTPStatus.BAD_REQUEST,
        "credential is not a WebAuthn credential's JSON (toJSON())")
    BAD_PASSKEY_NAME = ("bad_passkey_name", HTTPStatus.BAD_REQUEST,
        "a passkey's name is 1 to 40 printable characters")
    PASSKEY_CHALLENGE_EXPIRED = ("passkey_challenge_expired", HTTPStatus.UNAUTHORIZED,
        "the answer names no live challenge of this ceremony and account: used already (each is "
        "good once), expired (after 120 s), or never issued")
    PASSKEY_REFUSED = ("passkey_refused", HTTPStatus.UNAUTHORIZED,
        "the passkey's answer does not verify: its origin, relying party, signature or sign "
        "counter, an unknown or already registered credential, or another account's")
    UNKNOWN_PASSKEY = ("unknown_passkey", HTTPStatus.NOT_FOUND,
        "the signed-in account has no passkey of this id")
    # Moderation (REST, and `chat` on the WebSocket).
    NOT_AN_ADMIN = ("not_an_admin", HTTPStatus.FORBIDDEN,
        "the signed-in account is not an admin")
    ACCOUNT_BANNED = ("account_banned", HTTPStatus.FORBIDDEN,
        "this account is banned (the message says until when and why)")
    ADDRESS_BANNED = ("address_banned", HTTPStatus.FORBIDDEN,
        "the client's address prefix is banned")
    MUTED = "muted"
    UNKNOWN_ACCOUNT = ("unknown_account", HTTPStatus.NOT_FOUND,
        "no account has this name")
    BAD_REASON = ("bad_reason", HTTPStatus.BAD_REQUEST,
        "a reason is 1 to {MAX_REASON} characters on one line (a report's text 0 to "
        "{MAX_REPORT_TEXT}); a report's reason is one of {REPORT_REASONS}")
    BAD_DURATION = ("bad_duration", HTTPStatus.BAD_REQUEST,
        "seconds is a whole number from {SHORTEST_SANCTION_SECONDS} to "
        "{LONGEST_SANCTION_SECONDS} (or null for ever, except for a mute)")
    BAD_PREFIX = ("bad_prefix", HTTPStatus.BAD_REQUEST,
        "prefix is an IPv4 network of /8 or narrower or an IPv6 network of /16 or narrower, e.g."
        " 203.0.113.0/24 or 2001:db8::/48")
    ALREADY_REPORTED = ("already_reported", HTTPStatus.CONFLICT,
        "this seat has reported that seat in this game already")
    # Automatch (the WebSocket's `seek` and its answers).
    ALREADY_SEEKING = "already_seeking"
    NOT_SEEKING = "not_seeking"
    UNKNOWN_TABLE = "unknown_table"
    # Anything else.
    INTERNAL_ERROR = ("internal_error", HTTPStatus.INTERNAL_SERVER_ERROR,
        "the server failed; the request may be retried")


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
