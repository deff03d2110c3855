"""`dominion-server dump`: a period's games as zstd NDJSON replays and Parquet tables,
each with its row count and SHA-256 in the manifest (docs/REPLAYS.md, "Dumps")."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from dominion.clients.replay_check import verify_file
from dominion.server import gc_tuning
from dominion.server import main as main_module
from dominion.server.accounts import open_account_store
from dominion.server.main import main
from dominion.server.play import archive
from dominion.server.play.archive import read_archive
from dominion.server.ratings.ledger import RatedGame, RatedSeat
from dominion.server.replays import build, verify_replay
from dominion.server.replays import dump as dump_module
from dominion.server.replays.build import derive, pack_derived
from dominion.server.replays.dump import EndedGame, dump, period_bounds
from dominion.server.storage import StorageError, StoredGame

from .replay_schema import check_replay

pyarrow_parquet = pytest.importorskip("pyarrow.parquet", reason="pip install -e '.[dumps]'")
zstandard = pytest.importorskip("zstandard", reason="pip install -e '.[dumps]'")


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("dump") / "games.sqlite3"
    assert main(["fill", "--db", str(db), "--games", "3", "--seed", "3"]) == 0
    return db


def archived_games(db: Path) -> list[StoredGame]:
    """The archive's games, oldest first, with their answers (a dump reads them without)."""
    async def read() -> list[StoredGame]:
        store = open_account_store("", str(db))
        await store.start()
        try:
            return [archive.stored_game(found)
                    for found in await store.archived_between(None, None, ("", ""), 100)]
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_period_is_a_month_a_day_or_everything() -> None:
    assert period_bounds("2026-12") == ("2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z")
    assert period_bounds("2026-11-30") == ("2026-11-30T00:00:00Z", "2026-12-01T00:00:00Z")
    assert period_bounds("all") == (None, None)
    for wrong in ("2026-13-99x", "2026-13", "2026-02-30"):
        with pytest.raises(ValueError, match="a period is"):
            period_bounds(wrong)


def test_a_dump_reads_the_archive_a_batch_at_a_time(filled: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "DUMP_BATCH", 2)
    ids = [game.stored.game.id for game in read_archive("", str(filled), None, None)]
    assert len(ids) == len(set(ids)) == 3
    assert list(read_archive("", str(filled), None, "2000-01-01T00:00:00Z")) == []


def test_a_dump_without_an_archive_says_where_it_looked(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dump", "--db", str(tmp_path / "none.sqlite3"), "--period", "all",
                 "--out", str(tmp_path)]) == 2
    assert "no archive at" in capsys.readouterr().err


def test_a_dump_writes_replays_tables_and_a_manifest_that_check_out(
        filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dump", "--db", str(filled), "--period", "all", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "dominion-all.manifest.json").read_text())
    assert manifest["licence"].startswith("CC0-1.0") and "no chat" in manifest["privacy"]
    files = {entry["name"]: entry for entry in manifest["files"]}
    for name, entry in files.items():
        data = (tmp_path / name).read_bytes()
        assert entry["bytes"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest()

    packed = (tmp_path / "dominion-all.replays.ndjson.zst").read_bytes()
    text = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(packed)).read().decode()
    replays: list[dict[str, Any]] = [json.loads(line) for line in text.splitlines()]
    assert len(replays) == files["dominion-all.replays.ndjson.zst"]["rows"] == 3
    for replay in replays:
        check_replay(replay)
        assert verify_replay(replay).ok and replay["chat"] == []
    capsys.readouterr()
    assert verify_file([str(tmp_path / "dominion-all.replays.ndjson.zst")]) == 0  # as it is
    assert capsys.readouterr().out.endswith("replays checked: 3; failed: 0\n")

    tables = {name: pyarrow_parquet.read_table(tmp_path / f"dominion-all.{name}.parquet")
              for name in ("games", "seats", "gains")}
    for name, table in tables.items():
        assert table.num_rows == files[f"dominion-all.{name}.parquet"]["rows"]
    games = tables["games"].to_pylist()
    assert sorted(row["game_id"] for row in games) == sorted(r["game"]["id"] for r in replays)
    assert tables["seats"].num_rows == 6
    assert {row["kind"] for row in tables["seats"].to_pylist()} == {"bot"}
    bought = sum(1 for replay in replays for event in replay["events"]
                 if event["kind"] in ("bought", "gained") for _ in event.get("cards", ()))
    assert tables["gains"].num_rows == bought
    opening = [row for row in tables["gains"].to_pylist() if row["player_turn"] <= 2]
    assert opening and all(row["how"] in ("bought", "gained") for row in opening)


def test_a_dump_that_stops_half_way_leaves_the_published_files_whole(
        filled: Path, tmp_path: Path) -> None:
    assert main(["dump", "--db", str(filled), "--period", "all", "--out", str(tmp_path)]) == 0
    published = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert len(published) == 5

    def failing() -> Iterator[EndedGame]:
        games = read_archive("", str(filled), None, None)
        yield next(iter(games))
        raise StorageError("the archive went away")

    with pytest.raises(StorageError):
        dump(failing(), tmp_path, "all")
    # what a download or the listing sees is still the whole earlier dump
    assert {name: (tmp_path / name).read_bytes() for name in published} == published
    assert {path.name for path in tmp_path.iterdir()} - set(published) <= {
        f"{name}.part" for name in published}


def test_a_day_without_games_dumps_empty_files(filled: Path, tmp_path: Path) -> None:
    assert main(["dump", "--db", str(filled), "--period", "2000-01-01",
                 "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "dominion-2000-01-01.manifest.json").read_text())
    assert [entry["rows"] for entry in manifest["files"]] == [0, 0, 0, 0]


def test_a_rated_games_seats_carry_the_ledgers_ratings(filled: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    [stored, *_] = archived_games(filled)
    rated = replace(stored, game=replace(stored.game, options={"rated": True}))
    store = open_account_store("", str(db))
    ranks = sorted(range(len(rated.seats)), key=lambda seat: seat != 0)

    async def archive_and_rate() -> None:
        await store.start()
        await store.archive_games([archive.archived_game(rated, [])], datetime.now(UTC))
        await store.apply_rated_game(RatedGame(
            rated.game.id, rated.game.finished_at or "",
            tuple(RatedSeat(seat.seat, ranks[seat.seat] + 1, bot=seat.bot)
                  for seat in rated.seats)), datetime.now(UTC))
        await store.close()

    asyncio.run(archive_and_rate())
    [(read, ratings, *_)] = list(read_archive("", str(db), None, None))
    assert read.game.rated and ratings is not None and set(ratings) == {0, 1}
    assert main(["dump", "--db", str(db), "--period", "all", "--out", str(tmp_path)]) == 0
    seats = pyarrow_parquet.read_table(tmp_path / "dominion-all.seats.parquet").to_pylist()
    assert [(row["rating_before"], row["rating_after"]) for row in seats] == [
        (ratings[seat].before, ratings[seat].after) for seat in (0, 1)]
    assert all(row["rating_before"] is not None for row in seats)


def test_fill_dump_and_verify_collect_garbage_as_the_server_does(
        filled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each allocates a game's events by the thousand: the server's collector settings
    save them about a fifth of their time."""
    tuned: list[str] = []
    monkeypatch.setattr(main_module, "tune_gc", lambda: tuned.append("server"))
    monkeypatch.setattr(gc_tuning, "tune_gc", lambda: tuned.append("verify"))
    assert main(["fill", "--db", str(tmp_path / "none.sqlite3"), "--games", "0"]) == 0
    assert main(["dump", "--db", str(filled), "--period", "all", "--out", str(tmp_path)]) == 0
    assert verify_file([str(tmp_path / "dominion-all.replays.ndjson.zst")]) == 0
    assert tuned == ["server", "server", "verify"]
    capsys.readouterr()


def test_a_dump_splices_in_the_archives_replays_and_makes_the_others_the_same(
        filled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games archived with their events only, with nothing, or with a replay made by another
    version dump the same bytes as the replays the archive keeps, which are the bytes of
    the replays themselves."""
    kept = tmp_path / "kept"
    kept.mkdir()
    with monkeypatch.context() as unmakeable:
        unmakeable.setattr(dump_module, "finished_replay", lambda *a: pytest.fail("made"))
        assert main(["dump", "--db", str(filled), "--period", "all", "--out", str(kept)]) == 0
    games = archived_games(filled)
    lines = zstandard.ZstdDecompressor().stream_reader(
        (kept / "dominion-all.replays.ndjson.zst").open("rb")).read()
    assert lines == b"".join(orjson.dumps(build.finished_replay(game, [])) + b"\n"
                             for game in games)

    archived = [archive.archived_game(game, []) for game in games]
    for case, change in (
            ("answers", "UPDATE archived_games SET replay = NULL, replay_version = NULL"),
            ("events", "UPDATE archived_games SET replay = NULL, replay_version = NULL, "
                       "events = ? WHERE game_id = ?"),
            ("stale", "UPDATE archived_games SET replay_version = replay_version - 1")):
        old = tmp_path / case / "games.sqlite3"
        old.parent.mkdir()
        store = open_account_store("", str(old))

        async def archive_as_before(store: Any = store, case: str = case,
                                    change: str = change) -> None:
            await store.start()
            await store.archive_games(archived, datetime.now(UTC))
            for game in games if case == "events" else games[:1]:
                await store.db.execute(change, *([pack_derived(derive(game)), game.game.id]
                                                 if case == "events" else []))
            await store.close()

        asyncio.run(archive_as_before())
        assert all(game.replay is None for game in read_archive("", str(old), None, None))
        assert main(["dump", "--db", str(old), "--period", "all", "--out",
                     str(old.parent)]) == 0
        for name in ("replays.ndjson.zst", "games.parquet", "seats.parquet", "gains.parquet"):
            assert (old.parent / f"dominion-all.{name}").read_bytes() == \
                (kept / f"dominion-all.{name}").read_bytes(), (case, name)

