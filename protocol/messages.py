"""Every message, both directions, as frozen dataclasses of annotated fields.

`TYPE` is the frame's "type". Field order is the order fields are encoded in,
after "type". docs/PROTOCOL.md describes each message for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar

from .errors import ProtocolError
from .limits import (
    MAX_ANSWER_OPTIONS,
    MAX_CARDS,
    MAX_CHAT_LENGTH,
    MAX_GAME_ID_LENGTH,
    MAX_INT,
    MAX_NAME_LENGTH,
    MAX_OPTION_ID,
    MAX_TOKEN_LENGTH,
    MAX_UPDATE_EVENTS,
    MAX_VERSIONS,
)
from .spec import Bool, Choice, Int, Key, ListOf, Nullable, Omittable, Payload, Str, Struct

RequestId = Annotated[int, Int(0, MAX_INT)]
GameId = Annotated[str, Str(MAX_GAME_ID_LENGTH, min_len=1)]
Seq = Annotated[int, Int(0, MAX_INT)]
Name = Annotated[str, Str(MAX_NAME_LENGTH)]
ChatText = Annotated[str, Str(MAX_CHAT_LENGTH, min_len=1)]
Count = Annotated[int, Int(1, MAX_INT)]
SeatNumber = Annotated[int, Int(0, 255)]
TableId = Annotated[str, Str(MAX_GAME_ID_LENGTH, min_len=1)]
Seats = Annotated[tuple[int, ...], ListOf(Int(0, 255), 6)]


class RematchKingdom(StrEnum):
    """The Kingdom of a rematch."""

    SAME = "same"
    RANDOM = "random"
    """Ten Kingdom cards drawn afresh (of the same edition)."""


class RematchEnd(StrEnum):
    """Why a rematch offer ended without a new game."""

    DECLINED = "declined"
    EXPIRED = "expired"
    """Not every player accepted in time (the server's `rematch_seconds`)."""

class SeekState(StrEnum):
    """Where a seek stands (`seek_status`)."""

    WAITING = "waiting"
    """In the queue (again, at the front, after a table that was dissolved)."""
    ENDED = "ended"
    """The seek is over without a game: see `reason`."""


class MatchEnd(StrEnum):
    """Why a table formed by automatch was dissolved, or a seek ended."""

    DECLINED = "declined"
    LAPSED = "lapsed"
    """Not everyone accepted in time (the server's `automatch_confirm_seconds`)."""


class Unrated(StrEnum):
    """Why a rated table's game changed no rating (`rating_changed`)."""

    TOO_SHORT = "too_short"
    """A player resigned before beginning the server's `rated_min_turns` turns."""
    PAIR_LIMIT = "pair_limit"
    """Two of its players had played their day's counted rated games together."""


EVENT = Payload("An event as the recipient may see it (docs/PROTOCOL.md, 'Event map').",
                ("kind",))
DECISION = Payload("A pending decision as the recipient may see it "
                   "(docs/PROTOCOL.md, 'Decision map'): everyone gets id, player, kind, "
                   "prompt and source; the decider's copy also has min, max, ordered, "
                   "forced (true: its one answer is every option, in order) and options.",
                   ("id", "player", "kind", "prompt", "source"))
VIEW = Payload("The game as the recipient may see it (docs/PROTOCOL.md, 'View map').",
               ("viewer", "edition", "kingdom", "supply", "trash", "turn", "players",
                "decision", "result", "event_count"))
UPDATE_VIEW = Payload("The game as the recipient may see it after the change: the map a "
                      "`snapshot` at this `seq` would carry, without `decision` (the "
                      "update's own field) (docs/PROTOCOL.md, 'View map').",
                      tuple(key for key in VIEW.required if key != "decision"))
RESULT = Payload("Final scores (docs/PROTOCOL.md, 'Result map').",
                 ("scores", "turns", "winners", "decks"))
CARD = Payload("A catalogue entry (docs/PROTOCOL.md, 'Catalogue entry'); the server also "
               "sends `text_pl`, the card's text in Polish, and `name_sk`, `text_sk`, `name_lt`, "
               "`text_lt` in Slovak and Lithuanian.",
               ("id", "name", "name_pl", "cost", "types", "editions", "text", "kingdom"))


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's clock: a bank per player, and the increment added to a player's bank
    when their own turn ends ("10+5": 600 and 5)."""

    initial_seconds: Annotated[int, Int(1, MAX_INT)]
    increment_seconds: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class ClockState:
    """The players' clocks as of the moment the frame was made: a client counts the
    `running` seat's down from when it received the frame."""

    remaining_ms: Annotated[tuple[int, ...], ListOf(Int(0, MAX_INT), 6, min_len=2)]
    """One per seat."""
    running: Annotated[int | None, Nullable(Int(0, 255))]
    """The seat whose clock runs: the pending decision's player (an Attack's question
    runs its victim's); nil when none runs (a bot answers, or the game is over)."""
    initial_ms: Annotated[int, Int(0, MAX_INT)]
    increment_ms: Annotated[int, Int(0, MAX_INT)]


# Client to server: requests. Each carries an "id" the answer (ack or error) repeats.


@dataclass(frozen=True, slots=True)
class Hello:
    """Start the session: the major versions the client speaks, and the personal access
    token of the account it plays as, if any."""

    TYPE: ClassVar[str] = "hello"
    id: RequestId
    versions: Annotated[tuple[int, ...], ListOf(Int(1, 255), MAX_VERSIONS, min_len=1)]
    client: Annotated[str | None, Omittable(Str(MAX_NAME_LENGTH))] = None
    access_token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None

    def __repr__(self) -> str:  # never the access token, even in a traceback's locals
        return f"Hello(id={self.id}, versions={self.versions}, client={self.client!r})"


@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat in a game with its token, or, signed in with an access token, the
    account's seat (a free one if it holds none)."""

    TYPE: ClassVar[str] = "join"
    id: RequestId
    game: GameId
    token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch a game as a spectator."""

    TYPE: ClassVar[str] = "watch"
    id: RequestId
    game: GameId


@dataclass(frozen=True, slots=True)
class Resume:
    """Catch up after a reconnect: the missed events, or a fresh snapshot."""

    TYPE: ClassVar[str] = "resume"
    id: RequestId
    game: GameId
    last_seq: Seq
    token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None


@dataclass(frozen=True, slots=True)
class Answer:
    """Answer the pending decision with option ids."""

    TYPE: ClassVar[str] = "answer"
    id: RequestId
    game: GameId
    decision: Annotated[int, Int(0, MAX_INT)]
    options: Annotated[tuple[int, ...], ListOf(Int(0, MAX_OPTION_ID), MAX_ANSWER_OPTIONS)]


@dataclass(frozen=True, slots=True)
class Chat:
    """Say something to everyone in the game."""

    TYPE: ClassVar[str] = "chat"
    id: RequestId
    game: GameId
    text: ChatText


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up the game."""

    TYPE: ClassVar[str] = "resign"
    id: RequestId
    game: GameId


@dataclass(frozen=True, slots=True)
class Leave:
    """Stop receiving a game's pushes (the seat is kept)."""

    TYPE: ClassVar[str] = "leave"
    id: RequestId
    game: GameId


@dataclass(frozen=True, slots=True)
class Ping:
    """Answered with an ack."""

    TYPE: ClassVar[str] = "ping"
    id: RequestId


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Ask for every card; the ack carries them."""

    TYPE: ClassVar[str] = "catalogue"
    id: RequestId


@dataclass(frozen=True, slots=True)
class RematchOffer:
    """After the end, offer everyone at the table a new game with the same seats."""

    TYPE: ClassVar[str] = "rematch_offer"
    id: RequestId
    game: GameId
    kingdom: Annotated[RematchKingdom | None, Omittable(Choice(RematchKingdom))] = None
    """Left out: the same Kingdom."""


@dataclass(frozen=True, slots=True)
class RematchAnswer:
    """Accept or decline the rematch offered at this table."""

    TYPE: ClassVar[str] = "rematch_answer"
    id: RequestId
    game: GameId
    accept: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class Seek:
    """Ask for an automatch: the table sizes accepted, the edition, rated or not (rated
    needs an account). A guest gives a name, and after a reconnect the seek's token (of
    `seek_status`), which takes up the place it had."""

    TYPE: ClassVar[str] = "seek"
    id: RequestId
    sizes: Annotated[tuple[int, ...], ListOf(Int(2, 6), 5, min_len=1)]
    edition: Annotated[int, Int(1, 2)]
    rated: Annotated[bool, Bool()]
    name: Annotated[str | None, Omittable(Str(MAX_NAME_LENGTH))] = None
    token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None


@dataclass(frozen=True, slots=True)
class SeekCancel:
    """Stop waiting (a table offered is declined)."""

    TYPE: ClassVar[str] = "seek_cancel"
    id: RequestId


@dataclass(frozen=True, slots=True)
class MatchAccept:
    """Accept the table of `match_found`."""

    TYPE: ClassVar[str] = "match_accept"
    id: RequestId
    table: TableId


@dataclass(frozen=True, slots=True)
class MatchDecline:
    """Decline the table of `match_found`: the seek ends, and the next wait is longer."""

    TYPE: ClassVar[str] = "match_decline"
    id: RequestId
    table: TableId


# Server to client: answers to requests (with "id"), then pushes (without).


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """The server software's name and version."""

    name: Name
    version: Name


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """This connection's limits (docs/PROTOCOL.md, section 5)."""

    max_frame_bytes: Annotated[int, Int(1024, MAX_INT)]
    messages_per_second: Count
    burst: Count
    heartbeat_seconds: Count
    idle_timeout_seconds: Count
    max_chat_length: Annotated[int, Int(1, MAX_CHAT_LENGTH)]


@dataclass(frozen=True, slots=True)
class Welcome:
    """The handshake succeeded: the chosen version, server info, limits."""

    TYPE: ClassVar[str] = "welcome"
    id: RequestId
    version: Annotated[int, Int(1, 255)]
    server: Annotated[ServerInfo, Struct(ServerInfo)]
    limits: Annotated[ServerLimits, Struct(ServerLimits)]
    account: Annotated[str | None, Omittable(Str(MAX_NAME_LENGTH))] = None
    """The account the hello's access token signed in, if any."""


@dataclass(frozen=True, slots=True)
class Ack:
    """A request was carried out; may carry result fields."""

    TYPE: ClassVar[str] = "ack"
    id: RequestId
    seat: Annotated[int | None, Omittable(Int(0, 255))] = None
    """`join`, and `resume` with a token: the seat the token holds."""
    cards: Annotated[tuple[dict[str, Any], ...] | None, Omittable(ListOf(CARD, MAX_CARDS))] = None
    """`catalogue`: every card."""


@dataclass(frozen=True, slots=True)
class Error:
    """A request or frame was refused; `id` is nil when it could not be read."""

    TYPE: ClassVar[str] = "error"
    id: Annotated[int | None, Nullable(Int(0, MAX_INT))]
    code: Annotated[str, Str(64, min_len=1)]
    message: Annotated[str, Str(1000)]
    retry_after_ms: Annotated[int | None, Omittable(Int(1, MAX_INT))] = None
    """With `rate_limited`: how long until the server carries out a pipelined frame again."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The whole game as the recipient may see it, up to event `seq`."""

    TYPE: ClassVar[str] = "snapshot"
    game: GameId
    seq: Seq
    view: Annotated[dict[str, Any], VIEW]
    clocks: Annotated[ClockState | None, Omittable(Struct(ClockState))] = None
    """Absent when the table has no clock."""


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Version 1: one event, numbered per game without gaps (version 2 sends `update`)."""

    TYPE: ClassVar[str] = "event"
    game: GameId
    seq: Annotated[int, Int(1, MAX_INT)]
    event: Annotated[dict[str, Any], EVENT]


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """Version 1: the decision now pending, after the events that led to it, with options
    only for the decider (version 2 sends it in `update`)."""

    TYPE: ClassVar[str] = "decision"
    game: GameId
    decision: Annotated[dict[str, Any], DECISION]


@dataclass(frozen=True, slots=True)
class Update:
    """Version 2: one change as the recipient may see it, in one frame: its events,
    numbered up to `seq`, the decision now pending (nil once the game has ended, and
    `game_over` follows), and the game as it now stands (`view`: the client's state;
    the events are for its log). Version 1 sends `event` frames and a `decision`."""

    TYPE: ClassVar[str] = "update"
    game: GameId
    seq: Seq
    """The number of the last event in `events` (the game's event count)."""
    events: Annotated[tuple[dict[str, Any], ...], ListOf(EVENT, MAX_UPDATE_EVENTS)]
    decision: Annotated[dict[str, Any] | None, Nullable(DECISION)]
    view: Annotated[dict[str, Any], UPDATE_VIEW]
    clocks: Annotated[ClockState | None, Omittable(Struct(ClockState))] = None
    """Absent when the table has no clock."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line from `from`."""

    TYPE: ClassVar[str] = "chat"
    game: GameId
    sender: Annotated[str, Str(MAX_NAME_LENGTH), Key("from")]
    text: ChatText
    line: Annotated[int | None, Omittable(Int(1, MAX_INT))] = None
    """The line's number in the game, which `chat_removed` names (none from older servers)."""


@dataclass(frozen=True, slots=True)
class ChatRemoved:
    """An admin removed chat line `line` of the game: hide it (it is never sent again)."""

    TYPE: ClassVar[str] = "chat_removed"
    game: GameId
    line: Annotated[int, Int(1, MAX_INT)]


@dataclass(frozen=True, slots=True)
class GameAbandoned:
    """The game ended with no result (an admin ended it, or the server: an open table
    nobody joined in time): nothing more will happen in it."""

    TYPE: ClassVar[str] = "game_abandoned"
    game: GameId
    reason: Annotated[str, Str(1000)]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game has ended."""

    TYPE: ClassVar[str] = "game_over"
    game: GameId
    result: Annotated[dict[str, Any], RESULT]


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """A rematch stands: who offered it, who has accepted, whom it waits for."""

    TYPE: ClassVar[str] = "rematch_offered"
    game: GameId
    by: SeatNumber
    kingdom: Annotated[RematchKingdom, Choice(RematchKingdom)]
    accepted: Seats
    """The seats that accepted, bots (at once) and the offerer among them."""
    waiting: Seats
    """The seats yet to answer."""
    expires_ms: Annotated[int, Int(0, MAX_INT)]
    """How long the offer still stands."""


@dataclass(frozen=True, slots=True)
class RematchCancelled:
    """The offer ended without a new game: a player declined, or it expired."""

    TYPE: ClassVar[str] = "rematch_cancelled"
    game: GameId
    reason: Annotated[RematchEnd, Choice(RematchEnd)]
    by: Annotated[int | None, Omittable(Int(0, 255))] = None
    """`declined`: the seat that declined."""


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """Everyone accepted: the new game, and for a player their seat's token (sent to
    that seat's connection only)."""

    TYPE: ClassVar[str] = "rematch_started"
    game: GameId
    new_game: GameId
    seat: Annotated[int | None, Omittable(Int(0, 255))] = None
    token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None


@dataclass(frozen=True, slots=True)
class SeekStatus:
    """Where the connection's seek stands: waiting (after `seek`, and again after a table
    was dissolved), or ended without a game."""

    TYPE: ClassVar[str] = "seek_status"
    state: Annotated[SeekState, Choice(SeekState)]
    waited_ms: Annotated[int, Int(0, MAX_INT)]
    """How long the seek has waited (a dissolved table keeps the wait)."""
    token: Annotated[str | None, Omittable(Str(MAX_TOKEN_LENGTH, min_len=1))] = None
    """A guest's: `seek` with it after a reconnect keeps the place."""
    reason: Annotated[MatchEnd | None, Omittable(Choice(MatchEnd))] = None
    """`ended`: you declined, or let a table lapse."""


@dataclass(frozen=True, slots=True)
class ShownRating:
    """A rating as shown (docs/RATINGS.md): the number, and whether it is provisional."""

    rating: Annotated[int, Int(0, MAX_INT)]
    provisional: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class MatchFound:
    """A table was formed for you: accept it (`match_accept`) before the deadline."""

    TYPE: ClassVar[str] = "match_found"
    table: TableId
    size: Annotated[int, Int(2, 6)]
    edition: Annotated[int, Int(1, 2)]
    rated: Annotated[bool, Bool()]
    players: Annotated[tuple[str, ...], ListOf(Str(MAX_NAME_LENGTH), 6, min_len=2)]
    deadline_ms: Annotated[int, Int(0, MAX_INT)]
    """How long the table waits for every answer."""
    ratings: Annotated[tuple[ShownRating, ...] | None,
                       Omittable(ListOf(Struct(ShownRating), 6, min_len=2))] = None
    """A rated table's: each player's rating in its pool, in the order of `players`."""
    time_control: Annotated[TimeControl | None, Omittable(Struct(TimeControl))] = None
    """The table's clock (absent: none)."""


@dataclass(frozen=True, slots=True)
class MatchCancelled:
    """The table was dissolved: someone declined, or let it lapse. Unless `seek_status`
    says your seek ended, you are back in the queue, at the front."""

    TYPE: ClassVar[str] = "match_cancelled"
    table: TableId
    reason: Annotated[MatchEnd, Choice(MatchEnd)]


@dataclass(frozen=True, slots=True)
class MatchReady:
    """Everyone accepted: the game, your seat and its token (as a `join` gives), and the
    game's WebSocket path (relative to the server: a cluster's proxy routes it)."""

    TYPE: ClassVar[str] = "match_ready"
    table: TableId
    game: GameId
    seat: SeatNumber
    token: Annotated[str, Str(MAX_TOKEN_LENGTH, min_len=1)]
    ws_url: Annotated[str, Str(200, min_len=1)]


@dataclass(frozen=True, slots=True)
class SeatRatingChange:
    """One account seat's rating in the game's pool, as shown (docs/RATINGS.md)."""

    seat: SeatNumber
    before: Annotated[int, Int(0, MAX_INT)]
    after: Annotated[int, Int(0, MAX_INT)]
    provisional: Annotated[bool, Bool()]
    """After the game: not settled yet (shown with a `?`)."""


@dataclass(frozen=True, slots=True)
class RatingChanged:
    """A rated table's game is rated: each account seat's rating before and after (the
    rating ledger applied it), or `unrated` and why, with no changes."""

    TYPE: ClassVar[str] = "rating_changed"
    game: GameId
    changes: Annotated[tuple[SeatRatingChange, ...], ListOf(Struct(SeatRatingChange), 6)]
    unrated: Annotated[Unrated | None, Omittable(Choice(Unrated))] = None


@dataclass(frozen=True, slots=True)
class Pong:
    """The server's heartbeat."""

    TYPE: ClassVar[str] = "pong"


ClientMessage = (Hello | Join | Watch | Resume | Answer | Chat | Resign | Leave | Ping | Catalogue
                 | RematchOffer | RematchAnswer | Seek | SeekCancel | MatchAccept
                 | MatchDecline)
ServerMessage = (Welcome | Ack | Error | Snapshot | GameEvent | PendingDecision | Update
                 | ChatLine | ChatRemoved | GameOver | GameAbandoned | RematchOffered
                 | RematchCancelled | RematchStarted | SeekStatus | MatchFound
                 | MatchCancelled | MatchReady | RatingChanged | Pong)

CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    cls.TYPE: cls
    for cls in (Hello, Join, Watch, Resume, Answer, Chat, Resign, Leave, Ping, Catalogue,
                RematchOffer, RematchAnswer, Seek, SeekCancel, MatchAccept, MatchDecline)
}
SERVER_MESSAGES: dict[str, type[ServerMessage]] = {
    cls.TYPE: cls
    for cls in (Welcome, Ack, Error, Snapshot, GameEvent, PendingDecision, Update, ChatLine,
                ChatRemoved, GameOver, GameAbandoned, RematchOffered, RematchCancelled,
                RematchStarted, SeekStatus, MatchFound, MatchCancelled, MatchReady,
                RatingChanged, Pong)
}


def error_for(error: ProtocolError) -> Error:
    """The `error` frame answering a frame the decoder refused."""
    return Error(error.request_id, error.code.value, error.message)
