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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from ..storage import StorageError, StoredGame
from .build import finished_replay, unpack_derived
from .fields import SeatRating
from .format import MINOR, VERSION


class EndedGame(NamedTuple):
    """An archived game as a dump reads it."""

    stored: StoredGame
    ratings: Mapping[int, SeatRating] | None
    """When rated and in the rating ledger: its seats' ratings."""
    events: bytes | None = None
    """Its events as the archive keeps them (`build.pack_derived`), unpacked only as the
    dump writes the game: a batch of games' events held unpacked, millions of objects,
    would cost the collector more than unpacking them; None: played back."""


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


def public_replay(game: EndedGame) -> dict[str, Any]:
    """A replay as a dump holds it: no chat; a rated game's ratings as the ledger has them."""
    derived = None if game.events is None else unpack_derived(game.events)
    return finished_replay(game.stored, [], game.ratings, derived)


def game_row(replay: dict[str, Any]) -> tuple[Any, ...]:
    """A replay's row of the games table, in the table's column order."""
    game, result = replay["game"], replay["result"] or {}
    control = game["time_control"] or {}
    return (game["id"], game["finished_at"], (game["finished_at"] or "")[:10], game["state"],
            game["edition"], game["kingdom"], len(replay["players"]), game["first_player"],
            game["end_reason"], game["rated"], control.get("initial_seconds"),
            control.get("increment_seconds"),
            replay["events"][-1]["turn"] if replay["events"] else 0,
            result.get("winners", []))


def seat_rows(replay: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A replay's rows of the seats table, in the table's column order."""
    result = replay["result"] or {}
    scores, turns = result.get("scores", []), result.get("turns", [])
    resigned, winners = set(result.get("resigned", [])), set(result.get("winners", []))
    seats = [_Seat(player, scores[player["seat"]] if player["seat"] < len(scores) else None,
                   turns[player["seat"]] if player["seat"] < len(turns) else None,
                   player["seat"] in resigned)
             for player in replay["players"]]
    ranked = [seat.standing for seat in seats if seat.score is not None]
    game_id = replay["game"]["id"]
    rows = []
    for seat in seats:
        player = seat.player
        # 1 + the seats strictly ahead: ties share a rank
        rank = None if seat.score is None else 1 + sum(other < seat.standing
                                                       for other in ranked)
        rows.append((game_id, player["seat"], player["name"], player["kind"],
                     player["strategy"], player["level"], player["account"],
                     player["rating_before"], player["rating_after"], seat.score, seat.turns,
                     rank, player["seat"] in winners, seat.resigned, player["taken_over"]))
    return rows


@dataclass(frozen=True, slots=True)
class _Seat:
    player: dict[str, Any]
    score: int | None
    turns: int | None
    resigned: bool

    @property
    def standing(self) -> tuple[bool, int, int]:
        """Resigned or taken-over seats last, then more points, then fewer turns."""
        return (self.resigned or self.player["taken_over"], -(self.score or 0),
                self.turns or 0)


def gain_rows(replay: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Every card bought or gained, in the gains table's column order: by whom, on which
    turn (the game's, and the player's own of the turn it happened in), how, and what made
    it happen."""
    game_id, player_turn = replay["game"]["id"], 0
    for event in replay["events"]:
        kind = event["kind"]
        if kind == "turn_started":
            player_turn = event["data"]["player_turn"]
        elif kind in ("bought", "gained"):
            for card in event.get("cards", ()):
                yield (game_id, event.get("player"), event["turn"], player_turn, card, kind,
                       event.get("source"), event.get("zone"))


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
    """One Parquet file, written a batch of rows at a time, each batch turned into columns
    at once (rows are tuples in the schema's column order)."""

    def __init__(self, folder: Path, name: str, schema: Any) -> None:
        from pyarrow import parquet

        self.file = DumpFile(name)
        self._schema = schema
        self._rows: list[tuple[Any, ...]] = []
        self._writer = parquet.ParquetWriter(self.file.partial(folder), schema,
                                             compression="zstd")

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self._rows.extend(rows)
        if len(self._rows) >= ROWS_PER_BATCH:
            self._flush()

    def _flush(self) -> None:
        import pyarrow

        if self._rows:
            columns = zip(*self._rows, strict=True)
            self._writer.write_table(pyarrow.Table.from_arrays(
                [pyarrow.array(column, type=kind.type)
                 for column, kind in zip(columns, self._schema, strict=True)],
                schema=self._schema))
            self.file.rows += len(self._rows)
            self._rows = []

    def close(self) -> None:
        self._flush()
        self._writer.close()


def _schemas() -> dict[str, Any]:
    import pyarrow as pa

    text, small, whole = pa.string(), pa.int8(), pa.int32()
    return {
        "games": pa.schema([
            ("game_id", text), ("finished_at", text), ("date", text), ("state", text),
            ("edition", small), ("kingdom", pa.list_(text)), ("players", small),
            ("first_player", small), ("end_reason", text), ("rated", pa.bool_()),
            ("initial_seconds", whole), ("increment_seconds", whole), ("turns", pa.int16()),
            ("winners", pa.list_(small))]),
        "seats": pa.schema([
            ("game_id", text), ("seat", small), ("name", text), ("kind", text),
            ("strategy", text), ("level", small), ("account", text),
            ("rating_before", whole), ("rating_after", whole), ("score", pa.int16()),
            ("turns", pa.int16()), ("rank", small), ("winner", pa.bool_()),
            ("resigned", pa.bool_()), ("taken_over", pa.bool_())]),
        "gains": pa.schema([
            ("game_id", text), ("seat", small), ("turn", pa.int16()),
            ("player_turn", pa.int16()), ("card", text), ("how", text), ("source", text),
            ("zone", text)]),
    }


def dump(games: Iterable[EndedGame], folder: Path, period: str) -> Dumped:
    """Write the games' files and manifest into `folder`; what was written."""
    import zstandard

    started = time.perf_counter()
    done = Dumped(period)
    base = f"dominion-{period}"
    replays = DumpFile(f"{base}.replays.ndjson.zst")
    tables = {name: _Table(folder, f"{base}.{name}.parquet", schema)
              for name, schema in _schemas().items()}
    # threads=1: zstd compresses in a thread of its own while the next replays are made
    with replays.partial(folder).open("wb") as raw, \
            zstandard.ZstdCompressor(level=3, threads=1).stream_writer(raw) as compressed:
        for game in games:
            replay = public_replay(game)
            compressed.write(orjson.dumps(replay) + b"\n")
            tables["games"].add([game_row(replay)])
            tables["seats"].add(seat_rows(replay))
            tables["gains"].add(gain_rows(replay))
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
