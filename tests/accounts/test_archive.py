"""The archive of ended games, on SQLite and on PostgreSQL: each game archived once, by
its id, through the node's outbox (a node killed between the archive's insert and its
own mark hands the game over again, and the archive keeps one copy); read back whole;
listed with the listings' filters; pruned from the node and still served."""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from dominion.server.accounts import migrations
from dominion.server.accounts.archive import ArchivedGame
from dominion.server.accounts.sql_store import SqlAccountStore
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.edge.tasks.archive_reconcile import Refilled, refill
from dominion.server.play import archive as archive_module
from dominion.server.play.archive import Archive, hand_over, prune, stored_game
from dominion.server.play.fill import store_one
from dominion.server.replays import build, finished_replay
from dominion.server.replays import dump as dump_module
from dominion.server.replays.build import derive, pack_derived
from dominion.server.replays.stored_replay import STORED_VERSION
from dominion.server.storage import SeatRecord, Storage, StoredGame
from dominion.server.storage.reader import GamesReader
from dominion.server.storage.rows import pack_game, unpack_game

from .conftest import make_store


async def finished(storage: Storage, games: int, seed: int = 1) -> list[StoredGame]:
    """Bot games played to their end and stored, oldest first."""
    rng = random.Random(seed)
    for _ in range(games):
        await store_one(storage, rng, ("big_money", "smithy_big_money"), 2, 2)
    return [stored for stored, _ in storage.unarchived_games()]


def replay_of(stored: StoredGame, chat: list[dict[str, Any]]) -> dict[str, Any]:
    return finished_replay(stored, chat)


async def test_a_packed_game_reads_back_as_it_was_stored_without_seat_tokens(
        storage: Storage) -> None:
    [stored] = await finished(storage, 1)
    with_token = replace(stored, seats=(replace(stored.seats[0], token_hash="ab" * 32),
                                        *stored.seats[1:]))
    back = unpack_game(pack_game(with_token))
    assert back == replace(stored, seats=tuple(replace(seat, token_hash=None)
                                               for seat in stored.seats))


async def test_each_ended_game_is_archived_once_and_its_row_marked(
        store: SqlAccountStore, storage: Storage) -> None:
    games = await finished(storage, 3)
    await storage.append_chat(games[0].game.id, at="2026-12-02T10:00:00Z", seat=0,
                              name="Bot 1 (big_money)", text="gg")
    assert await hand_over(storage, store) == 3
    assert storage.unarchived_games() == []
    assert await hand_over(storage, store) == 0  # nothing waits: nothing is sent again
    found = await store.archived([game.game.id for game in games])
    newest_first = sorted(games, key=lambda game: (game.game.finished_at, game.game.id),
                          reverse=True)  # games ending in one clock tick go by id
    assert [archived.game_id for archived in found] == [game.game.id for game in newest_first]
    archive = Archive(storage, store)
    for game in games:  # served whole, from the node while it keeps the game
        local = await archive.ended_game(game.game.id)
        assert local is not None
        archived = next(one for one in found if one.game_id == game.game.id)
        assert replay_of(stored_game(archived), await store.archived_chat(game.game.id)) == \
            replay_of(*local)
    assert [line["text"] for line in await store.archived_chat(games[0].game.id)] == ["gg"]


async def test_a_node_killed_between_the_archive_and_its_mark_archives_the_game_once(
        store: SqlAccountStore, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    [game] = await finished(storage, 1)

    async def killed(game_ids: list[str], at: str) -> None:
        raise SystemExit("killed after the archive committed, before the mark")

    with monkeypatch.context() as crash:
        crash.setattr(storage, "games_archived", killed)
        with pytest.raises(SystemExit):
            await hand_over(storage, store)
    assert await store.archived_ids([game.game.id]) == {game.game.id}
    assert [stored.game.id for stored, _ in storage.unarchived_games()] == [game.game.id]
    assert await hand_over(storage, store) == 0  # handed over again: the archive had it
    assert storage.unarchived_games() == []
    found, total = await store.list_archived({"limit": 10, "offset": 0})
    assert total == 1 and [archived.game_id for archived in found] == [game.game.id]


async def test_the_archive_lists_with_the_listings_filters(
        store: SqlAccountStore, storage: Storage) -> None:
    games = await finished(storage, 3, seed=2)
    ada = games[1].game.id  # before the games are sorted again, by their end
    await storage.save_seat(ada, SeatRecord(1, "Ada", account_id=77,
                                            joined_at="2026-01-01T00:00:00Z"))
    # the archive's order: games that ended in the same second by id
    games = sorted((stored for stored, _ in storage.unarchived_games()),
                   key=lambda stored: (stored.game.finished_at or "", stored.game.id))
    await hand_over(storage, store)
    newest = [game.game.id for game in reversed(games)]

    async def ids(**filters: Any) -> tuple[list[str], int]:
        found, total = await store.list_archived({"limit": 10, "offset": 0, **filters})
        return [archived.game_id for archived in found], total

    assert await ids() == (newest, 3)
    assert await ids(state="ended") == await ids(state="finished") == (newest, 3)
    assert await ids(state="abandoned") == ([], 0)
    assert await ids(state="playing") == ([], 0)
    assert await ids(player="Ada") == ([ada], 1)
    assert await ids(account_id=77) == ([ada], 1)
    assert await ids(people=True) == ([], 0)  # bots sat in each from the start
    assert await ids(people=False, rated=False, takeovers=False) == (newest, 3)
    card = games[0].game.kingdom[0]
    with_card = [game.game.id for game in reversed(games) if card in game.game.kingdom]
    assert await ids(card=card) == (with_card, len(with_card))
    assert await ids(cards=tuple(games[0].game.kingdom)) == ([games[0].game.id], 1)
    assert await ids(players=3) == ([], 0)
    assert await ids(edition=2, players=2) == (newest, 3)
    first = games[0].game.finished_at or ""
    assert (await ids(since=first))[1] == 3 and await ids(until=first) == ([], 0)
    assert await ids(limit=1, offset=1) == ([newest[1]], 3)
    last = next(game for game in games if game.game.id == newest[0]).game
    assert (await ids(before=(last.finished_at or "", last.id)))[0] == newest[1:]
    page, _ = await store.list_archived({"limit": 10, "offset": 0}, counted=False)
    assert len(page) == 3
    oldest_first = await store.archived_between(None, None, ("", ""), 2)
    assert [archived.game_id for archived in oldest_first] == newest[::-1][:2]
    after = (oldest_first[-1].finished_at, oldest_first[-1].game_id)
    assert [a.game_id for a in await store.archived_between(None, None, after, 2)] == \
        [newest[0]]


async def test_a_deleted_account_and_a_removed_line_change_the_archived_game(
        store: SqlAccountStore, storage: Storage) -> None:
    [game] = await finished(storage, 1, seed=3)
    await storage.save_seat(game.game.id, SeatRecord(0, "Ada", account_id=5,
                                                     joined_at="2026-01-01T00:00:00Z"))
    line = await storage.append_chat(game.game.id, at="2026-12-02T10:00:00Z", seat=0,
                                     name="Ada", text="hello")
    await storage.append_chat(game.game.id, at="2026-12-02T10:00:01Z", seat=1, name="Bot",
                              text="beep")
    await hand_over(storage, store)
    await prune(storage, timedelta(0))
    await store.rename_archived_seats(5, "deleted player")
    assert await store.remove_archived_chat(game.game.id, line, "2026-12-02T11:00:00Z")
    assert not await store.remove_archived_chat(game.game.id, line, "2026-12-02T11:00:00Z")
    found = await Archive(storage, store).ended_game(game.game.id)
    assert found is not None
    stored, chat = found
    assert stored.seats[0].name == "deleted player"
    assert [line["text"] for line in chat] == ["beep"]
    everything = await store.archived_chat(game.game.id, removed=True)
    assert [(line["name"], line["removed_at"]) for line in everything] == [
        ("deleted player", "2026-12-02T11:00:00Z"), ("Bot", None)]


async def test_a_pruned_game_leaves_the_node_and_is_served_from_the_archive(
        store: SqlAccountStore, storage: Storage) -> None:
    games = await finished(storage, 2, seed=4)
    archive = Archive(storage, store)
    before = [await archive.ended_game(game.game.id) for game in games]
    await hand_over(storage, store)
    assert await prune(storage, timedelta(hours=1)) == 0  # archived just now: kept
    assert storage.load_game(games[0].game.id) is not None
    assert await prune(storage, timedelta(0)) == 2
    assert storage.load_game(games[0].game.id) is None
    assert storage.list_games()[1] == 0
    after = [await archive.ended_game(game.game.id) for game in games]
    assert [replay_of(*found) for found in after if found is not None] == \
        [replay_of(*found) for found in before if found is not None]
    assert await archive.ended_game("g-000000000000") is None


async def test_archived_games_keep_their_time_order_across_the_archive_and_the_node(
        store: SqlAccountStore, storage: Storage) -> None:
    """An export's page merges the archive's games with the node's not archived yet."""
    archived = await finished(storage, 2, seed=5)
    await hand_over(storage, store)
    waiting = await finished(storage, 1, seed=6)
    archive = Archive(storage, store)
    paid: list[int] = []

    async def pay(work: int) -> None:
        paid.append(work)

    export = await archive.export({"limit": 2, "offset": 0, "state": "ended"}, pay)
    lines = [line async for line in export.lines]
    expected = sorted(archived + waiting, key=lambda game: (game.game.finished_at,
                                                            game.game.id), reverse=True)
    assert [line.split(b'"id":"')[1][:14].decode() for line in lines] == \
        [game.game.id for game in expected[:2]]
    assert export.next_key == (expected[1].game.finished_at, expected[1].game.id)
    assert len(paid) == 2


async def test_an_archive_restored_from_an_older_copy_is_refilled_from_the_node_once(
        store: SqlAccountStore, storage: Storage) -> None:
    games = await finished(storage, 2, seed=7)
    await hand_over(storage, store)
    for table in ("archived_chat", "archived_cards", "archived_seats", "archived_games"):
        await store.db.execute(f"DELETE FROM {table}")  # the archive's copy predates them
    with GamesReader.open(storage.path) as reader:
        assert await refill(store, reader, datetime.now(UTC)) == Refilled(2, 2)
        assert await refill(store, reader, datetime.now(UTC)) == Refilled(2, 0)
    assert await store.archived_ids([game.game.id for game in games]) == {
        game.game.id for game in games}


async def test_a_node_restored_from_an_older_copy_archives_nothing_twice(
        store: SqlAccountStore, tmp_path: Path) -> None:
    path = tmp_path / "node.sqlite3"
    storage = Storage.open(path, synchronous="NORMAL")
    await storage.start()
    games = await finished(storage, 2, seed=8)
    await storage.close()
    shutil.copy(path, tmp_path / "backup.sqlite3")  # closed: the file is the whole database
    storage = Storage.open(path, synchronous="NORMAL")
    await storage.start()
    assert await hand_over(storage, store) == 2
    await storage.close()
    shutil.copy(tmp_path / "backup.sqlite3", path)  # restored: its rows wait again
    storage = Storage.open(path, synchronous="NORMAL")
    await storage.start()
    try:
        assert len(storage.unarchived_games()) == 2
        assert await hand_over(storage, store) == 0  # the archive had both
        assert storage.unarchived_games() == []
        found, total = await store.list_archived({"limit": 10, "offset": 0})
        assert total == 2 and {a.game_id for a in found} == {g.game.id for g in games}
    finally:
        await storage.close()


def unplayable(stored: StoredGame) -> Any:
    raise AssertionError("played back: the archive's replay was not read")


def unmade(*args: Any) -> Any:
    raise AssertionError("made again: the archive's replay was not spliced in")


async def exported(archive: Archive) -> list[bytes]:
    async def pay(work: int) -> None:
        pass

    export = await archive.export({"limit": 10, "offset": 0, "state": "ended"}, pay)
    return [line async for line in export.lines]


async def test_an_archived_game_keeps_its_replay_and_an_export_splices_it_in(
        store: SqlAccountStore, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    games = await finished(storage, 2, seed=9)
    await storage.save_seat(games[0].game.id, SeatRecord(0, "Ada", account_id=5,
                                                         joined_at="2026-01-01T00:00:00Z"))
    await storage.append_chat(games[0].game.id, at="2026-12-02T10:00:00Z", seat=0,
                              name="Ada", text="hello \"there\"\n")
    await hand_over(storage, store)
    await prune(storage, timedelta(0))  # served from the archive alone
    await store.rename_archived_seats(5, "deleted player")  # after the replay was made
    archive = Archive(storage, store)
    expected = []
    for archived in await store.archived([game.game.id for game in games]):
        assert archived.replay_version == STORED_VERSION and archived.replay is not None
        assert archived.events is None  # the replay holds them
        stored = stored_game(archived)
        chat = await store.archived_chat(archived.game_id)
        expected.append(orjson.dumps(finished_replay(stored, chat)) + b"\n")
    assert b'"name":"deleted player"' in expected[-1] + expected[0]
    assert b"hello" in expected[-1] + expected[0]
    monkeypatch.setattr(build, "derive", unplayable)
    monkeypatch.setattr(dump_module, "finished_replay", unmade)
    assert await exported(archive) == expected


async def test_games_archived_before_the_archive_kept_replays_are_made_when_read(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest, storage: Storage,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Made when read, not backfilled by the migration (a schema step is SQL alone): from
    the answers before version 10, from the events at version 10, and from the events or
    the answers when a row's replay was made by another version."""
    games = await finished(storage, 3, seed=10)
    before, events_only, stale = games
    with monkeypatch.context() as old:  # an archive as version 10 left it
        old.setattr(migrations, "STEPS", migrations.STEPS[:10])
        first = make_store(store_kind, tmp_path, request, empty=True)
        await first.start()
        for game, events in ((before, None), (events_only, pack_derived(derive(events_only)))):
            await first.db.execute(
                "INSERT INTO archived_games (game_id, finished_at, state, edition, players, "
                "body, events, archived_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", game.game.id,
                game.game.finished_at, "finished", 2, 2, pack_game(game), events,
                datetime.now(UTC))
        await first.close()
    store = make_store(store_kind, tmp_path, request, empty=True)  # the same one
    await store.start()
    try:
        await store.archive_games([archive_module.archived_game(stale, [])], datetime.now(UTC))
        await store.db.execute("UPDATE archived_games SET replay = ?, replay_version = "
                               "?::integer WHERE game_id = ?", b"not this version",
                               STORED_VERSION - 1, stale.game.id)
        found = {a.game_id: a for a in await store.archived([g.game.id for g in games])}
        assert found[before.game.id].events is found[before.game.id].replay is None
        assert found[events_only.game.id].events is not None
        await storage.games_archived([game.game.id for game in games], "2026-12-02T10:00:00Z")
        await prune(storage, timedelta(0))
        lines = await exported(Archive(storage, store))
        assert sorted(lines) == sorted(orjson.dumps(finished_replay(game, [])) + b"\n"
                                       for game in games)
    finally:
        await store.close()


async def test_a_hand_over_lets_live_games_run_between_two_games_play_backs(
        store: SqlAccountStore, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    await finished(storage, 3, seed=11)
    order: list[str] = []
    prepare = archive_module.archived_game

    def prepared(stored: StoredGame, chat: list[dict[str, Any]]) -> Any:
        order.append("game")
        return prepare(stored, chat)

    async def live() -> None:
        for _ in range(10):
            order.append("live")
            await asyncio.sleep(0)

    monkeypatch.setattr(archive_module, "archived_game", prepared)
    running = asyncio.ensure_future(live())
    assert await hand_over(storage, store) == 3
    await running
    games = [index for index, step in enumerate(order) if step == "game"]
    assert all("live" in order[one:two] for one, two in itertools.pairwise(games))


async def test_a_dumps_late_page_seeks_its_place_instead_of_scanning_from_the_start(
        tmp_path: Path) -> None:
    """Spelt as `finished_at >= since` and an OR, every page's scan began at the period's
    start: a million games' dump read its last pages a thousand times slower than its
    first. Counted in SQLite's steps (its progress handler), not seconds."""
    store = SqliteAccountStore(tmp_path / "games.accounts.sqlite3")
    await store.start()
    start = datetime(2026, 12, 1, tzinfo=UTC)
    games = [ArchivedGame(f"g-{random.Random(i).getrandbits(48):012x}",
                          (start + timedelta(seconds=i // 3)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                          "finished", 2, 2, False, False, False, (), (), (), b"body",
                          b"replay", STORED_VERSION)
             for i in range(3_000)]
    await store.archive_games(games, start)
    steps = [0]

    def counting(db: sqlite3.Connection) -> None:
        db.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1), 100)

    async def steps_of(after: tuple[str, str]) -> int:
        steps[0] = 0
        page = await store.archived_between("2026-12-01", "2027-01-01", after, 10)
        assert len(page) == 10
        return steps[0]

    try:
        await store.db._call(counting)  # type: ignore[attr-defined]  # SQLite's own hook
        order = sorted((game.finished_at, game.game_id) for game in games)
        first, late = await steps_of(("", "")), await steps_of(order[-20])
    finally:
        await store.close()
    assert late <= 2 * first + 10, (first, late)
