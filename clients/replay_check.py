"""`dominion replay verify`: check replays with the published engine (docs/REPLAYS.md,
"Checking a game was played fairly"), from a downloaded replay, a whole export (NDJSON,
one replay a line, as `GET /api/v1/replays/export` streams it) or a file of several
replays, read from files or standard input, and say per game what failed.

This and `replay show` read the same forms; only `verify_file` runs the engine (the one
place the client imports the server's code: tests/test_boundaries.py).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgpack  # type: ignore[import-untyped]

from .i18n import _

STDIN = "-"
"""The file name that reads standard input."""
TEXT_REPLAY = b"Dominion,"
"""The first word of every text replay."""
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""How a zstd frame begins: a dump's replays (docs/REPLAYS.md, "Dumps")."""


@dataclass(frozen=True, slots=True)
class Found:
    """One replay of an input of several, or why what stood there could not be read."""

    where: str
    """The file, with the line of an export (`FILE:LINE`) or the place of a msgpack map in
    a file of several (`FILE#N`)."""
    replay: dict[str, Any] | None = None
    problem: str | None = None
    line: bytes | None = None
    """An export's line, read only where it is checked (`read`): in a worker process, with
    `--jobs`."""

    def read(self) -> Found:
        """This replay read from its line, if it came as one."""
        if self.line is None:
            return self
        try:
            return _map(self.where, json.loads(self.line))
        except ValueError as error:
            return Found(self.where, problem=str(error))

    @property
    def label(self) -> str:
        """The game's id where the replay has one, else where it stood."""
        game = (self.replay or {}).get("game")
        game_id = game.get("id") if isinstance(game, dict) else None
        return game_id if isinstance(game_id, str) else self.where


def load_replay(path: Path) -> dict[str, Any]:
    """The one replay in a file (JSON or msgpack); ValueError (or OSError) otherwise."""
    with path.open("rb") as stream:
        found = [each.read() for each in replays_in(str(path), stream)]
    if len(found) != 1:
        raise ValueError(_("a replay is a JSON or msgpack map"))
    if found[0].replay is None:
        raise ValueError(found[0].problem)
    return found[0].replay


def replays_in(name: str, lines: Iterable[bytes]) -> Iterator[Found]:
    """Every replay in an input, given as its lines (a binary file iterates so): NDJSON
    (one replay a line, read a line at a time), one JSON document, or msgpack maps one
    after another. ValueError if the input as a whole is none of these."""
    rest = iter(lines)
    first = next(rest, b"")
    if first.lstrip().startswith(b"{"):
        try:
            value = json.loads(first)
        except ValueError:  # a replay written over several lines: one JSON document
            yield _map(name, json.loads(first + b"".join(rest)))
            return
        yield _map(f"{name}:1", value)
        for number, line in enumerate(rest, start=2):
            if line.strip():
                yield Found(f"{name}:{number}", line=line)
        return
    data = first + b"".join(rest)
    if data.startswith(TEXT_REPLAY):
        raise ValueError(_("it is a text replay, for people to read; verify and show read "
                           "the JSON or msgpack form (dominion replay download GAME "
                           "--format json)"))
    yield from _msgpack_maps(name, data)


def _msgpack_maps(name: str, data: bytes) -> Iterator[Found]:
    """One msgpack map (the replay's msgpack form), or several one after another. A bad
    first value makes the whole input unreadable (ValueError); a bad later one ends it."""
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(data), 1))
    unpacker.feed(data)
    values: list[object] = []
    problem = None
    try:
        values.extend(unpacker)
    except (ValueError, msgpack.UnpackException) as error:
        problem = str(error) or type(error).__name__
    if problem is None and unpacker.tell() < len(data):
        problem = _("the file is cut short")
    if not values:
        raise ValueError(problem or _("a replay is a JSON or msgpack map"))
    if not isinstance(values[0], dict):  # not replays at all (a JSON list reads as integers)
        raise ValueError(_("a replay is a JSON or msgpack map"))
    several = len(values) > 1 or problem is not None
    for number, value in enumerate(values, start=1):
        yield _map(f"{name}#{number}" if several else name, value)
    if problem is not None:
        yield Found(f"{name}#{len(values) + 1}", problem=problem)


def _map(where: str, value: object) -> Found:
    if not isinstance(value, dict):
        return Found(where, problem=_("a replay is a JSON or msgpack map"))
    return Found(where, replay=value)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One replay's check, as a worker process hands it back: no replay, only what the
    report says."""

    label: str
    unreadable: str | None = None
    """Why the replay could not be read; None if it was checked."""
    problems: tuple[str, ...] = ()
    answers: int = 0
    events: int = 0

    @property
    def ok(self) -> bool:
        return self.unreadable is None and not self.problems


CHUNK = 32
"""Replays a worker checks at a time with `--jobs`: few enough hand-offs that the parent,
which reads and prints, keeps up; small enough that the verdicts come out steadily."""


def check(found: Found) -> Verdict:
    """Read and check one replay (in a worker process with `--jobs`)."""
    from dominion.server.replays import verify_replay

    found = found.read()
    if found.replay is None:
        return Verdict(found.where, unreadable=found.problem)
    result = verify_replay(found.replay)
    return Verdict(found.label, problems=tuple(result.problems),
                   answers=len(found.replay["answers"]),
                   events=len(found.replay.get("events", [])))


def verify_file(names: Sequence[str], jobs: int = 1) -> int:
    """Check every replay in the files named (`-`: standard input), printing each game's
    verdict as it goes, in the files' order; `jobs` processes check them. 0: every replay
    verified; 1: one did not, or a part of an input could not be read; 2: an input could
    not be read at all."""
    from dominion.server.gc_tuning import tune_gc

    tune_gc()  # each check replays a game: short-lived objects by the thousand
    checked = failed = 0
    unreadable = False
    with contextlib.ExitStack() as workers:
        checking: Callable[[Iterable[Found]], Iterable[Verdict]] = functools.partial(map, check)
        if jobs > 1:
            pool = workers.enter_context(multiprocessing.Pool(jobs, tune_gc))
            checking = functools.partial(pool.imap, check, chunksize=CHUNK)
        for name in names:
            where = _("standard input") if name == STDIN else name
            try:
                with contextlib.ExitStack() as stack:
                    stream = (sys.stdin.buffer if name == STDIN
                              else stack.enter_context(Path(name).open("rb")))
                    for verdict in checking(replays_in(where, _decompressed(stream, stack))):
                        checked += 1
                        failed += not _report(verdict)
            except (OSError, ValueError) as error:
                print(_("cannot read {path}: {error}").format(path=where, error=error),
                      file=sys.stderr)
                unreadable = True
    if checked > 1:
        print(_("replays checked: {count}; failed: {failed}").format(count=checked,
                                                                      failed=failed))
    return 2 if unreadable else 1 if failed else 0


def _decompressed(stream: IO[bytes], stack: contextlib.ExitStack) -> IO[bytes]:
    """A dump's zstd-compressed NDJSON, decompressed as it is read; anything else as it is
    (files and standard input are buffered readers, which look ahead without reading)."""
    if (not isinstance(stream, io.BufferedReader)
            or stream.peek(len(ZSTD_MAGIC))[:len(ZSTD_MAGIC)] != ZSTD_MAGIC):
        return stream
    try:
        import zstandard
    except ImportError:
        raise ValueError(_("it is compressed with zstd: install zstandard (pip install "
                           "zstandard), or decompress it first (zstd -d)")) from None
    return io.BufferedReader(stack.enter_context(
        zstandard.ZstdDecompressor().stream_reader(stream)))


def _report(verdict: Verdict) -> bool:
    """Print one replay's verdict; True if it verified."""
    if verdict.unreadable is not None:
        print(_("cannot read {path}: {error}").format(path=verdict.label,
                                                      error=verdict.unreadable),
              file=sys.stderr)
        return False
    if verdict.ok:
        print(f"{verdict.label}: " + _(
            "ok: the seed matches its commitment, and the answers ({answers}) replay "
            "to the recorded events ({events}) and result").format(
            answers=verdict.answers, events=verdict.events), flush=True)
        return True
    for problem in verdict.problems:
        print(f"{verdict.label}: " + _("FAILED: {problem}").format(problem=problem),
              flush=True)
    return False
