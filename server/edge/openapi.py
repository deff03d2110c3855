"""The OpenAPI 3.1 document of the REST lobby, built as Python data from the code's own limits.

Every response body the REST handlers send has a schema under `components/schemas`, and every
refusal an operation can give is listed with its HTTP status and its stable error codes
(tests/server/test_openapi.py and test_rest.py check real responses against this document).
"""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

from dominion.clients.bots import STRATEGIES
from dominion.protocol import SUBPROTOCOL, SUBPROTOCOLS, SUPPORTED_VERSIONS, ErrorCode

from ..accounts.moderation import (
    LONGEST_SANCTION_SECONDS,
    MAX_REASON,
    MAX_REPORT_TEXT,
    SHORTEST_SANCTION_SECONDS,
    AdminAction,
    ReportReason,
    SanctionKind,
)
from ..accounts.moderation import PAGE_MAX as ADMIN_PAGE_MAX
from ..accounts.store import LAST_ID
from ..engine.setup import KINGDOM_SIZE, MAX_PLAYERS, MIN_PLAYERS, RECOMMENDED_KINGDOMS
from ..play.room import SeatLeft
from ..play.text import MAX_NAME_LENGTH
from ..play.tokens import TOKEN_BYTES
from ..ratings import Pool
from ..settings import NODE_NAME
from ..storage.records import ENDED, ENDED_STATES
from .filters import EXPORT_MAX, MAX_OFFSET, MAX_PAGE, STATES
from .health import Dependency, DependencyState
from .ratings_api import LEADERBOARD_PAGE
from .ratings_api import MAX_PAGE as RATINGS_PAGE

JSON = "application/json"
Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Schema], *, required: list[str] | None = None,
        description: str = "", closed: bool = True) -> Schema:
    """An object schema; response objects are closed (no members beyond those documented)."""
    schema: Schema = {"type": "object", "properties": properties,
                      "required": list(properties) if required is None else required}
    if closed:
        schema["additionalProperties"] = False
    if description:
        schema["description"] = description
    return schema


def json_body(schema: Schema, description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


REST_CODES = tuple(code for code in ErrorCode if code.description)
"""Every error code a REST route may answer with."""
LIMITS = {"MAX_NAME_LENGTH": MAX_NAME_LENGTH, "MIN_PLAYERS": MIN_PLAYERS,
          "MAX_PLAYERS": MAX_PLAYERS, "KINGDOM_SIZE": KINGDOM_SIZE, "MAX_REASON": MAX_REASON,
          "MAX_REPORT_TEXT": MAX_REPORT_TEXT, "REPORT_REASONS": ", ".join(ReportReason),
          "SHORTEST_SANCTION_SECONDS": SHORTEST_SANCTION_SECONDS,
          "LONGEST_SANCTION_SECONDS": LONGEST_SANCTION_SECONDS}
"""The server's limits that error descriptions name (protocol/errors.py)."""


def described(code: ErrorCode) -> str:
    """What a refusal with `code` means over REST, the server's limits filled in."""
    return code.description.format_map(LIMITS)


def error(status_description: str, *codes: ErrorCode) -> dict[str, Any]:
    """A refusal: the Error body, with `code` narrowed to the codes this answer can carry."""
    listed = "; ".join(f"`{code}`: {described(code)}" for code in codes)
    schema: Schema = {
        "allOf": [ref("Error"),
                  {"properties": {"error": {"properties": {"code": {
                      "enum": [code.value for code in codes]}}}}}],
    }
    return json_body(schema, f"{status_description}. Codes: {listed}.")


BODY_ERRORS: dict[str, Any] = {
    "408": error("The body stopped arriving", ErrorCode.BODY_TIMEOUT),
    "413": error("The body is too large", ErrorCode.BODY_TOO_LARGE),
    "415": error("The body is not JSON", ErrorCode.UNSUPPORTED_MEDIA_TYPE),
}
SERVER_ERROR = {"500": error("The server failed", ErrorCode.INTERNAL_ERROR)}
ACCOUNTS_ERROR = {"503": error("The account store is unreachable", ErrorCode.ACCOUNTS_UNAVAILABLE)}
ACCOUNT_FILTER_ERRORS = {
    "429": error("Too many `account=` look-ups from this address (as profiles; "
                 "retry_after_ms)", ErrorCode.RATE_LIMITED),
    "503": error("Redis (several nodes only) or, for `account=`, the account store is "
                 "unreachable", ErrorCode.CLUSTER_UNAVAILABLE, ErrorCode.ACCOUNTS_UNAVAILABLE),
}
CROSS_SITE_ERROR = {"403": error("Sent from another site's page", ErrorCode.CROSS_SITE_REQUEST)}
TOKEN_USE_ERRORS = {
    "401": error("Not signed in, or a bad or expired access token", ErrorCode.NOT_SIGNED_IN,
                 ErrorCode.TOKEN_INVALID, ErrorCode.TOKEN_EXPIRED),
    "403": error("The access token lacks the scope", ErrorCode.SCOPE_MISSING),
}
"""What a route that a session or a bearer token may read answers (bearer.py)."""
SESSION_ONLY_ERRORS = {
    "401": error("Not signed in (or a malformed Authorization header)", ErrorCode.NOT_SIGNED_IN,
                 ErrorCode.TOKEN_INVALID),
    "403": error("Sent from another site's page, or with an access token (only the session "
                 "may do this)", ErrorCode.CROSS_SITE_REQUEST, ErrorCode.SCOPE_MISSING),
}
"""What a route only the session cookie may use answers (a token cannot make tokens)."""
PLAY_AS_ERRORS = {
    "401": error("A bad or expired access token", ErrorCode.TOKEN_INVALID,
                 ErrorCode.TOKEN_EXPIRED),
    "403": error("The access token lacks the scope to play as its account, or a bot "
                 "account's session tried to play", ErrorCode.SCOPE_MISSING,
                     ErrorCode.BOT_ACCOUNT),
}
"""What a route that plays as the request's account answers (bearer.py)."""
SEATING_ERRORS = PLAY_AS_ERRORS | {
    "403": error("The access token lacks the scope to play as its account, a bot account's "
                 "session tried to play, or a guest asked for a seat at a rated table",
                 ErrorCode.SCOPE_MISSING, ErrorCode.BOT_ACCOUNT, ErrorCode.RATED_NEEDS_ACCOUNT),
}
"""What a route that seats the request's account answers: rated tables seat accounts only."""


GAME_ID = rf"g-(?:{NODE_NAME.pattern}-)?[0-9a-f]{{12}}"
"""Every id `new_game_id` makes: a single server's `g-` and 12 hex digits, and behind
several nodes `g-NODE-` and 12 hex digits."""


def components() -> dict[str, Any]:
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": r"\S",
            "description": f"A display name: 1 to {MAX_NAME_LENGTH} characters, not only "
                           "whitespace. Leading and trailing whitespace is removed and the "
                           "name is put in Unicode NFC. Only letters, marks (not first), "
                           "numbers, punctuation, symbols and the plain space: control "
                           "characters, format characters (zero-width, bidirectional "
                           "overrides), other separators, private-use and unassigned code "
                           "points and lone surrogates are refused (`bad_name`)."}
    ws_url_schema = {
        "type": "string", "pattern": rf"^/api/v1/ws\?game={GAME_ID}$",
        "description": "where to play this game: the WebSocket URL relative to the server's "
                       "base URL (`/api/v1/ws?game=ID`; with ws:// or wss:// for http:// or "
                       "https://). Behind one address with several nodes, `game` routes the "
                       "socket to the game's node (docs/PROTOCOL.md, section 1)."}
    token = {
        "type": "string", "pattern": f"^[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}$",
        "description": f"A seat token: {TOKEN_BYTES * 8} random bits, URL-safe base64. It is "
                       "shown once, kept by the server only as a hash, and never appears in "
                       "any GET response or log. Present it on the WebSocket to take the seat.",
    }
    timestamp = {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$",
                 "description": "UTC, ISO 8601 to the second"}
    maybe_timestamp = {"anyOf": [timestamp, {"type": "null"}]}
    shown_rating: dict[str, Schema] = {
        "rating": {"type": "integer", "description": "the number shown: conservative, mu - "
                                                    "3 sigma (a new player's is 0)"},
        "provisional": {"type": "boolean", "description": "not settled yet"},
        "games": {"type": "integer", "minimum": 0, "description": "rated games played"},
    }
    token_fields: dict[str, Schema] = {
        "id": {"type": "integer", "minimum": 1},
        "description": {"type": "string", "maxLength": 100},
        "scopes": {"type": "array", "items": {"type": "string",
                                              "enum": ["play", "bot:play", "read"]}},
        "created_at": timestamp, "expires_at": maybe_timestamp,
        "last_used_at": maybe_timestamp}
    access_token = obj(token_fields, description="A personal access token, never its secret.")
    card_id = card_id_schema()
    sets = {edition: list(names) for edition, names in sorted(RECOMMENDED_KINGDOMS.items())}
    set_names = sorted({n for names in sets.values() for n in names})
    max_bot_seat = MAX_PLAYERS - 1
    states = {"type": "string", "enum": [state.value for state in DependencyState]}
    schemas: dict[str, Schema] = {
        "Error": obj({
            "error": obj({
                "code": {"type": "string", "enum": [code.value for code in REST_CODES],
                         "description": "stable, for programs"},
                "message": {"type": "string", "description": "for people"},
                "retry_after_ms": {"type": "integer", "minimum": 1,
                                   "description": "with `rate_limited` only: milliseconds "
                                                  "until the request may be paid for (also "
                                                  "in the Retry-After header, in seconds)"},
            }, required=["code", "message"]),
        }, description="Every refusal. Nothing was created or changed."),
        "Token": token,
        "Name": name,
        "Seat": obj({
            "seat": {"type": "integer", "minimum": 0, "maximum": max_bot_seat},
            "name": nullable({"type": "string"}) | {
                "description": "the player's name, a bot's label, or null for a free seat"},
            "bot": nullable({"type": "string", "enum": list(STRATEGIES)}) | {
                "description": "the strategy of the in-server bot that sits in this seat "
                               "from the start, else null (never a person's seat, though a "
                               "bot played it on: see `left`)"},
            ErrorCode.BOT_ACCOUNT: {"type": "boolean",
                            "description": "a bot account took this seat: a program plays "
                                           "it (mark it as a bot, as a seat with `bot`)"},
            "left": nullable({"type": "string", "enum": list(SeatLeft)}) | {
                "description": "why a bot played on for the person in this seat: "
                               "`resigned`, or `taken_over` (they stayed away past the grace "
                               "period; they may have come back since); else null"},
            "connected": {"type": "boolean",
                          "description": "whether a WebSocket connection holds this seat"},
            "account": {"type": "boolean",
                        "description": "whether a signed-in account took this seat: its "
                                       "name is the account's, whose profile is /@/NAME"},
        }),
        "Result": {
            "type": "object",
            "description": "How a game ended: the Result map of docs/PROTOCOL.md section 9.4; "
                           "an abandoned game has `abandoned: true` and no winners.",
            "properties": {
                "scores": {"type": "array", "items": {"type": "integer"}},
                "turns": {"type": "array", "items": {"type": "integer"}},
                "winners": {"type": "array", "items": {"type": "integer"}},
                "decks": {"type": "array", "items": {
                    "type": "object", "additionalProperties": {"type": "integer"}}},
                "resigned": {"type": "array", "items": {"type": "integer"}},
                "abandoned": {"type": "boolean"},
            },
            "required": ["scores", "turns", "winners"],
        },
        "GameSummary": obj({
            "id": {"type": "string", "pattern": f"^{GAME_ID}$",
                   "description": "g- and 12 hex digits; behind several nodes, g-NODE- and "
                                  "12 hex digits (docs/HOSTING.md)"},
            "state": {"type": "string", "enum": list(STATES),
                      "description": "open (waiting for players; it lapses to abandoned "
                                     "when nobody takes a free seat for "
                                     "open_table_seconds), playing, finished, abandoned"},
            "edition": {"type": "integer", "enum": [1, 2]},
            "kingdom": {"type": "array", "items": card_id, "minItems": KINGDOM_SIZE,
                        "maxItems": KINGDOM_SIZE, "uniqueItems": True},
            "kingdom_name": nullable({"type": "string", "enum": set_names}) | {
                "description": "the recommended set chosen by name, else null"},
            "seats": {"type": "array", "items": ref("Seat"), "minItems": MIN_PLAYERS,
                      "maxItems": MAX_PLAYERS},
            "created_at": timestamp,
            "started_at": nullable(timestamp),
            "finished_at": nullable(timestamp),
            "commitment": nullable({"type": "string", "pattern": "^[0-9a-f]{64}$"}) | {
                "description": "SHA-256 of the secret seed's decimal digits, published at the "
                               "start; the seed itself is never sent while the game runs"},
            "spectator_chat": {"type": "boolean",
                               "description": "whether spectators may chat (players always "
                                              "may)"},
            "rated": {"type": "boolean",
                      "description": "a rated table: every seat an account or an in-server "
                                     "bot; its result counts for the players' ratings"},
            "turn": {"type": "integer", "minimum": 0},
            "result": nullable(ref("Result")),
        }, description="A game's public summary: never a token or a secret."),
        "GameList": obj({
            "games": {"type": "array", "items": ref("GameSummary")},
            "total": {"type": "integer", "minimum": 0,
                      "description": "how many games match, over all pages"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
            "offset": {"type": "integer", "minimum": 0},
            "missing_nodes": {"type": "array", "items": {"type": "string"},
                              "description": "only when several nodes serve: the nodes "
                                             "that are stopped or did not answer (empty "
                                             "when every node answered). Their finished "
                                             "games are missing from this listing; their "
                                             "open and running games are listed, paused "
                                             "until the node is back"},
        }, required=["games", "total", "limit", "offset"]),
        "CreateGameRequest": obj({
            "name": ref("Name") | {"description": "the creator's display name (seat 0)"},
            "seats": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
            "edition": {"type": "integer", "enum": [1, 2], "default": 2},
            "kingdom": {
                "description": f"null or absent: a random Kingdom; a string: a recommended set "
                               f"of the edition ({_describe_sets(sets)}; in any case: "
                               f"'first game' is First Game); a list: "
                               f"{KINGDOM_SIZE} different Kingdom card ids of the edition",
                "default": None,
                "oneOf": [
                    {"type": "null"},
                    {"type": "string", "pattern": any_case(set_names)},
                    {"type": "array", "items": card_id, "minItems": KINGDOM_SIZE,
                     "maxItems": KINGDOM_SIZE, "uniqueItems": True},
                ],
            },
            "bots": {
                "type": "object", "default": {},
                "description": "which seats bots take, and their strategy: seat number (a "
                               "decimal string, 1 to seats-1; seat 0 is the creator's) to a "
                               "strategy name (`strong:1` to `strong:3`: the strong bot at "
                               "that level; `strong`: at the default one). A table whose "
                               "seats are all taken (by the creator and bots) starts at once.",
                "propertyNames": {"pattern": f"^[1-{max_bot_seat}]$"},
                "additionalProperties": {"type": "string", "enum": list(STRATEGIES)},
            },
            "spectator_chat": {"type": "boolean", "default": True,
                               "description": "false: only the players may chat"},
            "rated": {"type": "boolean", "default": False,
                      "description": "true: a rated table (docs/RATINGS.md); only a signed-in "
                                     "creator may ask, and only accounts may join it"},
        }, required=["name", "seats"], closed=False,
            description="Other members are ignored."),
        "CreatedGame": obj({
            "game": ref("GameSummary"),
            "seat": {"type": "integer", "const": 0},
            "token": ref("Token"),
            "ws_url": ws_url_schema,
        }),
        "JoinRequest": obj({"name": ref("Name")}, closed=False,
                           description="Other members are ignored."),
        "Joined": obj({
            "game": ref("GameSummary"),
            "seat": {"type": "integer", "minimum": 0, "maximum": max_bot_seat,
                     "description": "the seat taken: the lowest free one (seat 0 too, if "
                                    "its creator left)"},
            "token": ref("Token"),
            "ws_url": ws_url_schema,
        }),
        "LeaveRequest": obj({"token": ref("Token") | {
            "description": "the token of the seat to free"}}, closed=False,
            description="Other members are ignored."),
        "Left": obj({"left": {"type": "boolean", "const": True}}),
        "Limits": obj({
            "max_frame_bytes": {"type": "integer", "minimum": 1024, "maximum": 16384},
            "messages_per_second": {"type": "integer", "minimum": 1},
            "burst": {"type": "integer", "minimum": 1},
            "heartbeat_seconds": {"type": "integer", "minimum": 1},
            "idle_timeout_seconds": {"type": "integer", "minimum": 1},
            "max_chat_length": {"type": "integer", "minimum": 1, "maximum": 500},
            "seat_grace_seconds": {"type": "number", "minimum": 0},
            "games_per_address": {"type": "integer", "minimum": 0},
        }),
        "ServerInfo": obj({
            "name": {"type": "string"},
            "version": {"type": "string", "description": "the server package's version"},
            "protocol_versions": {"type": "array", "items": {"type": "integer"},
                                  "minItems": 1,
                                  "description": "WebSocket protocol versions spoken "
                                                 f"(now {list(SUPPORTED_VERSIONS)})"},
            "subprotocol": {"type": "string", "const": SUBPROTOCOL,
                            "description": "the newest version's WebSocket subprotocol"},
            "subprotocols": {"type": "array",
                             "items": {"type": "string", "enum": list(SUBPROTOCOLS)},
                             "description": "every subprotocol accepted, newest first"},
            "websocket": {"type": "string", "const": "/api/v1/ws"},
            "schema": {"type": "string", "const": "/api/v1/protocol/schema.json",
                       "description": "the JSON Schema of every protocol message"},
            "public_url": nullable({"type": "string"}),
            "bot_strategies": {"type": "array", "items": {"type": "string",
                                                          "enum": list(STRATEGIES)},
                               "description": "the strategies a table's bot seats may play"},
            "limits": ref("Limits"),
        }),
        "Card": obj({
            "id": card_id,
            "name": {"type": "string", "description": "English"},
            "name_pl": {"type": "string", "description": "Polish"},
            "cost": {"type": "integer", "minimum": 0},
            "types": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": [
                "treasure", "victory", "curse", "action", "attack", "reaction"]}},
            "editions": {"type": "array", "minItems": 1,
                         "items": {"type": "integer", "enum": [1, 2]}},
            "text": {"type": "string", "description": "English"},
            "text_pl": {"type": "string", "description": "Polish, in the Polish rulebook's "
                                                         "terms"},
            "kingdom": {"type": "boolean", "description": "whether it can be a Kingdom card"},
            "coins": {"type": "integer", "minimum": 0,
                      "description": "what a Treasure makes when played (absent otherwise)"},
            "vp": {"type": "integer", "description": "victory points when fixed (Victory "
                                                    "cards and Curses; absent otherwise)"},
            "vp_per_cards": {"type": "integer", "minimum": 1,
                             "description": "worth 1 VP per this many cards its owner has, "
                                            "rounded down (Gardens: 10); absent otherwise"},
        }, required=["id", "name", "name_pl", "cost", "types", "editions", "text", "text_pl",
                     "kingdom"]),
        "Cards": obj({
            "editions": obj({
                "1": {"type": "array", "items": ref("Card")},
                "2": {"type": "array", "items": ref("Card")},
            }, description="edition -> its cards (base cards and Kingdom cards)"),
            "kingdoms": obj({
                edition: {"type": "object", "additionalProperties": {
                    "type": "array", "items": card_id, "minItems": 10, "maxItems": 10}}
                for edition in ("1", "2")
            }, description="edition -> the recommended Kingdoms' names and cards (a name "
                           "is what `kingdom` takes when creating a table)"),
        }),
        "Replay": {
            "type": "object",
            "description": "A game's replay (format `dominion-replay`, described in "
                           "docs/REPLAYS.md). Complete once the game has ended (with its seed, "
                           "answers and every event); before that, only what a spectator may "
                           "see (no seed, no answers).",
            "properties": {
                "format": {"const": "dominion-replay"},
                "version": {"type": "integer"},
                "complete": {"type": "boolean"},
                "game": {"type": "object", "required": ["id", "state", "edition", "kingdom"]},
                "players": {"type": "array", "items": obj({
                    "seat": {"type": "integer", "minimum": 0},
                    "name": nullable({"type": "string"}),
                    "bot": nullable({"type": "string"}),
                })},
                "setup": nullable({"type": "object"}),
                "shuffle": {"type": "string"},
                "seed": nullable({"type": "string", "pattern": "^[0-9]+$"}),
                "commitment": nullable({"type": "string"}),
                "answers": nullable({"type": "array", "items": {"type": "object"}}),
                "events": {"type": "array", "items": {"type": "object"}},
                "events_by_answer": {
                    "type": "array", "items": {"type": "integer", "minimum": 0},
                    "description": "complete replays: the events once set up, then once "
                                   "each answer was applied"},
                "result": nullable(ref("Result")),
                "ending": nullable({"type": "object", "description":
                                    "complete replays: why the game ended and the points "
                                    "card by card (docs/REPLAYS.md)"}),
                "chat": {"type": "array", "items": {"type": "object"}},
            },
            "required": ["format", "version", "complete", "game", "players", "setup", "seed",
                         "commitment", "answers", "events", "result", "chat"],
        },
        "Account": obj({"account": obj({
            "id": {"type": "integer", "minimum": 1, "maximum": LAST_ID,
                   "description": "never reused: drawn at random below 2^53 (exact in "
                                  "JavaScript); older accounts keep their small ids"},
            "name": {"type": "string", "minLength": 2, "maxLength": 20},
            "bot": {"type": "boolean", "description": "a bot account (for ever)"},
            "created_at": timestamp,
        })}, description="The signed-in account (never its password or session)."),
        "NewToken": obj({
            "description": {"type": "string", "maxLength": 100},
            "scopes": {"type": "array", "minItems": 1, "uniqueItems": True,
                       "items": {"type": "string", "enum": ["play", "bot:play", "read"]}},
            "expires_in_days": {"type": "integer", "minimum": 1, "maximum": 3650},
        }, required=["scopes"], closed=False),
        "AccessToken": access_token,
        "CreatedToken": obj({"token": obj({**token_fields, "secret": {
            "type": "string", "pattern": "^dom_[A-Za-z0-9_-]{43}$",
            "description": "the token: shown here once, never again; send it as "
                           "`Authorization: Bearer`"}})}),
        "AccessTokens": obj({"tokens": {"type": "array", "items": access_token}}),
        "Revoked": obj({"revoked": {"type": "boolean", "const": True}}),
        "Credentials": obj({
            "name": {"type": "string", "minLength": 2, "maxLength": 20,
                     "description": "2 to 20 letters, marks, numbers, '_', '-' and '.', in "
                                    "one script; unique whatever its case and look-alike "
                                    "letters; not reserved"},
            "password": {"type": "string", "minLength": 8, "maxLength": 256,
                         "description": "not one of the 30,000 most common passwords"},
        }, closed=False),
        "Password": obj({"password": {"type": "string"}}, closed=False),
        "AccountGames": obj({"games": {"type": "array", "items": obj({
            "game": ref("GameSummary"),
            "seat": {"type": "integer", "minimum": 0, "maximum": max_bot_seat},
        })}, "missing_nodes": {"type": "array", "items": {"type": "string"},
                               "description": "behind several nodes: those that did not "
                                              "answer (their games are missing)"}},
            required=["games"],
            description="The account's seats in open and running games, newest first: "
                        "behind several nodes, every node's."),
        "Leaderboard": obj({
            "pool": {"type": "string", "enum": [pool.value for pool in Pool]},
            "total": {"type": "integer", "minimum": 0,
                      "description": "the pool's rated accounts and in-server bots, over all "
                                     "pages"},
            "limit": {"type": "integer", "minimum": 1, "maximum": RATINGS_PAGE},
            "offset": {"type": "integer", "minimum": 0},
            "players": {"type": "array", "items": obj({
                "rank": {"type": "integer", "minimum": 1},
                "name": {"type": "string"},
                **shown_rating,
                "bot": {"type": "boolean",
                        "description": "a bot account or an in-server bot"},
                "in_server": {"type": "boolean",
                              "description": "an in-server bot (its name is its strategy): a "
                                             "fixed point of the scale"},
            })},
        }, description="A page of a pool's leaderboard, highest shown rating first."),
        "PlayerRatings": obj({
            "player": {"type": "string"},
            "pools": obj({pool.value: obj({
                **shown_rating,
                "history": {"type": "array", "items": obj({
                    "game": {"type": "string"},
                    "finished_at": timestamp,
                    "rating": {"type": "integer",
                               "description": "the number shown after that game"},
                    "record_lost": {"type": "boolean", "description":
                                    "the game's record is gone from its node (restored "
                                    "from an older copy): it answers 404, its result "
                                    "stays counted"},
                }), "description": "the latest games, oldest first"},
                "bots": {"type": "array", "items": obj({
                    "bot": {"type": "string", "enum": list(STRATEGIES)},
                    "wins": {"type": "integer", "minimum": 0},
                    "losses": {"type": "integer", "minimum": 0},
                    "ties": {"type": "integer", "minimum": 0},
                }), "description": "the record against each in-server bot met in the pool "
                                   "(a game counts once per seat the bot held)"},
            }) for pool in Pool}),
        }, description="A player's ratings: 2-player (2p) and 3-6-player (3-6p)."),
        "AutomatchQueue": obj({
            "waiting": {"type": "object", "description": "table size (2 to 6) -> seeks "
                        "waiting that accept it (a seek of 3 or 4 counts for both)",
                        "additionalProperties": {"type": "integer", "minimum": 0}},
            "median_wait_seconds": {"type": "number", "minimum": 0},
        }, description="Automatch's queue: behind several nodes, every node's."),
        "Player": obj({"player": obj({
            "name": {"type": "string", "minLength": 2, "maxLength": 20},
            "created_at": timestamp,
        })}, description="An account's public facts."),
        "PasskeyOptions": {
            "type": "object", "required": ["challenge"],
            "description": "WebAuthn options in their JSON form (PublicKeyCredentialCreation"
                           "OptionsJSON or PublicKeyCredentialRequestOptionsJSON), for "
                           "PublicKeyCredential.parse*OptionsFromJSON",
            "properties": {"challenge": {"type": "string"}}},
        "Passkey": obj({
            "id": {"type": "integer", "minimum": 1},
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "created_at": timestamp,
            "last_used_at": nullable(timestamp),
        }, description="A passkey of the account's (never its key)."),
        "PasskeyCreated": obj({"passkey": ref("Passkey")}),
        "Passkeys": obj({"passkeys": {"type": "array", "items": ref("Passkey")}}),
        "PasskeyRegistration": obj({
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "credential": {"type": "object", "description": "the new credential's toJSON()"},
        }, closed=False),
        "PasskeySignIn": obj({
            "credential": {"type": "object", "description": "the assertion's toJSON()"},
        }, closed=False),
        "Removed": obj({"removed": {"type": "boolean", "const": True}}),
        "SignedOut": obj({"signed_out": {"type": "boolean", "const": True}}),
        **moderation_schemas(timestamp),
        "Deleted": obj({"deleted": {"type": "boolean", "const": True}}),
        "Health": obj({
            "status": {**states, "description": "ok: every dependency is ok; degraded: "
                                                "ready, but some dependency is not; down: "
                                                "not ready"},
            "ready": {"type": "boolean",
                      "description": "whether this node can serve its games (its database "
                                     "takes writes)"},
            "games": {"type": "integer", "minimum": 0},
            "connections": {"type": "integer", "minimum": 0},
            "dependencies": obj({name.value: obj({
                "state": states,
                "impact": {"type": "string",
                           "description": "what stops working while it is not ok"},
                "nodes": {"type": "array", "items": {"type": "string"},
                          "description": "(peers) the nodes whose heartbeat stopped"},
            }, required=["state"]) for name in Dependency}, required=[
                Dependency.STORAGE.value, Dependency.ACCOUNTS.value],
                description="redis and peers only on a node among several"),
        }),
        "Liveness": obj({"status": {"type": "string", "enum": ["ok"]}}),
        "ClusterHealth": obj({"nodes": {"type": "array", "items": obj({
            "node": {"type": "string"},
            "fresh": {"type": "boolean",
                      "description": "whether its heartbeat is current (false: dead, "
                                     "stopped or cut off from Redis)"},
            "ready": {**nullable({"type": "boolean"}),
                      "description": "as its current heartbeat says (null: none current)"},
            "heartbeat_age_seconds": {**nullable({"type": "number", "minimum": 0}),
                                      "description": "since its last heartbeat, by the "
                                                     "answering node's clock"},
            "connections": nullable({"type": "integer", "minimum": 0}),
            "live_games": nullable({"type": "integer", "minimum": 0}),
        })}}),
    }
    return {
        "schemas": schemas,
        "parameters": {
            "GameId": {"name": "game_id", "in": "path", "required": True,
                       "schema": {"type": "string"},
                       "description": "a game id, e.g. g-0123456789ab (or g-a-0123456789ab "
                                      "behind several nodes)"},
        },
    }


def any_case(names: list[str]) -> str:
    """A pattern matching any of `names` in any case and spacing, as the server reads a
    recommended set's name."""
    def one(name: str) -> str:
        return r"\s+".join("".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c)
                                   for c in word) for word in name.split())
    return r"^\s*(?:" + "|".join(one(name) for name in names) + r")\s*$"


def card_id_schema() -> Schema:
    return {"type": "string", "pattern": "^[a-z_]+$", "description": "a card id"}


def _describe_sets(sets: dict[int, list[str]]) -> str:
    return "; ".join(f"edition {edition}: {', '.join(names)}" for edition, names in sets.items())


def token_paths() -> dict[str, Any]:
    """Personal access tokens (server/edge/tokens_api.py) and bot accounts: the session
    only (a token cannot make tokens)."""
    return {
        "/api/v1/account/tokens": {
            "post": {
                "operationId": "createToken", "tags": ["accounts"],
                "summary": "Create a personal access token (its secret shown once)",
                "requestBody": {"required": True, "content": {JSON: {"schema": ref(
                    "NewToken")}}},
                "responses": {
                    "201": json_body(ref("CreatedToken"), "The token and its secret"),
                    "400": error("A bad request", ErrorCode.BAD_JSON, ErrorCode.BAD_SCOPES,
                                 ErrorCode.BAD_TOKEN_REQUEST),
                    **SESSION_ONLY_ERRORS,
                    "409": error("Too many tokens", ErrorCode.TOO_MANY_TOKENS),
                    **BODY_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR,
                },
            },
            "get": {
                "operationId": "listTokens", "tags": ["accounts"],
                "summary": "The account's tokens, without their secrets",
                "responses": {"200": json_body(ref("AccessTokens"), "The tokens"),
                              **SESSION_ONLY_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR},
            },
        },
        "/api/v1/account/tokens/{token_id}": {
            "parameters": [{"name": "token_id", "in": "path", "required": True,
                            "schema": {"type": "string"}, "description": "a token's id"}],
            "delete": {
                "operationId": "revokeToken", "tags": ["accounts"],
                "summary": "Revoke one of the account's tokens, at once on every node",
                "responses": {"200": json_body(ref("Revoked"), "Revoked"),
                              **SESSION_ONLY_ERRORS,
                              "404": error("No such token of this account's", ErrorCode.NOT_FOUND),
                              **SERVER_ERROR, **ACCOUNTS_ERROR},
            },
        },
        "/api/v1/account/bot": {"post": {
            "operationId": "becomeBot", "tags": ["accounts"],
            "summary": "Make the account a bot account: for ever, and only before it has "
                       "played",
            "description": "A bot account plays only with `bot:play` tokens, is marked as a "
                           "bot wherever its name is shown, and never plays by its session.",
            "responses": {"200": json_body(ref("Account"), "The bot account"),
                          **SESSION_ONLY_ERRORS,
                          "409": error("The account has played", ErrorCode.ALREADY_PLAYED),
                          **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
    }


def paths() -> dict[str, Any]:
    game_id = [{"$ref": "#/components/parameters/GameId"}]
    return {
        "/api/v1/server": {"get": {
            "operationId": "serverInfo", "tags": ["server"],
            "summary": "The server's name, version, protocol versions and limits",
            "responses": {"200": json_body(ref("ServerInfo"), "The server"), **SERVER_ERROR},
        }},
        "/api/v1/cards": {"get": {
            "operationId": "cards", "tags": ["server"],
            "summary": "The card catalogue, per edition",
            "responses": {"200": json_body(ref("Cards"), "Every card"), **SERVER_ERROR},
        }},
        "/api/v1/games": {
            "post": {
                "operationId": "createGame", "tags": ["games"],
                "summary": "Create a table",
                "description": "Creates a table with the creator in seat 0 and bots in the "
                               "seats asked for. When every seat is taken the game starts at "
                               "once. The token of seat 0 is returned only here. A refused "
                               "request creates nothing.",
                "requestBody": {"required": True, "content": {
                    JSON: {"schema": ref("CreateGameRequest")}}},
                "responses": {
                    "201": json_body(ref("CreatedGame"), "The table, and the creator's seat "
                                                         "and token"),
                    "400": error("A bad request", ErrorCode.BAD_JSON, ErrorCode.BAD_NAME,
                                 ErrorCode.BAD_SEATS,
                                 ErrorCode.BAD_EDITION, ErrorCode.BAD_KINGDOM,
                                     ErrorCode.UNKNOWN_KINGDOM_SET,
                                 ErrorCode.BAD_KINGDOM_SIZE, ErrorCode.UNKNOWN_CARD,
                                     ErrorCode.CARD_NOT_IN_EDITION,
                                 ErrorCode.DUPLICATE_CARD, ErrorCode.BAD_BOTS,
                                     ErrorCode.BAD_OPTION),
                    **BODY_ERRORS, **SEATING_ERRORS,
                    "409": error("The name is a registered player's, or the account holds a "
                                 "seat in another live rated game", ErrorCode.NAME_TAKEN,
                                 ErrorCode.ALREADY_SEATED),
                    "429": error("Too many games from this address (open at once, or "
                                 "created this hour)", ErrorCode.TOO_MANY_GAMES,
                                     ErrorCode.RATE_LIMITED),
                    **SERVER_ERROR,
                    "503": error("Storage is failing, or Redis or the account store is "
                                 "unreachable", ErrorCode.STORAGE_UNAVAILABLE,
                                     ErrorCode.CLUSTER_UNAVAILABLE,
                                 ErrorCode.ACCOUNTS_UNAVAILABLE),
                },
            },
            "get": {
                "operationId": "listGames", "tags": ["games"],
                "summary": "List games, newest first",
                "parameters": [
                    {"name": "state", "in": "query", "required": False,
                     "description": "only games in this state, or `ended` for finished "
                                    "and abandoned ones (all games if absent)",
                     "schema": {"type": "string", "enum": list(STATES)}},
                    *filter_parameters(MAX_PAGE, 20),
                ],
                "responses": {
                    "200": json_body(ref("GameList"), "A page of games"),
                    "400": error("Bad paging, state or filter", ErrorCode.BAD_PAGING,
                                 ErrorCode.BAD_STATE,
                                 ErrorCode.BAD_FILTER),
                    **SERVER_ERROR,
                    **ACCOUNT_FILTER_ERRORS,
                },
            },
        },
        "/api/v1/games/{game_id}": {
            "parameters": game_id,
            "get": {
                "operationId": "getGame", "tags": ["games"],
                "summary": "One game's public summary",
                "responses": {
                    "200": json_body(ref("GameSummary"), "The game"),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    **SERVER_ERROR,
                },
            },
        },
        "/api/v1/games/{game_id}/join": {
            "parameters": game_id,
            "post": {
                "operationId": "joinGame", "tags": ["games"],
                "summary": "Take the lowest free seat of an open table",
                "description": "The game starts as soon as its last seat is taken. The seat's "
                               "token is returned only here.",
                "requestBody": {"required": True, "content": {
                    JSON: {"schema": ref("JoinRequest")}}},
                "responses": {
                    "200": json_body(ref("Joined"), "The seat taken and its token"),
                    "400": error("A bad request", ErrorCode.BAD_JSON, ErrorCode.BAD_NAME),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "409": error("No seat can be taken, the account holds one, or the name "
                                 "is a registered player's", ErrorCode.GAME_FULL,
                                 ErrorCode.GAME_STARTED, ErrorCode.ALREADY_SEATED,
                                 ErrorCode.NAME_TAKEN),
                    **BODY_ERRORS, **SEATING_ERRORS,
                    **SERVER_ERROR,
                    **ACCOUNTS_ERROR,
                },
            },
        },
        "/api/v1/games/{game_id}/leave": {
            "parameters": game_id,
            "post": {
                "operationId": "leaveGame", "tags": ["games"],
                "summary": "Free your seat before the game starts",
                "description": "A running game cannot be left: resign over the WebSocket.",
                "requestBody": {"required": True, "content": {
                    JSON: {"schema": ref("LeaveRequest")}}},
                "responses": {
                    "200": json_body(ref("Left"), "The seat is free; its token is void"),
                    "400": error("A bad request", ErrorCode.BAD_JSON),
                    "403": error("The token holds no seat here", ErrorCode.BAD_TOKEN),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "409": error("The game has started", ErrorCode.GAME_STARTED),
                    **BODY_ERRORS,
                    **SERVER_ERROR,
                },
            },
        },
        "/api/v1/games/{game_id}/replay": {
            "parameters": game_id,
            "get": {
                "operationId": "downloadReplay", "tags": ["replays"],
                "summary": "Download one game's replay (docs/REPLAYS.md)",
                "description": "The format comes from the `format` parameter, else from the "
                               "Accept header (application/msgpack, text/plain), else JSON.",
                "parameters": [
                    {"name": "format", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["json", "msgpack", "text"]}},
                ],
                "responses": {
                    "200": {"description": "The replay, as an attachment", "content": {
                        JSON: {"schema": ref("Replay")},
                        "application/msgpack": {"schema": {
                            "type": "string", "contentMediaType": "application/msgpack",
                            "description": "the same map as the JSON replay, in msgpack"}},
                        "text/plain": {"schema": {
                            "type": "string", "description": "the game as players tell it"}},
                    }},
                    "400": error("A bad format", ErrorCode.BAD_FORMAT),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "429": error("This address has asked for too many replays for now",
                                 ErrorCode.RATE_LIMITED),
                    **SERVER_ERROR,
                },
            },
        },
        "/api/v1/replays/export": {"get": {
            "operationId": "exportReplays", "tags": ["replays"],
            "summary": "Ended games' replays (finished and abandoned) as NDJSON, newest "
                       "first, at a bounded rate",
            "parameters": [
                {"name": "state", "in": "query", "required": False,
                 "description": "only games that ended this way (`ended`, the default: "
                                "either way)",
                 "schema": {"type": "string", "enum": [*ENDED_STATES, ENDED]}},
                *filter_parameters(EXPORT_MAX, 100),
            ],
            "responses": {
                "200": {"description": "One Replay (JSON) a line", "content": {
                    "application/x-ndjson": {"schema": {"type": "string"},
                                             "x-itemSchema": ref("Replay")}},
                        "headers": {"X-Dominion-Missing-Nodes": {
                            "description": "Several nodes only: the comma-separated nodes "
                                           "that did not answer, whose games the export "
                                           "lacks (empty: every node answered)",
                            "schema": {"type": "string"}}}},
                "400": error("A bad filter", ErrorCode.BAD_FILTER, ErrorCode.BAD_PAGING,
                             ErrorCode.BAD_STATE),
                **SERVER_ERROR,
                **ACCOUNT_FILTER_ERRORS,
            },
        }},
        "/api/v1/protocol/schema.json": {"get": {
            "operationId": "protocolSchema", "tags": ["play"],
            "summary": "The JSON Schema of every WebSocket protocol message "
                       "(docs/PROTOCOL.md; generated from the decoder's definitions)",
            "responses": {
                "200": json_body({"type": "object", "required": ["$schema", "$defs"]},
                                 "A JSON Schema (draft 2020-12)"),
                **SERVER_ERROR,
            },
        }},
        "/api/v1/openapi.json": {"get": {
            "operationId": "openapi", "tags": ["server"],
            "summary": "This document",
            "responses": {
                "200": json_body({"type": "object", "required": ["openapi", "paths"]},
                                 "The OpenAPI 3.1 document"),
                **SERVER_ERROR,
            },
        }},
        "/api/v1/ws": {"get": {
            "operationId": "websocket", "tags": ["play"],
            "summary": "WebSocket play (protocol v2 or v1, binary msgpack frames)",
            "description": WEBSOCKET,
            "parameters": [
                {"name": "Upgrade", "in": "header", "required": True,
                 "schema": {"type": "string", "const": "websocket"}},
                {"name": "Sec-WebSocket-Protocol", "in": "header", "required": False,
                 "description": "the subprotocols the client speaks, newest first, "
                                f"for example `{', '.join(SUBPROTOCOLS)}`. Optional: the "
                                "hello decides the version. Without it the upgrade has "
                                "no subprotocol; with it, the server echoes the first name "
                                "it knows, and refuses the upgrade (400) when it knows "
                                "none",
                 "schema": {"type": "string"}},
            ],
            "responses": {
                "101": {"description": "Switching protocols: the version is settled by "
                                       "hello and welcome (docs/PROTOCOL.md)"},
                "400": _text("Not a WebSocket upgrade request, or no subprotocol offered "
                             "that this server speaks"),
                "403": _text("This Origin may not connect: it is not a bare "
                             "scheme://host[:port] naming public_url, the server's own "
                             "address or one of allowed_origins"),
                "429": _text("Too many connections from this address"),
            },
        }},
        **account_paths(),
        **token_paths(),
        **player_paths(),
        "/api/v1/automatch": {"get": {
            "operationId": "automatchQueue", "tags": ["games"],
            "summary": "Automatch's queue: seeks waiting per table size, the median wait",
            "description": "Seeking, accepting and playing are on the WebSocket "
                           "(docs/PROTOCOL.md, `seek`).",
            "responses": {
                "200": json_body(ref("AutomatchQueue"), "The queue now"),
                "429": error("Too many look-ups from this address (retry_after_ms)",
                             ErrorCode.RATE_LIMITED),
                **SERVER_ERROR,
                "503": error("Redis is unreachable", ErrorCode.CLUSTER_UNAVAILABLE),
            },
        }},
        **passkey_paths(),
        **admin_paths(),
        "/livez": {"get": {
            "operationId": "livez", "tags": ["operations"],
            "summary": "Liveness: the process answers (nothing else is checked)",
            "responses": {"200": json_body(ref("Liveness"), "Alive")},
        }},
        "/readyz": {"get": {
            "operationId": "readyz", "tags": ["operations"],
            "summary": "Readiness: whether this node can serve its games, and each "
                       "dependency's state",
            "responses": {
                "200": json_body(ref("Health"), "Ready (status ok or degraded)"),
                "503": json_body(ref("Health"), "Not ready: its database fails writes "
                                                "(status: down)"),
            },
        }},
        "/healthz": {"get": {
            "operationId": "healthz", "tags": ["operations"],
            "summary": "The former name of /readyz: the same answer",
            "responses": {
                "200": json_body(ref("Health"), "Ready (status ok or degraded)"),
                "503": json_body(ref("Health"), "Not ready: its database fails writes "
                                                "(status: down)"),
            },
        }},
        "/api/v1/cluster/health": {"get": {
            "operationId": "clusterHealth", "tags": ["operations"],
            "summary": "Every node the cluster's Redis knows: fresh or not, ready or not, "
                       "its heartbeat's age (empty for a single server)",
            "responses": {
                "200": json_body(ref("ClusterHealth"), "The nodes, by name"),
                **SERVER_ERROR,
                "503": error("Redis is unreachable", ErrorCode.CLUSTER_UNAVAILABLE),
            },
        }},
        "/metrics": {"get": {
            "operationId": "metrics", "tags": ["operations"],
            "summary": "Prometheus metrics (text exposition format)",
            "responses": {"200": {
                "description": "Connections, live games, answers, errors by code, and more",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }},
        }},
        "/": {"get": {
            "operationId": "webClient", "tags": ["web"],
            "summary": "The web client's page (docs/CLIENTS.md); revalidated on every load",
            "responses": {
                "200": {"description": "The page", "content": {"text/html": {
                    "schema": {"type": "string"}}}},
                "304": {"description": "The page has not changed (If-None-Match)"},
            },
        }},
        "/@/{name}": {"get": {
            "operationId": "webClientProfile", "tags": ["web"],
            "summary": "The web client's page, showing a player's profile",
            "parameters": [{"name": "name", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "The page", "content": {"text/html": {
                    "schema": {"type": "string"}}}},
                "304": {"description": "The page has not changed (If-None-Match)"},
            },
        }},
        "/guide": {"get": {
            "operationId": "playersGuide", "tags": ["web"],
            "summary": "The player's guide (docs/PLAYING.md): a redirect to this version's "
                       "copy among the web client's files",
            "responses": {"302": {"description": "Location: /web/{digest}/guide.html"}},
        }},
        "/web/{digest}/{path}": {"get": {
            "operationId": "webClientFile", "tags": ["web"],
            "summary": "A script, style sheet, licence or the player's guide of the web "
                       "client; cached for a year (a new version of the page has a new "
                       "digest)",
            "parameters": [
                {"name": "digest", "in": "path", "required": True,
                 "schema": {"type": "string"}},
                {"name": "path", "in": "path", "required": True,
                 "schema": {"type": "string"}},
            ],
            "responses": {
                "200": {"description": "The file", "content": {"text/javascript": {
                    "schema": {"type": "string"}}}},
                "404": error("No such file in this version of the page", ErrorCode.NOT_FOUND),
            },
        }},
    }


def passkey_paths() -> dict[str, Any]:
    """Passkeys (server/edge/passkeys_api.py): WebAuthn ceremonies, options then answers."""
    ceremony = {"429": error("Too many passkey requests from this address, or too many "
                             "failed sign-ins (retry_after_ms)", ErrorCode.RATE_LIMITED)}
    refused = (ErrorCode.PASSKEY_REFUSED, ErrorCode.PASSKEY_CHALLENGE_EXPIRED)
    options = json_body(ref("PasskeyOptions"), "The options; their challenge is good once, "
                                               "for 120 s")

    def body(schema: str) -> dict[str, Any]:
        return {"required": True, "content": {JSON: {"schema": ref(schema)}}}
    return {
        "/api/v1/account/passkeys/register/options": {"post": {
            "operationId": "passkeyRegistrationOptions", "tags": ["accounts"],
            "summary": "Options to make a passkey for the signed-in account",
            "description": "A discoverable credential (resident key), user verification "
                           "preferred; the account's passkeys are excluded.",
            "responses": {"200": options, **SESSION_ONLY_ERRORS, **ceremony,
                          **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/account/passkeys/register": {"post": {
            "operationId": "registerPasskey", "tags": ["accounts"],
            "summary": "Keep the passkey the authenticator made, under a name",
            "requestBody": body("PasskeyRegistration"),
            "responses": {
                "201": json_body(ref("PasskeyCreated"), "The passkey"),
                "400": error("A bad body", ErrorCode.BAD_JSON, ErrorCode.BAD_CREDENTIAL,
                             ErrorCode.BAD_PASSKEY_NAME),
                "401": error("Not signed in, or the answer does not verify",
                             ErrorCode.NOT_SIGNED_IN,
                             ErrorCode.TOKEN_INVALID, *refused),
                "403": SESSION_ONLY_ERRORS["403"],
                **BODY_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR,
            },
        }},
        "/api/v1/account/passkeys": {"get": {
            "operationId": "passkeys", "tags": ["accounts"],
            "summary": "The signed-in account's passkeys",
            "responses": {"200": json_body(ref("Passkeys"), "Oldest first"),
                          "401": SESSION_ONLY_ERRORS["401"],
                          "403": error("With an access token: only the session may do this",
                                       ErrorCode.SCOPE_MISSING),
                          **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/account/passkeys/{passkey_id}": {
            "parameters": [{"name": "passkey_id", "in": "path", "required": True,
                            "schema": {"type": "string", "pattern": r"^\d{1,18}$"}}],
            "delete": {
                "operationId": "removePasskey", "tags": ["accounts"],
                "summary": "Remove one of the signed-in account's passkeys",
                "responses": {
                    "200": json_body(ref("Removed"), "Removed: it signs no one in"),
                    **SESSION_ONLY_ERRORS,
                    "404": error("No such passkey of this account's (`not_found`: an id that is "
                                 "not a number)", ErrorCode.UNKNOWN_PASSKEY, ErrorCode.NOT_FOUND),
                    **SERVER_ERROR, **ACCOUNTS_ERROR,
                },
            },
        },
        "/api/v1/passkeys/sign-in/options": {"post": {
            "operationId": "passkeySignInOptions", "tags": ["accounts"],
            "summary": "Options to sign in with a passkey (no name: the authenticator "
                       "offers its accounts)",
            "responses": {"200": options, **CROSS_SITE_ERROR, **ceremony, **SERVER_ERROR,
                          **ACCOUNTS_ERROR},
        }},
        "/api/v1/passkeys/sign-in": {"post": {
            "operationId": "passkeySignIn", "tags": ["accounts"],
            "summary": "Sign in with a passkey's answer",
            "description": "Sets the session cookie as signIn does. Failures count as "
                           "failed sign-ins, per address and per account.",
            "requestBody": body("PasskeySignIn"),
            "responses": {
                "200": json_body(ref("Account"), "Signed in"),
                "400": error("A bad body", ErrorCode.BAD_JSON, ErrorCode.BAD_CREDENTIAL),
                "401": error("The answer does not verify", *refused),
                **CROSS_SITE_ERROR, **BODY_ERRORS, **ceremony, **SERVER_ERROR,
                **ACCOUNTS_ERROR,
            },
        }},
    }


def player_paths() -> dict[str, Any]:
    """Profiles (server/edge/players_api.py): public, no cookie needed."""
    name = [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"},
             "description": "an account's name (any case or look-alike spelling of it)"}]
    unknown = {"404": error("No account has this name, or it was deleted",
                            ErrorCode.UNKNOWN_PLAYER),
               "429": error("Too many profile requests from this address (retry_after_ms)",
                            ErrorCode.RATE_LIMITED)}
    return {
        "/api/v1/players/{name}": {"parameters": name, "get": {
            "operationId": "player", "tags": ["accounts"],
            "summary": "A player's profile: their name and when they joined",
            "responses": {"200": json_body(ref("Player"), "The player"), **unknown,
                          **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/players/{name}/ratings": {"parameters": name, "get": {
            "operationId": "playerRatings", "tags": ["accounts"],
            "summary": "A player's ratings per pool: the number shown, its history, the "
                       "record against each in-server bot",
            "responses": {"200": json_body(ref("PlayerRatings"), "The player's ratings"),
                          **unknown, **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/ratings/{pool}": {"parameters": [
            {"name": "pool", "in": "path", "required": True,
             "schema": {"type": "string", "enum": [pool.value for pool in Pool]},
             "description": "2p: 2-player games; 3-6p: 3 to 6 players"}], "get": {
            "operationId": "leaderboard", "tags": ["accounts"],
            "summary": "A pool's leaderboard: accounts and in-server bots, bots marked",
            "parameters": [
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": RATINGS_PAGE,
                            "default": LEADERBOARD_PAGE}},
                {"name": "offset", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET,
                            "default": 0}}],
            "responses": {
                "200": json_body(ref("Leaderboard"), "A page of the leaderboard"),
                "400": error("Bad paging", ErrorCode.BAD_PAGING),
                "404": error("No such pool", ErrorCode.NOT_FOUND),
                "429": unknown["429"], **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/players/{name}/games": {"parameters": name, "get": {
            "operationId": "playerGames", "tags": ["accounts"],
            "summary": "The games a player's account took a seat in, newest first",
            "description": "The listing's filters (listGames), narrowed to this account.",
            "parameters": [
                {"name": "state", "in": "query", "required": False,
                 "description": "only games in this state (`playing`: running), or `ended`",
                 "schema": {"type": "string", "enum": list(STATES)}},
                *filter_parameters(MAX_PAGE, 20),
            ],
            "responses": {
                "200": json_body(ref("GameList"), "A page of the player's games"),
                "400": error("Bad paging, state or filter", ErrorCode.BAD_PAGING,
                             ErrorCode.BAD_STATE,
                             ErrorCode.BAD_FILTER),
                **unknown, **SERVER_ERROR,
                "503": error("Redis or the account store is unreachable",
                             ErrorCode.CLUSTER_UNAVAILABLE, ErrorCode.ACCOUNTS_UNAVAILABLE),
            },
        }},
    }


def account_paths() -> dict[str, Any]:
    """Accounts (server/edge/accounts_api.py): a session cookie signs the browser in."""
    def credentials(summary: str) -> dict[str, Any]:
        return {"required": True, "content": {JSON: {"schema": ref("Credentials")}},
                "description": summary}
    cookie = ("Sets the session cookie `dominion-session` (HttpOnly, SameSite=Lax, Secure "
              "when public_url is https): a new random session every time, never one the "
              "client sent. ")
    throttled = {"429": error("Too many failed sign-ins or registrations for this account "
                              "or address, or too many passwords being checked (retry_after_ms)",
                              ErrorCode.RATE_LIMITED)}
    return {
        "/api/v1/account/register": {"post": {
            "operationId": "register", "tags": ["accounts"],
            "summary": "Register an account, and sign in as it",
            "description": cookie, "requestBody": credentials("The name and password"),
            "responses": {
                "201": json_body(ref("Account"), "The new account; signed in"),
                "400": error("A bad name or password", ErrorCode.BAD_JSON,
                             ErrorCode.BAD_ACCOUNT_NAME,
                             ErrorCode.MIXED_SCRIPTS, ErrorCode.NAME_RESERVED,
                                 ErrorCode.WEAK_PASSWORD),
                **CROSS_SITE_ERROR,
                "409": error("The name is taken", ErrorCode.NAME_TAKEN),
                **BODY_ERRORS, **throttled, **SERVER_ERROR, **ACCOUNTS_ERROR,
            },
        }},
        "/api/v1/account/sign-in": {"post": {
            "operationId": "signIn", "tags": ["accounts"],
            "summary": "Sign in with a name and password",
            "description": cookie + "The session the request's cookie held, if any, is "
                                    "ended. Failed attempts make the next ones wait longer, "
                                    "per account and per address.",
            "requestBody": credentials("The name and password"),
            "responses": {
                "200": json_body(ref("Account"), "Signed in"),
                "400": error("A bad body", ErrorCode.BAD_JSON),
                "401": error("No such name and password", ErrorCode.WRONG_CREDENTIALS),
                "403": error("Sent from another site's page, or the account is banned (the "
                             "message says until when and why)", ErrorCode.CROSS_SITE_REQUEST,
                             ErrorCode.ACCOUNT_BANNED),
                **BODY_ERRORS, **throttled, **SERVER_ERROR, **ACCOUNTS_ERROR,
            },
        }},
        "/api/v1/account/sign-out": {"post": {
            "operationId": "signOut", "tags": ["accounts"],
            "summary": "End this browser's session (signed in or not)",
            "responses": {"200": json_body(ref("SignedOut"), "Signed out; the cookie is "
                                                             "cleared"),
                          **CROSS_SITE_ERROR, **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/account/sign-out-everywhere": {"post": {
            "operationId": "signOutEverywhere", "tags": ["accounts"],
            "summary": "End every session of the signed-in account, on every device and node",
            "responses": {"200": json_body(ref("SignedOut"), "Every session ended"),
                          **SESSION_ONLY_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/account/games": {"get": {
            "operationId": "myGames", "tags": ["accounts"],
            "summary": "The signed-in account's open and running games (on every node)",
            "description": "Each with the account's seat; take it up with reclaimSeat.",
            "responses": {"200": json_body(ref("AccountGames"), "The games"),
                          **TOKEN_USE_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR},
        }},
        "/api/v1/games/{game_id}/reclaim": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "post": {
                "operationId": "reclaimSeat", "tags": ["accounts"],
                "summary": "A new token for the signed-in account's seat in this game",
                "description": "For another device of the same account: the seat's old "
                               "token stops holding it, and connections on it are closed "
                               "(4006). Shown once.",
                "responses": {
                    "200": json_body(ref("Joined"), "The seat and its new token"),
                    "401": error("Not signed in, or a bad or expired access token",
                                 ErrorCode.NOT_SIGNED_IN, ErrorCode.TOKEN_INVALID,
                                     ErrorCode.TOKEN_EXPIRED),
                    "403": error("Sent from another site's page, no seat of this "
                                 "account's in the game, a token without the scope to play, "
                                 "or a bot account's session", ErrorCode.CROSS_SITE_REQUEST,
                                 ErrorCode.NOT_A_PLAYER, ErrorCode.SCOPE_MISSING,
                                     ErrorCode.BOT_ACCOUNT),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "409": error("The game has ended", ErrorCode.GAME_OVER),
                    **SERVER_ERROR, **ACCOUNTS_ERROR,
                },
            },
        },
        "/api/v1/account": {
            "get": {
                "operationId": "whoAmI", "tags": ["accounts"],
                "summary": "The account this browser is signed in as",
                "responses": {"200": json_body(ref("Account"), "Signed in"),
                              **TOKEN_USE_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR},
            },
            "delete": {
                "operationId": "deleteAccount", "tags": ["accounts"],
                "summary": "Delete the signed-in account (its password again)",
                "description": "Its sign-in and sessions go at once; its games keep "
                               "`deleted player` in its seats; its name stays taken.",
                "requestBody": {"required": True, "content": {
                    JSON: {"schema": ref("Password")}}},
                "responses": {
                    "200": json_body(ref("Deleted"), "Deleted; the cookie is cleared"),
                    "400": error("A bad body", ErrorCode.BAD_JSON),
                    **SESSION_ONLY_ERRORS,
                    "401": error("Not signed in, or not this account's password",
                                 ErrorCode.NOT_SIGNED_IN, ErrorCode.WRONG_CREDENTIALS,
                                     ErrorCode.TOKEN_INVALID),
                    **BODY_ERRORS, **throttled, **SERVER_ERROR,
                    **ACCOUNTS_ERROR,
                },
            },
        },
    }


def moderation_schemas(timestamp: Schema) -> dict[str, Schema]:
    """What the admin routes and reports answer (server/accounts/moderation.py)."""
    when = nullable(timestamp)
    account_id = nullable({"type": "integer", "minimum": 1})
    party = obj({"seat": {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1},
                 "name": {"type": "string"}, "account_id": account_id})
    reason = {"type": "string", "minLength": 1, "maxLength": MAX_REASON}
    return {
        "Admin": obj({"admin": obj({"id": {"type": "integer", "minimum": 1},
                                    "name": {"type": "string"}})},
                     description="The signed-in admin."),
        "Sanction": obj({
            "id": {"type": "integer", "minimum": 1},
            "kind": {"type": "string", "enum": list(SanctionKind)},
            "account_id": account_id,
            "prefix": nullable({"type": "string"}),
            "reason": reason,
            "created_at": timestamp, "expires_at": when, "lifted_at": when,
            "by_account_id": {"type": "integer", "minimum": 1},
        }, description="A ban or mute of an account, or a ban of an address prefix; "
                       "expires_at null: for ever."),
        "Report": obj({
            "id": {"type": "integer", "minimum": 1},
            "game": {"type": "string", "pattern": f"^{GAME_ID}$"},
            "reporter": party, "reported": party,
            "reason": {"type": "string", "enum": list(ReportReason)},
            "text": {"type": "string", "maxLength": MAX_REPORT_TEXT},
            "created_at": timestamp,
        }),
        "AuditEntry": obj({
            "id": {"type": "integer", "minimum": 1},
            "at": timestamp,
            "admin_id": account_id,
            "admin": {"type": "string", "description": "the admin's name, or `the host` "
                                                       "(dominion-server admin)"},
            "action": {"type": "string", "enum": list(AdminAction)},
            "target": {"type": "string"},
            "reason": {"type": "string"},
        }),
        "SanctionRequest": obj({
            "name": {"type": "string", "description": "the account's name (bans, mutes)"},
            "prefix": {"type": "string",
                       "description": "the network (address bans), e.g. 203.0.113.0/24"},
            "reason": reason,
            "seconds": nullable({"type": "integer", "minimum": SHORTEST_SANCTION_SECONDS,
                                 "maximum": LONGEST_SANCTION_SECONDS}),
        }, required=["reason"], closed=False),
        "Reason": obj({"reason": reason}, closed=False),
        "ReportRequest": obj({
            "token": {"type": "string", "description": "the reporter's seat token"},
            "seat": {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1,
                     "description": "the reported player's seat"},
            "reason": {"type": "string", "enum": list(ReportReason)},
            "text": {"type": "string", "maxLength": MAX_REPORT_TEXT},
        }, required=["token", "seat", "reason"], closed=False),
        "ChatLines": obj({"lines": {"type": "array", "items": obj({
            "id": {"type": "integer", "minimum": 1},
            "at": {"type": "string"},
            "seat": nullable({"type": "integer", "minimum": 0}),
            "name": {"type": "string"}, "text": {"type": "string"},
            "removed_at": nullable({"type": "string"}),
        })}}, description="Every chat line of the game, removed ones too (for admins)."),
    }


def admin_paths() -> dict[str, Any]:
    """Moderation (server/edge/admin_api.py): admins only, except a player's report."""
    rate = {"429": error("Too many admin requests (or reports) from this address "
                         "(retry_after_ms)", ErrorCode.RATE_LIMITED)}
    who = {"401": error("Not signed in", ErrorCode.NOT_SIGNED_IN),
           "403": error("Not an admin", ErrorCode.NOT_AN_ADMIN), **rate, **SERVER_ERROR,
           **ACCOUNTS_ERROR}
    changing = who | {"403": error("Not an admin, or sent from another site's page",
                                   ErrorCode.NOT_AN_ADMIN, ErrorCode.CROSS_SITE_REQUEST),
                                       **BODY_ERRORS}
    game = [{"$ref": "#/components/parameters/GameId"}]
    paging = [{"name": "limit", "in": "query", "required": False,
               "schema": {"type": "integer", "minimum": 1, "maximum": ADMIN_PAGE_MAX,
                          "default": 50}},
              {"name": "offset", "in": "query", "required": False,
               "schema": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET,
                          "default": 0}}]
    bad_paging = {"400": error("limit or offset out of range", ErrorCode.BAD_PAGING)}

    def listing(operation: str, summary: str, key: str, item: str) -> dict[str, Any]:
        return {"get": {"operationId": operation, "tags": ["admin"], "summary": summary,
                        "parameters": paging, "responses": {
                            "200": json_body(obj({key: {"type": "array", "items": ref(item)}}),
                                             "Newest first"), **bad_paging, **who}}}

    def sanction(operation: str, summary: str, target: str, codes: tuple[ErrorCode, ...]
                 ) -> dict[str, Any]:
        return {"post": {
            "operationId": operation, "tags": ["admin"], "summary": summary,
            "description": f"`{target}`, `reason` and `seconds` (null or absent: for ever"
                           f"{'; a mute needs it' if operation == 'muteAccount' else ''}). "
                           "Kept in the audit log.",
            "requestBody": {"required": True,
                            "content": {JSON: {"schema": ref("SanctionRequest")}}},
            "responses": {
                "201": json_body(obj({"sanction": ref("Sanction")}), "The sanction"),
                "400": error("A bad body, reason, duration or prefix", ErrorCode.BAD_JSON,
                             ErrorCode.BAD_REASON, ErrorCode.BAD_DURATION, *codes),
                **changing,
                **({"404": error("No such account", ErrorCode.UNKNOWN_ACCOUNT)}
                   if target == "name" else {}),
            }}}

    return {
        "/api/v1/admin": {"get": {
            "operationId": "whoIsAdmin", "tags": ["admin"],
            "summary": "The signed-in admin (a 403 for anyone else: the web client shows "
                       "its admin page only on a 200)",
            "responses": {"200": json_body(ref("Admin"), "An admin"), **who}}},
        "/api/v1/admin/reports": listing("adminReports", "Players' reports of players",
                                         "reports", "Report"),
        "/api/v1/admin/audit": listing("adminAudit", "The audit log: every admin action",
                                       "entries", "AuditEntry"),
        "/api/v1/admin/sanctions": {"get": {
            "operationId": "adminSanctions", "tags": ["admin"],
            "summary": "The live bans and mutes",
            "responses": {"200": json_body(obj({"sanctions": {
                "type": "array", "items": ref("Sanction")}}), "Oldest first"), **who}}},
        "/api/v1/admin/bans": sanction(
            "banAccount", "Ban an account: its sessions end on every node, it cannot sign "
                          "in or play, its seats are resigned (a bot plays on)", "name", ()),
        "/api/v1/admin/mutes": sanction(
            "muteAccount", "Mute an account's chat for a time", "name", ()),
        "/api/v1/admin/address-bans": sanction(
            "banAddressPrefix", "Ban an IPv4 or IPv6 prefix on every node (HTTP and "
                                "WebSocket; open connections from it close, 4008)", "prefix",
            (ErrorCode.BAD_PREFIX,)),
        "/api/v1/admin/sanctions/{sanction_id}/lift": {
            "parameters": [{"name": "sanction_id", "in": "path", "required": True,
                            "schema": {"type": "integer", "minimum": 1}}],
            "post": {
                "operationId": "liftSanction", "tags": ["admin"],
                "summary": "End a live ban or mute early (with a reason, kept in the log)",
                "requestBody": {"required": True,
                                "content": {JSON: {"schema": ref("Reason")}}},
                "responses": {
                    "200": json_body(obj({"lifted": {"type": "boolean", "const": True}}),
                                     "Lifted"),
                    "400": error("A bad body or reason", ErrorCode.BAD_JSON, ErrorCode.BAD_REASON),
                    "404": error("No live sanction has this id", ErrorCode.NOT_FOUND),
                    **changing}}},
        "/api/v1/games/{game_id}/admin/chat": {
            "parameters": game,
            "get": {"operationId": "adminGameChat", "tags": ["admin"],
                    "summary": "Every chat line of a game of this node, removed ones too",
                    "responses": {
                        "200": json_body(ref("ChatLines"), "In order"),
                        "404": error("No such game", ErrorCode.UNKNOWN_GAME), **who}}},
        "/api/v1/games/{game_id}/admin/chat/{line}/remove": {
            "parameters": [*game, {"name": "line", "in": "path", "required": True,
                                   "schema": {"type": "integer", "minimum": 1}}],
            "post": {
                "operationId": "removeChatLine", "tags": ["admin"],
                "summary": "Remove a chat line for everyone (`chat_removed`); it stays in "
                           "the log, marked, and no replay holds it",
                "requestBody": {"required": True,
                                "content": {JSON: {"schema": ref("Reason")}}},
                "responses": {
                    "200": json_body(obj({"removed": {"type": "boolean", "const": True}}),
                                     "Removed"),
                    "400": error("A bad body or reason", ErrorCode.BAD_JSON, ErrorCode.BAD_REASON),
                    "404": error("No such game, or no such line to remove", ErrorCode.UNKNOWN_GAME,
                                 ErrorCode.NOT_FOUND),
                    **changing}}},
        "/api/v1/games/{game_id}/admin/abandon": {
            "parameters": game,
            "post": {
                "operationId": "abandonGame", "tags": ["admin"],
                "summary": "End a game with no result; its players are told "
                           "(`game_abandoned`)",
                "requestBody": {"required": True,
                                "content": {JSON: {"schema": ref("Reason")}}},
                "responses": {
                    "200": json_body(obj({"game": ref("GameSummary")}), "Abandoned"),
                    "400": error("A bad body or reason", ErrorCode.BAD_JSON, ErrorCode.BAD_REASON),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "409": error("The game has ended", ErrorCode.GAME_OVER),
                    **changing}}},
        "/api/v1/games/{game_id}/reports": {
            "parameters": game,
            "post": {
                "operationId": "reportPlayer", "tags": ["admin"],
                "summary": "Report another player of the game (once per seat of yours, "
                           "per seat)",
                "description": "The reporter is the seat its token holds.",
                "requestBody": {"required": True,
                                "content": {JSON: {"schema": ref("ReportRequest")}}},
                "responses": {
                    "201": json_body(obj({"report": ref("Report")}), "Reported"),
                    "400": error("A bad body, reason or text", ErrorCode.BAD_JSON,
                                 ErrorCode.BAD_REASON),
                    "403": error("The token holds no seat, or the seat is not another "
                                 "player's", ErrorCode.BAD_TOKEN, ErrorCode.NOT_A_PLAYER),
                    "404": error("No such game", ErrorCode.UNKNOWN_GAME),
                    "409": error("Reported already", ErrorCode.ALREADY_REPORTED),
                    **rate, **BODY_ERRORS, **SERVER_ERROR, **ACCOUNTS_ERROR}}},
    }


def _text(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"text/plain": {"schema": {"type": "string"}}}}


WEBSOCKET = (
    "Players and spectators play over a WebSocket at this path, with the subprotocol "
    f"`{SUBPROTOCOL}` (or an older one of {', '.join(SUBPROTOCOLS[1:])}) and binary msgpack "
    "frames: hello, join a seat with its token (from createGame or joinGame) or watch as a "
    "spectator, snapshots, updates (numbered events and the next decision), "
    "answers, chat, resign, game over and resume. The whole protocol is in docs/PROTOCOL.md; "
    "its limits are in GET /api/v1/server. Requests with an Origin header (browsers') must "
    "come from public_url, the server's own address or an allowed Origin."
)

DESCRIPTION = (
    "The lobby of an authoritative Dominion server (base game, first and second edition, "
    "2 to 6 players). Create a table, join or leave it, list and look at games; play over "
    "the WebSocket at /api/v1/ws (docs/PROTOCOL.md).\n\n"
    "Every refusal under /api/v1/ is a JSON body `{\"error\": {\"code\", \"message\"}}` "
    "(schema Error) with a stable code, and a refused request changes nothing. Besides the "
    "codes listed per operation, any path under /api/v1/ that does not exist answers 404 "
    "`not_found`, and a method a path does not have answers 405 `method_not_allowed` with an "
    "Allow header (so does any other path of the server, and a CONNECT). A request that "
    "arrives on a loopback address with a Host header that names neither a loopback "
    "host nor public_url's host answers 421 `unknown_host`, on every path, and a request "
    "from an address prefix an admin banned answers 403 `address_banned`, on every path "
    "(the WebSocket's upgrade too).\n\n"
    "A request that is not well-formed HTTP/1.1 (a method that is not a registered HTTP "
    "method, a request line or header that is too long or holds bytes HTTP does not allow, "
    "too many headers) never reaches this API: the HTTP layer answers it with a plain-text "
    "400 and closes the connection."
)


@cache
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Dominion server", "version": "1", "description": DESCRIPTION,
                 "license": {"name": "MIT", "identifier": "MIT"}},
        "servers": [{"url": "/"}],
        "tags": [
            {"name": "server", "description": "About the server"},
            {"name": "games", "description": "The lobby"},
            {"name": "play", "description": "WebSocket play: see docs/PROTOCOL.md"},
            {"name": "replays", "description": "Replays: see docs/REPLAYS.md"},
            {"name": "accounts", "description": "Accounts and sign-in: see docs/SERVER.md"},
            {"name": "admin", "description": "Moderation: see docs/SERVER.md"},
            {"name": "operations", "description": "Health and metrics"},
            {"name": "web", "description": "The web client, served as static files"},
        ],
        "paths": paths(),
        "components": components() | {"securitySchemes": {
            "session": {"type": "apiKey", "in": "cookie", "name": "dominion-session",
                        "description": "the web client's session, set by signIn"},
            "accessToken": {"type": "http", "scheme": "bearer",
                            "description": "a personal access token (`dom_…`, createToken) "
                                           "with the scope the operation needs; never in "
                                           "the query string"},
        }, "responses": {
            "NotFound": error("No resource at this path", ErrorCode.NOT_FOUND),
            "MethodNotAllowed": error("The path does not have this method",
                                      ErrorCode.METHOD_NOT_ALLOWED),
            "UnknownHost": error("The Host header is not one of this server's names",
                                 ErrorCode.UNKNOWN_HOST),
            "AddressBanned": error("The client's address is banned", ErrorCode.ADDRESS_BANNED),
        }},
    }


def filter_parameters(max_limit: int, default_limit: int) -> list[Schema]:
    """The query filters shared by the game listing and the replay export."""
    return [
        {"name": "player", "in": "query", "required": False,
         "schema": {"type": "string"}, "description": "a seat's exact name"},
        {"name": "account", "in": "query", "required": False,
         "schema": {"type": "string"},
         "description": "an account's name, in any case or look-alike spelling: the games "
                        "its seats were taken in (a profile's games), found by the account, "
                        "not by seat names; a name no account holds matches nothing"},
        {"name": "since", "in": "query", "required": False,
         "schema": {"type": "string"},
         "description": "ISO 8601 date or time, e.g. 2026-11-30 or 2026-11-30T12:00:00Z "
                        "(inclusive; ended games by when they ended, others by creation)"},
        {"name": "until", "in": "query", "required": False,
         "schema": {"type": "string"}, "description": "ISO 8601 date or time (exclusive)"},
        {"name": "edition", "in": "query", "required": False,
         "schema": {"type": "integer", "enum": [1, 2]}},
        {"name": "players", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS}},
        {"name": "card", "in": "query", "required": False, "schema": card_id_schema(),
         "description": "only games with this Kingdom card"},
        {"name": "limit", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 1, "maximum": max_limit,
                    "default": default_limit}},
        {"name": "offset", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0}},
    ]


def openapi_document() -> dict[str, Any]:
    """The document (a fresh copy: callers may change it)."""
    return copy.deepcopy(_document())
