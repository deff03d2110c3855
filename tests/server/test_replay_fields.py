"""What a replay says for analysts, as pure functions (server/replays/fields.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dominion.server.engine.scoring import EndReason
from dominion.server.replays.fields import (
    GameEnd,
    SeatKind,
    SeatRating,
    bot_strategy,
    end_reason,
    players,
    public_account_id,
    with_turns,
)
from dominion.server.storage import SeatRecord


def test_a_public_account_id_is_stable_opaque_and_distinct() -> None:
    ids = [public_account_id(account) for account in (1, 2, 2**52 + 7)]
    assert ids[0] == public_account_id(1)
    assert len(set(ids)) == 3
    assert all(len(found) == 17 and found.startswith("p") for found in ids)
    assert str(2**52 + 7) not in ids[2]  # not the id the server's records use


@pytest.mark.parametrize(("bot", "strategy", "level"), [
    ("strong:2", "strong", 2), ("strong", "strong", None), ("big_money", "big_money", None)])
def test_a_bots_strategy_and_level(bot: str, strategy: str, level: int | None) -> None:
    assert bot_strategy(bot) == (strategy, level)


def test_each_seat_says_its_kind_account_and_ratings() -> None:
    seats = [SeatRecord(0, "Ann", account_id=5), SeatRecord(1, "Bot", bot="strong:3"),
             SeatRecord(2, "Robo", account_id=6, bot_account=True),
             SeatRecord(3, "Guest", taken_over_at="2026-12-02T10:00:00Z")]
    listed = players(seats, {0: SeatRating(1500, 1512)})
    assert [p["kind"] for p in listed] == [SeatKind.PERSON, SeatKind.BOT,
                                           SeatKind.BOT_ACCOUNT, SeatKind.PERSON]
    assert [p["account"] for p in listed] == [public_account_id(5), None,
                                              public_account_id(6), None]
    assert (listed[0]["rating_before"], listed[0]["rating_after"]) == (1500, 1512)
    assert listed[1]["rating_before"] is None and listed[1]["level"] == 3
    assert [p["taken_over"] for p in listed] == [False, False, False, True]


def test_each_event_says_its_turn() -> None:
    events: list[dict[str, Any]] = [
        {"kind": "game_started", "data": {"first_player": 1}},
        {"kind": "drew", "player": 0},
        {"kind": "turn_started", "player": 1, "data": {"turn": 1, "player_turn": 1}},
        {"kind": "bought", "player": 1},
        {"kind": "turn_started", "player": 0, "data": {"turn": 2, "player_turn": 1}},
        {"kind": "discarded", "player": 1}]
    assert [e["turn"] for e in with_turns(events)] == [0, 0, 1, 1, 2, 2]


def test_why_a_game_ended() -> None:
    assert end_reason(None, None) is None
    assert end_reason({"abandoned": True}, None) is GameEnd.ABANDONED
    assert end_reason({}, {"ended_by": "piles"}) is GameEnd.PILES
    # every reason the rules give is one a replay can say (a StrEnum cannot extend another)
    assert {GameEnd(reason.value) for reason in EndReason} == set(GameEnd) - {GameEnd.ABANDONED}
