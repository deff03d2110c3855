"""`dominion-server dump`: a period's ended games as files to serve statically: every
replay as NDJSON compressed with zstd, and three flat Parquet tables (games, seats,
gains), each with its row count and SHA-256 in a manifest (docs/REPLAYS.md, "Dumps").

Read from the archive of ended games every node shares (play/archive.py) beside the
running servers, a batch of games at a time, and written as it goes: memory stays
bounded however long the period.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from ..storage import StorageError, StoredGame
from .build import finished_replay, unpack_derived
from .fields import SeatRating, players
from .format import MINOR, VERSION
from .stored_replay import StoredReplay, replay_line, stored_replay, unpack
from .tables import schemas, seat_rows


class EndedGame(NamedTuple):
    """An archived game as a dump reads it."""

    stored: StoredGame
    """Without its answers when its `replay` is given (which holds them)."""
    ratings: Mapping[int, SeatRating] | None
    """When rated and in the rating ledger: its seats' ratings."""
    replay: bytes | None = None
    """Its replay as the archive keeps it (`stored_replay.pack`), unpacked only as the dump
    writes the game: a batch of games' parts held unpacked, millions of objects, would
    cost the collector more than unpacking them; None: made from `events`."""
    events: bytes | None = None
    """Its events as the archive kept them before it kept the replay
    (`build.pack_derived`); None too: its answers are played back."""


Source = Callable[[argparse.Namespace, str | None, str | None], Iterable[EndedGame]]
"""Where a dump reads a period's games, with their ratings, from: the archive (the
command's arguments, since, until)."""

LICENCE = ("CC0-1.0: to the extent possible under law, the server's operators waive all "
           "copyright and related rights in these files "
           "(https://creativecommons.org/publicdomain/zero/1.0/)")
PRIVACY = ("no chat; names as public profiles show them (a deleted account's seats say so); "
           "accounts by their public ids, never the server's own")
ROWS_PER_BATCH = 5_000
"""Rows a Parquet table holds in memory before it writes them out."""
_PERIOD = re.compile(r"^(all|\d{4}-\d{2}|\d{4}-\d{2}-\d{2})$")


def period_bounds(period: str) -> tuple[str | None, str | None]:
    """A period's [since, until) as ISO 8601 UTC: a month (2026-12), a day (2026-12-02),
    or `all` (no bounds). ValueError for anything else."""
    problem = (f"a period is a month (2026-12), a day (2026-12-02) or all, not {period!r}")
    if not _PERIOD.match(period):
        raise ValueError(problem)
    if period == "all":
        return None, None
    try:  # the pattern's digits may still name no month or day (2026-13, 2026-02-30)
        start = datetime.strptime(period, "%Y-%m" if len(period) == 7 else "%Y-%m-%d")
    except ValueError:
        raise ValueError(problem) from None
    start = start.replace(tzinfo=UTC)
    if len(period) == 7:
        end = start.replace(year=start.year + start.month // 12, month=start.month % 12 + 1)
    else:
        end = datetime.fromordinal(start.toordinal() + 1).replace(tzinfo=UTC)
    return start.strftime("%Y-%m-%dT%H:%M:%SZ"), end.strftime("%Y-%m-%dT%H:%M:%SZ")


def stored_replay_of(game: EndedGame) -> StoredReplay:
    """A game's replay as the archive keeps it: read, else made from its events, or from
    its answers played back (a game archived before the archive kept it)."""
    if game.replay is not None:
        return unpack(game.replay)
    derived = None if game.events is None else unpack_derived(game.events)
    return stored_replay(finished_replay(game.stored, [], None, derived))


def ended_replay(game: EndedGame, chat: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """An archived game's replay with these chat lines (`build.chat_records`), spliced from
    the replay the archive keeps: `finished_replay(game.stored, chat, game.ratings)`."""
    replay: dict[str, Any] = orjson.loads(replay_line(stored_replay_of(game),
                                                      public_players(game), chat))
    return replay


def public_replay(game: EndedGame) -> dict[str, Any]:
    """A replay as a dump holds it: no chat; a rated game's ratings as the ledger has them."""
    return ended_replay(game, [])


def public_players(game: EndedGame) -> list[dict[str, Any]]:
    """A game's players as a dump shows them: named as they are now, with their ratings."""
    return players(game.stored.seats, game.ratings)


@dataclass
class DumpFile:
    name: str
    rows: int = 0
    bytes: int = 0
    sha256: str = ""

    def partial(self, folder: Path) -> Path:
        """Where the file is written: under its own name only once whole, so that a
        download (or a dump that stops half way) never sees a file being written."""
        return folder / f"{self.name}.part"

    def seal(self, folder: Path) -> None:
        digest = hashlib.sha256()
        with self.partial(folder).open("rb") as file:
            while chunk := file.read(1 << 20):
                digest.update(chunk)
        self.sha256, self.bytes = digest.hexdigest(), self.partial(folder).stat().st_size

    def publish(self, folder: Path) -> None:
        os.replace(self.partial(folder), folder / self.name)


@dataclass
class Dumped:
    period: str
    games: int = 0
    seconds: float = 0.0
    files: list[DumpFile] = field(default_factory=list)


class _Table:
    """One Parquet file, written a batch of rows at a time, kept column by column (in the
    schema's order) until then."""

    def __init__(self, folder: Path, name: str, schema: Any) -> None:
        from pyarrow import parquet

        self.file = DumpFile(name)
        self._schema = schema
        self._columns: list[list[Any]] = [[] for _ in schema]
        self._writer = parquet.ParquetWriter(self.file.partial(folder), schema,
                                             compression="zstd")

    def add(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows, each in the schema's column order."""
        for row in rows:
            for column, value in zip(self._columns, row, strict=True):
                column.append(value)
        self._flushed_when_full()

    def add_columns(self, columns: Sequence[Sequence[Any]]) -> None:
        """Rows given column by column, all of the same length."""
        for column, values in zip(self._columns, columns, strict=True):
            column.extend(values)
        self._flushed_when_full()

    def _flushed_when_full(self) -> None:
        if len(self._columns[0]) >= ROWS_PER_BATCH:
            self._flush()

    def _flush(self) -> None:
        import pyarrow

        if rows := len(self._columns[0]):
            self._writer.write_table(pyarrow.Table.from_arrays(
                [pyarrow.array(column, type=kind.type)
                 for column, kind in zip(self._columns, self._schema, strict=True)],
                schema=self._schema))
            self.file.rows += rows
            self._columns = [[] for _ in self._schema]

    def close(self) -> None:
        self._flush()
        self._writer.close()


def dump(games: Iterable[EndedGame], folder: Path, period: str) -> Dumped:
    """Write the games' files and manifest into `folder`; what was written."""
    import zstandard

    started = time.perf_counter()
    done = Dumped(period)
    base = f"dominion-{period}"
    replays = DumpFile(f"{base}.replays.ndjson.zst")
    tables = {name: _Table(folder, f"{base}.{name}.parquet", schema)
              for name, schema in schemas().items()}
    # threads=1: zstd compresses in a thread of its own while the next replays are made
    with replays.partial(folder).open("wb") as raw, \
            zstandard.ZstdCompressor(level=3, threads=1).stream_writer(raw) as compressed:
        for game in games:
            stored, shown = stored_replay_of(game), public_players(game)
            compressed.write(replay_line(stored, shown, []))
            game_id = game.stored.game.id
            tables["games"].add([stored.game_row])
            tables["seats"].add(seat_rows(game_id, shown, game.stored.game.result))
            tables["gains"].add_columns([[game_id] * len(stored.gains[0]), *stored.gains])
            done.games += 1
    replays.rows = done.games
    for table in tables.values():
        table.close()
    done.files = [replays, *(table.file for table in tables.values())]
    for written in done.files:
        written.seal(folder)
    done.seconds = time.perf_counter() - started
    manifest = {
        "period": period, "made_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "replay_format": {"format": "dominion-replay", "version": VERSION, "minor": MINOR},
        "licence": LICENCE, "privacy": PRIVACY,
        "schema": "docs/REPLAYS.md, \"Dumps\"; the replays: protocol/replay.schema.json",
        "files": [{"name": f.name, "rows": f.rows, "bytes": f.bytes, "sha256": f.sha256}
                  for f in done.files]}
    listing = DumpFile(f"{base}.manifest.json")
    listing.partial(folder).write_text(json.dumps(manifest, indent=2) + "\n")
    for written in [*done.files, listing]:  # the manifest last: it lists the files
        written.publish(folder)
    return done


def parser() -> argparse.ArgumentParser:
    parsing = argparse.ArgumentParser(
        prog="dominion-server dump",
        description="Write a period's ended games as files to serve: replays as zstd "
                    "NDJSON, Parquet tables, a manifest (docs/REPLAYS.md, \"Dumps\").")
    parsing.add_argument("--db", default="dominion.sqlite3",
                         help="a single server's games database (its archive is the accounts' "
                              "file beside it)")
    parsing.add_argument("--accounts-url", default=os.environ.get("DOMINION_ACCOUNTS_URL", ""),
                         help="the cluster's PostgreSQL, which holds the archive")
    parsing.add_argument("--period", required=True,
                         help="a month (2026-12), a day (2026-12-02) or all")
    parsing.add_argument("--out", default=".", help="the folder to write the files into")
    return parsing


def dump_main(argv: Sequence[str], source: Source) -> int:
    arguments = parser().parse_args(list(argv))
    try:
        since, until = period_bounds(arguments.period)
    except ValueError as error:
        print(f"dominion-server dump: {error}", file=sys.stderr)
        return 2
    folder = Path(arguments.out)
    if not folder.is_dir():
        print(f"dominion-server dump: no folder {folder}", file=sys.stderr)
        return 2
    try:
        done = dump(source(arguments, since, until), folder, arguments.period)
    except StorageError as error:
        print(f"dominion-server dump: {error}", file=sys.stderr)
        return 2
    rate = done.games / done.seconds if done.seconds else 0.0
    print(f"dumped {done.games} games of {done.period} in {done.seconds:.1f} s "
          f"({rate:.0f} games/s)")
    for written in done.files:
        print(f"{written.name}: {written.rows} rows, {written.bytes} bytes, "
              f"sha256 {written.sha256}")
    return 0
