"""Building replays: a finished game in full, or a running game as a spectator sees it.

The format is versioned (docs/REPLAYS.md). A finished game's replay reveals the seed,
so anyone can check it against the commitment published at the start and re-play
every answer (`verify.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import zstandard

from ..engine import Event, Game, Setup, event_record, view, visible_event
from .fields import SeatRating, first_player, game_facts, players, with_turns
from .format import FORMAT, MINOR, SHUFFLE, VERSION, answer_record

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..storage import GameRecord, SeatRecord, StoredGame

WORK_PER_ANSWER = 4
"""A finished game's replay re-derives its events from its answers (about four events
each): its work, in events, before it is done."""


def replay_work(answers: int) -> int:
    """The work of a finished game's replay with this many answers, in events (paid for
    from the client's allowances before it is done: server/edge/transport/budgets.py)."""
    return WORK_PER_ANSWER * answers


def _game_part(record: GameRecord, events: list[dict[str, Any]],
               ending: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": record.id, "state": record.state, "edition": record.edition,
        "kingdom": list(record.kingdom), "kingdom_name": record.kingdom_name,
        "created_at": record.created_at, "started_at": record.started_at,
        "finished_at": record.finished_at,
    } | game_facts(record, first_player(events), ending)


def logged_events(stored: StoredGame) -> list[dict[str, Any]]:
    """Every event of a stored game, hidden cards included: its answers replayed."""
    game, _ = _play_back(stored)
    return [] if game is None else [event_record(event) for event in game.events]


def _play_back(stored: StoredGame) -> tuple[Game | None, list[int]]:
    """A stored game replayed (None if it never started), and how many events it had once
    set up and then once each answer was applied (where a replay steps answer by answer)."""
    record = stored.game
    if record.setup is None or record.seed is None:
        return None, []
    game = Game(Setup.from_dict(record.setup), record.seed)
    counts = [game.event_count]
    for entry in stored.answers:
        game.apply(entry)
        counts.append(game.event_count)
    return game, counts


@dataclass(frozen=True, slots=True)
class Derived:
    """What a finished game's replay derives from its answers through the engine: derived
    once when the game is archived (`pack_derived`), read back by dumps and exports."""

    events: list[dict[str, Any]]
    """Every event, hidden cards included, each with its turn."""
    events_by_answer: list[int]
    ending: dict[str, Any] | None


def derive(stored: StoredGame) -> Derived:
    """A finished game's answers played back through the engine."""
    game, counts = _play_back(stored)
    if game is None:
        return Derived([], counts, None)
    return derived_from(game, counts)


def derived_from(game: Game, counts: list[int]) -> Derived:
    """What `derive` makes, from a game already played to its end (a bot filler's: playing
    it back would cost as much again) and its event counts once set up and after each
    answer."""
    return Derived(list(with_turns(event_record(e) for e in game.events)), counts,
                   None if game.result is None else game.result.ending())


DERIVED_LEVEL = 3
"""zstd's level for a derived replay part: most of the gain of higher levels, at a few
times the speed (docs/BENCHMARKS.md, "The archive's cost")."""


def pack_derived(derived: Derived) -> bytes:
    """The derived part as the archive keeps it: its JSON, as a replay spells it, zstd."""
    text = orjson.dumps([derived.events, derived.events_by_answer, derived.ending])
    return zstandard.ZstdCompressor(level=DERIVED_LEVEL).compress(text)


def unpack_derived(data: bytes) -> Derived:
    events, counts, ending = orjson.loads(zstandard.ZstdDecompressor().decompress(data))
    return Derived(events, counts, ending)


def finished_replay(stored: StoredGame, chat: list[dict[str, Any]],
                    ratings: Mapping[int, SeatRating] | None = None,
                    derived: Derived | None = None) -> dict[str, Any]:
    """Everything about an ended game: set-up, players, seed, answers, every event, result;
    `ratings`, a rated game's seats' ratings as the ledger has them, by seat; `derived`,
    its events as the archive keeps them (without it, its answers are played back)."""
    record = stored.game
    found = derive(stored) if derived is None else derived
    events, counts, ending = found.events, found.events_by_answer, found.ending
    return {
        "format": FORMAT,
        "version": VERSION,
        "minor": MINOR,
        "complete": True,
        "game": _game_part(record, events, ending),
        "players": players(stored.seats, ratings),
        "setup": record.setup,
        "shuffle": SHUFFLE,
        "seed": None if record.seed is None else str(record.seed),
        "commitment": record.commitment,
        "answers": [answer_record(entry) for entry in stored.answers],
        "events": events,
        "events_by_answer": counts,
        "result": record.result,
        "ending": ending,
        "chat": chat_records(chat),
    }


def chat_records(chat: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A game's chat lines as its replay lists them."""
    return [{"at": c["at"], "seat": c["seat"], "name": c["name"], "text": c["text"]}
            for c in chat]


def spectator_replay(record: GameRecord, seats: Sequence[SeatRecord], game: Game | None,
                     events: Iterable[Event]) -> dict[str, Any]:
    """A game still running (or not started, with no `game`): only what a spectator may
    see so far of its `events` (every event so far; none before the start)."""
    seen = list(with_turns(visible_event(e, None) for e in events))
    return {
        "format": FORMAT,
        "version": VERSION,
        "minor": MINOR,
        "complete": False,
        "game": _game_part(record, seen, None),
        "players": players(seats),
        "setup": record.setup,
        "shuffle": SHUFFLE,
        "seed": None,
        "commitment": record.commitment,
        "answers": None,
        "events": seen,
        "view": None if game is None else view(game, None),
        "result": None,
        "chat": [],
    }
