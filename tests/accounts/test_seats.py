"""A seat names the account that took it, and whether it is a bot account's: in the
games' storage (schema versions 3 and 4), and kept through a migration from version 2."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dominion.server.storage import SeatRecord, Storage, schema
from tests.server.test_storage import game_record, old_file


async def test_a_seat_keeps_its_account_and_a_guests_has_none(tmp_path: Path) -> None:
    storage = Storage.open(tmp_path / "games.sqlite3")
    await storage.start()
    try:
        await storage.create_game(game_record(), [SeatRecord(0, "Ada", "h0", account_id=7),
                                                  SeatRecord(1, "Grace", "h1")])
        assert [seat.account_id for seat in storage.seats("g-1")] == [7, None]
        await storage.save_seat("g-1", SeatRecord(1, "Bob", "h2", account_id=9))
        assert [seat.account_id for seat in storage.seats("g-1")] == [7, 9]
        await storage.save_seat("g-1", SeatRecord(1, "Robo", "h3", account_id=9,
                                                  bot_account=True))
        assert [seat.bot_account for seat in storage.seats("g-1")] == [False, True]
        # what the bot-account check asks: has the account ever taken a seat?
        assert storage.account_has_seats(7) and storage.account_has_seats(9)
        assert not storage.account_has_seats(8)
    finally:
        await storage.close()


async def test_a_version_2_file_gets_the_column_and_keeps_its_seats(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v2.sqlite3"
    await old_file(path, 2, monkeypatch)
    with sqlite3.connect(path) as db:  # a seat as version 2 wrote it
        db.execute("INSERT INTO seats (game_id, seat, name, token_hash) "
                   "VALUES ('g-1', 0, 'Ada', 'h0')")
    db.close()
    storage = Storage.open(path)
    try:
        assert [(seat.name, seat.account_id) for seat in storage.seats("g-1")] == [("Ada", None)]
    finally:
        await storage.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        indexes = {row[1] for row in db.execute("PRAGMA index_list(seats)")}
    db.close()
    assert "seats_account" in indexes


async def test_a_deleted_accounts_seats_and_chat_lines_take_the_placeholder(
        tmp_path: Path) -> None:
    storage = Storage.open(tmp_path / "games.sqlite3")
    await storage.start()
    try:
        await storage.create_game(game_record(), [
            SeatRecord(0, "Ada", "h0", joined_at="2026-12-01T10:00:00Z", account_id=7),
            SeatRecord(1, "Grace", "h1", joined_at="2026-12-01T09:00:00Z")])
        for at, seat, name in [("2026-12-01T09:30:00Z", 0, "Someone"),  # before Ada sat
                               ("2026-12-01T10:30:00Z", 0, "Ada"),
                               ("2026-12-01T10:31:00Z", 1, "Grace")]:
            await storage.append_chat("g-1", at=at, seat=seat, name=name, text="hi")
        await storage.rename_account_seats(7, "deleted player")
        assert [seat.name for seat in storage.seats("g-1")] == ["deleted player", "Grace"]
        assert [line["name"] for line in storage.chat("g-1")] == [
            "Someone", "deleted player", "Grace"]
    finally:
        await storage.close()
