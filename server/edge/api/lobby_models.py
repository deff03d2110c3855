"""The lobby's bodies made outside the API, declared once as typed models (models.py): a
game's public summary (play/room.py), a listing's page (cluster/), the card catalogue
(engine/), and the set-up a new table takes (read by the lobby itself). The OpenAPI
document is generated from them, and the suite checks every response against it
(tests/server/restapi.py). A name and a seat token are shared string schemas."""

from __future__ import annotations

import re

from dominion.bots import STRATEGIES, BotPace
from dominion.protocol import Unrated

from ...engine.setup import KINGDOM_SIZE, MAX_PLAYERS, MIN_PLAYERS, RECOMMENDED_KINGDOMS
from ...play.seat_tokens import TOKEN_BYTES
from ...play.summary import SeatLeft
from ...play.text import MAX_NAME_LENGTH
from ...settings import NODE_NAME
from ...time_control import MAX_INCREMENT_SECONDS, MAX_INITIAL_SECONDS, MIN_INITIAL_SECONDS
from .filters import CARD_ID, MAX_PAGE, STATES
from .models import TIMESTAMP, component, member, model, nullable, obj, ref

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
EDITION = {"type": "integer", "enum": [1, 2]}
BOT_PACE = {"type": "string", "enum": [pace.value for pace in BotPace]}
COUNT = {"type": "integer", "minimum": 0}
INDICES = {"type": "array", "items": {"type": "integer"}}


@model("An account's rating in the table's pool as it sat down (docs/RATINGS.md).")
class SeatRating:
    rating: int = member({"type": "integer", "minimum": 0}, "the number shown")
    provisional: bool = member({"type": "boolean"}, "not settled yet (shown with ?)")


@model()
class Seat:
    seat: int = member({"type": "integer", "minimum": 0, "maximum": MAX_SEAT})
    name: str | None = member(nullable({"type": "string"}),
                              "the player's name, a bot's label, or null for a free seat")
    bot: str | None = member(nullable({"type": "string", "enum": list(STRATEGIES)}),
                             "the strategy of the in-server bot that sits in this seat from "
                             "the start, else null (never a person's seat, though a bot "
                             "played it on: see `left`)")
    bot_account: bool = member({"type": "boolean"},
                               "a bot account took this seat: a program plays it (mark it as "
                               "a bot, as a seat with `bot`)")
    left: str | None = member(nullable({"type": "string", "enum": list(SeatLeft)}),
                              "why a bot played on for the person in this seat: `resigned`, "
                              "or `taken_over` (they stayed away past the grace period; they "
                              "may have come back since); else null")
    connected: bool = member({"type": "boolean"},
                             "whether a WebSocket connection holds this seat")
    account: bool = member({"type": "boolean"},
                           "whether a signed-in account took this seat: its name is the "
                           "account's, whose profile is /@/NAME")
    rating: SeatRating | None = member(ref("SeatRating"), "at a live rated table, the "
                                       "account's rating as it sat down; absent elsewhere",
                                       omitted_if_none=True)


@model("How a game ended: the Result map of docs/PROTOCOL.md section 9.4; an abandoned "
       "game has `abandoned: true` and no winners.", closed=False)
class Result:
    scores: list[int] = member(INDICES)
    turns: list[int] = member(INDICES)
    winners: list[int] = member(INDICES)
    decks: list[dict[str, int]] | None = member(
        {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "integer"}}},
        default=None)
    resigned: list[int] | None = member(INDICES, default=None)
    timed_out: list[int] | None = member(INDICES, "seats resigned because their clocks ran "
                                         "out; absent when none did", default=None)
    abandoned: bool | None = member({"type": "boolean"}, default=None)


@model("A table's clock: 10+5 is 600 and 5.")
class TimeControl:
    initial_seconds: int = member({"type": "integer", "minimum": MIN_INITIAL_SECONDS,
                                   "maximum": MAX_INITIAL_SECONDS},
                                  "each player's bank at the start")
    increment_seconds: int = member({"type": "integer", "minimum": 0,
                                     "maximum": MAX_INCREMENT_SECONDS},
                                    "added to a player's bank when their own turn ends")


@model("An account seat's rating in the game's pool before and after the game, as shown "
       "(docs/RATINGS.md).")
class RatingChange:
    seat: int = member({"type": "integer", "minimum": 0, "maximum": MAX_SEAT})
    before: int = member({"type": "integer", "minimum": 0})
    after: int = member({"type": "integer", "minimum": 0})
    provisional: bool = member({"type": "boolean"}, "after the game: not settled yet")


@model("What a rated game did to its players' ratings, once the rating ledger applied it "
       "(docs/PROTOCOL.md, `rating_changed`).")
class GameRatings:
    changes: list[RatingChange] = member({"type": "array", "items": ref("RatingChange")},
                                         "each account seat's (in-server bots' never move)")
    unrated: str | None = member(
        nullable({"type": "string", "enum": [reason.value for reason in Unrated]}),
        "nobody's rating changed: `too_short` (a player resigned before `rated_min_turns` "
        "turns of their own), `pair_limit` (two of its players had played their day's "
        "counted rated games together); else null")


@model("A game's public summary: never a token or a secret.")
class GameSummary:
    id: str = member({"type": "string", "pattern": f"^{GAME_ID_PATTERN}$"},
                     "g- and 12 hex digits; behind several nodes, g-NODE- and 12 hex digits "
                     "(docs/HOSTING.md)")
    state: str = member({"type": "string", "enum": list(STATES)},
                        "open (waiting for players; it lapses to abandoned when nobody takes a "
                        "free seat for open_table_seconds), playing, finished, abandoned")
    edition: int = member(EDITION)
    kingdom: list[str] = member({"type": "array", "items": CARD_ID, "minItems": KINGDOM_SIZE,
                                 "maxItems": KINGDOM_SIZE, "uniqueItems": True})
    kingdom_name: str | None = member(nullable({"type": "string", "enum": _SET_NAMES}),
                                      "the recommended set chosen by name, else null")
    seats: list[Seat] = member({"type": "array", "items": ref("Seat"),
                                "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS})
    created_at: str = member(TIMESTAMP)
    started_at: str | None = member(nullable(TIMESTAMP))
    finished_at: str | None = member(nullable(TIMESTAMP))
    commitment: str | None = member(nullable({"type": "string", "pattern": "^[0-9a-f]{64}$"}),
                                    "SHA-256 of the secret seed's decimal digits, published at "
                                    "the start; the seed itself is never sent while the game "
                                    "runs")
    spectator_chat: bool = member({"type": "boolean"},
                                  "whether spectators may chat (players always may)")
    rated: bool = member({"type": "boolean"},
                         "a rated table: every seat an account or an in-server bot; its result "
                         "counts for the players' ratings")
    time_control: TimeControl | None = member(nullable(ref("TimeControl")),
                                              "the table's clock (docs/PROTOCOL.md, section "
                                              "9.6); null: none")
    bot_pace: str = member(BOT_PACE, "how fast the in-server bots answer at this table "
                           "(`bot_pace` of createGame)")
    turn: int = member(COUNT)
    result: Result | None = member(nullable(ref("Result")))
    ratings: GameRatings | None = member(ref("GameRatings"), "one game's summary (getGame) of "
                                         "a finished rated game, once the rating ledger "
                                         "applied it", omitted_if_none=True)
    rating_change: RatingChange | None = member(ref("RatingChange"), "in a player's games "
                                                "(playerGames), a finished rated game: that "
                                                "player's own rating change, once the rating "
                                                "ledger applied it", omitted_if_none=True)


@model()
class GameList:
    games: list[GameSummary] = member({"type": "array", "items": ref("GameSummary")})
    total: int = member(COUNT, "how many games match, over all pages")
    limit: int = member({"type": "integer", "minimum": 1, "maximum": MAX_PAGE})
    offset: int = member(COUNT)
    missing_nodes: list[str] | None = member(
        {"type": "array", "items": {"type": "string"}},
        "only when several nodes serve: the nodes that are stopped or did not answer (empty "
        "when every node answered). Their finished games are missing from this listing; "
        "their open and running games are listed, paused until the node is back",
        omitted_if_none=True)


@model("Other members are ignored.", closed=False)
class CreateGameRequest:
    """The set-up of a new table, as the lobby reads it (lobby_api: `create_game`)."""

    name: object = member(ref(NAME), "the creator's display name (seat 0)")
    seats: object = member({"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS})
    edition: object = member(EDITION | {"default": 2}, default=2)
    kingdom: object = member({
        "default": None,
        "oneOf": [
            {"type": "null"},
            {"type": "string", "pattern": any_case(_SET_NAMES)},
            {"type": "array", "items": CARD_ID, "minItems": KINGDOM_SIZE,
             "maxItems": KINGDOM_SIZE, "uniqueItems": True},
        ],
    }, f"null or absent: a random Kingdom; a string: a recommended set of the edition "
       f"({_describe_sets(_SETS)}; in any case: 'first game' is First Game); a list: "
       f"{KINGDOM_SIZE} different Kingdom card ids of the edition", default=None)
    bots: object = member({
        "type": "object", "default": {},
        "propertyNames": {"pattern": f"^[1-{MAX_SEAT}]$"},
        "additionalProperties": {"type": "string", "enum": list(STRATEGIES)},
    }, "which seats bots take, and their strategy: seat number (a decimal string, 1 to "
       "seats-1; seat 0 is the creator's) to a strategy name (`strong:1` to `strong:3`: the "
       "strong bot at that level; `strong`: at the default one). A table whose seats are all "
       "taken (by the creator and bots) starts at once.", default=None)
    spectator_chat: object = member({"type": "boolean", "default": True},
                                    "false: only the players may chat", default=True)
    rated: object = member({"type": "boolean", "default": False},
                           "true: a rated table (docs/RATINGS.md); only a signed-in creator "
                           "may ask, and only accounts may join it", default=False)
    time_control: object = member(nullable(ref("TimeControl")),
                                  "the table's clock; null: none (not at a rated table); "
                                  "absent: the server's default (rated_time_control or "
                                  "unrated_time_control, docs/SERVER.md)", default=None)
    bot_pace: object = member(BOT_PACE, "how fast the in-server bots answer, so that people "
                              "can follow their moves: instant, fast, normal or slow (0, "
                              "0.3, 0.8 or 1.5 seconds before each answer; spectators see the "
                              "same). Absent: the server's `bot_pace` (docs/SERVER.md), "
                              "instant at a bot account's table", default=None)


@model()
class Card:
    id: str = member(CARD_ID)
    name: str = member({"type": "string"}, "English")
    name_pl: str = member({"type": "string"}, "Polish")
    name_sk: str = member({"type": "string"}, "Slovak")
    name_lt: str = member({"type": "string"}, "Lithuanian")
    cost: int = member(COUNT)
    types: list[str] = member({"type": "array", "minItems": 1, "items": {
        "type": "string",
        "enum": ["treasure", "victory", "curse", "action", "attack", "reaction"]}})
    editions: list[int] = member({"type": "array", "minItems": 1, "items": EDITION})
    text: str = member({"type": "string"}, "English")
    text_pl: str = member({"type": "string"}, "Polish, in the Polish rulebook's terms")
    text_sk: str = member({"type": "string"}, "Slovak")
    text_lt: str = member({"type": "string"}, "Lithuanian")
    kingdom: bool = member({"type": "boolean"}, "whether it can be a Kingdom card")
    coins: int | None = member(COUNT, "what a Treasure makes when played (absent otherwise)",
                               omitted_if_none=True)
    vp: int | None = member({"type": "integer"}, "victory points when fixed (Victory cards "
                            "and Curses; absent otherwise)", omitted_if_none=True)
    vp_per_cards: int | None = member({"type": "integer", "minimum": 1},
                                      "worth 1 VP per this many cards its owner has, rounded "
                                      "down (Gardens: 10); absent otherwise",
                                      omitted_if_none=True)


@model()
class Cards:
    editions: dict[str, list[Card]] = member(obj({
        "1": {"type": "array", "items": ref("Card")},
        "2": {"type": "array", "items": ref("Card")},
    }, description="edition -> its cards (base cards and Kingdom cards)"))
    kingdoms: dict[str, dict[str, list[str]]] = member(obj({
        edition: {"type": "object", "additionalProperties": {
            "type": "array", "items": CARD_ID, "minItems": 10, "maxItems": 10}}
        for edition in ("1", "2")
    }, description="edition -> the recommended Kingdoms' names and cards (a name is what "
                   "`kingdom` takes when creating a table)"))

