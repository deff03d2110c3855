"""The lobby's bodies made outside the API, written by hand as JSON Schema: a game's
public summary (play/room.py), a listing's page (cluster/), the card catalogue (engine/),
and the set-up a new table takes (read by the lobby itself). The suite checks every
response against them (tests/server/restapi.py)."""

from __future__ import annotations

import re

from dominion.bots import STRATEGIES

from ..engine.setup import KINGDOM_SIZE, MAX_PLAYERS, MIN_PLAYERS, RECOMMENDED_KINGDOMS
from ..play.seat_tokens import TOKEN_BYTES
from ..play.summary import SeatLeft
from ..play.text import MAX_NAME_LENGTH
from ..settings import NODE_NAME
from ..time_control import MAX_INCREMENT_SECONDS, MAX_INITIAL_SECONDS, MIN_INITIAL_SECONDS
from .filters import CARD_ID, MAX_PAGE, STATES
from .models import TIMESTAMP, component, nullable, obj, ref

GAME_ID_PATTERN = rf"g-(?:{NODE_NAME.pattern}-)?[0-9a-f]{{12}}"
"""Every id `new_game_id` makes: a single server's `g-` and 12 hex digits, and behind
several nodes `g-NODE-` and 12 hex digits."""
WS_URL = {
    "type": "string", "pattern": rf"^/api/v1/ws\?game={GAME_ID_PATTERN}$",
    "description": "where to play this game: the WebSocket URL relative to the server's "
                   "base URL (`/api/v1/ws?game=ID`; with ws:// or wss:// for http:// or "
                   "https://). Behind one address with several nodes, `game` routes the "
                   "socket to the game's node (docs/PROTOCOL.md, section 1)."}
MAX_SEAT = MAX_PLAYERS - 1


def any_case(names: list[str]) -> str:
    """A pattern matching any of `names` in any case and spacing, as the server reads a
    recommended set's name."""
    def one(name: str) -> str:
        return r"\s+".join("".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c)
                                   for c in word) for word in name.split())
    return r"^\s*(?:" + "|".join(one(name) for name in names) + r")\s*$"


def _describe_sets(sets: dict[int, list[str]]) -> str:
    return "; ".join(f"edition {edition}: {', '.join(names)}" for edition, names in sets.items())


_SETS = {edition: list(names) for edition, names in sorted(RECOMMENDED_KINGDOMS.items())}
_SET_NAMES = sorted({n for names in _SETS.values() for n in names})
NAME = component("Name", {
    "type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": r"\S",
    "description": f"A display name: 1 to {MAX_NAME_LENGTH} characters, not only whitespace. "
                   "Leading and trailing whitespace is removed and the name is put in Unicode "
                   "NFC. Only letters, marks (not first), numbers, punctuation, symbols and "
                   "the plain space: control characters, format characters (zero-width, "
                   "bidirectional overrides), other separators, private-use and unassigned "
                   "code points and lone surrogates are refused (`bad_name`)."})
TOKEN = component("Token", {
    "type": "string", "pattern": f"^[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}$",
    "description": f"A seat token: {TOKEN_BYTES * 8} random bits, URL-safe base64. It is shown "
                   "once, kept by the server only as a hash, and never appears in any GET "
                   "response or log. Present it on the WebSocket to take the seat."})
SEAT = component("Seat", obj({
    "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEAT},
    "name": nullable({"type": "string"}) | {
        "description": "the player's name, a bot's label, or null for a free seat"},
    "bot": nullable({"type": "string", "enum": list(STRATEGIES)}) | {
        "description": "the strategy of the in-server bot that sits in this seat "
                       "from the start, else null (never a person's seat, though a "
                       "bot played it on: see `left`)"},
    "bot_account": {"type": "boolean",
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
}))
RESULT = component("Result", {
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
        "timed_out": {"type": "array", "items": {"type": "integer"},
                      "description": "seats resigned because their clocks ran out; "
                                     "absent when none did"},
        "abandoned": {"type": "boolean"},
    },
    "required": ["scores", "turns", "winners"],
})
TIME_CONTROL = component("TimeControl", obj({
    "initial_seconds": {"type": "integer", "minimum": MIN_INITIAL_SECONDS,
                        "maximum": MAX_INITIAL_SECONDS,
                        "description": "each player's bank at the start"},
    "increment_seconds": {"type": "integer", "minimum": 0, "maximum": MAX_INCREMENT_SECONDS,
                          "description": "added to a player's bank when their own turn "
                                         "ends"},
}, description="A table's clock: 10+5 is 600 and 5."))
GAME_SUMMARY = component("GameSummary", obj({
    "id": {"type": "string", "pattern": f"^{GAME_ID_PATTERN}$",
           "description": "g- and 12 hex digits; behind several nodes, g-NODE- and "
                          "12 hex digits (docs/HOSTING.md)"},
    "state": {"type": "string", "enum": list(STATES),
              "description": "open (waiting for players; it lapses to abandoned "
                             "when nobody takes a free seat for "
                             "open_table_seconds), playing, finished, abandoned"},
    "edition": {"type": "integer", "enum": [1, 2]},
    "kingdom": {"type": "array", "items": CARD_ID, "minItems": KINGDOM_SIZE,
                "maxItems": KINGDOM_SIZE, "uniqueItems": True},
    "kingdom_name": nullable({"type": "string", "enum": _SET_NAMES}) | {
        "description": "the recommended set chosen by name, else null"},
    "seats": {"type": "array", "items": ref(SEAT), "minItems": MIN_PLAYERS,
              "maxItems": MAX_PLAYERS},
    "created_at": TIMESTAMP,
    "started_at": nullable(TIMESTAMP),
    "finished_at": nullable(TIMESTAMP),
    "commitment": nullable({"type": "string", "pattern": "^[0-9a-f]{64}$"}) | {
        "description": "SHA-256 of the secret seed's decimal digits, published at the "
                       "start; the seed itself is never sent while the game runs"},
    "spectator_chat": {"type": "boolean",
                       "description": "whether spectators may chat (players always "
                                      "may)"},
    "rated": {"type": "boolean",
              "description": "a rated table: every seat an account or an in-server "
                             "bot; its result counts for the players' ratings"},
    "time_control": nullable(ref(TIME_CONTROL)) | {
        "description": "the table's clock (docs/PROTOCOL.md, section 9.6); null: none"},
    "turn": {"type": "integer", "minimum": 0},
    "result": nullable(ref(RESULT)),
}, description="A game's public summary: never a token or a secret."))
GAME_LIST = component("GameList", obj({
    "games": {"type": "array", "items": ref(GAME_SUMMARY)},
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
}, required=["games", "total", "limit", "offset"]))
CREATE_GAME_REQUEST = component("CreateGameRequest", obj({
    "name": ref(NAME) | {"description": "the creator's display name (seat 0)"},
    "seats": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
    "edition": {"type": "integer", "enum": [1, 2], "default": 2},
    "kingdom": {
        "description": f"null or absent: a random Kingdom; a string: a recommended set "
                       f"of the edition ({_describe_sets(_SETS)}; in any case: "
                       f"'first game' is First Game); a list: "
                       f"{KINGDOM_SIZE} different Kingdom card ids of the edition",
        "default": None,
        "oneOf": [
            {"type": "null"},
            {"type": "string", "pattern": any_case(_SET_NAMES)},
            {"type": "array", "items": CARD_ID, "minItems": KINGDOM_SIZE,
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
        "propertyNames": {"pattern": f"^[1-{MAX_SEAT}]$"},
        "additionalProperties": {"type": "string", "enum": list(STRATEGIES)},
    },
    "spectator_chat": {"type": "boolean", "default": True,
                       "description": "false: only the players may chat"},
    "rated": {"type": "boolean", "default": False,
              "description": "true: a rated table (docs/RATINGS.md); only a signed-in "
                             "creator may ask, and only accounts may join it"},
    "time_control": nullable(ref(TIME_CONTROL)) | {
        "description": "the table's clock; null: none (not at a rated table); absent: the "
                       "server's default (rated_time_control or unrated_time_control, "
                       "docs/SERVER.md)"},
}, required=["name", "seats"], closed=False,
    description="Other members are ignored."))
CARD = component("Card", obj({
    "id": CARD_ID,
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
             "kingdom"]))
CARDS = component("Cards", obj({
    "editions": obj({
        "1": {"type": "array", "items": ref(CARD)},
        "2": {"type": "array", "items": ref(CARD)},
    }, description="edition -> its cards (base cards and Kingdom cards)"),
    "kingdoms": obj({
        edition: {"type": "object", "additionalProperties": {
            "type": "array", "items": CARD_ID, "minItems": 10, "maxItems": 10}}
        for edition in ("1", "2")
    }, description="edition -> the recommended Kingdoms' names and cards (a name "
                   "is what `kingdom` takes when creating a table)"),
}))
