"""What a replay says for analysts beyond the game itself: each seat's kind and public
account id, rated or not, the time control, the first player, why the game ended, and
the turn each event belongs to (docs/REPLAYS.md, "What analysts read").

Pure functions of storage's records and the replayed events, so that an export, a
download and a dump say the same thing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ..engine import EventKind

if TYPE_CHECKING:
    from ..ratings.ledger import GameRatings
    from ..storage import GameRecord, SeatRecord

PUBLIC_ID_PREFIX = "p"
_PUBLIC_ID_DOMAIN = b"dominion-public-account-id-1:"
"""Mixed into the hash so that the public id is of no use as anything else's key."""


class SeatKind(StrEnum):
    """Who sat in a seat from the start (a takeover is said apart: `taken_over`)."""

    PERSON = "person"
    """A person: a guest, or signed in to an account."""
    BOT = "bot"
    """An in-server bot (its `strategy` and `level` say which)."""
    BOT_ACCOUNT = "bot_account"
    """A program playing over the network with a bot account."""


class GameEnd(StrEnum):
    """Why a game ended: the rules' reasons, or the server's."""

    PROVINCES = "provinces"
    PILES = "piles"
    RESIGNATIONS = "resignations"
    """Fewer than two players were left in it (resigned, or ran out of time)."""
    ABANDONED = "abandoned"
    """The server ended it without a winner: a player stayed away and no bot took over."""


@dataclass(frozen=True, slots=True)
class SeatRating:
    """A rated seat's rating, as shown to players, before the game and after it."""

    before: int
    after: int


def seat_ratings(rated: GameRatings) -> dict[int, SeatRating]:
    """A rated game's seats' ratings as the ledger has them, by seat: what a replay's
    players show (the export's lines and the dumps read them the same way)."""
    return {seat.seated.seat: SeatRating(seat.before.display, seat.after.display)
            for seat in rated.seats}


def public_account_id(account_id: int) -> str:
    """An account's id as replays and dumps show it: stable for the account's life (a new
    name keeps it), the same on every node, and not the id the server's own records and
    its administrators use."""
    digest = hashlib.sha256(_PUBLIC_ID_DOMAIN + str(account_id).encode()).hexdigest()
    return PUBLIC_ID_PREFIX + digest[:16]


def bot_strategy(bot: str) -> tuple[str, int | None]:
    """An in-server bot's strategy and level (`strong:2` -> strong at level 2; None: the
    strategy's own default, or a strategy without levels)."""
    strategy, _, level = bot.partition(":")
    return strategy, int(level) if level.isdigit() else None


def seat_kind(seat: SeatRecord) -> SeatKind:
    if seat.bot is not None:
        return SeatKind.BOT
    return SeatKind.BOT_ACCOUNT if seat.bot_account else SeatKind.PERSON


def player_record(seat: SeatRecord, rating: SeatRating | None) -> dict[str, Any]:
    """A seat as a replay's `players` lists it."""
    strategy, level = (None, None) if seat.bot is None else bot_strategy(seat.bot)
    return {
        "seat": seat.seat, "name": seat.name, "bot": seat.bot,
        "kind": seat_kind(seat), "strategy": strategy, "level": level,
        "account": None if seat.account_id is None else public_account_id(seat.account_id),
        "taken_over": seat.taken_over_at is not None,
        "rating_before": None if rating is None else rating.before,
        "rating_after": None if rating is None else rating.after,
    }


def players(seats: Iterable[SeatRecord],
            ratings: Mapping[int, SeatRating] | None = None) -> list[dict[str, Any]]:
    known = ratings or {}
    return [player_record(seat, known.get(seat.seat)) for seat in seats]


def game_facts(record: GameRecord, first_player: int | None,
               ending: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game map's keys for analysts: rated, the clock, who started, why it ended."""
    control = record.options.get("time_control") or None
    return {
        "rated": record.rated,
        "time_control": None if control is None else {
            "initial_seconds": int(control["initial_seconds"]),
            "increment_seconds": int(control["increment_seconds"])},
        "first_player": first_player,
        "end_reason": end_reason(record.result, ending),
    }


def end_reason(result: Mapping[str, Any] | None,
               ending: Mapping[str, Any] | None) -> GameEnd | None:
    """None while the game runs."""
    if result is None:
        return None
    if result.get("abandoned"):
        return GameEnd.ABANDONED
    ended_by = None if ending is None else ending.get("ended_by")
    return GameEnd(ended_by) if ended_by is not None else None


def first_player(events: Iterable[Mapping[str, Any]]) -> int | None:
    """The seat that took the first turn, as the `game_started` event says."""
    for event in events:
        if event["kind"] == EventKind.GAME_STARTED:
            found = event.get("data", {}).get("first_player")
            return None if found is None else int(found)
    return None


def with_turns(events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each event with `turn`: the game's turn it happened in (as `turn_started` counts
    them, every player's turns together; 0 before the first turn)."""
    turn = 0
    for event in events:
        if event["kind"] == EventKind.TURN_STARTED:
            turn = int(event["data"]["turn"])
        event["turn"] = turn
        yield event
